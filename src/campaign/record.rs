//! The checks that refuse to mix runs whose setups differ. The records a
//! campaign writes (`campaign.json`, `run-K/contract.json`) are
//! `binostr_records`'.

use std::path::Path;

use anyhow::{Context, Result, bail};
use serde_json::Value;

pub use binostr_records::{
    Apart, CampaignRecord, Contract, ContractCorpus, CorpusRecord, Observed, Refused, RunRecord,
    SCHEMA,
};

/// The first field where two JSON values differ, as a dotted path with
/// both values.
pub fn first_difference(path: &str, a: &Value, b: &Value) -> Option<(String, String, String)> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            keys.into_iter().find_map(|k| {
                let sub = format!("{path}.{k}");
                match (x.get(k), y.get(k)) {
                    (Some(va), Some(vb)) => first_difference(&sub, va, vb),
                    (va, vb) => Some((sub, show(va), show(vb))),
                }
            })
        }
        _ if a == b => None,
        _ => Some((path.to_string(), a.to_string(), b.to_string())),
    }
}

fn show(v: Option<&Value>) -> String {
    v.map_or_else(|| "(absent)".into(), Value::to_string)
}

/// Refuses when `existing` and `current` differ, naming the field.
pub fn check_contract(run: &str, existing: &Contract, current: &Contract) -> Result<()> {
    let a = serde_json::to_value(existing)?;
    let b = serde_json::to_value(current)?;
    if let Some((field, there, here)) = first_difference("contract", &a, &b) {
        bail!(
            "{run} was measured under a different contract: field `{field}` is {there} there but {here} now; \
             use a new --label (or restore the original setup) to add runs"
        );
    }
    Ok(())
}

pub(super) fn check_campaign_record(dir: &Path, record: &CampaignRecord) -> Result<()> {
    let path = dir.join(binostr_records::files::CAMPAIGN);
    if !path.exists() {
        return Ok(());
    }
    let existing: CampaignRecord = read_json(&path)?;
    let mut a = serde_json::to_value(&existing)?;
    let mut b = serde_json::to_value(record)?;
    for v in [&mut a, &mut b] {
        v.as_object_mut().expect("object").remove("runs");
    }
    if let Some((field, there, here)) = first_difference("campaign", &a, &b) {
        bail!(
            "{} exists with a different setup: field `{field}` is {there} there but {here} now; use a new --label",
            path.display()
        );
    }
    Ok(())
}

pub(super) fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_slice(&bytes).with_context(|| format!("parsing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_difference_names_the_field() {
        let a = serde_json::json!({"x": {"y": 1, "z": [1, 2]}, "w": "a"});
        let mut b = a.clone();
        assert_eq!(first_difference("c", &a, &b), None);
        b["x"]["z"] = serde_json::json!([1, 3]);
        assert_eq!(
            first_difference("c", &a, &b),
            Some(("c.x.z".into(), "[1,2]".into(), "[1,3]".into()))
        );
        b = a.clone();
        b["x"].as_object_mut().unwrap().remove("y");
        assert_eq!(
            first_difference("c", &a, &b).unwrap().0,
            "c.x.y".to_string()
        );
    }
}

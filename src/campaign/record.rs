//! The records a campaign writes (`campaign.json`, `run-K/contract.json`)
//! and the checks that refuse to mix runs whose setups differ.

use std::path::Path;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::CampaignSettings;
use super::host::{Git, Host};
use crate::bench::group::Sequence;
use crate::bench::timing::Settings;

/// Record schema version (see `docs/RESULTS.md`).
pub const SCHEMA: u32 = 2;

/// The corpus a campaign measured.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CorpusRecord {
    /// Fingerprint of the measured events.
    pub fingerprint: String,
    /// Events measured.
    pub count: usize,
    /// Seed of generation and selection (`null` for `--corpus FILE`).
    pub seed: Option<u64>,
    /// `generated`, `real` (the recorded real corpus) or the file name given.
    pub source: String,
    /// SHA-256 of `corpus/audit.json`.
    pub audit_sha256: String,
    /// Enabled profiles that cannot represent every event, measured apart.
    #[serde(default)]
    pub apart: Vec<Apart>,
}

/// An enabled profile that cannot represent every event of the corpus. The
/// corpus keeps those events; the profile is measured apart, on the events
/// it represents, paired with json on the same events (`run-K/apart-ID/`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Apart {
    /// Profile id.
    pub profile: String,
    /// Events it represents, measured apart.
    pub count: usize,
    /// Fingerprint of those events.
    pub fingerprint: String,
    /// The events it refuses.
    pub refused: Vec<Refused>,
}

/// An event of the corpus that an [`Apart`] profile refuses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refused {
    /// Event id, hex.
    pub id: String,
    /// Its encoder's reason.
    pub reason: String,
}

/// `campaign.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignRecord {
    /// Schema version.
    pub schema: u32,
    /// Label.
    pub label: String,
    /// Campaign settings (`--settings`; the field keeps its written name).
    pub campaign_profile: CampaignSettings,
    /// Runs asked for most recently.
    pub runs: usize,
    /// Seed.
    pub seed: u64,
    /// Corpus.
    pub corpus: CorpusRecord,
    /// The events every pass of each subset covers.
    pub sequences: Vec<Sequence>,
}

/// Everything that must be equal for runs to be comparable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Contract {
    /// Source tree.
    pub git: Git,
    /// `rustc -vV` of the compiler that built the binary.
    pub rustc: String,
    /// Cargo profile of the binary.
    pub build_profile: String,
    /// RUSTFLAGS of the binary.
    pub rustflags: String,
    /// SHA-256 of Cargo.lock.
    pub cargo_lock_sha256: String,
    /// The corpus: fingerprint, count, seed.
    pub corpus: ContractCorpus,
    /// Campaign settings (`--settings`; the field keeps its written name).
    pub campaign_profile: CampaignSettings,
    /// Criterion settings.
    pub criterion: Settings,
    /// The machine.
    pub host: Host,
}

/// The corpus part of a contract.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContractCorpus {
    /// Fingerprint.
    pub fingerprint: String,
    /// Events.
    pub count: usize,
    /// Seed (`null` for a corpus file).
    pub seed: Option<u64>,
}

/// Recorded but not compared.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Observed {
    /// Run number.
    pub run: usize,
    /// Seed of the shuffled benchmark order.
    pub order_seed: u64,
    /// Groups timed.
    pub groups: usize,
    /// Subsets skipped because the corpus has no events in them.
    pub empty_subsets: Vec<String>,
    /// Start, RFC 3339 UTC.
    pub started: String,
    /// End, RFC 3339 UTC.
    pub finished: String,
    /// Load averages before.
    pub load_before: Vec<f64>,
    /// Load averages after.
    pub load_after: Vec<f64>,
    /// `instructions.csv`: the Valgrind version that counted it, or why it
    /// was skipped (absent in runs recorded before it existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
}

/// `run-K/contract.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// Schema version.
    pub schema: u32,
    /// Compared between runs.
    pub contract: Contract,
    /// Not compared.
    pub observed: Observed,
}

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
    let path = dir.join("campaign.json");
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

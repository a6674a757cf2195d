//! A registry entry's maintenance record (`registry.json`'s `maintenance`,
//! written from `src/codec/maintenance.rs`): the specification it cites and
//! the crates its codec calls.

use serde_json::Value;

use crate::read::registry::RegistryEntry;

/// A wire format's specification, as the registry cites it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// `ietf-rfc`, `vendor`, `informal` or `none`.
    pub status: String,
    /// The document's title (`none` has none).
    pub title: Option<String>,
    /// `RFC N`, the URL(s), or the implementation defining the layout.
    pub citation: String,
}

/// The specification of `entry`; `None` when its record has no `spec`
/// status (registries that predate it).
pub fn spec(entry: &RegistryEntry) -> Option<Spec> {
    let s = entry.maintenance.get("spec")?;
    let text = |k: &str| s.get(k).and_then(Value::as_str).map(str::to_owned);
    let citation = if let Some(n) = s.get("number").and_then(Value::as_u64) {
        format!("RFC {n}")
    } else if let Some(urls) = s.get("urls").and_then(Value::as_array) {
        urls.iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        text("url").or_else(|| text("implementation"))?
    };
    Some(Spec {
        status: text("status")?,
        title: text("title"),
        citation,
    })
}

/// The external crates the codec of `entry` calls, in registry order.
pub fn crates(entry: &RegistryEntry) -> Vec<String> {
    entry
        .maintenance
        .get("crates")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(maintenance: Value) -> RegistryEntry {
        RegistryEntry {
            borrowed_view: false,
            deterministic: true,
            enabled: true,
            family: "f".into(),
            id: "p".into(),
            maintenance,
            native_batch: false,
            self_describing: false,
        }
    }

    #[test]
    fn each_spec_status_gives_its_citation() {
        let rfc = entry(serde_json::json!({"crates": ["serde", "serde_json"],
            "spec": {"number": 8259, "status": "ietf-rfc", "title": "JSON"}}));
        assert_eq!(
            spec(&rfc),
            Some(Spec {
                status: "ietf-rfc".into(),
                title: Some("JSON".into()),
                citation: "RFC 8259".into()
            })
        );
        assert_eq!(crates(&rfc), ["serde", "serde_json"]);
        let informal = entry(serde_json::json!({"spec": {"status": "informal",
            "title": "t", "urls": ["https://a", "https://b"]}}));
        assert_eq!(spec(&informal).unwrap().citation, "https://a https://b");
        let none = entry(serde_json::json!({"spec": {"status": "none",
            "implementation": "repo (file.go)"}}));
        let s = spec(&none).unwrap();
        assert_eq!((s.title, s.citation.as_str()), (None, "repo (file.go)"));
        assert_eq!(spec(&entry(serde_json::json!({}))), None);
        assert!(crates(&entry(serde_json::json!({}))).is_empty());
    }
}

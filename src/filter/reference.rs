//! The reference matcher: NIP-01 filter semantics evaluated on parsed JSON.
//!
//! Both the filter and the event are [`serde_json::Value`]s, the event read
//! from its compact NIP-01 JSON; nothing goes through [`crate::Event`],
//! [`crate::EventRef`] or [`super::Filter::matches`], so the counts it gives
//! check every profile's decode and view independently.

use serde_json::Value;

use super::Filter;

/// Why the reference matcher could not evaluate an event.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("reference matcher: bad or missing {0}")]
pub struct ReferenceError(&'static str);

/// Whether the event JSON `event` matches the filter JSON `filter`.
pub fn matches_value(filter: &Value, event: &Value) -> Result<bool, ReferenceError> {
    let filter = filter.as_object().ok_or(ReferenceError("filter object"))?;
    let event = event.as_object().ok_or(ReferenceError("event object"))?;
    let field = |k: &'static str| event.get(k).ok_or(ReferenceError(k));
    for (key, want) in filter {
        let list = want.as_array();
        let ok = match key.as_str() {
            "ids" => {
                let have = field("id")?;
                list.is_some_and(|w| w.contains(have))
            }
            "authors" => {
                let have = field("pubkey")?;
                list.is_some_and(|w| w.contains(have))
            }
            "kinds" => {
                let have = field("kind")?;
                list.is_some_and(|w| w.contains(have))
            }
            "since" | "until" | "limit" => {
                let at = field("created_at")?
                    .as_u64()
                    .ok_or(ReferenceError("created_at"))?;
                let bound = want.as_u64().ok_or(ReferenceError("filter bound"))?;
                match key.as_str() {
                    "since" => at >= bound,
                    "until" => at <= bound,
                    _ => true,
                }
            }
            _ => {
                let name = key.strip_prefix('#').ok_or(ReferenceError("filter key"))?;
                let w = list.ok_or(ReferenceError("filter tag list"))?;
                let tags = field("tags")?.as_array().ok_or(ReferenceError("tags"))?;
                tags.iter().any(|t| {
                    t.as_array().is_some_and(|t| {
                        t.len() >= 2 && t[0].as_str() == Some(name) && w.contains(&t[1])
                    })
                })
            }
        };
        if !ok {
            return Ok(false);
        }
    }
    Ok(true)
}

/// For each filter, whether each event (compact NIP-01 JSON) matches.
pub fn hits(filters: &[Filter], events_json: &[Vec<u8>]) -> Result<Vec<Vec<bool>>, ReferenceError> {
    let events: Vec<Value> = events_json
        .iter()
        .map(|j| serde_json::from_slice(j).map_err(|_| ReferenceError("event json")))
        .collect::<Result<_, _>>()?;
    filters
        .iter()
        .map(|f| {
            let fv = f.to_json();
            events.iter().map(|e| matches_value(&fv, e)).collect()
        })
        .collect()
}

/// For each filter, how many of the events (compact NIP-01 JSON) match.
pub fn counts(filters: &[Filter], events_json: &[Vec<u8>]) -> Result<Vec<u64>, ReferenceError> {
    Ok(hits(filters, events_json)?
        .iter()
        .map(|h| h.iter().filter(|&&m| m).count() as u64)
        .collect())
}

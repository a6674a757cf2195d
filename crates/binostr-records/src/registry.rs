//! `registry.json`: the profile registry as a campaign measured it
//! (`binostr profiles --json`).

use serde::{Deserialize, Serialize};

/// One registry entry. Fields are in name order, as the file has them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RegistryEntry {
    /// The codec has a borrowed (zero-copy) view.
    pub borrowed_view: bool,
    /// Equal events encode to equal bytes.
    pub deterministic: bool,
    /// Enabled by default (measured by a campaign).
    pub enabled: bool,
    /// Family.
    pub family: String,
    /// Profile id.
    pub id: String,
    /// The maintenance record (`docs/FORMATS.md`), its keys in name order.
    pub maintenance: serde_json::Value,
    /// The codec encodes a batch natively.
    pub native_batch: bool,
    /// Field names travel with the data.
    pub self_describing: bool,
}

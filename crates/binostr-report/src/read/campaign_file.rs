//! `results/campaigns/<label>/campaign.json`: the event sequences each subset
//! times and the profiles measured apart (types from `binostr_records`).

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};

pub use binostr_records::{CampaignRecord, Sequence};

/// Reads and parses the `campaign.json` at `path`.
pub fn read(path: &Path) -> Result<CampaignRecord> {
    let text = fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))
}

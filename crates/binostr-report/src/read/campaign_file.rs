//! `results/campaigns/<label>/campaign.json`: the event sequences each subset
//! times and the profiles measured apart.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};
use serde::Deserialize;

use crate::read::apart::ApartRecord;

/// The file name, in the campaign's directory.
pub const CAMPAIGN_FILE: &str = "campaign.json";

/// One entry of `campaign.json`'s `sequences`.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct Sequence {
    /// Subset name.
    pub subset: String,
    /// Events in the subset.
    pub of: u64,
    /// Indices of the events each pass covers.
    pub indices: Vec<u64>,
    /// The sequence id (as in `samples.csv`'s `sequence`).
    pub id: String,
}

/// `campaign.json`'s `corpus`, the part read here.
#[derive(Default, Deserialize)]
pub struct CorpusFile {
    /// Profiles measured apart.
    #[serde(default)]
    pub apart: Vec<ApartRecord>,
}

/// `campaign.json`, the parts read here.
#[derive(Deserialize)]
pub struct CampaignFile {
    /// The event sequence of each subset.
    #[serde(default)]
    pub sequences: Vec<Sequence>,
    /// The corpus, with the profiles measured apart.
    #[serde(default)]
    pub corpus: CorpusFile,
}

impl CampaignFile {
    /// Reads and parses `path`.
    pub fn read(path: &Path) -> Result<Self> {
        let text =
            fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))
    }
}

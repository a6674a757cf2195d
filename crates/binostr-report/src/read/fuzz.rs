//! `results/fuzz/<profile>.json`: one record per fuzzed profile, as
//! `scripts/fuzz-all.py` wrote it (`results/fuzz/README.md`).

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};
use serde::Deserialize;

/// The directory of the fuzzing records, relative to the repository root.
pub const DIR: &str = "results/fuzz";

/// The fields of one fuzzing record that the paper states (others ignored).
#[derive(Clone, Debug, Deserialize)]
pub struct Fuzz {
    /// Profile id.
    pub profile: String,
    /// Wall seconds fuzzed.
    pub seconds: f64,
    /// Inputs run (libFuzzer's `number_of_executed_units`).
    pub executions: u64,
    /// Runs at a time on the host (absent in early records).
    #[serde(default)]
    pub jobs: Option<u64>,
    /// The host's cores and CPU model (absent in early records).
    #[serde(default)]
    pub host: Option<String>,
    /// Crashes found (their records).
    pub crashes: Vec<serde_json::Value>,
    /// The commit fuzzed.
    pub commit: String,
    /// Whether the tree had uncommitted changes.
    pub code_dirty: bool,
}

/// Every `*.json` under [`DIR`], sorted by profile; empty (with a warning)
/// when there is none.
pub fn read_fuzz(root: &Path, warnings: &mut Vec<String>) -> Result<Vec<Fuzz>> {
    let dir = root.join(DIR);
    let mut files: Vec<_> = match fs::read_dir(&dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect(),
        Err(_) => Vec::new(),
    };
    if files.is_empty() {
        warnings.push(format!(
            "no fuzzing records ({}/*.json): the fuzzing macros are not defined",
            dir.display()
        ));
        return Ok(Vec::new());
    }
    files.sort();
    let mut out = files
        .iter()
        .map(|p| {
            let text = fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
            serde_json::from_str::<Fuzz>(&text).with_context(|| format!("parsing {}", p.display()))
        })
        .collect::<Result<Vec<_>>>()?;
    out.sort_by(|a, b| a.profile.cmp(&b.profile));
    Ok(out)
}

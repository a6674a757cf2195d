//! What the campaign's signed manifest covers (`binostr manifest create`):
//! the paths its `manifest.json` lists, and the side inputs the report reads
//! from outside the campaign, which no manifest lists.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};
use serde::Deserialize;

use crate::read::records;

/// The inputs from outside the campaign directory that the report reads,
/// each a directory relative to the repository root.
pub const SIDE_INPUTS: [&str; 6] = [
    binostr_records::robustness::DIR,
    "results/interop",
    "results/evolution",
    "results/maintenance",
    "results/speed",
    crate::read::fuzz::DIR,
];

#[derive(Deserialize)]
struct Manifest {
    files: Vec<Listed>,
}

#[derive(Deserialize)]
struct Listed {
    path: String,
}

/// The paths `label`'s `manifest.json` lists, sorted; `None` when the
/// campaign has no manifest.
pub fn manifest_paths(root: &Path, label: &str) -> Result<Option<Vec<String>>> {
    let path = records::campaign_dir(root, label).join(binostr_records::files::MANIFEST);
    if !path.exists() {
        return Ok(None);
    }
    let text = fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let m: Manifest =
        serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    let mut paths: Vec<String> = m.files.into_iter().map(|f| f.path).collect();
    paths.sort();
    Ok(Some(paths))
}

//! What the campaign's signed manifest covers (`binostr manifest create`):
//! the paths its `manifest.json` lists, and the side inputs the report reads
//! from outside the campaign (listed by the manifest of the campaign the
//! paper was built from, when it was signed after they were covered).

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};
use serde::Deserialize;

use crate::read::records;

/// The inputs from outside the campaign directory that the report reads,
/// each a directory relative to the repository root.
pub use binostr_records::files::PAPER_SIDE_INPUTS as SIDE_INPUTS;

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

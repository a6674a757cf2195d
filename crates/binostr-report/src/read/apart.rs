//! Profiles measured apart (`run-K/apart-ID/`): an enabled profile that
//! cannot represent every event of the corpus is timed, sized and put on
//! the wire on the events it represents, paired with json on the same
//! events in the same processes. Its rows never mix with the campaign's.
//! Here: what `campaign.json` records of them, and where their runs are.

use std::fs;

use anyhow::{Context, Result};

use crate::read::records::Run;

/// `campaign.json`'s `corpus.apart` entry.
pub use binostr_records::Apart as ApartRecord;

/// One profile's `run-K/apart-ID/` directories.
pub struct ApartDirs {
    /// The ID (profile id).
    pub id: String,
    /// Its runs: each a [`Run`] whose `dir` is the apart directory.
    pub runs: Vec<Run>,
}

/// The `run-K/apart-ID/` directories of `runs`, sorted by ID.
pub fn dirs(runs: &[Run]) -> Result<Vec<ApartDirs>> {
    let mut by_id: Vec<ApartDirs> = Vec::new();
    for run in runs {
        let entries =
            fs::read_dir(&run.dir).with_context(|| format!("reading {}", run.dir.display()))?;
        for entry in entries {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(id) = name.strip_prefix("apart-") else {
                continue;
            };
            if !entry.file_type()?.is_dir() {
                continue;
            }
            let sub = Run {
                dir: entry.path(),
                ..run.clone()
            };
            match by_id.iter_mut().find(|d| d.id == id) {
                Some(d) => d.runs.push(sub),
                None => by_id.push(ApartDirs {
                    id: id.to_owned(),
                    runs: vec![sub],
                }),
            }
        }
    }
    by_id.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(by_id)
}

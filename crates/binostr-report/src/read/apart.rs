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

/// The `run-K/apart-ID/` directories of `runs`, sorted by ID, each as the
/// runs it has (a [`Run`] whose `dir` is the apart directory).
pub fn dirs(runs: &[Run]) -> Result<Vec<(String, Vec<Run>)>> {
    let mut ids: Vec<String> = Vec::new();
    let mut by_id: Vec<(String, Vec<Run>)> = Vec::new();
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
            match ids.iter().position(|x| x == id) {
                Some(i) => by_id[i].1.push(sub),
                None => {
                    ids.push(id.to_owned());
                    by_id.push((id.to_owned(), vec![sub]));
                }
            }
        }
    }
    by_id.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(by_id)
}

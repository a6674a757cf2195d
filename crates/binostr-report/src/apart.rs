//! Profiles measured apart (`run-K/apart-ID/`): an enabled profile that
//! cannot represent every event of the corpus is timed, sized and put on
//! the wire on the events it represents, paired with json on the same
//! events in the same processes. Its rows never mix with the campaign's.

use std::fs;

use anyhow::{Context, Result};

use crate::paired::{self, Paired};
use crate::records::{self, Run, Scan as _};
use crate::side::{self, Sizes};
use crate::summary::{self, Row};
use crate::transport::{self, Transport};

/// `campaign.json`'s `corpus.apart` entry.
pub use binostr_records::Apart as ApartRecord;

/// What the runs measured for one apart profile (and json beside it).
#[derive(Clone, Debug)]
pub struct Apart {
    /// Profile id.
    pub profile: String,
    /// Its record in the first label's `campaign.json`, when present.
    pub record: Option<ApartRecord>,
    /// Summary rows of its `samples.csv` and `ratios.csv`.
    pub rows: Vec<Row>,
    /// Its paired ratios.
    pub paired: Vec<Paired>,
    /// Its `transport.csv` rows.
    pub transport: Vec<Transport>,
    /// Its `sizes.csv` rows.
    pub sizes: Vec<Sizes>,
}

impl Apart {
    /// The row of `workload` and `profile` at subset `all`, one thread.
    pub fn row(&self, host: &str, workload: &str, profile: &str) -> Option<&Row> {
        self.rows.iter().find(|r| {
            r.host == host
                && r.workload == workload
                && r.profile == profile
                && r.subset == "all"
                && r.threads == 1
        })
    }

    /// Its relay → client bytes per event (check `decode`) over json's in
    /// `mode`, in %.
    pub fn wire_pct(&self, host: &str, mode: &str) -> Option<f64> {
        let bytes = |p: &str| {
            self.transport
                .iter()
                .find(|t| t.host == host && t.profile == p && t.mode == mode && t.check == "decode")
                .map(|t| t.s2c_bytes_per_event)
        };
        Some(100.0 * bytes(&self.profile)? / bytes(summary::BASELINE)?)
    }

    /// Its raw encoded size over json's on subset `all`, in %.
    pub fn size_pct(&self, host: &str) -> Option<f64> {
        let raw = |p: &str| {
            self.sizes
                .iter()
                .find(|s| s.host == host && s.profile == p && s.subset == "all")
                .map(|s| s.bytes[0])
        };
        Some(100.0 * raw(&self.profile)? / raw(summary::BASELINE)?)
    }
}

/// The apart profiles of `runs` (`run-K/apart-ID/` directories), sorted by
/// id, each with `records` (the first label's `corpus.apart`).
pub fn read(runs: &[Run], records: &[ApartRecord]) -> Result<Vec<Apart>> {
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
    by_id
        .into_iter()
        .map(|(profile, runs)| {
            let samples = records::SAMPLES.scan_required(&runs)?;
            let paired = paired::read(&runs)?;
            let rows = summary::summarize(samples, &paired)?;
            Ok(Apart {
                record: records.iter().find(|r| r.profile == profile).cloned(),
                transport: transport::read(&runs)?,
                sizes: side::read_sizes(&runs)?,
                rows,
                paired,
                profile,
            })
        })
        .collect()
}

//! A profile measured apart (`run-K/apart-ID/`, see [`crate::read::apart`]):
//! its summary rows, paired ratios, wire bytes and sizes beside json's on
//! the same events.

use anyhow::Result;

use crate::model::paired::{self, Paired};
use crate::model::summary::{self, Row};
use crate::read::apart::{self, ApartRecord};
use crate::read::records::{self, Run, Scan as _};
use crate::read::sizes::{self, Sizes};
use crate::read::transport::{self, Mode, Transport};

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
    pub fn wire_pct(&self, host: &str, mode: Mode) -> Option<f64> {
        let bytes = |p: &str| {
            self.transport
                .iter()
                .find(|t| {
                    t.host == host && t.profile == p && t.mode == mode.name() && t.check == "decode"
                })
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
                .map(|s| s.bytes.raw)
        };
        Some(100.0 * raw(&self.profile)? / raw(summary::BASELINE)?)
    }
}

/// The apart profiles of `runs` (`run-K/apart-ID/` directories), sorted by
/// id, each with `records` (the first label's `corpus.apart`).
pub fn read(runs: &[Run], records: &[ApartRecord]) -> Result<Vec<Apart>> {
    let by_id = apart::dirs(runs)?;
    by_id
        .into_iter()
        .map(|apart::ApartDirs { id: profile, runs }| {
            let samples = records::SAMPLES.scan_required(&runs)?;
            let paired = paired::read(&runs)?;
            let rows = summary::summarize(samples, &paired)?;
            Ok(Apart {
                record: records.iter().find(|r| r.profile == profile).cloned(),
                transport: transport::read(&runs)?,
                sizes: sizes::read_sizes(&runs)?,
                rows,
                paired,
                profile,
            })
        })
        .collect()
}

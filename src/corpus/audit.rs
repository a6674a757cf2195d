//! The audit: every record of every input is accepted, a duplicate, or
//! rejected with its source, position and reason.
//!
//! Records are parsed and checked (structure, limits, id, BIP-340) in
//! parallel batches on all cores with rayon, then accounted for in input
//! order, so the report is deterministic whatever the thread count.
//!
//! Memory does not grow with the input: ids go to a spilling [`IdSet`]
//! and sizes to an exact histogram; only rejected records are listed.

use std::collections::BTreeMap;
use std::io::{self, BufRead};
use std::path::PathBuf;

use rayon::prelude::*;
use serde::Serialize;

use super::histogram::Histogram;
use super::import::{Position, RawRecord, RecordReader, Shape};
use super::seen::IdSet;
use crate::model::Event;
use crate::validate::{self, Limits, ValidationError};

/// Records parsed and verified per parallel batch.
const BATCH: usize = 2048;

/// One input to audit.
pub struct Input {
    /// The name used in reports.
    pub label: String,
    /// The decompressed byte stream.
    pub reader: Box<dyn BufRead + Send>,
    /// Total size, for progress, when known.
    pub size_hint: Option<u64>,
}

impl Input {
    /// Opens a file (or `-` for standard input), decompressing if needed.
    pub fn open(path: &std::path::Path) -> io::Result<Self> {
        Ok(Self {
            label: path.display().to_string(),
            reader: super::import::open(path)?,
            size_hint: std::fs::metadata(path).ok().map(|m| m.len()),
        })
    }
}

/// A record that did not make it into the corpus.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Rejected {
    /// The input's label.
    pub source: String,
    /// Where the record starts.
    pub position: Position,
    /// Stable reason code (see [`ValidationError::code`]).
    pub reason: &'static str,
    /// Human-readable detail.
    pub detail: String,
}

/// Per-input tallies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InputSummary {
    /// The input's label.
    pub source: String,
    /// The layout detected from the input's first record.
    pub shape: Shape,
    /// Records read.
    pub read: u64,
    /// Records accepted.
    pub accepted: u64,
    /// Valid records whose id was already accepted.
    pub duplicates: u64,
    /// Records rejected.
    pub rejected: u64,
}

/// Percentiles of compact JSON size over accepted events, in bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SizeStats {
    /// Median.
    pub p50: usize,
    /// 90th percentile.
    pub p90: usize,
    /// 99th percentile.
    pub p99: usize,
    /// Largest.
    pub max: usize,
}

/// The audit's result. `read == accepted + duplicates + rejected.len()`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AuditReport {
    /// Records read.
    pub read: u64,
    /// Records accepted.
    pub accepted: u64,
    /// Valid records whose id was already accepted.
    pub duplicates: u64,
    /// Every rejected record, in input order.
    pub rejected: Vec<Rejected>,
    /// Accepted events per kind.
    pub kinds: BTreeMap<u16, u64>,
    /// Compact JSON size of accepted events.
    pub sizes: SizeStats,
    /// SHA-256 over the sorted accepted ids, hex.
    pub fingerprint: String,
    /// Per-input tallies.
    pub inputs: Vec<InputSummary>,
}

impl AuditReport {
    /// Rejections per reason code.
    pub fn reasons(&self) -> BTreeMap<&'static str, u64> {
        let mut out = BTreeMap::new();
        for r in &self.rejected {
            *out.entry(r.reason).or_default() += 1;
        }
        out
    }
}

/// Options for [`audit`].
#[derive(Clone, Debug, Default)]
pub struct AuditOptions {
    /// Limits applied while reading.
    pub limits: Limits,
    /// Show a progress bar on a terminal.
    pub progress: bool,
}

/// Audits `inputs` in order; every accepted event is passed to `accept`.
pub fn audit(
    inputs: Vec<Input>,
    options: &AuditOptions,
    mut accept: impl FnMut(Event),
) -> io::Result<AuditReport> {
    let total: u64 = inputs.iter().filter_map(|i| i.size_hint).sum();
    let bar = progress_bar(options.progress, total);
    let mut state = Tally::default();
    for input in inputs {
        let mut summary = InputSummary {
            source: input.label.clone(),
            shape: Shape::Empty,
            read: 0,
            accepted: 0,
            duplicates: 0,
            rejected: 0,
        };
        let mut reader = RecordReader::new(input.reader, options.limits.max_event_bytes);
        let mut last_pos = 0;
        loop {
            let batch: Vec<RawRecord> = reader.by_ref().take(BATCH).collect::<io::Result<_>>()?;
            if batch.is_empty() {
                break;
            }
            let checked: Vec<(Position, Result<Event, ValidationError>)> = batch
                .into_par_iter()
                .map(|raw| (raw.position, check(raw, &options.limits)))
                .collect();
            for (position, result) in checked {
                state.account(&input.label, position, result, &mut summary, &mut accept)?;
            }
            let pos = reader.bytes_read();
            bar.inc(pos - last_pos);
            last_pos = pos;
        }
        summary.shape = reader.shape();
        state.inputs.push(summary);
    }
    bar.finish_and_clear();
    state.into_report()
}

fn progress_bar(show: bool, total: u64) -> indicatif::ProgressBar {
    if !show {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{spinner} audit {bytes}/{total_bytes} ({bytes_per_sec}, eta {eta}) {wide_bar}",
        )
        .expect("static template"),
    );
    bar
}

/// Structure, limits, id and signature of one record.
fn check(raw: RawRecord, limits: &Limits) -> Result<Event, ValidationError> {
    if let Some(problem) = raw.problem {
        return Err(problem);
    }
    let record = validate::parse_record(&raw.bytes, limits)?;
    validate::verify_event(&record.event)?;
    Ok(record.event)
}

#[derive(Default)]
struct Tally {
    read: u64,
    duplicates: u64,
    rejected: Vec<Rejected>,
    kinds: BTreeMap<u16, u64>,
    sizes: Histogram,
    seen: IdSet,
    inputs: Vec<InputSummary>,
}

impl Tally {
    fn account(
        &mut self,
        source: &str,
        position: Position,
        result: Result<Event, ValidationError>,
        summary: &mut InputSummary,
        accept: &mut impl FnMut(Event),
    ) -> io::Result<()> {
        self.read += 1;
        summary.read += 1;
        match result {
            Err(e) => {
                summary.rejected += 1;
                self.rejected.push(Rejected {
                    source: source.to_owned(),
                    position,
                    reason: e.code(),
                    detail: e.to_string(),
                });
            }
            Ok(event) if !self.seen.insert(event.id)? => {
                summary.duplicates += 1;
                self.duplicates += 1;
            }
            Ok(event) => {
                summary.accepted += 1;
                *self.kinds.entry(event.kind).or_default() += 1;
                let mut json = Vec::with_capacity(512);
                event.write_json(&mut json);
                self.sizes.add(json.len());
                accept(event);
            }
        }
        Ok(())
    }

    fn into_report(self) -> io::Result<AuditReport> {
        let pct = |p: f64| self.sizes.percentile(p);
        let sizes = SizeStats {
            p50: pct(50.0),
            p90: pct(90.0),
            p99: pct(99.0),
            max: self.sizes.max(),
        };
        let accepted = self.seen.len();
        Ok(AuditReport {
            read: self.read,
            accepted,
            duplicates: self.duplicates,
            rejected: self.rejected,
            kinds: self.kinds,
            sizes,
            fingerprint: self.seen.fingerprint()?,
            inputs: self.inputs,
        })
    }
}

/// Audits files by path; accepted events are passed to `accept`.
pub fn audit_paths(
    paths: &[PathBuf],
    options: &AuditOptions,
    accept: impl FnMut(Event),
) -> io::Result<AuditReport> {
    let inputs = paths
        .iter()
        .map(|p| {
            Input::open(p).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", p.display())))
        })
        .collect::<io::Result<Vec<_>>>()?;
    audit(inputs, options, accept)
}

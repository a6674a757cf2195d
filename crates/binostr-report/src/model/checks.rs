//! Invariants: results that cannot be true are refused
//! (`docs/METHOD.md`, `docs/RESULTS.md`).
//!
//! - a paired ratio with a lower bound (`min_ratio`: validate over
//!   id+verify, decode+id over decode, select-checked over
//!   select-raw-offset, filter-* over filter-event, ingest-mt at N threads over 1 thread) whose 95%
//!   interval lies entirely below that bound;
//! - encoded sizes that differ between runs of one host;
//! - instruction counts per event that differ between runs of one host by
//!   more than [`INSTRUCTION_TOLERANCE_PCT`];
//! - samples of one label and subset that time different event sequences.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;
use polars::prelude::*;

use crate::fmt::{RATIO, fixed};
use crate::model::instr::Instr;
use crate::model::paired::Paired;
use crate::read::frame::{f64s, strs};
use crate::read::records::{self, Run, Scan as _};
use crate::read::sizes::SIZE_COLUMNS;

/// Instruction counts of one key may differ across runs by at most this
/// (max - min over min, in %).
pub const INSTRUCTION_TOLERANCE_PCT: f64 = 0.1;

/// What an invariant is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Check {
    /// A paired ratio below its bound.
    Ratio,
    /// Sizes differ across runs.
    Bytes,
    /// Instruction counts differ across runs.
    Instructions,
    /// Different event sequences within a label and subset.
    Sequence,
}

impl Check {
    /// The name used in `summary.*`.
    pub fn name(self) -> &'static str {
        match self {
            Check::Ratio => "ratio",
            Check::Bytes => "bytes",
            Check::Instructions => "instructions",
            Check::Sequence => "sequence",
        }
    }
}

/// One violated invariant.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Violation {
    /// Host of the runs.
    pub host: String,
    /// What was checked.
    pub check: Check,
    /// Workload (`size` for bytes, empty for sequences).
    pub workload: String,
    /// Profile (or `reference`, or empty for sequences).
    pub profile: String,
    /// The statement, for `summary.md`, stderr and the paper.
    pub text: String,
}

/// Every violation in `paired`, the sizes and sequences of `runs`, and
/// `instr`, sorted.
pub fn check(runs: &[Run], paired: &[Paired], instr: &[Instr]) -> Result<Vec<Violation>> {
    let mut out: Vec<Violation> = paired
        .iter()
        .filter(|p| p.violates())
        .map(|p| Violation {
            host: p.host.clone(),
            check: Check::Ratio,
            workload: p.workload.clone(),
            profile: p.profile.clone(),
            text: format!(
                "{}: {} (95% CI {} to {}) is below the bound {}",
                p.name(),
                fixed(p.est.median, RATIO),
                fixed(p.est.ci.lo, RATIO),
                fixed(p.est.ci.hi, RATIO),
                fixed(p.min_ratio.unwrap_or(f64::NAN), RATIO),
            ),
        })
        .collect();
    out.extend(bytes(runs)?);
    out.extend(
        instr
            .iter()
            .filter(|i| i.dev_pct > INSTRUCTION_TOLERANCE_PCT)
            .map(|i| Violation {
                host: i.host.clone(),
                check: Check::Instructions,
                workload: i.workload.clone(),
                profile: i.profile.clone(),
                text: format!(
                    "instructions of {} {} ({}) differ across {} runs by {} % (tolerance {} %)",
                    i.workload,
                    i.profile,
                    i.subset,
                    i.runs,
                    fixed(i.dev_pct, 3),
                    INSTRUCTION_TOLERANCE_PCT
                ),
            }),
    );
    out.extend(sequences(runs)?);
    out.sort();
    Ok(out)
}

fn bytes(runs: &[Run]) -> Result<Vec<Violation>> {
    let lf = records::SIZES.scan_optional(runs)?;
    let Some(lf) = lf else {
        return Ok(Vec::new());
    };
    let mut aggs = Vec::new();
    for c in SIZE_COLUMNS {
        let v = col(c).cast(DataType::Float64);
        aggs.push(v.clone().min().alias(format!("{c}_min")));
        aggs.push(v.max().alias(format!("{c}_max")));
    }
    aggs.push(col("run").n_unique().alias("runs"));
    let df = lf
        .group_by([col("host"), col("profile"), col("subset")])
        .agg(aggs)
        .sort(
            ["host", "profile", "subset"],
            SortMultipleOptions::default(),
        )
        .collect()?;
    let host = strs(&df, "host")?;
    let profile = strs(&df, "profile")?;
    let subset = strs(&df, "subset")?;
    let mut out = Vec::new();
    for c in SIZE_COLUMNS {
        let lo = f64s(&df, &format!("{c}_min"))?;
        let hi = f64s(&df, &format!("{c}_max"))?;
        for i in 0..df.height() {
            // NaN: a column the campaign's sizes.csv predates.
            if lo[i] != hi[i] && !(lo[i].is_nan() && hi[i].is_nan()) {
                out.push(Violation {
                    host: host[i].clone(),
                    check: Check::Bytes,
                    workload: "size".to_owned(),
                    profile: profile[i].clone(),
                    text: format!(
                        "sizes of {} ({}): {c} differs across runs ({} to {})",
                        profile[i], subset[i], lo[i], hi[i]
                    ),
                });
            }
        }
    }
    Ok(out)
}

fn sequences(runs: &[Run]) -> Result<Vec<Violation>> {
    let df = records::SAMPLES
        .scan_required(runs)?
        .select([col("host"), col("run"), col("subset"), col("sequence")])
        .unique(None, UniqueKeepStrategy::First)
        .collect()?;
    let host = strs(&df, "host")?;
    let run = strs(&df, "run")?;
    let subset = strs(&df, "subset")?;
    let sequence = strs(&df, "sequence")?;
    let mut ids: BTreeMap<(String, String, String), BTreeSet<String>> = BTreeMap::new();
    for i in 0..df.height() {
        let label = run[i].rsplit_once('/').map_or(run[i].as_str(), |x| x.0);
        ids.entry((host[i].clone(), label.to_owned(), subset[i].clone()))
            .or_default()
            .insert(sequence[i].clone());
    }
    Ok(ids
        .into_iter()
        .filter(|(_, s)| s.len() > 1)
        .map(|((host, label, subset), s)| Violation {
            host,
            check: Check::Sequence,
            workload: String::new(),
            profile: String::new(),
            text: format!(
                "campaign {label}, subset {subset}: samples time {} different event sequences ({})",
                s.len(),
                s.into_iter().collect::<Vec<_>>().join(", ")
            ),
        })
        .collect())
}

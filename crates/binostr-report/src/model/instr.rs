//! Instructions per event (`instructions.csv`, callgrind `Ir`): the
//! deterministic companion of time, with its agreement across runs.

use anyhow::Result;
use polars::prelude::*;

use binostr_records::Workload;

use crate::read::frame::{f64s, i64s, strs};
use crate::read::records::{self, Run, Scan as _};

/// The workloads whose instructions are reported per profile.
pub const INSTRUCTION_WORKLOADS: [&str; 4] = [
    Workload::Encode.name(),
    Workload::Decode.name(),
    Workload::DecodeId.name(),
    Workload::Validate.name(),
];

/// Instructions per event of one key on one host.
#[derive(Clone, Debug, PartialEq)]
pub struct Instr {
    /// Host id.
    pub host: String,
    /// Workload (`encode`, `decode`, `decode+id`, `validate`, `copy`, or
    /// the reference rows `id+verify` and `clone`).
    pub workload: String,
    /// Profile id or `reference`.
    pub profile: String,
    /// Corpus subset.
    pub subset: String,
    /// Runs that counted this key.
    pub runs: usize,
    /// Median over runs of instructions / (passes * events).
    pub per_event: f64,
    /// (max - min) / min of the runs' per-event counts, in %: 0 when the
    /// runs agree exactly.
    pub dev_pct: f64,
}

/// The instruction counts of `runs`, sorted by host, workload, profile,
/// subset; empty when no run has `instructions.csv` (it is optional).
pub fn read(runs: &[Run]) -> Result<Vec<Instr>> {
    let Some(lf) = records::INSTRUCTIONS.scan_optional(runs)? else {
        return Ok(Vec::new());
    };
    let per_event = col("instructions") / (col("passes") * col("events")).cast(DataType::Float64);
    let df = lf
        .with_column(per_event.alias("ir"))
        .group_by([col("host"), col("workload"), col("profile"), col("subset")])
        .agg([
            col("ir").median().alias("median"),
            col("ir").min().alias("min"),
            col("ir").max().alias("max"),
            col("run").n_unique().cast(DataType::Int64).alias("runs"),
        ])
        .sort(
            ["host", "workload", "profile", "subset"],
            SortMultipleOptions::default(),
        )
        .collect()?;
    let host = strs(&df, "host")?;
    let workload = strs(&df, "workload")?;
    let profile = strs(&df, "profile")?;
    let subset = strs(&df, "subset")?;
    let median = f64s(&df, "median")?;
    let min = f64s(&df, "min")?;
    let max = f64s(&df, "max")?;
    let n = i64s(&df, "runs")?;
    Ok((0..df.height())
        .map(|i| Instr {
            host: host[i].clone(),
            workload: workload[i].clone(),
            profile: profile[i].clone(),
            subset: subset[i].clone(),
            runs: usize::try_from(n[i]).unwrap_or(0),
            per_event: median[i],
            dev_pct: if min[i] > 0.0 {
                (max[i] - min[i]) / min[i] * 100.0
            } else {
                f64::NAN
            },
        })
        .collect())
}

/// "exact" when the runs agree exactly, else the deviation in %.
pub fn agreement(dev_pct: f64) -> String {
    if dev_pct == 0.0 {
        "exact".to_owned()
    } else {
        format!("{} %", crate::fmt::fixed(dev_pct, 3))
    }
}

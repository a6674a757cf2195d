//! One row per benchmark key and host: the median of run medians of ns per
//! event (one host's absolute numbers), the cross-run range, a bootstrap
//! interval, the paired ratio to `json` and the rank.

use std::collections::BTreeMap;

use anyhow::{Result, bail};
use polars::prelude::*;

use crate::interval::{Ci, Interval};
use crate::model::key::{Group, Key};
use crate::model::paired::{Paired, TO_JSON};
use crate::model::stats;
use crate::read::frame::{f64s, i64s, strs};

/// The profile every ratio is taken against.
pub use binostr_records::BASELINE;

/// The profile name of the reference rows (`id+verify`, `select-raw-offset`).
pub use binostr_records::REFERENCE;

/// Where a profile sorts by its paired ratio to json (estimate, CI): json
/// at 1, a profile without a ratio last. Tables and figures order by this,
/// not by absolute ns.
pub fn ratio_order(profile: &str, ratio_json: Option<Interval>) -> f64 {
    ratio_json.map_or(
        if profile == BASELINE {
            1.0
        } else {
            f64::INFINITY
        },
        |r| r.est,
    )
}

/// One summary row (`docs/RESULTS.md`, "Summary").
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// `contract.host.id` of the runs.
    pub host: String,
    /// Workload.
    pub workload: String,
    /// Profile id (or `reference`).
    pub profile: String,
    /// Corpus subset.
    pub subset: String,
    /// Thread count.
    pub threads: i64,
    /// Runs that measured this key.
    pub runs: usize,
    /// Median over runs of each run's median ns/event.
    pub median_ns: f64,
    /// (max - min of the run medians) / `median_ns` * 100.
    pub range_pct: f64,
    /// Bootstrap 95% interval of `median_ns`.
    pub ci_ns: Ci,
    /// The paired ratio to `json` of the same workload, subset and threads
    /// (`ratios.csv`, `against = json`), with its interval; exactly 1 for
    /// `json` itself.
    pub ratio_json: Option<Interval>,
    /// The cross-run range of the paired ratio to `json`, in %.
    pub ratio_range_pct: Option<f64>,
    /// 1 = lowest point estimate within `(host, workload, subset, threads)`:
    /// by `ratio_json` where the group has it, else by `median_ns`. An
    /// order, not a claim (see [`crate::model::claims`]).
    pub rank: usize,
}

impl Row {
    /// The row's benchmark key.
    pub fn key(&self) -> Key {
        Key::new(
            &self.host,
            &self.workload,
            &self.profile,
            &self.subset,
            self.threads,
        )
    }
}

impl Row {
    /// The group `rank` orders.
    pub fn group(&self) -> Group<&str> {
        Group {
            host: &self.host,
            workload: &self.workload,
            subset: &self.subset,
            threads: self.threads,
        }
    }
}

/// Summarises `samples` (the concatenated `samples.csv` frames with `host`
/// and `run` columns) into rows sorted by host, workload, subset, threads
/// and rank, their ratios to `json` taken from `paired`.
pub fn summarize(samples: LazyFrame, paired: &[Paired]) -> Result<Vec<Row>> {
    let per_event = samples
        .with_column(
            (col("total_ns") / (col("iters") * col("events_per_iter")).cast(DataType::Float64))
                .alias("ns"),
        )
        .collect()?;
    check_positive(&per_event)?;
    let table = key_table(&per_event)?;
    let to_json: BTreeMap<Key, &Paired> = paired
        .iter()
        .filter(|p| p.against == TO_JSON)
        .map(|p| (p.key(), p))
        .collect();
    let replicates = replicates(&per_event)?;

    let host = strs(&table, "host")?;
    let workload = strs(&table, "workload")?;
    let profile = strs(&table, "profile")?;
    let subset = strs(&table, "subset")?;
    let threads = i64s(&table, "threads")?;
    let median_ns = f64s(&table, "median_ns")?;
    let range_pct = f64s(&table, "range_pct")?;
    let runs = i64s(&table, "runs")?;
    let mut rows = Vec::with_capacity(table.height());
    for i in 0..table.height() {
        let key = Key::new(&host[i], &workload[i], &profile[i], &subset[i], threads[i]);
        let boot = &replicates[&key];
        let (ratio_json, ratio_range_pct) = match to_json.get(&key) {
            Some(p) => (Some(p.interval()), Some(p.est.range_pct)),
            None if key.profile == BASELINE && has_json_ratios(&to_json, &key) => {
                (Some(Interval::ONE), Some(0.0))
            }
            None => (None, None),
        };
        rows.push(Row {
            host: key.host,
            workload: key.workload,
            profile: key.profile,
            subset: key.subset,
            threads: key.threads,
            runs: usize::try_from(runs[i])?,
            median_ns: median_ns[i],
            range_pct: range_pct[i],
            ci_ns: stats::ci95(boot),
            ratio_json,
            ratio_range_pct,
            rank: 0,
        });
    }
    rank(&mut rows);
    Ok(rows)
}

/// Per key: the median, min and max of the run medians, the runs, and the
/// cross-run range in %, sorted by key.
fn key_table(per_event: &DataFrame) -> Result<DataFrame> {
    let group: Vec<Expr> = ["host", "workload", "profile", "subset", "threads"]
        .iter()
        .map(|c| col(*c))
        .collect();
    let mut run_group = group.clone();
    run_group.push(col("run"));
    let keys = per_event
        .clone()
        .lazy()
        .group_by(run_group)
        .agg([col("ns").median().alias("run_median")])
        .group_by(group)
        .agg([
            col("run_median").median().alias("median_ns"),
            col("run_median").min().alias("min_ns"),
            col("run_median").max().alias("max_ns"),
            col("run_median").count().alias("runs"),
        ]);
    Ok(keys
        .with_columns([
            ((col("max_ns") - col("min_ns")) / col("median_ns") * lit(100.0)).alias("range_pct"),
        ])
        .sort(
            ["host", "workload", "profile", "subset", "threads"],
            SortMultipleOptions::default(),
        )
        .collect()?)
}

/// Per key, the bootstrap replicates of the median of run medians.
fn replicates(per_event: &DataFrame) -> Result<BTreeMap<Key, Vec<f64>>> {
    let samples = samples_by_key(per_event)?;
    let keyed: Vec<(&Key, &BTreeMap<String, Vec<f64>>)> = samples.iter().collect();
    let boots = stats::par_map(&keyed, |(key, runs)| {
        let runs: Vec<Vec<f64>> = runs.values().cloned().collect();
        let seed = stats::key_seed(&key.joined());
        stats::bootstrap_median_of_medians(&runs, seed, stats::RESAMPLES)
    });
    Ok(keyed.iter().map(|(k, _)| (*k).clone()).zip(boots).collect())
}

/// Whether another profile of `json_key`'s workload, subset and threads has
/// a paired ratio to `json` (then `json`'s own ratio is 1).
fn has_json_ratios(to_json: &BTreeMap<Key, &Paired>, json_key: &Key) -> bool {
    to_json.keys().any(|k| {
        k.host == json_key.host
            && k.workload == json_key.workload
            && k.subset == json_key.subset
            && k.threads == json_key.threads
    })
}

/// Sets `rank` within each group (lowest ratio to json first, else lowest
/// ns; ties by profile id) and sorts rows by host, workload, subset,
/// threads, rank.
fn rank(rows: &mut [Row]) {
    let key = |r: &Row| r.ratio_json.map_or(r.median_ns, |x| x.est);
    rows.sort_by(|a, b| {
        a.group()
            .cmp(&b.group())
            .then(a.ratio_json.is_none().cmp(&b.ratio_json.is_none()))
            .then(key(a).total_cmp(&key(b)))
            .then(a.profile.cmp(&b.profile))
    });
    let mut i = 0;
    while i < rows.len() {
        let mut j = i;
        while j < rows.len() && rows[j].group() == rows[i].group() {
            rows[j].rank = j - i + 1;
            j += 1;
        }
        i = j;
    }
}

fn check_positive(per_event: &DataFrame) -> Result<()> {
    let ns = f64s(per_event, "ns")?;
    if let Some(i) = ns.iter().position(|x| !(x.is_finite() && *x > 0.0)) {
        let run = strs(per_event, "run")?;
        let sample = i64s(per_event, "sample")?;
        bail!(
            "{}/samples.csv: sample {} has ns/event {} (iters and events_per_iter must be > 0, total_ns > 0)",
            run[i],
            sample[i],
            ns[i]
        );
    }
    Ok(())
}

/// Per key, per run, the per-sample ns/event values in sample order.
fn samples_by_key(per_event: &DataFrame) -> Result<BTreeMap<Key, BTreeMap<String, Vec<f64>>>> {
    let sorted = per_event
        .clone()
        .lazy()
        .sort(
            [
                "host", "workload", "profile", "subset", "threads", "run", "sample",
            ],
            SortMultipleOptions::default(),
        )
        .collect()?;
    let host = strs(&sorted, "host")?;
    let workload = strs(&sorted, "workload")?;
    let profile = strs(&sorted, "profile")?;
    let subset = strs(&sorted, "subset")?;
    let threads = i64s(&sorted, "threads")?;
    let run = strs(&sorted, "run")?;
    let ns = f64s(&sorted, "ns")?;
    let mut out: BTreeMap<Key, BTreeMap<String, Vec<f64>>> = BTreeMap::new();
    for i in 0..sorted.height() {
        let key = Key::new(&host[i], &workload[i], &profile[i], &subset[i], threads[i]);
        out.entry(key)
            .or_default()
            .entry(run[i].clone())
            .or_default()
            .push(ns[i]);
    }
    Ok(out)
}

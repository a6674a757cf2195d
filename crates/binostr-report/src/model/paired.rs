//! Paired ratios: `ratios.csv` (one ratio per comparison and round) and
//! `rounds.csv` (every pass), as estimates with intervals.
//!
//! A paired ratio divides two passes of the same round, so the slow drift of
//! a shared host cancels. Per (host, workload, profile, subset, threads,
//! against): each run's median of its per-round ratios; the estimate is the
//! median of those run medians, its 95% interval the two-level bootstrap of
//! [`crate::model::stats`] (runs, then rounds within runs), and its cross-run range
//! (max - min of the run medians) / estimate.

use std::collections::BTreeMap;

use anyhow::{Result, bail};
use polars::prelude::*;

use crate::interval::Interval;
use crate::model::key::{Group, Key, PairKey};
use crate::model::stats::{self, Estimate};
use crate::read::frame::{f64s, i64s, strs};
use crate::read::records::{self, Run, Scan as _};

/// The `against` name of the ratio to the baseline profile.
pub const TO_JSON: &str = "json";

/// One paired-ratio key and its estimate.
#[derive(Clone, Debug, PartialEq)]
pub struct Paired {
    /// `contract.host.id` of the runs.
    pub host: String,
    /// Workload of the numerator.
    pub workload: String,
    /// Profile of the numerator.
    pub profile: String,
    /// Corpus subset.
    pub subset: String,
    /// Thread count of the numerator.
    pub threads: i64,
    /// What the numerator is divided by (`ratios.csv`'s `against`).
    pub against: String,
    /// Run ids, in the order of `est.run_medians`.
    pub runs: Vec<String>,
    /// Rounds over all runs.
    pub rounds: usize,
    /// The estimate over runs.
    pub est: Estimate,
    /// The smallest ratio that can be true, when there is an invariant.
    pub min_ratio: Option<f64>,
}

impl Paired {
    /// The benchmark key of the ratio's numerator.
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

impl Paired {
    /// Whether the invariant is definitely false: the interval's upper bound
    /// is below `min_ratio`.
    pub fn violates(&self) -> bool {
        self.min_ratio.is_some_and(|m| self.est.ci.hi < m)
    }

    /// The estimate with its interval.
    pub fn interval(&self) -> Interval {
        Interval::new(self.est.median, self.est.ci)
    }

    /// A short name: `workload profile (subset, N thread(s)) / against`.
    pub fn name(&self) -> String {
        let t = if self.threads == 1 {
            "thread"
        } else {
            "threads"
        };
        format!(
            "{} {} ({}, {} {t}) / {}",
            self.workload, self.profile, self.subset, self.threads, self.against
        )
    }
}

type RunRounds = BTreeMap<String, Vec<f64>>;

/// Reads `ratios.csv` of every run (required) into estimates, sorted by
/// host, workload, profile, subset, threads, against.
pub fn read(runs: &[Run]) -> Result<Vec<Paired>> {
    let cols = [
        "host", "workload", "profile", "subset", "threads", "against", "run", "round",
    ];
    let df = records::RATIOS
        .scan_required(runs)?
        .sort(cols, SortMultipleOptions::default())
        .collect()?;
    let host = strs(&df, "host")?;
    let workload = strs(&df, "workload")?;
    let profile = strs(&df, "profile")?;
    let subset = strs(&df, "subset")?;
    let threads = i64s(&df, "threads")?;
    let against = strs(&df, "against")?;
    let run = strs(&df, "run")?;
    let ratio = f64s(&df, "ratio")?;
    let min_ratio = f64s(&df, "min_ratio")?;
    let mut by_key: BTreeMap<PairKey, (RunRounds, Option<f64>)> = BTreeMap::new();
    for i in 0..df.height() {
        if !(ratio[i].is_finite() && ratio[i] > 0.0) {
            bail!(
                "{}/ratios.csv: {} {} {} / {} has ratio {}",
                run[i],
                workload[i],
                profile[i],
                subset[i],
                against[i],
                ratio[i]
            );
        }
        let key = PairKey {
            key: Key::new(&host[i], &workload[i], &profile[i], &subset[i], threads[i]),
            against: against[i].clone(),
        };
        let entry = by_key.entry(key).or_default();
        entry.0.entry(run[i].clone()).or_default().push(ratio[i]);
        if entry.1.is_none() && min_ratio[i].is_finite() {
            entry.1 = Some(min_ratio[i]);
        }
    }
    let items: Vec<(PairKey, (RunRounds, Option<f64>))> = by_key.into_iter().collect();
    Ok(stats::par_map(&items, |(k, (per_run, min_ratio))| {
        let seed = format!("ratio|{}|{}", k.key.joined(), k.against);
        let rounds = per_run.values().map(Vec::len).sum();
        let runs: Vec<String> = per_run.keys().cloned().collect();
        let values: Vec<Vec<f64>> = per_run.values().cloned().collect();
        Paired {
            host: k.key.host.clone(),
            workload: k.key.workload.clone(),
            profile: k.key.profile.clone(),
            subset: k.key.subset.clone(),
            threads: k.key.threads,
            against: k.against.clone(),
            runs,
            rounds,
            est: stats::estimate(&values, &seed),
            min_ratio: *min_ratio,
        }
    }))
}

/// Per run, per round, per profile: ns per event of one pass.
type Passes = BTreeMap<String, BTreeMap<i64, BTreeMap<String, f64>>>;

/// Every pass of `rounds.csv`, to pair any two profiles of a group.
#[derive(Debug, Default)]
pub struct Rounds {
    passes: BTreeMap<Group<String>, Passes>,
}

/// The ns per event of two profiles in one round.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PassPair {
    /// The first profile's.
    pub a: f64,
    /// The second profile's.
    pub b: f64,
}

/// One run's per-round ratios of two profiles.
#[derive(Clone, Debug, PartialEq)]
pub struct RunRatios {
    /// Run id.
    pub run: String,
    /// Per round, the first profile's ns over the second's.
    pub ratios: Vec<f64>,
}

/// The group of `host`, `workload`, `subset` and `threads`, owned.
fn group(host: &str, workload: &str, subset: &str, threads: i64) -> Group<String> {
    Group {
        host: host.to_owned(),
        workload: workload.to_owned(),
        subset: subset.to_owned(),
        threads,
    }
}

impl Rounds {
    /// Reads `rounds.csv` of every run (required).
    pub fn read(runs: &[Run]) -> Result<Self> {
        let df = records::ROUNDS.scan_required(runs)?.collect()?;
        let host = strs(&df, "host")?;
        let run = strs(&df, "run")?;
        let workload = strs(&df, "workload")?;
        let profile = strs(&df, "profile")?;
        let subset = strs(&df, "subset")?;
        let threads = i64s(&df, "threads")?;
        let round = i64s(&df, "round")?;
        let events = i64s(&df, "events")?;
        let ns = f64s(&df, "ns")?;
        let mut passes: BTreeMap<Group<String>, Passes> = BTreeMap::new();
        for i in 0..df.height() {
            if events[i] <= 0 || !(ns[i].is_finite() && ns[i] > 0.0) {
                bail!(
                    "{}/rounds.csv: round {} of {} {} has {} events in {} ns",
                    run[i],
                    round[i],
                    workload[i],
                    profile[i],
                    events[i],
                    ns[i]
                );
            }
            let key = group(&host[i], &workload[i], &subset[i], threads[i]);
            passes
                .entry(key)
                .or_default()
                .entry(run[i].clone())
                .or_default()
                .entry(round[i])
                .or_default()
                .insert(profile[i].clone(), ns[i] / events[i] as f64);
        }
        Ok(Rounds { passes })
    }

    /// Per run (sorted by id), the ns per event of profiles `a` and `b` in
    /// each round that timed both. Runs without such a round are left out.
    pub fn passes(
        &self,
        host: &str,
        workload: &str,
        subset: &str,
        a: &str,
        b: &str,
    ) -> Vec<Vec<PassPair>> {
        let Some(runs) = self.passes.get(&group(host, workload, subset, 1)) else {
            return Vec::new();
        };
        runs.values()
            .map(|rounds| {
                rounds
                    .values()
                    .filter_map(|p| {
                        Some(PassPair {
                            a: *p.get(a)?,
                            b: *p.get(b)?,
                        })
                    })
                    .collect::<Vec<_>>()
            })
            .filter(|r| !r.is_empty())
            .collect()
    }

    /// Per run (sorted by id), the per-round ratios of profile `a` over
    /// profile `b` of one workload, subset and thread count, over the rounds
    /// that timed both. Runs without such a round are left out.
    pub fn pair(
        &self,
        host: &str,
        workload: &str,
        subset: &str,
        threads: i64,
        a: &str,
        b: &str,
    ) -> Vec<RunRatios> {
        let Some(runs) = self.passes.get(&group(host, workload, subset, threads)) else {
            return Vec::new();
        };
        runs.iter()
            .filter_map(|(run, rounds)| {
                let ratios: Vec<f64> = rounds
                    .values()
                    .filter_map(|p| Some(p.get(a)? / p.get(b)?))
                    .collect();
                (!ratios.is_empty()).then(|| RunRatios {
                    run: run.clone(),
                    ratios,
                })
            })
            .collect()
    }
}

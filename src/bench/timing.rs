//! Criterion glue: runs benchmark keys through Criterion and turns its
//! per-benchmark files (`sample.json`, `estimates.json`) into the rows of
//! `samples.csv` and `estimates.csv` (see `docs/RESULTS.md`).

use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};
use criterion::{Criterion, SamplingMode};
use serde::{Deserialize, Serialize};

use crate::bench::workload::{BenchKey, Fixture};

/// Criterion settings; part of a campaign's contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// Samples per benchmark.
    pub sample_size: usize,
    /// Warm-up time in ms.
    pub warm_up_ms: u64,
    /// Measurement time in ms.
    pub measurement_ms: u64,
    /// Bootstrap resamples of Criterion's own estimates.
    pub nresamples: usize,
}

impl Settings {
    /// A configured Criterion writing its files under `dir`.
    pub fn criterion(&self, dir: &Path) -> Criterion {
        Criterion::default()
            .sample_size(self.sample_size)
            .warm_up_time(Duration::from_millis(self.warm_up_ms))
            .measurement_time(Duration::from_millis(self.measurement_ms))
            .nresamples(self.nresamples)
            .without_plots()
            .with_output_color(false)
            .output_directory(dir)
    }
}

/// One Criterion sample: `iters` iterations took `total_ns`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Iterations.
    pub iters: u64,
    /// Their total wall time in ns.
    pub total_ns: f64,
}

/// Criterion's estimates for one benchmark, in ns per event.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimates {
    /// Mean.
    pub mean_ns: f64,
    /// Median.
    pub median_ns: f64,
    /// Lower bound of the median's confidence interval.
    pub median_lb_ns: f64,
    /// Upper bound.
    pub median_ub_ns: f64,
}

/// The measurements of one benchmark.
#[derive(Clone, Debug)]
pub struct Measured {
    /// Key.
    pub key: BenchKey,
    /// Events per iteration.
    pub events_per_iter: u64,
    /// Raw samples.
    pub samples: Vec<Sample>,
    /// Criterion's estimates.
    pub estimates: Estimates,
}

#[derive(Deserialize)]
struct SavedSample {
    iters: Vec<f64>,
    times: Vec<f64>,
}

#[derive(Deserialize)]
struct Estimate {
    point_estimate: f64,
    confidence_interval: Interval,
}

#[derive(Deserialize)]
struct Interval {
    lower_bound: f64,
    upper_bound: f64,
}

#[derive(Deserialize)]
struct SavedEstimates {
    mean: Estimate,
    median: Estimate,
}

/// Runs `keys` in order with Criterion, its files under `dir`; `progress` is
/// called before each benchmark with its position.
pub fn run(
    fixture: &Fixture,
    keys: &[BenchKey],
    settings: &Settings,
    dir: &Path,
    mut progress: impl FnMut(usize, &BenchKey),
) -> Result<Vec<Measured>> {
    let mut c = settings.criterion(dir);
    let mut out = Vec::with_capacity(keys.len());
    for (i, key) in keys.iter().enumerate() {
        progress(i, key);
        let mut routine = fixture.routine(key);
        let name = format!("b{i:05}");
        let mut group = c.benchmark_group(&name);
        group.sampling_mode(SamplingMode::Flat);
        group.bench_function("run", |b| b.iter_custom(|iters| (routine.run)(iters)));
        group.finish();
        let files = dir.join(&name).join("run").join("new");
        let read = |f: &str| {
            let p = files.join(f);
            std::fs::read(&p).with_context(|| format!("{key}: reading Criterion's {}", p.display()))
        };
        let saved: SavedSample = serde_json::from_slice(&read("sample.json")?)?;
        let est: SavedEstimates = serde_json::from_slice(&read("estimates.json")?)?;
        let per_event = routine.events_per_iter as f64;
        out.push(Measured {
            key: key.clone(),
            events_per_iter: routine.events_per_iter,
            samples: saved
                .iters
                .iter()
                .zip(&saved.times)
                .map(|(&iters, &total_ns)| Sample {
                    iters: iters as u64,
                    total_ns,
                })
                .collect(),
            estimates: Estimates {
                mean_ns: est.mean.point_estimate / per_event,
                median_ns: est.median.point_estimate / per_event,
                median_lb_ns: est.median.confidence_interval.lower_bound / per_event,
                median_ub_ns: est.median.confidence_interval.upper_bound / per_event,
            },
        });
    }
    Ok(out)
}

/// `samples.csv` of `measured`.
pub fn samples_csv(measured: &[Measured]) -> String {
    let mut s =
        String::from("workload,profile,subset,threads,sample,iters,total_ns,events_per_iter\n");
    for m in measured {
        for (i, x) in m.samples.iter().enumerate() {
            let _ = writeln!(
                s,
                "{},{},{},{},{},{},{:.0},{}",
                m.key.workload,
                m.key.profile,
                m.key.subset.name(),
                m.key.threads,
                i,
                x.iters,
                x.total_ns,
                m.events_per_iter
            );
        }
    }
    s
}

/// `estimates.csv` of `measured`.
pub fn estimates_csv(measured: &[Measured]) -> String {
    let mut s = String::from(
        "workload,profile,subset,threads,mean_ns,median_ns,median_lb_ns,median_ub_ns\n",
    );
    for m in measured {
        let e = &m.estimates;
        let _ = writeln!(
            s,
            "{},{},{},{},{:.3},{:.3},{:.3},{:.3}",
            m.key.workload,
            m.key.profile,
            m.key.subset.name(),
            m.key.threads,
            e.mean_ns,
            e.median_ns,
            e.median_lb_ns,
            e.median_ub_ns
        );
    }
    s
}

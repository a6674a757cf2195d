//! Everything one `aggregate` reads: the runs of one or more labels, their
//! summary rows, side measurements, and the robustness and interop inputs.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::{Result, bail};

use crate::records::{self, Run};
use crate::side::{Interop, Robustness, Side};
use crate::summary::{self, REFERENCE, Row};

type RowKey = (String, String, String, String, i64);

/// A loaded campaign (possibly several labels and hosts).
pub struct Campaign {
    /// Labels in the order given; the first names the output directory.
    pub labels: Vec<String>,
    /// Complete runs, by label then K.
    pub runs: Vec<Run>,
    /// Summary rows, sorted as in `summary.csv`.
    pub rows: Vec<Row>,
    /// Side measurements.
    pub side: Side,
    /// `results/robustness/robustness.json`, when present.
    pub robustness: Option<Robustness>,
    /// `results/interop/*.csv` rows.
    pub interop: Vec<Interop>,
    /// Missing optional inputs, reported on stderr and in `summary.md`.
    pub warnings: Vec<String>,
    index: BTreeMap<RowKey, usize>,
}

impl Campaign {
    /// Reads every complete run of `labels` under `root`, and the robustness
    /// and interop results under `root/results`.
    pub fn load(root: &Path, labels: &[String]) -> Result<Self> {
        if labels.is_empty() {
            bail!("no campaign label given");
        }
        let runs = records::discover(root, labels)?;
        let samples = records::SAMPLES
            .scan(&runs)?
            .ok_or_else(|| anyhow::anyhow!("no run has samples.csv"))?;
        let rows = summary::summarize(samples)?;
        let side = Side::read(&runs)?;
        let mut warnings = Vec::new();
        let robustness = Robustness::read(
            &root.join("results/robustness/robustness.json"),
            &mut warnings,
        )?;
        let interop = crate::side::read_interop(&root.join("results/interop"), &mut warnings)?;
        let index = rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let key = (
                    r.host.clone(),
                    r.workload.clone(),
                    r.profile.clone(),
                    r.subset.clone(),
                    r.threads,
                );
                (key, i)
            })
            .collect();
        Ok(Campaign {
            labels: labels.to_vec(),
            runs,
            rows,
            side,
            robustness,
            interop,
            warnings,
            index,
        })
    }

    /// The host of the first label's first run: the paper tables, macros and
    /// plots describe this host (`summary.*` covers all hosts).
    pub fn primary_host(&self) -> &str {
        &self.runs[0].host
    }

    /// Every host, sorted.
    pub fn hosts(&self) -> Vec<String> {
        let set: BTreeSet<&String> = self.runs.iter().map(|r| &r.host).collect();
        set.into_iter().cloned().collect()
    }

    /// The runs measured on `host`.
    pub fn runs_on<'a>(&'a self, host: &'a str) -> impl Iterator<Item = &'a Run> + 'a {
        self.runs.iter().filter(move |r| r.host == host)
    }

    /// The summary row of one key.
    pub fn row(
        &self,
        host: &str,
        workload: &str,
        profile: &str,
        subset: &str,
        threads: i64,
    ) -> Option<&Row> {
        let key = (
            host.to_owned(),
            workload.to_owned(),
            profile.to_owned(),
            subset.to_owned(),
            threads,
        );
        self.index.get(&key).map(|&i| &self.rows[i])
    }

    /// `median_ns` of one key at subset `all`, one thread.
    pub fn ns(&self, host: &str, workload: &str, profile: &str) -> Option<f64> {
        self.row(host, workload, profile, "all", 1)
            .map(|r| r.median_ns)
    }

    /// The profiles measured on `host` (no `reference` rows), sorted.
    pub fn profiles(&self, host: &str) -> Vec<String> {
        let set: BTreeSet<&String> = self
            .rows
            .iter()
            .filter(|r| r.host == host && r.profile != REFERENCE)
            .map(|r| &r.profile)
            .collect();
        set.into_iter().cloned().collect()
    }

    /// The largest `ingest-mt` thread count on `host`, if it ran.
    pub fn ingest_threads(&self, host: &str) -> Option<i64> {
        self.rows
            .iter()
            .filter(|r| r.host == host && r.workload == "ingest-mt" && r.subset == "all")
            .map(|r| r.threads)
            .max()
    }

    /// `ingest-mt` median(threads=1) / median(threads=N) for `profile`.
    pub fn ingest_scaling(&self, host: &str, profile: &str) -> Option<(i64, f64)> {
        let n = self.ingest_threads(host)?;
        let one = self.row(host, "ingest-mt", profile, "all", 1)?.median_ns;
        let many = self.row(host, "ingest-mt", profile, "all", n)?.median_ns;
        Some((n, one / many))
    }

    /// The sizes of `profile` at `subset` on `host`.
    pub fn sizes(&self, host: &str, profile: &str, subset: &str) -> Option<&crate::side::Sizes> {
        self.side
            .sizes
            .iter()
            .find(|s| s.host == host && s.profile == profile && s.subset == subset)
    }

    /// A short description of the runs on `host`: labels, run ids, commits.
    pub fn describe_host(&self, host: &str) -> String {
        let runs: Vec<String> = self.runs_on(host).map(Run::id).collect();
        let commits: BTreeSet<String> = self
            .runs_on(host)
            .map(|r| format!("{}{}", r.commit, if r.dirty { " (dirty)" } else { "" }))
            .collect();
        let commits: Vec<String> = commits.into_iter().collect();
        format!(
            "{} runs ({}); commit {}",
            runs.len(),
            runs.join(", "),
            commits.join(", ")
        )
    }
}

//! Finding and reading campaign run records (`docs/RESULTS.md`).
//!
//! A run is a complete `results/campaigns/<label>/run-K/` directory;
//! `run-K.tmp/` (killed or unfinished) is never read. Every CSV is checked
//! against its documented header before Polars scans it with a fixed schema,
//! and each scanned frame gains `host` (from `contract.json`) and `run`
//! (`<label>/run-K`) columns.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use polars::prelude::*;
use serde::Deserialize;

/// One complete run directory and the parts of its contract we report.
#[derive(Clone, Debug)]
pub struct Run {
    /// The campaign label the run belongs to.
    pub label: String,
    /// K in `run-K`.
    pub k: u32,
    /// The run directory.
    pub dir: PathBuf,
    /// `contract.host.id`.
    pub host: String,
    /// `contract.git.commit`.
    pub commit: String,
    /// `contract.git.dirty`.
    pub dirty: bool,
    /// `contract.campaign_profile`.
    pub campaign_profile: String,
    /// `contract.corpus`.
    pub corpus: Corpus,
    /// `observed.started` (RFC 3339), when recorded.
    pub started: Option<String>,
    /// `observed.finished` (RFC 3339), when recorded.
    pub finished: Option<String>,
}

impl Run {
    /// The run's id in the `run` column: `<label>/run-K`.
    pub fn id(&self) -> String {
        format!("{}/run-{}", self.label, self.k)
    }
}

/// The corpus a run measured.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct Corpus {
    /// SHA-256 fingerprint of the selection.
    pub fingerprint: String,
    /// Events in the selection.
    pub count: u64,
    /// Generator seed; `None` for a campaign over the real corpus or a file.
    pub seed: Option<u64>,
}

#[derive(Deserialize)]
struct ContractFile {
    schema: u32,
    contract: ContractBody,
    #[serde(default)]
    observed: Observed,
}

#[derive(Default, Deserialize)]
struct Observed {
    started: Option<String>,
    finished: Option<String>,
}

#[derive(Deserialize)]
struct ContractBody {
    git: Git,
    corpus: Corpus,
    campaign_profile: String,
    host: Host,
}

#[derive(Deserialize)]
struct Git {
    commit: String,
    dirty: bool,
}

#[derive(Deserialize)]
struct Host {
    id: String,
}

/// The schema version of `contract.json` this reader understands.
pub const CONTRACT_SCHEMA: u32 = 2;

/// `results/campaigns/<label>` under `root`.
pub fn campaign_dir(root: &Path, label: &str) -> PathBuf {
    root.join("results").join("campaigns").join(label)
}

/// Every complete run of `labels`, in label order then by K. Skipped
/// `run-K.tmp` directories are reported on stderr.
pub fn discover(root: &Path, labels: &[String]) -> Result<Vec<Run>> {
    let mut runs = Vec::new();
    for label in labels {
        let dir = campaign_dir(root, label);
        let entries = fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))?;
        let mut found = Vec::new();
        for entry in entries {
            let entry = entry.with_context(|| format!("reading {}", dir.display()))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(rest) = name.strip_prefix("run-") else {
                continue;
            };
            if rest.ends_with(".tmp") {
                eprintln!(
                    "binostr-report: skipping incomplete {}",
                    entry.path().display()
                );
                continue;
            }
            let Ok(k) = rest.parse::<u32>() else {
                continue;
            };
            if entry.file_type()?.is_dir() {
                found.push((k, entry.path()));
            }
        }
        if found.is_empty() {
            bail!("no complete run-K directory under {}", dir.display());
        }
        found.sort();
        for (k, path) in found {
            runs.push(read_run(label, k, path)?);
        }
    }
    Ok(runs)
}

fn read_run(label: &str, k: u32, dir: PathBuf) -> Result<Run> {
    let path = dir.join("contract.json");
    let text = fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let file: ContractFile =
        serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    if file.schema != CONTRACT_SCHEMA {
        bail!(
            "{}: schema {} (this reader knows {CONTRACT_SCHEMA})",
            path.display(),
            file.schema
        );
    }
    let c = file.contract;
    Ok(Run {
        label: label.to_owned(),
        k,
        dir,
        host: c.host.id,
        commit: c.git.commit,
        dirty: c.git.dirty,
        campaign_profile: c.campaign_profile,
        corpus: c.corpus,
        started: file.observed.started,
        finished: file.observed.finished,
    })
}

/// A run-record CSV: its file name and its documented columns and types.
pub struct CsvSchema {
    /// File name inside `run-K/`.
    pub file: &'static str,
    /// Columns in order, with their types.
    pub columns: &'static [(&'static str, Kind)],
}

/// A column type.
#[derive(Clone, Copy)]
pub enum Kind {
    /// Text.
    Str,
    /// Integer.
    Int,
    /// Real number.
    Real,
}

use Kind::{Int, Real, Str};

/// `samples.csv`: one row per Criterion sample.
pub const SAMPLES: CsvSchema = CsvSchema {
    file: "samples.csv",
    columns: &[
        ("workload", Str),
        ("profile", Str),
        ("subset", Str),
        ("threads", Int),
        ("sample", Int),
        ("iters", Int),
        ("total_ns", Real),
        ("events_per_iter", Int),
        ("sequence", Str),
    ],
};

/// `ratios.csv`: the paired ratio of every comparison in every round.
pub const RATIOS: CsvSchema = CsvSchema {
    file: "ratios.csv",
    columns: &[
        ("workload", Str),
        ("profile", Str),
        ("subset", Str),
        ("threads", Int),
        ("against", Str),
        ("round", Int),
        ("ratio", Real),
        ("min_ratio", Real),
    ],
};

/// `rounds.csv`: every pass of every interleaved round.
pub const ROUNDS: CsvSchema = CsvSchema {
    file: "rounds.csv",
    columns: &[
        ("group", Str),
        ("subset", Str),
        ("round", Int),
        ("sample", Int),
        ("position", Int),
        ("workload", Str),
        ("profile", Str),
        ("threads", Int),
        ("events", Int),
        ("ns", Real),
    ],
};

/// `instructions.csv` (optional): callgrind instruction counts.
pub const INSTRUCTIONS: CsvSchema = CsvSchema {
    file: "instructions.csv",
    columns: &[
        ("workload", Str),
        ("profile", Str),
        ("subset", Str),
        ("events", Int),
        ("passes", Int),
        ("instructions", Real),
    ],
};

/// `sizes.csv`: encoded sizes per profile and subset.
pub const SIZES: CsvSchema = CsvSchema {
    file: "sizes.csv",
    columns: &[
        ("profile", Str),
        ("subset", Str),
        ("events", Int),
        ("raw_bytes", Int),
        ("framed_bytes", Int),
        ("zstd_event_bytes", Int),
        ("zstd_stream_bytes", Int),
        ("zstd_dict_bytes", Int),
    ],
};

/// `latency.csv`: per-event latency percentiles.
pub const LATENCY: CsvSchema = CsvSchema {
    file: "latency.csv",
    columns: &[
        ("workload", Str),
        ("profile", Str),
        ("events", Int),
        ("timer_overhead_ns", Real),
        ("p50_ns", Real),
        ("p90_ns", Real),
        ("p99_ns", Real),
        ("p999_ns", Real),
        ("max_ns", Real),
    ],
};

/// `transport.csv`: the WebSocket loop per profile, mode and check
/// (`binostr::transport::measure::CSV_HEADER`).
pub const TRANSPORT: CsvSchema = CsvSchema {
    file: "transport.csv",
    columns: &[
        ("profile", Str),
        ("mode", Str),
        ("check", Str),
        ("events", Int),
        ("s2c_bytes_per_event", Real),
        ("c2s_bytes_per_event", Real),
        ("s2c_bytes", Int),
        ("c2s_bytes", Int),
        ("handshake_s2c_bytes", Int),
        ("handshake_c2s_bytes", Int),
        ("model_s2c_bytes", Int),
        ("model_c2s_bytes", Int),
        ("events_per_s", Real),
        ("events_per_s_lo", Real),
        ("events_per_s_hi", Real),
        ("speed_vs_json", Real),
        ("speed_vs_json_lo", Real),
        ("speed_vs_json_hi", Real),
        ("latency_p50_ns", Real),
        ("latency_p99_ns", Real),
        ("relay_cpu_ns_per_event", Real),
        ("client_cpu_ns_per_event", Real),
    ],
};

/// `alloc.csv`: allocation counts per workload.
pub const ALLOC: CsvSchema = CsvSchema {
    file: "alloc.csv",
    columns: &[
        ("workload", Str),
        ("profile", Str),
        ("events", Int),
        ("allocs", Int),
        ("alloc_bytes", Int),
    ],
};

/// `rss.csv`: peak resident set per workload.
pub const RSS: CsvSchema = CsvSchema {
    file: "rss.csv",
    columns: &[
        ("workload", Str),
        ("profile", Str),
        ("baseline_kib", Int),
        ("peak_kib", Int),
    ],
};

impl CsvSchema {
    fn schema(&self) -> SchemaRef {
        let fields = self.columns.iter().map(|&(name, kind)| {
            let dtype = match kind {
                Str => DataType::String,
                Int => DataType::Int64,
                Real => DataType::Float64,
            };
            Field::new(name.into(), dtype)
        });
        Arc::new(Schema::from_iter(fields))
    }

    fn header(&self) -> String {
        let names: Vec<&str> = self.columns.iter().map(|c| c.0).collect();
        names.join(",")
    }

    /// This table from every run that has it, concatenated, with `host` and
    /// `run` columns. `None` when no run has the file; a run without it is
    /// reported on stderr (the campaign writes side measurements only where
    /// they apply). A header that differs from the contract is an error.
    pub fn scan(&self, runs: &[Run]) -> Result<Option<LazyFrame>> {
        self.scan_with(runs, |path| {
            eprintln!("binostr-report: warning: {} is missing", path.display());
            Ok(())
        })
    }

    /// Like [`CsvSchema::scan`], but a run without the file is an error.
    pub fn scan_required(&self, runs: &[Run]) -> Result<LazyFrame> {
        self.scan_with(runs, |path| bail!("{} is missing", path.display()))?
            .ok_or_else(|| anyhow::anyhow!("no run has {}", self.file))
    }

    /// Like [`CsvSchema::scan`], but silent about runs without the file (an
    /// optional record).
    pub fn scan_optional(&self, runs: &[Run]) -> Result<Option<LazyFrame>> {
        self.scan_with(runs, |_| Ok(()))
    }

    fn scan_with(
        &self,
        runs: &[Run],
        mut missing: impl FnMut(&Path) -> Result<()>,
    ) -> Result<Option<LazyFrame>> {
        let mut frames = Vec::new();
        for run in runs {
            let path = run.dir.join(self.file);
            if !path.exists() {
                missing(&path)?;
                continue;
            }
            frames.push(self.scan_file(&path)?.with_columns([
                lit(run.host.as_str()).alias("host"),
                lit(run.id()).alias("run"),
            ]));
        }
        if frames.is_empty() {
            return Ok(None);
        }
        Ok(Some(concat(frames, UnionArgs::default())?))
    }

    /// One file of this table, its header checked against the contract.
    pub fn scan_file(&self, path: &Path) -> Result<LazyFrame> {
        check_header(path, &self.header())?;
        LazyCsvReader::new(PlRefPath::try_from_path(path)?)
            .with_has_header(true)
            .with_schema(Some(self.schema()))
            .finish()
            .map_err(|e| anyhow::anyhow!("scanning {}: {e}", path.display()))
    }
}

fn check_header(path: &Path, expected: &str) -> Result<()> {
    let text = fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let first = text.lines().next().unwrap_or("");
    if first.trim_end_matches('\r') != expected {
        bail!(
            "{}: header at byte 0 is {first:?}, expected {expected:?}",
            path.display()
        );
    }
    Ok(())
}

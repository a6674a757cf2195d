//! `run-K/contract.json`: what must be equal for runs to be comparable
//! ([`Contract`]) and what is only recorded ([`Observed`]).

use serde::{Deserialize, Serialize};

/// `run-K/contract.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// Schema version ([`crate::SCHEMA`]).
    pub schema: u32,
    /// Compared between runs.
    pub contract: Contract,
    /// Not compared.
    pub observed: Observed,
}

/// Everything that must be equal for runs to be comparable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Contract {
    /// Source tree.
    pub git: Git,
    /// `rustc -vV` of the compiler that built the binary.
    pub rustc: String,
    /// Cargo profile of the binary.
    pub build_profile: String,
    /// RUSTFLAGS of the binary.
    pub rustflags: String,
    /// SHA-256 of Cargo.lock.
    pub cargo_lock_sha256: String,
    /// The corpus: fingerprint, count, seed.
    pub corpus: ContractCorpus,
    /// The campaign's settings: `smoke`, `quick` or `publication`
    /// (`campaign_profile` in contracts recorded before the rename).
    #[serde(alias = "campaign_profile")]
    pub settings: String,
    /// Criterion settings.
    pub criterion: CriterionSettings,
    /// The machine.
    pub host: Host,
}

/// The corpus part of a contract.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContractCorpus {
    /// Fingerprint.
    pub fingerprint: String,
    /// Events.
    pub count: u64,
    /// Seed (`null` for a corpus file).
    pub seed: Option<u64>,
}

/// How Criterion samples (per campaign settings).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CriterionSettings {
    /// Samples per benchmark.
    pub sample_size: usize,
    /// Warm-up time in ms.
    pub warm_up_ms: u64,
    /// Measurement time in ms.
    pub measurement_ms: u64,
    /// Bootstrap resamples of Criterion's own estimates.
    pub nresamples: usize,
}

/// The machine.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Host {
    /// `hostname/cpu model`: the host column of merged summaries.
    pub id: String,
    /// Host name.
    pub hostname: String,
    /// CPU model name.
    pub cpu_model: String,
    /// Logical cores available to the process.
    pub cores: usize,
    /// cpufreq governor of cpu0, or `unknown`.
    pub governor: String,
    /// Frequency boost `on`/`off`, or `unknown`.
    pub boost: String,
    /// Kernel release.
    pub kernel: String,
}

/// The git commit of the working tree and whether tracked files differ from
/// it, outside what the record excludes (a run: `results/`; a manifest: the
/// directories it covers): `unknown` and dirty outside a git checkout.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Git {
    /// Commit hash.
    pub commit: String,
    /// Tracked files outside the excluded directories are modified.
    pub dirty: bool,
}

/// Recorded but not compared.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Observed {
    /// Run number.
    pub run: usize,
    /// Seed of the shuffled benchmark order.
    pub order_seed: u64,
    /// Groups timed.
    pub groups: usize,
    /// Subsets skipped because the corpus has no events in them.
    pub empty_subsets: Vec<String>,
    /// Start, RFC 3339 UTC.
    pub started: String,
    /// End, RFC 3339 UTC.
    pub finished: String,
    /// Load averages before.
    pub load_before: Vec<f64>,
    /// Load averages after.
    pub load_after: Vec<f64>,
    /// `instructions.csv`: the Valgrind version that counted it, or why it
    /// was skipped (absent in runs recorded before it existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
    /// Wall time of each stage, in the order they ran (empty in runs
    /// recorded before it existed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stages: Vec<Stage>,
}

/// Wall time of one stage of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stage {
    /// What ran: `timing`, `sizes`, `latency`, `transport`, `apart ID
    /// timing` (and its `sizes`, `transport`), `allocations`, `peak RSS`,
    /// `instructions`.
    pub stage: String,
    /// Wall seconds, to a tenth.
    pub seconds: f64,
}

impl Stage {
    /// The stage `stage` that began at `start` and ends now.
    pub fn since(stage: impl Into<String>, start: std::time::Instant) -> Stage {
        Stage {
            stage: stage.into(),
            seconds: (start.elapsed().as_secs_f64() * 10.0).round() / 10.0,
        }
    }
}

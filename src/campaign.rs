//! `binostr campaign`: runs the measurement as independent child processes
//! (`run-1`, `run-2`, ...), each with its own shuffled benchmark order and
//! side-measurement processes, and records the contract that makes runs
//! comparable. The layout is documented in `docs/RESULTS.md`.
//!
//! A run is written to `run-K.tmp/` and renamed to `run-K/` only when every
//! file is complete, so a killed run is never counted; rerunning the same
//! label deletes the `.tmp` and measures the missing runs. A run whose
//! contract differs from the label's existing runs is refused, naming the
//! field.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use rayon::prelude::*;

use crate::bench::group::{self, Sequence};
use crate::bench::probe::PROBED;
use crate::bench::timing::Settings;
use crate::bench::workload::{self, BenchKey, Fixture, Subset, Workload};
use crate::codec::{Limits, Profile};
use crate::corpus::{audit, select};
use crate::files::write_atomically;
use crate::model::Event;
use crate::profiles;

pub mod child;
pub mod host;
pub mod instructions;

use host::{Git, Host};
use instructions::Valgrind;

/// Record schema version (see `docs/RESULTS.md`).
pub const SCHEMA: u32 = 2;

/// How long and how wide a campaign measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CampaignProfile {
    /// Seconds; a pipeline check on a tiny corpus, subset `all` only.
    Smoke,
    /// Minutes on 2 cores with the default corpus.
    Quick,
    /// The paper's: longer passes and more rounds.
    Publication,
}

impl CampaignProfile {
    /// The stable name.
    pub fn name(self) -> &'static str {
        match self {
            CampaignProfile::Smoke => "smoke",
            CampaignProfile::Quick => "quick",
            CampaignProfile::Publication => "publication",
        }
    }

    /// Criterion settings.
    pub fn settings(self) -> Settings {
        let (sample_size, warm_up_ms, measurement_ms, nresamples) = match self {
            CampaignProfile::Smoke => (10, 1, 5, 100),
            CampaignProfile::Quick => (10, 5, 20, 100),
            // One round per sample on most groups: 30 paired rounds.
            CampaignProfile::Publication => (30, 300, 100, 10_000),
        };
        Settings {
            sample_size,
            warm_up_ms,
            measurement_ms,
            nresamples,
        }
    }

    /// Subsets measured.
    pub fn subsets(self) -> &'static [Subset] {
        match self {
            CampaignProfile::Smoke => &[Subset::All],
            _ => &Subset::ALL,
        }
    }

    /// Most events and JSON bytes in one pass (a subset's sequence); larger
    /// subsets are sampled, stratified by size.
    pub fn sequence_budget(self) -> group::Budget {
        let (events, bytes) = match self {
            CampaignProfile::Smoke => (100, 1 << 20),
            CampaignProfile::Quick => (200, 1 << 20),
            CampaignProfile::Publication => (600, 4 << 20),
        };
        group::Budget { events, bytes }
    }

    /// Default generated corpus size and selection.
    pub fn default_corpus(self) -> (usize, usize) {
        match self {
            CampaignProfile::Smoke => (300, 100),
            _ => (10_000, 5_000),
        }
    }

    /// Events timed one by one for latency percentiles.
    pub fn latency_events(self) -> usize {
        match self {
            CampaignProfile::Smoke => 100,
            CampaignProfile::Quick => 2_000,
            CampaignProfile::Publication => usize::MAX,
        }
    }

    /// Events of the disjoint sample the zstd dictionaries are trained on.
    pub fn dictionary_sample(self) -> usize {
        match self {
            CampaignProfile::Smoke => 200,
            CampaignProfile::Quick => 500,
            CampaignProfile::Publication => 2_000,
        }
    }
}

/// Which events a campaign measures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CorpusChoice {
    /// The seeded generated corpus, audited and selected.
    Generated,
    /// Every valid event of a file.
    File(PathBuf),
    /// Every valid event of the recorded real corpus.
    Real,
}

/// What `binostr campaign` was asked to do.
#[derive(Clone, Debug)]
pub struct Options {
    /// Campaign profile.
    pub profile: CampaignProfile,
    /// Label (directory name under `root`).
    pub label: String,
    /// The events measured.
    pub corpus: CorpusChoice,
    /// Runs wanted.
    pub runs: usize,
    /// Seed of the generated corpus, its selection and the run orders.
    pub seed: u64,
    /// Parent of the label directories.
    pub root: PathBuf,
    /// Events generated and selected (defaults per campaign profile).
    pub generate: Option<(usize, usize)>,
}

/// The corpus a campaign measured.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CorpusRecord {
    /// Fingerprint of the measured events.
    pub fingerprint: String,
    /// Events measured.
    pub count: usize,
    /// Seed of generation and selection (`null` for `--corpus FILE`).
    pub seed: Option<u64>,
    /// `generated`, `real` (the recorded real corpus) or the file name given.
    pub source: String,
    /// SHA-256 of `corpus/audit.json`.
    pub audit_sha256: String,
    /// Accepted events left out because a profile cannot represent them.
    pub unrepresentable: Vec<Unrepresentable>,
}

/// An accepted event that no campaign run measures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unrepresentable {
    /// Event id, hex.
    pub id: String,
    /// The first enabled profile (registry order) that refused it.
    pub profile: String,
    /// Its encoder's reason.
    pub reason: String,
}

/// `campaign.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignRecord {
    /// Schema version.
    pub schema: u32,
    /// Label.
    pub label: String,
    /// Campaign profile.
    pub campaign_profile: CampaignProfile,
    /// Runs asked for most recently.
    pub runs: usize,
    /// Seed.
    pub seed: u64,
    /// Corpus.
    pub corpus: CorpusRecord,
    /// The events every pass of each subset covers.
    pub sequences: Vec<Sequence>,
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
    /// Campaign profile.
    pub campaign_profile: CampaignProfile,
    /// Criterion settings.
    pub criterion: Settings,
    /// The machine.
    pub host: Host,
}

/// The corpus part of a contract.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContractCorpus {
    /// Fingerprint.
    pub fingerprint: String,
    /// Events.
    pub count: usize,
    /// Seed (`null` for a corpus file).
    pub seed: Option<u64>,
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
}

/// `run-K/contract.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// Schema version.
    pub schema: u32,
    /// Compared between runs.
    pub contract: Contract,
    /// Not compared.
    pub observed: Observed,
}

/// The first field where two JSON values differ, as a dotted path with
/// both values.
pub fn first_difference(path: &str, a: &Value, b: &Value) -> Option<(String, String, String)> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            keys.into_iter().find_map(|k| {
                let sub = format!("{path}.{k}");
                match (x.get(k), y.get(k)) {
                    (Some(va), Some(vb)) => first_difference(&sub, va, vb),
                    (va, vb) => Some((sub, show(va), show(vb))),
                }
            })
        }
        _ if a == b => None,
        _ => Some((path.to_string(), a.to_string(), b.to_string())),
    }
}

fn show(v: Option<&Value>) -> String {
    v.map_or_else(|| "(absent)".into(), Value::to_string)
}

/// Refuses when `existing` and `current` differ, naming the field.
pub fn check_contract(run: &str, existing: &Contract, current: &Contract) -> Result<()> {
    let a = serde_json::to_value(existing)?;
    let b = serde_json::to_value(current)?;
    if let Some((field, there, here)) = first_difference("contract", &a, &b) {
        bail!(
            "{run} was measured under a different contract: field `{field}` is {there} there but {here} now; \
             use a new --label (or restore the original setup) to add runs"
        );
    }
    Ok(())
}

/// The corpus JSONL a campaign measures, cached beside the label
/// directories (not part of the results; regenerated from the seed).
fn corpus_cache(opts: &Options) -> PathBuf {
    opts.root
        .join(".corpus")
        .join(&opts.label)
        .join("selection.jsonl")
}

/// Runs the campaign; returns the label directory.
pub fn run(opts: &Options) -> Result<PathBuf> {
    let valgrind = valgrind_for(opts.profile, std::env::var("CI").as_deref() == Ok("true"))?;
    // Found before run-1, not after its timing.
    let alloc_probe = alloc_probe_exe()?;
    let dir = opts.root.join(&opts.label);
    std::fs::create_dir_all(dir.join("corpus"))
        .with_context(|| format!("creating {}", dir.display()))?;
    let (events, corpus, corpus_path) = prepare_corpus(opts, &dir)?;
    let (subsets, empty) = workload::split_subsets(&events, opts.profile.subsets());
    let record = CampaignRecord {
        schema: SCHEMA,
        label: opts.label.clone(),
        campaign_profile: opts.profile,
        runs: opts.runs,
        seed: opts.seed,
        corpus: corpus.clone(),
        sequences: sequences(&events, &subsets, opts.profile, opts.seed),
    };
    check_campaign_record(&dir, &record)?;

    let (build_profile, rustflags) = host::build_flags();
    let contract = Contract {
        git: Git::detect(Path::new(".")),
        rustc: host::rustc_version(),
        build_profile,
        rustflags,
        cargo_lock_sha256: host::cargo_lock_sha256(),
        corpus: ContractCorpus {
            fingerprint: corpus.fingerprint.clone(),
            count: corpus.count,
            seed: corpus.seed,
        },
        campaign_profile: opts.profile,
        criterion: opts.profile.settings(),
        host: Host::detect(),
    };
    // Every existing run must share the contract, including runs beyond
    // `--runs` from an earlier, longer invocation.
    let mut missing = Vec::new();
    for k in 1.. {
        let done = dir.join(format!("run-{k}"));
        let tmp = dir.join(format!("run-{k}.tmp"));
        if k <= opts.runs && tmp.exists() {
            eprintln!("discarding unfinished {}", tmp.display());
            std::fs::remove_dir_all(&tmp)?;
        }
        if done.exists() {
            let existing: RunRecord = read_json(&done.join("contract.json"))?;
            check_contract(&format!("run-{k}"), &existing.contract, &contract)?;
        } else if k <= opts.runs {
            missing.push(k);
        } else {
            break;
        }
    }
    write_atomically(
        &dir.join("campaign.json"),
        &(serde_json::to_string_pretty(&record)? + "\n"),
    )?;
    if missing.is_empty() {
        println!("{}: all {} runs are present", dir.display(), opts.runs);
        return Ok(dir);
    }

    let enabled: Vec<&'static Profile> = profiles::enabled().collect();
    let threads = ingest_threads(contract.host.cores);
    let keys = group::plan(&enabled, &subsets, &threads).len();
    let rss_steps = enabled.len() * PROBED.len();
    let counted = instructions::keys(&enabled);
    let instruction_steps = if valgrind.is_some() { counted.len() } else { 0 };
    let per_run = keys + 3 + rss_steps + instruction_steps;
    let all = record
        .sequences
        .iter()
        .find(|s| s.subset == Subset::All.name())
        .context("subset `all` has no sequence")?;
    let sequence_path = corpus_cache(opts).with_file_name("sequence-all.jsonl");
    let sequence_events: Vec<Event> = all.indices.iter().map(|&i| events[i].clone()).collect();
    crate::files::write_jsonl_atomically(&sequence_path, &sequence_events)?;
    let bar = progress_bar((per_run * missing.len()) as u64);
    for &k in &missing {
        let ctx = RunContext {
            k,
            dir: &dir,
            corpus_path: &corpus_path,
            opts,
            keys,
            bar: &bar,
            alloc_probe: &alloc_probe,
            instructions: valgrind.as_ref().map(|v| InstructionProbe {
                valgrind: v,
                keys: &counted,
                corpus: &sequence_path,
                sequence: &all.id,
            }),
        };
        let observed = ctx.measure(&empty)?;
        let tmp = dir.join(format!("run-{k}.tmp"));
        let run = RunRecord {
            schema: SCHEMA,
            contract: contract.clone(),
            observed,
        };
        write_atomically(
            &tmp.join("contract.json"),
            &(serde_json::to_string_pretty(&run)? + "\n"),
        )?;
        std::fs::rename(&tmp, dir.join(format!("run-{k}")))?;
        bar.println(format!("run-{k} complete"));
    }
    bar.finish_and_clear();
    println!(
        "campaign `{}` ({}): {} runs in {}",
        opts.label,
        opts.profile.name(),
        opts.runs,
        dir.display()
    );
    println!(
        "next: cargo run -p binostr-report -- aggregate {} (or `just aggregate {}`)",
        opts.label, opts.label
    );
    Ok(dir)
}

/// The sequence of every subset of `events` (see [`group::sequence`]).
pub fn sequences(
    events: &[Event],
    subsets: &[Subset],
    profile: CampaignProfile,
    seed: u64,
) -> Vec<Sequence> {
    let json_len: Vec<usize> = events.iter().map(|e| e.to_json().len()).collect();
    subsets
        .iter()
        .map(|&s| group::sequence(events, &json_len, s, profile.sequence_budget(), seed))
        .collect()
}

/// The Valgrind that counts instructions, or `None` (warned) where a
/// `smoke` or `quick` campaign may go without; a `publication` campaign, or
/// any campaign under CI, refuses to start without it.
fn valgrind_for(profile: CampaignProfile, ci: bool) -> Result<Option<Valgrind>> {
    if let Some(v) = Valgrind::detect() {
        return Ok(Some(v));
    }
    if profile == CampaignProfile::Publication {
        bail!(
            "valgrind not found: a publication campaign records instruction counts (install valgrind)"
        );
    }
    if ci {
        bail!("valgrind not found under CI=true: CI must install it (see .ci/run)");
    }
    eprintln!(
        "warning: valgrind not found; this {} campaign records no instructions.csv \
         (contract.json says `observed.instructions: \"{}\"`)",
        profile.name(),
        instructions::SKIPPED
    );
    Ok(None)
}

/// Thread counts of `ingest-mt`: 1 and all cores.
pub fn ingest_threads(cores: usize) -> Vec<usize> {
    if cores > 1 { vec![1, cores] } else { vec![1] }
}

struct RunContext<'a> {
    k: usize,
    dir: &'a Path,
    corpus_path: &'a Path,
    opts: &'a Options,
    keys: usize,
    bar: &'a indicatif::ProgressBar,
    alloc_probe: &'a Path,
    instructions: Option<InstructionProbe<'a>>,
}

/// What the instruction probe of a run needs.
struct InstructionProbe<'a> {
    valgrind: &'a Valgrind,
    keys: &'a [BenchKey],
    /// The events of subset `all`'s sequence, in order.
    corpus: &'a Path,
    /// That sequence's id.
    sequence: &'a str,
}

impl RunContext<'_> {
    fn measure(&self, empty: &[Subset]) -> Result<Observed> {
        let tmp = self.dir.join(format!("run-{}.tmp", self.k));
        std::fs::create_dir_all(&tmp)?;
        let order_seed = order_seed(self.opts.seed, self.k);
        let started = now_rfc3339();
        let load_before = host::load_average();
        self.bar.set_message(format!("run-{} timing", self.k));
        self.child(
            &["timing", "--order-seed", &order_seed.to_string()],
            &tmp,
            true,
        )?;
        for probe in ["sizes", "latency"] {
            self.bar.set_message(format!("run-{} {probe}", self.k));
            self.child(&[probe], &tmp, false)?;
            self.bar.inc(1);
        }
        self.bar.set_message(format!("run-{} allocations", self.k));
        self.alloc_probe(&tmp)?;
        self.bar.inc(1);
        self.bar.set_message(format!("run-{} peak RSS", self.k));
        // Peak RSS needs a fresh process per pair; they run side by side
        // (a process's own peak is unaffected), one per core.
        let pairs: Vec<(&str, Workload)> = profiles::enabled()
            .flat_map(|p| PROBED.map(|w| (p.id, w)))
            .collect();
        let rows = pairs
            .par_iter()
            .map(|(id, w)| {
                let out =
                    self.child(&["rss", "--codec", id, "--workload", w.name()], &tmp, false)?;
                self.bar.inc(1);
                Ok(format!("{w},{id},{}\n", out.trim()))
            })
            .collect::<Result<Vec<String>>>()?;
        let rss = format!("workload,profile,baseline_kib,peak_kib\n{}", rows.concat());
        write_atomically(&tmp.join("rss.csv"), &rss)?;
        let instructions = match &self.instructions {
            Some(probe) => {
                self.bar.set_message(format!("run-{} instructions", self.k));
                let rows = self.instruction_probe(probe, &tmp)?;
                write_atomically(&tmp.join("instructions.csv"), instructions::csv(&rows))?;
                probe.valgrind.version.clone()
            }
            None => instructions::SKIPPED.to_string(),
        };
        Ok(Observed {
            run: self.k,
            order_seed,
            groups: self.keys,
            empty_subsets: empty.iter().map(|s| s.name()).collect(),
            started,
            finished: now_rfc3339(),
            load_before,
            load_after: host::load_average(),
            instructions: Some(instructions),
        })
    }

    /// One callgrind process per counted benchmark, two at a time.
    fn instruction_probe(
        &self,
        probe: &InstructionProbe<'_>,
        out: &Path,
    ) -> Result<Vec<instructions::Row>> {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build()?;
        pool.install(|| {
            probe
                .keys
                .par_iter()
                .enumerate()
                .map(|(i, key)| {
                    let profile_file = out.join(format!(".callgrind-{i}.out"));
                    let mut cmd = probe.valgrind.callgrind(&profile_file);
                    cmd.arg(std::env::current_exe()?);
                    let threads = key.threads.to_string();
                    let args = [
                        "instructions",
                        "--codec",
                        key.profile,
                        "--workload",
                        key.workload.name(),
                        "--threads",
                        &threads,
                        "--sequence",
                        probe.sequence,
                    ];
                    // The child's argv and environment are the same in every
                    // run: its heap history, hence its count, depends on them.
                    let same_dir = probe.corpus.parent().unwrap_or(Path::new("."));
                    let printed = self.child_with(cmd, probe.corpus, &args, same_dir, false)?;
                    let text = std::fs::read_to_string(&profile_file)
                        .with_context(|| format!("reading {}", profile_file.display()))?;
                    std::fs::remove_file(&profile_file)?;
                    let instructions = instructions::total_ir(&text)
                        .with_context(|| format!("{key}: {}", profile_file.display()))?;
                    if instructions == 0 {
                        bail!(
                            "{key}: callgrind counted nothing: is `{}` the demangled name of the counted function?",
                            instructions::FUNCTION
                        );
                    }
                    let (events, passes) = printed
                        .trim()
                        .split_once(',')
                        .and_then(|(e, p)| Some((e.parse().ok()?, p.parse().ok()?)))
                        .with_context(|| format!("{key}: child printed `{}`", printed.trim()))?;
                    self.bar.inc(1);
                    Ok(instructions::Row {
                        key: key.clone(),
                        events,
                        passes,
                        instructions,
                    })
                })
                .collect()
        })
    }

    /// Runs `binostr campaign-child ARGS`; returns its standard output.
    /// Progress lines on its standard error advance the bar.
    fn child(&self, args: &[&str], out: &Path, timing: bool) -> Result<String> {
        let cmd = Command::new(std::env::current_exe()?);
        self.child_with(cmd, self.corpus_path, args, out, timing)
    }

    /// [`Self::child`] started by `cmd` (this executable, or a wrapper
    /// whose last argument is this executable) over `corpus`.
    fn child_with(
        &self,
        mut cmd: Command,
        corpus: &Path,
        args: &[&str],
        out: &Path,
        timing: bool,
    ) -> Result<String> {
        cmd.arg("campaign-child")
            .arg("--corpus")
            .arg(corpus)
            .arg("--campaign-profile")
            .arg(self.opts.profile.name())
            .arg("--seed")
            .arg(self.opts.seed.to_string())
            .arg("--out")
            .arg(out)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().context("starting a campaign child")?;
        let stderr = child.stderr.take().expect("piped");
        let bar = self.bar.clone();
        let reader = std::thread::spawn(move || {
            let mut other = String::new();
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if line.starts_with(child::PROGRESS) {
                    if timing {
                        bar.inc(1);
                    }
                } else {
                    bar.println(&line);
                    other.push_str(&line);
                    other.push('\n');
                }
            }
            other
        });
        let output = child.wait_with_output()?;
        let errors = reader.join().unwrap_or_default();
        if !output.status.success() {
            bail!(
                "campaign child `{}` failed ({}): {}",
                args.join(" "),
                output.status,
                errors.trim()
            );
        }
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    }

    fn alloc_probe(&self, out: &Path) -> Result<()> {
        let exe = self.alloc_probe;
        let status = Command::new(exe)
            .arg("--corpus")
            .arg(self.corpus_path)
            .arg("--out")
            .arg(out.join("alloc.csv"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .status()
            .with_context(|| format!("starting {}", exe.display()))?;
        if !status.success() {
            bail!("{} failed ({status})", exe.display());
        }
        Ok(())
    }
}

/// The `binostr-alloc-probe` binary beside this one, built with cargo when
/// missing (it holds the counting allocator, which must never be in the
/// timing process).
fn alloc_probe_exe() -> Result<PathBuf> {
    let exe = std::env::current_exe()?;
    let probe = exe.with_file_name(format!(
        "binostr-alloc-probe{}",
        std::env::consts::EXE_SUFFIX
    ));
    if probe.exists() {
        return Ok(probe);
    }
    let Ok(cargo) = std::env::var("CARGO") else {
        bail!(
            "{} is missing; build it with `cargo build --release --bins`",
            probe.display()
        );
    };
    eprintln!("building binostr-alloc-probe ...");
    let status = Command::new(cargo)
        .args([
            "build",
            "--release",
            "--locked",
            "--bin",
            "binostr-alloc-probe",
        ])
        .status()?;
    if !status.success() || !probe.exists() {
        bail!("could not build {}", probe.display());
    }
    Ok(probe)
}

/// The seed of run `k`'s benchmark order.
pub fn order_seed(seed: u64, k: usize) -> u64 {
    use sha2::{Digest, Sha256};
    let d = Sha256::digest(format!("binostr-order/{seed}/{k}"));
    u64::from_be_bytes(d[..8].try_into().expect("8 bytes"))
}

fn prepare_corpus(opts: &Options, dir: &Path) -> Result<(Vec<Event>, CorpusRecord, PathBuf)> {
    let options = audit::AuditOptions {
        limits: Limits::default(),
        progress: true,
    };
    let (events, seed, source, report) = match &opts.corpus {
        CorpusChoice::File(path) => {
            let mut accepted = Vec::new();
            let report =
                audit::audit_paths(std::slice::from_ref(path), &options, |e| accepted.push(e))?;
            let name = path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            (accepted, None, name, report)
        }
        CorpusChoice::Real => {
            let mut accepted = Vec::new();
            let report = crate::corpus::audit_real(None, &options, |e| accepted.push(e))?;
            (accepted, None, "real".to_string(), report)
        }
        CorpusChoice::Generated => {
            let (count, pick) = opts.generate.unwrap_or(opts.profile.default_corpus());
            let gen_path = corpus_cache(opts).with_file_name("generated.jsonl");
            let (accepted, report) =
                crate::corpus::generate_audited(opts.seed, count, &gen_path, &options)?;
            let (selected, record) = select::select(accepted, opts.seed, pick)?;
            write_atomically(
                &dir.join("corpus").join("selection.json"),
                &(serde_json::to_string_pretty(&record)? + "\n"),
            )?;
            (selected, Some(opts.seed), "generated".to_string(), report)
        }
    };
    if events.is_empty() {
        bail!("the corpus has no valid events");
    }
    let audit_path = dir.join("corpus").join("audit.json");
    write_atomically(
        &audit_path,
        &(serde_json::to_string_pretty(&report)? + "\n"),
    )?;
    let (events, unrepresentable) = representable(events);
    for u in &unrepresentable {
        eprintln!(
            "not measured: event {} ({} cannot represent it: {})",
            u.id, u.profile, u.reason
        );
    }
    if events.is_empty() {
        bail!("no event of the corpus is representable by every enabled profile");
    }
    let corpus_path = corpus_cache(opts);
    crate::files::write_jsonl_atomically(&corpus_path, &events)?;
    let record = CorpusRecord {
        fingerprint: crate::corpus::fingerprint(events.iter().map(|e| &e.id)),
        count: events.len(),
        seed,
        source,
        audit_sha256: host::file_sha256(&audit_path)?,
        unrepresentable,
    };
    Ok((events, record, corpus_path))
}

/// Splits off the events some enabled profile cannot represent: every
/// profile must time the same events, so such an event is measured by none
/// and recorded, with the first profile that refused it.
fn representable(events: Vec<Event>) -> (Vec<Event>, Vec<Unrepresentable>) {
    let enabled: Vec<&'static Profile> = profiles::enabled().collect();
    let refused: Vec<Option<Unrepresentable>> = events
        .par_iter()
        .map(|e| {
            let mut buf = Vec::new();
            enabled.iter().find_map(|p| {
                buf.clear();
                p.codec
                    .encode(e, &mut buf)
                    .err()
                    .map(|err| Unrepresentable {
                        id: crate::model::hex::encode(&e.id),
                        profile: p.id.to_string(),
                        reason: err.reason,
                    })
            })
        })
        .collect();
    let mut kept = Vec::with_capacity(events.len());
    let mut dropped = Vec::new();
    for (e, r) in events.into_iter().zip(refused) {
        match r {
            Some(r) => dropped.push(r),
            None => kept.push(e),
        }
    }
    (kept, dropped)
}

fn check_campaign_record(dir: &Path, record: &CampaignRecord) -> Result<()> {
    let path = dir.join("campaign.json");
    if !path.exists() {
        return Ok(());
    }
    let existing: CampaignRecord = read_json(&path)?;
    let mut a = serde_json::to_value(&existing)?;
    let mut b = serde_json::to_value(record)?;
    for v in [&mut a, &mut b] {
        v.as_object_mut().expect("object").remove("runs");
    }
    if let Some((field, there, here)) = first_difference("campaign", &a, &b) {
        bail!(
            "{} exists with a different setup: field `{field}` is {there} there but {here} now; use a new --label",
            path.display()
        );
    }
    Ok(())
}

/// Loads a corpus JSONL written by the campaign (structure checked; the
/// fixture verifies ids and signatures).
pub fn load_corpus(path: &Path) -> Result<Vec<Event>> {
    let text = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let limits = Limits::default();
    let mut offset = 0;
    let mut events = Vec::new();
    for line in text.split(|&b| b == b'\n') {
        if !line.is_empty() {
            let e = crate::validate::parse_event_json(line, &limits)
                .with_context(|| format!("{}: record at byte {offset}", path.display()))?;
            events.push(e);
        }
        offset += line.len() + 1;
    }
    Ok(events)
}

/// Prepares the fixture of `profiles` over the corpus at `path`.
pub fn load_fixture(path: &Path, profiles: &[&'static Profile]) -> Result<Fixture> {
    Ok(Fixture::prepare(
        load_corpus(path)?,
        profiles,
        Limits::default(),
    )?)
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_slice(&bytes).with_context(|| format!("parsing {}", path.display()))
}

fn progress_bar(len: u64) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} ETA {eta} {msg}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    bar
}

/// The current time as RFC 3339 UTC, to the second.
pub fn now_rfc3339() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    rfc3339(secs)
}

/// `secs` since the Unix epoch as RFC 3339 UTC.
pub fn rfc3339(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil date from days (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_known_instants() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_796_083_199), "2026-11-30T23:59:59Z");
    }

    #[test]
    fn first_difference_names_the_field() {
        let a = serde_json::json!({"x": {"y": 1, "z": [1, 2]}, "w": "a"});
        let mut b = a.clone();
        assert_eq!(first_difference("c", &a, &b), None);
        b["x"]["z"] = serde_json::json!([1, 3]);
        assert_eq!(
            first_difference("c", &a, &b),
            Some(("c.x.z".into(), "[1,2]".into(), "[1,3]".into()))
        );
        b = a.clone();
        b["x"].as_object_mut().unwrap().remove("y");
        assert_eq!(
            first_difference("c", &a, &b).unwrap().0,
            "c.x.y".to_string()
        );
    }

    #[test]
    fn order_seeds_differ_per_run() {
        assert_ne!(order_seed(1, 1), order_seed(1, 2));
        assert_eq!(order_seed(1, 1), order_seed(1, 1));
    }
}

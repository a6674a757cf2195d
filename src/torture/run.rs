//! Running hostile cases: subjects, child processes, classification and
//! the report.
//!
//! Subjects are every registry profile (ours; any failure fails the run) and
//! the upstream libraries of [`LIBRARIES`] as users call them (findings,
//! reported but never failing the run).
//!
//! Isolation. Length and nesting bombs run one per child process (this
//! binary re-executed as the hidden `binostr torture child`), under an
//! `RLIMIT_AS` address-space limit and a wall-clock timeout; the parent
//! samples the child's `VmHWM` from `/proc/<pid>/status` while it waits and
//! the child reports its own at the end. Everything else runs in-process
//! inside batch children under `catch_unwind`, reporting counts every few
//! thousand cases; if a batch child dies or stalls, the window since its
//! last report is replayed one case per report to find the culprit, which
//! is recorded (abort, signal, OOM, timeout) before the batch resumes after
//! it. So no outcome can take the runner down.
//!
//! Outcomes: `clean-error`; `accepted` (ours: the decoded event re-encodes
//! with the same profile and decodes back to the same event, a round trip;
//! not BIP-340 validation, which mutated ids would fail by design;
//! libraries: the value decoded); `accepted-lossy` (decoded, but no round
//! trip); `accepted-noncanonical` (a deterministic profile whose
//! re-encoding differs from the input bytes); `panic-contained` (an error returned after a panic was caught
//! inside the decoder, as the flexbuffers profile does); and the failures
//! `panic`, `stack-overflow`, `signal`, `timeout`, `oom`. For our profiles
//! a `bad-utf8` case that is accepted in any way (`accepted`,
//! `accepted-noncanonical`, `accepted-lossy`) is a failure too: the input
//! holds invalid UTF-8, so decoding it means a string was changed or not
//! checked ([`Outcome::fails_ours`]).
//!
//! Memory bound: an isolated case fails the bound when its peak RSS exceeds
//! 64 MiB + 4 × its input size; that counts as a failure for our profiles.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::Mutex;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::{Case, Class, Recipe};
use crate::codec::{Limits, Profile};

/// How one case ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// The decoder returned an error.
    CleanError,
    /// Decoded and round-tripped (ours) or decoded (libraries).
    Accepted,
    /// Decoded by a deterministic profile, but re-encoding the event gives
    /// other bytes than the input (a non-canonical input was accepted, or
    /// the decoder changed the event silently: read the finding).
    #[serde(rename = "accepted-noncanonical")]
    AcceptedNonCanonical,
    /// Decoded to an event that does not re-encode to the same event.
    AcceptedLossy,
    /// Returned an error after a panic was caught inside the decoder.
    PanicContained,
    /// A panic escaped the decoder.
    Panic,
    /// The process overflowed its stack.
    StackOverflow,
    /// The process died from a signal or aborted.
    Signal,
    /// Killed after the timeout.
    Timeout,
    /// An allocation failed under the address-space limit.
    Oom,
}

impl Outcome {
    /// Every outcome, in report order.
    pub const ALL: [Outcome; 10] = [
        Outcome::CleanError,
        Outcome::Accepted,
        Outcome::AcceptedNonCanonical,
        Outcome::AcceptedLossy,
        Outcome::PanicContained,
        Outcome::Panic,
        Outcome::StackOverflow,
        Outcome::Signal,
        Outcome::Timeout,
        Outcome::Oom,
    ];

    /// A failure under the suite's rule.
    pub fn is_failure(self) -> bool {
        matches!(
            self,
            Outcome::Panic
                | Outcome::StackOverflow
                | Outcome::Signal
                | Outcome::Timeout
                | Outcome::Oom
        )
    }

    /// A failure of one of our profiles in a case of `class`: a failing
    /// outcome, or a `bad-utf8` case decoded at all (invalid UTF-8 accepted,
    /// which can only mean a silent change or a lenient string check).
    pub fn fails_ours(self, class: Class) -> bool {
        self.is_failure()
            || (class == Class::BadUtf8
                && matches!(
                    self,
                    Outcome::Accepted | Outcome::AcceptedNonCanonical | Outcome::AcceptedLossy
                ))
    }

    /// The kebab-case name.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::CleanError => "clean-error",
            Outcome::Accepted => "accepted",
            Outcome::AcceptedNonCanonical => "accepted-noncanonical",
            Outcome::AcceptedLossy => "accepted-lossy",
            Outcome::PanicContained => "panic-contained",
            Outcome::Panic => "panic",
            Outcome::StackOverflow => "stack-overflow",
            Outcome::Signal => "signal",
            Outcome::Timeout => "timeout",
            Outcome::Oom => "oom",
        }
    }
}

/// An upstream library decoding the cases of one registry profile.
pub struct Library {
    /// Report id.
    pub id: &'static str,
    /// The profile whose cases it decodes.
    pub cases_of: &'static str,
    /// Decodes as a user would; `Err` is a clean error.
    pub decode: fn(&[u8]) -> Result<(), String>,
}

fn notepack_decode(b: &[u8]) -> Result<(), String> {
    let note = notepack::NoteParser::new(b)
        .into_note()
        .map_err(|e| e.to_string())?;
    let mut tags = note.tags;
    while let Some(tag) = tags.next_tag().map_err(|e| e.to_string())? {
        for elem in tag {
            elem.map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// The library subjects (reported as findings, never failing the run).
pub static LIBRARIES: &[Library] = &[
    Library {
        id: "lib:serde_json::Value",
        cases_of: "json",
        decode: |b| {
            serde_json::from_slice::<serde_json::Value>(b)
                .map(drop)
                .map_err(|e| e.to_string())
        },
    },
    Library {
        id: "lib:ciborium::Value",
        cases_of: "cbor-packed",
        decode: |b| {
            ciborium::de::from_reader::<ciborium::Value, _>(b)
                .map(drop)
                .map_err(|e| e.to_string())
        },
    },
    Library {
        id: "lib:rmpv::Value",
        cases_of: "msgpack",
        decode: |mut b| {
            rmpv::decode::read_value(&mut b)
                .map(drop)
                .map_err(|e| e.to_string())
        },
    },
    Library {
        id: "lib:notepack-0.3",
        cases_of: "notepack",
        decode: notepack_decode,
    },
];

/// Something decoded by the suite.
#[derive(Clone, Copy)]
pub enum Subject {
    /// One of our profiles.
    Profile(&'static Profile),
    /// An upstream library over a profile's cases.
    Library(&'static Library, &'static Profile),
}

impl Subject {
    /// Report id.
    pub fn id(&self) -> &'static str {
        match self {
            Subject::Profile(p) => p.id,
            Subject::Library(l, _) => l.id,
        }
    }

    /// Whether it is ours (its failures fail the run).
    pub fn ours(&self) -> bool {
        matches!(self, Subject::Profile(_))
    }

    /// The profile whose cases it decodes.
    pub fn cases_of(&self) -> &'static Profile {
        match self {
            Subject::Profile(p) | Subject::Library(_, p) => p,
        }
    }

    /// Decodes `bytes` once and classifies what happened in-process.
    pub fn verdict(&self, bytes: &[u8], limits: &Limits) -> (Outcome, Option<String>) {
        contain(|| match self {
            Subject::Profile(p) => match p.codec.decode(bytes, limits) {
                Err(e) => (Outcome::CleanError, Some(e.to_string())),
                Ok(event) => {
                    let mut again = Vec::new();
                    let ok = p.codec.encode(&event, &mut again).is_ok()
                        && p.codec.decode(&again, &Limits::default()).as_ref() == Ok(&event);
                    if !ok {
                        (Outcome::AcceptedLossy, Some("no round trip".into()))
                    } else if p.capabilities.deterministic && again != bytes {
                        let mut json = Vec::new();
                        event.write_json(&mut json);
                        json.truncate(400);
                        let detail = format!(
                            "re-encodes to other bytes; decoded as {}",
                            String::from_utf8_lossy(&json)
                        );
                        (Outcome::AcceptedNonCanonical, Some(detail))
                    } else {
                        (Outcome::Accepted, None)
                    }
                }
            },
            Subject::Library(l, _) => match (l.decode)(bytes) {
                Err(e) => (Outcome::CleanError, Some(e)),
                Ok(()) => (Outcome::Accepted, None),
            },
        })
    }
}

/// Runs one decode under `catch_unwind`: an escaping panic is
/// [`Outcome::Panic`], a clean error after a panic caught inside the decoder
/// is [`Outcome::PanicContained`] (counted by the hook of
/// [`install_panic_counter`]).
fn contain(f: impl FnOnce() -> (Outcome, Option<String>)) -> (Outcome, Option<String>) {
    PANICS.with(|c| c.set(0));
    let result = catch_unwind(AssertUnwindSafe(f));
    let last = LAST_PANIC.with(|l| l.borrow_mut().take());
    match result {
        Err(_) => (Outcome::Panic, last),
        Ok((Outcome::CleanError, _)) if PANICS.with(Cell::get) > 0 => {
            (Outcome::PanicContained, last)
        }
        Ok(v) => v,
    }
}

thread_local! {
    static PANICS: Cell<u64> = const { Cell::new(0) };
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Counts panics (and keeps the last message) instead of printing them, so
/// contained panics are visible and a million of them stay quiet.
fn install_panic_counter() {
    std::panic::set_hook(Box::new(|info| {
        PANICS.with(|c| c.set(c.get() + 1));
        LAST_PANIC.with(|l| *l.borrow_mut() = Some(info.to_string()));
    }));
}

/// Every subject: the registry, then the libraries whose profile is in it.
pub fn subjects() -> Vec<Subject> {
    let mut out: Vec<Subject> = crate::profiles::PROFILES
        .iter()
        .map(Subject::Profile)
        .collect();
    out.extend(
        LIBRARIES
            .iter()
            .filter_map(|l| crate::profiles::find(l.cases_of).map(|p| Subject::Library(l, p))),
    );
    out
}

/// The subject with this id.
pub fn subject(id: &str) -> Option<Subject> {
    subjects().into_iter().find(|s| s.id() == id)
}

/// Limits for isolated cases: the event-size limit is lifted to 64 MiB so
/// that bombs reach the decoder's structure checks instead of stopping at
/// the size check; everything else is the default.
pub fn bomb_limits() -> Limits {
    Limits {
        max_event_bytes: 64 << 20,
        ..Limits::default()
    }
}

/// The in-process cases of a subject: concrete non-isolated cases, then
/// `mutations` generated ones.
struct Batch {
    cases: Vec<Case>,
    bases: Vec<Vec<u8>>,
    seed: u64,
    mutations: u64,
}

impl Batch {
    fn load(dir: &Path, s: &Subject) -> io::Result<Batch> {
        let m = super::read_manifest(dir)?;
        let p = s.cases_of();
        let cases: Vec<Case> = super::read_cases(dir, p.id)?
            .into_iter()
            .filter(|c| !c.class.isolated())
            .collect();
        let written = m.profiles.iter().any(|id| id == p.id);
        Ok(Batch {
            cases,
            bases: super::bases(p),
            seed: m.seed,
            mutations: if written { m.mutations } else { 0 },
        })
    }

    fn len(&self) -> u64 {
        self.cases.len() as u64 + self.mutations
    }

    fn get(&self, s: &Subject, i: u64) -> (Class, String, Vec<u8>) {
        match self.cases.get(i as usize) {
            Some(c) => (c.class, c.name.clone(), c.bytes.clone()),
            None => {
                let m = i - self.cases.len() as u64;
                let id = s.cases_of().id;
                (
                    Class::Mutation,
                    format!("mutation-{m}"),
                    super::mutation(&self.bases, id, self.seed, m),
                )
            }
        }
    }
}

/// One finding kept for the report.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Finding {
    /// Case class.
    pub class: Class,
    /// Case name.
    pub case: String,
    /// Outcome.
    pub outcome: Outcome,
    /// Error, panic message or exit details.
    pub detail: String,
    /// The input, hex (first 64 bytes).
    pub input_hex: String,
}

/// A batch child's report line.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Report {
    done: u64,
    counts: Vec<(Class, Outcome, u64)>,
    findings: Vec<Finding>,
    mutation_nanos: u64,
}

/// What an isolated child prints.
#[derive(Debug, Serialize, Deserialize)]
struct Isolated {
    outcome: Outcome,
    detail: Option<String>,
    input_bytes: u64,
    vmhwm_kib: u64,
}

fn vmhwm_kib(pid: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn hex_prefix(b: &[u8]) -> String {
    crate::model::hex::encode(&b[..b.len().min(64)])
}

/// The hidden child: runs in-process cases `from..to` of a subject, or one
/// isolated case (`index` into the isolated concrete cases, then recipes).
pub fn child(
    dir: &Path,
    id: &str,
    isolated: Option<usize>,
    range: (u64, u64),
    every: u64,
    mem_limit_mib: u64,
) -> io::Result<()> {
    let limit = mem_limit_mib << 20;
    rlimit::setrlimit(rlimit::Resource::AS, limit, limit)?;
    install_panic_counter();
    let s = subject(id).ok_or_else(|| io::Error::other(format!("unknown subject {id}")))?;
    let out = io::stdout();
    let mut out = out.lock();
    if let Some(index) = isolated {
        let (bytes, limits) = isolated_input(dir, &s, index)?;
        let (outcome, detail) = s.verdict(&bytes, &limits);
        let line = Isolated {
            outcome,
            detail,
            input_bytes: bytes.len() as u64,
            vmhwm_kib: vmhwm_kib("self").unwrap_or(0),
        };
        writeln!(out, "{}", serde_json::to_string(&line)?)?;
        return out.flush();
    }
    let batch = Batch::load(dir, &s)?;
    let limits = Limits::default();
    let mut report = Report::default();
    let mut counts: BTreeMap<(Class, Outcome), u64> = BTreeMap::new();
    let (from, to) = (range.0, range.1.min(batch.len()));
    for i in from..to {
        let (class, name, bytes) = batch.get(&s, i);
        let t = Instant::now();
        let (outcome, detail) = s.verdict(&bytes, &limits);
        if class == Class::Mutation {
            report.mutation_nanos += t.elapsed().as_nanos() as u64;
        }
        *counts.entry((class, outcome)).or_default() += 1;
        let kept = report.findings.iter().filter(|f| f.class == class).count();
        if outcome != Outcome::CleanError && outcome != Outcome::Accepted && kept < 4 {
            report.findings.push(Finding {
                class,
                case: name,
                outcome,
                detail: detail.unwrap_or_default(),
                input_hex: hex_prefix(&bytes),
            });
        }
        if (i + 1 - from) % every == 0 || i + 1 == to {
            report.done = i + 1;
            report.counts = std::mem::take(&mut counts)
                .into_iter()
                .map(|((c, o), n)| (c, o, n))
                .collect();
            writeln!(out, "{}", serde_json::to_string(&report)?)?;
            out.flush()?;
            report = Report::default();
        }
    }
    Ok(())
}

/// Isolated inputs of a subject: the isolated concrete cases, then the
/// recipe bombs expanded here.
fn isolated_cases(dir: &Path, s: &Subject) -> io::Result<(Vec<Case>, Vec<Recipe>)> {
    let p = s.cases_of();
    let cases = super::read_cases(dir, p.id)?
        .into_iter()
        .filter(|c| c.class.isolated())
        .collect();
    Ok((cases, super::read_recipes(dir, p.id)?))
}

fn isolated_input(dir: &Path, s: &Subject, index: usize) -> io::Result<(Vec<u8>, Limits)> {
    let (cases, recipes) = isolated_cases(dir, s)?;
    let written = cases.len();
    if let Some(c) = cases.into_iter().nth(index) {
        return Ok((c.bytes, bomb_limits()));
    }
    let r = recipes
        .get(index - written)
        .ok_or_else(|| io::Error::other("no such isolated case"))?;
    let bytes =
        super::expand(s.cases_of(), r).ok_or_else(|| io::Error::other("no bomb builder"))?;
    Ok((bytes, bomb_limits()))
}

/// Options of `torture run`.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Case directory.
    pub dir: PathBuf,
    /// Kill a child after this long without progress.
    pub timeout: Duration,
    /// `RLIMIT_AS` of each child, MiB.
    pub mem_limit_mib: u64,
    /// Parallel children.
    pub jobs: usize,
    /// Only these subjects (all when empty).
    pub only: Vec<String>,
    /// Draw a progress bar.
    pub progress: bool,
}

/// Counts for one subject and class.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ClassCounts {
    /// Cases per outcome.
    pub outcomes: BTreeMap<Outcome, u64>,
    /// Largest peak RSS of an isolated case, KiB.
    pub peak_rss_kib: u64,
    /// Isolated cases over 64 MiB + 4 × input size.
    pub over_memory_bound: u64,
    /// The first findings (anything but clean errors and accepted round trips).
    pub findings: Vec<Finding>,
}

/// One subject's row group.
#[derive(Clone, Debug, Serialize)]
pub struct SubjectResult {
    /// Subject id.
    pub subject: String,
    /// Ours (failures fail the run) or an upstream library.
    pub ours: bool,
    /// The profile whose cases it ran.
    pub cases_of: String,
    /// Per class.
    pub classes: BTreeMap<Class, ClassCounts>,
    /// Mutation cases run.
    pub mutations: u64,
    /// Seconds spent decoding them (one core).
    pub mutation_seconds: f64,
}

/// The whole report.
#[derive(Clone, Debug, Serialize)]
pub struct RunReport {
    /// The case directory's manifest.
    pub manifest: super::CaseManifest,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Child timeout, seconds.
    pub timeout_seconds: u64,
    /// Child address-space limit, MiB.
    pub mem_limit_mib: u64,
    /// Failures of our profiles (failing outcomes, invalid UTF-8 accepted,
    /// memory-bound violations).
    pub failures: u64,
    /// Where they are.
    pub failing: Vec<Failing>,
    /// Findings in libraries (failing outcomes).
    pub library_failures: u64,
    /// Per subject.
    pub subjects: Vec<SubjectResult>,
}

/// Failing cases of our profiles in one subject, class and outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Failing {
    /// Subject id.
    pub subject: String,
    /// Case class.
    pub class: Class,
    /// The outcome, or `over-memory-bound`.
    pub outcome: String,
    /// Cases.
    pub cases: u64,
}

/// Every failing (subject, class, outcome) of our profiles under
/// [`Outcome::fails_ours`], plus isolated cases over the memory bound.
fn failing_cells(subjects: &[SubjectResult]) -> Vec<Failing> {
    let mut out = Vec::new();
    for s in subjects.iter().filter(|s| s.ours) {
        for (&class, c) in &s.classes {
            let cell = |outcome: &str, cases| Failing {
                subject: s.subject.clone(),
                class,
                outcome: outcome.to_string(),
                cases,
            };
            for (o, &n) in &c.outcomes {
                if n > 0 && o.fails_ours(class) {
                    out.push(cell(o.name(), n));
                }
            }
            if c.over_memory_bound > 0 {
                out.push(cell("over-memory-bound", c.over_memory_bound));
            }
        }
    }
    out
}

enum Job {
    Batch(usize, u64, u64),
    Isolated(usize, usize, Class, String),
}

const BATCH_CHUNK: u64 = 200_000;
const REPORT_EVERY: u64 = 4096;

/// Runs every case against every subject.
pub fn run(opts: &RunOptions) -> io::Result<RunReport> {
    let started = Instant::now();
    let manifest = super::read_manifest(&opts.dir)?;
    let subjects: Vec<Subject> = subjects()
        .into_iter()
        .filter(|s| opts.only.is_empty() || opts.only.iter().any(|o| o == s.id()))
        .collect();
    let mut jobs = Vec::new();
    let mut total = 0u64;
    for (si, s) in subjects.iter().enumerate() {
        let batch = Batch::load(&opts.dir, s)?;
        let n = batch.len();
        total += n;
        let mut from = 0;
        while from < n {
            jobs.push(Job::Batch(si, from, (from + BATCH_CHUNK).min(n)));
            from += BATCH_CHUNK;
        }
        let (cases, recipes) = isolated_cases(&opts.dir, s)?;
        let names: Vec<(Class, String)> = cases
            .iter()
            .map(|c| (c.class, c.name.clone()))
            .chain(recipes.iter().map(|r| (Class::NestingBomb, r.name())))
            .collect();
        total += names.len() as u64;
        for (i, (class, name)) in names.into_iter().enumerate() {
            jobs.push(Job::Isolated(si, i, class, name));
        }
    }
    let bar = if opts.progress {
        indicatif::ProgressBar::new(total)
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {human_pos}/{human_len} cases ({per_sec}, eta {eta})",
        )
        .map_err(io::Error::other)?,
    );
    let results: Vec<Mutex<SubjectResult>> = subjects
        .iter()
        .map(|s| {
            Mutex::new(SubjectResult {
                subject: s.id().to_string(),
                ours: s.ours(),
                cases_of: s.cases_of().id.to_string(),
                classes: BTreeMap::new(),
                mutations: 0,
                mutation_seconds: 0.0,
            })
        })
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.jobs.max(1))
        .build()
        .map_err(io::Error::other)?;
    let errors: Mutex<Vec<io::Error>> = Mutex::new(Vec::new());
    pool.scope(|scope| {
        for job in &jobs {
            let (subjects, results, bar, errors) = (&subjects, &results, &bar, &errors);
            scope.spawn(move |_| {
                let r = match *job {
                    Job::Batch(si, from, to) => {
                        run_batch(opts, &subjects[si], from, to, &results[si], bar)
                    }
                    Job::Isolated(si, i, class, ref name) => {
                        run_isolated(opts, &subjects[si], i, class, name, &results[si])
                            .map(|()| bar.inc(1))
                    }
                };
                if let Err(e) = r {
                    errors.lock().expect("errors").push(e);
                }
            });
        }
    });
    bar.finish_and_clear();
    if let Some(e) = errors.into_inner().expect("errors").into_iter().next() {
        return Err(e);
    }
    let subjects: Vec<SubjectResult> = results
        .into_iter()
        .map(|m| m.into_inner().expect("results"))
        .collect();
    let failing = failing_cells(&subjects);
    let library_failures = subjects
        .iter()
        .filter(|s| !s.ours)
        .flat_map(|s| s.classes.values())
        .map(|c| {
            c.outcomes
                .iter()
                .filter(|(o, _)| o.is_failure())
                .map(|(_, n)| n)
                .sum::<u64>()
                + c.over_memory_bound
        })
        .sum();
    Ok(RunReport {
        manifest,
        seconds: started.elapsed().as_secs_f64(),
        timeout_seconds: opts.timeout.as_secs(),
        mem_limit_mib: opts.mem_limit_mib,
        failures: failing.iter().map(|f| f.cases).sum(),
        failing,
        library_failures,
        subjects,
    })
}

fn child_command(opts: &RunOptions, s: &Subject) -> io::Result<Command> {
    let mut c = Command::new(std::env::current_exe()?);
    c.args(["torture", "child", "--subject", s.id(), "--mem-limit-mib"])
        .arg(opts.mem_limit_mib.to_string())
        .arg(&opts.dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    Ok(c)
}

fn classify_exit(status: ExitStatus, stderr: &str) -> Outcome {
    if stderr.contains("has overflowed its stack") {
        Outcome::StackOverflow
    } else if stderr.contains("memory allocation of") || stderr.contains("out of memory") {
        Outcome::Oom
    } else if status.code() == Some(101) {
        Outcome::Panic
    } else {
        Outcome::Signal
    }
}

fn record(cell: &mut ClassCounts, outcome: Outcome, n: u64, finding: Option<Finding>) {
    *cell.outcomes.entry(outcome).or_default() += n;
    if let Some(f) = finding
        && cell.findings.len() < 8
    {
        cell.findings.push(f);
    }
}

fn spawn_reader<R: Read + Send + 'static>(r: R) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(r).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

fn collect_stderr<R: Read + Send + 'static>(mut r: R) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut s = String::new();
        let _ = r.read_to_string(&mut s);
        s
    })
}

/// Runs in-process cases `from..to`, replaying windows case by case after a
/// crash or a stall.
fn run_batch(
    opts: &RunOptions,
    s: &Subject,
    from: u64,
    to: u64,
    result: &Mutex<SubjectResult>,
    bar: &indicatif::ProgressBar,
) -> io::Result<()> {
    let mut next = from;
    let mut every = REPORT_EVERY;
    while next < to {
        let mut cmd = child_command(opts, s)?;
        cmd.args(["--from", &next.to_string(), "--to", &to.to_string()])
            .args(["--every", &every.to_string()]);
        let mut child = cmd.spawn()?;
        let lines = spawn_reader(child.stdout.take().expect("piped"));
        let stderr = collect_stderr(child.stderr.take().expect("piped"));
        let mut timed_out = false;
        loop {
            match lines.recv_timeout(opts.timeout) {
                Ok(line) => {
                    let r: Report = serde_json::from_str(&line).map_err(io::Error::other)?;
                    let mut res = result.lock().expect("result");
                    let mut mutations = 0;
                    for (class, outcome, n) in r.counts {
                        if class == Class::Mutation {
                            mutations += n;
                        }
                        record(res.classes.entry(class).or_default(), outcome, n, None);
                    }
                    for f in r.findings {
                        let cell = res.classes.entry(f.class).or_default();
                        if cell.findings.len() < 8 {
                            cell.findings.push(f);
                        }
                    }
                    res.mutations += mutations;
                    res.mutation_seconds += r.mutation_nanos as f64 / 1e9;
                    bar.inc(r.done - next);
                    next = r.done;
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    timed_out = true;
                    let _ = child.kill();
                    break;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        let status = child.wait()?;
        let stderr = stderr.join().unwrap_or_default();
        if next >= to {
            break;
        }
        if every > 1 {
            // Replay from the last report one case at a time to find the culprit.
            every = 1;
            continue;
        }
        // `next` is the case that killed or stalled the child.
        let outcome = if timed_out {
            Outcome::Timeout
        } else {
            classify_exit(status, &stderr)
        };
        let batch = Batch::load(&opts.dir, s)?;
        let (class, name, bytes) = batch.get(s, next);
        let mut res = result.lock().expect("result");
        if class == Class::Mutation {
            res.mutations += 1;
        }
        record(
            res.classes.entry(class).or_default(),
            outcome,
            1,
            Some(Finding {
                class,
                case: name,
                outcome,
                detail: format!("{status}: {}", last_line(&stderr)),
                input_hex: hex_prefix(&bytes),
            }),
        );
        drop(res);
        bar.inc(1);
        next += 1;
        every = REPORT_EVERY;
    }
    Ok(())
}

fn last_line(s: &str) -> String {
    s.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .chars()
        .take(200)
        .collect()
}

/// Runs one isolated case in its own child, sampling its peak RSS.
fn run_isolated(
    opts: &RunOptions,
    s: &Subject,
    index: usize,
    class: Class,
    name: &str,
    result: &Mutex<SubjectResult>,
) -> io::Result<()> {
    let mut cmd = child_command(opts, s)?;
    cmd.args(["--isolated", &index.to_string()]);
    let mut child = cmd.spawn()?;
    let pid = child.id().to_string();
    let lines = spawn_reader(child.stdout.take().expect("piped"));
    let stderr = collect_stderr(child.stderr.take().expect("piped"));
    let started = Instant::now();
    let mut peak = 0;
    let mut timed_out = false;
    let status = loop {
        if let Some(kib) = vmhwm_kib(&pid) {
            peak = peak.max(kib);
        }
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if started.elapsed() > opts.timeout {
            timed_out = true;
            let _ = child.kill();
            break child.wait()?;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let stderr = stderr.join().unwrap_or_default();
    let reported: Option<Isolated> = lines
        .recv_timeout(Duration::from_secs(1))
        .ok()
        .and_then(|l| serde_json::from_str(&l).ok());
    let (outcome, detail, input_bytes) = match (&reported, timed_out) {
        (_, true) => (
            Outcome::Timeout,
            format!("killed after {:?}", opts.timeout),
            0,
        ),
        (Some(r), false) => {
            peak = peak.max(r.vmhwm_kib);
            (
                r.outcome,
                r.detail.clone().unwrap_or_default(),
                r.input_bytes,
            )
        }
        (None, false) => (
            classify_exit(status, &stderr),
            format!("{status}: {}", last_line(&stderr)),
            0,
        ),
    };
    let mut res = result.lock().expect("result");
    let cell = res.classes.entry(class).or_default();
    cell.peak_rss_kib = cell.peak_rss_kib.max(peak);
    let bound_kib = 64 * 1024 + 4 * input_bytes / 1024;
    if reported.is_some() && peak > bound_kib {
        cell.over_memory_bound += 1;
    }
    let notable = !matches!(outcome, Outcome::CleanError | Outcome::Accepted);
    record(
        cell,
        outcome,
        1,
        notable.then(|| Finding {
            class,
            case: name.to_string(),
            outcome,
            detail: detail.chars().take(300).collect(),
            input_hex: String::new(),
        }),
    );
    Ok(())
}

/// The Markdown report.
pub fn render_markdown(r: &RunReport) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(s, "# Robustness\n");
    let _ = writeln!(
        s,
        "Seed {}, {} mutations per profile, nesting bombs {} deep; child timeout {} s, RLIMIT_AS {} MiB; {:.0} s wall clock.\n",
        r.manifest.seed,
        r.manifest.mutations,
        r.manifest.bomb_depth,
        r.timeout_seconds,
        r.mem_limit_mib,
        r.seconds
    );
    let _ = writeln!(
        s,
        "Failures of our profiles: **{}**. Failing outcomes in upstream libraries (findings, not run failures): **{}**.\n",
        r.failures, r.library_failures
    );
    for f in &r.failing {
        let _ = writeln!(
            s,
            "- FAILURE: `{}` {}: {} {}",
            f.subject,
            f.class.name(),
            f.cases,
            f.outcome
        );
    }
    if !r.failing.is_empty() {
        let _ = writeln!(s);
    }
    let _ = writeln!(
        s,
        "Outcomes: `clean-error` passes; `accepted` = our decoder's event re-encodes with the same profile and decodes back to itself (libraries: a value decoded); `accepted-noncanonical` = a deterministic profile accepted bytes it would not itself produce (a lenient decoder, or a silent change: see the findings); `accepted-lossy` = no round trip; `panic-contained` = an error returned after a panic was caught inside the decoder (the flexbuffers profile wraps its upstream reader; a panic=abort build would abort). Failures: `panic`, `stack-overflow`, `signal`, `timeout`, `oom`, any `accepted*` outcome of a `bad-utf8` case on our profiles (invalid UTF-8 accepted), and isolated cases over the memory bound (peak RSS > 64 MiB + 4 × input). Length and nesting bombs run one per child process (peak RSS shown); the other classes run in-process under `catch_unwind` in crash-tolerant batch children.\n"
    );
    let _ = write!(s, "| subject | class | cases |");
    for o in Outcome::ALL {
        let _ = write!(s, " {} |", o.name());
    }
    let _ = writeln!(s, " peak RSS MiB | over bound |");
    let _ = write!(s, "|---|---|---:|");
    for _ in Outcome::ALL {
        let _ = write!(s, "---:|");
    }
    let _ = writeln!(s, "---:|---:|");
    for sub in &r.subjects {
        for (class, cell) in &sub.classes {
            let n: u64 = cell.outcomes.values().sum();
            let _ = write!(s, "| {} | {} | {n} |", sub.subject, class.name());
            for o in Outcome::ALL {
                let v = cell.outcomes.get(&o).copied().unwrap_or(0);
                if v == 0 {
                    let _ = write!(s, " |");
                } else {
                    let _ = write!(s, " {v} |");
                }
            }
            let rss = if cell.peak_rss_kib > 0 {
                format!("{:.1}", cell.peak_rss_kib as f64 / 1024.0)
            } else {
                String::new()
            };
            let _ = writeln!(s, " {rss} | {} |", cell.over_memory_bound);
        }
    }
    let _ = writeln!(s, "\n## Mutation throughput (in-process, one core)\n");
    let _ = writeln!(
        s,
        "| subject | mutations | seconds | per second |\n|---|---:|---:|---:|"
    );
    for sub in r.subjects.iter().filter(|x| x.mutations > 0) {
        let _ = writeln!(
            s,
            "| {} | {} | {:.1} | {:.0} |",
            sub.subject,
            sub.mutations,
            sub.mutation_seconds,
            sub.mutations as f64 / sub.mutation_seconds.max(1e-9)
        );
    }
    let _ = writeln!(s, "\n## Findings (first few per subject and class)\n");
    for sub in &r.subjects {
        for (class, cell) in &sub.classes {
            for f in &cell.findings {
                let _ = writeln!(
                    s,
                    "- `{}` {} `{}`: **{}** — {}{}",
                    sub.subject,
                    class.name(),
                    f.case,
                    f.outcome.name(),
                    f.detail
                        .replace('\n', " ")
                        .chars()
                        .take(160)
                        .collect::<String>(),
                    if f.input_hex.is_empty() {
                        String::new()
                    } else {
                        format!(" (input `{}`)", f.input_hex)
                    }
                );
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_names_match_their_serde_names() {
        for o in Outcome::ALL {
            assert_eq!(serde_json::to_value(o).unwrap(), o.name());
        }
    }

    #[test]
    fn accepting_invalid_utf8_fails_the_run() {
        let mut classes = BTreeMap::new();
        let cell = |o: Outcome, n| ClassCounts {
            outcomes: [(Outcome::CleanError, 5), (o, n)].into_iter().collect(),
            ..ClassCounts::default()
        };
        classes.insert(Class::BadUtf8, cell(Outcome::AcceptedNonCanonical, 5));
        classes.insert(Class::Mutation, cell(Outcome::AcceptedNonCanonical, 9));
        classes.insert(Class::Fields, cell(Outcome::Accepted, 1));
        let ours = SubjectResult {
            subject: "msgpack".into(),
            ours: true,
            cases_of: "msgpack".into(),
            classes,
            mutations: 0,
            mutation_seconds: 0.0,
        };
        let lib = SubjectResult {
            subject: "lib:rmpv::Value".into(),
            ours: false,
            ..ours.clone()
        };
        assert_eq!(
            failing_cells(&[ours, lib]),
            vec![Failing {
                subject: "msgpack".into(),
                class: Class::BadUtf8,
                outcome: "accepted-noncanonical".into(),
                cases: 5,
            }]
        );
        for o in [Outcome::Accepted, Outcome::AcceptedLossy] {
            assert!(o.fails_ours(Class::BadUtf8));
            assert!(!o.fails_ours(Class::Mutation));
        }
        assert!(!Outcome::CleanError.fails_ours(Class::BadUtf8));
        assert!(Outcome::Panic.fails_ours(Class::Truncation));
    }

    #[test]
    fn verdicts_classify_each_outcome() {
        install_panic_counter();
        let limits = Limits::default();
        let json = subject("json").unwrap();
        let golden = super::super::golden(json.cases_of());
        assert_eq!(json.verdict(&golden, &limits).0, Outcome::Accepted);
        assert_eq!(json.verdict(b"", &limits).0, Outcome::CleanError);
        let spaced = [b" ", &golden[..]].concat();
        assert_eq!(
            json.verdict(&spaced, &limits).0,
            Outcome::AcceptedNonCanonical
        );
        // 00 6b 01 panicked inside the flexbuffers reader before the
        // profile's verifier; it is a clean error now.
        let flex = subject("flexbuffers").unwrap();
        assert_eq!(
            flex.verdict(&[0x00, 0x6b, 0x01], &limits).0,
            Outcome::CleanError
        );
        // A panic caught inside a decoder that then returns an error.
        let contained = contain(|| {
            let caught = catch_unwind(|| panic!("inside"));
            assert!(caught.is_err());
            (Outcome::CleanError, Some("caught".into()))
        });
        assert_eq!(contained.0, Outcome::PanicContained);
        // notepack 0.3.0 panics on a truncated id.
        let np = subject("lib:notepack-0.3").unwrap();
        assert_eq!(np.verdict(&[0x01, 0x00], &limits).0, Outcome::Panic);
        let _ = std::panic::take_hook();
    }
}

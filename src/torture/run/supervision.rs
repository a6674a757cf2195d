//! The supervisor of `torture run`: schedules batch and isolated children
//! over a thread pool, kills the stalled, replays a crashed window case by
//! case, and gathers their lines into the report.

use std::collections::BTreeMap;
use std::io::{self, BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::Mutex;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::child::{Batch, Isolated, Report, hex_prefix, isolated_cases, vmhwm_kib};
use super::report::failing_cells;
use super::subjects::{Subject, subjects};
use super::{ClassCounts, Finding, Outcome, RunReport, SubjectResult};
use crate::torture::Class;

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

enum Job {
    Batch(usize, u64, u64),
    Isolated(usize, usize, Class, String),
}

const BATCH_CHUNK: u64 = 200_000;
const REPORT_EVERY: u64 = 4096;

/// Runs every case against every subject.
pub fn run(opts: &RunOptions) -> io::Result<RunReport> {
    let started = Instant::now();
    let manifest = crate::torture::read_manifest(&opts.dir)?;
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
        .flat_map(|s| &s.classes)
        .map(|(&class, c)| c.failures(class, false))
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

//! One run of a campaign: its timing child, its side-measurement children
//! (sizes, latency, transport, allocations, peak RSS), its instruction counts
//! under callgrind, and the timing, sizes and transport children of each
//! profile measured apart (`run-K/apart-ID/`), each a fresh process.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use binostr_records::Stage;
use binostr_records::csv::{ALLOC, INSTRUCTIONS, RSS};
use rayon::prelude::*;

use super::child::{self, Measure, Reply, Task};
use super::instructions::{self, Valgrind};
use super::{Observed, Options, host, now_rfc3339, order_seed};
use crate::bench::probe::PROBED;
use crate::bench::workload::{BenchKey, Subset, Workload};
use crate::codec::Profile;
use crate::files::write_atomically;

use super::corpus::ApartCorpus;

pub(super) struct RunContext<'a> {
    pub(super) k: usize,
    pub(super) dir: &'a Path,
    pub(super) corpus_path: &'a Path,
    /// The enabled profiles that represent every event.
    pub(super) profiles: &'a [&'static Profile],
    /// The others, each with the events it represents.
    pub(super) apart: &'a [ApartCorpus],
    pub(super) opts: &'a Options,
    /// The campaign's `filters.json` (absolute).
    pub(super) filters: &'a Path,
    pub(super) keys: usize,
    pub(super) bar: &'a indicatif::ProgressBar,
    pub(super) alloc_probe: &'a Path,
    pub(super) instructions: Option<InstructionProbe<'a>>,
}

/// What the instruction probe of a run needs.
pub(super) struct InstructionProbe<'a> {
    pub(super) valgrind: &'a Valgrind,
    pub(super) keys: &'a [BenchKey],
    /// The events of subset `all`'s sequence, in order.
    pub(super) corpus: &'a Path,
    /// That sequence's id.
    pub(super) sequence: &'a str,
}

impl RunContext<'_> {
    pub(super) fn measure(&self, empty: &[Subset]) -> Result<Observed> {
        let tmp = self.dir.join(format!("run-{}.tmp", self.k));
        std::fs::create_dir_all(&tmp)?;
        let order_seed = order_seed(self.opts.seed, self.k);
        let started = now_rfc3339();
        let load_before = host::load_average();
        let mut stages = Vec::new();
        self.bar.set_message(format!("run-{} timing", self.k));
        let start = Instant::now();
        self.child(Measure::Timing { order_seed }, &tmp, true)?;
        stages.push(Stage::since("timing", start));
        for probe in [Measure::Sizes, Measure::Latency, Measure::Transport] {
            let name = probe.name();
            self.bar.set_message(format!("run-{} {name}", self.k));
            let start = Instant::now();
            self.child(probe, &tmp, false)?;
            stages.push(Stage::since(name, start));
            self.bar.inc(1);
        }
        // Each profile measured apart: its own events, paired with json on them.
        for a in self.apart {
            let out = tmp.join(format!("apart-{}", a.profile.id));
            std::fs::create_dir_all(&out)?;
            let pair = [super::baseline(), a.profile];
            let tasks = [
                (Measure::Timing { order_seed }, true),
                (Measure::Sizes, false),
                (Measure::Transport, false),
            ];
            for (measure, timing) in tasks {
                let name = format!("apart {} {}", a.profile.id, measure.name());
                self.bar.set_message(format!("run-{} {name}", self.k));
                let cmd = Command::new(std::env::current_exe()?);
                let task = self.task(&a.path, &pair, &a.filters, &out, measure);
                let start = Instant::now();
                self.run_child(cmd, &task, timing)?;
                stages.push(Stage::since(name, start));
                if !timing {
                    self.bar.inc(1);
                }
            }
        }
        self.bar.set_message(format!("run-{} allocations", self.k));
        let start = Instant::now();
        self.alloc_probe(&tmp)?;
        stages.push(Stage::since("allocations", start));
        self.bar.inc(1);
        self.bar.set_message(format!("run-{} peak RSS", self.k));
        let start = Instant::now();
        // Peak RSS needs a fresh process per pair; they run side by side
        // (a process's own peak is unaffected), one per core.
        let pairs: Vec<(&str, Workload)> = self
            .profiles
            .iter()
            .flat_map(|p| PROBED.map(|w| (p.id, w)))
            .collect();
        let rows = pairs
            .par_iter()
            .map(|(id, w)| {
                let rss = Measure::Rss {
                    profile: id.to_string(),
                    workload: w.name().to_string(),
                };
                let Reply::PeakRss {
                    baseline_kib,
                    peak_kib,
                } = self.child(rss, &tmp, false)?
                else {
                    unreachable!("Reply::parse checks the kind")
                };
                self.bar.inc(1);
                Ok(format!("{w},{id},{baseline_kib},{peak_kib}\n"))
            })
            .collect::<Result<Vec<String>>>()?;
        let rss = RSS.header_line() + &rows.concat();
        write_atomically(&tmp.join(RSS.file), &rss)?;
        stages.push(Stage::since("peak RSS", start));
        let instructions = match &self.instructions {
            Some(probe) => {
                self.bar.set_message(format!("run-{} instructions", self.k));
                let start = Instant::now();
                let rows = self.instruction_probe(probe, &tmp)?;
                write_atomically(&tmp.join(INSTRUCTIONS.file), instructions::csv(&rows))?;
                stages.push(Stage::since("instructions", start));
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
            stages,
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
                    let measure = Measure::Instructions {
                        profile: key.profile.to_string(),
                        workload: key.workload.name().to_string(),
                        threads: key.threads,
                        sequence: probe.sequence.to_string(),
                    };
                    // The child's argv and environment are the same in every
                    // run: its heap history, hence its count, depends on them.
                    let same_dir = probe.corpus.parent().unwrap_or(Path::new("."));
                    let task =
                        self.task(probe.corpus, self.profiles, self.filters, same_dir, measure);
                    let reply = self.run_child(cmd, &task, false)?;
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
                    let Reply::Counted { events, passes } = reply else {
                        unreachable!("Reply::parse checks the kind")
                    };
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

    /// Runs `measure` over the campaign's corpus, profiles and filters,
    /// writing into `out`; returns its reply. Progress lines on its
    /// standard error advance the bar.
    fn child(&self, measure: Measure, out: &Path, timing: bool) -> Result<Reply> {
        let cmd = Command::new(std::env::current_exe()?);
        let task = self.task(self.corpus_path, self.profiles, self.filters, out, measure);
        self.run_child(cmd, &task, timing)
    }

    /// The task of `measure` over `corpus`, measuring `profiles`, scanning
    /// `filters`, writing into `out`.
    fn task(
        &self,
        corpus: &Path,
        profiles: &[&'static Profile],
        filters: &Path,
        out: &Path,
        measure: Measure,
    ) -> Task {
        Task {
            corpus: corpus.to_path_buf(),
            profiles: ids(profiles),
            settings: self.opts.settings,
            seed: self.opts.seed,
            out: out.to_path_buf(),
            filters: filters.to_path_buf(),
            measure,
        }
    }

    /// Runs `binostr campaign-child` with `task` started by `cmd` (this
    /// executable, or a wrapper whose last argument is this executable).
    fn run_child(&self, mut cmd: Command, task: &Task, timing: bool) -> Result<Reply> {
        cmd.arg("campaign-child")
            .args(task.args())
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
                task.measure.args().join(" "),
                output.status,
                errors.trim()
            );
        }
        Reply::parse(&task.measure, &String::from_utf8_lossy(&output.stdout))
    }

    fn alloc_probe(&self, out: &Path) -> Result<()> {
        let exe = self.alloc_probe;
        let status = Command::new(exe)
            .arg("--corpus")
            .arg(self.corpus_path)
            .arg("--profiles")
            .arg(ids(self.profiles))
            .arg("--out")
            .arg(out.join(ALLOC.file))
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

/// `profiles` as the comma-separated ids a child's `--profiles` takes.
pub(super) fn ids(profiles: &[&'static Profile]) -> String {
    profiles.iter().map(|p| p.id).collect::<Vec<_>>().join(",")
}

/// The `binostr-alloc-probe` binary beside this one, built with cargo when
/// missing (it holds the counting allocator, which must never be in the
/// timing process).
pub(super) fn alloc_probe_exe() -> Result<PathBuf> {
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

//! The `binostr` command line (clap). Errors are one line on stderr and a
//! non-zero exit, never a panic.

use std::fs;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand, ValueEnum};

use crate::campaign::{self, CampaignProfile};
use crate::corpus::audit::{self, AuditOptions, AuditReport};
use crate::corpus::{calibrate, generate, select};
use crate::files::{write_atomically, write_jsonl_atomically};
use crate::model::{Event, hex};
use crate::validate::Limits;

/// Which binary encoding should Nostr use for NIP-01 events? Measure it.
#[derive(Debug, Parser)]
#[command(name = "binostr", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Measure every workload on every enabled profile as independent runs
    /// (fresh child processes, shuffled order) under
    /// results/campaigns/LABEL/run-K; resumes missing runs and refuses runs
    /// whose contract differs.
    Campaign {
        /// quick (minutes), publication (the paper's), smoke (seconds);
        /// default: $BINOSTR_CAMPAIGN_PROFILE, else quick.
        #[arg(
            long,
            value_enum,
            env = "BINOSTR_CAMPAIGN_PROFILE",
            default_value = "quick"
        )]
        profile: CampaignProfile,
        /// Label (default: local-PROFILE, which git ignores; committed
        /// campaigns carry their own labels).
        #[arg(long)]
        label: Option<String>,
        /// Events to measure (any shape `corpus audit` reads) instead of the
        /// generated default corpus.
        #[arg(long, value_name = "FILE", conflicts_with = "real")]
        corpus: Option<PathBuf>,
        /// Measure the recorded real corpus (provenance/, hash-checked, from
        /// $BINOSTR_CORPUS_DIR or ../shared/corpus).
        #[arg(long)]
        real: bool,
        /// Independent runs.
        #[arg(long, default_value_t = 3)]
        runs: usize,
        /// Seed of the generated corpus, its selection and the run orders.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Events to generate and select (default 10000 5000; smoke 300 100).
        #[arg(long, num_args = 2, value_names = ["GENERATE", "SELECT"])]
        generate: Option<Vec<usize>>,
        /// Directory holding the labels.
        #[arg(long, default_value = "results/campaigns")]
        root: PathBuf,
    },
    /// One process of a campaign run (started by `binostr campaign`).
    #[command(hide = true)]
    CampaignChild {
        #[command(subcommand)]
        task: ChildTask,
        /// Corpus JSONL.
        #[arg(long)]
        corpus: PathBuf,
        /// Campaign profile.
        #[arg(long, value_enum)]
        campaign_profile: CampaignProfile,
        /// Campaign seed.
        #[arg(long)]
        seed: u64,
        /// Run directory.
        #[arg(long)]
        out: PathBuf,
    },
    /// Import, audit, generate, calibrate and select event corpora.
    #[command(subcommand)]
    Corpus(CorpusCommand),
    /// List the wire profiles of the registry.
    Profiles {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Encode the valid events of IN (any shape `corpus audit` reads) with a
    /// profile, as a stream of 4-byte big-endian length + record.
    Encode {
        /// Profile id (see `binostr profiles`).
        #[arg(long, short)]
        profile: String,
        /// Output file (default: standard output).
        #[arg(short, long, value_name = "OUT")]
        output: Option<PathBuf>,
        /// Input events.
        #[arg(value_name = "IN")]
        input: PathBuf,
    },
    /// Encoded size per profile over the valid events of the inputs: bytes per
    /// event (mean, median, p99) overall and by kind, framed, and zstd over
    /// the framed stream, each as a share of JSON over the same events.
    Sizes {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Include disabled profiles.
        #[arg(long)]
        all: bool,
        /// Input events (any shape `corpus audit` reads).
        #[arg(value_name = "IN", required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Decode a length-framed stream of a profile to JSON Lines (compact,
    /// NIP-01 field order). Bad input: one line with the byte offset on
    /// stderr and exit status 65.
    Decode {
        /// Profile id (see `binostr profiles`).
        #[arg(long, short)]
        profile: String,
        /// Framed input (`-` for standard input).
        #[arg(value_name = "IN")]
        input: PathBuf,
    },
    /// The robustness suite: hostile inputs for every profile, run in child
    /// processes under memory and time limits.
    #[command(subcommand)]
    Torture(TortureCommand),
    /// The signed results manifest of a campaign: create it, verify it.
    #[command(subcommand)]
    Manifest(ManifestCommand),
    /// Write the interop vectors (signed events with their bytes under every
    /// enabled profile), or check a file against them.
    Vectors {
        /// Output file (default: standard output).
        #[arg(short, long, value_name = "FILE", conflicts_with = "check")]
        output: Option<PathBuf>,
        /// Exit non-zero, naming the first difference, when FILE differs
        /// from the generated vectors.
        #[arg(long, value_name = "FILE")]
        check: Option<PathBuf>,
    },
}

#[derive(Debug, Subcommand)]
enum ManifestCommand {
    /// Hash every file of results/campaigns/LABEL/ and paper/generated/ into
    /// LABEL/manifest.json (canonical JSON) and sign it as a NIP-94 event
    /// (LABEL/manifest.event.json).
    ///
    /// The key comes from $BINOSTR_SIGNING_KEY (64 hex or nsec) or from
    /// $XDG_CONFIG_HOME/binostr/signing-key (else ~/.config/binostr/signing-key),
    /// created with mode 0600 on first use.
    Create {
        /// Repository root.
        #[arg(long, value_name = "DIR", default_value = ".")]
        root: PathBuf,
        /// Campaign label.
        #[arg(value_name = "LABEL")]
        label: String,
    },
    /// Check a campaign's manifest offline: event id, BIP-340 signature, the
    /// pinned key, the binding to manifest.json, and every file (modified,
    /// missing, extra). Lists every failure; exits 1 on any.
    Verify {
        /// The only acceptable signer (64 hex or npub).
        #[arg(long, value_name = "HEX|NPUB")]
        pubkey: Option<String>,
        /// Repository root.
        #[arg(long, value_name = "DIR", default_value = ".")]
        root: PathBuf,
        /// Campaign label.
        #[arg(value_name = "LABEL")]
        label: String,
    },
}

#[derive(Debug, Subcommand)]
enum TortureCommand {
    /// Write deterministic hostile cases for every registry profile.
    Generate {
        /// Seed of the mutations.
        #[arg(long, default_value_t = crate::torture::SEED)]
        seed: u64,
        /// Mutations per profile (regenerated from the seed, not written).
        #[arg(long, default_value_t = crate::torture::MUTATIONS)]
        mutations: u64,
        /// Depth of the recipe nesting bombs.
        #[arg(long, default_value_t = crate::torture::BOMB_DEPTH)]
        bomb_depth: usize,
        /// Output directory.
        #[arg(value_name = "DIR")]
        dir: PathBuf,
    },
    /// Run every case against every profile and library; write
    /// OUT/robustness.{json,md}; exit 1 if any of our profiles fails.
    Run {
        /// Print the JSON report instead of the Markdown table.
        #[arg(long)]
        json: bool,
        /// Report directory.
        #[arg(long, default_value = "results/robustness")]
        out: PathBuf,
        /// Kill a child after this many seconds without progress.
        #[arg(long, default_value_t = 30)]
        timeout: u64,
        /// Address-space limit (RLIMIT_AS) of each child, MiB.
        #[arg(long, default_value_t = 2048)]
        mem_limit_mib: u64,
        /// Parallel children (default: the number of cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// Only this subject (repeatable; a profile id or `lib:...`).
        #[arg(long)]
        subject: Vec<String>,
        /// Case directory written by `torture generate`.
        #[arg(value_name = "DIR")]
        dir: PathBuf,
    },
    /// Internal: decode cases in a child process.
    #[command(hide = true)]
    Child {
        #[arg(long)]
        subject: String,
        #[arg(long)]
        isolated: Option<usize>,
        #[arg(long, default_value_t = 0)]
        from: u64,
        #[arg(long, default_value_t = u64::MAX)]
        to: u64,
        #[arg(long, default_value_t = 4096)]
        every: u64,
        #[arg(long, default_value_t = 2048)]
        mem_limit_mib: u64,
        #[arg(value_name = "DIR")]
        dir: PathBuf,
    },
}

/// Exit status for undecodable input (EX_DATAERR).
const EXIT_BAD_DATA: i32 = 65;

/// An error that carries its own exit status.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
struct ExitError {
    message: String,
    code: i32,
}

#[derive(Debug, Subcommand)]
enum CorpusCommand {
    /// Account for every record of the inputs: accepted, duplicate, or
    /// rejected with its position and reason.
    ///
    /// Inputs may be JSON arrays of events, JSON Lines of events or of relay
    /// messages (["EVENT",subid,{…}] or ["EVENT",{…}]), single pretty-printed
    /// events, or JSON objects whose values are arrays of events
    /// (object-of-arrays) or events (object-of-events, e.g. keyed by naddr),
    /// optionally gzip- or zstd-compressed; `-` reads standard input.
    Audit {
        /// Print one JSON object instead of a summary.
        #[arg(long)]
        json: bool,
        /// Audit the recorded real corpus (provenance/*.toml) instead of PATHs.
        #[arg(long, value_enum, conflicts_with = "paths")]
        source: Option<SourceSet>,
        /// Corpus directory holding upstream/OWNER/REPO/COMMIT/PATH
        /// (default: $BINOSTR_CORPUS_DIR, then ../shared/corpus).
        #[arg(long, value_name = "DIR", requires = "source")]
        from: Option<PathBuf>,
        #[command(flatten)]
        limits: LimitArgs,
        /// Files to audit.
        #[arg(value_name = "PATH", required_unless_present = "source")]
        paths: Vec<PathBuf>,
    },
    /// Write the deterministic default corpus as JSON Lines: real keys derived
    /// from the seed, valid ids and signatures, calibrated kinds and shapes.
    Generate {
        /// Seed; the same seed and count give the same bytes.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Number of events.
        #[arg(long, default_value_t = 10_000)]
        count: usize,
        /// Output file.
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
    },
    /// Compare a generated corpus with the real one, per kind: count share,
    /// median and p90 JSON size, median tag count.
    Calibrate {
        /// Seed of the generated corpus.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Size of the generated corpus.
        #[arg(long, default_value_t = 10_000)]
        count: usize,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Corpus directory (as for `audit --from`).
        #[arg(long, value_name = "DIR")]
        from: Option<PathBuf>,
    },
    /// Draw a seeded selection, stratified by kind, from the accepted events
    /// of the inputs; writes JSON Lines and FILE.selection.json.
    Select {
        /// Seed.
        #[arg(long)]
        seed: u64,
        /// Number of events to select.
        #[arg(long)]
        count: usize,
        /// Output file (JSON Lines).
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
        #[command(flatten)]
        limits: LimitArgs,
        /// Inputs, as for `audit`.
        #[arg(value_name = "PATH", required = true)]
        paths: Vec<PathBuf>,
    },
    /// The main job until campaigns exist: generate the default corpus, audit
    /// it and select from it, writing everything under OUTDIR.
    Default {
        /// Seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Events to generate.
        #[arg(long, default_value_t = 10_000)]
        count: usize,
        /// Events to select.
        #[arg(long, default_value_t = 5_000)]
        select: usize,
        /// Output directory.
        #[arg(
            short,
            long,
            value_name = "OUTDIR",
            default_value = "results/corpus/default"
        )]
        output: PathBuf,
    },
}

/// A recorded set of sources.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum SourceSet {
    /// The real events recorded in provenance/.
    Real,
}

/// Limits applied while reading input.
#[derive(Debug, clap::Args)]
struct LimitArgs {
    /// Largest record in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_event_bytes)]
    max_event_bytes: usize,
    /// Most tags per event.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_tags)]
    max_tags: usize,
}

impl LimitArgs {
    fn default_options() -> AuditOptions {
        Self {
            max_event_bytes: Limits::default().max_event_bytes,
            max_tags: Limits::default().max_tags,
        }
        .options()
    }

    fn options(&self) -> AuditOptions {
        AuditOptions {
            limits: Limits {
                max_event_bytes: self.max_event_bytes,
                max_tags: self.max_tags,
                ..Limits::default()
            },
            progress: io::stderr().is_terminal(),
        }
    }
}

/// The tasks of a campaign child process.
#[derive(Debug, Subcommand)]
enum ChildTask {
    /// Criterion timings of every benchmark.
    Timing {
        /// Seed of the shuffled order.
        #[arg(long)]
        order_seed: u64,
    },
    /// Sizes per profile and subset.
    Sizes,
    /// Per-event latency percentiles.
    Latency,
    /// Instructions of one benchmark over subset `all`'s sequence (run
    /// under callgrind by the campaign).
    Instructions {
        /// Profile id, or `reference`.
        #[arg(long)]
        codec: String,
        /// Workload.
        #[arg(long)]
        workload: String,
        /// Threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Expected id of the sequence the corpus file holds.
        #[arg(long)]
        sequence: String,
    },
    /// Peak RSS of one workload and profile.
    Rss {
        /// Profile id.
        #[arg(long)]
        codec: String,
        /// Workload.
        #[arg(long)]
        workload: String,
    },
}

/// Parses arguments, runs the command and returns the process exit code.
pub fn main() -> i32 {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("binostr: {e:#}");
            e.downcast_ref::<ExitError>().map_or(1, |x| x.code)
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Corpus(c) => run_corpus(c),
        Command::Campaign {
            profile,
            label,
            corpus,
            real,
            runs,
            seed,
            generate,
            root,
        } => {
            if runs == 0 {
                bail!("--runs must be at least 1");
            }
            campaign::run(&campaign::Options {
                profile,
                label: label.unwrap_or_else(|| format!("local-{}", profile.name())),
                corpus: match (corpus, real) {
                    (Some(path), _) => campaign::CorpusChoice::File(path),
                    (None, true) => campaign::CorpusChoice::Real,
                    (None, false) => campaign::CorpusChoice::Generated,
                },
                runs,
                seed,
                root,
                generate: generate.map(|g| (g[0], g[1])),
            })?;
            Ok(())
        }
        Command::CampaignChild {
            task,
            corpus,
            campaign_profile,
            seed,
            out,
        } => {
            let task = match task {
                ChildTask::Timing { order_seed } => campaign::child::Task::Timing { order_seed },
                ChildTask::Sizes => campaign::child::Task::Sizes,
                ChildTask::Latency => campaign::child::Task::Latency,
                ChildTask::Instructions {
                    codec,
                    workload,
                    threads,
                    sequence,
                } => campaign::child::Task::Instructions {
                    codec,
                    workload,
                    threads,
                    sequence,
                },
                ChildTask::Rss { codec, workload } => {
                    campaign::child::Task::Rss { codec, workload }
                }
            };
            let stdout = campaign::child::run(&task, &corpus, campaign_profile, seed, &out)?;
            print!("{stdout}");
            Ok(())
        }
        Command::Profiles { json } => {
            print_profiles(json)?;
            Ok(())
        }
        Command::Encode {
            profile,
            output,
            input,
        } => run_encode(&profile, output.as_deref(), &input),
        Command::Decode { profile, input } => run_decode(&profile, &input),
        Command::Sizes { json, all, inputs } => run_sizes(json, all, &inputs),
        Command::Torture(t) => run_torture(t),
        Command::Manifest(m) => run_manifest(m),
        Command::Vectors { output, check } => run_vectors(output.as_deref(), check.as_deref()),
    }
}

fn run_manifest(command: ManifestCommand) -> Result<()> {
    use crate::manifest::{self, KeySource, key};
    match command {
        ManifestCommand::Create { root, label } => {
            let signing_key = key::load(&KeySource::from_env()?, &root)?;
            if let Some(path) = &signing_key.created {
                eprintln!(
                    "created a new signing key at {} (mode 0600)",
                    path.display()
                );
            }
            let created_at = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .context("system clock before 1970")?
                .as_secs();
            let signed = manifest::create(&root, &label, &signing_key, created_at)?;
            for w in &signed.warnings {
                eprintln!("warning: {w}");
            }
            write_atomically(&signed.manifest_path, &signed.manifest_bytes)?;
            write_atomically(&signed.event_path, signed.event_bytes())?;
            let pubkey = signing_key.pubkey();
            println!(
                "manifest {} ({} files)",
                signed.manifest_path.display(),
                signed.manifest.files.len()
            );
            println!("event    {}", signed.event_path.display());
            println!("event id {}", hex::encode(&signed.event.id));
            println!("pubkey   {}", hex::encode(&pubkey));
            println!("npub     {}", key::npub(&pubkey));
            Ok(())
        }
        ManifestCommand::Verify {
            pubkey,
            root,
            label,
        } => {
            let pinned = pubkey
                .as_deref()
                .map(key::parse_pubkey)
                .transpose()
                .map_err(anyhow::Error::msg)?;
            let report = manifest::verify(&root, &label, pinned.as_ref());
            if let Some(first) = report.failures.first() {
                let all: Vec<String> = report.failures.iter().map(|f| format!("  {f}")).collect();
                bail!(
                    "manifest of `{label}` does not verify: {first}\n{} failure(s):\n{}",
                    report.failures.len(),
                    all.join("\n")
                );
            }
            let signer = report.pubkey.expect("a verified event has a pubkey");
            println!(
                "ok: {label}: {} files match; event {} signed at {} by {} ({}){}",
                report.files_ok,
                hex::encode(&report.event_id.expect("a verified event has an id")),
                report.created_at.unwrap_or_default(),
                hex::encode(&signer),
                key::npub(&signer),
                if pinned.is_some() {
                    ", the pinned key"
                } else {
                    "; no --pubkey given, so the signer is not pinned"
                }
            );
            Ok(())
        }
    }
}

fn run_vectors(output: Option<&Path>, check: Option<&Path>) -> Result<()> {
    let text = crate::vectors::render(&crate::vectors::vectors());
    if let Some(path) = check {
        let found = fs::read_to_string(path).with_context(|| path.display().to_string())?;
        crate::vectors::check(&found, &text).with_context(|| {
            format!(
                "{} differs from the generated vectors (regenerate with `binostr vectors -o {}`)",
                path.display(),
                path.display()
            )
        })?;
        println!("{}: up to date", path.display());
        return Ok(());
    }
    match output {
        Some(path) => Ok(write_atomically(path, text.as_bytes())?),
        None => Ok(io::stdout().lock().write_all(text.as_bytes())?),
    }
}

fn run_torture(command: TortureCommand) -> Result<()> {
    use crate::torture::{self, run};
    match command {
        TortureCommand::Generate {
            seed,
            mutations,
            bomb_depth,
            dir,
        } => {
            let s = torture::generate(&dir, seed, mutations, bomb_depth)
                .with_context(|| dir.display().to_string())?;
            println!(
                "wrote {} cases and {} bomb recipes ({} bytes) for {} profiles to {}; {mutations} mutations per profile (seed {seed}) are regenerated at run time",
                s.cases,
                s.recipes,
                s.bytes,
                s.profiles,
                dir.display()
            );
            Ok(())
        }
        TortureCommand::Run {
            json,
            out,
            timeout,
            mem_limit_mib,
            jobs,
            subject,
            dir,
        } => {
            let opts = run::RunOptions {
                dir: dir.clone(),
                timeout: std::time::Duration::from_secs(timeout),
                mem_limit_mib,
                jobs: jobs
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
                only: subject,
                progress: io::stderr().is_terminal(),
            };
            let report = run::run(&opts).with_context(|| dir.display().to_string())?;
            let md = run::render_markdown(&report);
            write_atomically(
                &out.join("robustness.json"),
                (serde_json::to_string_pretty(&report)? + "\n").as_bytes(),
            )?;
            write_atomically(&out.join("robustness.md"), md.as_bytes())?;
            if json {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                print!("{md}");
            }
            if report.failures > 0 {
                bail!(
                    "{} failures in our profiles; see {}",
                    report.failures,
                    out.join("robustness.md").display()
                );
            }
            Ok(())
        }
        TortureCommand::Child {
            subject,
            isolated,
            from,
            to,
            every,
            mem_limit_mib,
            dir,
        } => Ok(run::child(
            &dir,
            &subject,
            isolated,
            (from, to),
            every.max(1),
            mem_limit_mib,
        )?),
    }
}

fn profile(id: &str) -> Result<&'static crate::codec::Profile> {
    crate::profiles::find(id).with_context(|| {
        let ids: Vec<&str> = crate::profiles::PROFILES.iter().map(|p| p.id).collect();
        format!("unknown profile `{id}`; known: {}", ids.join(", "))
    })
}

fn print_profiles(json: bool) -> Result<()> {
    let rows: Vec<serde_json::Value> = crate::profiles::PROFILES
        .iter()
        .map(|p| {
            serde_json::json!({
                "id": p.id,
                "family": p.family,
                "enabled": p.enabled,
                "deterministic": p.capabilities.deterministic,
                "self_describing": p.capabilities.self_describing,
                "borrowed_view": p.codec.borrowed().is_some(),
                "native_batch": p.codec.batch().is_some(),
            })
        })
        .collect();
    if json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(());
    }
    println!(
        "{:<22} {:<18} {:<8} {:<13} {:<15} borrowed",
        "id", "family", "enabled", "deterministic", "self-describing"
    );
    for p in crate::profiles::PROFILES {
        let yes = |b: bool| if b { "yes" } else { "no" };
        println!(
            "{:<22} {:<18} {:<8} {:<13} {:<15} {}",
            p.id,
            serde_json::to_value(p.family)?.as_str().unwrap_or_default(),
            yes(p.enabled),
            yes(p.capabilities.deterministic),
            yes(p.capabilities.self_describing),
            yes(p.codec.borrowed().is_some())
        );
    }
    Ok(())
}

fn run_encode(id: &str, output: Option<&Path>, input: &Path) -> Result<()> {
    let profile = profile(id)?;
    let mut events = Vec::new();
    let report = audit::audit_paths(&[input.to_path_buf()], &LimitArgs::default_options(), |e| {
        events.push(e)
    })?;
    let mut stream = Vec::new();
    let mut record = Vec::new();
    let mut refused = Vec::new();
    for e in &events {
        record.clear();
        match profile.codec.encode(e, &mut record) {
            Ok(()) => crate::codec::framing::write_frame(&mut stream, &record)?,
            Err(err) => refused.push((hex::encode(&e.id), err.reason)),
        }
    }
    match output {
        Some(path) => write_atomically(path, &stream)?,
        None => io::stdout().lock().write_all(&stream)?,
    }
    eprintln!(
        "encoded {} of {} records with {}: {} bytes; {} rejected by the audit, {} not representable, {} duplicates",
        events.len() - refused.len(),
        report.read,
        profile.id,
        stream.len(),
        report.rejected.len(),
        refused.len(),
        report.duplicates
    );
    for (id, reason) in &refused {
        eprintln!("  not representable: {id}: {reason}");
    }
    for r in &report.rejected {
        eprintln!("  rejected: {}: {}: {}", r.source, r.position, r.detail);
    }
    Ok(())
}

fn run_sizes(json: bool, all: bool, inputs: &[PathBuf]) -> Result<()> {
    let mut events = Vec::new();
    let report = audit::audit_paths(inputs, &LimitArgs::default_options(), |e| events.push(e))?;
    let rows = crate::profiles::PROFILES
        .iter()
        .filter(|p| all || p.enabled)
        .map(|p| crate::bench::sizes::measure(p, &events))
        .collect::<io::Result<Vec<_>>>()?;
    if json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(());
    }
    println!(
        "{} valid events ({} records read, {} rejected, {} duplicates); zstd level {}",
        events.len(),
        report.read,
        report.rejected.len(),
        report.duplicates,
        crate::bench::sizes::ZSTD_LEVEL
    );
    print!("{}", crate::bench::sizes::render(&rows));
    for r in rows.iter().filter(|r| r.not_representable > 0) {
        println!(
            "{}: {} not representable, e.g. {}",
            r.profile,
            r.not_representable,
            r.not_representable_reasons.join("; ")
        );
    }
    Ok(())
}

fn run_decode(id: &str, input: &Path) -> Result<()> {
    let profile = profile(id)?;
    let bytes = if input.as_os_str() == "-" {
        let mut b = Vec::new();
        io::Read::read_to_end(&mut io::stdin().lock(), &mut b)?;
        b
    } else {
        fs::read(input).with_context(|| input.display().to_string())?
    };
    let limits = Limits::default();
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut line = Vec::new();
    for (n, frame) in crate::codec::framing::Frames::new(&bytes, limits.max_event_bytes).enumerate()
    {
        let bad = |offset: usize, what: String| ExitError {
            message: format!(
                "{}: record {}: {what} (stream byte {offset})",
                input.display(),
                n + 1
            ),
            code: EXIT_BAD_DATA,
        };
        let (start, record) = frame.map_err(|e| bad(e.offset, format!("bad frame: {e}")))?;
        let event = profile
            .codec
            .decode(record, &limits)
            .map_err(|e| bad(start + e.offset, format!("{}: {e}", profile.id)))?;
        line.clear();
        event.write_json(&mut line);
        line.push(b'\n');
        out.write_all(&line)?;
    }
    out.flush()?;
    Ok(())
}

fn run_corpus(command: CorpusCommand) -> Result<()> {
    match command {
        CorpusCommand::Audit {
            json,
            source,
            from,
            limits,
            paths,
        } => {
            let options = limits.options();
            let report = match source {
                Some(SourceSet::Real) => {
                    crate::corpus::audit_real(from.as_deref(), &options, |_| {})?
                }
                None => audit::audit_paths(&paths, &options, |_| {})?,
            };
            if json {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                print!("{}", render_audit(&report));
            }
            Ok(())
        }
        CorpusCommand::Generate {
            seed,
            count,
            output,
        } => {
            let events = generate::generate(seed, count);
            write_jsonl_atomically(&output, &events)?;
            let fingerprint = crate::corpus::fingerprint(events.iter().map(|e| &e.id));
            println!(
                "wrote {count} events (seed {seed}, fingerprint {fingerprint}) to {}",
                output.display()
            );
            Ok(())
        }
        CorpusCommand::Calibrate {
            seed,
            count,
            json,
            from,
        } => {
            let generated = generate::generate(seed, count);
            let mut real = Vec::new();
            let options = AuditOptions {
                progress: io::stderr().is_terminal(),
                ..AuditOptions::default()
            };
            crate::corpus::audit_real(from.as_deref(), &options, |e| real.push(e))?;
            let rows = calibrate::calibrate(&generated, &real);
            if json {
                println!("{}", serde_json::to_string_pretty(&rows)?);
            } else {
                println!(
                    "generated: {} events (seed {seed}); real: {} accepted events",
                    generated.len(),
                    real.len()
                );
                print!("{}", calibrate::render_table(&rows));
            }
            Ok(())
        }
        CorpusCommand::Select {
            seed,
            count,
            output,
            limits,
            paths,
        } => {
            let mut accepted = Vec::new();
            let report = audit::audit_paths(&paths, &limits.options(), |e| accepted.push(e))?;
            let record = select_and_write(accepted, seed, count, &output)?;
            println!(
                "audited {} records ({} accepted, {} duplicates, {} rejected)",
                report.read,
                report.accepted,
                report.duplicates,
                report.rejected.len()
            );
            print_selection(&record, &output);
            Ok(())
        }
        CorpusCommand::Default {
            seed,
            count,
            select,
            output,
        } => run_default(seed, count, select, &output),
    }
}

fn run_default(seed: u64, count: usize, select_count: usize, outdir: &Path) -> Result<()> {
    fs::create_dir_all(outdir).with_context(|| format!("creating {}", outdir.display()))?;
    let corpus_path = outdir.join("corpus.jsonl");
    let options = LimitArgs::default_options();
    let (accepted, report) = crate::corpus::generate_audited(seed, count, &corpus_path, &options)?;
    println!(
        "generated {count} events (seed {seed}) -> {}",
        corpus_path.display()
    );
    let audit_path = outdir.join("audit.json");
    write_atomically(
        &audit_path,
        serde_json::to_string_pretty(&report)?.as_bytes(),
    )?;
    print!("{}", render_audit(&report));
    println!("audit report -> {}", audit_path.display());
    let selection_path = outdir.join("selection.jsonl");
    let record = select_and_write(accepted, seed, select_count, &selection_path)?;
    print_selection(&record, &selection_path);
    Ok(())
}

fn select_and_write(
    accepted: Vec<Event>,
    seed: u64,
    count: usize,
    output: &Path,
) -> Result<select::SelectionRecord> {
    let (events, record) = select::select(accepted, seed, count)?;
    write_jsonl_atomically(output, &events)?;
    let record_path = selection_record_path(output);
    write_atomically(
        &record_path,
        (serde_json::to_string_pretty(&record)? + "\n").as_bytes(),
    )?;
    Ok(record)
}

/// `FILE.selection.json` beside a selection.
pub fn selection_record_path(output: &Path) -> PathBuf {
    let mut name = output.file_name().unwrap_or_default().to_os_string();
    name.push(".selection.json");
    output.with_file_name(name)
}

fn print_selection(record: &select::SelectionRecord, output: &Path) {
    println!(
        "selected {} of {} events (seed {}, fingerprint {}) -> {}",
        record.count,
        record.available,
        record.seed,
        record.fingerprint,
        output.display()
    );
    println!(
        "selection record -> {}",
        selection_record_path(output).display()
    );
}

fn render_audit(report: &AuditReport) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "read {}  accepted {}  duplicates {}  rejected {}",
        report.read,
        report.accepted,
        report.duplicates,
        report.rejected.len()
    );
    let _ = writeln!(s, "fingerprint {}", report.fingerprint);
    let _ = writeln!(
        s,
        "compact JSON bytes: p50 {}  p90 {}  p99 {}  max {}",
        report.sizes.p50, report.sizes.p90, report.sizes.p99, report.sizes.max
    );
    let kinds: Vec<String> = report
        .kinds
        .iter()
        .map(|(k, n)| format!("{k}:{n}"))
        .collect();
    let _ = writeln!(s, "kinds {}", kinds.join(" "));
    for input in &report.inputs {
        let _ = writeln!(
            s,
            "  {:<16} read {:>6}  accepted {:>6}  duplicates {:>5}  rejected {:>5}  {}",
            input.shape.name(),
            input.read,
            input.accepted,
            input.duplicates,
            input.rejected,
            input.source
        );
    }
    for (reason, n) in report.reasons() {
        let _ = writeln!(s, "rejected {reason}: {n}");
    }
    const SHOWN: usize = 20;
    for r in report.rejected.iter().take(SHOWN) {
        let _ = writeln!(s, "  {}: {}: {}", r.source, r.position, r.detail);
    }
    if report.rejected.len() > SHOWN {
        let _ = writeln!(
            s,
            "  … {} more (use --json for all)",
            report.rejected.len() - SHOWN
        );
    }
    s
}

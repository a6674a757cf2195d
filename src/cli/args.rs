//! The arguments of every subcommand (clap derive): names, defaults and
//! help text.

use std::io::{self, IsTerminal};
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use crate::campaign::CampaignSettings;
use crate::corpus::audit::AuditOptions;
use crate::validate::Limits;

/// Which binary encoding should Nostr use for NIP-01 events? Measure it.
#[derive(Debug, Parser)]
#[command(name = "binostr", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub(super) command: Command,
}

#[derive(Debug, Subcommand)]
pub(super) enum Command {
    /// Measure every workload on every enabled profile as independent runs
    /// (fresh child processes, shuffled order) under
    /// results/campaigns/LABEL/run-K; resumes missing runs and refuses runs
    /// whose contract differs.
    Campaign {
        /// quick (minutes), publication (the paper's), smoke (seconds);
        /// default: $BINOSTR_CAMPAIGN_SETTINGS, else quick.
        #[arg(
            long,
            value_enum,
            env = "BINOSTR_CAMPAIGN_SETTINGS",
            default_value = "quick"
        )]
        settings: CampaignSettings,
        /// The old spelling of `--settings`, refused with a pointer to it
        /// (`--profile` names a wire profile).
        #[arg(long, hide = true, value_name = "SETTINGS")]
        profile: Option<String>,
        /// Label (default: local-SETTINGS, which git ignores; committed
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
        /// Directory holding the labels (`--root`, elsewhere, is always a
        /// repository root).
        #[arg(long, value_name = "DIR", default_value = "results/campaigns")]
        campaigns: PathBuf,
    },
    /// One process of a campaign run (started by `binostr campaign`).
    #[command(hide = true)]
    CampaignChild(crate::campaign::child::Task),
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
    /// Encoded size per profile over the valid events of the inputs, streamed
    /// in bounded memory: bytes per event (mean, median, p99) overall and by
    /// kind, raw, each deflated alone and zstd over the framed stream, each
    /// as a share of JSON over the same events, priced per million events.
    Sizes {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Include disabled profiles.
        #[arg(long)]
        all: bool,
        /// Input events (any shape `corpus audit` reads; `-` for stdin).
        #[arg(value_name = "IN", required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Draw the seeded REQ filter set the `filter` workloads scan with, and
    /// print it as JSON with each filter's match count (the `filters.json`
    /// of a campaign). Without IN, draws from the default generated corpus
    /// (`corpus generate` with seed 1 and 10000 events).
    Filters {
        /// Seed of the draw.
        #[arg(long, default_value_t = crate::filter::draw::SEED)]
        seed: u64,
        /// Filters drawn.
        #[arg(long, default_value_t = crate::filter::draw::COUNT)]
        count: usize,
        /// Input events (any shape `corpus audit` reads).
        #[arg(value_name = "IN")]
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
    /// The evolution suite: for every registry profile, what an old reader
    /// makes of a newer writer's extra field, what a newer reader makes of
    /// old bytes, version signalling, and range growth; writes
    /// OUT/evolution.{json,csv} and OUT/README.md; exits 1 on any
    /// unexplained misread, silent truncation or uncovered profile.
    Evolution {
        /// Report directory.
        #[arg(long, default_value = "results/evolution")]
        out: PathBuf,
        /// Only the profiles enabled by default.
        #[arg(long)]
        enabled_only: bool,
        /// Use at most this many input events (the first valid ones).
        #[arg(long, default_value_t = 100)]
        max_events: usize,
        /// Input events (any shape `corpus audit` reads); default: the
        /// built-in deterministic golden event of the conformance suite.
        #[arg(value_name = "IN")]
        inputs: Vec<PathBuf>,
    },
    /// The robustness suite: hostile inputs for every profile, run in child
    /// processes under memory and time limits.
    #[command(subcommand)]
    Torture(TortureCommand),
    /// The signed results manifest of a campaign: create it, verify it.
    #[command(subcommand)]
    Manifest(ManifestCommand),
    /// A release's signature: sign its SHA256SUMS as a NIP-94 event.
    #[command(subcommand)]
    Release(ReleaseCommand),
    /// The maintenance cost of every registry profile, computed from the
    /// checkout: module and generated lines, external crates (`cargo tree`),
    /// schema compiler, languages with a working library (the interop
    /// results) and specification status. Writes OUT/maintenance.{json,csv}
    /// and OUT/README.md.
    Maintenance {
        /// Repository root (a checkout).
        #[arg(long, value_name = "DIR", default_value = ".")]
        root: PathBuf,
        /// Output directory (default: ROOT/results/maintenance).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Write nothing; exit non-zero, naming each file that differs from
        /// what the checkout computes.
        #[arg(long)]
        check: bool,
    },
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
    /// The transport workload: a WebSocket relay and client on loopback
    /// (REQ, every event, EOSE) for every profile × compression (none,
    /// permessage-deflate without and with context takeover) × check
    /// (decode, validate), in interleaved rounds; writes transport.csv and
    /// README.md (docs/TRANSPORT.md).
    Transport {
        /// Profiles, comma-separated (default: every enabled profile).
        #[arg(long, value_delimiter = ',')]
        profiles: Option<Vec<String>>,
        #[command(flatten)]
        events: EventsArgs,
        /// Timed rounds (after one checked warm-up exchange per member).
        #[arg(long, default_value_t = 11)]
        rounds: usize,
        /// Seed of the round orders, the bootstrap and generated events.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output directory.
        #[arg(long, default_value = "results/transport")]
        out: PathBuf,
    },
    /// The links workload: the transport loop between two network
    /// namespaces joined by a veth pair shaped with tbf, for every profile
    /// that carries every event × compression mode: REQ → EOSE time,
    /// socket bytes, relay and client CPU, then EVENT → OK for the first
    /// events, in interleaved rounds per link setting; round-trip times
    /// modelled from the bytes. Writes links.csv,
    /// links.svg and README.md (docs/TRANSPORT.md, "Links"). Needs root.
    Links {
        /// Profiles, comma-separated (default: every enabled profile that
        /// represents every event; json is always measured).
        #[arg(long, value_delimiter = ',')]
        profiles: Option<Vec<String>>,
        /// Measure the recorded real corpus (provenance/, hash-checked).
        #[arg(long, conflicts_with = "events")]
        real: bool,
        #[command(flatten)]
        events: EventsArgs,
        /// Events per REQ: the traffic-mix stream drawn from the input.
        #[arg(long, default_value_t = 300)]
        count: usize,
        /// Profiles also measured with the faster deflater, zlib-rs at
        /// level 1, in the deflate modes; json always among them (`none`:
        /// no profile). Those not measured are named and skipped. The
        /// default: every JSON-text profile, the binary ones that pass the
        /// wire roles' gates, and notepack and event2.
        #[arg(
            long,
            value_delimiter = ',',
            default_value = "json,json-sonic,json-simd,cbor-packed,msgpack,protobuf,flatbuffers,flexbuffers,capnp-packed,bencode,notepack,event2"
        )]
        sensitivity: Vec<String>,
        /// Events published one at a time (EVENT → OK) per member and
        /// round: the first of the stream.
        #[arg(long, default_value_t = 10)]
        publish: usize,
        /// Link settings in order: rates in Mbit/s, or `unshaped`.
        #[arg(long, value_delimiter = ',', default_value = "unshaped,1000,100,10,1")]
        links: Vec<String>,
        /// Round-trip times to model beside the measured one, ms.
        #[arg(long, value_delimiter = ',', default_value = "50,150")]
        rtt_ms: Vec<f64>,
        /// Fewest timed rounds per link setting.
        #[arg(long, default_value_t = 3)]
        min_rounds: usize,
        /// Most timed rounds per link setting.
        #[arg(long, default_value_t = 15)]
        max_rounds: usize,
        /// Seconds of timed rounds per link setting (rounds between the
        /// two bounds, from the checked pass's time).
        #[arg(long, default_value_t = 100.0)]
        budget_s: f64,
        /// Seed of the event stream, round orders and bootstrap.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output directory.
        #[arg(long, default_value = "results/links")]
        out: PathBuf,
    },
    /// Serve stored events over WebSocket to any client: NIP-01 REQ/CLOSE,
    /// several subscriptions per connection, permessage-deflate accepted as
    /// offered. Prints one JSON line per closed connection with its byte
    /// counts at the socket (handshake included).
    Relay {
        /// Address to listen on.
        #[arg(long, default_value = "127.0.0.1:7447")]
        listen: String,
        /// Wire profiles served, comma-separated; the first is the default
        /// encoding (json: NIP-01 text frames; others: the binary envelope
        /// of docs/TRANSPORT.md, chosen by the client with the subprotocol
        /// `binostr.<id>` or `?encoding=<id>`). `all`: json and every
        /// enabled profile that represents every event.
        #[arg(long, default_value = "json", value_delimiter = ',')]
        profiles: Vec<String>,
        #[command(flatten)]
        events: EventsArgs,
        /// Seed of generated events.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        limits: RelayLimitArgs,
    },
}

/// The relay's limits (NIP-11 `limitation`; defaults are a public relay's).
#[derive(Debug, clap::Args)]
pub(super) struct RelayLimitArgs {
    /// Connections served at once (lowered to fit the open-file limit); one
    /// more gets HTTP 503.
    #[arg(long, default_value_t = 1000)]
    pub(super) max_connections: usize,
    /// Milliseconds from accept to a complete WebSocket handshake.
    #[arg(long, default_value_t = 10_000)]
    pub(super) handshake_timeout_ms: u64,
    /// Milliseconds without a frame before the relay closes (1001); it pings
    /// at half of it.
    #[arg(long, default_value_t = 60_000)]
    pub(super) idle_timeout_ms: u64,
    /// Largest client message in bytes, before and after inflating.
    #[arg(long, default_value_t = 1 << 20)]
    pub(super) max_message: usize,
    /// Filters per REQ.
    #[arg(long, default_value_t = 20)]
    pub(super) max_filters: usize,
    /// Open subscriptions per connection.
    #[arg(long, default_value_t = 20)]
    pub(super) max_subscriptions: usize,
    /// A filter's `limit` is clamped to this.
    #[arg(long, default_value_t = 5000)]
    pub(super) max_limit: u64,
    /// Events one REQ may return; a REQ matching more gets CLOSED.
    #[arg(long, default_value_t = 100_000)]
    pub(super) max_events: usize,
    /// Milliseconds a REQ's matching may take; over it, CLOSED.
    #[arg(long, default_value_t = 2000)]
    pub(super) req_budget_ms: u64,
    /// Kernel send buffer per connection in bytes (SO_SNDBUF; 0 keeps the
    /// kernel's autotuning): what a client that stops reading can hold.
    #[arg(long, default_value_t = 256 << 10)]
    pub(super) send_buffer: usize,
}

/// Where a command's events come from.
#[derive(Debug, clap::Args)]
pub(super) struct EventsArgs {
    /// Events to serve (any shape `corpus audit` reads).
    #[arg(long, value_name = "FILE", conflicts_with = "generated")]
    pub(super) events: Option<PathBuf>,
    /// Generate N events instead (the default corpus generator).
    #[arg(long, value_name = "N", default_value_t = 500)]
    pub(super) generated: usize,
}

#[derive(Debug, Subcommand)]
pub(super) enum ManifestCommand {
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
pub(super) enum ReleaseCommand {
    /// Check DIR/SHA256SUMS and every file it lists, then sign it as a
    /// NIP-94 event (DIR/release.event.json) with `version` and `commit`
    /// tags. The key comes from where `manifest create` takes it.
    Sign {
        /// The release, `v` and a semantic version (v0.1.0, v1.0.0-rc.1).
        #[arg(long, value_name = "V")]
        version: String,
        /// The released commit, 40 lowercase hex characters.
        #[arg(long, value_name = "SHA")]
        commit: String,
        /// The release directory holding SHA256SUMS and the archives.
        #[arg(value_name = "DIR")]
        dir: PathBuf,
    },
}

#[derive(Debug, Subcommand)]
pub(super) enum TortureCommand {
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
#[derive(Debug, Subcommand)]
pub(super) enum CorpusCommand {
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
        /// Output file (`-`: standard output, streamed).
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
    },
    /// Compare a generated corpus with the real one, per kind: count share,
    /// median and p90 JSON size, median tag count, zstd and deflate ratios;
    /// fails when a kind with >= 30 real events is off by more than 10 %
    /// with no stated reason.
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
        /// Seed of the stratified draw.
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
    /// Write the awkward but valid events (the near misses of every
    /// profile's packing rules and a fixed list, signed) and every profile's
    /// refusals of them: ROOT/vectors/valid-awkward.jsonl and
    /// ROOT/results/valid/{cases,refusals}.csv.
    Valid {
        /// Repository root.
        #[arg(long, value_name = "DIR", default_value = ".")]
        root: PathBuf,
        /// Write nothing; exit non-zero, naming each file that differs.
        #[arg(long)]
        check: bool,
    },
    /// The main job until campaigns exist: generate the default corpus, audit
    /// it and select from it, writing everything under OUTDIR.
    Default {
        /// Seed of the generator and of the selection.
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
pub(super) enum SourceSet {
    /// The real events recorded in provenance/.
    Real,
}

/// Limits applied while reading input.
#[derive(Debug, clap::Args)]
pub(super) struct LimitArgs {
    /// Largest record in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_event_bytes)]
    max_event_bytes: usize,
    /// Most tags per event.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_tags)]
    max_tags: usize,
}

impl LimitArgs {
    pub(super) fn default_options() -> AuditOptions {
        Self {
            max_event_bytes: Limits::default().max_event_bytes,
            max_tags: Limits::default().max_tags,
        }
        .options()
    }

    pub(super) fn options(&self) -> AuditOptions {
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

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::{Cli, Command};
    use crate::campaign::CampaignSettings;
    use crate::campaign::child::{Measure, Task};

    fn task(measure: Measure) -> Task {
        Task {
            corpus: "c/selection.jsonl".into(),
            profiles: "json,notepack".into(),
            settings: CampaignSettings::Smoke,
            seed: 7,
            out: "run-1.tmp".into(),
            filters: "/abs/filters.json".into(),
            measure,
        }
    }

    /// `binostr campaign-child ARGS` as the CLI parses it.
    fn parse(args: Vec<std::ffi::OsString>) -> Result<Task, clap::Error> {
        let argv = ["binostr".into(), "campaign-child".into()].into_iter();
        match Cli::try_parse_from(argv.chain(args))?.command {
            Command::CampaignChild(task) => Ok(task),
            other => panic!("parsed as {other:?}"),
        }
    }

    #[test]
    fn a_child_task_round_trips_through_its_command_line() {
        let measures = [
            Measure::Timing { order_seed: 42 },
            Measure::Sizes,
            Measure::Latency,
            Measure::Transport,
            Measure::Instructions {
                profile: "reference".into(),
                workload: "ingest-mt".into(),
                threads: 4,
                sequence: "815aeaef52535a56".into(),
            },
            Measure::Rss {
                profile: "json".into(),
                workload: "decode".into(),
            },
        ];
        for m in measures {
            let t = task(m);
            assert_eq!(parse(t.args()).unwrap(), t);
        }
    }

    #[test]
    fn an_unknown_or_missing_argument_is_refused_by_name() {
        let mut args = task(Measure::Sizes).args();
        args.extend(["--bogus".into(), "1".into()]);
        let err = parse(args).unwrap_err().to_string();
        assert!(err.contains("--bogus"), "{err}");

        let args: Vec<_> = task(Measure::Sizes).args();
        let at = args.iter().position(|a| a == "--filters").unwrap();
        let mut without = args.clone();
        without.drain(at..at + 2);
        let err = parse(without).unwrap_err().to_string();
        assert!(err.contains("--filters"), "{err}");
    }
}

//! The child processes of a run: timings (Criterion, shuffled order) and the
//! side measurements, each started fresh by [`super::run`].

use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use binostr_records::Sequence;
use binostr_records::csv::{
    ALLOC, FOLLOW_LISTS, LATENCY, RATIOS, ROUNDS, SAMPLES, SIZES, TRANSPORT,
};

use serde::{Deserialize, Serialize};

use super::{CampaignSettings, ingest_threads, instructions, load_corpus};
use crate::bench::probe::{self, PROBED};
use crate::bench::sizes;
use crate::bench::timing;
use crate::files::write_atomically;
use rayon::prelude::*;

use crate::bench::fixture::{self, BASELINE, Fixture, ProfileRecords, REFERENCE};
use crate::bench::group;
use crate::bench::workload::{self, Subset, Workload};
use crate::codec::Profile;
use crate::corpus::generate;
use crate::profiles;
use crate::rng::Gen;
use crate::transport::{self, Compression, client::Check, measure::Plan};

/// Prefix of the progress lines a timing child writes to standard error.
pub const PROGRESS: &str = "binostr-progress ";

/// Prefix of a child's reply line on standard output (Criterion writes its
/// report there too).
pub const REPLY: &str = "binostr-reply ";

/// One child process: what it measures, over which corpus and profiles,
/// and where it writes. The parent builds its command line with
/// [`Task::args`]; the child parses it with clap (`binostr campaign-child`).
#[derive(Clone, Debug, PartialEq, Eq, clap::Args)]
pub struct Task {
    /// Corpus JSONL.
    #[arg(long)]
    pub corpus: PathBuf,
    /// The profiles measured, comma-separated.
    #[arg(long)]
    pub profiles: String,
    /// Campaign settings.
    #[arg(long, value_enum)]
    pub settings: CampaignSettings,
    /// Campaign seed.
    #[arg(long)]
    pub seed: u64,
    /// Run directory.
    #[arg(long)]
    pub out: PathBuf,
    /// The filter set the `filter` workloads scan (the campaign's
    /// `filters.json`, or a profile measured apart's own); every fixture
    /// checks it against the reference matcher.
    #[arg(long)]
    pub filters: PathBuf,
    /// What the child measures.
    #[command(subcommand)]
    pub measure: Measure,
}

/// What a child measures.
#[derive(Clone, Debug, PartialEq, Eq, clap::Subcommand)]
pub enum Measure {
    /// Every group through Criterion, in an order shuffled by the seed.
    Timing {
        /// Seed of the order.
        #[arg(long)]
        order_seed: u64,
    },
    /// `sizes.csv` and `follow-lists.csv`.
    Sizes,
    /// `latency.csv`.
    Latency,
    /// `transport.csv`: every enabled profile × compression mode × check
    /// (decode, validate) over subset `mix`'s sequence, one fresh
    /// connection per exchange ([`crate::transport::measure`]).
    Transport,
    /// Instructions of one benchmark of [`instructions::keys`] over the
    /// events of the corpus file (subset `all`'s sequence, whose id is
    /// `sequence`), replied as [`Reply::Counted`]; run under callgrind.
    Instructions {
        /// Wire profile id, or `reference`.
        #[arg(long)]
        profile: String,
        /// Workload name as results write it (`decode`, `ingest-mt`, ...).
        #[arg(long)]
        workload: String,
        /// Worker threads of a multi-threaded workload (1 otherwise).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Expected [`group::Sequence::id`] of the corpus file.
        #[arg(long)]
        sequence: String,
    },
    /// Peak RSS of one workload and profile, replied as [`Reply::PeakRss`].
    Rss {
        /// Wire profile id.
        #[arg(long)]
        profile: String,
        /// Workload name as results write it (`decode`, `ingest-mt`, ...).
        #[arg(long)]
        workload: String,
    },
}

impl Task {
    /// The child's command line after `campaign-child`.
    pub fn args(&self) -> Vec<OsString> {
        let flags: [(&str, OsString); 6] = [
            ("corpus", self.corpus.clone().into()),
            ("profiles", self.profiles.clone().into()),
            ("settings", self.settings.name().into()),
            ("seed", self.seed.to_string().into()),
            ("out", self.out.clone().into()),
            ("filters", self.filters.clone().into()),
        ];
        let flags = flags
            .into_iter()
            .flat_map(|(name, value)| [format!("--{name}").into(), value]);
        let measure = self.measure.args().into_iter().map(OsString::from);
        flags.chain(measure).collect()
    }
}

impl Measure {
    /// The subcommand and its arguments, as [`Task::args`] ends.
    pub fn args(&self) -> Vec<String> {
        let mut args = vec![self.name().to_owned()];
        let mut flag = |name: &str, value: String| args.extend([format!("--{name}"), value]);
        match self {
            Self::Timing { order_seed } => flag("order-seed", order_seed.to_string()),
            Self::Sizes | Self::Latency | Self::Transport => {}
            Self::Instructions {
                profile,
                workload,
                threads,
                sequence,
            } => {
                flag("profile", profile.clone());
                flag("workload", workload.clone());
                flag("threads", threads.to_string());
                flag("sequence", sequence.clone());
            }
            Self::Rss { profile, workload } => {
                flag("profile", profile.clone());
                flag("workload", workload.clone());
            }
        }
        args
    }

    /// The subcommand's name.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Timing { .. } => "timing",
            Self::Sizes => "sizes",
            Self::Latency => "latency",
            Self::Transport => "transport",
            Self::Instructions { .. } => "instructions",
            Self::Rss { .. } => "rss",
        }
    }

    /// Whether `reply` is the kind of reply this measurement gives.
    fn answered_by(&self, reply: &Reply) -> bool {
        matches!(
            (self, reply),
            (Self::Instructions { .. }, Reply::Counted { .. })
                | (Self::Rss { .. }, Reply::PeakRss { .. })
                | (
                    Self::Timing { .. } | Self::Sizes | Self::Latency | Self::Transport,
                    Reply::Written
                )
        )
    }
}

/// What a child answers on standard output: one line, [`REPLY`] and JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum Reply {
    /// Its files are written into the run directory.
    Written,
    /// Events per pass and passes counted, of [`Measure::Instructions`].
    Counted {
        /// Events per pass.
        events: u64,
        /// Passes counted.
        passes: u64,
    },
    /// Peak RSS in KiB before and after ingesting, of [`Measure::Rss`]
    /// (0 where the platform has no figure).
    PeakRss {
        /// After loading the fixture.
        baseline_kib: u64,
        /// After ingesting every event.
        peak_kib: u64,
    },
}

impl Reply {
    /// The line the child prints.
    pub fn line(&self) -> String {
        format!(
            "{REPLY}{}\n",
            serde_json::to_string(self).expect("a reply serialises")
        )
    }

    /// The reply in `stdout`, which must hold exactly one [`REPLY`] line,
    /// of the kind `measure` gives; an error names the child and the line.
    pub fn parse(measure: &Measure, stdout: &str) -> Result<Reply> {
        let child = measure.args().join(" ");
        let mut lines = stdout.lines().filter_map(|l| l.strip_prefix(REPLY));
        let (Some(line), None) = (lines.next(), lines.next()) else {
            bail!(
                "campaign child `{child}` printed {} `{REPLY}` lines, not one; its last line: `{}`",
                stdout.lines().filter(|l| l.starts_with(REPLY)).count(),
                stdout.lines().last().unwrap_or_default()
            );
        };
        let reply: Reply = serde_json::from_str(line)
            .with_context(|| format!("campaign child `{child}` replied `{line}`"))?;
        if !measure.answered_by(&reply) {
            bail!(
                "campaign child `{child}` replied `{line}`, not the reply of `{}`",
                measure.name()
            );
        }
        Ok(reply)
    }
}

/// Runs `task`: loads the corpus with the measured profiles (those that
/// represent every event of the corpus, or json and one profile measured
/// apart), measures, writes into the run directory; returns the reply.
pub fn run(task: &Task) -> Result<Reply> {
    let enabled = resolve(&task.profiles)?;
    let (corpus, campaign, seed, out) = (&task.corpus, task.settings, task.seed, &task.out);
    let load_fixture =
        |profiles: &[&'static Profile]| super::load_fixture(corpus, profiles, Some(&task.filters));
    match &task.measure {
        Measure::Timing { order_seed } => {
            let fixture = load_fixture(&enabled)?;
            let (subsets, _) =
                workload::split_subsets(&fixture.events, campaign.subsets(), &super::traffic_mix());
            let sequences = super::sequences(&fixture.events, &subsets, campaign, seed);
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            let mut groups = group::plan(&enabled, &subsets, &ingest_threads(cores));
            shuffle(&mut groups, *order_seed);
            let dir =
                std::env::temp_dir().join(format!("binostr-criterion-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            let measured = timing::run(
                &fixture,
                &groups,
                &sequences,
                &campaign.criterion(),
                &dir,
                *order_seed,
                |i, g| eprintln!("{PROGRESS}{i} {}", g.label()),
            )?;
            let _ = std::fs::remove_dir_all(&dir);
            write_atomically(&out.join(SAMPLES.file), timing::samples_csv(&measured))?;
            write_atomically(&out.join(ROUNDS.file), timing::rounds_csv(&measured))?;
            write_atomically(&out.join(RATIOS.file), timing::ratios_csv(&measured))?;
            Ok(Reply::Written)
        }
        Measure::Sizes => {
            let fixture = load_fixture(&enabled)?;
            // Sizes are cheap: every subset, whatever the settings time.
            let (subsets, _) =
                workload::split_subsets(&fixture.events, &Subset::ALL, &super::traffic_mix());
            let sequences = super::sequences(&fixture.events, &subsets, campaign, seed);
            // Trained on what every measured profile represents.
            let (sample, _) = fixture::representable(
                generate::generate(dictionary_seed(seed), campaign.dictionary_sample()),
                &enabled,
            );
            let slices: Vec<(String, Vec<usize>)> = subsets
                .iter()
                .map(|&s| (s.name(), subset_events(&fixture, s, &sequences)))
                .collect();
            let mut csv = SIZES.header_line();
            let rows = fixture
                .profiles
                .par_iter()
                .map(|p| size_rows(p, &slices, &sample))
                .collect::<Result<Vec<String>>>()?;
            csv.push_str(&rows.concat());
            write_atomically(&out.join(SIZES.file), &csv)?;
            let lists = follow_list_rows(&enabled, campaign.follow_lists_per_median(), seed)?;
            write_atomically(&out.join(FOLLOW_LISTS.file), lists)?;
            Ok(Reply::Written)
        }
        Measure::Latency => {
            let fixture = load_fixture(&enabled)?;
            let overhead = probe::timer_overhead_ns();
            let mut csv = LATENCY.header_line();
            for p in &enabled {
                for w in PROBED {
                    let r = probe::latency(&fixture, p.id, w, campaign.latency_events(), overhead)
                        .expect("profile in fixture");
                    let _ = writeln!(
                        csv,
                        "{},{},{},{},{},{},{},{},{}",
                        r.workload,
                        r.profile,
                        r.events,
                        r.timer_overhead_ns,
                        r.p50_ns,
                        r.p90_ns,
                        r.p99_ns,
                        r.p999_ns,
                        r.max_ns
                    );
                }
            }
            write_atomically(&out.join(LATENCY.file), &csv)?;
            Ok(Reply::Written)
        }
        Measure::Transport => {
            let events = load_corpus(corpus)?;
            let stream = transport_stream(&events);
            let sequences = super::sequences(&events, &[stream], campaign, seed);
            let sequence = sequences.first().context("transport has no sequence")?;
            let events: Vec<_> = sequence
                .indices
                .iter()
                .map(|&i| events[i].clone())
                .collect();
            let plan = Plan {
                profiles: enabled,
                reference: BASELINE,
                modes: Compression::ALL.to_vec(),
                checks: Check::ALL.to_vec(),
                rounds: campaign.transport_rounds(),
                seed,
            };
            let rows = transport::measure::run(&events, &plan, |_, _| {})?;
            write_atomically(&out.join(TRANSPORT.file), transport::measure::csv(&rows))?;
            Ok(Reply::Written)
        }
        Measure::Instructions {
            profile: codec,
            workload,
            threads,
            sequence,
        } => {
            let w = Workload::from_name(workload)
                .with_context(|| format!("unknown workload `{workload}`"))?;
            let key = instructions::keys(&enabled)
                .into_iter()
                .find(|k| k.workload == w && k.profile == codec && k.threads == *threads)
                .with_context(|| {
                    format!("{workload}/{codec}/{threads}t is not a counted benchmark")
                })?;
            let events = load_corpus(corpus)?;
            let lens: Vec<usize> = events.iter().map(|e| e.to_json().len()).collect();
            let whole = group::Budget {
                events: usize::MAX,
                bytes: usize::MAX,
            };
            let seq = group::sequence(
                &events,
                &lens,
                Subset::All,
                whole,
                seed,
                &super::traffic_mix(),
            );
            if seq.id != *sequence {
                bail!(
                    "{}: sequence {} where {sequence} was expected",
                    corpus.display(),
                    seq.id
                );
            }
            let profile = (key.profile != REFERENCE)
                .then(|| profiles::find(codec))
                .flatten();
            let filters = super::read_filters(&task.filters)?;
            let fixture = instructions::fixture(events, profile, filters)?;
            let mut pass = fixture.pass(&key, &seq.indices);
            let events = instructions::count(&mut pass, instructions::PASSES);
            Ok(Reply::Counted {
                events,
                passes: instructions::PASSES,
            })
        }
        Measure::Rss {
            profile: codec,
            workload,
        } => {
            let profile =
                profiles::find(codec).with_context(|| format!("unknown profile `{codec}`"))?;
            let w = Workload::from_name(workload)
                .filter(|w| PROBED.contains(w))
                .with_context(|| format!("`{workload}` is not a probed workload"))?;
            let fixture = load_fixture(&[profile])?;
            let baseline = probe::peak_rss_kib().unwrap_or(0);
            let kept = probe::ingest_all(&fixture, codec, w).expect("profile in fixture");
            let peak = probe::peak_rss_kib().unwrap_or(0);
            std::hint::black_box(&kept);
            Ok(Reply::PeakRss {
                baseline_kib: baseline,
                peak_kib: peak,
            })
        }
    }
}

/// The stream transport measures: subset `mix`, or subset `all` (said on
/// stderr) where the corpus has no event of some stratum the mix gives a
/// share, as the report says when `campaign.json` lists no `mix` sequence.
fn transport_stream(events: &[crate::model::Event]) -> Subset {
    let (full, _) = workload::split_subsets(events, &[Subset::Mix], &super::traffic_mix());
    if full.is_empty() {
        eprintln!(
            "transport: the corpus has no event of some stratum of the traffic mix; \
             measuring subset `all` ({} events) instead of `mix`",
            events.len()
        );
        Subset::All
    } else {
        Subset::Mix
    }
}

/// The events `sizes.csv` measures for `subset`: its members in corpus
/// order, or, for `mix`, its sequence in stream order.
fn subset_events(fixture: &Fixture, subset: Subset, sequences: &[Sequence]) -> Vec<usize> {
    match subset {
        Subset::Mix => sequences
            .iter()
            .find(|s| s.subset == subset.name())
            .map(|s| s.indices.clone())
            .unwrap_or_default(),
        _ => fixture.subset(subset),
    }
}

/// `sizes.csv` rows of one profile: each slice's totals (name and corpus
/// indices), with a zstd dictionary trained on `sample` (disjoint from the
/// corpus).
fn size_rows(
    p: &ProfileRecords,
    slices: &[(String, Vec<usize>)],
    sample: &[crate::model::Event],
) -> Result<String> {
    let train: Vec<Vec<u8>> = sample
        .iter()
        .map(|e| encoded(p.profile, e))
        .collect::<Result<_>>()
        .with_context(|| format!("{}: dictionary sample", p.profile.id))?;
    let dict = sizes::train_dictionary(&train)
        .with_context(|| format!("{}: training a zstd dictionary", p.profile.id))?;
    let mut csv = String::new();
    for (name, idx) in slices {
        let t = sizes::totals(idx.iter().map(|&i| p.records[i].as_slice()), Some(&dict))?;
        let _ = writeln!(
            csv,
            "{},{name},{},{},{},{},{},{},{},{}",
            p.profile.id,
            t.events,
            t.raw,
            t.framed,
            t.zstd_event,
            t.zstd_stream,
            t.zstd_dict,
            t.deflate_event,
            t.deflate_stream
        );
    }
    Ok(csv)
}

fn encoded(profile: &Profile, e: &crate::model::Event) -> Result<Vec<u8>> {
    let mut r = Vec::new();
    profile
        .codec
        .encode(e, &mut r)
        .map_err(|err| anyhow::anyhow!("{}: {}", profile.id, err.reason))?;
    Ok(r)
}

/// `follow-lists.csv`: per median of [`generate::FOLLOW_LIST_MEDIANS`],
/// `count` generated follow lists, kept where every profile of `profiles`
/// represents them (so each row covers json's events), sized per profile.
fn follow_list_rows(profiles: &[&'static Profile], count: usize, seed: u64) -> Result<String> {
    let mut csv = FOLLOW_LISTS.header_line();
    for median in generate::FOLLOW_LIST_MEDIANS {
        let lists = generate::follow_lists(dictionary_seed(seed), count, median);
        let (kept, _) = fixture::representable(lists, profiles);
        for p in profiles {
            let records = kept
                .iter()
                .map(|e| encoded(p, e))
                .collect::<Result<Vec<_>>>()?;
            let t = sizes::totals(records.iter().map(Vec::as_slice), None)?;
            let _ = writeln!(
                csv,
                "{},{median},{},{},{},{}",
                p.id, t.events, t.raw, t.zstd_event, t.deflate_event
            );
        }
    }
    Ok(csv)
}

/// The seed of the disjoint sample zstd dictionaries are trained on.
pub fn dictionary_seed(seed: u64) -> u64 {
    seed ^ 0xd1c7_d1c7_d1c7_d1c7
}

/// Fisher-Yates with a ChaCha20 stream keyed by `seed`.
pub fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_be_bytes());
    Gen::new(key, 0).shuffle(items);
}

/// Loads the corpus for the allocation probe binary, for the profiles
/// `ids` (comma-separated, as a child's `--profiles`).
pub fn alloc_fixture(corpus: &Path, ids: &str) -> Result<Fixture> {
    super::load_fixture(corpus, &resolve(ids)?, None)
}

/// The profiles of a comma-separated id list; an unknown or disabled id is
/// an error.
pub fn resolve(ids: &str) -> Result<Vec<&'static Profile>> {
    ids.split(',')
        .filter(|s| !s.is_empty())
        .map(|id| {
            profiles::find(id)
                .filter(|p| p.enabled)
                .with_context(|| format!("`{id}` is not an enabled profile"))
        })
        .collect()
}

/// `alloc.csv` of `rows`.
pub fn alloc_csv(rows: &[probe::AllocRow]) -> String {
    let mut csv = ALLOC.header_line();
    for r in rows {
        let _ = writeln!(
            csv,
            "{},{},{},{},{}",
            r.workload, r.profile, r.events, r.allocs, r.alloc_bytes
        );
    }
    csv
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_round_trips_as_one_line() {
        let rss = Measure::Rss {
            profile: "json".into(),
            workload: "decode".into(),
        };
        let reply = Reply::PeakRss {
            baseline_kib: 10,
            peak_kib: 20,
        };
        assert_eq!(reply.line().matches('\n').count(), 1);
        assert_eq!(Reply::parse(&rss, &reply.line()).unwrap(), reply);
        // Criterion's report around it is not the reply.
        let timing = Measure::Timing { order_seed: 1 };
        let stdout = format!("g0001/round  time: [1 ms]\n{}\n", Reply::Written.line());
        assert_eq!(Reply::parse(&timing, &stdout).unwrap(), Reply::Written);
    }

    #[test]
    fn a_malformed_reply_is_an_error_naming_the_child() {
        let rss = Measure::Rss {
            profile: "json".into(),
            workload: "decode".into(),
        };
        let named = "`rss --profile json --workload decode`";
        for (bad, shown) in [
            ("1024,2048\n", "1024,2048"),
            ("", "printed 0"),
            ("binostr-reply 1024,2048\n", "1024,2048"),
            (
                "binostr-reply {\"peak-rss\":{\"baseline_kib\":1}}\n",
                "missing field `peak_kib`",
            ),
            (
                "binostr-reply {\"peak-rss\":{\"baseline_kib\":1,\"peak_kib\":2,\"x\":3}}\n",
                "unknown field `x`",
            ),
            (
                "binostr-reply \"written\"\nbinostr-reply \"written\"\n",
                "printed 2",
            ),
            ("binostr-reply \"written\"\n", "not the reply of `rss`"),
        ] {
            let err = format!("{:#}", Reply::parse(&rss, bad).unwrap_err());
            assert!(err.contains(named) && err.contains(shown), "{err}");
        }
    }

    #[test]
    fn shuffle_is_a_seeded_permutation() {
        let mk = || -> Vec<usize> { (0..50).collect() };
        let (mut a, mut b, mut c) = (mk(), mk(), mk());
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        shuffle(&mut c, 8);
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_ne!(a, mk());
        a.sort();
        assert_eq!(a, mk());
    }

    #[test]
    fn a_missing_or_malformed_filter_set_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("filters.json");
        let err = format!("{:#}", super::super::read_filters(&p).unwrap_err());
        assert!(err.contains("filters.json"), "{err}");
        std::fs::write(&p, "{\n  \"seed\": 1,\n  \"filters\": 3\n}\n").unwrap();
        let err = format!("{:#}", super::super::read_filters(&p).unwrap_err());
        assert!(
            err.contains("filters.json") && err.contains("line 3"),
            "{err}"
        );
    }

    #[test]
    fn corpus_loader_reports_the_byte_offset() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("c.jsonl");
        let good = generate::generate(1, 1)[0].to_json();
        std::fs::write(&p, format!("{good}\n{{\"id\":1}}\n")).unwrap();
        let err = format!("{:#}", load_corpus(&p).unwrap_err());
        assert!(
            err.contains(&format!("record at byte {}", good.len() + 1)),
            "{err}"
        );
    }
}

//! The child processes of a run: timings (Criterion, shuffled order) and the
//! side measurements, each started fresh by [`super::run`].

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result, bail};
use binostr_records::Sequence;
use binostr_records::csv::{
    ALLOC, FOLLOW_LISTS, LATENCY, RATIOS, ROUNDS, SAMPLES, SIZES, TRANSPORT,
};

use super::{CampaignSettings, ingest_threads, instructions, load_corpus, load_fixture};
use crate::bench::probe::{self, PROBED};
use crate::bench::sizes;
use crate::bench::timing;
use crate::files::write_atomically;
use rayon::prelude::*;

use crate::bench::fixture::{self, BASELINE, ProfileRecords, REFERENCE};
use crate::bench::group;
use crate::bench::workload::{self, Subset, Workload};
use crate::codec::Profile;
use crate::corpus::generate;
use crate::profiles;
use crate::rng::Gen;
use crate::transport::{self, Compression, client::Check, measure::Plan};

/// Prefix of the progress lines a timing child writes to standard error.
pub const PROGRESS: &str = "binostr-progress ";

/// What a child measures.
#[derive(Clone, Debug)]
pub enum Task {
    /// Every group through Criterion, in an order shuffled by the seed.
    Timing {
        /// Seed of the order.
        order_seed: u64,
    },
    /// `sizes.csv` and `follow-lists.csv`.
    Sizes,
    /// `latency.csv`.
    Latency,
    /// `transport.csv`: every enabled profile × compression mode × check
    /// (decode, validate) over
    /// subset `mix`'s sequence, one fresh connection per exchange
    /// ([`crate::transport::measure`]).
    Transport,
    /// Instructions of one benchmark of [`instructions::keys`] over the
    /// events of the corpus file (subset `all`'s sequence, whose id is
    /// `sequence`), printed as `events,passes`; run under callgrind.
    Instructions {
        /// Profile id, or `reference`.
        codec: String,
        /// Workload name.
        workload: String,
        /// Threads.
        threads: usize,
        /// Expected [`group::Sequence::id`] of the corpus file.
        sequence: String,
        /// The campaign's `filters.json`: a `filter` key scans the filters
        /// the timings scan, drawn from the whole corpus.
        filters: std::path::PathBuf,
    },
    /// Peak RSS of one workload and profile, printed as `baseline,peak`.
    Rss {
        /// Profile id.
        codec: String,
        /// Workload name.
        workload: String,
    },
}

/// Runs `task` for `measured` (the profiles that represent every event of
/// the corpus, or json and one profile measured apart) over the corpus at
/// `corpus`, writing into `out`; returns what the parent reads from
/// standard output.
pub fn run(
    task: &Task,
    corpus: &Path,
    measured: &[&'static Profile],
    campaign: CampaignSettings,
    seed: u64,
    out: &Path,
) -> Result<String> {
    let enabled: Vec<&'static Profile> = measured.to_vec();
    match task {
        Task::Timing { order_seed } => {
            let fixture = load_fixture(corpus, &enabled)?;
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
            Ok(String::new())
        }
        Task::Sizes => {
            let fixture = load_fixture(corpus, &enabled)?;
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
            Ok(String::new())
        }
        Task::Latency => {
            let fixture = load_fixture(corpus, &enabled)?;
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
            Ok(String::new())
        }
        Task::Transport => {
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
            Ok(String::new())
        }
        Task::Instructions {
            codec,
            workload,
            threads,
            sequence,
            filters,
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
            let drawn: crate::filter::FilterSet = super::read_json(filters)?;
            let fixture = instructions::fixture(events, profile, drawn.filters)?;
            let mut pass = fixture.pass(&key, &seq.indices);
            let events = instructions::count(&mut pass, instructions::PASSES);
            Ok(format!("{events},{}\n", instructions::PASSES))
        }
        Task::Rss { codec, workload } => {
            let profile =
                profiles::find(codec).with_context(|| format!("unknown profile `{codec}`"))?;
            let w = Workload::from_name(workload)
                .filter(|w| PROBED.contains(w))
                .with_context(|| format!("`{workload}` is not a probed workload"))?;
            let fixture = load_fixture(corpus, &[profile])?;
            let baseline = probe::peak_rss_kib().unwrap_or(0);
            let kept = probe::ingest_all(&fixture, codec, w).expect("profile in fixture");
            let peak = probe::peak_rss_kib().unwrap_or(0);
            std::hint::black_box(&kept);
            Ok(format!("{baseline},{peak}\n"))
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
fn subset_events(
    fixture: &workload::Fixture,
    subset: Subset,
    sequences: &[Sequence],
) -> Vec<usize> {
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
pub fn alloc_fixture(corpus: &Path, ids: &str) -> Result<workload::Fixture> {
    load_fixture(corpus, &resolve(ids)?)
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

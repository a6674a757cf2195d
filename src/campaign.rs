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
//!
//! Here: the campaign's options and its driver. Beside it: `settings` (how
//! long and wide), `corpus` (the measured events), `record` (the files it
//! writes and the checks between runs), `measure` (one run's processes), and
//! the public [`child`], [`host`] and [`instructions`].

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use binostr_records::files as record_files;

use crate::bench::group::{self, Sequence};
use crate::bench::probe::PROBED;
use crate::bench::workload::{self, Subset};
use crate::codec::Profile;
use crate::files::write_atomically;
use crate::model::Event;
use crate::profiles;

pub mod child;
pub mod host;
pub mod instructions;

mod corpus;
mod measure;
mod record;
mod settings;

pub use corpus::{load_corpus, load_fixture, read_filters};
pub use record::{
    Apart, CampaignRecord, Contract, ContractCorpus, CorpusRecord, Observed, Refused, RunRecord,
    SCHEMA, check_contract, first_difference,
};
pub use settings::CampaignSettings;

use corpus::{corpus_cache, prepare_corpus, write_filters};
use host::{DetectGit, DetectHost, Git, Host};
use instructions::Valgrind;
use measure::{InstructionProbe, RunContext, alloc_probe_exe};
use record::{check_campaign_record, read_json};

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
    /// Campaign settings.
    pub settings: CampaignSettings,
    /// Label (directory name under `root`).
    pub label: String,
    /// The events measured.
    pub corpus: CorpusChoice,
    /// Runs wanted.
    pub runs: usize,
    /// Seed of the generated corpus, its selection and the run orders.
    pub seed: u64,
    /// Parent of the label directories (`--campaigns`).
    pub campaigns: PathBuf,
    /// Events generated and selected (defaults per campaign settings).
    pub generate: Option<(usize, usize)>,
}

/// Runs the campaign; returns the label directory.
pub fn run(opts: &Options) -> Result<PathBuf> {
    let valgrind = valgrind_for(opts.settings, std::env::var("CI").as_deref() == Ok("true"))?;
    // Found before run-1, not after its timing.
    let alloc_probe = alloc_probe_exe()?;
    let dir = opts.campaigns.join(&opts.label);
    std::fs::create_dir_all(dir.join("corpus"))
        .with_context(|| format!("creating {}", dir.display()))?;
    let prepared = prepare_corpus(opts, &dir)?;
    let (events, corpus, corpus_path) = (&prepared.events, &prepared.record, &prepared.path);
    let mix = traffic_mix();
    let (subsets, empty) = workload::split_subsets(events, opts.settings.subsets(), &mix);
    let record = CampaignRecord {
        schema: SCHEMA,
        label: opts.label.clone(),
        settings: opts.settings.name().to_owned(),
        runs: opts.runs,
        seed: opts.seed,
        corpus: corpus.clone(),
        sequences: sequences(events, &subsets, opts.settings, opts.seed),
        mix: Some(mix),
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
        settings: opts.settings.name().to_owned(),
        criterion: opts.settings.criterion(),
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
            let existing: RunRecord = read_json(&done.join(record_files::CONTRACT))?;
            check_contract(&format!("run-{k}"), &existing.contract, &contract)?;
        } else if k <= opts.runs {
            missing.push(k);
        } else {
            break;
        }
    }
    write_atomically(
        &dir.join(record_files::CAMPAIGN),
        &(serde_json::to_string_pretty(&record)? + "\n"),
    )?;
    // The filters every child's `filter` workloads scan (absolute: the
    // instruction children run in the corpus cache directory).
    let filters_path = write_filters(events, &dir.join(record_files::FILTERS))?;
    // The registry as this campaign measured it, for readers that must not
    // depend on the registry of a later checkout (the results page).
    let registry = dir.join(record_files::REGISTRY);
    if !registry.exists() {
        write_atomically(
            &registry,
            &(serde_json::to_string_pretty(&profiles::table())? + "\n"),
        )?;
    }
    if missing.is_empty() {
        println!("{}: all {} runs are present", dir.display(), opts.runs);
        return Ok(dir);
    }

    let whole = &prepared.whole;
    let threads = ingest_threads(contract.host.cores);
    let keys = group::plan(whole, &subsets, &threads).len();
    let apart_keys: usize = prepared
        .apart
        .iter()
        .map(|a| group::plan(&[baseline(), a.profile], &subsets, &threads).len() + 2)
        .sum();
    let rss_steps = whole.len() * PROBED.len();
    let counted = instructions::keys(whole);
    let instruction_steps = if valgrind.is_some() { counted.len() } else { 0 };
    let per_run = keys + 4 + rss_steps + instruction_steps + apart_keys;
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
            corpus_path,
            profiles: whole,
            apart: &prepared.apart,
            opts,
            keys,
            bar: &bar,
            filters: &filters_path,
            alloc_probe: &alloc_probe,
            instructions: valgrind.as_ref().map(|v| InstructionProbe {
                valgrind: v,
                keys: &counted,
                corpus: &sequence_path,
                sequence: &all.id,
            }),
        };
        let observed = ctx.measure(&empty)?;
        let stages: Vec<String> = observed
            .stages
            .iter()
            .map(|s| format!("{} {:.1} s", s.stage, s.seconds))
            .collect();
        let tmp = dir.join(format!("run-{k}.tmp"));
        let run = RunRecord {
            schema: SCHEMA,
            contract: contract.clone(),
            observed,
        };
        write_atomically(
            &tmp.join(record_files::CONTRACT),
            &(serde_json::to_string_pretty(&run)? + "\n"),
        )?;
        std::fs::rename(&tmp, dir.join(format!("run-{k}")))?;
        bar.println(format!("run-{k} complete: {}", stages.join(", ")));
    }
    bar.finish_and_clear();
    println!(
        "campaign `{}` ({}): {} runs in {}",
        opts.label,
        opts.settings.name(),
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
    settings: CampaignSettings,
    seed: u64,
) -> Vec<Sequence> {
    let json_len: Vec<usize> = events.iter().map(|e| e.to_json().len()).collect();
    let (budget, mix) = (settings.sequence_budget(), traffic_mix());
    subsets
        .iter()
        .map(|&s| group::sequence(events, &json_len, s, budget, seed, &mix))
        .collect()
}

/// The traffic mix of subset `mix` and of every composed figure
/// (`campaign.json`'s `mix`).
pub fn traffic_mix() -> binostr_records::Mix {
    binostr_records::Mix::bigbrotr()
}

/// The Valgrind that counts instructions, or `None` (warned) where a
/// `smoke` or `quick` campaign may go without; a `publication` campaign, or
/// any campaign under CI, refuses to start without it.
fn valgrind_for(settings: CampaignSettings, ci: bool) -> Result<Option<Valgrind>> {
    if let Some(v) = Valgrind::detect() {
        return Ok(Some(v));
    }
    if settings == CampaignSettings::Publication {
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
        settings.name(),
        instructions::SKIPPED
    );
    Ok(None)
}

/// json, the profile a profile measured apart is paired with.
pub fn baseline() -> &'static Profile {
    profiles::find(crate::bench::fixture::BASELINE).expect("json is in the registry")
}

/// Thread counts of `ingest-mt`: 1 and all cores.
pub fn ingest_threads(cores: usize) -> Vec<usize> {
    if cores > 1 { vec![1, cores] } else { vec![1] }
}

/// The seed of run `k`'s benchmark order.
pub fn order_seed(seed: u64, k: usize) -> u64 {
    use sha2::{Digest, Sha256};
    let d = Sha256::digest(format!("binostr-order/{seed}/{k}"));
    u64::from_be_bytes(d[..8].try_into().expect("8 bytes"))
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
    fn order_seeds_differ_per_run() {
        assert_ne!(order_seed(1, 1), order_seed(1, 2));
        assert_eq!(order_seed(1, 1), order_seed(1, 1));
    }
}

//! The events a campaign measures: generated and selected, read from a
//! file or from the recorded real corpus, and audited. An enabled profile
//! that cannot represent every event is measured apart, on the events it
//! represents ([`Apart`]); the corpus itself loses nothing.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use super::{Apart, CorpusChoice, CorpusRecord, Options, Refused, host};
use crate::bench::fixture::Fixture;
use crate::codec::{Limits, Profile};
use crate::corpus::{audit, select};
use crate::files::write_atomically;
use crate::filter::FilterSet;
use crate::model::Event;
use crate::profiles;

/// The corpus JSONL a campaign measures, cached beside the label
/// directories (not part of the results; regenerated from the seed).
pub(super) fn corpus_cache(opts: &Options) -> PathBuf {
    opts.campaigns
        .join(".corpus")
        .join(&opts.label)
        .join("selection.jsonl")
}

/// A profile measured apart: its events, cached beside the corpus.
pub(super) struct ApartCorpus {
    /// The profile, which cannot represent every corpus event.
    pub profile: &'static Profile,
    /// The events it represents, in corpus order.
    pub path: PathBuf,
    /// The filter set its `filter` workloads scan, drawn from those events
    /// (absolute).
    pub filters: PathBuf,
}

/// The campaign's corpus: its events, record and cache path, the enabled
/// profiles that represent all of it, and those measured apart.
pub(super) struct Prepared {
    pub events: Vec<Event>,
    pub record: CorpusRecord,
    pub path: PathBuf,
    pub whole: Vec<&'static Profile>,
    pub apart: Vec<ApartCorpus>,
}

pub(super) fn prepare_corpus(opts: &Options, dir: &Path) -> Result<Prepared> {
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
            let (count, pick) = opts.generate.unwrap_or(opts.settings.default_corpus());
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
    let corpus_path = corpus_cache(opts);
    crate::files::write_jsonl_atomically(&corpus_path, &events)?;
    let enabled: Vec<&'static Profile> = profiles::enabled().collect();
    let split = crate::bench::fixture::split_profiles(&enabled, &events)?;
    let (whole, refusing) = (split.whole, split.apart);
    let mut apart = Vec::new();
    let mut records = Vec::new();
    for (profile, refused) in refusing {
        let kept = crate::bench::fixture::represented(&events, &refused);
        eprintln!(
            "measured apart: {} cannot represent {} of {} events (first: {}); it is measured on the other {}, paired with json on them",
            profile.id,
            refused.len(),
            events.len(),
            refused[0].1,
            kept.len()
        );
        let path = corpus_path.with_file_name(format!("apart-{}.jsonl", profile.id));
        crate::files::write_jsonl_atomically(&path, &kept)?;
        let filters = write_filters(&kept, &path.with_extension("filters.json"))?;
        records.push(Apart {
            profile: profile.id.to_string(),
            count: kept.len() as u64,
            fingerprint: crate::corpus::fingerprint(kept.iter().map(|e| &e.id)),
            refused: refused
                .into_iter()
                .map(|(i, reason)| Refused {
                    id: crate::model::hex::encode(&events[i].id),
                    reason,
                })
                .collect(),
        });
        apart.push(ApartCorpus {
            profile,
            path,
            filters,
        });
    }
    let record = CorpusRecord {
        fingerprint: crate::corpus::fingerprint(events.iter().map(|e| &e.id)),
        count: events.len() as u64,
        seed,
        source,
        audit_sha256: host::file_sha256(&audit_path)?,
        apart: records,
    };
    Ok(Prepared {
        events,
        record,
        path: corpus_path,
        whole,
        apart,
    })
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

/// Prepares the fixture of `profiles` over the corpus at `path`, scanning
/// the filter set at `filters` (a `filters.json`) where given, else the set
/// drawn from the corpus.
pub fn load_fixture(
    path: &Path,
    profiles: &[&'static Profile],
    filters: Option<&Path>,
) -> Result<Fixture> {
    let filters = filters.map(read_filters).transpose()?;
    Ok(Fixture::prepare(
        load_corpus(path)?,
        profiles,
        Limits::default(),
        filters,
    )?)
}

/// The filters of a `filters.json`; a missing or malformed file is an
/// error naming it (and, malformed, serde's line and column).
pub fn read_filters(path: &Path) -> Result<Vec<crate::filter::Filter>> {
    let set: FilterSet = super::read_json(path)
        .with_context(|| format!("the campaign's filter set {}", path.display()))?;
    Ok(set.filters)
}

/// Draws the default filter set from `events` and writes it to `path` as
/// a `filters.json`; returns `path` made absolute (children may run in
/// another directory).
pub(super) fn write_filters(events: &[Event], path: &Path) -> Result<PathBuf> {
    let set = FilterSet::draw(
        events,
        crate::filter::draw::SEED,
        crate::filter::draw::COUNT,
    )?;
    write_atomically(path, &(serde_json::to_string_pretty(&set)? + "\n"))?;
    Ok(std::fs::canonicalize(path)?)
}

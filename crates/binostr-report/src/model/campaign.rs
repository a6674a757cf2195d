//! Everything one `aggregate` reads: the runs of one or more labels, their
//! summary rows, paired ratios, invariant checks, claims, instruction
//! counts, side measurements, and the robustness and interop inputs.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::{Result, bail};
use binostr_records::Workload;
use binostr_records::robustness::RunReport;

use crate::interval::Interval;
use crate::model::checks::{self, Check, Violation};
use crate::model::claims::{self, CLAIM_WORKLOADS, Claim, ProfileRatio};
use crate::model::instr::{self, Instr};
use crate::model::key::{Key, PairKey};
use crate::model::mix::{Composed, SizeMeasure, StatedMix};
use crate::model::other::OtherKinds;
use crate::model::paired::{self, Paired, Rounds};
use crate::model::sensitivity::{self, Grid};
use crate::model::summary::{self, BASELINE, REFERENCE, Row};
use crate::model::wall::{self, Wall};
use crate::read::campaign_file::{self, CampaignRecord, Sequence};
use crate::read::records::{self, Run, Scan as _};
use crate::read::registry::{REGISTRY, RegistryEntry, read_registry};
use crate::read::side::{Interop, ProfileTable, Reference, Side};
use crate::read::sizes::SizeBytes;

/// Another label's claims, to mark where each claim holds.
#[derive(Clone, Debug)]
pub struct HoldsOn {
    /// Its label.
    pub label: String,
    /// Its `corpus.source` (`generated`, `real`, ...).
    pub source: String,
    /// Its primary host's claims (subset all).
    pub claims: Vec<Claim>,
    /// Its profiles measured apart, which are in none of its claims.
    pub apart: Vec<String>,
}

/// `campaign.json`'s event sequences of one label.
#[derive(Clone, Debug)]
pub struct LabelSequences {
    /// The label.
    pub label: String,
    /// Its sequences.
    pub sequences: Vec<Sequence>,
}

/// The primary host's claim about one workload on one kind stratum.
#[derive(Clone, Debug)]
pub struct KindClaim {
    /// The stratum (subset id).
    pub stratum: String,
    /// The claim.
    pub claim: Claim,
}

/// A loaded campaign (possibly several labels and hosts).
pub struct Campaign {
    /// Labels in the order given; the first names the output directory.
    pub labels: Vec<String>,
    /// Complete runs, by label then K.
    pub runs: Vec<Run>,
    /// Summary rows, sorted as in `summary.csv`.
    pub rows: Vec<Row>,
    /// Side measurements.
    pub side: Side,
    /// `results/robustness/robustness.json`, when present.
    pub robustness: Option<RunReport>,
    /// `results/interop/*.csv` rows.
    pub interop: Vec<Interop>,
    /// Side-by-side comparisons with another implementation.
    pub reference: Vec<Reference>,
    /// `results/evolution/evolution.csv` (empty when absent).
    pub evolution: ProfileTable,
    /// `results/maintenance/maintenance.csv` (empty when absent).
    pub maintenance: ProfileTable,
    /// What each evolution range-growth case encodes (empty when absent).
    pub evolution_ranges: Vec<String>,
    /// `results/fuzz/*.json` (empty when absent).
    pub fuzz: Vec<crate::read::fuzz::Fuzz>,
    /// `results/valid/`, when present.
    pub valid: Option<crate::read::side::Valid>,
    /// `results/links/links.csv` (empty when absent).
    pub links: Vec<crate::read::links::LinkRow>,
    /// The paths the first label's `manifest.json` lists, when it has one.
    pub signed: Option<Vec<String>>,
    /// Missing optional inputs, reported on stderr and in `summary.md`.
    pub warnings: Vec<String>,
    /// Paired-ratio estimates, sorted by key.
    pub paired: Vec<Paired>,
    /// Instructions per event (empty without `instructions.csv`).
    pub instr: Vec<Instr>,
    /// Violated invariants, sorted.
    pub violations: Vec<Violation>,
    /// Per host and claim workload, what a "fastest" sentence may say.
    pub claims: Vec<Claim>,
    /// Wall time per label (labels whose runs record it).
    pub walls: Vec<Wall>,
    /// `campaign.json`'s `sequences` per label (labels that have it).
    pub sequences: Vec<LabelSequences>,
    /// Profiles measured apart, on the events they represent.
    pub apart: Vec<crate::model::apart::Apart>,
    /// The first label's `registry.json` (empty, with a warning, without it).
    pub registry: Vec<RegistryEntry>,
    /// The first label's `campaign.json`, when present.
    pub record: Option<CampaignRecord>,
    /// The primary host's figures composed under the stated mix.
    pub composed: Composed,
    /// How they compose `kind-other`: from its sub-strata, or as one.
    pub other: OtherKinds,
    /// The primary host's sensitivity grids (raw, zstd per event), when
    /// the campaign has `follow-lists.csv` and every stratum.
    pub grids: Vec<Grid>,
    /// The primary host's claims per kind stratum.
    pub kind_claims: Vec<KindClaim>,
    /// The claims of the label given to [`Campaign::with_holds_on`].
    pub holds_on: Option<HoldsOn>,
    index: BTreeMap<Key, usize>,
    paired_index: BTreeMap<PairKey, usize>,
}

impl Campaign {
    /// Reads every complete run of `labels` under `root`, and the robustness
    /// and interop results under `root/results`.
    pub fn load(root: &Path, labels: &[String]) -> Result<Self> {
        if labels.is_empty() {
            bail!("no campaign label given");
        }
        let runs = records::discover(root, labels)?;
        let samples = records::SAMPLES
            .scan(&runs)?
            .ok_or_else(|| anyhow::anyhow!("no run has samples.csv"))?;
        let paired = paired::read(&runs)?;
        let rows = summary::summarize(samples, &paired)?;
        let rounds = Rounds::read(&runs)?;
        let instr = instr::read(&runs)?;
        let violations = checks::check(&runs, &paired, &instr)?;
        let side = Side::read(&runs)?;
        let mut warnings = Vec::new();
        if instr.is_empty() {
            warnings
                .push("no run has instructions.csv: no instruction counts are reported".to_owned());
        }
        let LabelFiles {
            sequences,
            first: record,
            walls,
        } = per_label(root, labels, &runs, &mut warnings)?;
        let apart_records = record
            .as_ref()
            .map(|r| r.corpus.apart.clone())
            .unwrap_or_default();
        let apart = crate::model::apart::read(&runs, &apart_records)?;
        let registry = registry(root, &labels[0], &mut warnings)?;
        let robustness = crate::read::side::read_robustness(root, &mut warnings)?;
        let interop =
            crate::read::side::read_interop(&root.join("results/interop"), &mut warnings)?;
        let reference = crate::read::side::read_reference(root, &mut warnings)?;
        let evolution = ProfileTable::read(root, &binostr_records::csv::EVOLUTION, &mut warnings)?;
        let maintenance =
            ProfileTable::read(root, &binostr_records::csv::MAINTENANCE, &mut warnings)?;
        let fuzz = crate::read::fuzz::read_fuzz(root, &mut warnings)?;
        let links = crate::read::links::read(root, &mut warnings)?;
        let valid = crate::read::side::read_valid(root, &mut warnings)?;
        let evolution_ranges = crate::read::side::read_evolution_ranges(root)?;
        let signed = crate::read::signed::manifest_paths(root, &labels[0])?;
        let (composed, other, grids) =
            compose(&side, &rounds, &runs[0].host, &rows, record.as_ref());
        let index = rows.iter().enumerate().map(|(i, r)| (r.key(), i)).collect();
        let paired_index = paired
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let key = PairKey {
                    key: p.key(),
                    against: p.against.clone(),
                };
                (key, i)
            })
            .collect();
        let mut c = Campaign {
            labels: labels.to_vec(),
            runs,
            rows,
            side,
            robustness,
            interop,
            reference,
            evolution,
            maintenance,
            fuzz,
            links,
            valid,
            signed,
            evolution_ranges,
            warnings,
            paired,
            instr,
            violations,
            claims: Vec::new(),
            walls,
            sequences,
            apart,
            registry,
            record,
            composed,
            other,
            grids,
            kind_claims: Vec::new(),
            holds_on: None,
            index,
            paired_index,
        };
        c.claims = c.make_claims(&rounds);
        c.kind_claims = c.make_kind_claims(&rounds);
        Ok(c)
    }

    /// The paired time ratio to json of `profile` at `subset` (one thread)
    /// for `workload`.
    pub fn stratum_time(
        &self,
        profile: &str,
        subset: &str,
        workload: Workload,
    ) -> Option<Interval> {
        let host = self.primary_host();
        let w = workload.name();
        if profile == BASELINE {
            return self.row(host, w, profile, subset, 1).map(|_| Interval::ONE);
        }
        self.paired(host, w, profile, subset, 1, BASELINE)
            .map(Paired::interval)
    }

    /// Whether the primary host measured anything on `subset`.
    pub fn has_subset(&self, subset: &str) -> bool {
        let host = self.primary_host();
        self.side
            .sizes
            .iter()
            .any(|s| s.host == host && s.subset == subset)
            || self
                .rows
                .iter()
                .any(|r| r.host == host && r.subset == subset)
    }

    /// The corpus source of the first label (`generated`, `real`, or a file
    /// name), when its `campaign.json` is present.
    pub fn corpus_source(&self) -> Option<&str> {
        self.record.as_ref().map(|r| r.corpus.source.as_str())
    }

    /// The size of `profile` at `subset` on the primary host under `m`, as
    /// a percentage of json's under the same measure (`None` where either
    /// has no size row, or the measure is not measured).
    pub fn stratum_pct(&self, profile: &str, subset: &str, m: SizeMeasure) -> Option<f64> {
        let host = self.primary_host();
        let j = self.sizes(host, BASELINE, subset)?;
        let s = self.sizes(host, profile, subset)?;
        Some(m.bytes(s)? / m.bytes(j)? * 100.0)
    }

    fn make_claims(&self, rounds: &Rounds) -> Vec<Claim> {
        let mut out = Vec::new();
        for host in self.hosts() {
            for w in CLAIM_WORKLOADS {
                out.extend(self.claim_on(rounds, &host, w, "all"));
            }
        }
        out
    }

    /// The claim about `workload` on `host` and `subset`.
    fn claim_on(&self, rounds: &Rounds, host: &str, w: &str, subset: &str) -> Option<Claim> {
        let candidates: Vec<ProfileRatio> = self
            .profiles(host)
            .into_iter()
            .filter_map(|p| {
                let r = self.row(host, w, &p, subset, 1)?.ratio_json?;
                Some(ProfileRatio {
                    profile: p,
                    ratio: r.est,
                })
            })
            .collect();
        let excluded = self.excluded(host, w);
        claims::claim(rounds, host, w, subset, &candidates, &excluded)
    }

    /// The primary host's claims per measured kind stratum.
    fn make_kind_claims(&self, rounds: &Rounds) -> Vec<KindClaim> {
        let host = self.primary_host().to_owned();
        let mut out = Vec::new();
        for s in crate::model::mix::STRATA {
            for w in CLAIM_WORKLOADS {
                if let Some(claim) = self.claim_on(rounds, &host, w, s) {
                    out.push(KindClaim {
                        stratum: s.to_owned(),
                        claim,
                    });
                }
            }
        }
        out
    }

    /// Marks each claim with where it holds: on `other` (another label,
    /// typically the other corpus) and per kind stratum.
    pub fn with_holds_on(mut self, root: &Path, other: &str) -> Result<Self> {
        let o = Campaign::load(root, &[other.to_owned()])?;
        let host = o.primary_host().to_owned();
        self.holds_on = Some(HoldsOn {
            label: other.to_owned(),
            source: o.corpus_source().unwrap_or("unknown").to_owned(),
            claims: o.claims.into_iter().filter(|k| k.host == host).collect(),
            apart: o.apart.into_iter().map(|a| a.profile).collect(),
        });
        Ok(self)
    }

    /// The profiles a ratio invariant violation of `workload` (any subset or
    /// thread count) on `host` excludes from claims; for `size`, those whose
    /// bytes differ across runs.
    pub fn excluded(&self, host: &str, workload: &str) -> BTreeSet<String> {
        self.violations
            .iter()
            .filter(|v| {
                v.host == host
                    && v.workload == workload
                    && matches!(v.check, Check::Ratio | Check::Bytes)
            })
            .map(|v| v.profile.clone())
            .collect()
    }

    /// The claim about `workload` on `host`.
    pub fn claim(&self, host: &str, workload: &str) -> Option<&Claim> {
        self.claims
            .iter()
            .find(|c| c.host == host && c.workload == workload)
    }

    /// The paired ratio of one key over `against`.
    pub fn paired(
        &self,
        host: &str,
        workload: &str,
        profile: &str,
        subset: &str,
        threads: i64,
        against: &str,
    ) -> Option<&Paired> {
        let key = PairKey {
            key: Key::new(host, workload, profile, subset, threads),
            against: against.to_owned(),
        };
        self.paired_index.get(&key).map(|&i| &self.paired[i])
    }

    /// The paired ratio of one key at subset `all`, one thread, as
    /// `(estimate, ci_lo, ci_hi)`.
    pub fn ratio(
        &self,
        host: &str,
        workload: &str,
        profile: &str,
        against: &str,
    ) -> Option<Interval> {
        self.paired(host, workload, profile, "all", 1, against)
            .map(Paired::interval)
    }

    /// The paired ratio of one key at subset `all`, or at `mix` where the
    /// workload ran only there (the timed exchanges), one thread.
    pub fn paired_where_measured(
        &self,
        host: &str,
        workload: &str,
        profile: &str,
        against: &str,
    ) -> Option<&Paired> {
        ["all", "mix"]
            .iter()
            .find_map(|s| self.paired(host, workload, profile, s, 1, against))
    }

    /// Instructions per event of one key at subset `all`.
    pub fn instructions(&self, host: &str, workload: &str, profile: &str) -> Option<&Instr> {
        self.instr.iter().find(|i| {
            i.host == host && i.workload == workload && i.profile == profile && i.subset == "all"
        })
    }

    /// The host of the first label's first run: the paper tables, macros and
    /// plots describe this host (`summary.*` covers all hosts).
    pub fn primary_host(&self) -> &str {
        &self.runs[0].host
    }

    /// Every host, sorted.
    pub fn hosts(&self) -> Vec<String> {
        let set: BTreeSet<&String> = self.runs.iter().map(|r| &r.host).collect();
        set.into_iter().cloned().collect()
    }

    /// The runs measured on `host`.
    pub fn runs_on<'a>(&'a self, host: &'a str) -> impl Iterator<Item = &'a Run> + 'a {
        self.runs.iter().filter(move |r| r.host == host)
    }

    /// The summary row of one key.
    pub fn row(
        &self,
        host: &str,
        workload: &str,
        profile: &str,
        subset: &str,
        threads: i64,
    ) -> Option<&Row> {
        let key = Key::new(host, workload, profile, subset, threads);
        self.index.get(&key).map(|&i| &self.rows[i])
    }

    /// `median_ns` of one key at subset `all`, one thread.
    pub fn ns(&self, host: &str, workload: &str, profile: &str) -> Option<f64> {
        self.row(host, workload, profile, "all", 1)
            .map(|r| r.median_ns)
    }

    /// [`Campaign::ns`] at subset `all`, or at `mix` where the workload ran
    /// only there.
    pub fn ns_where_measured(&self, host: &str, workload: &str, profile: &str) -> Option<f64> {
        ["all", "mix"]
            .iter()
            .find_map(|s| self.row(host, workload, profile, s, 1))
            .map(|r| r.median_ns)
    }

    /// The profiles measured on `host` (no `reference` rows), sorted.
    pub fn profiles(&self, host: &str) -> Vec<String> {
        let set: BTreeSet<&String> = self
            .rows
            .iter()
            .filter(|r| r.host == host && r.profile != REFERENCE)
            .map(|r| &r.profile)
            .collect();
        set.into_iter().cloned().collect()
    }

    /// The largest `ingest-mt` thread count on `host`, if it ran.
    pub fn ingest_threads(&self, host: &str) -> Option<i64> {
        self.rows
            .iter()
            .filter(|r| {
                r.host == host && r.workload == Workload::IngestMt.name() && r.subset == "all"
            })
            .map(|r| r.threads)
            .max()
    }

    /// `ingest-mt` scaling of `profile` at the largest thread count N: 1 /
    /// the paired ratio of N threads over 1 thread (N: [`Campaign::ingest_threads`]),
    /// with its interval.
    pub fn ingest_scaling(&self, host: &str, profile: &str) -> Option<Interval> {
        let n = self.ingest_threads(host)?;
        let p = self.paired(
            host,
            Workload::IngestMt.name(),
            profile,
            "all",
            n,
            "1-thread",
        )?;
        Some(p.interval().recip())
    }

    /// The sizes of `profile` at `subset` on `host`.
    pub fn sizes(
        &self,
        host: &str,
        profile: &str,
        subset: &str,
    ) -> Option<&crate::read::sizes::Sizes> {
        self.side
            .sizes
            .iter()
            .find(|s| s.host == host && s.profile == profile && s.subset == subset)
    }

    /// Sizes of `profile` at `subset` on the primary host as a percentage
    /// of json's under the same measure, same subset, per column.
    pub fn size_pcts(&self, profile: &str, subset: &str) -> Option<SizeBytes> {
        let host = self.primary_host();
        let json = self.sizes(host, BASELINE, subset)?.bytes;
        let s = self.sizes(host, profile, subset)?;
        Some(s.bytes.pct_of(&json))
    }

    /// A short description of the runs on `host`: labels, run ids, commits.
    pub fn describe_host(&self, host: &str) -> String {
        let runs: Vec<String> = self.runs_on(host).map(Run::id).collect();
        let commits: BTreeSet<String> = self
            .runs_on(host)
            .map(|r| format!("{}{}", r.commit, if r.dirty { " (dirty)" } else { "" }))
            .collect();
        let commits: Vec<String> = commits.into_iter().collect();
        format!(
            "{} runs ({}); commit {}",
            runs.len(),
            runs.join(", "),
            commits.join(", ")
        )
    }
}

/// The composed figures, how they compose `kind-other`, and the
/// sensitivity grids of `host`.
fn compose(
    side: &Side,
    rounds: &Rounds,
    host: &str,
    rows: &[Row],
    record: Option<&CampaignRecord>,
) -> (Composed, OtherKinds, Vec<Grid>) {
    let profiles: BTreeSet<String> = rows
        .iter()
        .filter(|r| r.host == host && r.profile != REFERENCE)
        .map(|r| r.profile.clone())
        .collect();
    let profiles: Vec<String> = profiles.into_iter().collect();
    let mix = StatedMix::of(record.and_then(|r| r.mix.as_ref()));
    let src = crate::model::mix::SizeSource { side, host };
    let other = OtherKinds::of(&mix.mix, &src, rounds);
    let composed = Composed::new(side, rounds, host, &profiles, mix, |w| {
        (other.sized(w), other.timed(w))
    });
    let grids = sensitivity::MEASURES
        .iter()
        .filter_map(|&m| sensitivity::grid(&src, &composed.mix.mix, &other, &profiles, m))
        .collect();
    (composed, other, grids)
}

/// Per label: `campaign.json`'s sequences (and the first label's record)
/// and the wall time; a warning for a label with one run, without the file
/// or without a wall time.
fn per_label(
    root: &Path,
    labels: &[String],
    runs: &[Run],
    warnings: &mut Vec<String>,
) -> Result<LabelFiles> {
    let mut sequences = Vec::new();
    let mut first = None;
    let mut walls = Vec::new();
    for label in labels {
        let n = runs.iter().filter(|r| r.label == *label).count();
        if n < 2 {
            warnings.push(format!(
                "campaign {label} has {n} complete run: its cross-run ranges are 0 by construction, \
                 and every \"in every run\" claim rests on that one run"
            ));
        }
        let path = records::campaign_dir(root, label).join(binostr_records::files::CAMPAIGN);
        if path.exists() {
            let file = campaign_file::read(&path)?;
            sequences.push(LabelSequences {
                label: label.clone(),
                sequences: file.sequences.clone(),
            });
            if label == &labels[0] {
                first = Some(file);
            }
        } else {
            warnings.push(format!("{} is missing", path.display()));
        }
        match wall::wall(label, runs) {
            Some(w) => walls.push(w),
            None => warnings.push(format!(
                "campaign {label}: a run has no parseable observed.started/finished: no wall time"
            )),
        }
    }
    Ok(LabelFiles {
        sequences,
        first,
        walls,
    })
}

/// What [`per_label`] reads.
struct LabelFiles {
    /// The sequences per label.
    sequences: Vec<LabelSequences>,
    /// The first label's `campaign.json`.
    first: Option<CampaignRecord>,
    /// The walls.
    walls: Vec<Wall>,
}

/// `registry.json` of `label` (empty, with a warning, when it is missing).
fn registry(root: &Path, label: &str, warnings: &mut Vec<String>) -> Result<Vec<RegistryEntry>> {
    let registry_path = records::campaign_dir(root, label).join(REGISTRY);
    Ok(if registry_path.exists() {
        read_registry(&registry_path)?
    } else {
        warnings.push(format!(
            "{} is missing: no profile is known as JSON text in the transport headline",
            registry_path.display()
        ));
        Vec::new()
    })
}

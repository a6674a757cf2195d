//! What a "fastest" sentence may say (`docs/METHOD.md`).
//!
//! The leader of a workload is the profile with the lowest paired ratio to
//! `json` (subset `all`, one thread), among the profiles no invariant
//! excludes. It is *the fastest* only when, against every other candidate,
//! the 95% bootstrap interval of the per-round ratio leader / other (the two
//! passes of the same round, from `rounds.csv`) lies below 1 in every run.
//! Otherwise the leader and every candidate it does not resolve are *tied*,
//! within the largest point difference between them. A tied candidate is
//! *equivalent* to the leader when that interval lies within
//! [`stats::EQUIVALENCE_MARGIN`] of 1 in every run (an equivalence test);
//! the others are *undecided*.

use std::collections::BTreeSet;

use binostr_records::Workload;

use crate::model::paired::{Rounds, RunRatios};
use crate::model::stats;

/// The workloads a claim is made for.
pub const CLAIM_WORKLOADS: [&str; 5] = [
    Workload::Encode.name(),
    Workload::Decode.name(),
    Workload::DecodeId.name(),
    Workload::Validate.name(),
    Workload::Stream.name(),
];

/// A profile and a ratio (to json, or of a leader to it).
#[derive(Clone, Debug, PartialEq)]
pub struct ProfileRatio {
    /// Profile id.
    pub profile: String,
    /// The ratio.
    pub ratio: f64,
}

/// The claim about one workload on one host.
#[derive(Clone, Debug, PartialEq)]
pub struct Claim {
    /// Host id.
    pub host: String,
    /// Workload.
    pub workload: String,
    /// The profile with the lowest paired ratio to json.
    pub leader: String,
    /// Its paired ratio to json.
    pub leader_ratio: f64,
    /// Whether the leader is faster than every other candidate in every run.
    pub resolved: bool,
    /// Candidates the leader does not resolve, by ratio to json.
    pub tied: Vec<String>,
    /// The largest |other / leader - 1| over `tied`, in % (0 when none).
    pub tied_pct: f64,
    /// The members of `tied` the equivalence test shows equivalent to the
    /// leader (the rest are undecided).
    pub equivalent: Vec<String>,
    /// The closest resolved candidate and leader / it, when any.
    pub closest: Option<ProfileRatio>,
    /// Profiles left out because a row of theirs violates an invariant.
    pub excluded: Vec<String>,
}

impl Claim {
    /// The sentence `summary.md` states (profile ids in backticks).
    pub fn sentence(&self) -> String {
        let excluded = if self.excluded.is_empty() {
            String::new()
        } else {
            format!(
                " Left out for an invariant violation: {}.",
                self.excluded
                    .iter()
                    .map(|p| format!("`{p}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        if self.resolved {
            let closest = self.closest.as_ref().map_or(String::new(), |k| {
                format!(
                    " (closest: `{}`, paired ratio {})",
                    k.profile,
                    crate::fmt::fixed(k.ratio, 4)
                )
            });
            format!(
                "`{}` is the fastest {}: its paired ratio to every other profile has a 95% CI below 1 in every run{closest}.{excluded}",
                self.leader, self.workload
            )
        } else {
            let mut names = vec![format!("`{}`", self.leader)];
            names.extend(self.tied.iter().map(|p| format!("`{p}`")));
            format!(
                "{} are tied within {} % for {} (lowest point estimate: `{}`); no profile is faster than all others in every run. {}{excluded}",
                names.join(", "),
                crate::fmt::fixed(self.tied_pct, 1),
                self.workload,
                self.leader,
                self.equivalence()
            )
        }
    }

    /// The equivalence test's outcome, as a sentence.
    pub fn equivalence(&self) -> String {
        let margin = crate::fmt::fixed(stats::EQUIVALENCE_MARGIN * 100.0, 0);
        let n = self.tied.len();
        let undecided: Vec<String> = self
            .tied
            .iter()
            .filter(|p| !self.equivalent.contains(p))
            .map(|p| format!("`{p}`"))
            .collect();
        let tail = if undecided.is_empty() {
            String::new()
        } else {
            format!("; undecided: {}", undecided.join(", "))
        };
        format!(
            "Equivalence test (95% CI of the paired ratio to `{}` within {margin} % of 1 in every run): {} of {n} equivalent{tail}.",
            self.leader,
            self.equivalent.len()
        )
    }

    /// The leader and the tied profiles, in order.
    pub fn tied_set(&self) -> Vec<String> {
        std::iter::once(self.leader.clone())
            .chain(self.tied.iter().cloned())
            .collect()
    }
}

/// The claim for `workload` on `host` and `subset` among `candidates`
/// (each with its paired ratio to json), leaving out `excluded` profiles;
/// `None` without a candidate.
pub fn claim(
    rounds: &Rounds,
    host: &str,
    workload: &str,
    subset: &str,
    candidates: &[ProfileRatio],
    excluded: &BTreeSet<String>,
) -> Option<Claim> {
    let mut c: Vec<ProfileRatio> = candidates
        .iter()
        .filter(|k| !excluded.contains(&k.profile) && k.ratio.is_finite())
        .cloned()
        .collect();
    c.sort_by(|a, b| {
        a.ratio
            .total_cmp(&b.ratio)
            .then_with(|| a.profile.cmp(&b.profile))
    });
    let ProfileRatio {
        profile: leader,
        ratio: leader_ratio,
    } = c.first()?.clone();
    let mut tied = Vec::new();
    let mut equivalent = Vec::new();
    let mut tied_pct: f64 = 0.0;
    let mut closest: Option<ProfileRatio> = None;
    for ProfileRatio { profile: other, .. } in &c[1..] {
        let runs = rounds.pair(host, workload, subset, 1, &leader, other);
        let mut resolved = !runs.is_empty();
        let mut within = !runs.is_empty();
        let mut medians = Vec::new();
        for RunRatios { run, ratios } in &runs {
            let key = if subset == "all" {
                format!("claim|{host}|{run}|{workload}|{leader}|{other}")
            } else {
                format!("claim|{host}|{run}|{workload}|{subset}|{leader}|{other}")
            };
            let boot = stats::bootstrap_median_of_medians(
                std::slice::from_ref(ratios),
                stats::key_seed(&key),
                stats::RESAMPLES,
            );
            let ci = stats::ci95(&boot);
            resolved &= ci.hi < 1.0;
            within &= stats::within_margin(ci);
            medians.push(stats::median(ratios));
        }
        let est = stats::median(&medians);
        if resolved {
            if closest.as_ref().is_none_or(|k| est > k.ratio) {
                closest = Some(ProfileRatio {
                    profile: other.clone(),
                    ratio: est,
                });
            }
        } else {
            if within {
                equivalent.push(other.clone());
            }
            tied.push(other.clone());
            if est.is_finite() {
                tied_pct = tied_pct.max((1.0 / est - 1.0).abs() * 100.0);
            }
        }
    }
    Some(Claim {
        host: host.to_owned(),
        workload: workload.to_owned(),
        leader,
        leader_ratio,
        resolved: tied.is_empty(),
        tied,
        tied_pct,
        equivalent,
        closest,
        excluded: candidates
            .iter()
            .filter(|k| excluded.contains(&k.profile))
            .map(|k| k.profile.clone())
            .collect(),
    })
}

//! Facts the paper's prose states about inputs beside the timings: how long
//! each profile was fuzzed, which decoders accepted non-canonical input, the
//! registry's profiles and families, and what the signed manifest covers.

use std::collections::{BTreeMap, BTreeSet};

use binostr_records::robustness::{Class, Outcome};

use crate::model::campaign::Campaign;
use crate::model::stats::MinMax;
use crate::read::signed::SIDE_INPUTS;

/// The fuzzing records summarised.
#[derive(Clone, Debug, PartialEq)]
pub struct FuzzFacts {
    /// Profiles fuzzed.
    pub profiles: usize,
    /// Shortest and longest wall seconds.
    pub seconds: MinMax<f64>,
    /// Profiles per whole minutes fuzzed, longest first.
    pub by_minutes: Vec<MinutesFuzzed>,
    /// Distinct commits fuzzed, sorted.
    pub commits: Vec<String>,
    /// Fewest and most executions of one profile.
    pub executions: MinMax<u64>,
    /// Distinct settings, sorted.
    pub settings: Vec<FuzzSetting>,
    /// Profiles fuzzed on a tree with uncommitted changes.
    pub dirty: Vec<String>,
    /// Crashes recorded.
    pub crashes: usize,
}

/// The profiles fuzzed for the same whole minutes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MinutesFuzzed {
    /// Whole minutes.
    pub minutes: u64,
    /// The profiles.
    pub profiles: Vec<String>,
}

/// How fuzzing runs shared their host.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct FuzzSetting {
    /// Runs at a time, when recorded.
    pub jobs: Option<u64>,
    /// The host, when recorded.
    pub host: Option<String>,
}

/// The fuzzing records of `c`; `None` without any.
pub fn fuzz(c: &Campaign) -> Option<FuzzFacts> {
    if c.fuzz.is_empty() {
        return None;
    }
    let secs = c.fuzz.iter().map(|f| f.seconds);
    let min = secs.clone().fold(f64::INFINITY, f64::min);
    let max = secs.fold(f64::NEG_INFINITY, f64::max);
    let mut groups: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    for f in &c.fuzz {
        // Whole minutes: the records' seconds exceed the requested time.
        let minutes = (f.seconds / 60.0).floor() as u64;
        groups.entry(minutes).or_default().push(f.profile.clone());
    }
    Some(FuzzFacts {
        profiles: c.fuzz.len(),
        seconds: MinMax { min, max },
        by_minutes: groups
            .into_iter()
            .rev()
            .map(|(minutes, profiles)| MinutesFuzzed { minutes, profiles })
            .collect(),
        commits: c
            .fuzz
            .iter()
            .map(|f| f.commit.clone())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect(),
        executions: MinMax::of(c.fuzz.iter().map(|f| f.executions))
            .unwrap_or(MinMax { min: 0, max: 0 }),
        settings: c
            .fuzz
            .iter()
            .map(|f| FuzzSetting {
                jobs: f.jobs,
                host: f.host.clone(),
            })
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect(),
        dirty: c
            .fuzz
            .iter()
            .filter(|f| f.code_dirty)
            .map(|f| f.profile.clone())
            .collect(),
        crashes: c.fuzz.iter().map(|f| f.crashes.len()).sum(),
    })
}

/// One of our profiles that accepted non-canonical bytes in the robustness
/// suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NonCanonical {
    /// Profile id.
    pub profile: String,
    /// Whether the registry enables it.
    pub enabled: bool,
    /// Cases accepted non-canonically, over every class.
    pub total: u64,
    /// Per class with such cases.
    pub classes: Vec<ClassCases>,
}

/// One robustness class's non-canonical acceptances.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassCases {
    /// The class.
    pub class: Class,
    /// Cases accepted non-canonically.
    pub cases: u64,
    /// The kinds of the recorded findings (the case names without their
    /// offset; random mutations have none).
    pub kinds: Vec<String>,
}

/// Our robustness subjects with `accepted-noncanonical` cases, most first.
pub fn non_canonical(c: &Campaign) -> Vec<NonCanonical> {
    let mut out: Vec<NonCanonical> = c
        .robustness
        .iter()
        .flat_map(|r| &r.subjects)
        .filter(|s| s.ours)
        .filter_map(|s| {
            let classes: Vec<ClassCases> = s
                .classes
                .iter()
                .filter_map(|(&k, x)| {
                    let n = x.count(Outcome::AcceptedNonCanonical);
                    let kinds: BTreeSet<String> = x
                        .findings
                        .iter()
                        .filter(|f| f.outcome == Outcome::AcceptedNonCanonical)
                        .filter_map(|f| case_kind(k, &f.case))
                        .collect();
                    (n > 0).then(|| ClassCases {
                        class: k,
                        cases: n,
                        kinds: kinds.into_iter().collect(),
                    })
                })
                .collect();
            let total = classes.iter().map(|x| x.cases).sum();
            (total > 0).then(|| NonCanonical {
                profile: s.subject.clone(),
                enabled: c.registry.iter().any(|e| e.id == s.subject && e.enabled),
                total,
                classes,
            })
        })
        .collect();
    out.sort_by(|a, b| {
        b.total
            .cmp(&a.total)
            .then_with(|| a.profile.cmp(&b.profile))
    });
    out
}

/// `overlong-varint-at-35` -> `overlong-varint`; a random mutation's
/// numbered case names no kind.
fn case_kind(class: Class, case: &str) -> Option<String> {
    if class == Class::Mutation {
        return None;
    }
    let kind = case.find("-at-").map_or(case, |i| &case[..i]);
    Some(kind.to_owned())
}

/// The registry's enabled profiles, in registry order.
pub fn enabled(c: &Campaign) -> Vec<String> {
    c.registry
        .iter()
        .filter(|e| e.enabled)
        .map(|e| e.id.clone())
        .collect()
}

/// A registry family and its enabled profiles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Family {
    /// The family.
    pub name: String,
    /// Its enabled profiles, in registry order.
    pub profiles: Vec<String>,
}

/// The registry's families in first-appearance order, each with its enabled
/// profiles (families without one are left out).
pub fn families(c: &Campaign) -> Vec<Family> {
    let mut out: Vec<Family> = Vec::new();
    for e in c.registry.iter().filter(|e| e.enabled) {
        match out.iter_mut().find(|f| f.name == e.family) {
            Some(f) => f.profiles.push(e.id.clone()),
            None => out.push(Family {
                name: e.family.clone(),
                profiles: vec![e.id.clone()],
            }),
        }
    }
    out
}

/// What the first label's manifest covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signed {
    /// The directories of the files it lists (the campaign directory as
    /// one), sorted.
    pub dirs: Vec<String>,
    /// The side inputs it does not list.
    pub unsigned: Vec<&'static str>,
}

/// What the first label's manifest covers; `None` when the campaign has
/// no manifest.
pub fn signed(c: &Campaign) -> Option<Signed> {
    let paths = c.signed.as_ref()?;
    let campaign = format!("results/campaigns/{}", c.labels[0]);
    let mut dirs: BTreeSet<String> = BTreeSet::new();
    for p in paths {
        if p.starts_with(&format!("{campaign}/")) {
            dirs.insert(campaign.clone());
        } else if let Some((dir, _)) = p.rsplit_once('/') {
            dirs.insert(dir.to_owned());
        }
    }
    let unsigned = SIDE_INPUTS
        .into_iter()
        .filter(|d| !paths.iter().any(|p| p.starts_with(&format!("{d}/"))))
        .collect();
    Some(Signed {
        dirs: dirs.into_iter().collect(),
        unsigned,
    })
}

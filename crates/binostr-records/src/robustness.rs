//! `results/robustness/robustness.json`: what `binostr torture run` found
//! ([`RunReport`]), and the case directory's `manifest.json`
//! ([`CaseManifest`]) that it embeds. `docs/ROBUSTNESS.md` describes the
//! suite; the outcome and failure rules live here so that the suite and the
//! report count failures alike.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Where `binostr torture run` writes by default, relative to the repository.
pub const DIR: &str = "results/robustness";

/// The report's file name inside [`DIR`].
pub const FILE: &str = "robustness.json";

/// A class of hostile case; the report counts outcomes per class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Class {
    /// Every prefix of the golden encoding.
    Truncation,
    /// Seeded stacked bit flips, byte inserts and deletes, overwrites and
    /// length-field inflation of the golden and generated encodings.
    Mutation,
    /// At every offset of the golden: 4 or 8 bytes overwritten with `ff`,
    /// or a 10-byte maximal LEB128 varint inserted.
    LengthInflation,
    /// Invalid UTF-8 in the content and in a tag value.
    BadUtf8,
    /// Duplicate and unknown fields, a repeated record, trailing bytes.
    Fields,
    /// Over-long varints at every offset, and the format's own
    /// non-canonical forms (indefinite-length CBOR, wider heads, ...).
    NonCanonical,
    /// A few bytes declaring 2^32−1 or 2^64−1 bytes or elements.
    LengthBomb,
    /// 20,000- and 10,000,000-deep nested arrays and maps.
    NestingBomb,
}

impl Class {
    /// Every class, in report order.
    pub const ALL: [Class; 8] = [
        Class::Truncation,
        Class::Mutation,
        Class::LengthInflation,
        Class::BadUtf8,
        Class::Fields,
        Class::NonCanonical,
        Class::LengthBomb,
        Class::NestingBomb,
    ];

    /// The kebab-case name used in file names and reports.
    pub fn name(self) -> &'static str {
        match self {
            Class::Truncation => "truncation",
            Class::Mutation => "mutation",
            Class::LengthInflation => "length-inflation",
            Class::BadUtf8 => "bad-utf8",
            Class::Fields => "fields",
            Class::NonCanonical => "non-canonical",
            Class::LengthBomb => "length-bomb",
            Class::NestingBomb => "nesting-bomb",
        }
    }
}

/// How one case ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// The decoder returned an error.
    CleanError,
    /// Decoded and round-tripped (ours) or decoded (libraries).
    Accepted,
    /// Decoded by a deterministic profile, but re-encoding the event gives
    /// other bytes than the input (a non-canonical input was accepted, or
    /// the decoder changed the event silently: read the finding).
    #[serde(rename = "accepted-noncanonical")]
    AcceptedNonCanonical,
    /// Decoded to an event that does not re-encode to the same event.
    AcceptedLossy,
    /// Returned an error after a panic was caught inside the decoder.
    PanicContained,
    /// A panic escaped the decoder.
    Panic,
    /// The process overflowed its stack.
    StackOverflow,
    /// The process died from a signal or aborted.
    Signal,
    /// Killed after the timeout.
    Timeout,
    /// An allocation failed under the address-space limit.
    Oom,
}

impl Outcome {
    /// Every outcome, in report order.
    pub const ALL: [Outcome; 10] = [
        Outcome::CleanError,
        Outcome::Accepted,
        Outcome::AcceptedNonCanonical,
        Outcome::AcceptedLossy,
        Outcome::PanicContained,
        Outcome::Panic,
        Outcome::StackOverflow,
        Outcome::Signal,
        Outcome::Timeout,
        Outcome::Oom,
    ];

    /// A failure under the suite's rule.
    pub fn is_failure(self) -> bool {
        matches!(
            self,
            Outcome::Panic
                | Outcome::StackOverflow
                | Outcome::Signal
                | Outcome::Timeout
                | Outcome::Oom
        )
    }

    /// A failure of one of our profiles in a case of `class`: a failing
    /// outcome, or a `bad-utf8` case decoded at all (invalid UTF-8 accepted,
    /// which can only mean a silent change or a lenient string check).
    pub fn fails_ours(self, class: Class) -> bool {
        self.is_failure()
            || (class == Class::BadUtf8
                && matches!(
                    self,
                    Outcome::Accepted | Outcome::AcceptedNonCanonical | Outcome::AcceptedLossy
                ))
    }

    /// The kebab-case name, as the report writes it.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::CleanError => "clean-error",
            Outcome::Accepted => "accepted",
            Outcome::AcceptedNonCanonical => "accepted-noncanonical",
            Outcome::AcceptedLossy => "accepted-lossy",
            Outcome::PanicContained => "panic-contained",
            Outcome::Panic => "panic",
            Outcome::StackOverflow => "stack-overflow",
            Outcome::Signal => "signal",
            Outcome::Timeout => "timeout",
            Outcome::Oom => "oom",
        }
    }
}

/// What `torture generate` records in the case directory's `manifest.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseManifest {
    /// Seed of the mutations.
    pub seed: u64,
    /// Mutations per profile.
    pub mutations: u64,
    /// Depth of the recipe nesting bombs.
    pub bomb_depth: usize,
    /// The profiles cases were written for.
    pub profiles: Vec<String>,
}

/// One finding kept for the report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Finding {
    /// Case class.
    pub class: Class,
    /// Case name.
    pub case: String,
    /// What the subject did with the case.
    pub outcome: Outcome,
    /// Error, panic message or exit details.
    pub detail: String,
    /// The input, hex (first 64 bytes).
    pub input_hex: String,
}

/// Counts for one subject and class.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassCounts {
    /// Cases per outcome.
    pub outcomes: BTreeMap<Outcome, u64>,
    /// Largest peak RSS of an isolated case, KiB.
    pub peak_rss_kib: u64,
    /// Isolated cases over 64 MiB + 4 × input size.
    pub over_memory_bound: u64,
    /// The first findings (anything but clean errors and accepted round trips).
    pub findings: Vec<Finding>,
}

impl ClassCounts {
    /// All cases of the class.
    pub fn cases(&self) -> u64 {
        self.outcomes.values().sum()
    }

    /// Cases that ended with `outcome`.
    pub fn count(&self, outcome: Outcome) -> u64 {
        self.outcomes.get(&outcome).copied().unwrap_or(0)
    }

    /// Failing cases of the class for a subject that is `ours` (a profile,
    /// under [`Outcome::fails_ours`]) or a library (under
    /// [`Outcome::is_failure`]), plus isolated cases over the memory bound.
    pub fn failures(&self, class: Class, ours: bool) -> u64 {
        self.outcomes
            .iter()
            .filter(|(o, _)| {
                if ours {
                    o.fails_ours(class)
                } else {
                    o.is_failure()
                }
            })
            .map(|(_, n)| n)
            .sum::<u64>()
            + self.over_memory_bound
    }
}

/// One subject's row group.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubjectResult {
    /// Profile id, or `lib:<name>` for an upstream library.
    pub subject: String,
    /// Ours (failures fail the run) or an upstream library.
    pub ours: bool,
    /// The profile whose cases it ran.
    pub cases_of: String,
    /// Per class, in [`Class::ALL`] order.
    pub classes: BTreeMap<Class, ClassCounts>,
    /// Mutation cases run.
    pub mutations: u64,
    /// Seconds spent decoding them (one core).
    pub mutation_seconds: f64,
}

/// The whole report: `robustness.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunReport {
    /// The case directory's manifest.
    pub manifest: CaseManifest,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Child timeout, seconds.
    pub timeout_seconds: u64,
    /// Child address-space limit, MiB.
    pub mem_limit_mib: u64,
    /// Failures of our profiles (failing outcomes, invalid UTF-8 accepted,
    /// memory-bound violations).
    pub failures: u64,
    /// Where they are.
    pub failing: Vec<Failing>,
    /// Findings in libraries (failing outcomes).
    pub library_failures: u64,
    /// Our profiles, then library subjects, in report order.
    pub subjects: Vec<SubjectResult>,
}

impl RunReport {
    /// The classes some subject has, in [`Class::ALL`] order.
    pub fn classes(&self) -> Vec<Class> {
        Class::ALL
            .into_iter()
            .filter(|c| self.subjects.iter().any(|s| s.classes.contains_key(c)))
            .collect()
    }
}

/// Failing cases of our profiles in one subject, class and outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Failing {
    /// Subject id.
    pub subject: String,
    /// Case class.
    pub class: Class,
    /// The outcome, or `over-memory-bound`.
    pub outcome: String,
    /// How many cases of the class ended with this outcome.
    pub cases: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_their_serde_names() {
        for o in Outcome::ALL {
            assert_eq!(serde_json::to_value(o).unwrap(), o.name());
        }
        for c in Class::ALL {
            assert_eq!(serde_json::to_value(c).unwrap(), c.name());
        }
    }

    #[test]
    fn accepting_invalid_utf8_fails_only_ours() {
        for o in [
            Outcome::Accepted,
            Outcome::AcceptedNonCanonical,
            Outcome::AcceptedLossy,
        ] {
            assert!(o.fails_ours(Class::BadUtf8));
            assert!(!o.fails_ours(Class::Mutation));
            assert!(!o.is_failure());
        }
        assert!(!Outcome::CleanError.fails_ours(Class::BadUtf8));
        assert!(Outcome::Panic.fails_ours(Class::Truncation));
    }

    #[test]
    fn failures_count_failing_outcomes_and_the_memory_bound() {
        let counts = ClassCounts {
            outcomes: [
                (Outcome::CleanError, 5),
                (Outcome::Accepted, 6),
                (Outcome::StackOverflow, 2),
                (Outcome::PanicContained, 1),
                (Outcome::Oom, 3),
            ]
            .into_iter()
            .collect(),
            over_memory_bound: 4,
            ..ClassCounts::default()
        };
        assert_eq!(counts.cases(), 17);
        assert_eq!(counts.count(Outcome::CleanError), 5);
        assert_eq!(counts.count(Outcome::Panic), 0);
        assert_eq!(counts.failures(Class::Mutation, true), 9);
        assert_eq!(counts.failures(Class::BadUtf8, false), 9);
        assert_eq!(counts.failures(Class::BadUtf8, true), 15);
    }
}

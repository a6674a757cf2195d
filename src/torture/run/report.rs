//! What a run found: outcomes, per-class counts, the failing cells and the
//! Markdown report.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::torture::Class;

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

    /// The kebab-case name.
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

/// One finding kept for the report.
#[derive(Clone, Debug, Serialize, Deserialize)]
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
#[derive(Clone, Debug, Default, Serialize)]
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

/// One subject's row group.
#[derive(Clone, Debug, Serialize)]
pub struct SubjectResult {
    /// Subject id.
    pub subject: String,
    /// Ours (failures fail the run) or an upstream library.
    pub ours: bool,
    /// The profile whose cases it ran.
    pub cases_of: String,
    /// Per class.
    pub classes: BTreeMap<Class, ClassCounts>,
    /// Mutation cases run.
    pub mutations: u64,
    /// Seconds spent decoding them (one core).
    pub mutation_seconds: f64,
}

/// The whole report.
#[derive(Clone, Debug, Serialize)]
pub struct RunReport {
    /// The case directory's manifest.
    pub manifest: crate::torture::CaseManifest,
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
    /// Per subject.
    pub subjects: Vec<SubjectResult>,
}

/// Failing cases of our profiles in one subject, class and outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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

/// Every failing (subject, class, outcome) of our profiles under
/// [`Outcome::fails_ours`], plus isolated cases over the memory bound.
pub(super) fn failing_cells(subjects: &[SubjectResult]) -> Vec<Failing> {
    let mut out = Vec::new();
    for s in subjects.iter().filter(|s| s.ours) {
        for (&class, c) in &s.classes {
            let cell = |outcome: &str, cases| Failing {
                subject: s.subject.clone(),
                class,
                outcome: outcome.to_string(),
                cases,
            };
            for (o, &n) in &c.outcomes {
                if n > 0 && o.fails_ours(class) {
                    out.push(cell(o.name(), n));
                }
            }
            if c.over_memory_bound > 0 {
                out.push(cell("over-memory-bound", c.over_memory_bound));
            }
        }
    }
    out
}

/// The report for people: the run's settings, the failures, the outcome
/// legend and cases per subject, class and outcome.
pub fn render_markdown(r: &RunReport) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(s, "# Robustness\n");
    let _ = writeln!(
        s,
        "Seed {}, {} mutations per profile, nesting bombs {} deep; child timeout {} s, RLIMIT_AS {} MiB; {:.0} s wall clock.\n",
        r.manifest.seed,
        r.manifest.mutations,
        r.manifest.bomb_depth,
        r.timeout_seconds,
        r.mem_limit_mib,
        r.seconds
    );
    let _ = writeln!(
        s,
        "Failures of our profiles: **{}**. Failing outcomes in upstream libraries (findings, not run failures): **{}**.\n",
        r.failures, r.library_failures
    );
    for f in &r.failing {
        let _ = writeln!(
            s,
            "- FAILURE: `{}` {}: {} {}",
            f.subject,
            f.class.name(),
            f.cases,
            f.outcome
        );
    }
    if !r.failing.is_empty() {
        let _ = writeln!(s);
    }
    let _ = writeln!(
        s,
        "Outcomes: `clean-error` passes; `accepted` = our decoder's event re-encodes with the same profile and decodes back to itself (libraries: a value decoded); `accepted-noncanonical` = a deterministic profile accepted bytes it would not itself produce (a lenient decoder, or a silent change: see the findings); `accepted-lossy` = no round trip; `panic-contained` = an error returned after a panic was caught inside the decoder (the flexbuffers profile wraps its upstream reader; a panic=abort build would abort). Failures: `panic`, `stack-overflow`, `signal`, `timeout`, `oom`, any `accepted*` outcome of a `bad-utf8` case on our profiles (invalid UTF-8 accepted), and isolated cases over the memory bound (peak RSS > 64 MiB + 4 × input). Length and nesting bombs run one per child process (peak RSS shown); the other classes run in-process under `catch_unwind` in crash-tolerant batch children.\n"
    );
    let _ = write!(s, "| subject | class | cases |");
    for o in Outcome::ALL {
        let _ = write!(s, " {} |", o.name());
    }
    let _ = writeln!(s, " peak RSS MiB | over bound |");
    let _ = write!(s, "|---|---|---:|");
    for _ in Outcome::ALL {
        let _ = write!(s, "---:|");
    }
    let _ = writeln!(s, "---:|---:|");
    for sub in &r.subjects {
        for (class, cell) in &sub.classes {
            let n: u64 = cell.outcomes.values().sum();
            let _ = write!(s, "| {} | {} | {n} |", sub.subject, class.name());
            for o in Outcome::ALL {
                let v = cell.outcomes.get(&o).copied().unwrap_or(0);
                if v == 0 {
                    let _ = write!(s, " |");
                } else {
                    let _ = write!(s, " {v} |");
                }
            }
            let rss = if cell.peak_rss_kib > 0 {
                format!("{:.1}", cell.peak_rss_kib as f64 / 1024.0)
            } else {
                String::new()
            };
            let _ = writeln!(s, " {rss} | {} |", cell.over_memory_bound);
        }
    }
    let _ = writeln!(s, "\n## Mutation throughput (in-process, one core)\n");
    let _ = writeln!(
        s,
        "| subject | mutations | seconds | per second |\n|---|---:|---:|---:|"
    );
    for sub in r.subjects.iter().filter(|x| x.mutations > 0) {
        let _ = writeln!(
            s,
            "| {} | {} | {:.1} | {:.0} |",
            sub.subject,
            sub.mutations,
            sub.mutation_seconds,
            sub.mutations as f64 / sub.mutation_seconds.max(1e-9)
        );
    }
    let _ = writeln!(s, "\n## Findings (first few per subject and class)\n");
    for sub in &r.subjects {
        for (class, cell) in &sub.classes {
            for f in &cell.findings {
                let _ = writeln!(
                    s,
                    "- `{}` {} `{}`: **{}** — {}{}",
                    sub.subject,
                    class.name(),
                    f.case,
                    f.outcome.name(),
                    f.detail
                        .replace('\n', " ")
                        .chars()
                        .take(160)
                        .collect::<String>(),
                    if f.input_hex.is_empty() {
                        String::new()
                    } else {
                        format!(" (input `{}`)", f.input_hex)
                    }
                );
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_names_match_their_serde_names() {
        for o in Outcome::ALL {
            assert_eq!(serde_json::to_value(o).unwrap(), o.name());
        }
    }

    #[test]
    fn accepting_invalid_utf8_fails_the_run() {
        let mut classes = BTreeMap::new();
        let cell = |o: Outcome, n| ClassCounts {
            outcomes: [(Outcome::CleanError, 5), (o, n)].into_iter().collect(),
            ..ClassCounts::default()
        };
        classes.insert(Class::BadUtf8, cell(Outcome::AcceptedNonCanonical, 5));
        classes.insert(Class::Mutation, cell(Outcome::AcceptedNonCanonical, 9));
        classes.insert(Class::Fields, cell(Outcome::Accepted, 1));
        let ours = SubjectResult {
            subject: "msgpack".into(),
            ours: true,
            cases_of: "msgpack".into(),
            classes,
            mutations: 0,
            mutation_seconds: 0.0,
        };
        let lib = SubjectResult {
            subject: "lib:rmpv::Value".into(),
            ours: false,
            ..ours.clone()
        };
        assert_eq!(
            failing_cells(&[ours, lib]),
            vec![Failing {
                subject: "msgpack".into(),
                class: Class::BadUtf8,
                outcome: "accepted-noncanonical".into(),
                cases: 5,
            }]
        );
        for o in [Outcome::Accepted, Outcome::AcceptedLossy] {
            assert!(o.fails_ours(Class::BadUtf8));
            assert!(!o.fails_ours(Class::Mutation));
        }
        assert!(!Outcome::CleanError.fails_ours(Class::BadUtf8));
        assert!(Outcome::Panic.fails_ours(Class::Truncation));
    }
}

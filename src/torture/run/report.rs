//! What a run found: the failing cells and the Markdown report. The records
//! themselves ([`RunReport`] and its parts, the outcome rules) are shared
//! with `binostr-report` in `binostr_records::robustness`.

pub use binostr_records::robustness::{
    ClassCounts, Failing, Finding, Outcome, RunReport, SubjectResult,
};

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
            let n = cell.cases();
            let _ = write!(s, "| {} | {} | {n} |", sub.subject, class.name());
            for o in Outcome::ALL {
                let v = cell.count(o);
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
    use std::collections::BTreeMap;

    use super::*;
    use crate::torture::Class;

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
    }
}

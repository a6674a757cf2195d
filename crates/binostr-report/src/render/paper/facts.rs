//! The macros of [`crate::model::facts`]: fuzzing, non-canonical input,
//! the registry's profiles and families, the languages measured, and what
//! the signed manifest covers.

use binostr_records::robustness::Class;

use crate::fmt::fixed;
use crate::model::campaign::Campaign;
use crate::model::facts::{self, FuzzSetting, MinutesFuzzed};
use crate::model::languages;
use crate::render::names::tex_escape;

/// `(name, value)` of every macro this module defines.
pub(super) fn facts_macros(c: &Campaign) -> Vec<(String, String)> {
    let mut m: Vec<(String, String)> = Vec::new();
    let mut put = |name: &str, value: String| m.push((name.to_owned(), value));
    if let Some(f) = facts::fuzz(c) {
        put("FuzzProfiles", f.profiles.to_string());
        put("FuzzSecondsMin", fixed(f.seconds.min, 1));
        put("FuzzSecondsMax", fixed(f.seconds.max, 1));
        put("FuzzDurations", fuzz_durations(&f.by_minutes));
        let short: Vec<String> = f
            .by_minutes
            .iter()
            .skip(1)
            .flat_map(|g| g.profiles.clone())
            .collect();
        put("FuzzShortCount", short.len().to_string());
        put("FuzzShortProfiles", prof_list(&short));
        put("FuzzCommits", f.commits.len().to_string());
        put("FuzzCommitText", fuzz_commits(&f.commits));
        put("FuzzExecMin", grouped(f.executions.min));
        put("FuzzExecMax", grouped(f.executions.max));
        put("FuzzSetting", fuzz_setting(&f.settings));
        put("FuzzDirtyCount", f.dirty.len().to_string());
        put("FuzzDirtyProfiles", prof_list(&f.dirty));
        put("FuzzCrashes", f.crashes.to_string());
    }
    if c.robustness.is_some() {
        let nc = facts::non_canonical(c);
        put(
            "NonCanonicalCount",
            nc.iter().filter(|x| x.enabled).count().to_string(),
        );
        put("NonCanonicalList", non_canonical_list(&nc));
    }
    if !c.registry.is_empty() {
        let enabled = facts::enabled(c);
        put("ProfilesEnabled", enabled.len().to_string());
        put("ProfilesEnabledList", prof_list(&enabled));
        let disabled: Vec<String> = c
            .registry
            .iter()
            .filter(|e| !e.enabled)
            .map(|e| e.id.clone())
            .collect();
        put("ProfilesDisabledList", prof_list(&disabled));
        for f in facts::families(c) {
            put(
                &format!(
                    "ProfilesFamily{}",
                    crate::render::names::macro_suffix(&f.name)
                ),
                prof_list(&f.profiles),
            );
        }
        put(
            "ProfileFamilyItems",
            facts::families(c)
                .iter()
                .map(|family| {
                    let f = tex_escape(&family.name);
                    let items: Vec<String> = family
                        .profiles
                        .iter()
                        .map(|p| format!("\\ProfileNote{{{}}}", tex_escape(p)))
                        .collect();
                    format!("\\item \\FamilyTitle{{{f}}}: {}.", and_list(&items))
                })
                .collect::<Vec<_>>()
                .join("\n"),
        );
    }
    if !c.evolution_ranges.is_empty() {
        let cases: Vec<String> = c.evolution_ranges.iter().map(|w| tex_code(w)).collect();
        put("EvolutionRangeCount", cases.len().to_string());
        put("EvolutionRangeCases", and_list(&cases));
    }
    put(
        "PairedAgreePct",
        fixed(crate::model::resolution::RESOLVED_RANGE_PCT, 0),
    );
    let langs = languages::measured(c);
    put("LanguagesMeasured", and_list(&langs));
    put("LanguagesOther", and_list(&langs[1..]));
    put("LanguagesOtherCount", (langs.len() - 1).to_string());
    if let Some(facts::Signed { dirs, unsigned }) = facts::signed(c) {
        put(
            "SignedDirs",
            and_list(&dirs.iter().map(|d| tt(d)).collect::<Vec<_>>()),
        );
        put(
            "UnsignedInputs",
            and_list(&unsigned.iter().map(|d| tt(d)).collect::<Vec<_>>()),
        );
        put("UnsignedCount", unsigned.len().to_string());
        let dirs_tt = and_list(&dirs.iter().map(|d| tt(d)).collect::<Vec<_>>());
        let statement = if unsigned.is_empty() {
            format!(
                "Every number is regenerated from committed records hash-listed in a signed \
                 manifest ({dirs_tt}); the side-by-side timings among them come from a harness \
                 run on another host than the campaign."
            )
        } else {
            format!(
                "Every number is regenerated from committed records: {dirs_tt} are hash-listed \
                 in a signed manifest, while {} {} in no manifest; the side-by-side timings \
                 come from a harness run on another host than the campaign.",
                and_list(&unsigned.iter().map(|d| tt(d)).collect::<Vec<_>>()),
                if unsigned.len() == 1 { "is" } else { "are" }
            )
        };
        put("SignedStatement", statement);
        let speed = if unsigned.contains(&"results/speed") {
            "are in no manifest"
        } else {
            "are hash-listed in the signed manifest"
        };
        put("SpeedSigned", speed.to_owned());
    }
    m
}

/// `s` escaped, `` `x` `` in `\texttt{}`, `^` as a superscript.
fn tex_code(s: &str) -> String {
    s.split('`')
        .enumerate()
        .map(|(i, part)| {
            let e = tex_escape(part).replace("\\textasciicircum{}", "\\textsuperscript{}");
            let e = fix_superscripts(&e);
            if i % 2 == 1 {
                format!("\\texttt{{{e}}}")
            } else {
                e
            }
        })
        .collect()
}

/// `2\textsuperscript{}32` -> `2\textsuperscript{32}`.
fn fix_superscripts(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("\\textsuperscript{}") {
        out.push_str(&rest[..i]);
        rest = &rest[i + "\\textsuperscript{}".len()..];
        let n = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        out.push_str(&format!("\\textsuperscript{{{}}}", &rest[..n]));
        rest = &rest[n..];
    }
    out.push_str(rest);
    out
}

fn tt(dir: &str) -> String {
    format!("\\texttt{{{}/}}", tex_escape(dir))
}

/// `a`, `a and b`, `a, b and c`.
fn and_list<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => "none".to_owned(),
        [one] => one.as_ref().to_owned(),
        [init @ .., last] => format!(
            "{} and {}",
            init.iter()
                .map(AsRef::as_ref)
                .collect::<Vec<_>>()
                .join(", "),
            last.as_ref()
        ),
    }
}

fn prof_list(ids: &[String]) -> String {
    and_list(
        &ids.iter()
            .map(|p| format!("\\prof{{{}}}", tex_escape(p)))
            .collect::<Vec<_>>(),
    )
}

/// `9596` -> `9,596`.
fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// "one commit, `abc…`" or "N commits".
fn fuzz_commits(commits: &[String]) -> String {
    match commits {
        [one] => format!(
            "one commit, \\texttt{{{}}}",
            tex_escape(&one[..one.len().min(12)])
        ),
        many => format!("{} commits", many.len()),
    }
}

/// How the runs shared their host: "2 at a time on one host (…)".
fn fuzz_setting(settings: &[FuzzSetting]) -> String {
    match settings {
        [
            FuzzSetting {
                jobs: Some(jobs),
                host: Some(host),
            },
        ] => {
            format!("{jobs} at a time on one host, {}", tex_escape(host))
        }
        _ => format!("in {} settings of runs at a time and host", settings.len()),
    }
}

/// `n` with thousands grouped for LaTeX: `1{,}234{,}567`.
fn grouped(n: u64) -> String {
    thousands(n).replace(',', "{,}")
}

/// `18 profiles for 10 minutes each and 7 (\prof{a}, ...) for 2 minutes
/// each`: the largest-minutes group by count, every other one named.
fn fuzz_durations(groups: &[MinutesFuzzed]) -> String {
    let minutes = |m: u64| {
        if m == 1 {
            "1 minute".to_owned()
        } else {
            format!("{m} minutes")
        }
    };
    let parts: Vec<String> = groups
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let (m, ids) = (&g.minutes, &g.profiles);
            if i == 0 {
                let noun = if ids.len() == 1 {
                    "profile"
                } else {
                    "profiles"
                };
                format!("{} {noun} for {} each", ids.len(), minutes(*m))
            } else {
                format!(
                    "{} ({}) for {} each",
                    ids.len(),
                    prof_list(ids),
                    minutes(*m)
                )
            }
        })
        .collect();
    and_list(&parts)
}

/// `n` cases of class `k`, as counted prose.
fn class_count(k: Class, n: u64) -> String {
    let (one, many) = match k {
        Class::Mutation => ("random mutation", "random mutations"),
        Class::LengthInflation => ("inflated length", "inflated lengths"),
        Class::Fields => ("field case", "field cases"),
        Class::NonCanonical => ("non-canonical form", "non-canonical forms"),
        Class::Truncation => ("truncation", "truncations"),
        Class::BadUtf8 => ("invalid UTF-8 case", "invalid UTF-8 cases"),
        Class::LengthBomb => ("length bomb", "length bombs"),
        Class::NestingBomb => ("nesting bomb", "nesting bombs"),
    };
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

/// `\prof{p} (9,596: 9,584 random mutations, 12 inflated lengths, such as
/// \texttt{ff4})`, one per profile, disabled ones marked.
fn non_canonical_list(nc: &[facts::NonCanonical]) -> String {
    let items: Vec<String> = nc
        .iter()
        .map(|x| {
            let classes: Vec<String> = x
                .classes
                .iter()
                .map(|k| {
                    let mut s = class_count(k.class, k.cases);
                    if !k.kinds.is_empty() {
                        let kinds: Vec<String> = k
                            .kinds
                            .iter()
                            .map(|c| format!("\\texttt{{{}}}", tex_escape(c)))
                            .collect();
                        s.push_str(&format!(" such as {}", and_list(&kinds)));
                    }
                    s
                })
                .collect();
            format!(
                "\\prof{{{}}}{} ({}: {})",
                tex_escape(&x.profile),
                if x.enabled { "" } else { ", disabled" },
                thousands(x.total),
                classes.join("; ")
            )
        })
        .collect();
    and_list(&items)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_and_numbers_read_as_prose() {
        assert_eq!(and_list::<&str>(&[]), "none");
        assert_eq!(and_list(&["a"]), "a");
        assert_eq!(and_list(&["a", "b", "c"]), "a, b and c");
        assert_eq!(thousands(9596), "9,596");
        assert_eq!(thousands(995), "995");
        assert_eq!(thousands(1_000_000), "1,000,000");
    }

    #[test]
    fn code_and_powers_become_latex() {
        assert_eq!(
            tex_code("2^32 + 1, `v0`"),
            "2\\textsuperscript{32} + 1, \\texttt{v0}"
        );
    }

    #[test]
    fn fuzz_commits_and_counts_read_as_prose() {
        assert_eq!(
            fuzz_commits(&["0123456789abcdef0123".to_owned()]),
            "one commit, \\texttt{0123456789ab}"
        );
        assert_eq!(fuzz_commits(&["a".to_owned(), "b".to_owned()]), "2 commits");
        assert_eq!(grouped(7), "7");
        assert_eq!(grouped(1_234_567), "1{,}234{,}567");
        assert_eq!(grouped(100_000), "100{,}000");
        assert_eq!(
            fuzz_setting(&[FuzzSetting {
                jobs: Some(2),
                host: Some("2 x Xeon".to_owned())
            }]),
            "2 at a time on one host, 2 x Xeon"
        );
        assert_eq!(
            fuzz_setting(&[
                FuzzSetting {
                    jobs: Some(1),
                    host: None
                },
                FuzzSetting {
                    jobs: Some(2),
                    host: None
                }
            ]),
            "in 2 settings of runs at a time and host"
        );
    }

    #[test]
    fn fuzz_durations_name_every_shorter_profile() {
        let g = vec![
            MinutesFuzzed {
                minutes: 10,
                profiles: vec!["json".to_owned(), "bson".to_owned()],
            },
            MinutesFuzzed {
                minutes: 2,
                profiles: vec!["avro".to_owned()],
            },
        ];
        assert_eq!(
            fuzz_durations(&g),
            "2 profiles for 10 minutes each and 1 (\\prof{avro}) for 2 minutes each"
        );
    }
}

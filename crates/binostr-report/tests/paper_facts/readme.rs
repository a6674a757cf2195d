//! The README against the paper and the interop records.

use std::fs;

use std::collections::BTreeSet;

use binostr_report::model::languages::{LANGUAGES, Language, RUST};
use binostr_report::model::recommend::ROLES;
use binostr_report::read::inputs::interop_checks;
use binostr_report::read::registry::read_registry;
use binostr_report::read::side::split_csv;

use super::{campaign_profiles, macro_value, macros, paper_campaign, root};

/// Rows of a CSV of the paper's campaign's summary, by header name.
fn summary_rows(file: &str) -> Vec<std::collections::BTreeMap<String, String>> {
    let path = paper_campaign().join("summary").join(file);
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text
        .lines()
        .map(|l| split_csv(l).unwrap_or_else(|| panic!("{}: not CSV: {l}", path.display())));
    let head = lines.next().unwrap_or_default();
    lines
        .map(|cells| head.iter().cloned().zip(cells).collect())
        .collect()
}

/// `profile mode (deflater)` as `` `profile` (mode, deflater) ``.
fn candidate_words(label: &str) -> String {
    let p = label.split(' ').next().unwrap();
    format!("`{p}` {}", compression_words(label))
}

/// `profile mode (deflater)`'s compression: `(mode, deflater)`.
fn compression_words(label: &str) -> String {
    let mut parts = label.splitn(3, ' ').skip(1);
    let mode = parts.next().unwrap_or("");
    match parts.next() {
        Some(d) => format!("({mode}, {})", d.trim_matches(['(', ')'])),
        None => format!("({mode})"),
    }
}

/// The README's answer, one line per role, derived from the paper
/// campaign's `summary/scorecard.csv` (the pick) and, on the wire, its
/// `summary/cost.csv` (the costs), which must name the same profile.
fn readme_answer() -> Vec<String> {
    let baseline: BTreeSet<String> = read_registry(&paper_campaign().join("registry.json"))
        .unwrap()
        .into_iter()
        .filter(|e| e.family == "nostr-baseline")
        .map(|e| e.id)
        .collect();
    let (scores, costs) = (summary_rows("scorecard.csv"), summary_rows("cost.csv"));
    ROLES
        .iter()
        .map(|role| {
            let picks: BTreeSet<&str> = scores
                .iter()
                .filter(|r| r["role"] == role.id && r["pick"] == "true")
                .map(|r| r["profile"].as_str())
                .collect();
            assert_eq!(picks.len(), 1, "{}: scorecard picks {picks:?}", role.id);
            let pick = picks.into_iter().next().unwrap();
            let verdict = if pick == "json" {
                "keep JSON".to_owned()
            } else if baseline.contains(pick) {
                format!("keep JSON, parsed with `{pick}`")
            } else {
                format!("change to `{pick}`")
            };
            let Some(wire) = role.wire else {
                return format!("- **{}**: {verdict}.", role.name);
            };
            let c = costs
                .iter()
                .find(|r| r["role"] == wire.id())
                .unwrap_or_else(|| panic!("cost.csv has no {} row", wire.id()));
            let switch = c["switch"] == "yes";
            assert_eq!(
                c["pick"].split(' ').next(),
                Some(pick),
                "{}: cost.csv picks {}, the scorecard {pick}",
                role.id,
                c["pick"]
            );
            let cost = |side: &str| -> f64 {
                let col = match c["unit"].as_str() {
                    "dollars" => format!("{side}_usd_per_million"),
                    _ => format!("{side}_s_per_million"),
                };
                c[&col].parse().unwrap()
            };
            let (bin, json) = (cost("binary"), cost("json"));
            let (versus, per) = match c["unit"].as_str() {
                "dollars" => (
                    format!("${bin:.4} against ${json:.4}"),
                    format!(
                        "per million events served, at {} $/GB egress and {} $/core-hour",
                        c["egress_usd_per_gb"], c["cpu_usd_per_core_hour"]
                    ),
                ),
                _ => (
                    format!("{bin:.1} against {json:.1} s"),
                    format!("per million events published, at {} Mbit/s", c["link_mbit"]),
                ),
            };
            // The least saving within the intervals decides the switch.
            let pct: f64 = c["saving_pct_low"].parse().unwrap();
            if switch {
                format!(
                    "- **{}**: {verdict} {}: {versus} for {} {per}.",
                    role.name,
                    compression_words(&c["pick"]),
                    candidate_words(&c["json_candidate"])
                )
            } else {
                format!(
                    "- **{}**: {verdict} {}: the cheapest binary candidate, {}, saves {pct:.2} % \
                     ({versus} {per}), not more than the {} % threshold.",
                    role.name,
                    compression_words(&c["pick"]),
                    candidate_words(&c["binary_candidate"]),
                    c["switch_pct"]
                )
            }
        })
        .collect()
}

#[test]
fn candidates_are_put_in_words() {
    assert_eq!(
        candidate_words("cbor-packed deflate-ctx (zlib-1)"),
        "`cbor-packed` (deflate-ctx, zlib-1)"
    );
    assert_eq!(candidate_words("json none"), "`json` (none)");
}

/// The README states the answer: each role's pick as the paper's
/// campaign's scorecard.csv gives it, in role order, with the costs of
/// cost.csv on the wire.
#[test]
fn readme_states_the_scorecards_picks() {
    let want = readme_answer();
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let found: Vec<&str> = readme
        .lines()
        .skip_while(|l| !l.starts_with("**The answer**"))
        .skip_while(|l| !l.starts_with("- **"))
        .take_while(|l| l.starts_with("- **"))
        .collect();
    assert_eq!(
        found,
        want,
        "README.md's answer differs from the scorecard and cost.csv; it should read:\n{}",
        want.join("\n")
    );
}

/// `n` with a comma every three digits, as the README writes counts.
fn thousands(n: &str) -> String {
    let digits: Vec<char> = n.chars().collect();
    let mut out = String::new();
    for (i, d) in digits.iter().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(*d);
    }
    out
}

/// The README's counts that differ from `macros.tex`: the phrase each count
/// must appear in, when the README lacks it.
fn readme_count_mismatches(readme: &str, macros: &str) -> Vec<String> {
    [
        ("ProfilesEnabled", "It measures {} wire profiles"),
        ("CorpusEvents", "on the {} real events"),
    ]
    .into_iter()
    .map(|(name, phrase)| {
        let value = macro_value(macros, name).unwrap_or_else(|| panic!("\\{name}"));
        phrase.replace("{}", &thousands(&value))
    })
    .filter(|phrase| {
        !readme
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .contains(phrase)
    })
    .collect()
}

#[test]
fn readme_counts_are_checked_against_the_macros() {
    let macros = "\\newcommand{\\ProfilesEnabled}{25}\n\\newcommand{\\CorpusEvents}{8740}\n";
    let good = "It measures 25 wire\nprofiles; the paper's: on the 8,740 real events.";
    assert!(readme_count_mismatches(good, macros).is_empty());
    let bad = good.replace("25 wire", "24 wire");
    assert_eq!(
        readme_count_mismatches(&bad, macros),
        ["It measures 25 wire profiles"]
    );
    assert_eq!(thousands("10726000"), "10,726,000");
}

/// The README's counts of profiles and real events are the paper's.
#[test]
fn readme_states_the_papers_counts() {
    let macros = macros();
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let wrong = readme_count_mismatches(&readme, &macros);
    assert!(
        wrong.is_empty(),
        "README.md lacks {wrong:?} (paper/generated/macros.tex)"
    );
}

/// The README's sentences that call the real corpus relay traffic: a
/// sentence naming real events or the real corpus and "relay traffic"
/// without "not" before it.
fn calls_real_relay_traffic(readme: &str) -> Vec<String> {
    let flat = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    flat.split(". ")
        .filter(|s| {
            s.contains("real events") || s.contains("real corpus") || s.contains("real signed")
        })
        .filter(|s| {
            s.match_indices("relay traffic")
                .any(|(at, _)| !s[..at].trim_end().ends_with("not"))
        })
        .map(str::to_owned)
        .collect()
}

#[test]
fn relay_traffic_is_caught() {
    let bad = "The paper's: publication settings on the 8,740 real events of relay traffic.";
    assert_eq!(calls_real_relay_traffic(bad).len(), 1);
    let good = "On real signed events from public repositories' fixtures, not relay traffic.";
    assert!(calls_real_relay_traffic(good).is_empty());
}

/// The README says what the real corpus is (public repositories' files),
/// and never calls it relay traffic.
#[test]
fn readme_says_what_the_real_corpus_is() {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let wrong = calls_real_relay_traffic(&readme);
    assert!(
        wrong.is_empty(),
        "README.md calls the real corpus relay traffic: {wrong:?}"
    );
    let answer = readme
        .split("\n\n")
        .find(|p| p.starts_with("**The answer**"))
        .expect("README.md: no **The answer** paragraph");
    let flat = answer.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("public repositories' fixtures, seeds and feed caches"),
        "README.md's answer does not say where the real corpus comes from: {flat}"
    );
}

/// The harness languages (every language but Rust's own).
fn harness() -> impl Iterator<Item = &'static Language> {
    LANGUAGES.iter().filter(|l| l.id != RUST)
}

type Pairs = std::collections::BTreeSet<(String, String)>;

/// The (profile, language) pairs the README's interop bullet says hold:
/// `... in: LANGS for `p`, `q`; LANGS for `r`. Every other pair ...`, where
/// LANGS is "all four" or languages joined by ", " and " and ".
fn readme_interop_pairs(readme: &str) -> Result<Pairs, String> {
    let flat = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    let bullet = flat
        .split("- **interop**:")
        .nth(1)
        .ok_or("no `- **interop**:` bullet")?;
    let listed = bullet
        .split_once(" in: ")
        .ok_or("the interop bullet lists no pairs (`... in: LANGS for `profile`; ...`)")?
        .1;
    if !bullet.contains("Every other pair") {
        return Err("the interop bullet does not say what the other pairs are".into());
    }
    let listed = listed.split_once(". ").map_or(listed, |(l, _)| l);
    let mut pairs = Pairs::new();
    for group in listed.split("; ") {
        let (langs, profiles) = group
            .split_once(" for ")
            .ok_or_else(|| format!("`{group}`: no ` for `"))?;
        let langs: Vec<&str> = if langs == "all four" {
            harness().map(|l| l.name).collect()
        } else {
            langs.split(", ").flat_map(|l| l.split(" and ")).collect()
        };
        for lang in langs {
            let id = harness()
                .find(|l| l.name == lang)
                .map(|l| l.id)
                .ok_or_else(|| format!("`{lang}` is not a harness language"))?;
            for p in profiles.split('`').skip(1).step_by(2) {
                pairs.insert((p.to_owned(), id.to_owned()));
            }
        }
    }
    Ok(pairs)
}

/// The (profile, language) pairs where a library reads the vectors and
/// writes every one back byte for byte ([`InteropCheck::holds`]), registry
/// profiles only.
fn interop_pairs(profiles: &[String]) -> Pairs {
    let (_, checks) = interop_checks(&root()).unwrap();
    checks
        .iter()
        .filter(|c| c.holds() && harness().any(|l| l.id == c.language))
        .filter(|c| profiles.contains(&c.profile))
        .map(|c| (c.profile.clone(), c.language.clone()))
        .collect()
}

#[test]
fn interop_bullet_is_parsed() {
    let readme = "- **interop**: checked in: all four for `avro`; Python and \
                  JavaScript for `json`, `bencode`. Python reads `x`. Every other pair has none.";
    let pairs = readme_interop_pairs(readme).unwrap();
    assert_eq!(pairs.len(), 8);
    assert!(pairs.contains(&("bencode".into(), "js".into())));
    assert!(!pairs.contains(&("json".into(), "go".into())));
    let claim = "- **interop**: Python, JavaScript, Go and Kotlin read and write the same bytes;";
    assert!(readme_interop_pairs(claim).is_err());
}

/// The README's interop bullet names exactly the pairs that hold.
#[test]
fn readme_names_the_interop_pairs_that_hold() {
    let profiles = campaign_profiles();
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let said = readme_interop_pairs(&readme).unwrap_or_else(|e| panic!("README.md: {e}"));
    let held = interop_pairs(&profiles);
    let extra: Vec<_> = said.difference(&held).collect();
    let missing: Vec<_> = held.difference(&said).collect();
    assert!(
        extra.is_empty() && missing.is_empty(),
        "README.md's interop bullet: says {extra:?} hold, which checks-*.csv does not; \
         omits {missing:?}"
    );
}

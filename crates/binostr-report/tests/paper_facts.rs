//! The paper's sections state no fact by hand (`just paper-check` runs
//! this too):
//!
//! (a) no number outside a macro, except names (NIP-01, SHA-256), LaTeX
//!     lengths, references and the short allow-list [`ALLOWED`];
//! (b) no sentence names three or more profile ids or languages: such lists
//!     come from the registry and the interop results as macros;
//! (c) every table or file the text cites lies in a directory the
//!     campaign's signed manifest covers, or in one the text lists as
//!     unsigned (`\UnsignedInputs`);
//! (d) no sentence quotes two absolute times (`...Ns` macros): times are
//!     compared only as paired ratios from the same rounds;
//! (e) the README states the same picks and counts as the paper, what its
//!     real corpus is, and which interop pairs hold (`readme`);
//! (f) a percentage of json compares one compression mode with json in the
//!     same mode, and a table column's style and header name its cells'
//!     unit (`units`);
//! (g) the threats and the selection say how the paper's own campaign chose
//!     its events (`threats`).

#[path = "paper_facts/readme.rs"]
mod readme;
mod tex;
#[path = "paper_facts/threats.rs"]
mod threats;
#[path = "paper_facts/units.rs"]
mod units;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use binostr_report::model::languages::{LANGUAGES, NOT_MEASURED};
use binostr_report::read::registry::read_registry;
use tex::tex_files;

/// Numbers the prose may write, each with why; matched as exact text.
const ALLOWED: &[(&str, &str)] = &[
    (
        "$2^{32}-1$ or $2^{64}-1$",
        "the largest 32- and 64-bit lengths",
    ),
    ("kinds 0, 1, 3, 7 and 9735", "the NIP kinds the strata name"),
    ("kind~3", "follow lists (NIP-02)"),
    ("Kind~3", "follow lists (NIP-02)"),
    ("kind 1063", "NIP-94 file metadata"),
    ("32-byte", "NIP-01 field width"),
    ("64-byte", "NIP-01 field width"),
    ("4-byte", "the common length framing"),
    ("\\texttt{[0,", "NIP-01's serialisation"),
    (
        "below 512 bytes, 512\nbytes to 4\\,KiB, above 4\\,KiB",
        "the size subsets' bounds",
    ),
    ("95\\,\\%", "the confidence level of every interval"),
    ("below 1", "a ratio of 1 is parity"),
    ("excludes 1", "a ratio of 1 is parity"),
    ("axis cs:1,", "a ratio of 1 is parity"),
    ("FORCE\\_SOURCE\\_DATE=1", "an environment flag"),
    (
        "\\texttt{c72883a}",
        "the reference's commit (results/speed/README.md)",
    ),
    ("crates.io 0.3.0", "the upstream notepack version tested"),
];

/// Commands whose arguments are references or keys, not prose.
const KEY_COMMANDS: [&str; 12] = [
    "\\cite",
    "\\ref",
    "\\label",
    "\\input",
    "\\pv",
    "\\pvlet",
    "\\hexof",
    "\\ifless",
    "\\begin",
    "\\end",
    "\\setlength",
    "\\profnote",
];

/// `text` with each byte in `from..to` blanked, newlines kept.
fn blank(text: &mut [u8], from: usize, to: usize) {
    for b in &mut text[from..to] {
        if *b != b'\n' {
            *b = b' ';
        }
    }
}

/// The end of the balanced group opening at `at` (`{` or `[`), exclusive.
fn group_end(text: &[u8], at: usize) -> usize {
    let (open, close) = if text[at] == b'[' {
        (b'[', b']')
    } else {
        (b'{', b'}')
    };
    let mut depth = 0;
    for (i, &b) in text.iter().enumerate().skip(at) {
        if b == open {
            depth += 1;
        } else if b == close {
            depth -= 1;
            if depth == 0 {
                return i + 1;
            }
        }
    }
    text.len()
}

/// `text` without comments, verbatim, key arguments, table options and
/// numeric comparisons, each blanked in place.
fn prose(text: &str) -> String {
    let mut t = text.as_bytes().to_vec();
    // Comments: an unescaped % to the end of the line.
    let mut i = 0;
    while i < t.len() {
        if t[i] == b'%' && (i == 0 || t[i - 1] != b'\\') {
            let end = t[i..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(t.len(), |n| i + n);
            blank(&mut t, i, end);
            i = end;
        }
        i += 1;
    }
    let s = String::from_utf8(t.clone()).unwrap();
    for (open, close) in [("\\begin{verbatim}", "\\end{verbatim}"), ("\\verb|", "|")] {
        let mut from = 0;
        while let Some(a) = s[from..].find(open).map(|a| a + from) {
            let b = s[a + open.len()..]
                .find(close)
                .map_or(s.len(), |b| a + open.len() + b);
            blank(&mut t, a, b + close.len().min(s.len() - b));
            from = b;
        }
    }
    // Key commands: every [..] and {..} argument that follows.
    for cmd in KEY_COMMANDS
        .iter()
        .chain(&["\\pgfplotstabletypeset", "\\csvtypeset"])
    {
        let mut from = 0;
        while let Some(a) = s[from..].find(cmd).map(|a| a + from) {
            let mut j = a + cmd.len();
            if t.get(j).is_some_and(u8::is_ascii_alphabetic) {
                from = j;
                continue;
            }
            // \pgfplotstabletypeset keeps its file argument for check (c).
            let keep_last = cmd.ends_with("typeset");
            while j < t.len()
                && (t[j] == b'{' || t[j] == b'[' || t[j] == b'\\' && t[j + 1] == b'\\')
            {
                if t[j] == b'\\' {
                    j += 1;
                    continue;
                }
                let end = group_end(&t, j);
                if !(keep_last && t[j] == b'{') {
                    blank(&mut t, j, end);
                }
                j = end;
            }
            from = j;
        }
    }
    // \ifnum\X>0: a test, not a figure.
    let s2 = String::from_utf8(t.clone()).unwrap();
    let mut from = 0;
    while let Some(a) = s2[from..].find("\\ifnum").map(|a| a + from) {
        let end = s2[a..]
            .find(char::is_whitespace)
            .map_or(s2.len(), |n| a + n);
        blank(&mut t, a, end);
        from = end;
    }
    String::from_utf8(t).unwrap()
}

const NUMBER_WORDS: [&str; 12] = [
    "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "twenty",
    "hundred",
];

/// Hand-written numbers in `text` (after [`prose`]), with their line.
fn bare_numbers(text: &str) -> Vec<(usize, String)> {
    let mut t = prose(text).into_bytes();
    let s = String::from_utf8(t.clone()).unwrap();
    for (phrase, _) in ALLOWED.iter() {
        let mut from = 0;
        while let Some(a) = s[from..].find(phrase).map(|a| a + from) {
            blank(&mut t, a, a + phrase.len());
            from = a + phrase.len();
        }
    }
    let s = String::from_utf8(t).unwrap();
    let b = s.as_bytes();
    let line = |at: usize| s[..at].matches('\n').count() + 1;
    let mut found = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() {
            let start = i;
            while i < b.len()
                && (b[i].is_ascii_digit()
                    || matches!(b[i], b',' | b'.') && b.get(i + 1).is_some_and(u8::is_ascii_digit))
            {
                i += 1;
            }
            let before = start.checked_sub(1).map(|k| b[k]);
            let name = before.is_some_and(|c| c.is_ascii_alphabetic())
                || (before == Some(b'-') && start >= 2 && b[start - 2].is_ascii_alphanumeric())
                || b.get(i).is_some_and(u8::is_ascii_alphabetic);
            if !name {
                found.push((line(start), s[start..i].to_owned()));
            }
            continue;
        }
        if b[i].is_ascii_alphabetic() && (i == 0 || !b[i - 1].is_ascii_alphabetic()) {
            let start = i;
            while i < b.len() && b[i].is_ascii_alphabetic() {
                i += 1;
            }
            let word = s[start..i].to_ascii_lowercase();
            if NUMBER_WORDS.contains(&word.as_str()) {
                found.push((line(start), s[start..i].to_owned()));
            }
            continue;
        }
        i += 1;
    }
    found
}

/// The sentences of `text` (split on [`prose`], which keeps offsets), as
/// byte ranges with their first line.
fn sentences(text: &str) -> Vec<(usize, std::ops::Range<usize>)> {
    let s = prose(text);
    let ends = |i: usize| {
        let rest = &s[i..];
        rest.starts_with(". ")
            || rest.starts_with(".\n")
            || rest.starts_with("\n\n")
            || rest.starts_with("\\item")
    };
    let mut out = Vec::new();
    let mut start = 0;
    for i in 0..=s.len() {
        if i < s.len() && !(s.is_char_boundary(i) && ends(i)) {
            continue;
        }
        // The line of the first word: past the previous sentence's period.
        let lead = s[start..i].len()
            - s[start..i]
                .trim_start_matches(|c: char| c == '.' || c.is_whitespace())
                .len();
        out.push((s[..start + lead].matches('\n').count() + 1, start..i));
        start = i;
    }
    out
}

/// Sentences of `text` (after [`prose`]) naming three or more of `names`
/// (whole words, `\prof{}` included), with their line and the names.
fn hand_lists(text: &str, names: &[String]) -> Vec<(usize, Vec<String>)> {
    let s = prose(text);
    let mut found = Vec::new();
    for (line, range) in sentences(text) {
        let sentence = &s[range];
        let named: BTreeSet<&String> = names
            .iter()
            .filter(|n| {
                sentence.match_indices(n.as_str()).any(|(a, _)| {
                    let word = |c: char| c.is_ascii_alphanumeric() || c == '-';
                    !sentence[..a].ends_with(word) && !sentence[a + n.len()..].starts_with(word)
                })
            })
            .collect();
        if named.len() >= 3 {
            found.push((line, named.into_iter().cloned().collect()));
        }
    }
    found
}

/// Whether a macro name is an absolute time on one host (`IdVerifyNs`,
/// `DecodeNsJson`): such values drift between runs and hosts.
fn absolute_time(name: &str) -> bool {
    name.ends_with("Ns")
        || name
            .match_indices("Ns")
            .any(|(i, _)| name[i + 2..].starts_with(|c: char| c.is_ascii_uppercase()))
}

/// Sentences of `text` that quote two or more absolute times (macros, or
/// `\pv{..Ns}{..}` lookups), with their line and the macro names: times are
/// compared only as paired ratios, timed in the same rounds.
fn time_pairs(text: &str) -> Vec<(usize, Vec<String>)> {
    let mut uncommented = String::new();
    for l in text.split_inclusive('\n') {
        let cut = l
            .char_indices()
            .find(|&(i, c)| c == '%' && !l[..i].ends_with('\\'))
            .map_or(l.len(), |(i, _)| i);
        uncommented.push_str(&l[..cut]);
        uncommented.push_str(&" ".repeat(l[cut..].trim_end_matches('\n').len()));
        if l.ends_with('\n') && cut < l.len() {
            uncommented.push('\n');
        }
    }
    let mut found = Vec::new();
    for (line, range) in sentences(text) {
        let sentence = &uncommented[range];
        let mut times = Vec::new();
        for (i, _) in sentence.match_indices('\\') {
            let name: String = sentence[i + 1..]
                .chars()
                .take_while(char::is_ascii_alphabetic)
                .collect();
            let name = if name == "pv" || name == "pvlet" {
                let rest = &sentence[i + 1 + name.len()..];
                let rest = rest.trim_start_matches(|c: char| c == '\\' || c.is_ascii_alphabetic());
                rest.strip_prefix('{')
                    .and_then(|r| r.split('}').next())
                    .unwrap_or_default()
                    .to_owned()
            } else {
                name
            };
            if absolute_time(&name) {
                times.push(name);
            }
        }
        if times.len() >= 2 {
            found.push((line, times));
        }
    }
    found
}

/// Files `text` cites: `generated/X` table inputs and `\texttt{}` paths
/// under `results/` or `paper/`, as paths from the repository root.
fn cited(text: &str) -> Vec<String> {
    let s = prose(text);
    let mut out = Vec::new();
    for cmd in [
        "\\pgfplotstabletypeset",
        "\\csvtypeset",
        "table[",
        "table {",
    ] {
        let mut from = 0;
        while let Some(a) = s[from..].find(cmd).map(|a| a + from) {
            let rest = &s[a..];
            let Some(open) = rest.find("]{").map(|n| n + 1).or_else(|| rest.find('{')) else {
                break;
            };
            let close = rest[open..].find('}').map_or(rest.len(), |n| open + n);
            let arg = rest[open + 1..close].trim();
            if !arg.is_empty() && !arg.starts_with('\\') {
                out.push(format!("paper/{arg}"));
            }
            from = a + close.max(1);
        }
    }
    let mut from = 0;
    while let Some(a) = s[from..].find("\\texttt{results/").map(|a| a + from) {
        let start = a + "\\texttt{".len();
        let end = s[start..].find('}').map_or(s.len(), |n| start + n);
        out.push(s[start..end].to_owned());
        from = end;
    }
    out.sort();
    out.dedup();
    out
}

/// The cited paths of `cites` outside `covered` directories.
fn uncovered(cites: &[String], covered: &[String]) -> Vec<String> {
    cites
        .iter()
        .filter(|c| {
            !covered
                .iter()
                .any(|d| c.starts_with(&format!("{d}/")) || *c == d)
        })
        .cloned()
        .collect()
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `paper/generated/macros.tex`.
fn macros() -> String {
    fs::read_to_string(root().join("paper/generated/macros.tex")).unwrap()
}

/// The paper's campaign (`\CampaignLabel`).
fn paper_label() -> String {
    macro_value(&macros(), "CampaignLabel").expect("\\CampaignLabel")
}

/// The paper's campaign directory.
fn paper_campaign() -> PathBuf {
    root().join("results/campaigns").join(paper_label())
}

/// `file` of the paper's campaign, parsed.
fn campaign_json(file: &str) -> serde_json::Value {
    let path = paper_campaign().join(file);
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The profile ids of the paper's campaign's registry.
fn campaign_profiles() -> Vec<String> {
    read_registry(&paper_campaign().join("registry.json"))
        .unwrap()
        .into_iter()
        .map(|e| e.id)
        .collect()
}

/// The value of `\newcommand{\NAME}{...}` in `macros.tex`.
fn macro_value(macros: &str, name: &str) -> Option<String> {
    let head = format!("\\newcommand{{\\{name}}}{{");
    let line = macros.lines().find(|l| l.starts_with(&head))?;
    Some(line[head.len()..line.len() - 1].to_owned())
}

fn sections() -> Vec<(PathBuf, String)> {
    let files = tex_files(&root().join("paper/sections"));
    assert!(files.len() > 5, "no paper sections");
    files
        .into_iter()
        .map(|f| {
            let text = fs::read_to_string(&f).unwrap();
            (f, text)
        })
        .collect()
}

#[test]
fn scanner_finds_bare_numbers_and_spares_names() {
    let ok = "NIP-01 and BIP-340 over SHA-256, UTF-8, secp256k1; \\cite{rfc8949} \
              \\ref{sec:x2} \\label{t1} \\setlength{\\tabcolsep}{4pt} 95\\,\\% % 10 in a comment\n\
              \\ifless{\\X}{0.5}{a}{b} \\ifnum\\ApartCount>0 x\\fi \\pv{DecodeRatio}{event2}\n\
              \\begin{verbatim}just campaign L 3\\end{verbatim} \\verb|\\u00XX|";
    assert_eq!(bare_numbers(ok), vec![]);
    let bad = "fuzzed for ten minutes\nin 24 profiles, 1.5 times, 9,596 cases";
    assert_eq!(
        bare_numbers(bad),
        vec![
            (1, "ten".to_owned()),
            (2, "24".to_owned()),
            (2, "1.5".to_owned()),
            (2, "9,596".to_owned())
        ]
    );
}

#[test]
fn scanner_finds_hand_written_lists() {
    let names: Vec<String> = ["json", "avro", "bson", "Python", "Go", "Kotlin"]
        .map(str::to_owned)
        .to_vec();
    let ok = "\\prof{json} and \\prof{avro} differ. Go and \\LanguagesOther{} read it. \
              A json-like bson";
    assert_eq!(hand_lists(ok, &names), vec![]);
    let bad = "First. Then \\prof{json}, \\prof{avro} and \\prof{bson} lead.\n\
               Python, Go and Kotlin read it.";
    let found = hand_lists(bad, &names);
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(found[0].1, ["avro", "bson", "json"]);
    assert_eq!(found[1].1, ["Go", "Kotlin", "Python"]);
}

#[test]
fn scanner_finds_two_absolute_times_in_a_sentence() {
    let ok = "Matching takes \\FilterEventNs\\,ns; JSON costs \\FilterJsonOverEvent{} times that. \
              Decode of json takes \\DecodeNsJson\\,ns (ratio \\DecodeRatioJson % not \\CloneNs here\n).";
    assert_eq!(time_pairs(ok), vec![]);
    let bad = "First.\nMatching takes \\FilterEventNs\\,ns, JSON \\FilterJsonNs\\,ns. \
               Then \\pv{DecodeNs}{avro} against \\DecodeNsJson.";
    let found = time_pairs(bad);
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(
        found[0],
        (
            2,
            vec!["FilterEventNs".to_owned(), "FilterJsonNs".to_owned()]
        )
    );
    assert_eq!(found[1].1, ["DecodeNs", "DecodeNsJson"]);
    assert!(!absolute_time("Nsec") && !absolute_time("Nostr") && absolute_time("SelectNsEvent"));
}

#[test]
fn scanner_finds_uncovered_sources() {
    let text = "\\pgfplotstabletypeset[columns={a}]{generated/sizes.csv} \
                \\csvtypeset[x]{profiles.csv} (\\texttt{results/speed/side-by-side.jsonl}, \
                \\texttt{results/campaigns/L/summary.md})";
    let cites = cited(text);
    assert_eq!(
        cites,
        [
            "paper/generated/sizes.csv",
            "paper/profiles.csv",
            "results/campaigns/L/summary.md",
            "results/speed/side-by-side.jsonl"
        ]
    );
    let covered = [
        "paper/generated".to_owned(),
        "results/campaigns/L".to_owned(),
    ];
    assert_eq!(
        uncovered(&cites, &covered),
        ["paper/profiles.csv", "results/speed/side-by-side.jsonl"]
    );
}

#[test]
fn sections_write_no_number_by_hand() {
    let mut bad = Vec::new();
    for (f, text) in sections() {
        for (line, n) in bare_numbers(&text) {
            bad.push(format!("{}:{line}: {n}", f.display()));
        }
    }
    assert!(
        bad.is_empty(),
        "numbers outside a macro (generate them, or allow-list a name in paper_facts.rs):\n{}",
        bad.join("\n")
    );
}

#[test]
fn sections_list_no_profiles_or_languages_by_hand() {
    let mut names = campaign_profiles();
    assert!(names.len() > 3, "registry.json lists no profiles");
    let mut languages: Vec<String> = LANGUAGES.iter().map(|l| l.name.to_owned()).collect();
    languages.extend(
        NOT_MEASURED
            .iter()
            .map(|u| u.why.split(':').next().unwrap().to_owned()),
    );
    let mut bad = Vec::new();
    for (f, text) in sections() {
        for list in [&mut names, &mut languages] {
            for (line, named) in hand_lists(&text, list) {
                bad.push(format!("{}:{line}: {}", f.display(), named.join(", ")));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "hand-written lists (use \\ProfilesEnabledList, \\ProfileFamilyItems, \\LanguagesMeasured, ...):\n{}",
        bad.join("\n")
    );
}

#[test]
fn sections_compare_times_only_as_paired_ratios() {
    let mut bad = Vec::new();
    for (f, text) in sections() {
        for (line, names) in time_pairs(&text) {
            bad.push(format!("{}:{line}: {}", f.display(), names.join(", ")));
        }
    }
    assert!(
        bad.is_empty(),
        "sentences quoting two absolute times (ns drift between runs: compare with a paired ratio macro):\n{}",
        bad.join("\n")
    );
}

#[test]
fn sections_cite_only_signed_or_declared_sources() {
    let (macros, label) = (macros(), paper_label());
    let manifest = campaign_json("manifest.json");
    let listed: Vec<&str> = manifest["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    // The manifest covers its campaign, and the directories of the other
    // files it lists (paper/generated/ and the side inputs, when the paper
    // was built from it: src/manifest/covered.rs).
    let mut covered = vec![format!("results/campaigns/{label}")];
    for p in &listed {
        if let Some((dir, _)) = p.rsplit_once('/')
            && !covered.iter().any(|c| c == dir)
        {
            covered.push(dir.to_owned());
        }
    }
    let all: String = sections().into_iter().map(|(_, t)| t).collect();
    let unsigned = macro_value(&macros, "UnsignedInputs").unwrap_or_default();
    if all.contains("\\UnsignedInputs") || all.contains("\\SignedStatement") {
        covered.extend(unsigned.split("\\texttt{").skip(1).map(|d| {
            d.split('}')
                .next()
                .unwrap()
                .trim_end_matches('/')
                .to_owned()
        }));
    }
    let mut bad = Vec::new();
    for (f, text) in sections() {
        for c in uncovered(&cited(&text), &covered) {
            bad.push(format!("{}: {c}", f.display()));
        }
    }
    assert!(
        bad.is_empty(),
        "cited files in no signed directory and not in \\UnsignedInputs ({}):\n{}",
        covered.join(", "),
        bad.join("\n")
    );
}

#[test]
fn every_allowance_is_used() {
    let all: String = sections().into_iter().map(|(_, t)| t).collect();
    let unused: Vec<&str> = ALLOWED
        .iter()
        .map(|(p, _)| *p)
        .filter(|p| !all.contains(p))
        .collect();
    assert!(unused.is_empty(), "drop these from ALLOWED: {unused:?}");
}

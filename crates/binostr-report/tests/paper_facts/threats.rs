//! What the paper says about how its events were chosen, against the
//! paper's own campaign record.

use std::fs;

use super::{campaign_json, macro_value, macros, paper_label, root};

/// `\Name` and `\Name{}` replaced by their `macros.tex` values.
fn expand(text: &str, macros: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let tail = &rest[at + 1..];
        let len = tail
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(tail.len());
        let name = &tail[..len];
        match macro_value(macros, name) {
            Some(v) if len > 0 => {
                out.push_str(&v);
                rest = tail[len..].strip_prefix("{}").unwrap_or(&tail[len..]);
            }
            _ => {
                out.push('\\');
                rest = tail;
            }
        }
    }
    out.push_str(rest);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The claims of `text` that a campaign over `source` with `seed`
/// contradicts.
fn contradictions(text: &str, source: &str, seed: Option<u64>) -> Vec<&'static str> {
    let mut bad = Vec::new();
    let says = |s: &str| text.contains(s);
    if source != "generated" && (says("selection is generated") || says("generated events")) {
        bad.push("says the measured events are generated");
    }
    if source != "real" && (says("real signed events taken whole") || says("real corpus whole")) {
        bad.push("says the measured events are the real corpus");
    }
    if seed.is_none() && (says("with seed") || says("seeded selection")) {
        bad.push("names a seed the campaign did not use");
    }
    bad
}

#[test]
fn a_generated_claim_on_a_real_campaign_is_caught() {
    let old = "The measured selection is generated, calibrated to the real corpus and to \
               published kind shares, not sampled from live relay traffic.";
    assert_eq!(contradictions(old, "real", None).len(), 1);
    assert!(contradictions(old, "generated", Some(1)).is_empty());
    let drawn = "This campaign measures 8740 events drawn with seed none";
    assert_eq!(
        contradictions(drawn, "real", None),
        ["names a seed the campaign did not use"]
    );
    let macros = "\\newcommand{\\CorpusThreat}{It is real.}\n";
    assert_eq!(
        expand("\\paragraph{Corpus.} \\CorpusThreat{} More", macros),
        "\\paragraph{Corpus.} It is real. More"
    );
}

/// The threats' corpus paragraph and the selection paragraph agree with
/// the paper's campaign (its `campaign.json`'s corpus source and seed).
#[test]
fn the_paper_says_how_its_campaign_chose_its_events() {
    let (macros, label) = (macros(), paper_label());
    let record = campaign_json("campaign.json");
    let source = record["corpus"]["source"].as_str().unwrap();
    let seed = record["corpus"]["seed"].as_u64();
    for (file, head) in [
        ("threats.tex", "\\paragraph{Corpus.}"),
        ("corpus.tex", "\\paragraph{Selection.}"),
    ] {
        let tex = fs::read_to_string(root().join("paper/sections").join(file)).unwrap();
        let at = tex
            .find(head)
            .unwrap_or_else(|| panic!("{file}: no {head}"));
        let para = tex[at..].split("\n\n").next().unwrap();
        let text = expand(para, &macros);
        let bad = contradictions(&text, source, seed);
        assert!(
            bad.is_empty(),
            "{file}'s {head} {bad:?} ({label} is {source}): {text}"
        );
    }
}

//! `results/links/links.csv` through `aggregate` and `page`: the Links
//! section of `summary.md`, the paper's table and macros, the page's
//! section and plot; a malformed file stops the aggregation.

#[expect(dead_code, reason = "summary_row serves the other tests")]
mod common;

use std::fs;
use std::path::Path;

use binostr_records::csv::LINKS;
use binostr_report::model::campaign::Campaign;
use binostr_report::model::cost;
use common::*;

const HOST: &str = "hostA/Synthetic CPU";

/// One `links.csv` row: REQ → EOSE median `t` s (±1 %), its ratio to json
/// with deflate (±1 %, or empty) and the EVENT bytes.
fn row(profile: &str, mode: &str, link: &str, rtt: f64, t: f64, r: Option<f64>, b: f64) -> String {
    let deflater = if mode == "none" { "" } else { "zlib-1" };
    let rate = link.strip_suffix("mbit").unwrap_or("");
    let source = if rtt > 0.0 { "modelled" } else { "measured" };
    let ci = |x: f64| format!("{x},{},{}", x * 0.99, x * 1.01);
    let r = r.map_or(",,".to_owned(), ci);
    format!(
        "{profile},{mode},{deflater},{link},{rate},{rtt},{source},60,3,1000,20,{},,,,{r},\
         {},{},5,{},{b},100,{},{}\n",
        ci(t),
        ci(2000.0),
        ci(3000.0),
        ci(0.001),
        ci(40000.0),
        ci(5000.0)
    )
}

fn links_csv() -> String {
    let mut out = LINKS.header_line();
    for (link, rtt) in [("unshaped", 0.0), ("10mbit", 0.0), ("10mbit", 150.0)] {
        out += &row("json", "none", link, rtt, 0.07, Some(1.8), 800.0);
        out += &row("json", "deflate", link, rtt, 0.04, None, 530.0);
        out += &row("json", "deflate-ctx", link, rtt, 0.035, Some(0.88), 480.0);
        // JSON text, fastest with deflate: never the best binary.
        out += &row("json-simd", "deflate", link, rtt, 0.02, Some(0.5), 530.0);
        out += &row("event2", "none", link, rtt, 0.05, Some(1.07), 520.0);
        out += &row("event2", "deflate", link, rtt, 0.033, Some(0.83), 450.0);
        out += &row("event2", "deflate-ctx", link, rtt, 0.03, Some(0.75), 430.0);
    }
    out
}

fn campaign(root: &Path, links: Option<&str>) {
    let dir = write_campaign(root, "q1", HOST, &standard_benches());
    let registry = [
        registry_entry("json", "nostr-baseline"),
        registry_entry("json-simd", "nostr-baseline"),
        registry_entry("event2", "nostr-specific"),
    ];
    fs::write(
        dir.join("registry.json"),
        serde_json::to_string(&registry).unwrap(),
    )
    .unwrap();
    if let Some(text) = links {
        fs::create_dir_all(root.join("results/links")).unwrap();
        fs::write(root.join(LINKS.file), text).unwrap();
    }
}

fn labels() -> Vec<String> {
    vec!["q1".to_owned()]
}

#[test]
fn links_reach_the_summary_the_paper_and_the_page() {
    let tmp = tempfile::tempdir().unwrap();
    campaign(tmp.path(), Some(&links_csv()));
    binostr_report::aggregate(tmp.path(), &labels(), true).unwrap();
    let generated = tmp.path().join("paper/generated");
    let table = read(generated.join("links.csv"));
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 4, "{table}");
    assert_eq!(
        lines[1],
        "unshaped,0,no,40.000,1.8000,0.8800,event2,1.0700,event2,0.8300,0.8217,0.8383,event2,0.7500"
    );
    assert!(lines[3].starts_with("10 Mbit/s,150,yes,"), "{table}");
    let tex = read(generated.join("macros.tex"));
    for want in [
        "\\newcommand{\\LinksEvents}{60}",
        "\\newcommand{\\LinksRates}{10}",
        "\\newcommand{\\LinksRttMax}{150}",
        "\\newcommand{\\LinksBestDeflateOneZeroMbit}{event2}",
        "\\newcommand{\\LinksBestDeflateRatioOneZeroMbit}{0.83 [0.82, 0.84]}",
        "\\newcommand{\\LinksBestDeflateClaimOneZeroMbit}{\\prof{event2} with deflate takes \
         0.83 [0.82, 0.84] times the time of JSON with deflate}",
        "\\newcommand{\\LinksEventPctDeflate}{84.9}",
    ] {
        assert!(tex.contains(want), "macros.tex lacks {want}");
    }
    let md = read(tmp.path().join("results/campaigns/q1/summary/summary.md"));
    for want in [
        "## Links: the transport loop on shaped links",
        "- 10 Mbit/s (RTT 0), time over json with deflate: `event2` with deflate 0.8300 \
         [0.8217, 0.8383], faster; json uncompressed 1.8000 [1.7820, 1.8180], slower;",
        "| unshaped | deflate | 530.0 | `event2` | 450.0 | 84.9 |",
    ] {
        assert!(md.contains(want), "summary.md lacks {want:?}:\n{md}");
    }
    let summary = tmp.path().join("results/campaigns/q1/summary");
    assert!(summary.join("plots/links.svg").exists());
    // No profile of this fixture passes the recommendation's gates (no
    // interop, robustness or valid-event records), so the cost model has
    // no candidate: cost.csv is its header, there is no pick map, and
    // summary.md's candidate table marks every candidate `out`.
    let cost = read(summary.join("cost.csv"));
    assert_eq!(cost.lines().count(), 1, "{cost}");
    for role in ["relay-to-client", "client-to-relay"] {
        let plot = summary.join(format!("plots/cost-map-{role}.svg"));
        assert!(!plot.exists(), "{}", plot.display());
    }
    let scorecard = read(summary.join("scorecard.csv"));
    assert!(scorecard.lines().skip(1).all(|l| l.contains(",false,")));
    assert!(
        md.contains("| json deflate-ctx (zlib-1) | out | 580.0 |"),
        "{md}"
    );
    // The model on these rows with every profile admitted. Client → relay
    // at 10 Mbit/s: json with context takeover sends 580 B (464 s per
    // million), event2 530 B; relay and client CPU are equal within their
    // intervals, so 40 s of 509 s is saved: 7.86 %, under the 10 %
    // switching threshold. Every exchange has 1000 B relay → client, so
    // nothing is saved there.
    let c = Campaign::load(tmp.path(), &labels()).unwrap();
    let p = cost::Prices::default();
    let answer =
        |role: cost::Role| cost::campaign_answer(&c, &|_| true, role, role.unit(), &p).unwrap();
    let r2c = answer(cost::Role::RelayToClient);
    assert_eq!(r2c.saving.pct, 0.0);
    assert!(!r2c.switch);
    assert_eq!(r2c.pick().label(), "json deflate (zlib-1)");
    let c2r = answer(cost::Role::ClientToRelay);
    assert_eq!(c2r.json.label(), "json deflate-ctx (zlib-1)");
    assert_eq!(c2r.binary.label(), "event2 deflate-ctx (zlib-1)");
    let total = |k: &cost::Candidate| cost::total(&k.terms, cost::Unit::Seconds, &p);
    assert!(
        (total(&c2r.json) - 509.0).abs() < 1e-6,
        "{}",
        total(&c2r.json)
    );
    assert!((total(&c2r.binary) - 469.0).abs() < 1e-6);
    assert!((c2r.saving.pct - 40.0 / 509.0 * 100.0).abs() < 1e-9);
    assert!(!c2r.switch);
    let page = binostr_report::page(tmp.path(), "q1", None).unwrap();
    let html = read(page);
    assert!(html.contains("<section id=\"links\">"));
    assert!(html.contains("<a href=\"#links\">Links</a>"));
    assert!(html.contains("<figure id=\"plot-links\">"));
    assert!(
        html.contains("results/links/links.csv"),
        "not in Provenance"
    );
    // The cost model: its section, its script and the model's export.
    assert!(html.contains("<section id=\"cost\">"));
    assert!(html.contains("<a href=\"#cost\">Cost model</a>"));
    assert!(html.contains("root.BinostrCost = api"));
    let open = "<script type=\"application/json\" id=\"binostr-cost\">";
    let start = html.find(open).expect("the cost model's data") + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    let data: serde_json::Value = serde_json::from_str(&html[start..end]).unwrap();
    // An input per parameter, filled with its default.
    for q in binostr_records::cost::PARAMS {
        let input = format!("id=\"cost-{}\" value=\"{}\"", q.id, q.default);
        assert!(html.contains(&input), "no input {input}");
    }
    // The gates let no candidate through (see above).
    for role in data["roles"].as_array().unwrap() {
        assert_eq!(role["candidates"].as_array().unwrap().len(), 0, "{role}");
    }
}

#[test]
fn without_links_there_is_a_warning_and_no_section() {
    let tmp = tempfile::tempdir().unwrap();
    campaign(tmp.path(), None);
    binostr_report::aggregate(tmp.path(), &labels(), false).unwrap();
    let md = read(tmp.path().join("results/campaigns/q1/summary/summary.md"));
    assert!(md.contains("links.csv is missing"), "{md}");
    assert!(!md.contains("## Links"));
    fs::create_dir_all(tmp.path().join("results/campaigns/q1/summary/plots")).unwrap();
    let html = read(binostr_report::page(tmp.path(), "q1", None).unwrap());
    assert!(!html.contains("<section id=\"cost\">"));
    assert!(!html.contains("<script type=\"application/json\" id=\"binostr-cost\">"));
    let tex = read(tmp.path().join("paper/generated/macros.tex"));
    assert!(!tex.contains("\\Links"));
    assert_eq!(
        read(tmp.path().join("paper/generated/links.csv"))
            .lines()
            .count(),
        1
    );
}

#[test]
fn a_malformed_links_file_stops_the_aggregation() {
    let tmp = tempfile::tempdir().unwrap();
    let text = links_csv().replacen(",60,3,", ",60,3.5,", 2);
    campaign(tmp.path(), Some(&text));
    let e = binostr_report::aggregate(tmp.path(), &labels(), false)
        .expect_err("a malformed links.csv is an error")
        .to_string();
    assert!(e.contains("line 2") && e.contains("`rounds`"), "{e}");
}

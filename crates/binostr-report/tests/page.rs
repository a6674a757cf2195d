//! `binostr-report page` over synthetic run records: the page holds every
//! profile and record, fetches nothing, and is byte-for-byte reproducible.

mod common;

use std::fs;
use std::path::Path;
use std::process::Command;

use common::*;
use sha2::{Digest, Sha256};

const HOST: &str = "hostA/Synthetic CPU";
/// The registry: three enabled profiles and a disabled one.
fn registry() -> String {
    let disabled = binostr_records::RegistryEntry {
        enabled: false,
        ..registry_entry("cbor-intmap", "open-standard")
    };
    let entries = [
        registry_entry("json", "nostr-baseline"),
        registry_entry("json-simd", "nostr-baseline"),
        registry_entry("event2", "nostr-specific"),
        disabled,
    ];
    serde_json::to_string_pretty(&entries).unwrap() + "\n"
}
const SVG: &str = "<svg width=\"10\" height=\"10\" viewBox=\"0 0 10 10\" \
    xmlns=\"http://www.w3.org/2000/svg\"><text x=\"1\" y=\"5\">decode plot</text></svg>\n";

/// A campaign `q1` with its plots directory and its registry.
fn setup(root: &Path) {
    write_campaign(root, "q1", HOST, &standard_benches());
    binostr_report::aggregate(root, &["q1".to_owned()], false).unwrap();
    let plots = root.join("results/campaigns/q1/summary/plots");
    fs::create_dir_all(&plots).unwrap();
    fs::write(plots.join("decode.svg"), SVG).unwrap();
    fs::write(root.join("results/campaigns/q1/registry.json"), registry()).unwrap();
}

fn page(root: &Path) -> String {
    let path = binostr_report::page(root, "q1", None).unwrap();
    assert_eq!(path, root.join("results/campaigns/q1/site/index.html"));
    read(path)
}

/// The `<table id=ID>` element's text.
fn table<'a>(html: &'a str, id: &str) -> &'a str {
    let start = html
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no table {id}"));
    let end = start + html[start..].find("</table>").unwrap();
    &html[start..end]
}

fn data(html: &str) -> serde_json::Value {
    let open = "<script type=\"application/json\" id=\"binostr-data\">";
    let start = html.find(open).expect("embedded data") + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).unwrap()
}

#[test]
fn the_page_holds_every_profile_and_its_records() {
    let tmp = tempfile::tempdir().unwrap();
    setup(tmp.path());
    let html = page(tmp.path());
    for id in ["t-decode", "t-encode", "t-validate", "t-sizes", "calc"] {
        let t = table(&html, id);
        for p in ["json", "json-simd", "event2"] {
            assert!(
                t.contains(&format!("data-profile=\"{p}\"")),
                "{id} lacks {p}"
            );
        }
        assert!(!t.contains("cbor-intmap"), "{id} lists a disabled profile");
    }
    // decode event2 (subset all): run medians 50, 55, 45 -> 50.00 ns; paired
    // ratio to json 0.5 in every round.
    let t = table(&html, "t-decode");
    let row = &t[t
        .find("<tr data-profile=\"event2\" data-subset=\"all\">")
        .unwrap()..];
    let row = &row[..row.find("</tr>").unwrap()];
    assert!(row.contains(">50.00</td>"), "{row}");
    assert!(
        row.contains("0.5000 <span class=\"ci\">[0.5000, 0.5000]</span>"),
        "{row}"
    );
    assert!(row.contains("event2"));
    let d = data(&html);
    assert_eq!(
        d["profiles"],
        serde_json::json!(["json", "json-simd", "event2"])
    );
    // The calculator's numbers are summary.csv's.
    let csv = read(tmp.path().join("results/campaigns/q1/summary/summary.csv"));
    let row = summary_row(&csv, [HOST, "decode", "event2", "kind-1", "1"]);
    let cell = |c: &str| serde_json::json!(row[c].parse::<f64>().unwrap());
    assert_eq!(
        d["data"]["event2"]["kind-1"]["decode"]["ns"],
        serde_json::json!([cell("median_ns"), cell("ci_lo_ns"), cell("ci_hi_ns")])
    );
    assert_eq!(row["median_ns"], "40.00");
    // The strata are the mix's, none dropped: kind 1 has times here, the
    // mix's other strata have no subset and become one, whose sizes are
    // subset all's less the measured kinds' (none: kind 1 has no sizes row).
    let strata: Vec<(String, f64)> = d["strata"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| {
            (
                k["subset"].as_str().unwrap().to_owned(),
                k["share"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        strata,
        [
            ("kind-1".to_owned(), 38.96),
            ("kind-rest".to_owned(), 61.04)
        ]
    );
    assert_eq!(d["data"]["event2"]["kind-rest"], serde_json::json!({}));
    assert!(html.contains("decode plot"), "the SVG is inline");
    assert!(html.contains(binostr_report::render::page::CALCULATOR_JS));
    assert!(html.contains(binostr_report::render::page::PAGE_JS));
    // The sources list names each input with its SHA-256.
    let samples = tmp.path().join("results/campaigns/q1/run-2/samples.csv");
    let sha: String = Sha256::digest(fs::read(&samples).unwrap())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let files = table(&html, "t-files");
    let at = files
        .find("results/campaigns/q1/run-2/samples.csv")
        .unwrap();
    assert!(files[at..].contains(&sha), "samples.csv hash");
    assert!(files.contains("results/campaigns/q1/registry.json"));
    assert!(files.contains("summary/plots/decode.svg"));
}

#[test]
fn the_page_fetches_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    setup(tmp.path());
    let html = page(tmp.path());
    assert!(html.contains(&format!(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">",
        binostr_report::render::page::CSP
    )));
    for pattern in [
        "src=\"http",
        "url(http",
        "@import",
        "<link",
        "<img",
        "href=\"http",
    ] {
        assert!(!html.contains(pattern), "the page holds {pattern:?}");
    }
    assert!(
        html.contains("url(data:font/ttf;base64,"),
        "the font is embedded"
    );
}

#[test]
fn the_page_is_reproducible_and_can_go_elsewhere() {
    let tmp = tempfile::tempdir().unwrap();
    setup(tmp.path());
    let first = page(tmp.path());
    let out = tmp.path().join("elsewhere");
    let path = binostr_report::page(tmp.path(), "q1", Some(&out)).unwrap();
    assert_eq!(path, out.join("index.html"));
    assert_eq!(read(&path), first, "same records, same bytes");
}

#[test]
fn a_signed_campaign_shows_its_key_and_how_to_verify() {
    let tmp = tempfile::tempdir().unwrap();
    setup(tmp.path());
    assert!(page(tmp.path()).contains("not signed yet"));
    let key = "ab".repeat(32);
    fs::write(
        tmp.path().join("results/campaigns/q1/manifest.event.json"),
        format!(
            "{{\"id\":\"{}\",\"pubkey\":\"{key}\",\"created_at\":1,\"kind\":1063,\"tags\":[],\"content\":\"\",\"sig\":\"{}\"}}\n",
            "cd".repeat(32),
            "ef".repeat(64)
        ),
    )
    .unwrap();
    let html = page(tmp.path());
    assert!(html.contains(&format!("binostr manifest verify --pubkey {key} q1")));
    assert!(html.contains("just verify q1"));
}

#[test]
fn missing_inputs_are_named() {
    let tmp = tempfile::tempdir().unwrap();
    setup(tmp.path());
    fs::remove_file(tmp.path().join("results/campaigns/q1/registry.json")).unwrap();
    let e = format!(
        "{:#}",
        binostr_report::page(tmp.path(), "q1", None).unwrap_err()
    );
    assert!(e.contains("q1/registry.json is missing"), "{e}");
    setup(tmp.path());
    fs::remove_dir_all(tmp.path().join("results/campaigns/q1/summary/plots")).unwrap();
    let e = format!(
        "{:#}",
        binostr_report::page(tmp.path(), "q1", None).unwrap_err()
    );
    assert!(
        e.contains("summary/plots is missing") && e.contains("aggregate q1"),
        "{e}"
    );
}

#[test]
fn the_binary_writes_the_page() {
    let tmp = tempfile::tempdir().unwrap();
    setup(tmp.path());
    let out = Command::new(env!("CARGO_BIN_EXE_binostr-report"))
        .args(["page", "q1", "--root"])
        .arg(tmp.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let listed = String::from_utf8(out.stdout).unwrap();
    assert!(listed.trim_end().ends_with("site/index.html"), "{listed}");
}

/// Adds a `kind-1` row per profile to every run's `sizes.csv`, then keeps
/// the first `columns` columns of every line.
fn sizes_with_kind_1(root: &Path, columns: usize) {
    let dir = root.join("results/campaigns/q1");
    for k in 1..=3 {
        let path = dir.join(format!("run-{k}/sizes.csv"));
        let mut text = read(&path);
        for p in ["json", "json-simd", "event2"] {
            text.push_str(&format!(
                "{p},kind-1,400,40000,41600,20000,15000,18000,21000,16000\n"
            ));
        }
        let cut: String = text
            .lines()
            .map(|l| l.split(',').take(columns).collect::<Vec<_>>().join(",") + "\n")
            .collect();
        fs::write(&path, cut).unwrap();
    }
}

#[test]
fn the_calculator_offers_per_kind_deflate_only_where_sizes_csv_has_it() {
    let tmp = tempfile::tempdir().unwrap();
    setup(tmp.path());
    sizes_with_kind_1(tmp.path(), 10);
    let d = data(&page(tmp.path()));
    let offered = |d: &serde_json::Value, id: &str| {
        d["compressions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .unwrap()["available"]
            .clone()
    };
    assert_eq!(offered(&d, "deflate_stream"), true);
    assert_eq!(d["defaults"]["compression"], "deflate_stream");
    let kind_1 = &d["data"]["event2"]["kind-1"]["sizes"];
    assert_eq!(kind_1["deflate_stream"], 16000.0);
    // The rest is subset all minus kind 1: per-event totals subtract,
    // stream and deflate totals do not.
    let rest = &d["data"]["event2"]["kind-rest"]["sizes"];
    assert_eq!(rest["events"], 600.0);
    let sizes = read(tmp.path().join("results/campaigns/q1/run-1/sizes.csv"));
    let all: Vec<f64> = sizes
        .lines()
        .find(|l| l.starts_with("event2,all,"))
        .unwrap()
        .split(',')
        .skip(2)
        .map(|x| x.parse().unwrap())
        .collect();
    assert_eq!(rest["zstd_event"], all[3] - 20000.0);
    assert_eq!(rest["deflate_stream"], serde_json::Value::Null);

    // sizes.csv as campaigns wrote it before the deflate columns.
    sizes_with_kind_1(tmp.path(), 8);
    let d = data(&page(tmp.path()));
    assert_eq!(offered(&d, "deflate_stream"), false);
    assert_eq!(offered(&d, "deflate_event"), false);
    assert_ne!(d["defaults"]["compression"], "deflate_stream");
    assert_eq!(
        d["data"]["event2"]["kind-1"]["sizes"]["deflate_event"],
        serde_json::Value::Null
    );
}

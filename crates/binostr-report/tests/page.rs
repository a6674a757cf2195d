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
    let json = binostr_records::RegistryEntry {
        maintenance: serde_json::json!({"crates": ["serde", "serde_json"], "spec": {
            "number": 8259, "status": "ietf-rfc", "title": "JSON Data Interchange Format"}}),
        ..registry_entry("json", "nostr-baseline")
    };
    let event2 = binostr_records::RegistryEntry {
        maintenance: serde_json::json!({"crates": [], "spec": {
            "implementation": "mleku/nostr (binarymarshal.go)", "status": "none"}}),
        ..registry_entry("event2", "nostr-specific")
    };
    let entries = [
        json,
        registry_entry("json-simd", "nostr-baseline"),
        event2,
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
fn the_page_states_the_method_parameters_of_binostr_records() {
    let tmp = tempfile::tempdir().unwrap();
    setup(tmp.path());
    let html = page(tmp.path());
    let zstd = format!("zstd is level {};", binostr_records::ZSTD_LEVEL);
    assert!(section(&html, "sizes").contains(&zstd));
    let window = format!("zstd over {}-event windows", binostr_records::WINDOW);
    assert!(html.contains(&window));
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

/// The header titles and, per row, the `data-profile` and the cells'
/// `data-sort` values of table `id`.
fn cells(html: &str, id: &str) -> (Vec<String>, Vec<(String, Vec<String>)>) {
    let t = table(html, id);
    let head = &t[..t.find("</thead>").unwrap()];
    let titles = head
        .split("<button type=\"button\">")
        .skip(1)
        .map(|h| h[..h.find("</button>").unwrap()].to_owned())
        .collect();
    let rows = t
        .split("<tr data-profile=\"")
        .skip(1)
        .map(|r| {
            let profile = r[..r.find('"').unwrap()].to_owned();
            let values = r
                .split("data-sort=\"")
                .skip(1)
                .map(|c| c[..c.find('"').unwrap()].to_owned())
                .collect();
            (profile, values)
        })
        .collect();
    (titles, rows)
}

/// The page's `<section id=ID>`.
fn section<'a>(html: &'a str, id: &str) -> &'a str {
    let start = html
        .find(&format!("<section id=\"{id}\">"))
        .unwrap_or_else(|| panic!("no section {id}"));
    let end = start + html[start..].find("</section>").unwrap();
    &html[start..end]
}

/// Writes `results/evolution/evolution.csv`, `results/maintenance/maintenance.csv`
/// and `results/robustness/robustness.json` under `root`.
fn suites(root: &Path) {
    let evo = root.join("results/evolution");
    fs::create_dir_all(&evo).unwrap();
    fs::write(
        evo.join("evolution.csv"),
        binostr_records::csv::EVOLUTION.header()
            + ",range_created_at_2e32,range_tags_70000\n\
         json,true,rejected,n/a,ok,none,n/a,exact,exact\n\
         event2,true,misread-pinned,n/a,by-construction,none,n/a,refused,exact\n\
         cbor-intmap,false,rejected,n/a,ok,none,n/a,exact,exact\n",
    )
    .unwrap();
    let maint = root.join("results/maintenance");
    fs::create_dir_all(&maint).unwrap();
    fs::write(
        maint.join("maintenance.csv"),
        binostr_records::csv::MAINTENANCE.header_line()
            + "json,111,0,11,none,5,ietf-rfc,RFC 8259,yes,rust go,182,503,0\n\
         event2,192,0,0,none,1,none,mleku/nostr (binarymarshal.go),yes,rust,106,0,0\n\
         json-simd,97,0,23,none,5,vendor,\"https://x.example/spec, v2\",yes,rust,22,614,7\n",
    )
    .unwrap();
    let rob = root.join("results/robustness");
    fs::create_dir_all(&rob).unwrap();
    let class = |outcomes: serde_json::Value, over: u64| {
        serde_json::json!({"outcomes": outcomes, "peak_rss_kib": 0,
            "over_memory_bound": over, "findings": []})
    };
    let subject = |name: &str, ours: bool, classes: serde_json::Value| {
        serde_json::json!({"subject": name, "ours": ours, "cases_of": "json",
            "classes": classes, "mutations": 0, "mutation_seconds": 0.0})
    };
    let report = serde_json::json!({
        "manifest": {"seed": 1, "mutations": 100, "bomb_depth": 100, "profiles": ["json"]},
        "seconds": 1.5, "timeout_seconds": 30, "mem_limit_mib": 2048,
        "failures": 1, "failing": [], "library_failures": 3,
        "subjects": [
            subject("json", true, serde_json::json!({
                "mutation": class(serde_json::json!(
                    {"clean-error": 80, "accepted": 15, "accepted-noncanonical": 5}), 0),
                "bad-utf8": class(serde_json::json!({"clean-error": 9, "accepted": 1}), 0)})),
            subject("lib:x", false, serde_json::json!({
                "nesting-bomb": class(serde_json::json!(
                    {"clean-error": 1, "stack-overflow": 2, "panic-contained": 1}), 1)})),
        ]
    });
    fs::write(
        rob.join("robustness.json"),
        serde_json::to_string_pretty(&report).unwrap(),
    )
    .unwrap();
}

#[test]
fn evolution_comes_from_its_file_and_says_no_records_only_without_one() {
    let tmp = tempfile::tempdir().unwrap();
    setup(tmp.path());
    let absent = section(&page(tmp.path()), "evolution").to_owned();
    assert!(
        absent.contains("No records") && absent.contains("is missing"),
        "{absent}"
    );
    suites(tmp.path());
    let html = page(tmp.path());
    let evo = section(&html, "evolution");
    assert!(!evo.contains("No records"), "{evo}");
    assert!(!html.contains("no records in"), "a hard-coded sentence");
    assert!(evo.contains(": 3 profiles, 2 of them measured"), "{evo}");
    let (titles, rows) = cells(&html, "t-evolution");
    assert_eq!(titles[..3], ["profile", "campaign", "enabled"]);
    assert_eq!(titles.last().unwrap(), "range_tags_70000");
    let profiles: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(profiles, ["json", "event2", "cbor-intmap"]);
    let event2 = &rows[1].1;
    assert_eq!(event2[1], "measured");
    assert_eq!(event2[3], "misread-pinned");
    assert_eq!(event2[titles.len() - 2], "refused");
    assert_eq!(rows[2].1[1], "not measured");
    // A header without rows is not "missing".
    fs::write(
        tmp.path().join("results/evolution/evolution.csv"),
        binostr_records::csv::EVOLUTION.header_line(),
    )
    .unwrap();
    let evo = section(&page(tmp.path()), "evolution").to_owned();
    assert!(evo.contains("has a header and no rows"), "{evo}");
}

#[test]
fn maintenance_shows_each_profile_with_the_registry_spec() {
    let tmp = tempfile::tempdir().unwrap();
    setup(tmp.path());
    let absent = section(&page(tmp.path()), "maintenance").to_owned();
    assert!(absent.contains("No records"), "{absent}");
    suites(tmp.path());
    let html = page(tmp.path());
    assert!(
        html.contains("<a href=\"#maintenance\">"),
        "the nav links it"
    );
    let m = section(&html, "maintenance");
    assert!(
        m.contains("3 profiles; specification status: 1 <code>ietf-rfc</code>, 1 <code>none</code>, 1 <code>vendor</code>"),
        "{m}"
    );
    let (titles, rows) = cells(&html, "t-maintenance");
    let col = |t: &str| titles.iter().position(|x| x == t).unwrap();
    let row = |p: &str| &rows.iter().find(|r| r.0 == p).unwrap().1;
    assert_eq!(row("json")[col("spec status")], "ietf-rfc");
    assert_eq!(row("json")[col("specification")], "RFC 8259");
    assert!(m.contains("JSON Data Interchange Format <code>RFC 8259</code>"));
    assert_eq!(row("json")[col("crate names")], "serde serde_json");
    assert_eq!(
        row("json")[col("module lines")].parse::<f64>().unwrap(),
        111.0
    );
    assert!(m.contains("defined by <code>mleku/nostr (binarymarshal.go)</code>"));
    // Not in the registry's records: maintenance.csv's spec, quoted cell whole.
    assert_eq!(
        row("json-simd")[col("specification")],
        "https://x.example/spec, v2"
    );
    assert_eq!(
        row("json-simd")[col("build crates")]
            .parse::<f64>()
            .unwrap(),
        7.0
    );
    let files = table(&html, "t-files");
    assert!(files.contains("results/maintenance/maintenance.csv"));
    assert!(files.contains("results/evolution/evolution.csv"));
}

#[test]
fn each_robustness_row_adds_up_to_its_cases() {
    let tmp = tempfile::tempdir().unwrap();
    setup(tmp.path());
    suites(tmp.path());
    let html = page(tmp.path());
    let (titles, rows) = cells(&html, "t-robustness");
    let outcomes: Vec<usize> = titles
        .iter()
        .enumerate()
        .filter(|(_, t)| {
            binostr_records::robustness::Outcome::ALL
                .iter()
                .any(|o| o.name() == t.as_str())
        })
        .map(|(i, _)| i)
        .collect();
    let shown: Vec<&str> = outcomes.iter().map(|i| titles[*i].as_str()).collect();
    assert_eq!(
        shown,
        [
            "clean-error",
            "accepted",
            "accepted-noncanonical",
            "panic-contained",
            "stack-overflow"
        ]
    );
    let cases = titles.iter().position(|t| t == "cases").unwrap();
    let failures = titles.iter().position(|t| t == "failures").unwrap();
    let num = |s: &str| s.parse::<f64>().unwrap();
    let mut totals = Vec::new();
    for (subject, cells) in &rows {
        let sum: f64 = outcomes.iter().map(|i| num(&cells[*i])).sum();
        assert_eq!(sum, num(&cells[cases]), "{subject}: outcomes vs cases");
        totals.push((subject.as_str(), num(&cells[cases]), num(&cells[failures])));
    }
    // json: its bad-utf8 case accepted; lib:x: stack overflows and one over the bound.
    assert_eq!(totals, [("json", 110.0, 1.0), ("lib:x", 4.0, 3.0)]);
    let r = section(&html, "robustness");
    assert!(
        r.contains("no subject has <code>accepted-lossy</code>"),
        "{r}"
    );
}

#[test]
fn the_page_has_a_scorecard_per_role_with_every_candidate() {
    let tmp = tempfile::tempdir().unwrap();
    setup(tmp.path());
    let html = page(tmp.path());
    assert!(html.contains("<a href=\"#recommendation\">Recommendation</a>"));
    let rec = section(&html, "recommendation");
    for role in binostr_report::model::recommend::ROLES {
        assert!(
            rec.contains(&format!("id=\"role-{}\"", role.id)),
            "{}",
            role.id
        );
        let (titles, rows) = cells(&html, &format!("scorecard-{}", role.id));
        assert_eq!(titles.len(), role.criteria.len() + 2, "{}", role.id);
        assert_eq!(titles[1], role.criteria[0].label);
        // Every profile is a candidate, json (no change) included.
        assert!(rows.iter().any(|(p, _)| p == "json"), "{}", role.id);
        assert!(rows.iter().all(|(_, v)| v.len() == titles.len()));
    }
    assert!(rec.contains("Pick: "), "{rec}");
}

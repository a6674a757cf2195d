//! `binostr-report aggregate` over synthetic run records with known answers.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::Command;

use common::*;

const HOST: &str = "hostA/Synthetic CPU";

fn labels(l: &[&str]) -> Vec<String> {
    l.iter().map(|s| (*s).to_owned()).collect()
}

fn num(row: &BTreeMap<String, String>, col: &str) -> f64 {
    row[col]
        .parse()
        .unwrap_or_else(|e| panic!("{col}={:?}: {e}", row[col]))
}

fn standard(root: &Path) {
    write_campaign(root, "q1", HOST, &standard_benches());
}

fn summary(root: &Path, label: &str) -> String {
    read(
        root.join("results/campaigns")
            .join(label)
            .join("summary/summary.csv"),
    )
}

#[test]
fn median_range_ci_ratio_and_rank() {
    let tmp = tempfile::tempdir().unwrap();
    standard(tmp.path());
    binostr_report::aggregate(tmp.path(), &labels(&["q1"]), false).unwrap();
    let csv = summary(tmp.path(), "q1");
    assert!(csv.starts_with(
        "host,workload,profile,subset,threads,runs,median_ns,range_pct,ci_lo_ns,ci_hi_ns,ratio_json,ratio_ci_lo,ratio_ci_hi,rank\n"
    ));

    // Run medians 100, 110, 90: median 100, range (110 - 90) / 100 = 20%.
    let json = summary_row(&csv, [HOST, "decode", "json", "all", "1"]);
    assert_eq!(json["runs"], "3");
    assert_eq!(json["median_ns"], "100.00");
    assert_eq!(json["range_pct"], "20.00");
    assert_eq!(json["ratio_json"], "1.0000");
    let (lo, hi) = (num(&json, "ci_lo_ns"), num(&json, "ci_hi_ns"));
    assert!(lo <= 100.0 && 100.0 <= hi, "CI [{lo}, {hi}]");
    assert!(
        lo >= 90.0 * 0.98 && hi <= 110.0 * 1.02,
        "CI [{lo}, {hi}] outside the data"
    );
    assert!(
        hi - lo > 5.0,
        "run-to-run spread must widen the CI: [{lo}, {hi}]"
    );

    // 50, 55, 45 against json's 100, 110, 90: ratio 0.5, rank 1 of 3.
    let e2 = summary_row(&csv, [HOST, "decode", "event2", "all", "1"]);
    assert_eq!(e2["median_ns"], "50.00");
    assert_eq!(e2["range_pct"], "20.00");
    assert_eq!(e2["ratio_json"], "0.5000");
    let (rlo, rhi) = (num(&e2, "ratio_ci_lo"), num(&e2, "ratio_ci_hi"));
    assert!(rlo <= 0.5 && 0.5 <= rhi, "ratio CI [{rlo}, {rhi}]");
    assert_eq!(e2["rank"], "1");
    let simd = summary_row(&csv, [HOST, "decode", "json-simd", "all", "1"]);
    assert_eq!(simd["rank"], "2");
    assert_eq!(simd["range_pct"], "0.00");
    assert_eq!(json["rank"], "3");

    // Reference rows have no json ratio.
    let floor = summary_row(&csv, [HOST, "id+verify", "reference", "all", "1"]);
    assert_eq!(floor["ratio_json"], "");
    assert_eq!(floor["median_ns"], "300.00");

    // Sorted by host, workload, subset, threads, rank.
    let decode: Vec<&str> = csv
        .lines()
        .filter(|l| l.contains(",decode,") && l.contains(",all,1,"))
        .map(|l| l.split(',').nth(2).unwrap())
        .collect();
    assert_eq!(decode, ["event2", "json-simd", "json"]);
}

#[test]
fn paper_macros_and_tables() {
    let tmp = tempfile::tempdir().unwrap();
    standard(tmp.path());
    binostr_report::aggregate(tmp.path(), &labels(&["q1"]), false).unwrap();
    let generated = tmp.path().join("paper/generated");
    let tex = read(generated.join("macros.tex"));
    for line in [
        "\\newcommand{\\CampaignLabel}{q1}",
        "\\newcommand{\\CampaignRuns}{3}",
        "\\newcommand{\\CampaignHost}{hostA/Synthetic CPU}",
        "\\newcommand{\\CampaignCommit}{0123456789abcdef0123456789abcdef01234567}",
        "\\newcommand{\\CorpusEvents}{5000}",
        "\\newcommand{\\CorpusSeed}{1}",
        "\\newcommand{\\ProfilesMeasured}{3}",
        "\\newcommand{\\DecodeNsEventTwo}{50.0}",
        "\\newcommand{\\DecodeRatioEventTwo}{0.50}",
        "\\newcommand{\\DecodeNsJsonSimd}{80.0}",
        "\\newcommand{\\DecodeNsJson}{100.0}",
        "\\newcommand{\\EncodeNsEventTwo}{30.0}",
        "\\newcommand{\\ValidateNsEventTwo}{350.0}",
        "\\newcommand{\\ValidateRatioEventTwo}{0.88}",
        "\\newcommand{\\SelectNsEventTwo}{4.0}",
        "\\newcommand{\\SelectOverRawOffsetEventTwo}{4.00}",
        "\\newcommand{\\SelectOverRawOffsetJson}{40.00}",
        "\\newcommand{\\RawOffsetNs}{1.0}",
        "\\newcommand{\\IdVerifyNs}{300.0}",
        // validate / id+verify over 350, 380, 400: median 380 / 300.
        "\\newcommand{\\ValidateOverIdVerifyPct}{126.7}",
        "\\newcommand{\\IngestThreads}{2}",
        "\\newcommand{\\IngestScalingEventTwo}{1.90}",
        "\\newcommand{\\SizeRawPctJson}{100.0}",
        "\\newcommand{\\SizeRawPctEventTwo}{50.0}",
        "\\newcommand{\\SizeZstdPctEventTwo}{25.0}",
        "\\newcommand{\\RangeMaxPct}{20.0}",
        "\\newcommand{\\SmallestProfile}{event2}",
        "\\newcommand{\\FastestDecodeProfile}{event2}",
        "\\newcommand{\\FastestValidateProfile}{event2}",
    ] {
        assert!(tex.lines().any(|l| l == line), "missing {line} in\n{tex}");
    }
    assert!(tex.contains("\\newcommand{\\RangeMedianPct}{"));
    assert!(tex.contains("\\newcommand{\\CorpusFingerprint}{abab"));
    // Every macro name is letters only.
    for l in tex.lines().filter(|l| l.starts_with("\\newcommand")) {
        let name = &l["\\newcommand{\\".len()..l.find('}').unwrap()];
        assert!(name.chars().all(|c| c.is_ascii_alphabetic()), "{name}");
    }

    let sizes = read(generated.join("sizes.csv"));
    let mut lines = sizes.lines();
    assert_eq!(
        lines.next().unwrap(),
        "profile,raw_pct,framed_pct,zstd_event_pct,zstd_stream_pct,zstd_dict_pct,raw_bytes_per_event"
    );
    assert_eq!(
        lines.next().unwrap(),
        "event2,50.00,50.20,25.00,16.67,12.50,500.00"
    );
    assert_eq!(
        lines.last().unwrap(),
        "json,100.00,100.20,50.00,33.33,25.00,1000.00"
    );

    let speed = read(generated.join("speed.csv"));
    let lines: Vec<&str> = speed.lines().collect();
    assert_eq!(
        lines[0],
        "profile,encode_ns,decode_ns,decode_id_ns,validate_ns,select_ns,stream_ns,decode_ratio,validate_ratio,range_pct"
    );
    assert_eq!(
        lines[1],
        "event2,30.00,50.00,,350.00,4.00,,0.5000,0.8750,20.00"
    );
    assert!(lines[2].starts_with("json-simd,"));
    assert!(lines[3].starts_with("json,"));

    let kinds = read(generated.join("kinds.csv"));
    assert!(
        kinds.lines().any(|l| l == "event2,kind-1,40.00,"),
        "{kinds}"
    );
    let latency = read(generated.join("latency.csv"));
    assert!(latency.starts_with("profile,workload,p50_ns,p90_ns,p99_ns,p999_ns\nevent2,decode,100.00,150.00,300.00,1000.00\n"));
    let compress = read(generated.join("compress.csv"));
    assert!(compress.starts_with(
        "profile,zstd_event_pct,zstd_stream_pct,zstd_dict_pct\nevent2,25.00,16.67,12.50\n"
    ));
}

#[test]
fn missing_interop_and_robustness_give_header_only_tables() {
    let tmp = tempfile::tempdir().unwrap();
    standard(tmp.path());
    binostr_report::aggregate(tmp.path(), &labels(&["q1"]), false).unwrap();
    let generated = tmp.path().join("paper/generated");
    assert_eq!(
        read(generated.join("interop.csv")),
        "language,format,library,version,ns_per_event\n"
    );
    assert_eq!(
        read(generated.join("robustness.csv")),
        "profile,cases,clean,failures\n"
    );
    let md = read(tmp.path().join("results/campaigns/q1/summary/summary.md"));
    assert!(md.contains("> warning: no interop results"), "{md}");
}

#[test]
fn interop_and_robustness_are_read() {
    let tmp = tempfile::tempdir().unwrap();
    standard(tmp.path());
    let interop = tmp.path().join("results/interop");
    fs::create_dir_all(&interop).unwrap();
    fs::write(
        interop.join("python.csv"),
        "language,format,library,version,ns_per_event,events\npython,cbor,cbor2,5.6.5,1234.5678,5000\npython,bson,pymongo,4.10,999,5000\n",
    )
    .unwrap();
    fs::write(
        interop.join("go.csv"),
        "language,format,library,version,ns_per_event,events\ngo,msgpack,vmihailenco,5.4.1,321,5000\n",
    )
    .unwrap();
    let rob = tmp.path().join("results/robustness");
    fs::create_dir_all(&rob).unwrap();
    fs::write(
        rob.join("robustness.json"),
        r#"{"manifest": {"seed": 1}, "failures": 0, "subjects": [
          {"subject": "json", "ours": true, "cases_of": "json", "classes": {
             "truncation": {"outcomes": {"clean-error": 10}, "peak_rss_kib": 0, "over_memory_bound": 0, "findings": []},
             "mutation": {"outcomes": {"clean-error": 80, "accepted": 20}, "peak_rss_kib": 0, "over_memory_bound": 0, "findings": []}}},
          {"subject": "lib:x", "ours": false, "cases_of": "json", "classes": {
             "nesting-bomb": {"outcomes": {"clean-error": 1, "stack-overflow": 2, "panic-contained": 1}, "peak_rss_kib": 9, "over_memory_bound": 1, "findings": []}}}
        ]}"#,
    )
    .unwrap();
    let files = binostr_report::aggregate(tmp.path(), &labels(&["q1"]), true).unwrap();
    let generated = tmp.path().join("paper/generated");
    assert_eq!(
        read(generated.join("interop.csv")),
        "language,format,library,version,ns_per_event\n\
         go,msgpack,vmihailenco,5.4.1,321.00\n\
         python,bson,pymongo,4.10,999.00\n\
         python,cbor,cbor2,5.6.5,1234.57\n"
    );
    assert_eq!(
        read(generated.join("robustness.csv")),
        "profile,cases,clean,failures\njson,110,90,0\nlib:x,4,1,3\n"
    );
    let plots = tmp.path().join("results/campaigns/q1/summary/plots");
    for name in [
        "sizes",
        "decode",
        "validate",
        "select",
        "latency-decode",
        "robustness",
    ] {
        for ext in ["svg", "png"] {
            let p = plots.join(format!("{name}.{ext}"));
            assert!(files.contains(&p), "{} not written", p.display());
            assert!(
                fs::metadata(&p).unwrap().len() > 1000,
                "{} is tiny",
                p.display()
            );
        }
    }
    let svg = read(plots.join("decode.svg"));
    assert!(
        svg.contains("campaign q1, host hostA/Synthetic CPU"),
        "title"
    );
    assert!(svg.contains("ns per event"), "axis label");
    let png = fs::read(plots.join("decode.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
}

#[test]
fn two_hosts_merge_with_a_host_column() {
    let tmp = tempfile::tempdir().unwrap();
    standard(tmp.path());
    write_campaign(
        tmp.path(),
        "q1-arm",
        "hostB/Other CPU",
        &[
            bench("decode", "json", &[200.0, 220.0]),
            bench("decode", "event2", &[150.0, 150.0]),
        ],
    );
    binostr_report::aggregate(tmp.path(), &labels(&["q1", "q1-arm"]), false).unwrap();
    assert!(!tmp.path().join("results/campaigns/q1-arm/summary").exists());
    let csv = summary(tmp.path(), "q1");
    let a = summary_row(&csv, [HOST, "decode", "json", "all", "1"]);
    let b = summary_row(&csv, ["hostB/Other CPU", "decode", "json", "all", "1"]);
    assert_eq!(
        (a["runs"].as_str(), a["median_ns"].as_str()),
        ("3", "100.00")
    );
    assert_eq!(
        (b["runs"].as_str(), b["median_ns"].as_str()),
        ("2", "210.00")
    );
    let e2 = summary_row(&csv, ["hostB/Other CPU", "decode", "event2", "all", "1"]);
    assert_eq!(e2["ratio_json"], "0.7143");
    // Host A rows come first (sorted), and the paper describes the first label's host.
    let hosts: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert!(hosts.is_sorted());
    assert!(hosts.contains(&HOST) && hosts.contains(&"hostB/Other CPU"));
    let tex = read(tmp.path().join("paper/generated/macros.tex"));
    assert!(tex.contains("\\newcommand{\\CampaignHost}{hostA/Synthetic CPU}"));
    let json: serde_json::Value = serde_json::from_str(&read(
        tmp.path().join("results/campaigns/q1/summary/summary.json"),
    ))
    .unwrap();
    assert_eq!(json["hosts"].as_array().unwrap().len(), 2);
}

fn snapshot(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for dir in [
        root.join("results/campaigns/q1/summary"),
        root.join("paper/generated"),
    ] {
        let mut stack = vec![dir];
        while let Some(d) = stack.pop() {
            for e in fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else {
                    let key = p.strip_prefix(root).unwrap().display().to_string();
                    out.insert(key, fs::read(&p).unwrap());
                }
            }
        }
    }
    out
}

#[test]
fn aggregating_twice_gives_identical_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    standard(tmp.path());
    binostr_report::aggregate(tmp.path(), &labels(&["q1"]), true).unwrap();
    let first = snapshot(tmp.path());
    fs::remove_dir_all(tmp.path().join("results/campaigns/q1/summary")).unwrap();
    fs::remove_dir_all(tmp.path().join("paper")).unwrap();
    binostr_report::aggregate(tmp.path(), &labels(&["q1"]), true).unwrap();
    let second = snapshot(tmp.path());
    assert!(first.len() >= 11 + 10, "{:?}", first.keys());
    assert_eq!(
        first.keys().collect::<Vec<_>>(),
        second.keys().collect::<Vec<_>>()
    );
    for (k, v) in &first {
        assert!(*v == second[k], "{k} differs between runs");
    }
}

#[test]
fn tmp_runs_are_never_read() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_campaign(tmp.path(), "q1", HOST, &standard_benches());
    // A killed run: wild numbers and a broken contract.
    let killed = dir.join("run-4.tmp");
    fs::create_dir_all(&killed).unwrap();
    fs::write(killed.join("contract.json"), "{ not json").unwrap();
    fs::write(
        killed.join("samples.csv"),
        "workload,profile,subset,threads,sample,iters,total_ns,events_per_iter\ndecode,json,all,1,1,1,99999999,1\n",
    )
    .unwrap();
    binostr_report::aggregate(tmp.path(), &labels(&["q1"]), false).unwrap();
    let row = summary_row(
        &summary(tmp.path(), "q1"),
        [HOST, "decode", "json", "all", "1"],
    );
    assert_eq!(
        (row["runs"].as_str(), row["median_ns"].as_str()),
        ("3", "100.00")
    );
}

#[test]
fn a_wrong_header_is_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_campaign(tmp.path(), "q1", HOST, &standard_benches());
    fs::write(
        dir.join("run-2/samples.csv"),
        "workload,profile,threads,subset,sample,iters,total_ns,events_per_iter\n",
    )
    .unwrap();
    let err = binostr_report::aggregate(tmp.path(), &labels(&["q1"]), false).unwrap_err();
    let msg = format!("{err:#}");
    assert!(
        msg.contains("run-2/samples.csv") && msg.contains("header at byte 0"),
        "{msg}"
    );
}

#[test]
fn no_complete_run_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    fs::create_dir_all(tmp.path().join("results/campaigns/q1/run-1.tmp")).unwrap();
    let err = binostr_report::aggregate(tmp.path(), &labels(&["q1"]), false).unwrap_err();
    assert!(
        format!("{err:#}").contains("no complete run-K directory"),
        "{err:#}"
    );
}

#[test]
fn the_binary_aggregates() {
    let tmp = tempfile::tempdir().unwrap();
    standard(tmp.path());
    let out = Command::new(env!("CARGO_BIN_EXE_binostr-report"))
        .args(["aggregate", "q1", "--no-plots", "--root"])
        .arg(tmp.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let listed = String::from_utf8(out.stdout).unwrap();
    assert!(
        listed.lines().any(|l| l.ends_with("summary/summary.csv")),
        "{listed}"
    );
    assert!(
        listed
            .lines()
            .any(|l| l.ends_with("paper/generated/macros.tex")),
        "{listed}"
    );
}

#[test]
fn language_matrix_takes_the_fastest_library_to_the_event() {
    let tmp = tempfile::tempdir().unwrap();
    standard(tmp.path());
    let interop = tmp.path().join("results/interop");
    fs::create_dir_all(&interop).unwrap();
    let header = "language,format,library,version,ns_per_event,events\n";
    fs::write(
        interop.join("python.csv"),
        format!(
            "{header}python,json,json (stdlib),3.13,5000,5000\n\
             python,cbor-packed,cbor2,5.6.5,2000,5000\n\
             python,cbor-packed,cbrrr,1.0,1500,5000\n\
             python,cbor-packed,cbrrr (native objects),1.0,10,5000\n"
        ),
    )
    .unwrap();
    fs::write(
        interop.join("go.csv"),
        format!(
            "{header}go,event2,nostr-go,0.1,300,5000\ngo,event2,\"slow, quoted\",0.1,900,5000\n"
        ),
    )
    .unwrap();
    // Check and torture files beside the timings are not timings.
    fs::write(
        interop.join("checks-python.csv"),
        "profile,library,version,vectors,decode_ok,reencode,rust_decodes,status,reason\n",
    )
    .unwrap();
    binostr_report::aggregate(tmp.path(), &labels(&["q1"]), true).unwrap();
    assert_eq!(
        read(tmp.path().join("paper/generated/interop-matrix.csv")),
        "format,rust_ns,python_ns,js_ns,go_ns,python_library,js_library,go_library\n\
         event2,50.00,,,300.00,,,nostr-go\n\
         json,100.00,5000.00,,,json (stdlib),,\n\
         cbor-packed,,1500.00,,,cbrrr,,\n"
    );
    let md = read(tmp.path().join("results/campaigns/q1/summary/summary.md"));
    assert!(
        md.contains("| json | 100 (binostr) | 5000 (json (stdlib)) | - | - |"),
        "{md}"
    );
}

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
        "host,workload,profile,subset,threads,runs,median_ns,range_pct,ci_lo_ns,ci_hi_ns,ratio_json,ratio_ci_lo,ratio_ci_hi,ratio_range_pct,rank\n"
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

    // 50, 55, 45 against json's 100, 110, 90 in the same rounds: the paired
    // ratio is 0.5 in every round of every run, rank 1 of 3.
    let e2 = summary_row(&csv, [HOST, "decode", "event2", "all", "1"]);
    assert_eq!(e2["median_ns"], "50.00");
    assert_eq!(e2["range_pct"], "20.00");
    assert_eq!(e2["ratio_json"], "0.5000");
    assert_eq!(e2["ratio_ci_lo"], "0.5000");
    assert_eq!(e2["ratio_ci_hi"], "0.5000");
    assert_eq!(e2["ratio_range_pct"], "0.00");
    assert_eq!(e2["rank"], "1");
    let simd = summary_row(&csv, [HOST, "decode", "json-simd", "all", "1"]);
    assert_eq!(simd["rank"], "2");
    assert_eq!(simd["range_pct"], "0.00");
    // 80 over 100, 110, 90: run ratios 0.8, 0.7273, 0.8889, whatever the
    // unpaired medians say.
    assert_eq!(simd["ratio_json"], "0.8000");
    assert_eq!(simd["ratio_range_pct"], "20.20");
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
        "\\newcommand{\\CorpusSelection}{This campaign measures 5000 generated events drawn with seed 1}",
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
        "\\newcommand{\\SizeZstdPctEventTwo}{50.0}",
        "\\newcommand{\\SizeZstdPctJson}{100.0}",
        "\\newcommand{\\SizeZstdBytesEventTwo}{250.0}",
        "\\newcommand{\\SizeRawBytesJson}{1000.0}",
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
        "profile,raw_pct,framed_pct,zstd_event_pct,zstd_stream_pct,zstd_dict_pct,raw_bytes_per_event,\
         zstd_bytes_per_event"
    );
    // Each measure over json's same measure.
    assert_eq!(
        lines.next().unwrap(),
        "event2,50.00,50.10,50.00,50.00,50.00,500.00,250.00"
    );
    assert_eq!(
        lines.last().unwrap(),
        "json,100.00,100.00,100.00,100.00,100.00,1000.00,500.00"
    );

    let speed = read(generated.join("speed.csv"));
    let lines: Vec<&str> = speed.lines().collect();
    assert_eq!(
        lines[0],
        "profile,encode_ns,decode_ns,decode_id_ns,validate_ns,select_ns,stream_ns,decode_ratio,validate_ratio,range_pct,encode_ratio,decode_ratio_lo,decode_ratio_hi,validate_ratio_lo,validate_ratio_hi,decode_ratio_range_pct"
    );
    assert_eq!(
        lines[1],
        "event2,30.00,50.00,55.00,350.00,4.00,,0.5000,0.8750,20.00,0.4286,0.5000,0.5000,0.8750,0.8750,0.00"
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
        "profile,zstd_event_pct,zstd_stream_pct,zstd_dict_pct\nevent2,50.00,50.00,50.00\n"
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
        r#"{"manifest": {"seed": 1, "mutations": 100, "bomb_depth": 100, "profiles": ["json"]},
          "seconds": 1.5, "timeout_seconds": 30, "mem_limit_mib": 2048,
          "failures": 0, "failing": [], "library_failures": 3, "subjects": [
          {"subject": "json", "ours": true, "cases_of": "json", "classes": {
             "truncation": {"outcomes": {"clean-error": 10}, "peak_rss_kib": 0, "over_memory_bound": 0, "findings": []},
             "mutation": {"outcomes": {"clean-error": 80, "accepted": 20}, "peak_rss_kib": 0, "over_memory_bound": 0, "findings": []}},
           "mutations": 100, "mutation_seconds": 0.25},
          {"subject": "lib:x", "ours": false, "cases_of": "json", "classes": {
             "nesting-bomb": {"outcomes": {"clean-error": 1, "stack-overflow": 2, "panic-contained": 1}, "peak_rss_kib": 9, "over_memory_bound": 1, "findings": []}},
           "mutations": 0, "mutation_seconds": 0.0}
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
        "ratios",
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
    // Paired per run: 150/200 and 150/220, median of the two run medians
    // (not 150 / 210).
    let e2 = summary_row(&csv, ["hostB/Other CPU", "decode", "event2", "all", "1"]);
    assert_eq!(e2["ratio_json"], "0.7159");
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
    fs::write(
        interop.join("kotlin.csv"),
        format!("{header}kotlin,json,jackson-databind,2.23.0,4000,5000\n"),
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
        "format,rust_ns,python_ns,js_ns,go_ns,kotlin_ns,swift,\
         python_library,js_library,go_library,kotlin_library\n\
         event2,50.00,,,300.00,,not measured here,,,nostr-go,\n\
         json,100.00,5000.00,,,4000.00,not measured here,json (stdlib),,,jackson-databind\n\
         cbor-packed,,1500.00,,,,not measured here,cbrrr,,,\n"
    );
    let md = read(tmp.path().join("results/campaigns/q1/summary/summary.md"));
    assert!(
        md.contains(
            "| json | 100 (binostr) | 5000 (json (stdlib)) | - | - | 4000 (jackson-databind) |"
        ),
        "{md}"
    );
}

fn macro_lines(root: &Path) -> String {
    read(root.join("paper/generated/macros.tex"))
}

fn has_macro(tex: &str, name: &str, value: &str) -> bool {
    let line = format!("\\newcommand{{\\{name}}}{{{value}}}");
    tex.lines().any(|l| l == line)
}

fn assert_macros(tex: &str, expected: &[(&str, &str)]) {
    for (name, value) in expected {
        assert!(
            has_macro(tex, name, value),
            "missing \\{name} = {value} in\n{tex}"
        );
    }
}

#[test]
fn paired_floors_claims_and_wall_time() {
    let tmp = tempfile::tempdir().unwrap();
    standard(tmp.path());
    binostr_report::aggregate(tmp.path(), &labels(&["q1"]), false).unwrap();
    let ratios = read(tmp.path().join("results/campaigns/q1/summary/ratios.csv"));
    assert!(ratios.starts_with(
        "host,workload,profile,subset,threads,against,runs,rounds,ratio,ci_lo,ci_hi,range_pct,min_ratio,violation\n"
    ));
    for line in [
        // 30 over a copy of 10: the encode floor.
        format!("{HOST},encode,event2,all,1,copy,3,15,3.0000,2.9000,3.1000,6.67,,"),
        format!("{HOST},decode,event2,all,1,clone,3,15,2.0000,1.8000,2.2000,20.00,,"),
        format!("{HOST},decode+id,event2,all,1,decode,3,15,1.1000,1.1000,1.1000,0.00,1.0000,"),
        format!("{HOST},validate,event2,all,1,id+verify,3,15,1.1667,1.1667,1.1667,0.00,1.0000,"),
        format!("{HOST},ingest-mt,event2,all,2,1-thread,3,15,0.5263,0.5263,0.5263,0.00,0.5000,"),
    ] {
        assert!(ratios.lines().any(|l| l == line), "no {line} in\n{ratios}");
    }
    let tex = macro_lines(tmp.path());
    assert_macros(
        &tex,
        &[
            ("EncodeOverCopyEventTwo", "3.00"),
            ("DecodeOverCloneEventTwo", "2.00"),
            ("DecodeIdOverDecodeEventTwo", "1.10"),
            ("ValidateOverIdVerifyEventTwo", "1.17"),
            ("EncodeRatioEventTwo", "0.43"),
            ("CloneNs", "25.0"),
            ("InvariantViolations", "0"),
            ("InvariantViolationList", "none"),
            ("CampaignWallMinutes", "34.0"),
            ("RunWallMinutesMedian", "10.0"),
            ("RunWallMinutesMax", "10.0"),
            ("FastestDecodeProfile", "event2"),
            ("FastestDecodeResolved", "1"),
            ("FastestDecodeTies", ""),
            ("FastestDecodeClaim", "\\prof{event2} is the fastest decode"),
        ],
    );
    let md = read(tmp.path().join("results/campaigns/q1/summary/summary.md"));
    assert!(md.contains("## Invariant violations\n\n"), "{md}");
    assert!(md.contains("\nnone\n"), "{md}");
    assert!(
        md.contains("- `event2` is the fastest decode: its paired ratio to every other profile has a 95% CI below 1 in every run (closest: `json-simd`, paired ratio 0.6250)."),
        "{md}"
    );
    assert!(
        md.contains("Campaign q1: wall time 34.0 min from the first run's start to the last run's finish (q1/run-1 10.0 min, q1/run-2 10.0 min, q1/run-3 10.0 min)."),
        "{md}"
    );
    assert!(
        md.contains("| event2 | 0.4286 [0.4143, 0.4429] | 3.0000 [2.9000, 3.1000] | 0.5000 [0.5000, 0.5000] | 2.0000 [1.8000, 2.2000] | 1.1000 [1.1000, 1.1000] | 0.8750 [0.8750, 0.8750] | 1.1667 [1.1667, 1.1667] |"),
        "{md}"
    );
    assert!(
        md.contains("| event2 | 380.00 | 200.00 | 1.90 [1.90, 1.90] |"),
        "{md}"
    );
    assert!(
        md.contains("> warning: no run has instructions.csv"),
        "{md}"
    );
    assert!(md.contains("Events per pass (campaign q1): all 3 of 100 (id seq-all)"));
    let floors = read(tmp.path().join("paper/generated/floors.csv"));
    assert!(floors.starts_with("profile,encode_copy,encode_copy_lo,encode_copy_hi,decode_clone,"));
    assert!(
        floors
            .lines()
            .any(|l| l.starts_with("event2,3.0000,2.9000,3.1000,2.0000,1.8000,2.2000,1.1000,")),
        "{floors}"
    );
    assert_eq!(
        read(tmp.path().join("paper/generated/instructions.csv")),
        "profile,encode_instr,decode_instr,decode_id_instr,validate_instr,copy_instr,encode_ns,decode_ns,decode_id_ns,validate_ns,max_dev_pct\n"
    );
}

#[test]
fn a_validate_below_id_verify_is_a_violation_and_leaves_the_claims() {
    let tmp = tempfile::tempdir().unwrap();
    let mut benches = standard_benches();
    // Validation faster than its own floor cannot be true.
    benches.push(bench("validate", "bad", &[250.0, 250.0, 250.0]));
    let dir = write_campaign(tmp.path(), "q1", HOST, &benches);
    // Sizes are deterministic: one run that differs is a violation.
    let sizes = dir.join("run-2/sizes.csv");
    let text = read(&sizes);
    assert!(text.contains("bad,all,1000,500000,"), "{text}");
    fs::write(
        &sizes,
        text.replace("bad,all,1000,500000,", "bad,all,1000,500001,"),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_binostr-report"))
        .args(["aggregate", "q1", "--no-plots", "--root"])
        .arg(tmp.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let ratio_text = "validate bad (all, 1 thread) / id+verify: 0.8333 (95% CI 0.8333 to 0.8333) is below the bound 1.0000";
    assert!(
        stderr.contains(&format!("invariant violated on {HOST}: {ratio_text}")),
        "{stderr}"
    );
    assert!(
        stderr.contains("sizes of bad (all): raw_bytes differs across runs (500000 to 500001)"),
        "{stderr}"
    );
    let md = read(tmp.path().join("results/campaigns/q1/summary/summary.md"));
    assert!(
        md.contains(&format!("- {HOST} (ratio): {ratio_text}\n")),
        "{md}"
    );
    assert!(!md.contains("\nnone\n"), "{md}");
    // bad (0.625 of json) would lead; it is left out.
    assert!(
        md.contains("- `event2` is the fastest validate: its paired ratio to every other profile has a 95% CI below 1 in every run (closest: `json-simd`, paired ratio 0.9211). Left out for an invariant violation: `bad`."),
        "{md}"
    );
    let tex = macro_lines(tmp.path());
    assert_macros(
        &tex,
        &[
            ("InvariantViolations", "2"),
            ("FastestValidateProfile", "event2"),
            // bad is smallest, but its bytes differ across runs.
            ("SmallestProfile", "event2"),
        ],
    );
    assert!(
        tex.contains(&format!(
            "\\newcommand{{\\InvariantViolationList}}{{{}; sizes of bad",
            ratio_text.replace('%', "\\%")
        )),
        "{tex}"
    );
    let ratios = read(tmp.path().join("results/campaigns/q1/summary/ratios.csv"));
    assert!(
        ratios.contains(&format!(
            "{HOST},validate,bad,all,1,id+verify,3,15,0.8333,0.8333,0.8333,0.00,1.0000,yes\n"
        )),
        "{ratios}"
    );
    let json: serde_json::Value = serde_json::from_str(&read(
        tmp.path().join("results/campaigns/q1/summary/summary.json"),
    ))
    .unwrap();
    assert_eq!(json["violations"].as_array().unwrap().len(), 2);
}

#[test]
fn resolution_counts_paired_ranges_within_two_percent() {
    let tmp = tempfile::tempdir().unwrap();
    write_campaign(
        tmp.path(),
        "q1",
        HOST,
        &[
            bench("encode", "json", &[70.0, 70.0, 70.0]),
            // Paired ratios 0.428571, 0.435, 0.428571: range 1.5 %.
            bench("encode", "a", &[30.0, 30.45, 30.0]),
            // 0.428571, 0.439286, 0.428571: range 2.5 %.
            bench("encode", "b", &[30.0, 30.75, 30.0]),
        ],
    );
    binostr_report::aggregate(tmp.path(), &labels(&["q1"]), false).unwrap();
    let ratios = read(tmp.path().join("results/campaigns/q1/summary/ratios.csv"));
    assert!(ratios.contains(&format!("{HOST},encode,a,all,1,json,3,15,0.4286,")));
    assert!(ratios.contains(",1.50,,\n"), "{ratios}");
    assert!(ratios.contains(",2.50,,\n"), "{ratios}");
    let tex = macro_lines(tmp.path());
    assert_macros(
        &tex,
        &[
            ("PairedRatios", "2"),
            ("PairedWithinTwo", "1"),
            ("PairedWithinTwoPct", "50.0"),
            ("PairedRangeMedianPct", "2.00"),
        ],
    );
    let md = read(tmp.path().join("results/campaigns/q1/summary/summary.md"));
    assert!(md.contains("| encode | 2 | 1 | 50.0 | 2.00 |"), "{md}");
    assert!(md.contains("| **all** | 2 | 1 | 50.0 | 2.00 |"), "{md}");
}

#[test]
fn a_tie_is_named_not_ranked() {
    let tmp = tempfile::tempdir().unwrap();
    write_campaign(
        tmp.path(),
        "q1",
        HOST,
        &[
            bench("decode", "json", &[100.0, 100.0, 100.0]),
            bench("decode", "p1", &[80.0, 80.0, 80.0]),
            // 2 % slower, with ±4 % noise of its own per round: p1 / p2
            // ranges over 0.94..1.02 in every run.
            Bench {
                jitter: [0.96, 1.04, 1.0, 0.97, 1.03],
                ..bench("decode", "p2", &[81.6, 81.6, 81.6])
            },
        ],
    );
    binostr_report::aggregate(tmp.path(), &labels(&["q1"]), false).unwrap();
    let md = read(tmp.path().join("results/campaigns/q1/summary/summary.md"));
    assert!(
        md.contains("- `p1`, `p2` are tied within 2.0 % for decode (lowest point estimate: `p1`); no profile is faster than all others in every run. Equivalence test (95% CI of the paired ratio to `p1` within 5 % of 1 in every run): 0 of 1 equivalent; undecided: `p2`."),
        "{md}"
    );
    let tex = macro_lines(tmp.path());
    assert_macros(
        &tex,
        &[
            ("FastestDecodeProfile", "p1"),
            ("FastestDecodeResolved", "0"),
            ("FastestDecodeTies", "p2"),
            ("FastestDecodeTiedPct", "2.0"),
            (
                "FastestDecodeClaim",
                "\\prof{p1} and \\prof{p2} are tied within 2.0\\,\\% for decode (0 of 1 equivalent to \\prof{p1} within 5\\,\\% in every run)",
            ),
        ],
    );
}

#[test]
fn instructions_per_event_and_their_agreement() {
    let tmp = tempfile::tempdir().unwrap();
    write_campaign_with(
        tmp.path(),
        "q1",
        HOST,
        &standard_benches(),
        &Extras {
            instructions: vec![
                ("decode", "event2", vec![1000.0, 1000.0, 1000.0]),
                ("validate", "event2", vec![90_000.0, 90_000.0, 90_000.0]),
                // 0.12 % apart: more than the 0.1 % tolerance.
                ("decode", "json", vec![5000.0, 5000.0, 5006.0]),
                ("id+verify", "reference", vec![80_000.0, 80_000.0, 80_000.0]),
            ],
            seed_null: true,
            ..Extras::default()
        },
    );
    binostr_report::aggregate(tmp.path(), &labels(&["q1"]), false).unwrap();
    let csv = read(tmp.path().join("paper/generated/instructions.csv"));
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[1..],
        [
            "event2,,1000,,90000,,30.00,50.00,55.00,350.00,0.0000",
            "json,,5000,,,,70.00,100.00,,400.00,0.1200",
        ],
        "{csv}"
    );
    let md = read(tmp.path().join("results/campaigns/q1/summary/summary.md"));
    assert!(
        md.contains("Reference rows: id+verify 80000 (exact)."),
        "{md}"
    );
    assert!(
        md.contains("| event2 |  | 30.00 | 1000 | 50.00 |  | 55.00 | 90000 | 350.00 |  | exact |"),
        "{md}"
    );
    assert!(
        md.contains("(instructions): instructions of decode json (all) differ across 3 runs by 0.120 % (tolerance 0.1 %)"),
        "{md}"
    );
    assert!(!md.contains("no run has instructions.csv"));
    let tex = macro_lines(tmp.path());
    assert_macros(
        &tex,
        &[
            ("DecodeInstrEventTwo", "1000"),
            ("ValidateInstrEventTwo", "90000"),
            ("IdVerifyInstr", "80000"),
            ("InstructionsExact", "no"),
            ("InstructionsMaxDevPct", "0.120"),
        ],
    );
    let json: serde_json::Value = serde_json::from_str(&read(
        tmp.path().join("results/campaigns/q1/summary/summary.json"),
    ))
    .unwrap();
    assert!(json["hosts"][0]["runs"][0]["corpus"]["seed"].is_null());
}

#[test]
fn evolution_and_maintenance_tables_keep_the_measured_profiles() {
    let tmp = tempfile::tempdir().unwrap();
    standard(tmp.path());
    let evo = tmp.path().join("results/evolution");
    fs::create_dir_all(&evo).unwrap();
    fs::write(
        evo.join("evolution.csv"),
        binostr_records::csv::EVOLUTION.header()
            + ",range_created_at_2e32,range_kind_65535,range_tags_70000\n\
         json,true,rejected,n/a,ok,none,n/a,exact,exact,exact\n\
         event2,true,rejected,n/a,by-construction,none,n/a,refused,exact,refused\n\
         cbor-intmap,false,rejected,n/a,ok,none,n/a,exact,exact,exact\n",
    )
    .unwrap();
    let maint = tmp.path().join("results/maintenance");
    fs::create_dir_all(&maint).unwrap();
    // The layout's columns, then one more (a later writer's): still read.
    fs::write(
        maint.join("maintenance.csv"),
        binostr_records::csv::MAINTENANCE.header()
            + ",extra\n\
         event2,300,0,0,none,2,none,\"mleku/nostr (codec, event)\",yes,rust go,40,0,0,x\n\
         json,109,0,11,none,4,ietf-rfc,RFC 8259,yes,rust go js kotlin,182,503,0,y\n",
    )
    .unwrap();
    binostr_report::aggregate(tmp.path(), &labels(&["q1"]), true).unwrap();
    assert_eq!(
        read(tmp.path().join("paper/generated/evolution.csv")),
        "profile,forward_field,forward_element,backward,version,unknown_version,range\n\
         json,rejected,n/a,ok,none,n/a,exact\n\
         event2,rejected,n/a,by-construction,none,n/a,refused: created_at tags\n"
    );
    assert_eq!(
        read(tmp.path().join("paper/generated/maintenance.csv")),
        "profile,module_lines,generated_lines,crates,schema_compiler,ecosystems,spec_status,spec_ref\n\
         event2,300,0,0,none,2,none,mleku/nostr (codec; event)\n\
         json,109,0,11,none,4,ietf-rfc,RFC 8259\n"
    );
    let md = read(tmp.path().join("results/campaigns/q1/summary/summary.md"));
    assert!(md.contains("| cbor-intmap | false | rejected |"), "{md}");

    // A malformed row is an error naming the line and its byte offset.
    let layout = binostr_records::csv::MAINTENANCE;
    let row2 = layout.header().len() + 1;
    fs::write(
        maint.join("maintenance.csv"),
        layout.header_line() + "json,109,0\n",
    )
    .unwrap();
    let e = format!(
        "{:#}",
        binostr_report::aggregate(tmp.path(), &labels(&["q1"]), true).unwrap_err()
    );
    let cells = layout.width();
    assert!(
        e.contains(&format!(
            "maintenance.csv: line 2 (byte {row2}) is not {cells} CSV cells"
        )),
        "{e}"
    );
    fs::write(
        maint.join("maintenance.csv"),
        layout.header_line() + "json,109,0,11,none,4,ietf-rfc,\"RFC 8259,yes,rust,1,0,0\n",
    )
    .unwrap();
    let e = format!(
        "{:#}",
        binostr_report::aggregate(tmp.path(), &labels(&["q1"]), true).unwrap_err()
    );
    assert!(
        e.contains(&format!("line 2 (byte {row2})")),
        "unbalanced quote: {e}"
    );
}

/// The standard campaign with filter and transport groups, and a registry
/// that names json and json-simd as JSON text.
fn relay_campaign(root: &Path, extras: &Extras) {
    let mut benches = standard_benches();
    benches.extend([
        bench("filter-event", "reference", &[10.0, 10.0, 10.0]),
        bench("filter-checked", "json", &[50.0, 50.0, 50.0]),
        bench("filter-checked", "json-simd", &[60.0, 60.0, 60.0]),
        bench("filter-preverified", "event2", &[20.0, 20.0, 20.0]),
        bench("transport-plain", "json", &[1000.0, 1000.0, 1000.0]),
        bench("transport-plain", "event2", &[800.0, 800.0, 800.0]),
        bench("transport-deflate", "json", &[3000.0, 3000.0, 3000.0]),
        bench("transport-deflate", "event2", &[2700.0, 2700.0, 2700.0]),
        bench("transport-deflate-ctx", "json", &[2500.0, 2500.0, 2500.0]),
        bench("transport-deflate-ctx", "event2", &[2000.0, 2000.0, 2000.0]),
    ]);
    let dir = write_campaign_with(root, "q1", HOST, &benches, extras);
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
    let path = dir.join("campaign.json");
    let mut campaign: serde_json::Value = serde_json::from_str(&read(&path)).unwrap();
    // nson, measured apart on 98 events beside json (written as a campaign
    // of its own, then moved into run-K/apart-nson/).
    let gone = |id: &str| serde_json::json!({"id": id, "reason": "header too long"});
    campaign["corpus"]["apart"] = serde_json::json!([{
        "profile": "nson", "count": 98, "fingerprint": "cd", "refused": [gone("aa"), gone("bb")]
    }]);
    fs::write(&path, campaign.to_string()).unwrap();
    let source = write_campaign(
        root,
        "apart-source",
        HOST,
        &[
            bench("decode", "json", &[100.0, 100.0, 100.0]),
            bench("decode", "nson", &[180.0, 180.0, 180.0]),
            bench("validate", "json", &[400.0, 400.0, 400.0]),
            bench("validate", "nson", &[420.0, 420.0, 420.0]),
        ],
    );
    for k in 1..=3 {
        fs::rename(
            source.join(format!("run-{k}")),
            dir.join(format!("run-{k}/apart-nson")),
        )
        .unwrap();
    }
    fs::remove_dir_all(source).unwrap();
}

#[test]
fn filter_and_transport_tables_and_the_headline() {
    let tmp = tempfile::tempdir().unwrap();
    relay_campaign(tmp.path(), &Extras::default());
    binostr_report::aggregate(tmp.path(), &labels(&["q1"]), false).unwrap();
    let generated = tmp.path().join("paper/generated");

    let transport = read(generated.join("transport.csv"));
    let lines: Vec<&str> = transport.lines().collect();
    assert_eq!(
        lines[0],
        "profile,none_bytes,deflate_bytes,ctx_bytes,none_pct,deflate_pct,ctx_pct,none_ratio,deflate_ratio,ctx_ratio,deflate_ratio_lo,deflate_ratio_hi"
    );
    // Bytes per event: event2 1300/1190/1140, json-simd 1320/1210/1160,
    // json 2400/1400/1330; time ratios 800/1000, 2700/3000, 2000/2500.
    assert_eq!(
        lines[1],
        "event2,1300.0,1190.0,1140.0,54.2,85.0,85.7,0.8000,0.9000,0.8000,0.9000,0.9000"
    );
    assert!(lines[2].starts_with("json-simd,1320.0,1210.0,1160.0,55.0,86.4,87.2,"));
    assert!(lines[3].starts_with("json,2400.0,1400.0,1330.0,100.0,100.0,100.0,"));

    let filter = read(generated.join("filter.csv"));
    let lines: Vec<&str> = filter.lines().collect();
    assert_eq!(
        lines[0],
        "profile,contract,ns,json_ratio,json_ratio_lo,json_ratio_hi,event_ratio,instr"
    );
    assert_eq!(
        lines[1],
        "event2,preverified,20.00,0.4000,0.4000,0.4000,2.0000,"
    );
    assert_eq!(lines[2], "json,checked,50.00,,,,5.0000,");
    assert!(lines[3].starts_with("json-simd,checked,60.00,1.2000,"));

    // json-simd has fewer bytes than json but travels as JSON text: the best
    // binary profile is event2.
    let tex = macro_lines(tmp.path());
    assert_macros(
        &tex,
        &[
            ("TransportJsonPlainBytes", "2400.0"),
            ("TransportJsonDeflateBytes", "1400.0"),
            ("TransportJsonDeflateCtxBytes", "1330.0"),
            ("TransportBestPlainProfile", "event2"),
            ("TransportBestPlainBytes", "1300.0"),
            ("TransportBestPlainPctOfJsonPlain", "54.2"),
            ("TransportBestDeflatePctOfJsonDeflate", "85.0"),
            ("TransportBestDeflateCtxPctOfJsonDeflateCtx", "85.7"),
            ("FilterEventNs", "10.0"),
            ("FilterJsonOverEvent", "5.00 [5.00, 5.00]"),
        ],
    );

    let md = read(tmp.path().join("results/campaigns/q1/summary/summary.md"));
    for want in [
        "### filter: REQ matching on stored events",
        "| event2 | preverified | 20.00 | 0.4000 [0.4000, 0.4000] | 2.0000 [2.0000, 2.0000] |  |",
        "### transport: REQ → EOSE over a WebSocket",
        "the smallest binary profile uncompressed is event2 at 1300.0 (54.2 % of json uncompressed)",
        "| event2 | 1300.0 | 54.2 | 1190.0 | 85.0 | 1140.0 | 85.7 |",
        "| event2 | deflate-ctx | validate | 100000 | 0.9000 | 50.0 | 90.0 | 2000 | 3000 |",
        "Measured apart, because they cannot represent every event (section Measured apart): nson (on 98 of",
        "### Measured apart: nson",
        "nson cannot represent 2 events of the corpus (first: header too long;",
        "| decode | 180.00 | 100.00 | 1.8000 [1.8000, 1.8000] |",
        "| 51.00 | 54.58 | 85.71 | 86.47 |",
    ] {
        assert!(md.contains(want), "summary.md lacks {want:?}:\n{md}");
    }
    // nson is in no table of the campaign's own rows.
    assert!(!read(generated.join("speed.csv")).contains("nson"));
    assert_eq!(
        read(generated.join("apart.csv")),
        "profile,events,refused,decode_ratio,validate_ratio,filter_ratio,size_pct,wire_none_pct,wire_deflate_pct\n\
         nson,98,2,1.8000,1.0500,,51.0,54.6,85.7\n"
    );
    assert_macros(
        &tex,
        &[
            ("ApartCount", "1"),
            ("ApartProfiles", "\\prof{nson}"),
            ("ApartEventsNson", "98"),
            ("ApartRefusedNson", "2"),
            ("ApartDecodeRatioNson", "1.80"),
            ("ApartSizeRawPctNson", "51.0"),
            ("ApartWireDeflatePctNson", "85.7"),
        ],
    );
}

#[test]
fn transport_bytes_off_the_model_or_between_runs_are_refused() {
    for (skew, want) in [(true, "the flate2 model"), (false, "differ between runs")] {
        let tmp = tempfile::tempdir().unwrap();
        relay_campaign(
            tmp.path(),
            &Extras {
                transport_skew: Some(skew),
                ..Extras::default()
            },
        );
        let err = binostr_report::aggregate(tmp.path(), &labels(&["q1"]), false)
            .err()
            .unwrap_or_else(|| panic!("skew {skew}: aggregated"));
        assert!(format!("{err:#}").contains(want), "{err:#}");
    }
}

/// Kind strata, the composed headline and the sensitivity grid, with
/// hand-computed answers.
mod strata {
    use super::*;
    use binostr_records::Workload;
    use binostr_report::Campaign;
    use binostr_report::model::mix::SizeMeasure;

    /// decode on `all` and on every stratum: json 100 ns, event2 50 ns on kind
    /// 3 and 80 ns elsewhere.
    fn strata_benches() -> Vec<Bench> {
        let mut out = vec![
            bench("decode", "json", &[100.0, 100.0, 100.0]),
            bench("decode", "event2", &[80.0, 80.0, 80.0]),
        ];
        for (s, _) in STRATUM_JSON_RAW {
            let e = if s == "kind-3" { 50.0 } else { 80.0 };
            out.push(Bench {
                subset: s,
                ..bench("decode", "json", &[100.0, 100.0, 100.0])
            });
            out.push(Bench {
                subset: s,
                ..bench("decode", "event2", &[e, e, e])
            });
        }
        out
    }

    fn write(root: &Path, extras: &Extras) -> Campaign {
        write_benches(root, &strata_benches(), extras)
    }

    fn write_benches(root: &Path, benches: &[Bench], extras: &Extras) -> Campaign {
        write_campaign_with(root, "s1", HOST, benches, extras);
        binostr_report::aggregate(root, &["s1".to_owned()], false).unwrap();
        Campaign::load(root, &["s1".to_owned()]).unwrap()
    }

    #[test]
    fn composed_sizes_and_times_by_hand() {
        let tmp = tempfile::tempdir().unwrap();
        let strata = Extras {
            strata: true,
            ..Extras::default()
        };
        let c = write(tmp.path(), &strata);
        assert!(c.composed.mix.recorded);
        assert_eq!(c.composed.follow, Some(317));
        assert!(c.composed.missing.is_empty());
        // BigBrotr shares; kind 3 is the follow list at 317 tags, 40 B a tag.
        let others =
            0.0473 * 200.0 + 0.3896 * 300.0 + 0.1889 * 100.0 + 0.0281 * 1000.0 + 0.3007 * 400.0;
        let kind3 = 0.0454 * 40.0 * 317.0;
        let expected = (0.8 * others + 0.5 * kind3) / (others + kind3);
        for m in SizeMeasure::COMPOSED {
            let r = c
                .composed
                .size("event2", m)
                .unwrap_or_else(|| panic!("{m:?} composed"));
            assert!((r - expected).abs() < 1e-9, "{m:?}: {r} vs {expected}");
        }
        let binostr_report::interval::Interval { est: t, lo, hi } =
            c.composed.time(Workload::Decode, "event2").unwrap();
        let expected_t = 0.0454 * 0.5 + (1.0 - 0.0454) * 0.8;
        assert!((t - expected_t).abs() < 1e-9, "{t} vs {expected_t}");
        assert!(lo <= t && t <= hi);

        let md = read(tmp.path().join("results/campaigns/s1/summary/summary.md"));
        assert!(
            md.contains("Mix: bigbrotr-2025 (kind-0 4.73 %, kind-1 38.96 %"),
            "{md}"
        );
        assert!(md.contains("### kind-9735"));
        assert!(!md.contains("not measured in this campaign.\n\n### kind"));
        assert!(md.contains("the `mix` stream is not measured in this campaign"));
        // Without its sub-strata, kind-other is one stratum (0.3007 x 400 B above).
        assert!(md.contains(
            "kind-other is composed as one stratum, the corpus's own mix of other kinds: its \
             sub-strata by published kind are not measured in this campaign.\n"
        ));
        let tex = read(tmp.path().join("paper/generated/macros.tex"));
        assert!(
            tex.contains(
                "\\newcommand{\\ComposedOtherKinds}{kind-other is composed as one stratum"
            )
        );
    }

    #[test]
    fn kind_other_is_composed_from_its_sub_strata() {
        let tmp = tempfile::tempdir().unwrap();
        let extras = Extras {
            strata: true,
            other_kinds: true,
            ..Extras::default()
        };
        let mut benches = strata_benches();
        for (s, e) in [
            ("kind-4", 60.0),
            ("kind-1000", 80.0),
            ("kind-other-rest", 80.0),
        ] {
            benches.push(Bench {
                subset: s,
                ..bench("decode", "json", &[100.0, 100.0, 100.0])
            });
            benches.push(Bench {
                subset: s,
                ..bench("decode", "event2", &[e, e, e])
            });
        }
        let c = write_benches(tmp.path(), &benches, &extras);
        let o = &c.other;
        assert!(o.sizes && o.times);
        // Kinds 4 and 1000 at their published shares; the rest of 30.07 %
        // (the absent published kinds and the unattributed) at 50 B.
        let rest = 0.3007 - 0.0563 - 0.0261;
        let named = 0.0473 * 200.0 + 0.3896 * 300.0 + 0.1889 * 100.0 + 0.0281 * 1000.0;
        let kind3 = 0.0454 * 40.0 * 317.0;
        let json = named + 0.0563 * 1000.0 + 0.0261 * 500.0 + rest * 50.0 + kind3;
        let event2 = 0.8 * named
            + 0.6 * 0.0563 * 1000.0
            + 0.8 * 0.0261 * 500.0
            + 0.8 * rest * 50.0
            + 0.5 * kind3;
        let r = c
            .composed
            .size("event2", binostr_report::model::mix::SizeMeasure::Raw)
            .unwrap();
        assert!((r - event2 / json).abs() < 1e-9, "{r} vs {}", event2 / json);
        let t = c
            .composed
            .time(binostr_records::Workload::Decode, "event2")
            .unwrap()
            .est;
        let want = 0.0454 * 0.5 + 0.0563 * 0.6 + (1.0 - 0.0454 - 0.0563) * 0.8;
        assert!((t - want).abs() < 1e-9, "{t} vs {want}");
        // The grid's cell at the mix's own share and 317 tags is the headline.
        let cell = c.grids[0]
            .cells
            .iter()
            .find(|x| x.share == 0.0454 && x.median_tags == 317)
            .unwrap();
        assert!((cell.ratio("event2").unwrap() - r).abs() < 1e-12);

        let md = read(tmp.path().join("results/campaigns/s1/summary/summary.md"));
        for part in [
            "kind-other (30.07 % of all events) is composed from its sub-strata at the published \
             shares: the published kinds this corpus holds, 8.24 % in all (kind-4 5.63 % (100 \
             events), kind-1000 2.61 % (2 events)); kind-other-rest (100 events, the corpus's \
             other kinds the source does not publish) at 21.83 %, standing for the published \
             kinds the corpus lacks, 18.65 % in all (kind-6 4.40 %, kind-5 3.12 %,",
            "kind-1984 0.25 %), and the share the source attributes to no published kind, \
             3.18 %.\n",
        ] {
            assert!(md.contains(part), "{part}\n{md}");
        }
        let tex = read(tmp.path().join("paper/generated/macros.tex"));
        assert!(tex.contains("\\newcommand{\\ComposedOtherKinds}{kind-other (30.07 \\% of all"));
    }

    #[test]
    fn the_grid_spans_every_share_and_median() {
        let tmp = tempfile::tempdir().unwrap();
        let strata = Extras {
            strata: true,
            ..Extras::default()
        };
        let c = write(tmp.path(), &strata);
        assert_eq!(c.grids.len(), 2);
        let g = &c.grids[0];
        assert_eq!(g.medians, [100, 317, 600]);
        assert_eq!(g.cells.len(), 6 * 3);
        // At kind-3 share 0, every cell is the other strata alone: 0.8.
        assert!((g.cells[0].ratio("event2").unwrap() - 0.8).abs() < 1e-9);
        // At 10 % and 600 tags: 0.9 x others' mean, 0.1 x 24000 B.
        let others =
            (0.0473 * 200.0 + 0.3896 * 300.0 + 0.1889 * 100.0 + 0.0281 * 1000.0 + 0.3007 * 400.0)
                / (1.0 - 0.0454);
        let (o, k) = (0.9 * others, 0.1 * 24_000.0);
        let last = g.cells.last().unwrap();
        assert_eq!((last.share, last.median_tags), (0.10, 600));
        assert!((last.ratio("event2").unwrap() - (0.8 * o + 0.5 * k) / (o + k)).abs() < 1e-9);
        let conclusions = g.conclusions();
        assert_eq!(
            conclusions[0],
            "`event2` is the smallest in every cell (18 of 18)."
        );
        assert_eq!(conclusions[1], "Smaller than json in every cell: `event2`.");

        let tex = read(tmp.path().join("paper/generated/macros.tex"));
        assert!(
            tex.contains(
                "\\newcommand{\\SensitivityGrid}{kind-3 share 0.00 \\%, 2.00 \\%, 4.54 \\%, \
                 6.00 \\%, 8.00 \\%, 10.00 \\% (the other strata keep their relative shares) x \
                 follow-list median 100, 317, 600 p tags}"
            ),
            "{tex}"
        );
        assert!(!tex.contains("SensitivityNotMeasured"));
        // event2 is 80 % of json at kind-3 share 0, less wherever kind 3 weighs.
        let spans = read(tmp.path().join("paper/generated/sensitivity-spans.csv"));
        let lowest = format!("{:.2}", last.ratio("event2").unwrap() * 100.0);
        for measure in ["raw", "zstd-per-event"] {
            assert!(
                spans.contains(&format!("\n{measure},event2,{lowest},80.00,1,1\n")),
                "{spans}"
            );
            assert!(spans.contains(&format!("\n{measure},json,100.00,100.00,2,2\n")));
        }
    }

    #[test]
    fn an_older_campaign_says_what_it_did_not_measure() {
        let tmp = tempfile::tempdir().unwrap();
        let old = Extras {
            sizes_before_deflate: true,
            ..Extras::default()
        };
        write_campaign_with(tmp.path(), "o1", HOST, &standard_benches(), &old);
        binostr_report::aggregate(tmp.path(), &["o1".to_owned()], false).unwrap();
        let c = Campaign::load(tmp.path(), &["o1".to_owned()]).unwrap();
        assert!(!c.composed.mix.recorded);
        assert!(c.grids.is_empty());
        assert!(c.sizes(HOST, "json", "all").unwrap().deflate.is_none());
        let md = read(tmp.path().join("results/campaigns/o1/summary/summary.md"));
        assert!(md.contains("records no mix: the default bigbrotr-2025 shares are used"));
        assert!(md.contains("kind-9735: not measured in this campaign."));
        assert!(md.contains("Nothing is composed: kind-0, kind-1, kind-3, kind-7, kind-9735, kind-other not measured"));
        assert!(
            md.contains("follow-lists.csv and every kind stratum: not measured in this campaign")
        );
        let tex = read(tmp.path().join("paper/generated/macros.tex"));
        assert!(tex.contains(
            "\\newcommand{\\SensitivityNotMeasured}{The grid needs follow-lists.csv and every \
             kind stratum: not measured in this campaign.}"
        ));
        let spans = read(tmp.path().join("paper/generated/sensitivity-spans.csv"));
        assert_eq!(
            spans,
            "measure,profile,lowest_pct,highest_pct,best_rank,worst_rank\n"
        );
    }

    /// decode: event2 resolved fastest in the generated campaign and on
    /// every stratum; in the real one, json-simd leads instead.
    #[test]
    fn claims_are_marked_with_where_they_hold() {
        let tmp = tempfile::tempdir().unwrap();
        let strata = Extras {
            strata: true,
            ..Extras::default()
        };
        write_campaign_with(tmp.path(), "gen", HOST, &strata_benches(), &strata);
        let real_benches = vec![
            bench("decode", "json", &[100.0, 100.0, 100.0]),
            bench("decode", "event2", &[90.0, 90.0, 90.0]),
            bench("decode", "json-simd", &[50.0, 50.0, 50.0]),
        ];
        let real = Extras {
            source: Some("real"),
            ..Extras::default()
        };
        write_campaign_with(tmp.path(), "real", HOST, &real_benches, &real);
        binostr_report::aggregate_holding(tmp.path(), &["gen".to_owned()], false, Some("real"))
            .unwrap();
        let md = read(tmp.path().join("results/campaigns/gen/summary/summary.md"));
        assert!(
            md.contains(
                "holds only on the generated corpus (`gen`), not on the real corpus (`real`); \
                 for every kind measured (kind-0, kind-1, kind-3, kind-7, kind-9735, kind-other)"
            ),
            "{md}"
        );
        let tex = read(tmp.path().join("paper/generated/macros.tex"));
        assert!(
            tex.contains("\\newcommand{\\AbstractClaims}{On one corpus only: \\prof{event2} is the fastest decode (on the generated corpus, subset all).}"),
            "{tex}"
        );
        // Against itself, the claim holds on both.
        binostr_report::aggregate_holding(tmp.path(), &["gen".to_owned()], false, Some("gen"))
            .unwrap();
        let tex = read(tmp.path().join("paper/generated/macros.tex"));
        assert!(tex.contains("{On both corpora: \\prof{event2} is the fastest decode.}"));
    }
}

//! Synthetic campaign run records with known statistics.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

/// One benchmark key and the ns/event sample medians of each run.
pub struct Bench {
    pub workload: &'static str,
    pub profile: &'static str,
    pub subset: &'static str,
    pub threads: u32,
    /// Per run, the median the run's samples are built around.
    pub run_medians: Vec<f64>,
}

pub fn bench(workload: &'static str, profile: &'static str, run_medians: &[f64]) -> Bench {
    Bench {
        workload,
        profile,
        subset: "all",
        threads: 1,
        run_medians: run_medians.to_vec(),
    }
}

/// Five samples per run whose median is exactly `m` (spread ±2%).
pub fn samples_around(m: f64) -> [f64; 5] {
    [m * 0.98, m * 0.99, m, m * 1.01, m * 1.02]
}

pub fn contract(host: &str, run: usize) -> String {
    format!(
        r#"{{
  "schema": 1,
  "contract": {{
    "git": {{"commit": "0123456789abcdef0123456789abcdef01234567", "dirty": false}},
    "rustc": "rustc 1.95.0",
    "build_profile": "release",
    "rustflags": "",
    "cargo_lock_sha256": "{zeros}",
    "corpus": {{"fingerprint": "{fp}", "count": 5000, "seed": 1}},
    "campaign_profile": "quick",
    "criterion": {{"sample_size": 10, "warm_up_ms": 20, "measurement_ms": 60, "nresamples": 1000}},
    "host": {{"id": "{host}", "hostname": "h", "cpu_model": "cpu", "cores": 2,
             "governor": "unknown", "boost": "unknown", "kernel": "6.1"}}
  }},
  "observed": {{"run": {run}, "order_seed": 123, "started": "2026-01-01T00:00:00Z",
               "finished": "2026-01-01T00:10:00Z", "load_before": [0.1, 0.2, 0.3], "load_after": [0.4, 0.3, 0.3]}}
}}
"#,
        zeros = "0".repeat(64),
        fp = "ab".repeat(32),
    )
}

/// Writes `results/campaigns/<label>/run-K/` for every run of `benches`
/// (all benches must have the same number of runs), with side measurements
/// for `size_profiles`. Returns the campaign directory.
pub fn write_campaign(root: &Path, label: &str, host: &str, benches: &[Bench]) -> PathBuf {
    let dir = root.join("results/campaigns").join(label);
    let runs = benches[0].run_medians.len();
    let profiles: Vec<&str> = {
        let mut p: Vec<&str> = benches
            .iter()
            .map(|b| b.profile)
            .filter(|p| *p != "reference")
            .collect();
        p.sort();
        p.dedup();
        p
    };
    for k in 0..runs {
        let run = dir.join(format!("run-{}", k + 1));
        fs::create_dir_all(&run).unwrap();
        fs::write(run.join("contract.json"), contract(host, k + 1)).unwrap();
        let mut s =
            String::from("workload,profile,subset,threads,sample,iters,total_ns,events_per_iter\n");
        for b in benches {
            for (i, ns) in samples_around(b.run_medians[k]).iter().enumerate() {
                // 10 iterations of 100 events.
                writeln!(
                    s,
                    "{},{},{},{},{},10,{},100",
                    b.workload,
                    b.profile,
                    b.subset,
                    b.threads,
                    i + 1,
                    ns * 1000.0
                )
                .unwrap();
            }
        }
        fs::write(run.join("samples.csv"), s).unwrap();
        let mut sizes = String::from(
            "profile,subset,events,raw_bytes,framed_bytes,zstd_event_bytes,zstd_stream_bytes,zstd_dict_bytes\n",
        );
        let mut latency = String::from(
            "workload,profile,events,timer_overhead_ns,p50_ns,p90_ns,p99_ns,p999_ns,max_ns\n",
        );
        let mut alloc = String::from("workload,profile,events,allocs,alloc_bytes\n");
        let mut rss = String::from("workload,profile,baseline_kib,peak_kib\n");
        for (i, p) in profiles.iter().enumerate() {
            let raw = if *p == "json" {
                1_000_000
            } else {
                500_000 + 10_000 * i as u64
            };
            writeln!(
                sizes,
                "{p},all,1000,{raw},{},{},{},{}",
                raw + 2000,
                raw / 2,
                raw / 3,
                raw / 4
            )
            .unwrap();
            let base = 100.0 + 10.0 * i as f64;
            writeln!(
                latency,
                "decode,{p},1000,20,{base},{},{},{},{}",
                base * 1.5,
                base * 3.0,
                base * 10.0,
                base * 40.0
            )
            .unwrap();
            writeln!(alloc, "decode,{p},1000,{},{}", 3000 + i, 100_000).unwrap();
            writeln!(rss, "decode,{p},4000,{}", 4100 + i).unwrap();
        }
        fs::write(run.join("sizes.csv"), sizes).unwrap();
        fs::write(run.join("latency.csv"), latency).unwrap();
        fs::write(run.join("alloc.csv"), alloc).unwrap();
        fs::write(run.join("rss.csv"), rss).unwrap();
        fs::write(
            run.join("estimates.csv"),
            "workload,profile,subset,threads,mean_ns,median_ns,median_lb_ns,median_ub_ns\n",
        )
        .unwrap();
    }
    dir
}

/// The benches of a small but complete campaign: three runs.
pub fn standard_benches() -> Vec<Bench> {
    vec![
        bench("decode", "json", &[100.0, 110.0, 90.0]),
        bench("decode", "event2", &[50.0, 55.0, 45.0]),
        bench("decode", "json-simd", &[80.0, 80.0, 80.0]),
        bench("encode", "json", &[70.0, 70.0, 70.0]),
        bench("encode", "event2", &[30.0, 31.0, 29.0]),
        bench("encode", "json-simd", &[60.0, 61.0, 59.0]),
        bench("validate", "json", &[400.0, 400.0, 400.0]),
        bench("validate", "event2", &[350.0, 350.0, 350.0]),
        bench("validate", "json-simd", &[380.0, 380.0, 380.0]),
        bench("select-checked", "json", &[40.0, 40.0, 40.0]),
        bench("select-checked", "event2", &[4.0, 4.0, 4.0]),
        bench("select-preverified", "event2", &[2.0, 2.0, 2.0]),
        bench("id+verify", "reference", &[300.0, 300.0, 300.0]),
        bench("select-raw-offset", "reference", &[1.0, 1.0, 1.0]),
        Bench {
            threads: 2,
            ..bench("ingest-mt", "event2", &[200.0, 200.0, 200.0])
        },
        bench("ingest-mt", "event2", &[380.0, 380.0, 380.0]),
        Bench {
            subset: "kind-1",
            ..bench("decode", "event2", &[40.0, 40.0, 40.0])
        },
    ]
}

pub fn read(path: impl AsRef<Path>) -> String {
    let path = path.as_ref();
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The `summary.csv` row whose host, workload, profile, subset and threads
/// are `key`, as a map from column to cell.
pub fn summary_row(csv: &str, key: [&str; 5]) -> std::collections::BTreeMap<String, String> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    for line in lines {
        let cells: Vec<&str> = line.split(',').collect();
        if cells[..5] == key {
            return header
                .iter()
                .zip(cells)
                .map(|(h, c)| ((*h).to_owned(), c.to_owned()))
                .collect();
        }
    }
    panic!("no row {key:?} in\n{csv}");
}

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
    /// Per round, a factor on this member alone (1 = moves with the drift
    /// every member shares, so its paired ratios are constant).
    pub jitter: [f64; ROUNDS],
}

pub fn bench(workload: &'static str, profile: &'static str, run_medians: &[f64]) -> Bench {
    Bench {
        workload,
        profile,
        subset: "all",
        threads: 1,
        run_medians: run_medians.to_vec(),
        jitter: [1.0; ROUNDS],
    }
}

/// Rounds (one per Criterion sample, one pass each) per run.
pub const ROUNDS: usize = 5;

/// The drift every member of a round shares.
pub const DRIFT: [f64; ROUNDS] = [0.98, 0.99, 1.0, 1.01, 1.02];

/// Events per pass.
pub const EVENTS: u32 = 100;

/// Extra inputs of a synthetic campaign.
#[derive(Default)]
pub struct Extras {
    /// `(workload, profile, per run instructions per event)`.
    pub instructions: Vec<(&'static str, &'static str, Vec<f64>)>,
    /// Write `"seed": null` (a campaign over the real corpus).
    pub seed_null: bool,
    /// Bytes added to run 2's relay → client socket count of the first
    /// `transport.csv` row, so that it differs from the model (`Some(true)`)
    /// or from the other runs, the model following (`Some(false)`).
    pub transport_skew: Option<bool>,
}

/// `binostr::transport::measure::CSV_HEADER`, as written by the campaign.
pub const TRANSPORT_HEADER: &str = "profile,mode,check,events,s2c_bytes_per_event,c2s_bytes_per_event,s2c_bytes,c2s_bytes,handshake_s2c_bytes,handshake_c2s_bytes,model_s2c_bytes,model_c2s_bytes,events_per_s,events_per_s_lo,events_per_s_hi,speed_vs_json,speed_vs_json_lo,speed_vs_json_hi,latency_p50_ns,latency_p99_ns,relay_cpu_ns_per_event,client_cpu_ns_per_event";

/// Relay → client bytes per event of profile `i` (sorted ids) in `mode`:
/// json 2400 / 1400 / 1330, the others 1300 / 1190 / 1140 plus 10 i.
pub fn transport_bytes(profile: &str, i: usize, mode: usize) -> u64 {
    if profile == "json" {
        [2400, 1400, 1330][mode]
    } else {
        [1300, 1190, 1140][mode] + 10 * i as u64
    }
}

/// The group `rounds.csv` names for a workload.
fn group_of(workload: &str) -> &'static str {
    match workload {
        "encode" | "copy" => "encode",
        "decode" | "decode+id" | "clone" => "decode",
        "validate" | "id+verify" => "validate",
        "select-checked" | "select-preverified" | "select-raw-offset" => "select",
        "stream" | "batch" => "window",
        "compress" => "compress",
        "ingest-mt" => "ingest-mt",
        "filter-checked" | "filter-preverified" | "filter-event" => "filter",
        "transport-plain" => "transport-plain",
        "transport-deflate" => "transport-deflate",
        "transport-deflate-ctx" => "transport-deflate-ctx",
        _ => "other",
    }
}

/// The comparisons of `docs/RESULTS.md` (`ratios.csv`): for bench `i`,
/// `(index of against, against name, min_ratio)`.
fn comparisons(benches: &[Bench], i: usize) -> Vec<(usize, &'static str, Option<f64>)> {
    let b = &benches[i];
    let find = |w: &str, p: &str, t: u32| {
        benches.iter().position(|x| {
            x.workload == w && x.profile == p && x.threads == t && x.subset == b.subset
        })
    };
    let floor = ["copy", "clone", "id+verify", "select-raw-offset"].contains(&b.workload);
    let mut out = Vec::new();
    if b.profile != "json" && b.profile != "reference" && !floor {
        // A filter row compares with json's filter-checked, whatever its contract.
        let w = if b.workload.starts_with("filter-") {
            "filter-checked"
        } else {
            b.workload
        };
        out.extend(find(w, "json", b.threads).map(|j| (j, "json", None)));
    }
    let floor_of = match b.workload {
        "encode" => find("copy", b.profile, 1).map(|j| (j, "copy", None)),
        "decode" => find("clone", "reference", 1).map(|j| (j, "clone", None)),
        "decode+id" => find("decode", b.profile, 1).map(|j| (j, "decode", Some(1.0))),
        "validate" => find("id+verify", "reference", 1).map(|j| (j, "id+verify", Some(1.0))),
        "select-checked" => {
            find("select-raw-offset", "reference", 1).map(|j| (j, "select-raw-offset", Some(1.0)))
        }
        "select-preverified" => {
            find("select-raw-offset", "reference", 1).map(|j| (j, "select-raw-offset", None))
        }
        "filter-checked" | "filter-preverified" => {
            find("filter-event", "reference", 1).map(|j| (j, "filter-event", Some(1.0)))
        }
        "ingest-mt" if b.threads > 1 => find("ingest-mt", b.profile, 1)
            .map(|j| (j, "1-thread", Some(1.0 / f64::from(b.threads)))),
        _ => None,
    };
    out.extend(floor_of);
    out
}

/// ns/event of bench `b` in round `r` of run `k`.
fn pass_ns(b: &Bench, k: usize, r: usize) -> f64 {
    b.run_medians[k] * DRIFT[r] * b.jitter[r]
}

pub fn contract_with(host: &str, run: usize, seed_null: bool) -> String {
    // Run K starts at minute 12 (K - 1) and takes 10 minutes.
    let start = 12 * (run - 1);
    format!(
        r#"{{
  "schema": 2,
  "contract": {{
    "git": {{"commit": "0123456789abcdef0123456789abcdef01234567", "dirty": false}},
    "rustc": "rustc 1.95.0",
    "build_profile": "release",
    "rustflags": "",
    "cargo_lock_sha256": "{zeros}",
    "corpus": {{"fingerprint": "{fp}", "count": 5000, "seed": {seed}}},
    "campaign_profile": "quick",
    "criterion": {{"sample_size": 10, "warm_up_ms": 20, "measurement_ms": 60, "nresamples": 1000}},
    "host": {{"id": "{host}", "hostname": "h", "cpu_model": "cpu", "cores": 2,
             "governor": "unknown", "boost": "unknown", "kernel": "6.1"}}
  }},
  "observed": {{"run": {run}, "order_seed": 123, "groups": 7, "empty_subsets": [],
               "started": "2026-01-01T00:{start:02}:00Z",
               "finished": "2026-01-01T00:{end:02}:00Z", "load_before": [0.1, 0.2, 0.3], "load_after": [0.4, 0.3, 0.3]}}
}}
"#,
        zeros = "0".repeat(64),
        fp = "ab".repeat(32),
        seed = if seed_null { "null" } else { "1" },
        end = start + 10,
    )
}

/// Writes `results/campaigns/<label>/run-K/` for every run of `benches`
/// (all benches must have the same number of runs), with side measurements
/// for `size_profiles`. Returns the campaign directory.
pub fn write_campaign(root: &Path, label: &str, host: &str, benches: &[Bench]) -> PathBuf {
    write_campaign_with(root, label, host, benches, &Extras::default())
}

/// [`write_campaign`] with `extras`.
pub fn write_campaign_with(
    root: &Path,
    label: &str,
    host: &str,
    benches: &[Bench],
    extras: &Extras,
) -> PathBuf {
    let dir = root.join("results/campaigns").join(label);
    fs::create_dir_all(&dir).unwrap();
    let mut subsets: Vec<&str> = benches.iter().map(|b| b.subset).collect();
    subsets.sort();
    subsets.dedup();
    let sequences: Vec<String> = subsets
        .iter()
        .map(|s| {
            format!(r#"{{"subset": "{s}", "of": {EVENTS}, "indices": [0, 1, 2], "id": "seq-{s}"}}"#)
        })
        .collect();
    fs::write(
        dir.join("campaign.json"),
        format!(
            "{{\"schema\": 1, \"label\": \"{label}\", \"runs\": 3, \"sequences\": [{}]}}\n",
            sequences.join(", ")
        ),
    )
    .unwrap();
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
        fs::write(
            run.join("contract.json"),
            contract_with(host, k + 1, extras.seed_null),
        )
        .unwrap();
        let mut s = String::from(
            "workload,profile,subset,threads,sample,iters,total_ns,events_per_iter,sequence\n",
        );
        let mut rounds =
            String::from("group,subset,round,sample,position,workload,profile,threads,events,ns\n");
        let mut ratios =
            String::from("workload,profile,subset,threads,against,round,ratio,min_ratio\n");
        for (i, b) in benches.iter().enumerate() {
            for r in 0..ROUNDS {
                // One round (one pass of EVENTS events) per sample.
                let ns = pass_ns(b, k, r);
                writeln!(
                    s,
                    "{},{},{},{},{r},1,{},{EVENTS},seq-{}",
                    b.workload,
                    b.profile,
                    b.subset,
                    b.threads,
                    ns * f64::from(EVENTS),
                    b.subset
                )
                .unwrap();
                writeln!(
                    rounds,
                    "{},{},{r},{r},{i},{},{},{},{EVENTS},{}",
                    group_of(b.workload),
                    b.subset,
                    b.workload,
                    b.profile,
                    b.threads,
                    ns * f64::from(EVENTS)
                )
                .unwrap();
            }
            for (j, against, min_ratio) in comparisons(benches, i) {
                for r in 0..ROUNDS {
                    writeln!(
                        ratios,
                        "{},{},{},{},{against},{r},{:.6},{}",
                        b.workload,
                        b.profile,
                        b.subset,
                        b.threads,
                        pass_ns(b, k, r) / pass_ns(&benches[j], k, r),
                        min_ratio.map_or(String::new(), |m| format!("{m:.6}"))
                    )
                    .unwrap();
                }
            }
        }
        fs::write(run.join("samples.csv"), s).unwrap();
        fs::write(run.join("rounds.csv"), rounds).unwrap();
        fs::write(run.join("ratios.csv"), ratios).unwrap();
        if !extras.instructions.is_empty() {
            let mut t = String::from("workload,profile,subset,events,passes,instructions\n");
            for (w, p, per_event) in &extras.instructions {
                // 3 passes of EVENTS events.
                writeln!(
                    t,
                    "{w},{p},all,{EVENTS},3,{}",
                    per_event[k] * 3.0 * f64::from(EVENTS)
                )
                .unwrap();
            }
            fs::write(run.join("instructions.csv"), t).unwrap();
        }
        let mut sizes = String::from(
            "profile,subset,events,raw_bytes,framed_bytes,zstd_event_bytes,zstd_stream_bytes,zstd_dict_bytes\n",
        );
        let mut latency = String::from(
            "workload,profile,events,timer_overhead_ns,p50_ns,p90_ns,p99_ns,p999_ns,max_ns\n",
        );
        let mut alloc = String::from("workload,profile,events,allocs,alloc_bytes\n");
        let mut rss = String::from("workload,profile,baseline_kib,peak_kib\n");
        let mut transport = String::from(TRANSPORT_HEADER);
        transport.push('\n');
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
            for (m, mode) in ["none", "deflate", "deflate-ctx"].iter().enumerate() {
                for check in ["decode", "validate"] {
                    let s2c = transport_bytes(p, i, m) * u64::from(EVENTS);
                    let first = i == 0 && m == 0 && check == "decode" && k == 1;
                    let skew = if first { extras.transport_skew } else { None };
                    let socket = s2c + u64::from(skew.is_some());
                    let model = if skew == Some(true) { s2c } else { socket };
                    let vs_json = if *p == "json" { "" } else { "0.9" };
                    writeln!(
                        transport,
                        "{p},{mode},{check},{EVENTS},{:.2},0.25,{socket},250,152,154,{model},250,100000,90000,110000,{vs_json},{vs_json},{vs_json},50000,90000,{},{}",
                        socket as f64 / f64::from(EVENTS),
                        2000 + 100 * i,
                        3000 + 100 * i
                    )
                    .unwrap();
                }
            }
        }
        fs::write(run.join("transport.csv"), transport).unwrap();
        fs::write(run.join("sizes.csv"), sizes).unwrap();
        fs::write(run.join("latency.csv"), latency).unwrap();
        fs::write(run.join("alloc.csv"), alloc).unwrap();
        fs::write(run.join("rss.csv"), rss).unwrap();
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
        bench("copy", "json", &[20.0, 20.0, 20.0]),
        bench("copy", "event2", &[10.0, 10.0, 10.0]),
        bench("clone", "reference", &[25.0, 25.0, 25.0]),
        bench("decode+id", "event2", &[55.0, 60.5, 49.5]),
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

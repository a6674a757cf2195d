//! Synthetic campaign run records with known statistics.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use binostr_records::csv::{
    self, ALLOC, FOLLOW_LISTS, INSTRUCTIONS, LATENCY, RATIOS, RSS, SAMPLES, SIZES, TRANSPORT,
};
use binostr_records::{
    CampaignRecord, Contract, ContractCorpus, CorpusRecord, CriterionSettings, Git, Host, Mix,
    Observed, RegistryEntry, RunRecord, SCHEMA, Sequence,
};

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
    /// Write `sizes.csv` as campaigns before its deflate columns did.
    pub sizes_before_deflate: bool,
    /// Write the six kind strata's sizes ([`STRATUM_JSON_RAW`]),
    /// `follow-lists.csv` ([`FOLLOW_MEDIANS`]) and a mix in campaign.json.
    pub strata: bool,
    /// With `strata`, the sizes of sub-strata of kind-other ([`OTHER_JSON_RAW`]).
    pub other_kinds: bool,
    /// `corpus.source` in campaign.json (`generated` when `None`).
    pub source: Option<&'static str>,
}

/// Per kind stratum, json's raw bytes per event; every other profile has
/// 0.8 of it, 0.5 on kind 3. zstd per event is half of raw, deflate per
/// event 0.55 of it.
pub const STRATUM_JSON_RAW: [(&str, u64); 6] = [
    ("kind-0", 200),
    ("kind-1", 300),
    ("kind-3", 10_000),
    ("kind-7", 100),
    ("kind-9735", 1000),
    ("kind-other", 400),
];

/// Per sub-stratum of kind-other: json's raw bytes per event, its events,
/// and every other profile's bytes in tenths of json's.
pub const OTHER_JSON_RAW: [(&str, u64, u64, u64); 3] = [
    ("kind-4", 1000, 100, 6),
    ("kind-1000", 500, 2, 8),
    ("kind-other-rest", 50, 100, 8),
];

/// Follow-list medians of the fixture: json's list has 40 bytes per tag,
/// every other profile half of it.
pub const FOLLOW_MEDIANS: [u64; 3] = [100, 317, 600];

/// One `sizes.csv` row: raw bytes over 100 events and the derived sizes.
fn sizes_row(out: &mut String, profile: &str, subset: &str, events: u64, raw: u64, deflate: bool) {
    let tail = if deflate {
        format!(",{},{}", raw * 55 / 100, raw * 35 / 100)
    } else {
        String::new()
    };
    writeln!(
        out,
        "{profile},{subset},{events},{raw},{},{},{},{}{tail}",
        raw + 2 * events,
        raw / 2,
        raw / 3,
        raw / 4
    )
    .unwrap();
}

/// The strata's size rows (with `other`, those of [`OTHER_JSON_RAW`]) and
/// `follow-lists.csv` of `profiles`.
fn strata_files(run: &Path, profiles: &[&str], sizes: &mut String, deflate: bool, other: bool) {
    let mut follow = FOLLOW_LISTS.header_line();
    for p in profiles {
        let json = *p == "json";
        for (s, per_event) in STRATUM_JSON_RAW {
            let f = match (json, s) {
                (true, _) => 10,
                (false, "kind-3") => 5,
                _ => 8,
            };
            sizes_row(sizes, p, s, 100, per_event * 10 * f, deflate);
        }
        for (s, per_event, events, f) in OTHER_JSON_RAW.iter().filter(|_| other) {
            let f = if json { 10 } else { *f };
            sizes_row(sizes, p, s, *events, per_event * events * f / 10, deflate);
        }
        for t in FOLLOW_MEDIANS {
            let raw = 50 * 40 * t / if json { 1 } else { 2 };
            writeln!(follow, "{p},{t},50,{raw},{},{}", raw / 2, raw * 55 / 100).unwrap();
        }
    }
    fs::write(run.join(FOLLOW_LISTS.file), follow).unwrap();
}

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
    let record = RunRecord {
        schema: SCHEMA,
        contract: Contract {
            git: Git {
                commit: "0123456789abcdef0123456789abcdef01234567".to_owned(),
                dirty: false,
            },
            rustc: "rustc 1.95.0".to_owned(),
            build_profile: "release".to_owned(),
            rustflags: String::new(),
            cargo_lock_sha256: "0".repeat(64),
            corpus: ContractCorpus {
                fingerprint: "ab".repeat(32),
                count: 5000,
                seed: (!seed_null).then_some(1),
            },
            settings: "quick".to_owned(),
            criterion: CriterionSettings {
                sample_size: 10,
                warm_up_ms: 20,
                measurement_ms: 60,
                nresamples: 1000,
            },
            host: Host {
                id: host.to_owned(),
                hostname: "h".to_owned(),
                cpu_model: "cpu".to_owned(),
                cores: 2,
                governor: "unknown".to_owned(),
                boost: "unknown".to_owned(),
                kernel: "6.1".to_owned(),
            },
        },
        observed: Observed {
            run,
            order_seed: 123,
            groups: 7,
            empty_subsets: Vec::new(),
            started: format!("2026-01-01T00:{start:02}:00Z"),
            finished: format!("2026-01-01T00:{:02}:00Z", start + 10),
            load_before: vec![0.1, 0.2, 0.3],
            load_after: vec![0.4, 0.3, 0.3],
            instructions: None,
            stages: Vec::new(),
        },
    };
    serde_json::to_string_pretty(&record).unwrap() + "\n"
}

/// A registry entry of an enabled profile of `family`.
pub fn registry_entry(id: &str, family: &str) -> RegistryEntry {
    RegistryEntry {
        borrowed_view: false,
        deterministic: true,
        enabled: true,
        family: family.to_owned(),
        id: id.to_owned(),
        maintenance: serde_json::json!({}),
        native_batch: false,
        self_describing: false,
    }
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
    let record = CampaignRecord {
        schema: SCHEMA,
        label: label.to_owned(),
        settings: "quick".to_owned(),
        runs: 3,
        seed: 1,
        corpus: CorpusRecord {
            fingerprint: "ab".repeat(32),
            count: 5000,
            seed: Some(1),
            source: extras.source.unwrap_or("generated").to_owned(),
            audit_sha256: "0".repeat(64),
            apart: Vec::new(),
        },
        sequences: subsets
            .iter()
            .map(|s| Sequence {
                subset: (*s).to_owned(),
                of: EVENTS as usize,
                indices: vec![0, 1, 2],
                id: format!("seq-{s}"),
            })
            .collect(),
        mix: extras.strata.then(Mix::bigbrotr),
    };
    fs::write(
        dir.join(binostr_records::files::CAMPAIGN),
        serde_json::to_string_pretty(&record).unwrap() + "\n",
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
        let mut s = SAMPLES.header_line();
        let mut rounds = csv::ROUNDS.header_line();
        let mut ratios = RATIOS.header_line();
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
        fs::write(run.join(SAMPLES.file), s).unwrap();
        fs::write(run.join(csv::ROUNDS.file), rounds).unwrap();
        fs::write(run.join(RATIOS.file), ratios).unwrap();
        if !extras.instructions.is_empty() {
            let mut t = INSTRUCTIONS.header_line();
            for (w, p, per_event) in &extras.instructions {
                // 3 passes of EVENTS events.
                writeln!(
                    t,
                    "{w},{p},all,{EVENTS},3,{}",
                    per_event[k] * 3.0 * f64::from(EVENTS)
                )
                .unwrap();
            }
            fs::write(run.join(INSTRUCTIONS.file), t).unwrap();
        }
        let mut sizes = if extras.sizes_before_deflate {
            csv::SIZES_WITHOUT_DEFLATE.header_line()
        } else {
            SIZES.header_line()
        };
        if extras.strata {
            strata_files(
                &run,
                &profiles,
                &mut sizes,
                !extras.sizes_before_deflate,
                extras.other_kinds,
            );
        }
        let mut latency = LATENCY.header_line();
        let mut alloc = ALLOC.header_line();
        let mut rss = RSS.header_line();
        let mut transport = TRANSPORT.header_line();
        for (i, p) in profiles.iter().enumerate() {
            let raw = if *p == "json" {
                1_000_000
            } else {
                500_000 + 10_000 * i as u64
            };
            sizes_row(
                &mut sizes,
                p,
                "all",
                1000,
                raw,
                !extras.sizes_before_deflate,
            );
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
        fs::write(run.join(TRANSPORT.file), transport).unwrap();
        fs::write(run.join(SIZES.file), sizes).unwrap();
        fs::write(run.join(LATENCY.file), latency).unwrap();
        fs::write(run.join(ALLOC.file), alloc).unwrap();
        fs::write(run.join(RSS.file), rss).unwrap();
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

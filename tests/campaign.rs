//! `binostr campaign` end to end on a tiny corpus: complete runs, refusal of
//! a run with a different contract, resumption after a killed run, and
//! instruction counts that agree between runs (where Valgrind is installed).

use std::collections::{BTreeMap, BTreeSet};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn campaign(root: &Path, runs: usize) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_binostr"));
    c.args([
        "campaign",
        "--settings",
        "smoke",
        "--label",
        "t",
        "--generate",
        "60",
        "20",
    ])
    .args(["--runs", &runs.to_string()])
    .arg("--campaigns")
    .arg(root);
    c
}

fn run_ok(mut c: Command) -> String {
    let out = c.output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{text}");
    text
}

/// `instructions.csv` of a run as (workload, profile) -> instructions,
/// checked for every counted benchmark; `None` (said on standard error)
/// where Valgrind is missing and CI is not set.
fn instruction_counts(
    run: &Path,
    contract: &serde_json::Value,
    events: u64,
    apart: &BTreeSet<String>,
) -> Option<BTreeMap<(String, String), u64>> {
    let observed = contract["observed"]["instructions"].as_str().unwrap();
    let path = run.join("instructions.csv");
    if observed == binostr::campaign::instructions::SKIPPED {
        assert_ne!(
            std::env::var("CI").as_deref(),
            Ok("true"),
            "valgrind is missing under CI"
        );
        assert!(!path.exists(), "instructions.csv without valgrind");
        eprintln!("valgrind not found: instructions.csv NOT checked");
        return None;
    }
    assert!(observed.starts_with("valgrind"), "{observed}");
    // A `filter` pass scans every stored event once per filter.
    let filters: serde_json::Value =
        serde_json::from_slice(&read(&run.with_file_name("filters.json"))).unwrap();
    let filters = filters["filters"].as_array().unwrap().len() as u64;
    assert!(filters > 0);
    let text = String::from_utf8(read(&path)).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some(binostr_records::csv::INSTRUCTIONS.header().as_str())
    );
    let mut counts = BTreeMap::new();
    for l in lines {
        let f: Vec<&str> = l.split(',').collect();
        assert_eq!(f.len(), 6, "{l}");
        let scanned = if f[0].starts_with("filter-") {
            events * filters
        } else {
            events
        };
        assert_eq!(
            (f[2], f[3]),
            ("all", scanned.to_string().as_str()),
            "{l}: the whole sequence"
        );
        let (passes, n): (u64, u64) = (f[4].parse().unwrap(), f[5].parse().unwrap());
        assert!(passes >= 1 && n > 0, "{l}");
        counts.insert((f[0].to_string(), f[1].to_string()), n);
    }
    // The profiles measured apart are not counted.
    let enabled: Vec<&'static binostr::codec::Profile> = binostr::profiles::enabled()
        .filter(|p| !apart.contains(p.id))
        .collect();
    let expected: BTreeSet<(String, String)> = binostr::campaign::instructions::keys(&enabled)
        .iter()
        .map(|k| (k.workload.name().to_string(), k.profile.to_string()))
        .collect();
    assert_eq!(
        counts.keys().cloned().collect::<BTreeSet<_>>(),
        expected,
        "one row per counted benchmark"
    );
    Some(counts)
}

/// `transport.csv` of a run: one row per enabled profile and mode over the
/// `events`-event sequence, socket bytes equal to the flate2 model, deflate
/// smaller than plain for json, ratios to json for every other profile.
fn transport_rows(run: &Path, events: u64, enabled: &BTreeSet<String>, modes: &[(&str, &str)]) {
    let text = String::from_utf8(read(&run.join("transport.csv"))).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some(binostr_records::csv::TRANSPORT.header().as_str())
    );
    let mut seen = BTreeMap::new();
    for l in lines {
        let f: Vec<&str> = l.split(',').collect();
        assert_eq!(f.len(), 22, "{l}");
        assert!(matches!(f[2], "decode" | "validate"), "{l}");
        assert_eq!(f[3], events.to_string(), "{l}");
        assert_eq!(f[6], f[10], "{l}: relay → client bytes = model");
        assert_eq!(f[7], f[11], "{l}: client → relay bytes = model");
        let s2c: u64 = f[6].parse().unwrap();
        assert!(s2c > 0 && f[8].parse::<u64>().unwrap() > 0, "{l}");
        assert!(f[12].parse::<f64>().unwrap() > 0.0, "{l}: events/s");
        assert_eq!(f[15].is_empty(), f[0] == "json", "{l}: ratio to json");
        let key = (f[0].to_string(), f[1].to_string(), f[2].to_string());
        assert!(seen.insert(key, s2c).is_none(), "{l}: one row per key");
    }
    let want: BTreeSet<(String, String, String)> = modes
        .iter()
        .flat_map(|(_, m)| {
            enabled.iter().flat_map(move |p| {
                ["decode", "validate"].map(|c| (p.clone(), m.to_string(), c.to_string()))
            })
        })
        .collect();
    assert_eq!(seen.keys().cloned().collect::<BTreeSet<_>>(), want);
    // The same messages whatever the client checks.
    for ((p, m, c), s2c) in &seen {
        if c == "validate" {
            assert_eq!(
                *s2c,
                seen[&(p.clone(), m.clone(), "decode".to_string())],
                "{p} {m}"
            );
        }
    }
    let json = |m: &str| seen[&("json".to_string(), m.to_string(), "decode".to_string())];
    assert!(json("deflate") < json("none") && json("deflate-ctx") < json("deflate"));
}

/// `run-K/apart-ID/` of a profile measured apart: json and ID alone, every
/// pass over the `events` it represents, sized and on the wire.
fn apart_rows(dir: &Path, id: &str, events: u64) {
    let pair: BTreeSet<String> = ["json", id].map(String::from).into();
    let samples = String::from_utf8(read(&dir.join("samples.csv"))).unwrap();
    let mut profiles = BTreeSet::new();
    for l in samples.lines().skip(1) {
        let f: Vec<&str> = l.split(',').collect();
        let scans = if f[0].starts_with("filter-") {
            binostr::filter::draw::COUNT as u64
        } else {
            1
        };
        assert_eq!(
            f[7],
            (events * scans).to_string(),
            "{l}: the events {id} represents"
        );
        profiles.insert(f[1].to_string());
    }
    profiles.remove("reference");
    assert_eq!(profiles, pair, "json and {id} alone");
    let ratios = String::from_utf8(read(&dir.join("ratios.csv"))).unwrap();
    assert!(
        ratios
            .lines()
            .any(|l| l.starts_with(&format!("decode,{id},")) && l.split(',').nth(4) == Some("json")),
        "{id}: no decode ratio against json"
    );
    let sized: BTreeSet<String> = String::from_utf8(read(&dir.join("sizes.csv")))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap().to_owned())
        .collect();
    assert_eq!(sized, pair);
    let modes = [
        ("transport-plain", "none"),
        ("transport-deflate", "deflate"),
        ("transport-deflate-ctx", "deflate-ctx"),
    ];
    // The refused follow list was the corpus's only kind 3, so the apart
    // corpus cannot fill the mix and transport measures all its events.
    transport_rows(dir, events, &pair, &modes);
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn runs_are_complete_resumable_and_refused_when_the_contract_differs() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let label = root.join("t");
    run_ok(campaign(root, 1));
    let run1 = label.join("run-1");
    for f in [
        "contract.json",
        "samples.csv",
        "rounds.csv",
        "ratios.csv",
        "sizes.csv",
        "alloc.csv",
        "rss.csv",
        "latency.csv",
        "transport.csv",
    ] {
        let bytes = read(&run1.join(f));
        assert!(
            bytes.iter().filter(|&&b| b == b'\n').count() > 1,
            "{f} has rows"
        );
    }
    // Every one of the 20 smoke events is measured. An enabled profile that
    // cannot represent some of them (nson refuses a long follow list) is
    // measured apart, on the others, beside json alone.
    let record: serde_json::Value =
        serde_json::from_slice(&read(&label.join("campaign.json"))).unwrap();
    let measured = 20;
    assert_eq!(record["corpus"]["count"], measured);
    let apart = record["corpus"]["apart"].as_array().unwrap();
    assert!(
        apart.iter().any(|a| a["profile"] == "nson"),
        "the smoke corpus has an event nson refuses: {apart:?}"
    );
    let mut apart_ids = BTreeSet::new();
    for a in apart {
        let id = a["profile"].as_str().unwrap();
        assert!(binostr::profiles::find(id).is_some_and(|p| p.enabled) && id != "json");
        let refused = a["refused"].as_array().unwrap();
        assert!(!refused.is_empty());
        assert!(
            refused
                .iter()
                .all(|r| !r["reason"].as_str().unwrap().is_empty())
        );
        assert_eq!(
            a["count"].as_u64().unwrap() + refused.len() as u64,
            measured
        );
        apart_rows(
            &run1.join(format!("apart-{id}")),
            id,
            a["count"].as_u64().unwrap(),
        );
        apart_ids.insert(id.to_string());
    }
    let contract: serde_json::Value =
        serde_json::from_slice(&read(&run1.join("contract.json"))).unwrap();
    assert_eq!(contract["contract"]["corpus"]["count"], measured);
    assert_eq!(contract["contract"]["settings"], "smoke");
    // The registry as measured: the enabled profiles are those sized.
    let registry: serde_json::Value =
        serde_json::from_slice(&read(&label.join("registry.json"))).unwrap();
    assert_eq!(
        registry,
        serde_json::to_value(binostr::profiles::table()).unwrap()
    );
    // Every run CSV starts with its layout's header; every row fits it.
    for layout in binostr_records::csv::RUN {
        let path = run1.join(layout.file);
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let text = String::from_utf8(bytes).unwrap();
        assert!(text.starts_with(&layout.header_line()), "{}", layout.file);
        for l in text.lines() {
            assert!(layout.fits(l), "{}: {l}", layout.file);
        }
    }
    // The filter set the filter workloads scanned, beside campaign.json.
    let filters: binostr::filter::FilterSet =
        serde_json::from_slice(&read(&label.join("filters.json"))).unwrap();
    assert_eq!(filters.events as u64, measured);
    assert_eq!(filters.filters.len(), binostr::filter::draw::COUNT);
    assert_eq!(filters.matches.len(), filters.filters.len());
    let sized: BTreeSet<String> = String::from_utf8(read(&run1.join("sizes.csv")))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap().to_owned())
        .collect();
    let enabled: BTreeSet<String> = binostr::profiles::enabled()
        .map(|p| p.id.to_owned())
        .filter(|id| !apart_ids.contains(id))
        .collect();
    assert_eq!(sized, enabled);
    // Sizes cover every subset with events, the kind strata and the mix
    // stream included, even where smoke times `all` and `mix` only.
    let sizes = String::from_utf8(read(&run1.join("sizes.csv"))).unwrap();
    for subset in ["all", "mix", "kind-1", "kind-other"] {
        assert!(
            sizes
                .lines()
                .any(|l| l.starts_with(&format!("json,{subset},"))),
            "sizes.csv has no json row for {subset}"
        );
    }
    // kind-other's sub-strata partition it.
    let events = |subset: &str| -> u64 {
        sizes
            .lines()
            .find(|l| l.starts_with(&format!("json,{subset},")))
            .map_or(0, |l| l.split(',').nth(2).unwrap().parse().unwrap())
    };
    let parts: u64 = binostr_records::Subset::OTHER
        .iter()
        .map(|s| events(&s.name()))
        .sum();
    assert!(events("kind-other") > 0);
    assert_eq!(parts, events("kind-other"));
    // The sensitivity input: every median, json among the profiles.
    let lists = String::from_utf8(read(&run1.join("follow-lists.csv"))).unwrap();
    assert!(lists.starts_with(&binostr_records::csv::FOLLOW_LISTS.header_line()));
    for median in binostr::corpus::generate::FOLLOW_LIST_MEDIANS {
        assert!(
            lists
                .lines()
                .any(|l| l.starts_with(&format!("json,{median},"))),
            "follow-lists.csv has no json row at median {median}"
        );
    }
    let rounds = String::from_utf8(read(&run1.join("rounds.csv"))).unwrap();
    let groups: BTreeSet<(&str, &str)> = rounds
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[0], f[1])
        })
        .collect();
    assert_eq!(
        groups.len(),
        contract["observed"]["groups"].as_u64().unwrap() as usize
    );
    // Subset `mix` is a stream drawn from the corpus, which the smoke
    // corpus fills; transport measures that stream.
    let mix = record["sequences"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["subset"] == "mix")
        .expect("the smoke corpus fills every stratum of the mix");
    let streamed = mix["indices"].as_array().unwrap().len() as u64;
    assert!(streamed > 0 && streamed <= measured);
    // Every member of a (workload, subset) times the same events.
    let samples = String::from_utf8(read(&run1.join("samples.csv"))).unwrap();
    let mut seen: BTreeMap<(String, String), (String, String)> = Default::default();
    for l in samples.lines().skip(1) {
        let f: Vec<&str> = l.split(',').collect();
        let key = (f[0].to_string(), f[2].to_string());
        let pass = (f[7].to_string(), f[8].to_string());
        // A filter pass scans the subset once per drawn filter.
        let scans = if f[0].starts_with("filter-") {
            binostr::filter::draw::COUNT
        } else {
            1
        };
        let events = if f[2] == "mix" { streamed } else { measured };
        assert_eq!(
            pass.0,
            (events * scans as u64).to_string(),
            "{l}: a pass covers the whole subset"
        );
        let first = seen.entry(key).or_insert_with(|| pass.clone());
        assert_eq!(*first, pass, "{l}");
    }
    // rounds.csv keeps every round of a sample up to the cap, then thins.
    let cap = binostr::bench::timing::RECORDED_ROUNDS_PER_SAMPLE;
    let mut written: BTreeMap<[&str; 5], usize> = BTreeMap::new();
    for l in rounds.lines().skip(1) {
        let f: Vec<&str> = l.split(',').collect();
        *written.entry([f[1], f[3], f[5], f[6], f[7]]).or_default() += 1;
    }
    for l in samples.lines().skip(1) {
        let f: Vec<&str> = l.split(',').collect();
        if f[0].starts_with("transport-") {
            continue;
        }
        let iters: usize = f[5].parse().unwrap();
        assert_eq!(
            written.get(&[f[2], f[4], f[0], f[1], f[3]]).copied(),
            Some(iters.min(cap)),
            "{l}: rounds.csv rows of this sample"
        );
    }
    // Every enabled profile exchanges the sequence over WebSocket in each
    // compression mode, beside json.
    let transported: BTreeSet<(String, String)> = samples
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|f| f[0].starts_with("transport-"))
        .map(|f| (f[0].to_string(), f[1].to_string()))
        .collect();
    let modes = [
        ("transport-plain", "none"),
        ("transport-deflate", "deflate"),
        ("transport-deflate-ctx", "deflate-ctx"),
    ];
    let want: BTreeSet<(String, String)> = modes
        .iter()
        .flat_map(|(w, _)| enabled.iter().map(|p| (w.to_string(), p.clone())))
        .collect();
    assert_eq!(
        transported, want,
        "one transport row per workload and profile"
    );
    transport_rows(&run1, streamed, &enabled, &modes);
    let ratios = String::from_utf8(read(&run1.join("ratios.csv"))).unwrap();
    for (w, _) in modes {
        assert!(
            ratios
                .lines()
                .any(|l| l.starts_with(&format!("{w},")) && l.split(',').nth(4) == Some("json")),
            "no {w} ratio against json"
        );
    }
    for against in [
        "json",
        "copy",
        "clone",
        "decode",
        "id+verify",
        "select-raw-offset",
        "filter-event",
    ] {
        assert!(
            ratios.lines().any(|l| l.split(',').nth(4) == Some(against)),
            "no ratio against {against}"
        );
    }
    let instructions = instruction_counts(&run1, &contract, measured, &apart_ids);
    // Every stage's wall time, in the order the run took them.
    let mut want = vec!["timing", "sizes", "latency", "transport"]
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>();
    for a in record["corpus"]["apart"].as_array().unwrap() {
        let id = a["profile"].as_str().unwrap();
        for task in ["timing", "sizes", "transport"] {
            want.push(format!("apart {id} {task}"));
        }
    }
    want.extend(["allocations", "peak RSS"].map(String::from));
    if instructions.is_some() {
        want.push("instructions".into());
    }
    let stages = contract["observed"]["stages"].as_array().unwrap();
    let named: Vec<String> = stages
        .iter()
        .map(|s| s["stage"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(named, want);
    assert!(stages.iter().all(|s| s["seconds"].as_f64().unwrap() >= 0.0));
    let before = read(&run1.join("samples.csv"));

    // A killed run is never counted, and the next invocation resumes it.
    let mut child = campaign(root, 2)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .unwrap();
    let tmp2 = label.join("run-2.tmp");
    let started = Instant::now();
    while !tmp2.exists() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!(
                "run-2 exited before it started ({status}): was the checkout committed meanwhile?"
            );
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "run-2 never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = Command::new("kill")
        .args(["-KILL", "--", &format!("-{}", child.id())])
        .status()
        .unwrap();
    assert!(status.success());
    child.wait().unwrap();
    assert!(!label.join("run-2").exists(), "a killed run must not count");
    assert!(tmp2.exists());
    let text = run_ok(campaign(root, 2));
    assert!(text.contains("discarding unfinished"), "{text}");
    assert!(label.join("run-2/contract.json").exists());
    assert!(!tmp2.exists());
    assert_eq!(read(&run1.join("samples.csv")), before, "run-1 untouched");
    let run2: serde_json::Value =
        serde_json::from_slice(&read(&label.join("run-2/contract.json"))).unwrap();
    assert_eq!(run2["contract"], contract["contract"]);
    assert_ne!(
        run2["observed"]["order_seed"],
        contract["observed"]["order_seed"]
    );
    if let (Some(one), Some(two)) = (
        &instructions,
        instruction_counts(&label.join("run-2"), &run2, measured, &apart_ids),
    ) {
        for (key, &a) in one {
            let b = two[key];
            let drift = (a as f64 - b as f64).abs() / a as f64;
            assert!(drift <= 1e-3, "{key:?}: run-1 {a}, run-2 {b} instructions");
        }
    }

    // A run recorded under another contract is refused, naming the field.
    let mut changed = contract.clone();
    changed["contract"]["host"]["cpu_model"] = "Another CPU".into();
    std::fs::write(
        run1.join("contract.json"),
        serde_json::to_vec_pretty(&changed).unwrap(),
    )
    .unwrap();
    let out = campaign(root, 3).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("run-1 was measured under a different contract")
            && err.contains("`contract.host.cpu_model`")
            && err.contains("Another CPU"),
        "{err}"
    );
    assert!(!label.join("run-3").exists() && !label.join("run-3.tmp").exists());

    // So is a different corpus for the same label.
    let out = Command::new(env!("CARGO_BIN_EXE_binostr"))
        .args([
            "campaign",
            "--settings",
            "smoke",
            "--label",
            "t",
            "--generate",
            "60",
            "21",
        ])
        .arg("--campaigns")
        .arg(root)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("field `campaign.corpus."), "{err}");
}

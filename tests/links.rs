//! `binostr links` end to end: two network namespaces over a tbf-shaped veth
//! pair. Needs root and iproute2; without them the test says NOT RUN and
//! passes, except under `CI=true`, where it fails.

use std::collections::BTreeMap;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use binostr_records::csv::LINKS;

const BIN: &str = env!("CARGO_BIN_EXE_binostr");

/// Whether this host can make network namespaces; fails under CI when not.
/// Each call probes with its own name: the tests run in parallel threads of
/// one process, and a shared name would make one probe fail on the other's.
fn can_make_namespaces() -> bool {
    static PROBES: AtomicU32 = AtomicU32::new(0);
    let n = PROBES.fetch_add(1, Ordering::Relaxed);
    let probe = format!("binostr-links-probe-{}-{n}", std::process::id());
    let add = Command::new("ip").args(["netns", "add", &probe]).output();
    if add.as_ref().is_ok_and(|o| o.status.success()) {
        let _ = Command::new("ip")
            .args(["netns", "delete", &probe])
            .status();
        return true;
    }
    let why = match add {
        Ok(o) => String::from_utf8_lossy(&o.stderr).trim().to_owned(),
        Err(e) => e.to_string(),
    };
    assert_ne!(
        std::env::var("CI").as_deref(),
        Ok("true"),
        "`ip netns add {probe}` failed under CI ({why}): the links workload needs root and iproute2"
    );
    eprintln!("cannot make network namespaces ({why}): links NOT RUN");
    false
}

fn namespaces_of(pid: u32) -> Vec<String> {
    let out = Command::new("ip").args(["netns", "list"]).output().unwrap();
    let prefix = format!("binostr-links-{pid}-");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| n.starts_with(&prefix))
        .map(str::to_owned)
        .collect()
}

#[test]
fn shaped_links_are_measured_and_removed() {
    if !can_make_namespaces() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let run = Command::new(BIN)
        .args([
            "links",
            "--generated",
            "200",
            "--count",
            "30",
            "--publish",
            "5",
            "--profiles",
            "notepack",
            "--links",
            "unshaped,10",
            "--rtt-ms",
            "50",
            "--min-rounds",
            "2",
            "--max-rounds",
            "2",
            "--budget-s",
            "0.1",
            "--out",
        ])
        .arg(out.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = run.id();
    let run = run.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert_eq!(namespaces_of(pid), Vec::<String>::new(), "left behind");
    let text = std::fs::read_to_string(out.path().join("links.csv")).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(LINKS.header().as_str()));
    let names: Vec<&str> = LINKS.columns.iter().map(|c| c.name).collect();
    let rows: Vec<BTreeMap<&str, &str>> = lines
        .map(|l| {
            assert!(LINKS.fits(l), "{l}");
            names.iter().copied().zip(l.split(',')).collect()
        })
        .collect();
    // json and notepack × (3 modes + 2 with zlib-rs, the sensitivity
    // default) × 2 links × (measured, 50 ms).
    assert_eq!(rows.len(), 40);
    let faster: Vec<_> = rows
        .iter()
        .filter(|r| r["deflate_impl"] == "zlib-rs-1")
        .collect();
    assert_eq!(faster.len(), 16);
    for f in faster {
        let zlib = rows
            .iter()
            .find(|r| {
                r["deflate_impl"] == "zlib-1"
                    && ["profile", "mode", "link", "rtt_ms"]
                        .iter()
                        .all(|c| r[c] == f[c])
            })
            .unwrap();
        assert_ne!(f["s2c_bytes"], zlib["s2c_bytes"], "another deflater: {f:?}");
    }
    let find = |profile: &str, mode: &str, link: &str, rtt: &str| {
        rows.iter()
            .find(|r| {
                r["profile"] == profile
                    && r["mode"] == mode
                    && r["link"] == link
                    && r["rtt_ms"] == rtt
            })
            .unwrap_or_else(|| panic!("no row {profile} {mode} {link} {rtt}"))
    };
    let num = |r: &BTreeMap<&str, &str>, c: &str| r[c].parse::<f64>().unwrap();
    for profile in ["json", "notepack"] {
        for mode in ["none", "deflate", "deflate-ctx"] {
            let bare = find(profile, mode, "unshaped", "0");
            let shaped = find(profile, mode, "10mbit", "0");
            let delayed = find(profile, mode, "10mbit", "50");
            assert_eq!(bare["rtt_source"], "measured");
            assert_eq!(delayed["rtt_source"], "modelled");
            assert_eq!(
                (bare["s2c_bytes"], bare["c2s_bytes"]),
                (shaped["s2c_bytes"], shaped["c2s_bytes"]),
                "bytes do not depend on the link"
            );
            assert_eq!(bare["events"], "30");
            assert_eq!(shaped["rounds"], "2");
            // tbf holds the rate: past a full bucket, which leaves at line
            // rate, the answer cannot arrive faster than its bytes take at
            // 10 Mbit/s.
            let bucket = binostr::transport::links::netns::burst_bytes(10.0) as f64;
            let floor = (num(shaped, "s2c_bytes") - bucket) * 8.0 / 10e6;
            assert!(num(shaped, "req_eose_s") >= floor, "{shaped:?}");
            // Six decimals in the file.
            assert!(num(delayed, "req_eose_s") >= num(shaped, "req_eose_s") + 0.05 - 2e-6);
            assert_eq!(
                shaped["deflate_impl"],
                if mode == "none" { "" } else { "zlib-1" }
            );
            assert!(num(shaped, "relay_cpu_ns_per_event") > 0.0);
            // EVENT → OK: 5 published, each one frame plus its OK; the
            // modelled round trip adds at least 50 ms per event.
            assert_eq!(shaped["published"], "5");
            assert!(num(shaped, "event_c2s_bytes") > 100.0, "{shaped:?}");
            assert_eq!(shaped["event_c2s_bytes"], bare["event_c2s_bytes"]);
            let wire = num(shaped, "event_c2s_bytes") + num(shaped, "ok_s2c_bytes");
            assert!(num(shaped, "event_ok_s") >= wire * 8.0 / 10e6, "{shaped:?}");
            assert!(num(delayed, "event_ok_s") >= num(shaped, "event_ok_s") + 0.05 - 2e-6);
            assert!(num(shaped, "event_relay_cpu_ns") > 0.0);
            assert!(num(shaped, "client_cpu_ns_per_event") > 0.0);
            if profile == "json" {
                assert_eq!(shaped["time_vs_json"], "");
            } else {
                assert!(num(shaped, "time_vs_json") > 0.0);
            }
        }
    }
    assert_eq!(
        find("json", "deflate", "10mbit", "0")["time_vs_json_deflate"],
        ""
    );
    let readme = std::fs::read_to_string(out.path().join("README.md")).unwrap();
    assert!(readme.contains("| 10mbit | 2 |"), "{readme}");
}

#[test]
fn a_signal_removes_the_namespaces() {
    if !can_make_namespaces() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let child = Command::new(BIN)
        .args([
            "links",
            "--generated",
            "200",
            "--count",
            "60",
            "--profiles",
            "notepack",
            "--links",
            "1",
            "--min-rounds",
            "50",
            "--max-rounds",
            "50",
            "--out",
        ])
        .arg(out.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let start = Instant::now();
    while namespaces_of(pid).len() < 2 {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no namespaces after 60 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // Let the first exchanges start on the shaped link.
    std::thread::sleep(Duration::from_millis(500));
    let killed = Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("removed network namespaces"), "{stderr}");
    assert_eq!(namespaces_of(pid), Vec::<String>::new());
    assert!(!out.path().join("links.csv").exists());
}

#[test]
fn bad_arguments_are_refused_before_any_namespace() {
    for (args, says) in [
        (&["--links", "fast"][..], "neither `unshaped` nor a rate"),
        (&["--rtt-ms", "0"][..], "must be above 0"),
        (
            &["--min-rounds", "1"][..],
            "--min-rounds must be at least 2",
        ),
    ] {
        let run = Command::new(BIN)
            .args(["links", "--generated", "50"])
            .args(args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success());
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

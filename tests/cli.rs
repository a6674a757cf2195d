//! The `binostr` binary as a user runs it: outputs, exit codes, one-line errors.

use std::path::Path;
use std::process::{Command, Output};

fn binostr(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_binostr"))
        .args(args)
        .output()
        .expect("binostr runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn generate(out: &Path, seed: u64, count: usize) {
    let (seed, count) = (seed.to_string(), count.to_string());
    let o = binostr(&[
        "corpus",
        "generate",
        "--seed",
        &seed,
        "--count",
        &count,
        "-o",
        path(out),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn generate_is_deterministic_and_audits_clean() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.jsonl");
    let b = dir.path().join("b.jsonl");
    generate(&a, 7, 300);
    generate(&b, 7, 300);
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());

    let o = binostr(&["corpus", "audit", "--json", path(&a)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["read"], 300);
    assert_eq!(report["accepted"], 300);
    assert_eq!(report["duplicates"], 0);
    assert_eq!(report["rejected"], serde_json::json!([]));
    assert_eq!(report["fingerprint"].as_str().unwrap().len(), 64);
    for p in ["p50", "p90", "p99", "max"] {
        assert!(report["sizes"][p].as_u64().unwrap() > 0, "{p}");
    }
}

#[test]
fn audit_json_accounts_for_every_record() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("c.jsonl");
    generate(&corpus, 1, 3);
    let good = std::fs::read_to_string(&corpus).unwrap();
    let first = good.lines().next().unwrap();
    let broken = dir.path().join("broken.jsonl");
    std::fs::write(
        &broken,
        format!("{good}{first}\n{{\"id\":\n[\"NOTICE\",\"hi\"]\n"),
    )
    .unwrap();
    let o = binostr(&["corpus", "audit", "--json", path(&broken)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (r["read"].as_u64(), r["accepted"].as_u64()),
        (Some(6), Some(3))
    );
    assert_eq!(r["duplicates"], 1);
    let rejected = r["rejected"].as_array().unwrap();
    let summary: Vec<(&str, u64)> = rejected
        .iter()
        .map(|x| {
            (
                x["reason"].as_str().unwrap(),
                x["position"]["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(summary, vec![("malformed-json", 5), ("not-an-event", 6)]);
    assert_eq!(rejected[0]["source"], path(&broken));
}

#[test]
fn select_writes_selection_and_record() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("c.jsonl");
    let sel = dir.path().join("s.jsonl");
    generate(&corpus, 2, 200);
    let o = binostr(&[
        "corpus",
        "select",
        "--seed",
        "9",
        "--count",
        "50",
        "-o",
        path(&sel),
        path(&corpus),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("selected 50 of 200 events (seed 9"),
        "{}",
        stdout(&o)
    );
    assert_eq!(std::fs::read_to_string(&sel).unwrap().lines().count(), 50);
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("s.jsonl.selection.json")).unwrap())
            .unwrap();
    assert_eq!(
        (record["count"].as_u64(), record["seed"].as_u64()),
        (Some(50), Some(9))
    );
    let too_many = binostr(&[
        "corpus",
        "select",
        "--seed",
        "9",
        "--count",
        "201",
        "-o",
        path(&sel),
        path(&corpus),
    ]);
    assert_eq!(too_many.status.code(), Some(1));
    assert!(stderr(&too_many).contains("only 200 distinct accepted events"));
}

#[test]
fn errors_are_one_line_and_non_zero() {
    let o = binostr(&["corpus", "audit", "/nonexistent/file.jsonl"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("binostr: /nonexistent/file.jsonl: "),
        "{err}"
    );

    let empty = tempfile::tempdir().unwrap();
    let o = binostr(&[
        "corpus",
        "audit",
        "--source",
        "real",
        "--from",
        path(empty.path()),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("real corpus not found"),
        "{}",
        stderr(&o)
    );

    let o = binostr(&["corpus", "audit"]);
    assert_eq!(o.status.code(), Some(2), "usage errors exit 2");
}

/// The campaign's settings are `--settings` (env
/// `BINOSTR_CAMPAIGN_SETTINGS`); the old spellings are refused before any
/// work, naming the new one.
#[test]
fn campaign_settings_old_spellings_are_refused() {
    let root = tempfile::tempdir().unwrap();
    let campaign = |args: &[&str]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_binostr"));
        c.arg("campaign")
            .args(args)
            .args(["--label", "t", "--campaigns", path(root.path())])
            .env_remove("BINOSTR_CAMPAIGN_SETTINGS")
            .env_remove("BINOSTR_CAMPAIGN_PROFILE");
        c
    };
    let o = campaign(&["--profile", "smoke"]).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("`--settings smoke`") && err.contains("wire profile"),
        "{err}"
    );

    let o = campaign(&["--settings", "smoke"])
        .env("BINOSTR_CAMPAIGN_PROFILE", "smoke")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("BINOSTR_CAMPAIGN_SETTINGS"), "{err}");
    assert_eq!(
        std::fs::read_dir(root.path()).unwrap().count(),
        0,
        "no work"
    );

    let o = campaign(&["--settings", "medium"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "usage errors exit 2");
    assert!(stderr(&o).contains("publication"), "{}", stderr(&o));
    let o = campaign(&[])
        .env("BINOSTR_CAMPAIGN_SETTINGS", "medium")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "the environment is read");

    let o = binostr(&["campaign", "--help"]);
    let help = stdout(&o);
    assert!(help.contains("--settings") && help.contains("BINOSTR_CAMPAIGN_SETTINGS"));
    assert!(!help.contains("--profile"), "{help}");
}

#[test]
fn real_source_with_a_changed_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir
        .path()
        .join("upstream/soapbox-pub/nostrify/eb5626e8a63041f68fff37ec9fc60480031a0691/fixtures");
    std::fs::create_dir_all(&target).unwrap();
    std::fs::write(target.join("events.json"), "[]").unwrap();
    let o = binostr(&[
        "corpus",
        "audit",
        "--source",
        "real",
        "--from",
        path(dir.path()),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("differs from the recorded"), "{err}");
    assert!(err.contains("refusing it"), "{err}");
}

#[test]
fn encode_then_decode_every_profile() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("c.jsonl");
    // Events every profile represents (nson's header caps the tag count).
    let all: Vec<&'static binostr::codec::Profile> = binostr::profiles::PROFILES.iter().collect();
    let (events, refused) =
        binostr::bench::fixture::representable(binostr::corpus::generate::generate(3, 60), &all);
    assert!(refused.len() <= 3, "{} of 60 refused", refused.len());
    let n = events.len();
    let original: String = events.iter().map(|e| e.to_json() + "\n").collect();
    std::fs::write(&corpus, &original).unwrap();
    let listed = binostr(&["profiles", "--json"]);
    let profiles: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
    let ids: Vec<&str> = binostr::profiles::PROFILES.iter().map(|p| p.id).collect();
    let listed_ids: Vec<&str> = profiles
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(listed_ids, ids);
    for id in ids {
        let framed = dir.path().join(format!("{id}.bin"));
        let o = binostr(&[
            "encode",
            "--profile",
            id,
            "-o",
            path(&framed),
            path(&corpus),
        ]);
        assert!(o.status.success(), "{id}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("encoded {n} of {n} records")),
            "{id}: {}",
            stderr(&o)
        );
        let o = binostr(&["decode", "--profile", id, path(&framed)]);
        assert!(o.status.success(), "{id}: {}", stderr(&o));
        assert_eq!(stdout(&o), original, "{id}: decode(encode(x)) differs");

        // Cut the last record short: a clean error, exit 65, one line.
        let mut bytes = std::fs::read(&framed).unwrap();
        let cut = bytes.len() - 3;
        bytes.truncate(cut);
        std::fs::write(&framed, &bytes).unwrap();
        let o = binostr(&["decode", "--profile", id, path(&framed)]);
        assert_eq!(o.status.code(), Some(65), "{id}: {}", stderr(&o));
        assert_eq!(stderr(&o).lines().count(), 1, "{id}: {}", stderr(&o));
        assert!(stderr(&o).contains("stream byte"), "{id}: {}", stderr(&o));
    }
    let o = binostr(&["decode", "--profile", "nope", "-"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("unknown profile `nope`"));
}

#[test]
fn sizes_cover_every_enabled_profile() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("c.jsonl");
    generate(&corpus, 4, 80);
    let o = binostr(&["sizes", "--json", path(&corpus)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let rows = rows.as_array().unwrap();
    let enabled: Vec<&str> = binostr::profiles::enabled().map(|p| p.id).collect();
    let measured: Vec<&str> = rows
        .iter()
        .map(|r| r["profile"].as_str().unwrap())
        .collect();
    assert_eq!(measured, enabled);
    let json = &rows[0];
    assert_eq!(json["profile"], "json");
    assert_eq!(json["raw_total"], json["json_total"]);
    for r in rows {
        let events =
            r["raw"]["events"].as_u64().unwrap() + r["not_representable"].as_u64().unwrap();
        assert_eq!(events, 80, "{}", r["profile"]);
        assert_eq!(
            r["framed_total"].as_u64().unwrap(),
            r["raw_total"].as_u64().unwrap() + 4 * r["raw"]["events"].as_u64().unwrap()
        );
    }
}

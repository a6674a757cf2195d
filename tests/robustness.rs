//! The reduced robustness suite through the CLI: every profile's concrete
//! hostile cases (truncations, length inflation, bad UTF-8, fields,
//! non-canonical forms, length bombs, 20,000-deep bombs and the
//! 10,000,000-deep recipe bombs) plus 20,000 mutations per profile, each
//! subject in child processes. Our profiles must show no panic, signal,
//! stack overflow, timeout, OOM or memory-bound violation, and
//! `binostr decode` must refuse every bomb with exit 65 and one line.

use std::path::Path;
use std::process::Command;

use binostr::codec::framing::{Frames, write_frame};
use binostr::profiles::PROFILES;
use binostr::torture::{Class, concrete_cases};

const BIN: &str = env!("CARGO_BIN_EXE_binostr");
const MUTATIONS: u64 = 20_000;

fn binostr(args: &[&str]) -> std::process::Output {
    Command::new(BIN).args(args).output().expect("run binostr")
}

fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

#[test]
fn reduced_suite_has_no_failures_and_decode_refuses_bombs() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = tmp.path().join("cases");
    let out = tmp.path().join("out");
    let g = binostr(&[
        "torture",
        "generate",
        "--mutations",
        &MUTATIONS.to_string(),
        path(&cases),
    ]);
    assert!(g.status.success(), "{}", String::from_utf8_lossy(&g.stderr));

    let r = binostr(&[
        "torture",
        "run",
        "--json",
        "--out",
        path(&out),
        path(&cases),
    ]);
    let stdout = String::from_utf8_lossy(&r.stdout);
    assert!(
        r.status.success(),
        "torture run failed: {}\n{}",
        String::from_utf8_lossy(&r.stderr),
        std::fs::read_to_string(out.join("robustness.md")).unwrap_or_default()
    );
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["failures"], 0);
    assert!(out.join("robustness.md").exists());

    let subjects = report["subjects"].as_array().unwrap();
    let cell = |id: &str, class: &str, outcome: &str| -> u64 {
        let s = subjects.iter().find(|s| s["subject"] == id).unwrap();
        s["classes"][class]["outcomes"][outcome]
            .as_u64()
            .unwrap_or(0)
    };
    let cases_in = |id: &str, class: &str| -> u64 {
        let s = subjects.iter().find(|s| s["subject"] == id).unwrap();
        s["classes"][class]["outcomes"]
            .as_object()
            .map_or(0, |o| o.values().map(|v| v.as_u64().unwrap()).sum())
    };
    for p in PROFILES {
        assert_eq!(cases_in(p.id, "mutation"), MUTATIONS, "{}", p.id);
        assert!(cases_in(p.id, "length-bomb") > 0, "{}", p.id);
        if p.capabilities.self_describing {
            // Two 20,000-deep bombs written out and two 10,000,000-deep recipes.
            assert_eq!(cases_in(p.id, "nesting-bomb"), 4, "{}", p.id);
        }
    }
    // The detector works: notepack 0.3.0 panics on truncated input (known upstream).
    assert!(cell("lib:notepack-0.3", "truncation", "panic") > 0);

    // `binostr decode` on every bomb, one record per file: exit 65, one line.
    // Every concrete bomb the generator makes must be there to be checked.
    let mut checked = 0;
    for p in PROFILES {
        let concrete = concrete_cases(p);
        for class in [Class::LengthBomb, Class::NestingBomb] {
            let expected = concrete.iter().filter(|c| c.class == class).count();
            let class = class.name();
            let file = cases.join(p.id).join(format!("{class}.frames"));
            let frames = match std::fs::read(&file) {
                Ok(frames) => frames,
                Err(e) if expected == 0 && e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => panic!("{}: {expected} {class} cases expected: {e}", file.display()),
            };
            let mut found = 0;
            for (i, frame) in Frames::new(&frames, usize::MAX).enumerate() {
                found += 1;
                let (_, record) = frame.unwrap();
                let one = tmp.path().join("one.frames");
                let mut framed = Vec::new();
                write_frame(&mut framed, record).unwrap();
                std::fs::write(&one, framed).unwrap();
                let d = binostr(&["decode", "--profile", p.id, path(&one)]);
                let err = String::from_utf8_lossy(&d.stderr);
                assert_eq!(d.status.code(), Some(65), "{} {class} {i}: {err}", p.id);
                assert_eq!(err.lines().count(), 1, "{} {class} {i}: {err}", p.id);
                assert!(err.contains("at byte"), "{}: no offset: {err}", p.id);
            }
            assert_eq!(
                found,
                expected,
                "{}: {found} {class} records checked, expected {expected}",
                file.display()
            );
            checked += found;
        }
    }
    assert!(checked > 0, "no bomb was checked");
}

//! The committed `results/maintenance/` is what `binostr maintenance`
//! computes from this checkout (`--check`), so the table cannot drift from
//! the modules, the generated code, `Cargo.lock` or the interop results.

use std::path::Path;
use std::process::Command;

/// Whether `root` holds the interop results the table reads. The Nix build's
/// source set leaves `results/` out, and the flake skips these tests by name;
/// anywhere else under CI (`ci`) a missing `results/interop` fails.
fn has_results(root: &Path, ci: bool) -> bool {
    if root.join("results/interop").is_dir() {
        return true;
    }
    assert!(
        !ci,
        "CI=true and {} has no results/interop: the maintenance table cannot be checked",
        root.display()
    );
    eprintln!("NOT RUN: {} has no results/interop", root.display());
    false
}

fn ci() -> bool {
    std::env::var("CI").as_deref() == Ok("true")
}

#[test]
#[should_panic(expected = "CI=true and")]
fn missing_results_fail_under_ci() {
    has_results(tempfile::tempdir().unwrap().path(), true);
}

#[test]
fn committed_table_matches_the_checkout() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if !has_results(root, ci()) {
        return;
    }
    let out = Command::new(env!("CARGO_BIN_EXE_binostr"))
        .args(["maintenance", "--check", "--root"])
        .arg(root)
        .output()
        .expect("binostr runs");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn check_fails_on_a_stale_table() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if !has_results(root, ci()) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_binostr"))
        .args(["maintenance", "--check", "--root"])
        .arg(root)
        .arg("--out")
        .arg(dir.path())
        .output()
        .expect("binostr runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("3 of 3 files are stale"), "{err}");
}

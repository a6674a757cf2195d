//! The committed `results/maintenance/` is what `binostr maintenance`
//! computes from this checkout (`--check`), so the table cannot drift from
//! the modules, the generated code, `Cargo.lock` or the interop results.

use std::path::Path;
use std::process::Command;

#[test]
fn committed_table_matches_the_checkout() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if !root.join("results/interop").is_dir() {
        // The Nix build's source set leaves results/ out; CI runs this on a checkout.
        eprintln!("skipped: {} has no results/interop", root.display());
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
    if !root.join("results/interop").is_dir() {
        eprintln!("skipped: {} has no results/interop", root.display());
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

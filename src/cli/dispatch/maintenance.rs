//! `binostr maintenance`: compute the table, write it or check it.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

use crate::files::write_atomically;
use crate::maintenance;

pub(super) fn run_maintenance(root: &Path, out: Option<PathBuf>, check: bool) -> Result<()> {
    let out = out.unwrap_or_else(|| root.join(maintenance::OUT_DIR));
    let report = maintenance::compute(root, crate::profiles::PROFILES, |step| {
        eprintln!("maintenance: {step}");
    })?;
    let files = [
        ("maintenance.json", maintenance::render_json(&report)),
        ("maintenance.csv", maintenance::render_csv(&report)),
        ("README.md", maintenance::render_readme(&report)),
    ];
    if !check {
        for (name, text) in &files {
            write_atomically(&out.join(name), text.as_bytes())?;
        }
        eprintln!(
            "maintenance: {} profiles -> {}",
            report.profiles.len(),
            out.display()
        );
        return Ok(());
    }
    let mut stale = Vec::new();
    for (name, text) in &files {
        let path = out.join(name);
        match fs::read_to_string(&path) {
            Err(e) => stale.push(format!("{}: {e}", path.display())),
            Ok(found) if found != *text => {
                let (n, ours, theirs) = first_difference(text, &found);
                stale.push(format!(
                    "{} differs at line {n}: computed {ours:?}, committed {theirs:?}",
                    path.display()
                ));
            }
            Ok(_) => {}
        }
    }
    if stale.is_empty() {
        println!("{}: up to date", out.display());
        return Ok(());
    }
    for s in &stale {
        eprintln!("maintenance: {s}");
    }
    bail!(
        "{} of {} files are stale (regenerate with `just maintenance`)",
        stale.len(),
        files.len()
    )
}

fn first_difference<'a>(a: &'a str, b: &'a str) -> (usize, &'a str, &'a str) {
    let (mut la, mut lb) = (a.lines(), b.lines());
    let mut n = 1;
    loop {
        match (la.next(), lb.next()) {
            (x, y) if x != y => return (n, x.unwrap_or("<end>"), y.unwrap_or("<end>")),
            (None, None) => return (n, "<end>", "<end>"),
            _ => n += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_the_first_differing_line() {
        assert_eq!(super::first_difference("a\nb\n", "a\nc\n"), (2, "b", "c"));
        assert_eq!(super::first_difference("a\n", "a\nx\n"), (2, "<end>", "x"));
    }
}

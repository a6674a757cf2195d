//! `binostr evolution`.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

use crate::cli::args::LimitArgs;
use crate::corpus::audit;
use crate::evolution::report;
use crate::files::write_atomically;

pub(super) fn run_evolution(
    out: &Path,
    enabled_only: bool,
    max_events: usize,
    inputs: &[PathBuf],
) -> Result<()> {
    if max_events == 0 {
        bail!("--max-events must be at least 1");
    }
    let (input, events) = if inputs.is_empty() {
        (
            "the built-in golden event (torture::golden_event)".to_string(),
            vec![crate::torture::golden_event()],
        )
    } else {
        let mut events = Vec::new();
        let a = audit::audit_paths(inputs, &LimitArgs::default_options(), |e| {
            if events.len() < max_events {
                events.push(e);
            }
        })?;
        let names: Vec<String> = inputs.iter().map(|p| p.display().to_string()).collect();
        if events.is_empty() {
            bail!(
                "no valid event in {} ({} records, {} rejected by the audit)",
                names.join(", "),
                a.read,
                a.rejected.len()
            );
        }
        eprintln!(
            "evolution: {} events from {} ({} records read, {} rejected by the audit)",
            events.len(),
            names.join(", "),
            a.read,
            a.rejected.len()
        );
        (names.join(", "), events)
    };
    let r = report::run(&input, &events, !enabled_only, true);
    write_atomically(
        &out.join("evolution.json"),
        (serde_json::to_string_pretty(&r)? + "\n").as_bytes(),
    )?;
    let csv = report::render_csv(&r);
    write_atomically(&out.join("evolution.csv"), csv.as_bytes())?;
    write_atomically(
        &out.join("README.md"),
        report::render_markdown(&r).as_bytes(),
    )?;
    print!("{csv}");
    if !r.failures.is_empty() {
        for f in &r.failures {
            eprintln!("  FAILURE {f}");
        }
        bail!(
            "{} unexplained failures; see {}",
            r.failures.len(),
            out.join("README.md").display()
        );
    }
    Ok(())
}

//! `binostr evolution`.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::cli::args::LimitArgs;
use crate::corpus::audit;
use crate::evolution::report;
use crate::files::write_atomically;
use crate::model::Event;
use crate::validate::Limits;

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
    } else if let Some(events) = interop_vectors(inputs, max_events)? {
        let names: Vec<String> = inputs.iter().map(|p| p.display().to_string()).collect();
        eprintln!(
            "evolution: {} events from the interop vectors {}",
            events.len(),
            names.join(", ")
        );
        (
            format!("the events of interop vectors {}", names.join(", ")),
            events,
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

/// The events of interop vectors files (`binostr vectors`: an object whose
/// `vectors` hold `event`s), when every input is one; `None` otherwise, and
/// the inputs are read as `corpus audit` reads them.
fn interop_vectors(inputs: &[PathBuf], max_events: usize) -> Result<Option<Vec<Event>>> {
    let json = crate::profiles::json::PROFILE.codec;
    let mut events = Vec::new();
    for path in inputs {
        let Ok(bytes) = fs::read(path) else {
            return Ok(None);
        };
        let Ok(value) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
            return Ok(None);
        };
        let Some(vectors) = value.get("vectors").and_then(|v| v.as_array()) else {
            return Ok(None);
        };
        for (i, v) in vectors.iter().enumerate() {
            let event = v
                .get("event")
                .with_context(|| format!("{}: vector {i} has no event", path.display()))?;
            let e = json
                .decode(event.to_string().as_bytes(), &Limits::default())
                .with_context(|| format!("{}: vector {i}", path.display()))?;
            if events.len() < max_events {
                events.push(e);
            }
        }
    }
    Ok(Some(events))
}

//! The commands over one profile's bytes: `encode`, `decode`, `sizes`.

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::cli::args::LimitArgs;
use crate::cli::{EXIT_BAD_DATA, ExitError};
use crate::corpus::audit;
use crate::files::write_atomically;
use crate::model::hex;
use crate::validate::Limits;

fn profile(id: &str) -> Result<&'static crate::codec::Profile> {
    crate::profiles::find(id).with_context(|| {
        let ids: Vec<&str> = crate::profiles::PROFILES.iter().map(|p| p.id).collect();
        format!("unknown profile `{id}`; known: {}", ids.join(", "))
    })
}

pub(super) fn run_encode(id: &str, output: Option<&Path>, input: &Path) -> Result<()> {
    let profile = profile(id)?;
    let mut events = Vec::new();
    let report = audit::audit_paths(&[input.to_path_buf()], &LimitArgs::default_options(), |e| {
        events.push(e)
    })?;
    let mut stream = Vec::new();
    let mut record = Vec::new();
    let mut refused = Vec::new();
    for e in &events {
        record.clear();
        match profile.codec.encode(e, &mut record) {
            Ok(()) => crate::codec::framing::write_frame(&mut stream, &record)?,
            Err(err) => refused.push((hex::encode(&e.id), err.reason)),
        }
    }
    match output {
        Some(path) => write_atomically(path, &stream)?,
        None => io::stdout().lock().write_all(&stream)?,
    }
    eprintln!(
        "encoded {} of {} records with {}: {} bytes; {} rejected by the audit, {} not representable, {} duplicates",
        events.len() - refused.len(),
        report.read,
        profile.id,
        stream.len(),
        report.rejected.len(),
        refused.len(),
        report.duplicates
    );
    for (id, reason) in &refused {
        eprintln!("  not representable: {id}: {reason}");
    }
    for r in &report.rejected {
        eprintln!("  rejected: {}: {}: {}", r.source, r.position, r.detail);
    }
    Ok(())
}

pub(super) fn run_sizes(json: bool, all: bool, inputs: &[PathBuf]) -> Result<()> {
    let mut events = Vec::new();
    let report = audit::audit_paths(inputs, &LimitArgs::default_options(), |e| events.push(e))?;
    let rows = crate::profiles::PROFILES
        .iter()
        .filter(|p| all || p.enabled)
        .map(|p| crate::bench::sizes::measure(p, &events))
        .collect::<io::Result<Vec<_>>>()?;
    if json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(());
    }
    println!(
        "{} valid events ({} records read, {} rejected, {} duplicates); zstd level {}",
        events.len(),
        report.read,
        report.rejected.len(),
        report.duplicates,
        binostr_records::ZSTD_LEVEL
    );
    print!("{}", crate::bench::sizes::render(&rows));
    for r in rows.iter().filter(|r| r.not_representable > 0) {
        println!(
            "{}: {} not representable, e.g. {}",
            r.profile,
            r.not_representable,
            r.not_representable_reasons.join("; ")
        );
    }
    Ok(())
}

pub(super) fn run_filters(seed: u64, count: usize, inputs: &[PathBuf]) -> Result<()> {
    let events = if inputs.is_empty() {
        crate::corpus::generate::generate(1, 10_000)
    } else {
        let mut events = Vec::new();
        audit::audit_paths(inputs, &LimitArgs::default_options(), |e| events.push(e))?;
        events
    };
    let set = crate::filter::FilterSet::draw(&events, seed, count)?;
    println!("{}", serde_json::to_string_pretty(&set)?);
    Ok(())
}

pub(super) fn run_decode(id: &str, input: &Path) -> Result<()> {
    let profile = profile(id)?;
    let bytes = if input.as_os_str() == "-" {
        let mut b = Vec::new();
        io::Read::read_to_end(&mut io::stdin().lock(), &mut b)?;
        b
    } else {
        fs::read(input).with_context(|| input.display().to_string())?
    };
    let limits = Limits::default();
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut line = Vec::new();
    for (n, frame) in crate::codec::framing::Frames::new(&bytes, limits.max_event_bytes).enumerate()
    {
        let bad = |offset: usize, what: String| ExitError {
            message: format!(
                "{}: record {}: {what} (stream byte {offset})",
                input.display(),
                n + 1
            ),
            code: EXIT_BAD_DATA,
        };
        let (start, record) = frame.map_err(|e| bad(e.offset, format!("bad frame: {e}")))?;
        let event = profile
            .codec
            .decode(record, &limits)
            .map_err(|e| bad(start + e.offset, format!("{}: {e}", profile.id)))?;
        line.clear();
        event.write_json(&mut line);
        line.push(b'\n');
        out.write_all(&line)?;
    }
    out.flush()?;
    Ok(())
}

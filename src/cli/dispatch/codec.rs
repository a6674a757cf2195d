//! The commands over one profile's bytes: `encode`, `decode`, `sizes`.

use std::fs;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::cli::args::LimitArgs;
use crate::cli::{EXIT_BAD_DATA, ExitError};
use crate::corpus::audit;
use crate::files::write_atomically_with;
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
    let (mut encoded, mut bytes) = (0u64, 0u64);
    let mut refused = Vec::new();
    let mut report = None;
    // Streams: each accepted event is framed and written as it comes.
    let mut write = |out: &mut dyn Write| -> io::Result<()> {
        let mut record = Vec::new();
        let mut frame = Vec::new();
        let mut failed = Ok(());
        let options = LimitArgs::default_options();
        let r = audit::audit_paths(&[input.to_path_buf()], &options, |e| {
            record.clear();
            match profile.codec.encode(&e, &mut record) {
                Ok(()) if failed.is_ok() => {
                    frame.clear();
                    failed = crate::codec::framing::write_frame(&mut frame, &record)
                        .map_err(io::Error::other)
                        .and_then(|()| out.write_all(&frame));
                    encoded += 1;
                    bytes += frame.len() as u64;
                }
                Ok(()) => {}
                Err(err) => refused.push((hex::encode(&e.id), err.reason)),
            }
        })?;
        report = Some(r);
        failed
    };
    match output {
        Some(path) => write_atomically_with(path, write)?,
        None => {
            let stdout = io::stdout();
            let mut out = BufWriter::new(stdout.lock());
            write(&mut out)?;
            out.flush()?;
        }
    }
    let report = report.expect("the audit ran");
    eprintln!(
        "encoded {encoded} of {} records with {}: {bytes} bytes; {} rejected by the audit, {} not representable, {} duplicates",
        report.read,
        profile.id,
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

/// Events encoded per parallel batch by `sizes`.
const SIZES_BATCH: usize = 4096;

pub(super) fn run_sizes(json: bool, all: bool, inputs: &[PathBuf]) -> Result<()> {
    use rayon::prelude::*;
    let started = std::time::Instant::now();
    let mut accs = crate::profiles::PROFILES
        .iter()
        .filter(|p| all || p.enabled)
        .map(crate::bench::sizes::Accumulator::new)
        .collect::<io::Result<Vec<_>>>()?;
    let mut batch = Vec::with_capacity(SIZES_BATCH);
    let mut failed = None;
    let mut flush = |batch: &mut Vec<crate::model::Event>| -> io::Result<()> {
        let json = crate::bench::sizes::JsonOf::batch(batch)?;
        accs.par_iter_mut().try_for_each(|a| a.add(batch, &json))?;
        batch.clear();
        Ok(())
    };
    let options = audit::AuditOptions {
        progress: io::stderr().is_terminal(),
        ..LimitArgs::default_options()
    };
    let report = audit::audit_paths(inputs, &options, |e| {
        batch.push(e);
        if batch.len() == SIZES_BATCH && failed.is_none() {
            failed = flush(&mut batch).err();
        }
    })?;
    if let Some(e) = failed {
        return Err(e.into());
    }
    flush(&mut batch)?;
    let rows = accs
        .into_iter()
        .map(crate::bench::sizes::Accumulator::finish)
        .collect::<io::Result<Vec<_>>>()?;
    let seconds = started.elapsed().as_secs_f64();
    let json_total = rows
        .iter()
        .find(|r| r.not_representable == 0)
        .map_or(0, |r| r.json_total);
    let threads = rayon::current_num_threads();
    let rate = json_total as f64 / 1e6 / seconds;
    let peak = crate::bench::probe::peak_rss_kib().map_or("unknown".into(), |k| k.to_string());
    eprintln!(
        "{:.1} s: {:.1} MB of compact JSON/s on {threads} threads ({:.1} MB/s per thread); \
         peak RSS {peak} KiB",
        seconds,
        rate,
        rate / threads as f64
    );
    if json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(());
    }
    println!(
        "{} valid events ({} records read, {} rejected, {} duplicates); zstd level {}",
        report.accepted,
        report.read,
        report.rejected.len(),
        report.duplicates,
        binostr_records::ZSTD_LEVEL
    );
    for (reason, n) in report.reasons() {
        println!("  rejected {n}: {reason}");
    }
    for r in report.rejected.iter().take(5) {
        println!("  e.g. {}: {}: {}", r.source, r.position, r.detail);
    }
    print!("{}", crate::bench::sizes::render(&rows));
    for r in rows.iter().filter(|r| r.not_representable > 0) {
        println!(
            "{}: {} not representable, e.g. {}",
            r.profile,
            r.not_representable,
            r.not_representable_reasons.join("; ")
        );
    }
    print!("{}", crate::bench::sizes::render_costs(&rows));
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

//! `binostr corpus audit|generate|calibrate|select|default|valid`.

use std::fs;
use std::io::{self, IsTerminal};
use std::path::Path;

use anyhow::{Context, Result};

use binostr_records::ZSTD_LEVEL;

use crate::bench::sizes::AloneCompressor;
use crate::cli::args::{CorpusCommand, LimitArgs, SourceSet};
use crate::cli::render;
use crate::corpus::audit::{self, AuditOptions};
use crate::corpus::{calibrate, generate, select};
use crate::files::{write_atomically, write_jsonl_atomically};
use crate::model::Event;

/// Events generated and written per parallel chunk by `corpus generate`.
const GENERATE_CHUNK: usize = 4096;

pub(super) fn run_corpus(command: CorpusCommand) -> Result<()> {
    match command {
        CorpusCommand::Audit {
            json,
            source,
            from,
            limits,
            paths,
        } => {
            let options = limits.options();
            let report = match source {
                Some(SourceSet::Real) => {
                    crate::corpus::audit_real(from.as_deref(), &options, |_| {})?
                }
                None => audit::audit_paths(&paths, &options, |_| {})?,
            };
            if json {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                print!("{}", render::render_audit(&report));
            }
            Ok(())
        }
        CorpusCommand::Generate {
            seed,
            count,
            output,
        } => {
            let mut ids = crate::corpus::seen::IdSet::default();
            let mut write = |out: &mut dyn io::Write| {
                generate::generate_each(seed, count, GENERATE_CHUNK, |events| {
                    crate::files::write_jsonl(&events, &mut &mut *out)?;
                    events.iter().try_for_each(|e| ids.insert(e.id).map(drop))
                })
            };
            if output.as_os_str() == "-" {
                let stdout = io::stdout();
                let mut out = io::BufWriter::new(stdout.lock());
                write(&mut out)?;
                io::Write::flush(&mut out)?;
            } else {
                crate::files::write_atomically_with(&output, write)?;
            }
            let fingerprint = ids.fingerprint()?;
            let message = format!(
                "wrote {count} events (seed {seed}, fingerprint {fingerprint}) to {}",
                output.display()
            );
            // Standard output carries the events when OUT is `-`.
            if output.as_os_str() == "-" {
                eprintln!("{message}");
            } else {
                println!("{message}");
            }
            Ok(())
        }
        CorpusCommand::Calibrate {
            seed,
            count,
            json,
            from,
        } => {
            let generated = generate::generate(seed, count);
            let mut real = Vec::new();
            let options = AuditOptions {
                progress: io::stderr().is_terminal(),
                ..AuditOptions::default()
            };
            crate::corpus::audit_real(from.as_deref(), &options, |e| real.push(e))?;
            let mut compressor = AloneCompressor::new()?;
            let rows = calibrate::calibrate(&generated, &real, |json| compressor.compress(json))?;
            if json {
                println!("{}", serde_json::to_string_pretty(&rows)?);
            } else {
                println!(
                    "generated: {} events (seed {seed}); real: {} accepted events; \
                     zstd level {ZSTD_LEVEL} and permessage-deflate, each event alone",
                    generated.len(),
                    real.len()
                );
                print!("{}", calibrate::render_table(&rows));
                print!("{}", calibrate::render_bound(&rows));
            }
            let missed = calibrate::unexplained(&rows);
            if !missed.is_empty() {
                anyhow::bail!("kinds {missed:?} miss the calibration bound with no stated reason");
            }
            Ok(())
        }
        CorpusCommand::Select {
            seed,
            count,
            output,
            limits,
            paths,
        } => {
            let mut accepted = Vec::new();
            let report = audit::audit_paths(&paths, &limits.options(), |e| accepted.push(e))?;
            let record = select_and_write(accepted, seed, count, &output)?;
            println!(
                "audited {} records ({} accepted, {} duplicates, {} rejected)",
                report.read,
                report.accepted,
                report.duplicates,
                report.rejected.len()
            );
            render::print_selection(&record, &output);
            Ok(())
        }
        CorpusCommand::Default {
            seed,
            count,
            select,
            output,
        } => run_default(seed, count, select, &output),
        CorpusCommand::Valid { root, check } => run_valid(&root, check),
    }
}

fn run_valid(root: &Path, check: bool) -> Result<()> {
    let files = crate::corpus::valid::files(crate::profiles::PROFILES)?;
    let mut stale = Vec::new();
    for (rel, text) in &files {
        let path = root.join(rel);
        if check {
            if fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                stale.push(*rel);
            }
        } else {
            if let Some(dir) = path.parent() {
                fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
            }
            write_atomically(&path, text.as_bytes())?;
            println!("wrote {}", path.display());
        }
    }
    if !stale.is_empty() {
        anyhow::bail!(
            "{} differ from what the checkout generates (regenerate with `just valid`)",
            stale.join(", ")
        );
    }
    Ok(())
}

fn run_default(seed: u64, count: usize, select_count: usize, outdir: &Path) -> Result<()> {
    fs::create_dir_all(outdir).with_context(|| format!("creating {}", outdir.display()))?;
    let corpus_path = outdir.join("corpus.jsonl");
    let options = LimitArgs::default_options();
    let (accepted, report) = crate::corpus::generate_audited(seed, count, &corpus_path, &options)?;
    println!(
        "generated {count} events (seed {seed}) -> {}",
        corpus_path.display()
    );
    let audit_path = outdir.join("audit.json");
    write_atomically(
        &audit_path,
        serde_json::to_string_pretty(&report)?.as_bytes(),
    )?;
    print!("{}", render::render_audit(&report));
    println!("audit report -> {}", audit_path.display());
    let selection_path = outdir.join("selection.jsonl");
    let record = select_and_write(accepted, seed, select_count, &selection_path)?;
    render::print_selection(&record, &selection_path);
    Ok(())
}

fn select_and_write(
    accepted: Vec<Event>,
    seed: u64,
    count: usize,
    output: &Path,
) -> Result<select::SelectionRecord> {
    let (events, record) = select::select(accepted, seed, count)?;
    write_jsonl_atomically(output, &events)?;
    let record_path = select::record_path(output);
    write_atomically(
        &record_path,
        (serde_json::to_string_pretty(&record)? + "\n").as_bytes(),
    )?;
    Ok(record)
}

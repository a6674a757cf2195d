//! `binostr transport`: the loop measured.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::Path;

use anyhow::{Context, Result, bail};

use crate::cli::args::{EventsArgs, LimitArgs};
use crate::files::write_atomically;
use crate::model::Event;
use crate::transport::Compression;
use crate::transport::client::Check;
use crate::transport::measure::{self, Plan, Row};

pub(super) fn load(events: &EventsArgs, seed: u64) -> Result<Vec<Event>> {
    match &events.events {
        Some(path) => {
            let mut out = Vec::new();
            let report = crate::corpus::audit::audit_paths(
                std::slice::from_ref(path),
                &LimitArgs::default_options(),
                |e| out.push(e),
            )?;
            eprintln!(
                "{}: {} valid events ({} records read, {} rejected, {} duplicates)",
                path.display(),
                out.len(),
                report.read,
                report.rejected.len(),
                report.duplicates
            );
            if out.is_empty() {
                bail!("{}: no valid events", path.display());
            }
            Ok(out)
        }
        None if events.generated == 0 => bail!("--generated must be at least 1"),
        None => Ok(crate::corpus::generate::generate(seed, events.generated)),
    }
}

pub(super) fn profile(id: &str) -> Result<&'static crate::codec::Profile> {
    crate::profiles::find(id).with_context(|| {
        let ids: Vec<&str> = crate::profiles::PROFILES.iter().map(|p| p.id).collect();
        format!("unknown profile `{id}`; known: {}", ids.join(", "))
    })
}

pub(super) fn run_transport(
    profiles: Option<Vec<String>>,
    events: &EventsArgs,
    rounds: usize,
    seed: u64,
    out: &Path,
) -> Result<()> {
    if rounds < 2 {
        bail!("--rounds must be at least 2 (medians and CIs are over rounds)");
    }
    let profiles: Vec<_> = match profiles {
        Some(ids) => ids.iter().map(|id| profile(id)).collect::<Result<_>>()?,
        None => crate::profiles::PROFILES
            .iter()
            .filter(|p| p.enabled)
            .collect(),
    };
    // As a campaign does: the members of one run serve the same events, and
    // a profile that cannot represent them all is measured apart, beside
    // json, on the events it represents.
    let events = load(events, seed)?;
    let split = crate::bench::fixture::split_profiles(&profiles, &events)?;
    let plan = |profiles| Plan {
        profiles,
        reference: crate::bench::fixture::BASELINE,
        modes: Compression::ALL.to_vec(),
        checks: Check::ALL.to_vec(),
        rounds,
        seed,
    };
    std::fs::create_dir_all(out).with_context(|| out.display().to_string())?;
    let mut apart_notes = Vec::new();
    for (p, refused) in &split.apart {
        let kept = crate::bench::fixture::represented(&events, refused);
        let file = format!("transport-apart-{}.csv", p.id);
        let note = format!(
            "{} cannot represent {} of {} events (first: {}): measured apart on the other {}, beside json, in {file}",
            p.id,
            refused.len(),
            events.len(),
            refused[0].1,
            kept.len()
        );
        eprintln!("measured apart: {note}");
        if kept.is_empty() {
            bail!("{}: no event to measure it on", p.id);
        }
        let pair = vec![crate::campaign::baseline(), *p];
        let rows = measure_with_bar(&kept, &plan(pair))?;
        write_atomically(&out.join(&file), measure::csv(&rows).as_bytes())?;
        print!("{}", table(&rows));
        apart_notes.push(note);
    }
    if split.whole.is_empty() {
        eprintln!("wrote {} only", out.display());
        return Ok(());
    }
    let rows = measure_with_bar(&events, &plan(split.whole))?;
    write_atomically(&out.join("transport.csv"), measure::csv(&rows).as_bytes())?;
    write_atomically(
        &out.join("README.md"),
        readme(&rows, events.len(), rounds, seed, &apart_notes).as_bytes(),
    )?;
    print!("{}", table(&rows));
    eprintln!("wrote {}/transport.csv and README.md", out.display());
    Ok(())
}

/// A progress bar of `template` on a terminal, hidden elsewhere.
pub(super) fn bar(template: &'static str) -> indicatif::ProgressBar {
    let bar = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(0)
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_style(indicatif::ProgressStyle::with_template(template).expect("static template"));
    bar
}

/// [`measure::run`] with a progress bar on a terminal.
fn measure_with_bar(events: &[Event], plan: &Plan) -> Result<Vec<Row>> {
    let bar = bar("transport {pos}/{len} exchanges (eta {eta}) {wide_bar}");
    let rows = measure::run(events, plan, |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    })?;
    bar.finish_and_clear();
    Ok(rows)
}

fn table(rows: &[Row]) -> String {
    let mut s = format!(
        "{:<16} {:<12} {:<9} {:>10} {:>12} {:>8} {:>10} {:>10} {:>10}\n",
        "profile",
        "mode",
        "check",
        "B/event",
        "events/s",
        "vs json",
        "s→r p99 ns",
        "relay ns",
        "client ns"
    );
    for r in rows {
        let _ = writeln!(
            s,
            "{:<16} {:<12} {:<9} {:>10.1} {:>12.0} {:>8} {:>10} {:>10.0} {:>10.0}",
            r.profile,
            r.mode,
            r.check,
            r.wire.read as f64 / r.events as f64,
            r.events_per_s.median,
            r.speed_vs_reference
                .map(|e| format!("{:.3}", e.median))
                .unwrap_or_else(|| "-".into()),
            r.latency_p99_ns,
            r.relay_cpu_ns,
            r.client_cpu_ns
        );
    }
    s
}

fn readme(rows: &[Row], events: usize, rounds: usize, seed: u64, apart: &[String]) -> String {
    let apart: String = apart
        .iter()
        .map(|n| format!("\nMeasured apart: {n}.\n"))
        .collect();
    format!(
        "# Transport workload\n\n\
         Written by `binostr transport` (docs/TRANSPORT.md): {events} events, \
         {rounds} timed rounds (seed {seed}), {} rows (profile × mode × check), \
         one relay thread per profile and the client on another thread, one fresh \
         WebSocket connection per exchange on 127.0.0.1.\n\n\
         `transport.csv` columns: bytes counted at the client's socket after the \
         handshake up to EOSE (`s2c` relay → client, `c2s` client → relay: the \
         REQ), the handshake's bytes, and the flate2 model of the exchange bytes \
         (equal by construction of the run: it fails otherwise); events/s from \
         REQ sent to EOSE received (median over rounds, bootstrap 95 % CI), its \
         per-round ratio to `json` in the same mode and check; send → receive \
         time per event (relay send → client receive, p50 and p99 over every timed \
         event: mostly waiting behind earlier events of the same streamed answer, \
         not an unloaded delivery latency; docs/TRANSPORT.md); thread \
         CPU ns per event of the relay (REQ → EOSE flushed) and of the client \
         (REQ → EOSE received, decoding or validating each event). Times belong \
         to one host; byte counts are exact and host-independent.\n{apart}",
        rows.len()
    )
}

//! `binostr links`: the transport loop on shaped links.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result, bail};

use super::transport::{bar, load, profile};
use crate::bench::group::{Budget, mix_sequence};
use crate::cli::args::{EventsArgs, LimitArgs};
use crate::files::write_atomically;
use crate::model::Event;
use crate::transport::Compression;
use crate::transport::client::Check;
use crate::transport::links::netns::Shape;
use crate::transport::links::{self, Measured, Plan};

/// The command's arguments.
pub(super) struct Args<'a> {
    pub(super) profiles: Option<Vec<String>>,
    pub(super) real: bool,
    pub(super) events: &'a EventsArgs,
    pub(super) count: usize,
    pub(super) publish: usize,
    pub(super) sensitivity: Vec<String>,
    pub(super) links: &'a [String],
    pub(super) rtt_ms: &'a [f64],
    pub(super) min_rounds: usize,
    pub(super) max_rounds: usize,
    pub(super) budget_s: f64,
    pub(super) seed: u64,
    pub(super) out: &'a Path,
}

fn shapes(links: &[String]) -> Result<Vec<Shape>> {
    links
        .iter()
        .map(|l| match l.as_str() {
            "unshaped" => Ok(Shape::Unshaped),
            r => match r.parse::<f64>() {
                Ok(mbit) if mbit > 0.0 && mbit.is_finite() => Ok(Shape::Rate(mbit)),
                _ => bail!("--links: `{r}` is neither `unshaped` nor a rate in Mbit/s above 0"),
            },
        })
        .collect()
}

/// The traffic-mix stream of at most `count` events, as the campaign's
/// transport workload draws it.
fn stream(events: &[Event], count: usize, seed: u64) -> Result<Vec<Event>> {
    let lens: Vec<usize> = events.iter().map(|e| e.to_json().len()).collect();
    let budget = Budget {
        events: count,
        bytes: usize::MAX,
    };
    let seq = mix_sequence(events, &lens, budget, seed, &crate::campaign::traffic_mix());
    if seq.indices.is_empty() {
        bail!(
            "the input has no event of some kind stratum of the traffic mix; \
             give --events a corpus with every stratum (or --real)"
        );
    }
    Ok(seq.indices.iter().map(|&i| events[i].clone()).collect())
}

pub(super) fn run_links(a: Args<'_>) -> Result<()> {
    if a.min_rounds < 2 || a.max_rounds < a.min_rounds {
        bail!("--min-rounds must be at least 2 and at most --max-rounds");
    }
    let shapes = shapes(a.links)?;
    if a.rtt_ms.iter().any(|r| !(*r > 0.0 && r.is_finite())) {
        bail!("--rtt-ms: every round-trip time must be above 0 (0 is always measured)");
    }
    let all = if a.real {
        let mut out = Vec::new();
        let report =
            crate::corpus::audit_real(None, &LimitArgs::default_options(), |e| out.push(e))?;
        eprintln!(
            "real corpus: {} valid events ({} records read)",
            out.len(),
            report.read
        );
        out
    } else {
        load(a.events, a.seed)?
    };
    let events = stream(&all, a.count, a.seed)?;
    let baseline = crate::campaign::baseline();
    let asked: Vec<_> = match &a.profiles {
        Some(ids) => ids.iter().map(|id| profile(id)).collect::<Result<_>>()?,
        None => crate::profiles::PROFILES
            .iter()
            .filter(|p| p.enabled)
            .collect(),
    };
    let mut chosen = vec![baseline];
    chosen.extend(asked.into_iter().filter(|p| p.id != baseline.id));
    let split = crate::bench::fixture::split_profiles(&chosen, &events)?;
    let mut notes = Vec::new();
    for (p, refused) in &split.apart {
        let note = format!(
            "{} is not measured: it cannot represent {} of the {} events (first: {})",
            p.id,
            refused.len(),
            events.len(),
            refused[0].1
        );
        eprintln!("links: {note}");
        notes.push(note);
    }
    let mut sensitivity: Vec<&'static str> = Vec::new();
    if a.sensitivity != ["none"] {
        for id in a
            .sensitivity
            .iter()
            .map(String::as_str)
            .chain([baseline.id])
        {
            match split.whole.iter().find(|p| p.id == id) {
                Some(p) if !sensitivity.contains(&p.id) => sensitivity.push(p.id),
                Some(_) => {}
                None => {
                    let note = format!(
                        "{id} is not measured with {}: not among the measured profiles",
                        links::FASTER
                    );
                    eprintln!("links: {note}");
                    notes.push(note);
                }
            }
        }
    }
    let plan = Plan {
        profiles: split.whole,
        reference: baseline.id,
        modes: Compression::ALL.to_vec(),
        sensitivity,
        shapes,
        rtts_ms: a.rtt_ms.to_vec(),
        check: Check::Decode,
        publish: a.publish,
        min_rounds: a.min_rounds,
        max_rounds: a.max_rounds,
        budget: Duration::from_secs_f64(a.budget_s),
        seed: a.seed,
    };
    let git = <binostr_records::Git as crate::campaign::host::DetectGit>::detect(Path::new("."));
    let load_before = crate::campaign::host::load_average();
    let measured = measure_with_bar(&events, &plan)?;
    let host = Host {
        git,
        cores: std::thread::available_parallelism().map_or(0, |n| n.get()),
        load_before,
        load_after: crate::campaign::host::load_average(),
    };
    std::fs::create_dir_all(a.out).with_context(|| a.out.display().to_string())?;
    write_atomically(
        &a.out.join("links.csv"),
        links::csv(&measured.rows).as_bytes(),
    )?;
    write_atomically(
        &a.out.join("README.md"),
        readme(&measured, &plan, events.len(), a.real, &notes, &host).as_bytes(),
    )?;
    write_atomically(&a.out.join("links.svg"), plot(&measured, &plan).as_bytes())?;
    print!("{}", table(&measured));
    eprintln!(
        "wrote {}/links.csv, links.svg and README.md",
        a.out.display()
    );
    Ok(())
}

fn measure_with_bar(events: &[Event], plan: &Plan) -> Result<Measured> {
    let bar = bar("links {msg} {pos}/{len} exchanges (eta {eta}) {wide_bar}");
    let mut last = String::new();
    let measured = links::run(events, plan, |link, done, total| {
        if link != last {
            if !last.is_empty() {
                bar.println(format!("links: {last} done"));
            }
            last = link.to_owned();
            bar.reset();
            bar.set_message(last.clone());
        }
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    })?;
    bar.finish_and_clear();
    Ok(measured)
}

fn table(m: &Measured) -> String {
    let mut s = format!(
        "{:<10} {:>6} {:<16} {:<21} {:>10} {:>11} {:>8} {:>9} {:>10} {:>10} {:>10} {:>9}\n",
        "link",
        "rtt ms",
        "profile",
        "mode",
        "s2c B",
        "REQ→EOSE s",
        "vs json",
        "vs json+d",
        "relay ns/e",
        "client ns/e",
        "EVENT→OK s",
        "EVENT B"
    );
    let ratio = |e: Option<crate::transport::measure::Estimate>| {
        e.map_or_else(|| "-".into(), |e| format!("{:.3}", e.median))
    };
    for r in &m.rows {
        let _ = writeln!(
            s,
            "{:<10} {:>6} {:<16} {:<21} {:>10} {:>11.4} {:>8} {:>9} {:>10.0} {:>10.0} {:>10.5} {:>9.0}",
            r.shape.name(),
            r.rtt_ms,
            r.profile,
            r.deflater.map_or_else(
                || r.mode.name().to_owned(),
                |d| format!("{} {d}", r.mode.name())
            ),
            r.wire.read,
            r.req_eose_s.median,
            ratio(r.vs_json),
            ratio(r.vs_json_deflate),
            r.relay_cpu_ns.median,
            r.client_cpu_ns.median,
            r.publish.secs.median,
            r.publish.c2s_bytes
        );
    }
    s
}

/// Where and when it ran.
struct Host {
    git: binostr_records::Git,
    cores: usize,
    load_before: Vec<f64>,
    load_after: Vec<f64>,
}

fn readme(
    m: &Measured,
    plan: &Plan,
    events: usize,
    real: bool,
    notes: &[String],
    host: &Host,
) -> String {
    let mut settings = String::new();
    for s in &m.settings {
        let _ = writeln!(
            settings,
            "| {} | {} | {:.1} | {:.1} | {} |",
            s.shape.name(),
            s.rounds,
            s.checked_s,
            s.timed_s,
            s.retransmitted
        );
    }
    let ids: Vec<&str> = plan.profiles.iter().map(|p| p.id).collect();
    let notes: String = notes.iter().map(|n| format!("- {n}\n")).collect();
    let rtts: Vec<String> = plan.rtts_ms.iter().map(|r| format!("{r} ms")).collect();
    format!(
        "# Links workload\n\n\
         Written by `binostr links` (docs/TRANSPORT.md, \"Links\"): {events} events of the \
         traffic-mix stream of the {corpus}, per REQ (filter `{{}}`, every event, newest first), \
         seed {seed}. Relays in one network namespace, the client in another, joined by a \
         veth pair shaped on both ends with `tbf` (bucket: 1 ms of the rate, at least 4 KiB; \
         queue: {queue} ms of the rate, at least {minq} KiB). Members: {n} profiles ({ids}) × {modes} modes (deflate: \
         `{imp}`, C zlib at level 1 as deployed), and {faster} in the deflate modes with `{fast}` \
         (zlib-rs, level 1: the faster-deflater sensitivity); the client decodes every event (`{check}`). After each REQ, the member \
         publishes the first {publish} events one at a time on a fresh connection (EVENT → OK; \
         the relay decodes and verifies each, and refuses it as `blocked:`). Per link setting: \
         one checked pass per member, then timed rounds in an order shuffled per round, as many as \
         {budget} s allow, at least {min} and at most {max}.\n\n\
         Round-trip times of {rtts} are modelled, not emulated (tbf adds no delay and \
         the kernel has no netem): `rtt_source` says which rows.\n\n\
         | link | timed rounds | checked pass s | timed rounds s | TCP retransmissions |\n\
         |---|---:|---:|---:|---:|\n{settings}\n\
         Commit {commit}{dirty}; {cores} cores; load average {before:?} before, {after:?} after. \
         Times and CPU belong to this host; byte counts are exact.\n\n{notes_head}{notes}",
        commit = host.git.commit,
        dirty = if host.git.dirty { " (dirty)" } else { "" },
        cores = host.cores,
        before = host.load_before,
        after = host.load_after,
        corpus = if real {
            "recorded real corpus"
        } else {
            "input"
        },
        seed = plan.seed,
        queue = links::netns::QUEUE_MS,
        minq = links::netns::MIN_QUEUE >> 10,
        n = ids.len(),
        ids = ids.join(", "),
        modes = plan.modes.len(),
        imp = crate::transport::relay::Config::benchmark().deflater,
        fast = links::FASTER,
        faster = if plan.sensitivity.is_empty() {
            "no profile".to_owned()
        } else {
            plan.sensitivity.join(", ")
        },
        check = plan.check.name(),
        publish = plan.publish,
        budget = plan.budget.as_secs_f64(),
        min = plan.min_rounds,
        max = plan.max_rounds,
        rtts = rtts.join(", "),
        notes_head = if notes.is_empty() {
            ""
        } else {
            "Not measured:\n\n"
        },
    )
}

/// `links.svg`: time per event against link rate, one panel per mode, one
/// line per profile (measured rows, no added round trip), both axes
/// logarithmic; the unshaped pair is the rightmost point.
fn plot(m: &Measured, plan: &Plan) -> String {
    const W: f64 = 360.0;
    const H: f64 = 300.0;
    const PAD: f64 = 50.0;
    let rows: Vec<_> = m
        .rows
        .iter()
        .filter(|r| r.rtt_ms == 0.0 && r.deflater != Some(links::FASTER))
        .collect();
    let us = |r: &links::Row| r.req_eose_s.median / r.events.max(1) as f64 * 1e6;
    let (lo, hi) = rows
        .iter()
        .map(|r| us(r))
        .fold((f64::MAX, 0f64), |(a, b), v| (a.min(v), b.max(v)));
    let (ylo, yhi) = (
        lo.max(1e-3).log10().floor(),
        hi.max(1e-3).log10().ceil().max(lo.log10().floor() + 1.0),
    );
    let xs: Vec<Shape> = plan.shapes.clone();
    let x_of = |s: Shape| xs.iter().position(|&x| x == s).unwrap_or(0);
    let mut order: Vec<usize> = (0..xs.len()).collect();
    order.sort_by(|&a, &b| {
        let key = |s: Shape| s.bits_per_s().unwrap_or(f64::INFINITY);
        key(xs[a]).total_cmp(&key(xs[b]))
    });
    let col = |i: usize| order.iter().position(|&o| o == i).unwrap_or(0) as f64;
    let px = |i: usize| PAD + col(i) * (W - 2.0 * PAD) / (xs.len().max(2) - 1) as f64;
    let py = |v: f64| H - PAD - (v.max(1e-3).log10() - ylo) / (yhi - ylo) * (H - 2.0 * PAD);
    let palette = [
        "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
        "#bcbd22", "#17becf",
    ];
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" font-family=\"sans-serif\" font-size=\"10\">\n",
        W * plan.modes.len() as f64 + 160.0,
        H
    );
    for (p, mode) in plan.modes.iter().enumerate() {
        let dx = W * p as f64;
        let _ = writeln!(
            svg,
            "<g transform=\"translate({dx},0)\"><text x=\"{}\" y=\"20\" text-anchor=\"middle\" font-size=\"12\">{}: µs per event, REQ → EOSE</text>",
            W / 2.0,
            mode.name()
        );
        for d in (ylo as i32)..=(yhi as i32) {
            let y = py(10f64.powi(d));
            let _ = writeln!(
                svg,
                "<line x1=\"{PAD}\" x2=\"{}\" y1=\"{y}\" y2=\"{y}\" stroke=\"#ddd\"/><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
                W - PAD,
                PAD - 4.0,
                y + 3.0,
                10f64.powi(d)
            );
        }
        for (i, s) in xs.iter().enumerate() {
            let label = s
                .bits_per_s()
                .map_or("unshaped".into(), |b| format!("{}", b / 1e6));
            let _ = writeln!(
                svg,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{label}</text>",
                px(i),
                H - PAD + 14.0
            );
        }
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">link, Mbit/s</text>",
            W / 2.0,
            H - PAD + 30.0
        );
        for (k, prof) in plan.profiles.iter().enumerate() {
            let mut pts: Vec<(f64, f64)> = rows
                .iter()
                .filter(|r| r.profile == prof.id && r.mode == *mode)
                .map(|r| (px(x_of(r.shape)), py(us(r))))
                .collect();
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            let path: Vec<String> = pts.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
            let dash = if k >= palette.len() {
                " stroke-dasharray=\"4 2\""
            } else {
                ""
            };
            let _ = writeln!(
                svg,
                "<polyline fill=\"none\" stroke=\"{}\"{dash} points=\"{}\"><title>{}</title></polyline>",
                palette[k % palette.len()],
                path.join(" "),
                prof.id
            );
        }
        svg.push_str("</g>\n");
    }
    for (k, prof) in plan.profiles.iter().enumerate() {
        let y = 30.0 + 11.0 * k as f64;
        let x = W * plan.modes.len() as f64 + 10.0;
        let dash = if k >= palette.len() {
            " stroke-dasharray=\"4 2\""
        } else {
            ""
        };
        let _ = writeln!(
            svg,
            "<line x1=\"{x}\" x2=\"{}\" y1=\"{y}\" y2=\"{y}\" stroke=\"{}\"{dash}/><text x=\"{}\" y=\"{}\">{}</text>",
            x + 18.0,
            palette[k % palette.len()],
            x + 22.0,
            y + 3.0,
            prof.id
        );
    }
    svg.push_str("</svg>\n");
    svg
}

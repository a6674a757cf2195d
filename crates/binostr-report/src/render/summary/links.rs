//! `## Links` in `summary.md`: the transport loop on shaped links.

use std::fmt::Write as _;

use super::table::{md_table, ratio_opt};
use crate::fmt::{fixed, fixed_opt};
use crate::interval::Interval;
use crate::model::campaign::Campaign;
use crate::model::links::{self, Links, Verdict, verdict};
use crate::read::links::DEFAULT_DEFLATER;

/// `(estimate, lo, hi)` seconds as `x [lo, hi]` in units of `1 / per_s` s.
fn scaled(t: Interval, per_s: f64, decimals: usize) -> String {
    format!(
        "{} [{}, {}]",
        fixed(t.est * per_s, decimals),
        fixed(t.lo * per_s, decimals),
        fixed(t.hi * per_s, decimals)
    )
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => "none".to_owned(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// What a ratio to json with deflate says, in words.
fn says(r: Interval) -> &'static str {
    match verdict(r) {
        Verdict::Faster => "faster",
        Verdict::Slower => "slower",
        Verdict::Unresolved => "not resolved (the CI holds 1)",
    }
}

pub(super) fn links_section(out: &mut String, c: &Campaign) {
    let Some(l) = links::links(c) else {
        return;
    };
    let _ = writeln!(
        out,
        "## Links: the transport loop on shaped links (`results/links/`, `binostr links`)\n"
    );
    intro(out, &l);
    findings(out, &l);
    exchanges(out, &l);
    publish(out, &l);
    deflaters(out, &l);
}

fn intro(out: &mut String, l: &Links) {
    let events = l.events.text();
    let rounds: Vec<String> = l
        .links
        .iter()
        .map(|k| format!("{} {}", k.label(), k.rounds))
        .collect();
    let rtts: Vec<String> = l.modelled_rtts.iter().map(|r| fixed(*r, 0)).collect();
    let _ = writeln!(
        out,
        "REQ → EOSE of {events} events (the traffic-mix stream), relay and client in two network \
         namespaces over a veth pair shaped with tbf: {}. Timed rounds per link: {}. Deflate is \
         `{DEFAULT_DEFLATER}` (zlib level 1, as strfry deploys it). RTT 0 rows are measured \
         (nothing added); RTT {} ms rows are modelled from the bytes (one round trip plus TCP \
         slow start from 10 segments, no loss), not emulated. Ratios are per round, over json \
         with deflate in the same round: median over rounds and a 95% bootstrap CI; a \
         difference is stated only where the CI excludes 1. The fastest binary profile of a \
         mode leaves out the NIP-01 JSON text profiles (json's bytes). Times and CPU belong to \
         the host of that run (results/links/README.md).\n",
        and_list(&l.links.iter().map(|k| k.label()).collect::<Vec<_>>()),
        rounds.join(", "),
        and_list(&rtts),
    );
}

/// One line per link, measured round trip: each ratio and what it resolves.
fn findings(out: &mut String, l: &Links) {
    for e in l.exchanges.iter().filter(|e| !e.modelled) {
        let link = l.links[e.link].label();
        let mut parts = Vec::new();
        let mut put = |who: String, r: Option<Interval>| {
            if let Some(r) = r {
                parts.push(format!("{who} {}, {}", ratio_opt(Some(r)), says(r)));
            }
        };
        if let Some(b) = &e.best.deflate {
            put(format!("`{}` with deflate", b.profile), b.vs_json_deflate);
        }
        put("json uncompressed".to_owned(), e.json_none);
        if let Some(b) = &e.best.none {
            put(format!("`{}` uncompressed", b.profile), b.vs_json_deflate);
        }
        let _ = writeln!(
            out,
            "- {link} (RTT 0), time over json with deflate: {}.",
            parts.join("; ")
        );
    }
    out.push('\n');
}

fn exchanges(out: &mut String, l: &Links) {
    let rows: Vec<Vec<String>> = l
        .exchanges
        .iter()
        .map(|e| {
            let mut row = vec![
                l.links[e.link].label(),
                fixed(e.rtt_ms, 0),
                if e.modelled { "modelled" } else { "measured" }.to_owned(),
                scaled(e.json_deflate_s, 1e3, 3),
                ratio_opt(e.json_none),
                ratio_opt(e.json_ctx),
            ];
            for (_, b) in e.best.iter() {
                row.push(
                    b.as_ref()
                        .map_or(String::new(), |b| format!("`{}`", b.profile)),
                );
                row.push(ratio_opt(b.as_ref().and_then(|b| b.vs_json_deflate)));
            }
            row
        })
        .collect();
    md_table(
        out,
        &[
            "link",
            "RTT ms",
            "RTT",
            "json+deflate ms [95% CI]",
            "json none / json+deflate",
            "json deflate-ctx / json+deflate",
            "fastest binary, none",
            "/ json+deflate",
            "fastest binary, deflate",
            "/ json+deflate",
            "fastest binary, deflate-ctx",
            "/ json+deflate",
        ],
        &rows,
    );
}

fn publish(out: &mut String, l: &Links) {
    if l.publish.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "EVENT → OK (RTT 0): after each REQ the member publishes the first {} events one at a \
         time on a fresh connection; the relay decodes and verifies each and refuses it \
         (`blocked:`). A token bucket passes a small message at line rate, so the serialisation \
         of each EVENT and its OK is modelled from their bytes; the rest is measured. Bytes are \
         the mean socket bytes of one EVENT; relay CPU runs from the EVENT taken to its OK \
         flushed (median over rounds, no CI, so no difference is stated); EVENT → OK is the \
         per-round mean time per event (median over rounds, 95% CI). The smallest binary EVENT \
         of each mode beside json's:\n",
        l.published
    );
    let rows: Vec<Vec<String>> = l
        .publish
        .iter()
        .map(|p| {
            let ok = |t: Option<Interval>| t.map_or(String::new(), |t| scaled(t, 1e6, 0));
            vec![
                l.links[p.link].label(),
                p.mode.name().to_owned(),
                fixed(p.json.event_bytes, 1),
                format!("`{}`", p.smallest.profile),
                fixed(p.smallest.event_bytes, 1),
                fixed(p.bytes_pct(), 1),
                fixed(p.json.relay_cpu_ns, 0),
                fixed(p.smallest.relay_cpu_ns, 0),
                ok(p.json.event_ok_s),
                ok(p.smallest.event_ok_s),
            ]
        })
        .collect();
    md_table(
        out,
        &[
            "link",
            "mode",
            "json B/EVENT",
            "smallest binary",
            "B/EVENT",
            "% json",
            "json relay CPU ns/EVENT",
            "its relay CPU ns/EVENT",
            "json EVENT→OK µs [95% CI]",
            "its EVENT→OK µs [95% CI]",
        ],
        &rows,
    );
}

fn deflaters(out: &mut String, l: &Links) {
    if l.deflaters.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "Deflater sensitivity (RTT 0): relay CPU per event of REQ → EOSE with each deflater, \
         json and the fastest binary profile with that deflater (`{DEFAULT_DEFLATER}` is the \
         default above; no CI).\n"
    );
    let rows: Vec<Vec<String>> = l
        .deflaters
        .iter()
        .map(|d| {
            vec![
                l.links[d.link].label(),
                d.mode.name().to_owned(),
                format!("`{}`", d.deflater),
                fixed(d.json_ns, 0),
                d.best
                    .as_ref()
                    .map_or(String::new(), |b| format!("`{}`", b.profile)),
                fixed_opt(d.best.as_ref().map(|b| b.relay_cpu_ns), 0),
            ]
        })
        .collect();
    md_table(
        out,
        &[
            "link",
            "mode",
            "deflater",
            "json relay CPU ns/event",
            "fastest binary",
            "its relay CPU ns/event",
        ],
        &rows,
    );
}

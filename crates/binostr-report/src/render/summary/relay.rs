//! The relay's path in `summary.md`: REQ filters over stored events and
//! the WebSocket loop.

use std::fmt::Write as _;

use super::table::{md_table, ratio_opt};
use crate::fmt::{NS, RATIO, fixed, fixed_opt};
use crate::model::campaign::Campaign;
use crate::model::relay::{self, FilterReference, Headline, TransportRow};
use crate::read::transport::Mode;

pub(super) fn filter_section(out: &mut String, c: &Campaign, host: &str) {
    let _ = writeln!(
        out,
        "### filter: REQ matching on stored events
"
    );
    let rows = relay::filter_rows(c, host);
    let Some(FilterReference {
        ns: floor,
        instr: floor_instr,
    }) = relay::filter_reference(c, host)
    else {
        out.push_str("No filter rows.\n\n");
        return;
    };
    let _ = writeln!(
        out,
        "Each pass runs every filter of the campaign's `filters.json` over every stored record \
         of the sequence, through the profile's borrowed view where it has one (contract \
         `checked` or `preverified`, as in select), else a full decode; ns and instructions are \
         per stored event scanned (one event, one filter), and every pass's match count equals \
         the JSON reference matcher's. filter-event (matching alone, on decoded events): {} ns, \
         {} instructions.\n",
        fixed(floor, NS),
        fixed_opt(floor_instr, 0)
    );
    let table: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.profile.clone(),
                r.contract().to_owned(),
                fixed(r.ns, NS),
                ratio_opt(r.vs_json),
                ratio_opt(r.vs_event),
                fixed_opt(r.instr, 0),
            ]
        })
        .collect();
    md_table(
        out,
        &[
            "profile",
            "contract",
            "ns/event scanned",
            "/ json [95% CI]",
            "/ filter-event [95% CI]",
            "instructions/event scanned",
        ],
        &table,
    );
}

/// `### transport`: the headline, bytes per mode, time per exchange and the
/// loop's own measurements.
pub(super) fn transport_section(out: &mut String, c: &Campaign, host: &str) {
    let _ = writeln!(
        out,
        "### transport: REQ → EOSE over a WebSocket
"
    );
    let rows = relay::transport_rows(c, host);
    if rows.is_empty() {
        out.push_str("No transport rows.\n\n");
        return;
    }
    if let Some(h) = relay::headline(c, host) {
        headline(out, &h);
    }
    bytes_and_times(out, &rows);
    loop_table(out, c, host);
}

fn headline(out: &mut String, h: &Headline) {
    let _ = writeln!(
        out,
        "Headline (relay → client bytes per event, frame headers included): json {} \
         uncompressed, {} with deflate, {} with deflate and context takeover; the smallest \
         binary profile uncompressed is {} at {} ({} % of json uncompressed), with deflate {} \
         at {} ({} % of json with deflate), with context takeover {} at {} ({} % of json with \
         context takeover).\n",
        fixed(h.json.none, 1),
        fixed(h.json.deflate, 1),
        fixed(h.json.deflate_ctx, 1),
        h.best.none.profile,
        fixed(h.best.none.bytes, 1),
        fixed(h.pct_of_json(Mode::None), 1),
        h.best.deflate.profile,
        fixed(h.best.deflate.bytes, 1),
        fixed(h.pct_of_json(Mode::Deflate), 1),
        h.best.deflate_ctx.profile,
        fixed(h.best.deflate_ctx.bytes, 1),
        fixed(h.pct_of_json(Mode::DeflateCtx), 1),
    );
}

/// Bytes per event and their % of json per mode; ns per exchange and its
/// paired ratio to json.
fn bytes_and_times(out: &mut String, rows: &[TransportRow]) {
    let _ = writeln!(
        out,
        "Bytes: counted at the relay's socket on a fresh connection, one REQ → EOSE exchange of \
         the sequence (`transport.csv`, equal to a pure flate2 model of the same messages and \
         the same in every run); % of json in the same mode. Time: ns per event of one exchange \
         on a kept connection (`transport-*` groups; with context takeover a kept connection \
         compresses against its earlier exchanges), and its paired ratio to json in the same \
         mode.\n"
    );
    let table: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let mut row = vec![r.profile.clone()];
            for m in Mode::ALL {
                row.push(fixed_opt(*r.bytes.get(m), 1));
                row.push(fixed_opt(*r.pct_json.get(m), 1));
            }
            row
        })
        .collect();
    md_table(
        out,
        &[
            "profile",
            "none B/event",
            "none % json",
            "deflate B/event",
            "deflate % json",
            "deflate-ctx B/event",
            "deflate-ctx % json",
        ],
        &table,
    );
    let mut timed: Vec<(f64, Vec<String>)> = rows
        .iter()
        .filter(|r| r.ns.iter().any(|(_, v)| v.is_some()))
        .map(|r| {
            let mut row = vec![r.profile.clone()];
            row.extend(r.ns.iter().map(|(_, v)| fixed_opt(*v, NS)));
            row.extend(r.vs_json.iter().map(|(_, v)| ratio_opt(*v)));
            (r.ns.deflate.unwrap_or(f64::INFINITY), row)
        })
        .collect();
    timed.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
    if !timed.is_empty() {
        md_table(
            out,
            &[
                "profile",
                "plain ns/event",
                "deflate ns/event",
                "deflate-ctx ns/event",
                "plain / json",
                "deflate / json",
                "deflate-ctx / json",
            ],
            &timed.into_iter().map(|r| r.1).collect::<Vec<_>>(),
        );
    }
}

/// The `transport.csv` loop: events/s, latency and CPU per event.
fn loop_table(out: &mut String, c: &Campaign, host: &str) {
    let side = relay::loop_rows(c, host);
    if !side.is_empty() {
        let _ = writeln!(
            out,
            "The loop per exchange on a fresh connection (`transport.csv`, medians over runs): \
             events/s end to end; send → receive per event, from the relay taking it to send to \
             the client holding the whole message, while the relay streams the whole answer \
             unpaced: mostly waiting behind earlier events of the same REQ, so it grows with the \
             answer and with the client's time per event, and is not the latency of one event on \
             an idle connection (docs/TRANSPORT.md, \"What the latency columns measure\"); and \
             thread CPU per event on each side; validate checks the id and BIP-340 signature of \
             every event.\n"
        );
        let table: Vec<Vec<String>> = side
            .iter()
            .map(|t| {
                vec![
                    t.profile.clone(),
                    t.mode.clone(),
                    t.check.clone(),
                    fixed(t.events_per_s, 0),
                    fixed(t.speed_vs_json, RATIO),
                    fixed(t.latency_p50_ns / 1e3, 1),
                    fixed(t.latency_p99_ns / 1e3, 1),
                    fixed(t.relay_cpu_ns, 0),
                    fixed(t.client_cpu_ns, 0),
                ]
            })
            .collect();
        md_table(
            out,
            &[
                "profile",
                "mode",
                "check",
                "events/s",
                "speed / json",
                "send→receive p50 µs",
                "send→receive p99 µs",
                "relay CPU ns/event",
                "client CPU ns/event",
            ],
            &table,
        );
    }
}

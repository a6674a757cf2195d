//! The page's Links section: the transport loop on shaped links
//! (`results/links/links.csv`), as tables; the plot is `links.svg` under
//! Plots.

use std::fmt::Write as _;

use super::html::{Cell, Column, Table, esc};
use crate::fmt::{RATIO, fixed};
use crate::interval::Interval;
use crate::model::campaign::Campaign;
use crate::model::links::{self, Links, Verdict, verdict};

/// A ratio to json with deflate, with its interval and what it resolves.
fn ratio_cell(r: Option<Interval>) -> Cell {
    let cell = Cell::with_ci(r, RATIO);
    match r.map(verdict) {
        Some(Verdict::Unresolved) => cell.class("n unresolved"),
        _ => cell,
    }
}

fn code(p: &str) -> Cell {
    Cell::html(format!("<code>{}</code>", esc(p)), p)
}

/// The section; empty without links results.
pub fn section(c: &Campaign) -> String {
    let Some(l) = links::links(c) else {
        return String::new();
    };
    let rtts: Vec<String> = l.modelled_rtts.iter().map(|r| fixed(*r, 0)).collect();
    let rounds: Vec<String> = l
        .links
        .iter()
        .map(|k| format!("{} {}", esc(&k.label()), k.rounds))
        .collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<section id=\"links\"><h2>Links</h2>\n<p>REQ → EOSE of {} events between two network \
         namespaces over a veth pair shaped with <code>tbf</code> (<code>binostr links</code>, \
         <code>results/links/</code>; timed rounds per link: {}). Deflate is zlib level 1, as \
         deployed. RTT 0 is measured; RTT {} ms is modelled from the bytes (one round trip and \
         TCP slow start, no loss), not emulated. Every ratio is the per-round time over json \
         with deflate (median over rounds, 95&nbsp;% CI); a greyed one holds 1 and states no \
         difference. The fastest binary profile of a mode leaves out the JSON text profiles. \
         <a href=\"#plot-links\">The plot</a> draws the measured rows.</p>",
        l.events.max,
        rounds.join(", "),
        esc(&rtts.join(", ")),
    );
    out.push_str(&exchanges(&l).render("all"));
    publish(&mut out, &l);
    out.push_str("</section>\n");
    out
}

fn exchanges(l: &Links) -> Table {
    let mut t = Table::new(
        "t-links",
        vec![
            Column::text("link", ""),
            Column::num("RTT ms", "0 measured, others modelled"),
            Column::num("json+deflate ms", "REQ → EOSE, median [95% CI]"),
            Column::num("json none", "/ json+deflate"),
            Column::num("json deflate-ctx", "/ json+deflate"),
            Column::text("binary none", "fastest binary profile"),
            Column::num("ratio", "/ json+deflate"),
            Column::text("binary deflate", "fastest binary profile"),
            Column::num("ratio", "/ json+deflate"),
            Column::text("binary deflate-ctx", "fastest binary profile"),
            Column::num("ratio", "/ json+deflate"),
        ],
    );
    for e in &l.exchanges {
        let ms = e.json_deflate_s;
        let mut cells = vec![
            Cell::html(esc(&l.links[e.link].label()), &e.link.to_string()),
            Cell::num(Some(e.rtt_ms), 0),
            Cell::with_ci(Some(ms.scaled(1e3)), 3),
            ratio_cell(e.json_none),
            ratio_cell(e.json_ctx),
        ];
        for (_, b) in e.best.iter() {
            match b {
                Some(b) => {
                    cells.push(code(&b.profile));
                    cells.push(ratio_cell(b.vs_json_deflate));
                }
                None => cells.extend([Cell::missing(), Cell::missing()]),
            }
        }
        t.row(None, "", cells);
    }
    t
}

fn publish(out: &mut String, l: &Links) {
    if l.publish.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "<h3>EVENT → OK</h3><p class=\"what\">RTT 0; the first {} events, one at a time on a \
         fresh connection, each decoded, verified and refused by the relay; the serialisation of \
         each EVENT and its OK is modelled from their bytes (a token bucket passes small messages \
         at line rate). The smallest binary EVENT of each mode beside json's; relay CPU from the \
         EVENT taken to its OK flushed (median over rounds).</p>",
        l.published
    );
    let mut t = Table::new(
        "t-links-event",
        vec![
            Column::text("link", ""),
            Column::text("mode", ""),
            Column::num("json B/EVENT", "mean socket bytes"),
            Column::text("smallest binary", ""),
            Column::num("B/EVENT", "mean socket bytes"),
            Column::num("% json", ""),
            Column::num("json relay CPU ns", "per EVENT"),
            Column::num("its relay CPU ns", "per EVENT"),
        ],
    );
    for p in &l.publish {
        t.row(
            None,
            &p.smallest.profile,
            vec![
                Cell::html(esc(&l.links[p.link].label()), &p.link.to_string()),
                Cell::text(p.mode.name()),
                Cell::num(Some(p.json.event_bytes), 1),
                code(&p.smallest.profile),
                Cell::num(Some(p.smallest.event_bytes), 1),
                Cell::num(Some(p.bytes_pct()), 1),
                Cell::num(Some(p.json.relay_cpu_ns), 0),
                Cell::num(Some(p.smallest.relay_cpu_ns), 0),
            ],
        );
    }
    out.push_str(&t.render("all"));
    if !l.deflaters.is_empty() {
        let mut t = Table::new(
            "t-links-deflater",
            vec![
                Column::text("link", ""),
                Column::text("mode", ""),
                Column::text("deflater", ""),
                Column::num("json relay CPU ns/event", "REQ → EOSE"),
                Column::text("fastest binary", "with this deflater"),
                Column::num("its relay CPU ns/event", "REQ → EOSE"),
            ],
        );
        for d in &l.deflaters {
            let best = d.best.as_ref();
            t.row(
                None,
                best.map_or("json", |b| b.profile.as_str()),
                vec![
                    Cell::html(esc(&l.links[d.link].label()), &d.link.to_string()),
                    Cell::text(d.mode.name()),
                    code(&d.deflater),
                    Cell::num(Some(d.json_ns), 0),
                    best.map_or_else(Cell::missing, |b| code(&b.profile)),
                    Cell::num(best.map(|b| b.relay_cpu_ns), 0),
                ],
            );
        }
        out.push_str(
            "<h3>Deflater sensitivity</h3><p class=\"what\">RTT 0: relay CPU per event of \
             REQ → EOSE with each deflater measured (median over rounds).</p>\n",
        );
        out.push_str(&t.render("all"));
    }
}

//! The page's kind strata, the figures composed under the stated mix and
//! the sensitivity grid.

use std::fmt::Write as _;

use super::html::{Cell, Column, Table, code_spans, esc};
use crate::fmt::{PCT, RATIO, fixed};
use crate::model::campaign::Campaign;
use crate::model::holds::marks;
use crate::model::mix::{
    NOT_MEASURED, STRATA, SizeMeasure, TIME_WORKLOADS, kind3_source, stream_note,
};
use crate::model::sensitivity::Grid;

/// `<section id="holds">`: where each claim holds, by corpus and by kind.
pub fn holds(c: &Campaign) -> String {
    let mut out = String::from(
        "<section id=\"holds\"><h2>Where each claim holds</h2>\n<p>A claim holds elsewhere \
         when the claim there says the same: the same profile resolved as the fastest, or again \
         a tie with the same leader among the tied.</p>\n<ul>\n",
    );
    for m in marks(c) {
        let _ = writeln!(
            out,
            "<li><strong>{}</strong>: {} <em>Where:</em> {}.</li>",
            esc(&m.workload),
            code_spans(&m.sentence),
            code_spans(&m.text())
        );
    }
    out.push_str("</ul></section>\n");
    out
}

/// `<section id="strata">`: per stratum, the composed headline, the grid.
pub fn section(c: &Campaign, profiles: &[String]) -> String {
    let mut out = String::from(
        "<section id=\"strata\"><h2>Per kind, and composed under a stated mix</h2>\n\
         <p>Sizes in % of json under the same measure; times are paired ratios to json \
         with their 95% CI (1 thread).</p>\n",
    );
    let missing: Vec<&str> = STRATA.into_iter().filter(|s| !c.has_subset(s)).collect();
    if !missing.is_empty() {
        let _ = writeln!(out, "<p>{}: {NOT_MEASURED}.</p>", missing.join(", "));
    }
    out.push_str(&strata_table(c, profiles).render("kind-1"));
    composed(&mut out, c, profiles);
    sensitivity(&mut out, c);
    out.push_str("</section>\n");
    out
}

fn strata_table(c: &Campaign, profiles: &[String]) -> Table {
    let mut t = sizes_and_times("t-strata", &SizeMeasure::ALL);
    for s in STRATA.into_iter().filter(|s| c.has_subset(s)) {
        for p in profiles {
            let mut cells = vec![Cell::text(p)];
            cells.extend(SizeMeasure::ALL.map(|m| Cell::num(c.stratum_pct(p, s, m), PCT)));
            cells.extend(TIME_WORKLOADS.map(|w| Cell::with_ci(c.stratum_time(p, s, w), RATIO)));
            t.row(Some(s), p, cells);
        }
    }
    t
}

/// A table of profile, each size measure as % of json, and each time
/// workload's ratio.
fn sizes_and_times(id: &str, sizes: &[SizeMeasure]) -> Table {
    let mut columns = vec![Column::text("profile", "")];
    columns.extend(
        sizes
            .iter()
            .map(|m| Column::num(format!("{} %", m.name()), "")),
    );
    columns.extend(TIME_WORKLOADS.iter().map(|w| Column::num(w.name(), "")));
    Table::new(id, columns)
}

fn composed(out: &mut String, c: &Campaign, profiles: &[String]) {
    let k = &c.composed;
    let _ = writeln!(
        out,
        "<h3 id=\"composed\">Composed under the mix</h3>\n<p>{}</p>",
        code_spans(&k.mix.sentence())
    );
    if !k.missing.is_empty() {
        let _ = writeln!(
            out,
            "<p>Nothing is composed: {} {NOT_MEASURED}.</p>",
            k.missing.join(", ")
        );
    } else {
        let _ = writeln!(
            out,
            "<p>Composed bytes: sum over strata of share &times; mean bytes per event, over \
             json's; {}. Composed times: the same sum over each stratum's median ns/event; 95% CI \
             from a bootstrap resampling each stratum's rounds on its own.</p>",
            esc(&kind3_source(k.follow))
        );
        let _ = writeln!(out, "<p>{}.</p>", esc(&c.other.sentence()));
        let mut t = sizes_and_times("t-composed", &SizeMeasure::COMPOSED);
        for p in profiles {
            let mut cells = vec![Cell::text(p)];
            cells.extend(
                SizeMeasure::COMPOSED.map(|m| Cell::num(k.size(p, m).map(|x| x * 100.0), PCT)),
            );
            cells.extend(TIME_WORKLOADS.map(|w| Cell::with_ci(k.time(w, p), RATIO)));
            t.row(None, p, cells);
        }
        out.push_str(&t.render("all"));
    }
    let _ = writeln!(
        out,
        "<p>{}</p>",
        code_spans(&stream_note(c.has_subset("mix")))
    );
}

fn sensitivity(out: &mut String, c: &Campaign) {
    let _ = writeln!(
        out,
        "<h3 id=\"sensitivity\">Sensitivity: kind-3 share &times; follow-list median</h3>"
    );
    if c.grids.is_empty() {
        let _ = writeln!(
            out,
            "<p>The grid needs follow lists and every kind stratum: {NOT_MEASURED}.</p>"
        );
        return;
    }
    let shares: Vec<String> = c.grids[0]
        .shares
        .iter()
        .map(|s| fixed(s * 100.0, 2))
        .collect();
    let _ = writeln!(
        out,
        "<p>Kind-3 share {} % (the other strata keep their relative shares); the plots \
         <code>sensitivity-*.svg</code> show every profile's ratio per cell.</p>",
        shares.join(", ")
    );
    for g in &c.grids {
        grid(out, g);
    }
}

fn grid(out: &mut String, g: &Grid) {
    let m = g.measure.name();
    let _ = writeln!(out, "<h4>{}</h4>\n<ul>", esc(m));
    for s in g.conclusions() {
        let _ = writeln!(out, "<li>{}</li>", code_spans(&s));
    }
    out.push_str("</ul>\n");
    let mut t = Table::new(
        &format!("t-sensitivity-{}", m.replace(' ', "-")),
        vec![
            Column::text("profile", ""),
            Column::num("lowest %", "of json, over the grid"),
            Column::num("highest %", "of json, over the grid"),
            Column::num("best rank", ""),
            Column::num("worst rank", ""),
        ],
    );
    for s in g.spans() {
        t.row(
            None,
            &s.profile,
            vec![
                Cell::text(&s.profile),
                Cell::num(Some(s.lo * 100.0), PCT),
                Cell::num(Some(s.hi * 100.0), PCT),
                Cell::num(Some(s.best as f64), 0),
                Cell::num(Some(s.worst as f64), 0),
            ],
        );
    }
    out.push_str(&t.render("all"));
}

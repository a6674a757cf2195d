//! The page's result sections: claims, workload tables, sizes, side
//! measurements, plots and interop.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use binostr_records::{STREAM_CHUNK, WINDOW, Workload, ZSTD_LEVEL};

use super::html::{Cell, Column, Table, code_spans, esc};
use crate::fmt::{NS, PCT, RATIO, fixed};
use crate::model::campaign::Campaign;
use crate::model::checks::INSTRUCTION_TOLERANCE_PCT;
use crate::model::instr::agreement;
use crate::model::languages::{LANGUAGES, MatrixRow, NOT_MEASURED, NOT_MEASURED_CELL};
use crate::model::resolution::{RESOLVED_RANGE_PCT, resolution};
use crate::model::summary::{REFERENCE, Row};
use crate::read::inputs::{Inputs, Plot};

/// Workloads in reading order, with what they time (the method's parameters
/// read from `binostr-records`) and the floor their paired ratio is also
/// taken against.
pub fn workload_texts() -> [(&'static str, String, Option<&'static str>); 16] {
    [
        (Workload::Encode.name(), "Event → bytes, into a reused buffer".into(), Some(Workload::Copy.name())),
        (Workload::Decode.name(), "bytes → owned Event".into(), Some(Workload::Clone.name())),
        (Workload::DecodeId.name(), "decode, then recompute and compare the id".into(), Some(Workload::Decode.name())),
        (Workload::Validate.name(), "bounded decode + structural checks + id + BIP-340".into(), Some(Workload::IdVerify.name())),
        (
            Workload::SelectChecked.name(),
            "borrowed kind+pubkey read, whole record checked first".into(),
            Some(Workload::SelectRawOffset.name()),
        ),
        (
            Workload::SelectPreverified.name(),
            "borrowed kind+pubkey read from stored, already verified bytes".into(),
            Some(Workload::SelectRawOffset.name()),
        ),
        (
            Workload::FilterChecked.name(),
            "every drawn NIP-01 REQ filter over the stored records (view or decode, record checked); per record scanned".into(),
            Some(Workload::FilterEvent.name()),
        ),
        (
            Workload::FilterPreverified.name(),
            "every drawn NIP-01 REQ filter over the stored records, view of stored, already verified bytes; per record scanned".into(),
            Some(Workload::FilterEvent.name()),
        ),
        (
            Workload::TransportPlain.name(),
            "REQ → every event → EOSE over a WebSocket on loopback, no compression; the client decodes every event".into(),
            None,
        ),
        (
            Workload::TransportDeflate.name(),
            "the same exchange with permessage-deflate, no context takeover".into(),
            None,
        ),
        (
            Workload::TransportDeflateCtx.name(),
            "the same exchange with permessage-deflate, context kept across messages".into(),
            None,
        ),
        (Workload::Stream.name(), format!("a length-framed stream fed in {STREAM_CHUNK}-byte chunks"), None),
        (Workload::Batch.name(), format!("the format's native batch of {WINDOW} events"), None),
        (
            Workload::Compress.name(),
            format!("4-byte framing + zstd level {ZSTD_LEVEL} over {WINDOW}-event windows"),
            None,
        ),
        (
            Workload::IngestMt.name(),
            "validated ingest on a thread pool (1 and all cores)".into(),
            Some("1-thread"),
        ),
        (Workload::Copy.name(), "memcpy of the profile's own bytes (encode floor)".into(), None),
    ]
}

fn family(inputs: &Inputs, p: &str) -> String {
    inputs
        .profile(p)
        .map_or_else(|| "not in registry".to_owned(), |x| x.family.clone())
}

fn profile_cell(p: &str) -> Cell {
    Cell::html(format!("<code>{}</code>", esc(p)), p)
}

/// Claims, invariant violations and resolution.
pub fn claims(c: &Campaign) -> String {
    let host = c.primary_host();
    let mut out = String::from("<section id=\"claims\"><h2>What the campaign resolves</h2>\n");
    out.push_str(
        "<p>A profile is called faster only when the 95&nbsp;% CI of its paired ratio to every \
         other profile lies below 1 in every run (subset all, one thread); otherwise the profiles \
         are named as tied.</p>\n<ul class=\"claims\">\n",
    );
    for k in c.claims.iter().filter(|k| k.host == host) {
        let _ = writeln!(
            out,
            "<li><strong>{}</strong>: {}</li>",
            esc(&k.workload),
            code_spans(&k.sentence())
        );
    }
    out.push_str("</ul>\n<h3>Invariant violations</h3>\n");
    if c.violations.is_empty() {
        out.push_str("<p>None.</p>\n");
    } else {
        out.push_str(
            "<p>Results that cannot be true (validate ≥ id+verify, decode+id ≥ decode, checked \
             select ≥ raw offset, scaling ≤ threads, identical bytes and instructions across \
             runs). A violating row is flagged in its table and left out of every claim.</p>\n<ul>\n",
        );
        for v in &c.violations {
            let _ = writeln!(
                out,
                "<li class=\"bad\">{} ({}): {}</li>",
                esc(&v.host),
                v.check.name(),
                code_spans(&v.text)
            );
        }
        out.push_str("</ul>\n");
    }
    let res = resolution(c, host);
    if !res.is_empty() {
        let bound = fixed(RESOLVED_RANGE_PCT, 0);
        let _ = writeln!(
            out,
            "<h3>Resolution</h3>\n<p>Share of paired ratios whose cross-run range is within \
             {bound}&nbsp;%.</p>"
        );
        let within = format!("within {bound} %");
        let mut t = Table::new(
            "resolution",
            vec![
                Column::text("workload", ""),
                Column::num("paired ratios", ""),
                Column::num(within.as_str(), ""),
                Column::num("share %", ""),
                Column::num("median range %", ""),
            ],
        );
        for r in &res {
            t.row(
                None,
                &r.workload,
                vec![
                    Cell::text(&r.workload),
                    Cell::num(Some(r.ratios as f64), 0),
                    Cell::num(Some(r.within as f64), 0),
                    Cell::num(Some(r.within_pct()), 1),
                    Cell::num(Some(r.median_range_pct), PCT),
                ],
            );
        }
        out.push_str(&t.render("all"));
    }
    out.push_str("</section>\n");
    out
}

fn flags(c: &Campaign, row: &crate::model::summary::Row, excluded: &BTreeSet<String>) -> Cell {
    let key = row.key();
    let mut notes: Vec<String> = c
        .paired
        .iter()
        .filter(|p| p.key() == key && p.violates())
        .map(|p| {
            format!(
                "below bound: / {} = {} (CI to {})",
                p.against,
                fixed(p.est.median, RATIO),
                fixed(p.est.ci.hi, RATIO)
            )
        })
        .collect();
    if excluded.contains(&row.profile) {
        notes.push("left out of this workload's claims".to_owned());
    }
    if row.subset == "all"
        && let Some(i) = c.instructions(&row.host, &row.workload, &row.profile)
        && i.dev_pct > INSTRUCTION_TOLERANCE_PCT
    {
        notes.push(format!("instructions differ by {} %", fixed(i.dev_pct, 3)));
    }
    if notes.is_empty() {
        Cell::text("ok").class("good")
    } else {
        Cell::html(format!("⚠ {}", esc(&notes.join("; "))), "violation").class("bad")
    }
}

/// One sortable table per workload.
pub fn workloads(c: &Campaign) -> String {
    let host = c.primary_host();
    let mut out = String::from(
        "<section id=\"workloads\"><h2>Workloads</h2>\n<p>Every benchmark key of the campaign. \
         <em>ns/event</em> is the median over runs of each run's median (an absolute time of host \
         <code>",
    );
    out.push_str(&esc(host));
    out.push_str(
        "</code>), with a bootstrap 95&nbsp;% CI and its cross-run range. <em>/ json</em> is the \
         <strong>paired</strong> ratio to <code>json</code> (both timed in the same interleaved \
         round), with its CI and cross-run range; <em>/ floor</em> the paired ratio to the \
         workload's floor. Instructions per event (callgrind) are for subset all. Click a header \
         to sort; choose a subset above each table.</p>\n",
    );
    let present: BTreeSet<&str> = c
        .rows
        .iter()
        .filter(|r| r.host == host && r.profile != REFERENCE)
        .map(|r| r.workload.as_str())
        .collect();
    let known = workload_texts();
    let mut order: Vec<(&str, &str, Option<&str>)> = known
        .iter()
        .filter(|w| present.contains(w.0))
        .map(|(w, what, floor)| (*w, what.as_str(), *floor))
        .collect();
    for w in &present {
        if !known.iter().any(|x| x.0 == *w) {
            order.push((w, "", None));
        }
    }
    out.push_str("<nav class=\"toc\">");
    for (w, _, _) in &order {
        let _ = write!(out, "<a href=\"#w-{0}\">{0}</a> ", esc(w));
    }
    out.push_str("<a href=\"#w-reference\">reference rows</a></nav>\n");
    for (w, what, floor) in order {
        workload_table(&mut out, c, w, what, floor);
    }
    out.push_str(&reference(c));
    out.push_str("</section>\n");
    out
}

/// The table of workload `w`: what it times, then one row per profile and
/// subset.
fn workload_table(out: &mut String, c: &Campaign, w: &str, what: &str, floor: Option<&str>) {
    let host = c.primary_host();
    let rows: Vec<_> = c
        .rows
        .iter()
        .filter(|r| r.host == host && r.workload == w && r.profile != REFERENCE)
        .collect();
    let threads = rows.iter().any(|r| r.threads != 1);
    let instr = rows
        .iter()
        .any(|r| c.instructions(host, w, &r.profile).is_some());
    let floor_title = floor.map(|f| format!("/ {f}"));
    let cols = workload_columns(threads, floor_title.as_deref(), instr);
    let id = format!("t-{}", w.replace('+', "-"));
    let mut t = Table::new(&id, cols);
    let excluded = c.excluded(host, w);
    for r in rows {
        let cells = workload_cells(c, r, floor, threads, instr, &excluded);
        t.row(Some(&r.subset), &r.profile, cells);
    }
    let _ = writeln!(
        out,
        "<h3 id=\"w-{0}\"><code>{0}</code></h3>\n<p class=\"what\">{1}</p>",
        esc(w),
        esc(what)
    );
    out.push_str(&t.render("all"));
}

/// The columns of a workload's table.
fn workload_columns(threads: bool, floor_title: Option<&str>, instr: bool) -> Vec<Column> {
    let mut cols: Vec<Column> = vec![Column::text("profile", ""), Column::text("subset", "")];
    if threads {
        cols.push(Column::num("threads", ""));
    }
    cols.extend([
        Column::num("ns/event", "median over runs of the run medians"),
        Column::num("95 % CI ns", "bootstrap: runs, then samples"),
        Column::num("range %", "cross-run range of ns/event"),
        Column::num("/ json [95 % CI]", "paired ratio to json"),
        Column::num("/ json range %", "cross-run range of the paired ratio"),
    ]);
    if let Some(t) = floor_title {
        cols.push(Column::num(t, "paired ratio to the floor"));
    }
    if instr {
        cols.push(Column::num("instr/event", "callgrind, subset all"));
        cols.push(Column::text("instr runs", "agreement across runs"));
    }
    cols.push(Column::text(
        "invariants",
        "bounds, bytes and instructions checks",
    ));
    cols.push(Column::num("rank", "order of point estimates, not a claim"));
    cols
}

/// One row of a workload's table.
fn workload_cells(
    c: &Campaign,
    r: &Row,
    floor: Option<&str>,
    threads: bool,
    instr: bool,
    excluded: &BTreeSet<String>,
) -> Vec<Cell> {
    let (host, w) = (r.host.as_str(), r.workload.as_str());
    let mut cells = vec![profile_cell(&r.profile), Cell::text(&r.subset)];
    if threads {
        cells.push(Cell::num(Some(r.threads as f64), 0));
    }
    cells.push(Cell::num(Some(r.median_ns), NS));
    cells.push(Cell::html(
        format!("{} – {}", fixed(r.ci_ns.lo, NS), fixed(r.ci_ns.hi, NS)),
        &fixed(r.ci_ns.lo, NS),
    ));
    cells.push(Cell::num(Some(r.range_pct), PCT));
    cells.push(Cell::with_ci(r.ratio_json, RATIO));
    cells.push(Cell::num(r.ratio_range_pct, PCT));
    if let Some(f) = floor {
        let p = c
            .paired(host, w, &r.profile, &r.subset, r.threads, f)
            .map(crate::model::paired::Paired::interval);
        cells.push(Cell::with_ci(p, RATIO));
    }
    if instr {
        let i = (r.subset == "all")
            .then(|| c.instructions(host, w, &r.profile))
            .flatten();
        cells.push(Cell::num(i.map(|i| i.per_event), 0));
        cells.push(i.map_or_else(Cell::missing, |i| Cell::text(&agreement(i.dev_pct))));
    }
    cells.push(flags(c, r, excluded));
    cells.push(Cell::num(Some(r.rank as f64), 0));
    cells
}

fn reference(c: &Campaign) -> String {
    let host = c.primary_host();
    let mut t = Table::new(
        "t-reference",
        vec![
            Column::text("row", ""),
            Column::text("subset", ""),
            Column::num("ns/event", ""),
            Column::num("95 % CI ns", ""),
            Column::num("range %", ""),
            Column::num("instr/event", "callgrind, subset all"),
        ],
    );
    for r in c
        .rows
        .iter()
        .filter(|r| r.host == host && r.profile == REFERENCE)
    {
        let i = (r.subset == "all")
            .then(|| c.instructions(host, &r.workload, REFERENCE))
            .flatten();
        t.row(
            Some(&r.subset),
            REFERENCE,
            vec![
                Cell::html(format!("<code>{}</code>", esc(&r.workload)), &r.workload),
                Cell::text(&r.subset),
                Cell::num(Some(r.median_ns), NS),
                Cell::html(
                    format!("{} – {}", fixed(r.ci_ns.lo, NS), fixed(r.ci_ns.hi, NS)),
                    &fixed(r.ci_ns.lo, NS),
                ),
                Cell::num(Some(r.range_pct), PCT),
                Cell::num(i.map(|i| i.per_event), 0),
            ],
        );
    }
    format!(
        "<h3 id=\"w-reference\">Reference rows</h3>\n<p class=\"what\">Floors timed beside the \
         profiles: <code>id+verify</code> (id and BIP-340 of a decoded event), <code>clone</code> \
         (<code>Event::clone</code>), <code>select-raw-offset</code> (kind and pubkey at known \
         offsets).</p>\n{}",
        t.render("all")
    )
}

/// Sizes per profile and subset, raw, framed and compressed.
pub fn sizes(c: &Campaign, inputs: &Inputs, profiles: &[String]) -> String {
    let host = c.primary_host();
    let mut t = Table::new(
        "t-sizes",
        vec![
            Column::text("profile", ""),
            Column::text("family", ""),
            Column::text("subset", ""),
            Column::num("events", ""),
            Column::num("raw B/event", "encoded bytes"),
            Column::num("framed B/event", "with a 4-byte length"),
            Column::num("zstd B/event", "each event compressed alone"),
            Column::num("zstd stream B/event", "the framed stream compressed whole"),
            Column::num("zstd+dict B/event", "each event alone, trained dictionary"),
            Column::num(
                "raw % json",
                "of json's bytes under the same measure, same events",
            ),
            Column::num("framed % json", ""),
            Column::num("zstd % json", ""),
            Column::num("stream % json", ""),
            Column::num("dict % json", ""),
        ],
    );
    for p in profiles {
        for s in c
            .side
            .sizes
            .iter()
            .filter(|s| s.host == host && &s.profile == p)
        {
            let pct = c.size_pcts(p, &s.subset);
            let mut cells = vec![
                profile_cell(p),
                Cell::text(&family(inputs, p)),
                Cell::text(&s.subset),
                Cell::num(Some(s.events), 0),
            ];
            cells.extend(s.bytes.columns().map(|b| Cell::num(Some(b / s.events), 1)));
            let pct = pct.map_or([None; 5], |v| v.columns().map(Some));
            cells.extend(pct.map(|v| Cell::num(v, PCT)));
            t.row(Some(&s.subset), p, cells);
        }
    }
    format!(
        "<section id=\"sizes\"><h2>Sizes</h2>\n<p>Bytes are deterministic: the runs agree \
         exactly (a difference would be listed as a violation). zstd is level {ZSTD_LEVEL}; the dictionary \
         (32 KiB) is trained on a disjoint generated sample.</p>\n{}</section>\n",
        t.render("all")
    )
}

/// The plots of `summary/plots/`, inline.
pub fn plots(inputs: &Inputs) -> String {
    let mut out = String::from(
        "<section id=\"plots\"><h2>Plots</h2>\n<p>The campaign's plots \
         (<code>summary/plots/*.svg</code>), embedded as they are.</p>\n",
    );
    for Plot { name, svg } in &inputs.plots {
        let body = svg
            .trim_start_matches(|c| c != '<')
            .trim_start_matches("<?xml version=\"1.0\" encoding=\"UTF-8\"?>")
            .trim();
        let _ = writeln!(
            out,
            "<figure id=\"plot-{0}\">{1}<figcaption><code>{0}.svg</code></figcaption></figure>",
            esc(name),
            body
        );
    }
    out.push_str("</section>\n");
    out
}

/// Latency percentiles, allocations and peak RSS.
pub fn side(c: &Campaign) -> String {
    let host = c.primary_host();
    let mut out = String::from(
        "<section id=\"side\"><h2>Latency, allocations, memory</h2>\n<p>Each from its own child \
         process; medians over runs.</p>\n",
    );
    latency(&mut out, c, host);
    let mut t = Table::new(
        "t-alloc",
        vec![
            Column::text("workload", ""),
            Column::text("profile", ""),
            Column::num("allocs/event", ""),
            Column::num("bytes/event", ""),
        ],
    );
    for a in c.side.alloc.iter().filter(|a| a.host == host) {
        t.row(
            None,
            &a.profile,
            vec![
                Cell::text(&a.workload),
                profile_cell(&a.profile),
                Cell::num(Some(a.allocs_per_event), 2),
                Cell::num(Some(a.bytes_per_event), 1),
            ],
        );
    }
    if !t.rows.is_empty() {
        out.push_str("<h3>Allocations</h3><p class=\"what\">counting global allocator</p>\n");
        out.push_str(&t.render("all"));
    }
    let mut t = Table::new(
        "t-rss",
        vec![
            Column::text("workload", ""),
            Column::text("profile", ""),
            Column::num("peak − baseline KiB", "VmHWM growth"),
        ],
    );
    for r in c.side.rss.iter().filter(|r| r.host == host) {
        t.row(
            None,
            &r.profile,
            vec![
                Cell::text(&r.workload),
                profile_cell(&r.profile),
                Cell::num(Some(r.growth_kib), 0),
            ],
        );
    }
    if !t.rows.is_empty() {
        out.push_str("<h3>Peak RSS growth</h3>\n");
        out.push_str(&t.render("all"));
    }
    out.push_str("</section>\n");
    out
}

/// The interop checks matrix and the decode time per language.
pub fn interop(c: &Campaign, matrix: &[MatrixRow], inputs: &Inputs, profiles: &[String]) -> String {
    let mut out = String::from("<section id=\"interop\"><h2>Interop</h2>\n");
    if inputs.checks.is_empty() && c.interop.is_empty() {
        out.push_str("<p>No interop records (<code>results/interop/</code>).</p></section>\n");
        return out;
    }
    let mut languages: Vec<&str> = inputs.checks.iter().map(|k| k.language.as_str()).collect();
    languages.dedup();
    if !languages.is_empty() {
        checks_matrix(&mut out, inputs, profiles, &languages);
    }
    if !matrix.is_empty() {
        decode_by_language(&mut out, c, matrix);
    }
    out.push_str("</section>\n");
    out
}

/// The interop checks: per profile and language, the verifier's status.
fn checks_matrix(out: &mut String, inputs: &Inputs, profiles: &[String], languages: &[&str]) {
    out.push_str(
        "<p>Each language's verifier decodes the interop vectors, re-encodes them and \
         compares bytes (<code>results/interop/checks-*.csv</code>; <code>js-corpus</code> \
         runs over the whole corpus). Hover a cell for the library and the reason.</p>\n",
    );
    let mut cols: Vec<Column> = vec![Column::text("profile", ""), Column::text("family", "")];
    cols.extend(languages.iter().map(|l| Column::text(*l, "")));
    let mut t = Table::new("t-interop", cols);
    let mut listed: Vec<String> = profiles.to_vec();
    for k in &inputs.checks {
        if !listed.contains(&k.profile) {
            listed.push(k.profile.clone());
        }
    }
    for p in &listed {
        let mut cells = vec![profile_cell(p), Cell::text(&family(inputs, p))];
        for l in languages {
            let k = inputs
                .checks
                .iter()
                .find(|k| k.language == *l && &k.profile == p);
            cells.push(k.map_or_else(Cell::missing, |k| {
                let class = match k.status.as_str() {
                    "ok" => "good",
                    "known-divergence" => "warn",
                    "fail" | "not-covered" => "bad",
                    _ => "muted",
                };
                let tip = format!("{}; {} vectors; {}", k.library, k.vectors, k.reason);
                Cell::html(
                    format!("<span title=\"{}\">{}</span>", esc(&tip), esc(&k.status)),
                    &k.status,
                )
                .class(class)
            }));
        }
        t.row(None, p, cells);
    }
    out.push_str(&t.render("all"));
}

/// Decode time by language: the fastest library decoding to the event.
fn decode_by_language(out: &mut String, c: &Campaign, matrix: &[MatrixRow]) {
    let _ = writeln!(
        out,
        "<h3>Decode time by language</h3>\n<p class=\"what\">ns/event, the fastest library \
         that decodes to the event; Rust is this campaign's <code>decode</code> (host \
         <code>{}</code>), the others are timed by their own harness on the same selection \
         and are not comparable across hosts.</p>",
        esc(c.primary_host())
    );
    let mut cols: Vec<Column> = vec![Column::text("format", "")];
    cols.extend(
        LANGUAGES
            .iter()
            .map(|l| Column::num(format!("{} ns", l.id), "")),
    );
    cols.extend(NOT_MEASURED.iter().map(|u| Column::text(u.language, u.why)));
    let mut t = Table::new("t-languages", cols);
    for m in matrix {
        let mut row = vec![profile_cell(&m.format)];
        row.extend(m.cells.iter().map(|cell| {
            cell.fastest.as_ref().map_or_else(Cell::missing, |f| {
                Cell::html(
                    format!(
                        "{} <span class=\"ci\">{}</span>",
                        super::html::group_digits(&fixed(f.ns, 0)),
                        esc(&f.library)
                    ),
                    &fixed(f.ns, NS),
                )
                .class("n")
            })
        }));
        row.extend(NOT_MEASURED.iter().map(|_| Cell::text(NOT_MEASURED_CELL)));
        t.row(None, &m.format, row);
    }
    out.push_str(&t.render("all"));
}

/// Per-event latency percentiles.
fn latency(out: &mut String, c: &Campaign, host: &str) {
    let mut t = Table::new(
        "t-latency",
        vec![
            Column::text("workload", ""),
            Column::text("profile", ""),
            Column::num("p50 ns", ""),
            Column::num("p90 ns", ""),
            Column::num("p99 ns", ""),
            Column::num("p99.9 ns", ""),
            Column::num("max ns", ""),
        ],
    );
    for l in c.side.latency.iter().filter(|l| l.host == host) {
        let mut cells = vec![Cell::text(&l.workload), profile_cell(&l.profile)];
        let n = l.ns;
        cells.extend([n.p50, n.p90, n.p99, n.p999, n.max].map(|v| Cell::num(Some(v), 0)));
        t.row(None, &l.profile, cells);
    }
    if !t.rows.is_empty() {
        out.push_str(
            "<h3>Per-event latency</h3><p class=\"what\">each event timed alone, timer overhead \
             subtracted</p>\n",
        );
        out.push_str(&t.render("all"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workload_texts_read_the_method_parameters() {
        let what = |w: &str| workload_texts().into_iter().find(|x| x.0 == w).unwrap().1;
        assert!(
            what(Workload::Stream.name()).contains(&format!("fed in {STREAM_CHUNK}-byte chunks"))
        );
        assert!(what(Workload::Batch.name()).contains(&format!("native batch of {WINDOW} events")));
        assert!(what(Workload::Compress.name()).contains(&format!(
            "zstd level {ZSTD_LEVEL} over {WINDOW}-event windows"
        )));
    }
}

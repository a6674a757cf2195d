//! The paper's kind strata, composed headline and sensitivity grid:
//! `strata.csv`, `composed.csv`, `sensitivity.csv` and their macros.

use crate::fmt::{PCT, RATIO, fixed, fixed_opt};
use crate::interval::Interval;
use crate::model::campaign::Campaign;
use crate::model::mix::{
    NOT_MEASURED, STRATA, SizeMeasure, TIME_WORKLOADS, kind3_source, stream_note,
};
use crate::render::names::tex_escape;

/// A missing cell: pgfplots reads `nan`.
const NAN: &str = "nan";

fn cell(x: Option<f64>, decimals: usize) -> String {
    x.filter(|v| v.is_finite())
        .map_or(NAN.to_owned(), |v| fixed(v, decimals))
}

fn time_header() -> Vec<String> {
    TIME_WORKLOADS
        .iter()
        .flat_map(|w| {
            let w = w.name().replace('+', "_");
            [w.clone(), format!("{w}_lo"), format!("{w}_hi")]
        })
        .collect()
}

fn time_cells(t: &[Option<Interval>]) -> Vec<String> {
    t.iter()
        .flat_map(|r| {
            [
                cell(r.map(|r| r.est), RATIO),
                cell(r.map(|r| r.lo), RATIO),
                cell(r.map(|r| r.hi), RATIO),
            ]
        })
        .collect()
}

fn table(header: Vec<String>, rows: Vec<Vec<String>>) -> String {
    let mut out = header.join(",") + "\n";
    for r in rows {
        out.push_str(&r.join(","));
        out.push('\n');
    }
    out
}

/// `strata.csv`: per measured stratum and profile, sizes in % of json's
/// under the same measure and the paired time ratios to json.
pub(super) fn strata_csv(c: &Campaign) -> String {
    let mut header: Vec<String> = [
        "stratum",
        "profile",
        "raw_pct",
        "zstd_event_pct",
        "zstd_stream_pct",
        "deflate_event_pct",
        "deflate_stream_pct",
    ]
    .map(str::to_owned)
    .to_vec();
    header.extend(time_header());
    let mut rows = Vec::new();
    for s in STRATA.into_iter().filter(|s| c.has_subset(s)) {
        for p in c.profiles(c.primary_host()) {
            let mut row = vec![s.to_owned(), p.clone()];
            row.extend(SizeMeasure::ALL.map(|m| cell(c.stratum_pct(&p, s, m), PCT)));
            row.extend(time_cells(
                &TIME_WORKLOADS.map(|w| c.stratum_time(&p, s, w)),
            ));
            rows.push(row);
        }
    }
    table(header, rows)
}

/// `composed.csv`: per profile, composed sizes in % of json's and composed
/// time ratios with their intervals.
pub(super) fn composed_csv(c: &Campaign) -> String {
    let k = &c.composed;
    let mut header = vec![
        "profile".to_owned(),
        "raw_pct".to_owned(),
        "zstd_event_pct".to_owned(),
        "deflate_event_pct".to_owned(),
    ];
    header.extend(time_header());
    let rows = if k.missing.is_empty() {
        c.profiles(c.primary_host())
            .into_iter()
            .map(|p| {
                let mut row = vec![p.clone()];
                row.extend(
                    SizeMeasure::COMPOSED.map(|m| cell(k.size(&p, m).map(|x| x * 100.0), PCT)),
                );
                row.extend(time_cells(&TIME_WORKLOADS.map(|w| k.time(w, &p))));
                row
            })
            .collect()
    } else {
        Vec::new()
    };
    table(header, rows)
}

/// `sensitivity.csv`: every grid cell's ratio and rank per profile.
pub(super) fn sensitivity_csv(c: &Campaign) -> String {
    let header = [
        "measure",
        "kind3_share_pct",
        "median_tags",
        "profile",
        "pct",
        "rank",
    ]
    .map(str::to_owned)
    .to_vec();
    let mut rows = Vec::new();
    for g in &c.grids {
        for cell in &g.cells {
            for (i, k) in cell.ratios.iter().enumerate() {
                rows.push(vec![
                    g.measure.name().replace(' ', "-"),
                    fixed(cell.share * 100.0, 2),
                    cell.median_tags.to_string(),
                    k.profile.clone(),
                    fixed(k.ratio * 100.0, PCT),
                    (i + 1).to_string(),
                ]);
            }
        }
    }
    table(header, rows)
}

/// `sensitivity-spans.csv`: per grid measure and profile, the lowest and
/// highest composed % of json's over the grid and the best and worst rank.
pub(super) fn sensitivity_spans_csv(c: &Campaign) -> String {
    let header = [
        "measure",
        "profile",
        "lowest_pct",
        "highest_pct",
        "best_rank",
        "worst_rank",
    ]
    .map(str::to_owned)
    .to_vec();
    let mut rows = Vec::new();
    for g in &c.grids {
        for s in g.spans() {
            rows.push(vec![
                g.measure.name().replace(' ', "-"),
                s.profile,
                fixed(s.lo * 100.0, PCT),
                fixed(s.hi * 100.0, PCT),
                s.best.to_string(),
                s.worst.to_string(),
            ]);
        }
    }
    table(header, rows)
}

/// The macros of the mix, the strata, the composed headline and the grid:
/// `(name, LaTeX value)`.
pub(super) fn strata_macros(c: &Campaign) -> Vec<(String, String)> {
    let k = &c.composed;
    let mut m = vec![
        ("MixName".to_owned(), tex_escape(&k.mix.mix.name)),
        ("MixShares".to_owned(), tex_escape(&k.mix.shares())),
        (
            "MixSentence".to_owned(),
            tex_escape(&k.mix.sentence().replace('`', "")),
        ),
        (
            "MixRecorded".to_owned(),
            if k.mix.recorded { "1" } else { "0" }.to_owned(),
        ),
        (
            "MixStreamNote".to_owned(),
            tex_escape(&stream_note(c.has_subset("mix")).replace('`', "")),
        ),
    ];
    let missing: Vec<&str> = STRATA.into_iter().filter(|s| !c.has_subset(s)).collect();
    m.push((
        "StrataNotMeasured".to_owned(),
        if missing.is_empty() {
            "none".to_owned()
        } else {
            tex_escape(&format!("{}: {NOT_MEASURED}", missing.join(", ")))
        },
    ));
    if k.missing.is_empty() {
        m.push((
            "ComposedKindThree".to_owned(),
            tex_escape(&kind3_source(k.follow)),
        ));
        m.push((
            "ComposedOtherKinds".to_owned(),
            tex_escape(&c.other.sentence()),
        ));
        composed_smallest(&mut m, c);
    } else {
        m.push((
            "ComposedNotMeasured".to_owned(),
            tex_escape(&format!("{} {NOT_MEASURED}", k.missing.join(", "))),
        ));
    }
    match c.grids.first() {
        Some(g) => {
            let shares: Vec<String> = g
                .shares
                .iter()
                .map(|s| fixed(s * 100.0, 2) + " %")
                .collect();
            let medians: Vec<String> = g.medians.iter().map(i64::to_string).collect();
            m.push((
                "SensitivityGrid".to_owned(),
                tex_escape(&format!(
                    "kind-3 share {} (the other strata keep their relative shares) x \
                     follow-list median {} p tags",
                    shares.join(", "),
                    medians.join(", ")
                )),
            ));
        }
        None => m.push((
            "SensitivityNotMeasured".to_owned(),
            tex_escape(&format!(
                "The grid needs follow-lists.csv and every kind stratum: {NOT_MEASURED}."
            )),
        )),
    }
    for g in &c.grids {
        let name = macro_name(g.measure);
        let text: Vec<String> = g.conclusions();
        m.push((
            format!("Sensitivity{name}"),
            tex_escape(&text.join(" ").replace('`', "")),
        ));
    }
    m
}

/// A size measure as a macro name part.
fn macro_name(m: SizeMeasure) -> &'static str {
    match m {
        SizeMeasure::Raw => "Raw",
        SizeMeasure::ZstdEvent => "ZstdEvent",
        SizeMeasure::ZstdStream => "ZstdStream",
        SizeMeasure::DeflateEvent => "DeflateEvent",
        SizeMeasure::DeflateStream => "DeflateStream",
    }
}

/// `ComposedSmallest{Raw,ZstdEvent,DeflateEvent}` and their % of json.
fn composed_smallest(m: &mut Vec<(String, String)>, c: &Campaign) {
    for measure in SizeMeasure::COMPOSED {
        let name = macro_name(measure);
        let best = c
            .composed
            .sizes
            .iter()
            .filter(|s| s.measure == measure)
            .map(|s| (&s.profile, s.ratio))
            .min_by(|a, b| a.1.total_cmp(&b.1).then_with(|| a.0.cmp(b.0)));
        if let Some((p, r)) = best {
            m.push((format!("ComposedSmallest{name}"), tex_escape(p)));
            m.push((
                format!("ComposedSmallest{name}Pct"),
                fixed_opt(Some(r * 100.0), 1),
            ));
        }
    }
}

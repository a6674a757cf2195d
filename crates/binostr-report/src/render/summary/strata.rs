//! The kind strata, the figures composed under the stated mix, and the
//! sensitivity grid of `summary.md` (primary host).

use std::fmt::Write as _;

use super::table::{md_table, ratio_opt, sorted_rows, with_ci};
use crate::fmt::{PCT, fixed, fixed_opt};
use crate::model::campaign::Campaign;
use crate::model::holds::marks;
use crate::model::mix::{
    NOT_MEASURED, STRATA, SizeMeasure, TIME_WORKLOADS, kind3_source, stream_note,
};
use crate::model::sensitivity::Grid;

/// `## Where each claim holds`: the primary host's claims, marked.
pub(super) fn holds_section(out: &mut String, c: &Campaign) {
    let _ = writeln!(
        out,
        "## Where each claim holds (host {})\n\nA claim holds elsewhere when the claim there \
         says the same: the same profile resolved as the fastest, or again a tie with the same \
         leader among the tied.\n",
        c.primary_host()
    );
    for m in marks(c) {
        let _ = writeln!(
            out,
            "- **{}**: {} *Where:* {}.",
            m.workload,
            m.sentence,
            m.text()
        );
    }
    out.push('\n');
}

/// `## Kind strata`, `## Composed under the traffic mix` and `## Sensitivity`.
pub(super) fn strata_sections(out: &mut String, c: &Campaign) {
    let host = c.primary_host();
    let _ = writeln!(
        out,
        "## Kind strata (host {host})\n\nSizes in % of json under the same measure; times are \
         paired ratios to json with their 95% CI (1 thread).\n"
    );
    for s in STRATA {
        stratum_table(out, c, s);
    }
    composed_section(out, c);
    sensitivity_section(out, c);
}

fn stratum_table(out: &mut String, c: &Campaign, stratum: &str) {
    let _ = writeln!(out, "### {stratum}\n");
    if !c.has_subset(stratum) {
        let _ = writeln!(out, "{stratum}: {NOT_MEASURED}.\n");
        return;
    }
    let mut deflate_missing = false;
    let rows = c
        .profiles(c.primary_host())
        .into_iter()
        .filter_map(|p| {
            let pct = |m| c.stratum_pct(&p, stratum, m);
            let times = TIME_WORKLOADS.map(|w| c.stratum_time(&p, stratum, w));
            // Raw bytes are in every size row: its % is there when both rows are.
            let raw = pct(SizeMeasure::Raw);
            let sized = raw.is_some();
            if !sized && times.iter().all(Option::is_none) {
                return None;
            }
            deflate_missing |= sized && pct(SizeMeasure::DeflateEvent).is_none();
            let mut row = vec![format!("`{p}`")];
            row.extend(SizeMeasure::ALL.map(|m| match pct(m) {
                None if sized && m.is_deflate() => "n/m".to_owned(),
                x => fixed_opt(x, PCT),
            }));
            row.extend(times.iter().map(|t| ratio_opt(*t)));
            Some((raw.unwrap_or(f64::INFINITY), row))
        })
        .collect();
    let mut header = vec!["profile"];
    header.extend(SizeMeasure::ALL.map(SizeMeasure::name));
    header.extend(TIME_WORKLOADS.map(|w| w.name()));
    md_table(out, &header, &sorted_rows(rows));
    if deflate_missing {
        let _ = writeln!(out, "n/m: deflate sizes {NOT_MEASURED}.\n");
    }
}

fn composed_section(out: &mut String, c: &Campaign) {
    let k = &c.composed;
    let _ = writeln!(out, "## Composed under the traffic mix\n");
    let _ = writeln!(out, "{}\n", k.mix.sentence());
    if !k.missing.is_empty() {
        let _ = writeln!(
            out,
            "Nothing is composed: {} {NOT_MEASURED}.\n",
            k.missing.join(", ")
        );
    } else {
        let _ = writeln!(
            out,
            "Composed bytes: sum over strata of share x mean bytes per event, over json's; {}. \
             Composed times: the same sum over each stratum's median ns/event, over json's; 95% CI \
             from a bootstrap resampling each stratum's runs and rounds on its own.\n",
            kind3_source(k.follow)
        );
        let _ = writeln!(out, "{}.\n", c.other.sentence());
        let rows = c
            .profiles(c.primary_host())
            .into_iter()
            .map(|p| {
                let mut row = vec![format!("`{p}`")];
                row.extend(
                    SizeMeasure::COMPOSED.map(|m| fixed_opt(k.size(&p, m).map(|x| x * 100.0), PCT)),
                );
                row.extend(TIME_WORKLOADS.map(|w| with_ci(k.time(w, &p))));
                let raw = k.size(&p, SizeMeasure::Raw);
                (raw.unwrap_or(f64::INFINITY), row)
            })
            .collect();
        let mut header = vec!["profile".to_owned()];
        header.extend(SizeMeasure::COMPOSED.map(|m| format!("{} %", m.name())));
        header.extend(TIME_WORKLOADS.map(|w| w.name().to_owned()));
        let header: Vec<&str> = header.iter().map(String::as_str).collect();
        md_table(out, &header, &sorted_rows(rows));
    }
    let _ = writeln!(out, "{}\n", stream_note(c.has_subset("mix")));
    if c.has_subset("mix") {
        mix_stream_table(out, c);
    }
}

fn mix_stream_table(out: &mut String, c: &Campaign) {
    let rows = c
        .profiles(c.primary_host())
        .into_iter()
        .filter_map(|p| {
            let pct = |m| c.stratum_pct(&p, "mix", m);
            // Listed where both have a size row (raw is in every row).
            pct(SizeMeasure::Raw)?;
            let zstd = pct(SizeMeasure::ZstdStream);
            let row = vec![
                format!("`{p}`"),
                fixed_opt(zstd, PCT),
                fixed_opt(pct(SizeMeasure::DeflateStream), PCT),
            ];
            Some((zstd.unwrap_or(f64::INFINITY), row))
        })
        .collect();
    md_table(
        out,
        &["profile", "zstd stream %", "deflate stream %"],
        &sorted_rows(rows),
    );
}

fn sensitivity_section(out: &mut String, c: &Campaign) {
    let _ = writeln!(out, "## Sensitivity: kind-3 share x follow-list median\n");
    if c.grids.is_empty() {
        let _ = writeln!(
            out,
            "The grid needs follow-lists.csv and every kind stratum: {NOT_MEASURED}.\n"
        );
        return;
    }
    let shares: Vec<String> = c.grids[0]
        .shares
        .iter()
        .map(|s| fixed(s * 100.0, 2) + " %")
        .collect();
    let _ = writeln!(
        out,
        "Kind-3 share {} (the other strata keep their relative shares) x follow-list median {} \
         p tags. Composed size in % of json's.\n",
        shares.join(", "),
        c.grids[0]
            .medians
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    );
    for g in &c.grids {
        grid_tables(out, g);
    }
}

fn grid_tables(out: &mut String, g: &Grid) {
    let _ = writeln!(out, "### {}\n", g.measure.name());
    for sentence in g.conclusions() {
        let _ = writeln!(out, "- {sentence}");
    }
    out.push('\n');
    let rows: Vec<Vec<String>> = g
        .spans()
        .into_iter()
        .map(|s| {
            vec![
                format!("`{}`", s.profile),
                fixed(s.lo * 100.0, PCT),
                fixed(s.hi * 100.0, PCT),
                format!("{}-{}", s.best, s.worst),
            ]
        })
        .collect();
    md_table(out, &["profile", "lowest %", "highest %", "rank"], &rows);
    let mut header = vec!["kind-3 share \\ median".to_owned()];
    header.extend(g.medians.iter().map(|m| m.to_string()));
    let rows: Vec<Vec<String>> = g
        .cells
        .chunks(g.medians.len())
        .map(|row| {
            let mut r = vec![fixed(row[0].share * 100.0, 2) + " %"];
            r.extend(row.iter().map(|cell| {
                let smallest = &cell.ratios[0];
                format!(
                    "`{}` {}",
                    smallest.profile,
                    fixed(smallest.ratio * 100.0, 1)
                )
            }));
            r
        })
        .collect();
    let _ = writeln!(out, "Smallest profile per cell (% of json):\n");
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    md_table(out, &header, &rows);
}

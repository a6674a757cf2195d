//! The kind strata, the figures composed under the stated mix, and the
//! sensitivity grid of `summary.md` (primary host).

use std::fmt::Write as _;

use super::table::{md_table, ratio_opt, sorted_rows, with_ci};
use crate::fmt::{PCT, fixed, fixed_opt};
use crate::model::campaign::Campaign;
use crate::model::holds::marks;
use crate::model::mix::{
    NOT_MEASURED, SIZE_MEASURES, STRATA, STRATUM_SIZES, TIME_WORKLOADS, kind3_source, stream_note,
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
            let pcts = c.stratum_pcts(&p, stratum);
            let times = c.stratum_times(&p, stratum);
            if pcts.is_none() && times.iter().all(Option::is_none) {
                return None;
            }
            deflate_missing |= pcts.is_some_and(|x| x[3].is_none());
            let mut row = vec![format!("`{p}`")];
            row.extend((0..5).map(|i| match pcts {
                Some(x) if i >= 3 && x[i].is_none() => "n/m".to_owned(),
                _ => fixed_opt(pcts.and_then(|x| x[i]), PCT),
            }));
            row.extend(times.iter().map(|t| ratio_opt(*t)));
            Some((pcts.and_then(|x| x[0]).unwrap_or(f64::INFINITY), row))
        })
        .collect();
    let mut header = vec!["profile"];
    header.extend(STRATUM_SIZES.iter().map(|m| m.to_owned()));
    header.extend(TIME_WORKLOADS);
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
                let sizes = k.size(&p).unwrap_or([None; 3]);
                let mut row = vec![format!("`{p}`")];
                row.extend(sizes.iter().map(|r| fixed_opt(r.map(|x| x * 100.0), PCT)));
                row.extend(TIME_WORKLOADS.iter().map(|w| with_ci(k.time(w, &p))));
                (sizes[0].unwrap_or(f64::INFINITY), row)
            })
            .collect();
        let mut header = vec!["profile".to_owned()];
        header.extend(SIZE_MEASURES.iter().map(|m| format!("{m} %")));
        header.extend(TIME_WORKLOADS.iter().map(|w| (*w).to_owned()));
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
            let x = c.stratum_pcts(&p, "mix")?;
            let row = vec![format!("`{p}`"), fixed_opt(x[2], PCT), fixed_opt(x[4], PCT)];
            Some((x[2].unwrap_or(f64::INFINITY), row))
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
    let _ = writeln!(out, "### {}\n", SIZE_MEASURES[g.measure]);
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
                let (p, x) = &cell.ratios[0];
                format!("`{p}` {}", fixed(x * 100.0, 1))
            }));
            r
        })
        .collect();
    let _ = writeln!(out, "Smallest profile per cell (% of json):\n");
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    md_table(out, &header, &rows);
}

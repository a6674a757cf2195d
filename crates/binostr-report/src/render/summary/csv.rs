//! `summary/summary.csv` and `summary/ratios.csv`.

use crate::fmt::{NS, PCT, RATIO, fixed, fixed_opt};
use crate::model::campaign::Campaign;
use crate::model::paired::Paired;
use crate::model::summary::Row;

/// The header of `summary.csv`.
pub const SUMMARY_HEADER: &str = "host,workload,profile,subset,threads,runs,median_ns,range_pct,ci_lo_ns,ci_hi_ns,ratio_json,ratio_ci_lo,ratio_ci_hi,ratio_range_pct,rank";

/// The header of `summary/ratios.csv`.
pub const RATIOS_HEADER: &str = "host,workload,profile,subset,threads,against,runs,rounds,ratio,ci_lo,ci_hi,range_pct,min_ratio,violation";

fn ratio_cells(p: &Paired) -> Vec<String> {
    vec![
        p.host.clone(),
        p.workload.clone(),
        p.profile.clone(),
        p.subset.clone(),
        p.threads.to_string(),
        p.against.clone(),
        p.runs.len().to_string(),
        p.rounds.to_string(),
        fixed(p.est.median, RATIO),
        fixed(p.est.ci.lo, RATIO),
        fixed(p.est.ci.hi, RATIO),
        fixed(p.est.range_pct, PCT),
        fixed_opt(p.min_ratio, RATIO),
        if p.violates() { "yes" } else { "" }.to_owned(),
    ]
}

/// `summary/ratios.csv`: every paired ratio with its interval, range and
/// invariant bound, sorted by host, workload, profile, subset, threads,
/// against.
pub fn ratios_csv(c: &Campaign) -> String {
    let mut out = format!("{RATIOS_HEADER}\n");
    for p in &c.paired {
        out.push_str(&csv_line(&ratio_cells(p)));
    }
    out
}

pub(super) fn row_cells(r: &Row) -> Vec<String> {
    let ratio = r.ratio_json;
    vec![
        r.host.clone(),
        r.workload.clone(),
        r.profile.clone(),
        r.subset.clone(),
        r.threads.to_string(),
        r.runs.to_string(),
        fixed(r.median_ns, NS),
        fixed(r.range_pct, PCT),
        fixed(r.ci_ns.lo, NS),
        fixed(r.ci_ns.hi, NS),
        fixed_opt(ratio.map(|x| x.est), RATIO),
        fixed_opt(ratio.map(|x| x.lo), RATIO),
        fixed_opt(ratio.map(|x| x.hi), RATIO),
        fixed_opt(r.ratio_range_pct, PCT),
        r.rank.to_string(),
    ]
}

/// `summary.csv`.
pub fn summary_csv(c: &Campaign) -> String {
    let mut out = format!("{SUMMARY_HEADER}\n");
    for r in &c.rows {
        out.push_str(&csv_line(&row_cells(r)));
    }
    out
}

pub(super) fn csv_line(cells: &[String]) -> String {
    let quoted: Vec<String> = cells
        .iter()
        .map(|s| {
            if s.contains([',', '"', '\n']) {
                format!("\"{}\"", s.replace('"', "\"\""))
            } else {
                s.clone()
            }
        })
        .collect();
    format!("{}\n", quoted.join(","))
}

//! Markdown tables and the cells `summary.md` repeats.

use std::fmt::Write as _;

use crate::fmt::{RATIO, fixed};
use crate::interval::Interval;

/// `r` as `0.5000 [0.4900, 0.5100]`; `-` when missing.
pub(super) fn with_ci(r: Option<Interval>) -> String {
    r.map_or("-".to_owned(), |Interval { est: x, lo, hi }| {
        format!(
            "{} [{}, {}]",
            fixed(x, RATIO),
            fixed(lo, RATIO),
            fixed(hi, RATIO)
        )
    })
}

pub(super) fn md_table(out: &mut String, header: &[&str], rows: &[Vec<String>]) {
    let _ = writeln!(out, "| {} |", header.join(" | "));
    let align: Vec<&str> = header
        .iter()
        .enumerate()
        .map(|(i, _)| if i == 0 { "---" } else { "---:" })
        .collect();
    let _ = writeln!(out, "|{}|", align.join("|"));
    for r in rows {
        let _ = writeln!(out, "| {} |", r.join(" | "));
    }
    out.push('\n');
}

pub(super) fn sorted_rows(mut rows: Vec<(f64, Vec<String>)>) -> Vec<Vec<String>> {
    rows.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
    rows.into_iter().map(|r| r.1).collect()
}

pub(super) fn ratio_opt(r: Option<Interval>) -> String {
    if r.is_some() {
        with_ci(r)
    } else {
        String::new()
    }
}

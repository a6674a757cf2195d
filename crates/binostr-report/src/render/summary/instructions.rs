//! Instructions per event in `summary.md`, and how often they order two
//! profiles differently than time does.

use std::fmt::Write as _;

use binostr_records::Workload;

use super::table::{md_table, sorted_rows};
use crate::fmt::{NS, fixed, fixed_opt};
use crate::model::campaign::Campaign;
use crate::model::instr::{INSTRUCTION_WORKLOADS, agreement};
use crate::model::summary::REFERENCE;

/// Pairs of profiles ordered differently by instructions than by time.
fn discordant(points: &[(f64, f64)]) -> usize {
    let mut n = 0;
    for i in 0..points.len() {
        for j in i + 1..points.len() {
            let (a, b) = (points[i], points[j]);
            if (a.0 - b.0) * (a.1 - b.1) < 0.0 {
                n += 1;
            }
        }
    }
    n
}

pub(super) fn instructions_section(
    out: &mut String,
    c: &Campaign,
    host: &str,
    profiles: &[String],
) {
    if !c.instr.iter().any(|i| i.host == host) {
        return;
    }
    let _ = writeln!(out, "### Instructions per event (callgrind, subset all)\n");
    let refs: Vec<String> = [Workload::IdVerify.name(), Workload::Clone.name()]
        .iter()
        .filter_map(|w| {
            let i = c.instructions(host, w, REFERENCE)?;
            Some(format!(
                "{w} {} ({})",
                fixed(i.per_event, 0),
                agreement(i.dev_pct)
            ))
        })
        .collect();
    if !refs.is_empty() {
        let _ = writeln!(out, "Reference rows: {}.\n", refs.join(", "));
    }
    let mut header = vec!["profile".to_owned()];
    for w in INSTRUCTION_WORKLOADS {
        header.push(format!("{w} instr"));
        header.push(format!("{w} ns"));
    }
    header.push("copy instr".to_owned());
    header.push("runs agree".to_owned());
    let rows = profiles
        .iter()
        .filter_map(|p| {
            let mut row = vec![p.clone()];
            let mut dev: f64 = 0.0;
            let mut any = false;
            for w in INSTRUCTION_WORKLOADS.iter().chain(&[Workload::Copy.name()]) {
                let i = c.instructions(host, w, p);
                if let Some(i) = i {
                    any = true;
                    dev = dev.max(i.dev_pct);
                }
                row.push(fixed_opt(i.map(|i| i.per_event), 0));
                if *w != Workload::Copy.name() {
                    row.push(fixed_opt(c.ns(host, w, p), NS));
                }
            }
            row.push(agreement(dev));
            let key = c
                .instructions(host, Workload::Decode.name(), p)
                .map_or(f64::INFINITY, |i| i.per_event);
            any.then_some((key, row))
        })
        .collect();
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    md_table(out, &header, &sorted_rows(rows));
    orders(out, c, host, profiles);
    out.push('\n');
}

/// Per workload, how many profile pairs instructions and time order
/// differently.
fn orders(out: &mut String, c: &Campaign, host: &str, profiles: &[String]) {
    for w in INSTRUCTION_WORKLOADS {
        let points: Vec<(f64, f64)> = profiles
            .iter()
            .filter_map(|p| Some((c.instructions(host, w, p)?.per_event, c.ns(host, w, p)?)))
            .collect();
        let pairs = points.len() * points.len().saturating_sub(1) / 2;
        if pairs > 0 {
            let d = discordant(&points);
            let _ = writeln!(
                out,
                "- {w}: {d} of {pairs} profile pairs are ordered differently by instructions than by time{}",
                if d > 0 {
                    " (instructions are not time: caches, branch prediction and SIMD width differ)."
                } else {
                    "."
                }
            );
        }
    }
}

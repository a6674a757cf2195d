//! One host's section of `summary.md`: claims, paired ratios and floors,
//! absolute times, scaling, select, the relay's path, the profiles measured
//! apart, instructions, cross-run ranges and the side measurements.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use binostr_records::Workload;

use super::apart::apart_section;
use super::instructions::instructions_section;
use super::relay::{filter_section, transport_section};
use super::table::{md_table, sorted_rows, with_ci};
use crate::fmt::{NS, PCT, fixed, fixed_opt};
use crate::interval::Interval;
use crate::model::campaign::Campaign;
use crate::model::stats::median;
use crate::model::summary::REFERENCE;

/// `## Host HOST` of `summary.md`: every table of one host, in order.
pub(super) fn host_section(out: &mut String, c: &Campaign, host: &str) {
    let profiles = c.profiles(host);
    runs_and_corpus(out, c, host);
    claims(out, c, host);
    paired_ratios(out, c, host, &profiles);
    absolute_times(out, c, host, &profiles);
    ingest_scaling(out, c, host, &profiles);
    select(out, c, host, &profiles);
    filter_section(out, c, host);
    transport_section(out, c, host);
    apart_section(out, c, host);
    instructions_section(out, c, host, &profiles);
    cross_run_ranges(out, c, host);
    sizes(out, c, host);
    allocations_and_rss(out, c, host);
}

/// The host's runs and corpus, the profiles measured apart and the events per pass.
fn runs_and_corpus(out: &mut String, c: &Campaign, host: &str) {
    let _ = writeln!(out, "## Host {host}\n");
    let first = c.runs_on(host).next().expect("a host has runs");
    let _ = writeln!(
        out,
        "{}; settings {}; corpus {} events, seed {}, fingerprint {}.\n",
        c.describe_host(host),
        first.settings,
        first.corpus.count,
        first
            .corpus
            .seed
            .map_or("none".to_owned(), |s| s.to_string()),
        first.corpus.fingerprint
    );
    if !c.apart.is_empty() {
        let list: Vec<String> = c
            .apart
            .iter()
            .map(|a| match &a.record {
                Some(r) => format!(
                    "{} (on {} of {} events)",
                    a.profile, r.count, first.corpus.count
                ),
                None => a.profile.clone(),
            })
            .collect();
        let _ = writeln!(
            out,
            "Measured apart, because they cannot represent every event (section Measured apart): {}.\n",
            list.join(", ")
        );
    }
    if let Some(s) = c.sequences.iter().find(|s| s.label == first.label) {
        let list: Vec<String> = s
            .sequences
            .iter()
            .map(|q| format!("{} {} of {} (id {})", q.subset, q.indices.len(), q.of, q.id))
            .collect();
        if !list.is_empty() {
            let _ = writeln!(
                out,
                "Events per pass (campaign {}): {}.\n",
                first.label,
                list.join("; ")
            );
        }
    }
}

/// The claims of `host`.
fn claims(out: &mut String, c: &Campaign, host: &str) {
    let _ = writeln!(out, "### Claims (subset all, 1 thread)\n");
    let claims: Vec<_> = c.claims.iter().filter(|k| k.host == host).collect();
    if claims.is_empty() {
        out.push_str("No workload has a paired ratio to json.\n\n");
    }
    for k in claims {
        let _ = writeln!(out, "- {}", k.sentence());
    }
    out.push('\n');
}

/// Paired ratios to json and to each workload's floor.
fn paired_ratios(out: &mut String, c: &Campaign, host: &str, profiles: &[String]) {
    let _ = writeln!(out, "### Paired ratios and floors (subset all, 1 thread)\n");
    let _ = writeln!(
        out,
        "Estimate [95% CI]. copy: a memcpy of the profile's own encoded bytes (the encode floor); \
         clone: `Event::clone` (the decode floor); id+verify: id recomputation and BIP-340 \
         verification of a decoded event (the validate floor).\n"
    );
    let rows = profiles
        .iter()
        .filter_map(|p| {
            let r = |w: &str, against: &str| c.ratio(host, w, p, against);
            let json = |w: &str| c.row(host, w, p, "all", 1).and_then(|row| row.ratio_json);
            let decode = json(Workload::Decode.name());
            let cells = [
                json(Workload::Encode.name()),
                r(Workload::Encode.name(), Workload::Copy.name()),
                decode,
                r(Workload::Decode.name(), Workload::Clone.name()),
                r(Workload::DecodeId.name(), Workload::Decode.name()),
                json(Workload::Validate.name()),
                r(Workload::Validate.name(), Workload::IdVerify.name()),
            ];
            if cells.iter().all(Option::is_none) {
                return None;
            }
            let key = decode.map_or(f64::INFINITY, |x| x.est);
            let mut row = vec![p.clone()];
            row.extend(cells.into_iter().map(with_ci));
            Some((key, row))
        })
        .collect();
    md_table(
        out,
        &[
            "profile",
            "encode / json",
            "encode / copy",
            "decode / json",
            "decode / clone",
            "decode+id / decode",
            "validate / json",
            "validate / id+verify",
        ],
        &sorted_rows(rows),
    );
}

/// Absolute ns/event of the reference rows and the profiles.
fn absolute_times(out: &mut String, c: &Campaign, host: &str, profiles: &[String]) {
    let _ = writeln!(out, "### Absolute time (ns/event on host {host})\n");
    let abs = |w: &str| c.ns(host, w, REFERENCE);
    let floors: Vec<String> = [
        (Workload::IdVerify.name(), Workload::IdVerify.name()),
        (Workload::Clone.name(), Workload::Clone.name()),
        (
            Workload::SelectRawOffset.name(),
            Workload::SelectRawOffset.name(),
        ),
    ]
    .iter()
    .filter_map(|(w, name)| abs(w).map(|v| format!("{name} {} ns", fixed(v, NS))))
    .collect();
    if !floors.is_empty() {
        let _ = writeln!(out, "Reference rows: {}.\n", floors.join(", "));
    }
    let rows = profiles
        .iter()
        .filter_map(|p| {
            let ns = |w: Workload| c.ns(host, w.name(), p);
            let cells = [
                Workload::Encode,
                Workload::Copy,
                Workload::Decode,
                Workload::DecodeId,
                Workload::Validate,
            ]
            .map(ns);
            let key = ns(Workload::Decode).or(ns(Workload::Validate))?;
            let mut row = vec![p.clone()];
            row.extend(cells.iter().map(|v| fixed_opt(*v, NS)));
            Some((key, row))
        })
        .collect();
    md_table(
        out,
        &[
            "profile",
            Workload::Encode.name(),
            Workload::Copy.name(),
            Workload::Decode.name(),
            Workload::DecodeId.name(),
            Workload::Validate.name(),
        ],
        &sorted_rows(rows),
    );
}

/// `ingest-mt` at N threads against one.
fn ingest_scaling(out: &mut String, c: &Campaign, host: &str, profiles: &[String]) {
    let _ = writeln!(out, "### ingest-mt scaling\n");
    match c.ingest_threads(host) {
        Some(n) => {
            let _ = writeln!(
                out,
                "Scaling = 1 / the paired ratio of {n} threads over 1 thread (bound: at most {n}).\n"
            );
            let rows = profiles
                .iter()
                .filter_map(|p| {
                    let Interval { est: s, lo, hi } = c.ingest_scaling(host, p)?;
                    let one = c
                        .row(host, Workload::IngestMt.name(), p, "all", 1)
                        .map(|r| r.median_ns);
                    let many = c
                        .row(host, Workload::IngestMt.name(), p, "all", n)
                        .map(|r| r.median_ns);
                    Some((
                        -s,
                        vec![
                            p.clone(),
                            fixed_opt(one, NS),
                            fixed_opt(many, NS),
                            format!("{} [{}, {}]", fixed(s, 2), fixed(lo, 2), fixed(hi, 2)),
                        ],
                    ))
                })
                .collect();
            let many = format!("threads={n} ns");
            md_table(
                out,
                &["profile", "threads=1 ns", &many, "scaling [95% CI]"],
                &sorted_rows(rows),
            );
        }
        None => out.push_str("No ingest-mt rows.\n\n"),
    }
}

/// `select-*` against the raw-offset floor.
fn select(out: &mut String, c: &Campaign, host: &str, profiles: &[String]) {
    let _ = writeln!(out, "### select vs select-raw-offset\n");
    match c.ns(host, Workload::SelectRawOffset.name(), REFERENCE) {
        Some(floor) => {
            let _ = writeln!(
                out,
                "select-raw-offset (kind and pubkey read at known byte offsets): {} ns/event.\n",
                fixed(floor, NS)
            );
            let rows = profiles
                .iter()
                .filter_map(|p| {
                    let checked = c.ns(host, Workload::SelectChecked.name(), p);
                    let pre = c.ns(host, Workload::SelectPreverified.name(), p);
                    let key = checked.or(pre)?;
                    let r = |w: &str| c.ratio(host, w, p, Workload::SelectRawOffset.name());
                    Some((
                        key,
                        vec![
                            p.clone(),
                            fixed_opt(checked, NS),
                            fixed_opt(pre, NS),
                            with_ci(r(Workload::SelectChecked.name())),
                            with_ci(r(Workload::SelectPreverified.name())),
                        ],
                    ))
                })
                .collect();
            md_table(
                out,
                &[
                    "profile",
                    "select-checked ns",
                    "select-preverified ns",
                    "checked / raw-offset",
                    "preverified / raw-offset",
                ],
                &sorted_rows(rows),
            );
        }
        None => out.push_str("No select-raw-offset reference row.\n\n"),
    }
}

/// The cross-run range of absolute ns/event per workload.
fn cross_run_ranges(out: &mut String, c: &Campaign, host: &str) {
    let _ = writeln!(out, "### Cross-run range of absolute ns/event\n");
    let mut by_workload: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for r in c.rows.iter().filter(|r| r.host == host) {
        by_workload
            .entry(&r.workload)
            .or_default()
            .push(r.range_pct);
    }
    let all: Vec<f64> = by_workload.values().flatten().copied().collect();
    let max = |v: &[f64]| v.iter().copied().fold(f64::NAN, f64::max);
    let mut rows: Vec<Vec<String>> = by_workload
        .iter()
        .map(|(w, v)| {
            vec![
                (*w).to_owned(),
                v.len().to_string(),
                fixed(median(v), PCT),
                fixed(max(v), PCT),
            ]
        })
        .collect();
    rows.push(vec![
        "**all**".to_owned(),
        all.len().to_string(),
        fixed(median(&all), PCT),
        fixed(max(&all), PCT),
    ]);
    md_table(
        out,
        &["workload", "benchmarks", "median range %", "max range %"],
        &rows,
    );
}

/// Sizes on subset all as % of json under the same measure.
fn sizes(out: &mut String, c: &Campaign, host: &str) {
    let sizes: Vec<Vec<String>> = {
        let rows = c
            .side
            .sizes
            .iter()
            .filter(|s| s.host == host && s.subset == "all")
            .map(|s| {
                let pct = c.size_pcts(&s.profile, "all");
                let mut row = vec![s.profile.clone(), fixed(s.bytes.raw / s.events, 1)];
                let pct = pct.map_or([None; 5], |p| p.columns().map(Some));
                row.extend(pct.map(|p| fixed_opt(p, PCT)));
                (s.bytes.raw, row)
            })
            .collect();
        sorted_rows(rows)
    };
    if !sizes.is_empty() {
        let _ = writeln!(
            out,
            "### Sizes (subset all, % of json under the same measure)\n"
        );
        md_table(
            out,
            &[
                "profile",
                "raw bytes/event",
                "raw %",
                "framed %",
                "zstd event %",
                "zstd stream %",
                "zstd dict %",
            ],
            &sizes,
        );
    }
}

/// Allocations and peak RSS growth.
fn allocations_and_rss(out: &mut String, c: &Campaign, host: &str) {
    let alloc: Vec<Vec<String>> = c
        .side
        .alloc
        .iter()
        .filter(|a| a.host == host)
        .map(|a| {
            vec![
                a.workload.clone(),
                a.profile.clone(),
                fixed(a.allocs_per_event, 2),
                fixed(a.bytes_per_event, 1),
            ]
        })
        .collect();
    if !alloc.is_empty() {
        let _ = writeln!(out, "### Allocations\n");
        md_table(
            out,
            &["workload", "profile", "allocs/event", "bytes/event"],
            &alloc,
        );
    }
    let rss: Vec<Vec<String>> = c
        .side
        .rss
        .iter()
        .filter(|r| r.host == host)
        .map(|r| {
            vec![
                r.workload.clone(),
                r.profile.clone(),
                fixed(r.growth_kib, 0),
            ]
        })
        .collect();
    if !rss.is_empty() {
        let _ = writeln!(out, "### Peak RSS growth\n");
        md_table(out, &["workload", "profile", "peak - baseline KiB"], &rss);
    }
}

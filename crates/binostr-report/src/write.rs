//! `summary/summary.{csv,json,md}`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use anyhow::Result;
use serde_json::{Value, json};

use crate::campaign::Campaign;
use crate::fmt::{NS, PCT, RATIO, fixed, fixed_opt, json_number};
use crate::paper::size_pcts;
use crate::stats::{self, median};
use crate::summary::{REFERENCE, Row};

/// The header of `summary.csv`.
pub const SUMMARY_HEADER: &str = "host,workload,profile,subset,threads,runs,median_ns,range_pct,ci_lo_ns,ci_hi_ns,ratio_json,ratio_ci_lo,ratio_ci_hi,rank";

fn cells(r: &Row) -> Vec<String> {
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
        fixed(r.ci_ns.0, NS),
        fixed(r.ci_ns.1, NS),
        fixed_opt(ratio.map(|x| x.0), RATIO),
        fixed_opt(ratio.map(|x| x.1), RATIO),
        fixed_opt(ratio.map(|x| x.2), RATIO),
        r.rank.to_string(),
    ]
}

/// `summary.csv`.
pub fn summary_csv(c: &Campaign) -> String {
    let mut out = format!("{SUMMARY_HEADER}\n");
    for r in &c.rows {
        out.push_str(&csv_line(&cells(r)));
    }
    out
}

fn csv_line(cells: &[String]) -> String {
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

/// `summary.json`: the campaign's provenance and the summary rows.
pub fn summary_json(c: &Campaign) -> Result<String> {
    let hosts: Vec<Value> = c
        .hosts()
        .iter()
        .map(|h| {
            let runs: Vec<_> = c.runs_on(h).collect();
            json!({
                "host": h,
                "runs": runs.iter().map(|r| json!({
                    "run": r.id(),
                    "commit": r.commit,
                    "dirty": r.dirty,
                    "campaign_profile": r.campaign_profile,
                    "corpus": {"fingerprint": r.corpus.fingerprint, "count": r.corpus.count, "seed": r.corpus.seed},
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let rows: Vec<Value> = c
        .rows
        .iter()
        .map(|r| {
            let ratio = r.ratio_json;
            let opt = |v: Option<f64>| v.map_or(Value::Null, |v| json_number(v, RATIO));
            json!({
                "host": r.host,
                "workload": r.workload,
                "profile": r.profile,
                "subset": r.subset,
                "threads": r.threads,
                "runs": r.runs,
                "median_ns": json_number(r.median_ns, NS),
                "range_pct": json_number(r.range_pct, PCT),
                "ci_lo_ns": json_number(r.ci_ns.0, NS),
                "ci_hi_ns": json_number(r.ci_ns.1, NS),
                "ratio_json": opt(ratio.map(|x| x.0)),
                "ratio_ci_lo": opt(ratio.map(|x| x.1)),
                "ratio_ci_hi": opt(ratio.map(|x| x.2)),
                "rank": r.rank,
            })
        })
        .collect();
    let doc = json!({
        "schema": 1,
        "labels": c.labels,
        "primary_host": c.primary_host(),
        "bootstrap": {"resamples": stats::RESAMPLES, "seed": stats::SEED, "level": 0.95},
        "hosts": hosts,
        "warnings": c.warnings,
        "rows": rows,
    });
    Ok(serde_json::to_string_pretty(&doc)? + "\n")
}

fn md_table(out: &mut String, header: &[&str], rows: &[Vec<String>]) {
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

fn sorted_rows(mut rows: Vec<(f64, Vec<String>)>) -> Vec<Vec<String>> {
    rows.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
    rows.into_iter().map(|r| r.1).collect()
}

/// `summary.md`: the headline comparisons per host, then every row.
pub fn summary_md(c: &Campaign) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Campaign {}\n", c.labels.join(" + "));
    let _ = writeln!(
        out,
        "Median over runs of each run's median ns/event; range = (max - min of run medians) / median; \
         95% CI by bootstrap ({} resamples of runs, then of samples within runs; seed {:#x}). \
         Ratios are to the `json` profile of the same workload, subset and threads.\n",
        stats::RESAMPLES,
        stats::SEED
    );
    for w in &c.warnings {
        let _ = writeln!(out, "> warning: {w}\n");
    }
    for host in c.hosts() {
        host_section(&mut out, c, &host);
    }
    language_section(&mut out, c);
    let _ = writeln!(out, "## All rows\n");
    let header: Vec<&str> = crate::write::SUMMARY_HEADER.split(',').collect();
    let rows: Vec<Vec<String>> = c.rows.iter().map(cells).collect();
    md_table(&mut out, &header, &rows);
    out
}

fn language_section(out: &mut String, c: &Campaign) {
    let matrix = crate::paper::language_matrix(c);
    if matrix.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "## Decode by language (ns/event, fastest library to the event)\n\n\
         Rust: this campaign's `decode` median (host {}); Python, JavaScript, Go: \
         `results/interop/<language>.csv`, each timed by its own harness on the same \
         corpus selection, on whatever load that host had (see each harness's README).\n",
        c.primary_host()
    );
    let rows: Vec<Vec<String>> = matrix
        .into_iter()
        .map(|(format, cells)| {
            let mut r = vec![format];
            r.extend(cells.iter().map(|cell| {
                cell.as_ref()
                    .map_or("-".into(), |(lib, ns)| format!("{ns:.0} ({lib})"))
            }));
            r
        })
        .collect();
    md_table(
        out,
        &["format", "Rust", "Python", "JavaScript", "Go"],
        &rows,
    );
    let _ = writeln!(out);
}

fn host_section(out: &mut String, c: &Campaign, host: &str) {
    let _ = writeln!(out, "## Host {host}\n");
    let first = c.runs_on(host).next().expect("a host has runs");
    let _ = writeln!(
        out,
        "{}; campaign profile {}; corpus {} events, seed {}, fingerprint {}.\n",
        c.describe_host(host),
        first.campaign_profile,
        first.corpus.count,
        first.corpus.seed,
        first.corpus.fingerprint
    );
    let profiles = c.profiles(host);

    let _ = writeln!(out, "### Validate vs id+verify\n");
    match c.ns(host, "id+verify", REFERENCE) {
        Some(floor) => {
            let _ = writeln!(
                out,
                "id+verify (id recomputation and BIP-340 verification of a decoded event): {} ns/event. \
                 validate / id+verify is the whole validation cost over that floor.\n",
                fixed(floor, NS)
            );
            let rows = profiles
                .iter()
                .filter_map(|p| {
                    let v = c.ns(host, "validate", p)?;
                    let d = c.ns(host, "decode", p);
                    Some((
                        v,
                        vec![
                            p.clone(),
                            fixed(v, NS),
                            fixed_opt(d, NS),
                            fixed(v / floor * 100.0, PCT),
                        ],
                    ))
                })
                .collect();
            md_table(
                out,
                &[
                    "profile",
                    "validate ns",
                    "decode ns",
                    "validate / id+verify %",
                ],
                &sorted_rows(rows),
            );
        }
        None => out.push_str("No id+verify reference row.\n\n"),
    }

    let _ = writeln!(out, "### ingest-mt scaling\n");
    match c.ingest_threads(host) {
        Some(n) => {
            let rows = profiles
                .iter()
                .filter_map(|p| {
                    let (_, s) = c.ingest_scaling(host, p)?;
                    let one = c.row(host, "ingest-mt", p, "all", 1)?.median_ns;
                    let many = c.row(host, "ingest-mt", p, "all", n)?.median_ns;
                    Some((
                        -s,
                        vec![p.clone(), fixed(one, NS), fixed(many, NS), fixed(s, 2)],
                    ))
                })
                .collect();
            let many = format!("threads={n} ns");
            md_table(
                out,
                &["profile", "threads=1 ns", &many, "scaling"],
                &sorted_rows(rows),
            );
        }
        None => out.push_str("No ingest-mt rows.\n\n"),
    }

    let _ = writeln!(out, "### select vs select-raw-offset\n");
    match c.ns(host, "select-raw-offset", REFERENCE) {
        Some(floor) => {
            let _ = writeln!(
                out,
                "select-raw-offset (kind and pubkey read at known byte offsets): {} ns/event.\n",
                fixed(floor, NS)
            );
            let rows = profiles
                .iter()
                .filter_map(|p| {
                    let checked = c.ns(host, "select-checked", p);
                    let pre = c.ns(host, "select-preverified", p);
                    let key = checked.or(pre)?;
                    Some((
                        key,
                        vec![
                            p.clone(),
                            fixed_opt(checked, NS),
                            fixed_opt(pre, NS),
                            fixed_opt(checked.map(|v| v / floor), 2),
                            fixed_opt(pre.map(|v| v / floor), 2),
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

    let _ = writeln!(out, "### Cross-run range\n");
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

    let sizes: Vec<Vec<String>> = {
        let rows = c
            .side
            .sizes
            .iter()
            .filter(|s| s.host == host && s.subset == "all")
            .map(|s| {
                let pct = size_pcts(c, &s.profile, "all");
                let mut row = vec![s.profile.clone(), fixed(s.bytes[0] / s.events, 1)];
                row.extend((0..5).map(|i| fixed_opt(pct.map(|p| p[i]), PCT)));
                (s.bytes[0], row)
            })
            .collect();
        sorted_rows(rows)
    };
    if !sizes.is_empty() {
        let _ = writeln!(out, "### Sizes (subset all, % of json raw)\n");
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

//! `summary/summary.{csv,json,md}`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use anyhow::Result;
use serde_json::{Value, json};

use crate::model::campaign::Campaign;
use crate::fmt::{NS, PCT, RATIO, fixed, fixed_opt, json_number};
use crate::model::instr::{INSTRUCTION_WORKLOADS, agreement};
use crate::model::resolution::{RESOLVED_RANGE_PCT, resolution};
use crate::model::paired::Paired;
use crate::model::stats::{self, median};
use crate::model::summary::{REFERENCE, Row};

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
        fixed(p.est.ci.0, RATIO),
        fixed(p.est.ci.1, RATIO),
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

/// `r` as `0.5000 [0.4900, 0.5100]`; `-` when missing.
pub fn with_ci(r: Option<(f64, f64, f64)>) -> String {
    r.map_or("-".to_owned(), |(x, lo, hi)| {
        format!(
            "{} [{}, {}]",
            fixed(x, RATIO),
            fixed(lo, RATIO),
            fixed(hi, RATIO)
        )
    })
}

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
        fixed_opt(r.ratio_range_pct, PCT),
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
                "ratio_range_pct": r.ratio_range_pct.map_or(Value::Null, |v| json_number(v, PCT)),
                "rank": r.rank,
            })
        })
        .collect();
    let ratios: Vec<Value> = c
        .paired
        .iter()
        .map(|p| {
            json!({
                "host": p.host,
                "workload": p.workload,
                "profile": p.profile,
                "subset": p.subset,
                "threads": p.threads,
                "against": p.against,
                "runs": p.runs.len(),
                "rounds": p.rounds,
                "ratio": json_number(p.est.median, RATIO),
                "ci_lo": json_number(p.est.ci.0, RATIO),
                "ci_hi": json_number(p.est.ci.1, RATIO),
                "range_pct": json_number(p.est.range_pct, PCT),
                "run_medians": p.est.run_medians.iter().map(|m| json_number(*m, RATIO)).collect::<Vec<_>>(),
                "min_ratio": p.min_ratio.map_or(Value::Null, |m| json_number(m, RATIO)),
                "violation": p.violates(),
            })
        })
        .collect();
    let violations: Vec<Value> = c
        .violations
        .iter()
        .map(|v| {
            json!({"host": v.host, "check": v.check.name(), "workload": v.workload,
                   "profile": v.profile, "text": v.text})
        })
        .collect();
    let claims: Vec<Value> = c
        .claims
        .iter()
        .map(|k| {
            json!({"host": k.host, "workload": k.workload, "subset": "all", "leader": k.leader,
                   "leader_ratio_json": json_number(k.leader_ratio, RATIO),
                   "resolved": k.resolved, "tied": k.tied,
                   "tied_within_pct": json_number(k.tied_pct, PCT),
                   "excluded": k.excluded, "sentence": k.sentence()})
        })
        .collect();
    let resolution: Vec<Value> = c
        .hosts()
        .iter()
        .flat_map(|h| {
            resolution(c, h).into_iter().map(move |r| {
                json!({"host": h, "workload": r.workload, "ratios": r.ratios,
                       "within_2pct": r.within,
                       "within_2pct_share_pct": json_number(r.within_pct(), PCT),
                       "median_range_pct": json_number(r.median_range_pct, PCT)})
            })
        })
        .collect();
    let walls: Vec<Value> = c
        .walls
        .iter()
        .map(|w| {
            json!({"label": w.label, "minutes": json_number(w.minutes, 2),
                   "runs": w.runs.iter().map(|(id, m)| json!({"run": id, "minutes": json_number(*m, 2)})).collect::<Vec<_>>()})
        })
        .collect();
    let instructions: Vec<Value> = c
        .instr
        .iter()
        .map(|i| {
            json!({"host": i.host, "workload": i.workload, "profile": i.profile, "subset": i.subset,
                   "runs": i.runs, "per_event": json_number(i.per_event, 1),
                   "deviation_pct": json_number(i.dev_pct, 4)})
        })
        .collect();
    let doc = json!({
        "schema": 2,
        "labels": c.labels,
        "primary_host": c.primary_host(),
        "bootstrap": {"resamples": stats::RESAMPLES, "seed": stats::SEED, "level": 0.95},
        "hosts": hosts,
        "warnings": c.warnings,
        "wall": walls,
        "violations": violations,
        "resolution": resolution,
        "claims": claims,
        "rows": rows,
        "ratios": ratios,
        "instructions": instructions,
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

/// `summary.md`: invariant violations, resolution, then the headline
/// comparisons and claims per host, then every row.
pub fn summary_md(c: &Campaign) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Campaign {}\n", c.labels.join(" + "));
    let _ = writeln!(
        out,
        "Ratios are **paired**: per round, the ns/event of a member over the ns/event of what it is \
         compared with (`json`, or a floor) timed in the same interleaved round; per run the median \
         of the per-round ratios; the estimate is the median of the run medians, its 95% CI a bootstrap \
         ({} resamples of runs, then of rounds within runs; seed {:#x}), and its range the cross-run \
         range (max - min of the run medians) / estimate. Absolute ns/event (median over runs of each \
         run's median over samples; CI resampling runs, then samples) belong to one host and are \
         labelled with it. A rank orders point estimates; only the Claims say what is resolved.\n",
        stats::RESAMPLES,
        stats::SEED
    );
    for w in &c.warnings {
        let _ = writeln!(out, "> warning: {w}\n");
    }
    violations_section(&mut out, c);
    resolution_section(&mut out, c);
    for host in c.hosts() {
        host_section(&mut out, c, &host);
    }
    language_section(&mut out, c);
    suite_section(
        &mut out,
        "Evolution (`results/evolution/`, `binostr evolution`)",
        &c.evolution,
    );
    suite_section(
        &mut out,
        "Maintenance cost (`results/maintenance/`, `binostr maintenance`)",
        &c.maintenance,
    );
    let _ = writeln!(out, "## All rows\n");
    let header: Vec<&str> = crate::render::summary::SUMMARY_HEADER.split(',').collect();
    let rows: Vec<Vec<String>> = c.rows.iter().map(cells).collect();
    md_table(&mut out, &header, &rows);
    out
}

fn violations_section(out: &mut String, c: &Campaign) {
    let _ = writeln!(out, "## Invariant violations\n");
    let _ = writeln!(
        out,
        "Checked: validate >= id+verify, decode+id >= decode, select-checked >= select-raw-offset, \
         ingest-mt scaling <= threads (a violation when the paired ratio's 95% CI lies entirely below \
         its bound); sizes identical across runs; instructions per event within {} % across runs; \
         one event sequence per campaign and subset. A violating row is left out of every claim.\n",
        crate::model::checks::INSTRUCTION_TOLERANCE_PCT
    );
    if c.violations.is_empty() {
        out.push_str("none\n\n");
        return;
    }
    for v in &c.violations {
        let _ = writeln!(out, "- {} ({}): {}", v.host, v.check.name(), v.text);
    }
    out.push('\n');
}

fn resolution_section(out: &mut String, c: &Campaign) {
    let _ = writeln!(out, "## Resolution\n");
    for w in &c.walls {
        let runs: Vec<String> = w
            .runs
            .iter()
            .map(|(id, m)| format!("{id} {} min", fixed(*m, 1)))
            .collect();
        let _ = writeln!(
            out,
            "Campaign {}: wall time {} min from the first run's start to the last run's finish ({}).\n",
            w.label,
            fixed(w.minutes, 1),
            runs.join(", ")
        );
    }
    for host in c.hosts() {
        let res = resolution(c, &host);
        if res.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            "Host {host}: paired ratios whose cross-run range is within {} %:\n",
            fixed(RESOLVED_RANGE_PCT, 0)
        );
        let rows: Vec<Vec<String>> = res
            .iter()
            .map(|r| {
                let name = if r.workload == "all" {
                    "**all**".to_owned()
                } else {
                    r.workload.clone()
                };
                vec![
                    name,
                    r.ratios.to_string(),
                    r.within.to_string(),
                    fixed(r.within_pct(), 1),
                    fixed(r.median_range_pct, PCT),
                ]
            })
            .collect();
        md_table(
            out,
            &[
                "workload",
                "paired ratios",
                "within 2 %",
                "share %",
                "median range %",
            ],
            &rows,
        );
    }
}

fn language_section(out: &mut String, c: &Campaign) {
    let matrix = crate::model::languages::language_matrix(c);
    if matrix.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "## Decode by language (ns/event, fastest library to the event)\n\n\
         Rust: this campaign's `decode` median (host {}); Python, JavaScript, Go, Kotlin: \
         `results/interop/<language>.csv`, each timed by its own harness on the same \
         corpus selection, on whatever load that host had (see each harness's README). \
         {}\n",
        c.primary_host(),
        crate::model::languages::NOT_MEASURED
            .iter()
            .map(|(_, why)| format!("{why} ({}).", crate::model::languages::NOT_MEASURED_CELL))
            .collect::<Vec<_>>()
            .join(" ")
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
        &["format", "Rust", "Python", "JavaScript", "Go", "Kotlin"],
        &rows,
    );
    let _ = writeln!(out);
}

/// A suite's per-profile table as it was written, every profile included.
fn suite_section(out: &mut String, title: &str, table: &crate::read::side::ProfileTable) {
    if table.rows.is_empty() {
        return;
    }
    let _ = writeln!(out, "## {title}\n");
    let header: Vec<&str> = table.header.iter().map(String::as_str).collect();
    md_table(out, &header, &table.rows);
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
    let profiles = c.profiles(host);
    if let Some((_, seqs)) = c.sequences.iter().find(|(l, _)| *l == first.label) {
        let list: Vec<String> = seqs
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

    let _ = writeln!(out, "### Claims (subset all, 1 thread)\n");
    let claims: Vec<_> = c.claims.iter().filter(|k| k.host == host).collect();
    if claims.is_empty() {
        out.push_str("No workload has a paired ratio to json.\n\n");
    }
    for k in claims {
        let _ = writeln!(out, "- {}", k.sentence());
    }
    out.push('\n');

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
            let cells = [
                json("encode"),
                r("encode", "copy"),
                json("decode"),
                r("decode", "clone"),
                r("decode+id", "decode"),
                json("validate"),
                r("validate", "id+verify"),
            ];
            if cells.iter().all(Option::is_none) {
                return None;
            }
            let key = cells[2].map_or(f64::INFINITY, |x| x.0);
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

    let _ = writeln!(out, "### Absolute time (ns/event on host {host})\n");
    let abs = |w: &str| c.ns(host, w, REFERENCE);
    let floors: Vec<String> = [
        ("id+verify", "id+verify"),
        ("clone", "clone"),
        ("select-raw-offset", "select-raw-offset"),
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
            let ns = |w: &str| c.ns(host, w, p);
            let cells = ["encode", "copy", "decode", "decode+id", "validate"].map(ns);
            let key = cells[2].or(cells[4])?;
            let mut row = vec![p.clone()];
            row.extend(cells.iter().map(|v| fixed_opt(*v, NS)));
            Some((key, row))
        })
        .collect();
    md_table(
        out,
        &[
            "profile",
            "encode",
            "copy",
            "decode",
            "decode+id",
            "validate",
        ],
        &sorted_rows(rows),
    );

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
                    let (_, s, lo, hi) = c.ingest_scaling(host, p)?;
                    let one = c.row(host, "ingest-mt", p, "all", 1).map(|r| r.median_ns);
                    let many = c.row(host, "ingest-mt", p, "all", n).map(|r| r.median_ns);
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
                    let r = |w: &str| c.ratio(host, w, p, "select-raw-offset");
                    Some((
                        key,
                        vec![
                            p.clone(),
                            fixed_opt(checked, NS),
                            fixed_opt(pre, NS),
                            with_ci(r("select-checked")),
                            with_ci(r("select-preverified")),
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

    filter_section(out, c, host);
    transport_section(out, c, host);
    apart_section(out, c, host);
    instructions_section(out, c, host, &profiles);

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

    let sizes: Vec<Vec<String>> = {
        let rows = c
            .side
            .sizes
            .iter()
            .filter(|s| s.host == host && s.subset == "all")
            .map(|s| {
                let pct = c.size_pcts(&s.profile, "all");
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

fn ratio_opt(r: Option<(f64, f64, f64)>) -> String {
    if r.is_some() {
        with_ci(r)
    } else {
        String::new()
    }
}

fn filter_section(out: &mut String, c: &Campaign, host: &str) {
    let _ = writeln!(
        out,
        "### filter: REQ matching on stored events
"
    );
    let rows = crate::model::relay::filter_rows(c, host);
    let Some((floor, floor_instr)) = crate::model::relay::filter_reference(c, host) else {
        out.push_str("No filter rows.\n\n");
        return;
    };
    let _ = writeln!(
        out,
        "Each pass runs every filter of the campaign's `filters.json` over every stored record \
         of the sequence, through the profile's borrowed view where it has one (contract \
         `checked` or `preverified`, as in select), else a full decode; ns and instructions are \
         per stored event scanned (one event, one filter), and every pass's match count equals \
         the JSON reference matcher's. filter-event (matching alone, on decoded events): {} ns, \
         {} instructions.\n",
        fixed(floor, NS),
        fixed_opt(floor_instr, 0)
    );
    let table: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.profile.clone(),
                r.contract().to_owned(),
                fixed(r.ns, NS),
                ratio_opt(r.vs_json),
                ratio_opt(r.vs_event),
                fixed_opt(r.instr, 0),
            ]
        })
        .collect();
    md_table(
        out,
        &[
            "profile",
            "contract",
            "ns/event scanned",
            "/ json [95% CI]",
            "/ filter-event [95% CI]",
            "instructions/event scanned",
        ],
        &table,
    );
}

fn transport_section(out: &mut String, c: &Campaign, host: &str) {
    let _ = writeln!(
        out,
        "### transport: REQ → EOSE over a WebSocket
"
    );
    let rows = crate::model::relay::transport_rows(c, host);
    if rows.is_empty() {
        out.push_str("No transport rows.\n\n");
        return;
    }
    if let Some(h) = crate::model::relay::headline(c, host) {
        let _ = writeln!(
            out,
            "Headline (relay → client bytes per event, frame headers included): json {} \
             uncompressed, {} with deflate, {} with deflate and context takeover; the smallest \
             binary profile uncompressed is {} at {} ({} % of json with deflate), with deflate {} \
             at {} ({} %), with context takeover {} at {} ({} %).\n",
            fixed(h.json[0], 1),
            fixed(h.json[1], 1),
            fixed(h.json[2], 1),
            h.best[0].0,
            fixed(h.best[0].1, 1),
            fixed(h.pct_of_json_deflate(0), 1),
            h.best[1].0,
            fixed(h.best[1].1, 1),
            fixed(h.pct_of_json_deflate(1), 1),
            h.best[2].0,
            fixed(h.best[2].1, 1),
            fixed(h.pct_of_json_deflate(2), 1),
        );
    }
    let _ = writeln!(
        out,
        "Bytes: counted at the relay's socket on a fresh connection, one REQ → EOSE exchange of \
         the sequence (`transport.csv`, equal to a pure flate2 model of the same messages and \
         the same in every run); % of json in the same mode. Time: ns per event of one exchange \
         on a kept connection (`transport-*` groups; with context takeover a kept connection \
         compresses against its earlier exchanges), and its paired ratio to json in the same \
         mode.\n"
    );
    let table: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let mut row = vec![r.profile.clone()];
            for i in 0..3 {
                row.push(fixed_opt(r.bytes[i], 1));
                row.push(fixed_opt(r.pct_json[i], 1));
            }
            row
        })
        .collect();
    md_table(
        out,
        &[
            "profile",
            "none B/event",
            "none % json",
            "deflate B/event",
            "deflate % json",
            "deflate-ctx B/event",
            "deflate-ctx % json",
        ],
        &table,
    );
    let mut timed: Vec<(f64, Vec<String>)> = rows
        .iter()
        .filter(|r| r.ns.iter().any(Option::is_some))
        .map(|r| {
            let mut row = vec![r.profile.clone()];
            row.extend(r.ns.iter().map(|v| fixed_opt(*v, NS)));
            row.extend(r.vs_json.iter().map(|v| ratio_opt(*v)));
            (r.ns[1].unwrap_or(f64::INFINITY), row)
        })
        .collect();
    timed.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
    if !timed.is_empty() {
        md_table(
            out,
            &[
                "profile",
                "plain ns/event",
                "deflate ns/event",
                "deflate-ctx ns/event",
                "plain / json",
                "deflate / json",
                "deflate-ctx / json",
            ],
            &timed.into_iter().map(|r| r.1).collect::<Vec<_>>(),
        );
    }
    let side = crate::model::relay::loop_rows(c, host);
    if !side.is_empty() {
        let _ = writeln!(
            out,
            "The loop per exchange on a fresh connection (`transport.csv`, medians over runs): \
             events/s end to end, delivery latency from the relay's send to the client's check, \
             and thread CPU per event on each side; validate checks the id and BIP-340 signature \
             of every event.\n"
        );
        let table: Vec<Vec<String>> = side
            .iter()
            .map(|t| {
                vec![
                    t.profile.clone(),
                    t.mode.clone(),
                    t.check.clone(),
                    fixed(t.events_per_s, 0),
                    fixed(t.speed_vs_json, RATIO),
                    fixed(t.latency_ns[0] / 1e3, 1),
                    fixed(t.latency_ns[1] / 1e3, 1),
                    fixed(t.cpu_ns[0], 0),
                    fixed(t.cpu_ns[1], 0),
                ]
            })
            .collect();
        md_table(
            out,
            &[
                "profile",
                "mode",
                "check",
                "events/s",
                "speed / json",
                "p50 µs",
                "p99 µs",
                "relay CPU ns/event",
                "client CPU ns/event",
            ],
            &table,
        );
    }
}

/// The workloads of the apart tables, in order.
pub const APART_WORKLOADS: [&str; 9] = [
    "encode",
    "decode",
    "decode+id",
    "validate",
    "filter-checked",
    "filter-preverified",
    "transport-plain",
    "transport-deflate",
    "transport-deflate-ctx",
];

fn apart_section(out: &mut String, c: &Campaign, host: &str) {
    for a in &c.apart {
        let _ = writeln!(
            out,
            "### Measured apart: {}
",
            a.profile
        );
        if let Some(r) = &a.record {
            let first = r.refused.first().map_or("", |x| x.reason.as_str());
            let _ = writeln!(
                out,
                "{} cannot represent {} events of the corpus (first: {first}; `campaign.json` lists \
                 them). So that every other profile is measured on the whole corpus, it is measured \
                 on the other {} events (fingerprint {}), paired with json on those events in the \
                 same child processes of each run (`run-K/apart-{}/`). Its numbers compare with \
                 json's in this section only.\n",
                a.profile,
                r.refused.len(),
                r.count,
                r.fingerprint,
                a.profile
            );
        }
        let rows: Vec<Vec<String>> = APART_WORKLOADS
            .iter()
            .filter_map(|w| {
                let own = a.row(host, w, &a.profile)?;
                let json_w = if w.starts_with("filter-") {
                    "filter-checked"
                } else {
                    w
                };
                let json = a.row(host, json_w, crate::model::summary::BASELINE);
                Some(vec![
                    (*w).to_owned(),
                    fixed(own.median_ns, NS),
                    fixed_opt(json.map(|r| r.median_ns), NS),
                    ratio_opt(own.ratio_json),
                ])
            })
            .collect();
        md_table(
            out,
            &[
                "workload",
                &format!("{} ns/event", a.profile),
                "json ns/event (same events)",
                "/ json [95% CI]",
            ],
            &rows,
        );
        let mut cells = vec![fixed_opt(a.size_pct(host), PCT)];
        cells.extend(
            crate::read::transport::MODES
                .iter()
                .map(|m| fixed_opt(a.wire_pct(host, m), PCT)),
        );
        md_table(
            out,
            &[
                "raw size % json",
                "wire none % json",
                "wire deflate % json",
                "wire deflate-ctx % json",
            ],
            &[cells],
        );
    }
}

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

fn instructions_section(out: &mut String, c: &Campaign, host: &str, profiles: &[String]) {
    if !c.instr.iter().any(|i| i.host == host) {
        return;
    }
    let _ = writeln!(out, "### Instructions per event (callgrind, subset all)\n");
    let refs: Vec<String> = ["id+verify", "clone"]
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
            for w in INSTRUCTION_WORKLOADS.iter().chain(&["copy"]) {
                let i = c.instructions(host, w, p);
                if let Some(i) = i {
                    any = true;
                    dev = dev.max(i.dev_pct);
                }
                row.push(fixed_opt(i.map(|i| i.per_event), 0));
                if *w != "copy" {
                    row.push(fixed_opt(c.ns(host, w, p), NS));
                }
            }
            row.push(agreement(dev));
            let key = c
                .instructions(host, "decode", p)
                .map_or(f64::INFINITY, |i| i.per_event);
            any.then_some((key, row))
        })
        .collect();
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    md_table(out, &header, &sorted_rows(rows));
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
    out.push('\n');
}

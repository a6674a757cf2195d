//! `summary/summary.json`.

use anyhow::Result;
use serde_json::{Value, json};

use crate::fmt::{NS, PCT, RATIO, json_number};
use crate::model::campaign::Campaign;
use crate::model::resolution::resolution;
use crate::model::stats;

/// `summary.json`: the campaign's provenance and the summary rows.
pub fn summary_json(c: &Campaign) -> Result<String> {
    let hosts = hosts_json(c);
    let rows = rows_json(c);
    let ratios = ratios_json(c);
    let violations = violations_json(c);
    let claims = claims_json(c);
    let resolution = resolution_json(c);
    let walls = walls_json(c);
    let instructions = instructions_json(c);
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
        "holds_on": c.holds_on.as_ref().map(|h| &h.label),
        "rows": rows,
        "ratios": ratios,
        "instructions": instructions,
    });
    Ok(serde_json::to_string_pretty(&doc)? + "\n")
}

/// Per host, its runs and their contracts.
fn hosts_json(c: &Campaign) -> Vec<Value> {
    c
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
                    "settings": r.settings,
                    "corpus": {"fingerprint": r.corpus.fingerprint, "count": r.corpus.count, "seed": r.corpus.seed},
                })).collect::<Vec<_>>(),
            })
        })
        .collect()
}

/// Every summary row.
fn rows_json(c: &Campaign) -> Vec<Value> {
    c.rows
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
                "ci_lo_ns": json_number(r.ci_ns.lo, NS),
                "ci_hi_ns": json_number(r.ci_ns.hi, NS),
                "ratio_json": opt(ratio.map(|x| x.est)),
                "ratio_ci_lo": opt(ratio.map(|x| x.lo)),
                "ratio_ci_hi": opt(ratio.map(|x| x.hi)),
                "ratio_range_pct": r.ratio_range_pct.map_or(Value::Null, |v| json_number(v, PCT)),
                "rank": r.rank,
            })
        })
        .collect()
}

/// Every paired ratio, with its run medians.
fn ratios_json(c: &Campaign) -> Vec<Value> {
    c
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
                "ci_lo": json_number(p.est.ci.lo, RATIO),
                "ci_hi": json_number(p.est.ci.hi, RATIO),
                "range_pct": json_number(p.est.range_pct, PCT),
                "run_medians": p.est.run_medians.iter().map(|m| json_number(*m, RATIO)).collect::<Vec<_>>(),
                "min_ratio": p.min_ratio.map_or(Value::Null, |m| json_number(m, RATIO)),
                "violation": p.violates(),
            })
        })
        .collect()
}

/// Every violated invariant.
fn violations_json(c: &Campaign) -> Vec<Value> {
    c.violations
        .iter()
        .map(|v| {
            json!({"host": v.host, "check": v.check.name(), "workload": v.workload,
                   "profile": v.profile, "text": v.text})
        })
        .collect()
}

/// Every claim, with its sentence.
fn claims_json(c: &Campaign) -> Vec<Value> {
    c.claims
        .iter()
        .map(|k| {
            json!({"host": k.host, "workload": k.workload, "subset": "all", "leader": k.leader,
                   "leader_ratio_json": json_number(k.leader_ratio, RATIO),
                   "resolved": k.resolved, "tied": k.tied,
                   "tied_within_pct": json_number(k.tied_pct, PCT),
                   "excluded": k.excluded, "sentence": k.sentence()})
        })
        .collect()
}

/// Per host and workload, the share of resolved paired ratios.
fn resolution_json(c: &Campaign) -> Vec<Value> {
    c.hosts()
        .iter()
        .flat_map(|h| {
            resolution(c, h).into_iter().map(move |r| {
                json!({"host": h, "workload": r.workload, "ratios": r.ratios,
                       "within_2pct": r.within,
                       "within_2pct_share_pct": json_number(r.within_pct(), PCT),
                       "median_range_pct": json_number(r.median_range_pct, PCT)})
            })
        })
        .collect()
}

/// Wall time per label and run.
fn walls_json(c: &Campaign) -> Vec<Value> {
    c
        .walls
        .iter()
        .map(|w| {
            json!({"label": w.label, "minutes": json_number(w.minutes, 2),
                   "runs": w.runs.iter().map(|r| json!({"run": r.id, "minutes": json_number(r.minutes, 2)})).collect::<Vec<_>>()})
        })
        .collect()
}

/// Instructions per event of every key.
fn instructions_json(c: &Campaign) -> Vec<Value> {
    c.instr
        .iter()
        .map(|i| {
            json!({"host": i.host, "workload": i.workload, "profile": i.profile, "subset": i.subset,
                   "runs": i.runs, "per_event": json_number(i.per_event, 1),
                   "deviation_pct": json_number(i.dev_pct, 4)})
        })
        .collect()
}

//! `summary/summary.md`: what holds for the whole campaign, then one
//! section per host ([`super::host`]), then every row.

use std::fmt::Write as _;

use super::csv::{SUMMARY_HEADER, row_cells};
use super::host::host_section;
use super::strata::{holds_section, strata_sections};
use super::table::md_table;
use crate::fmt::{PCT, fixed};
use crate::model::analysis::Analysis;
use crate::model::campaign::Campaign;
use crate::model::languages::MatrixRow;
use crate::model::resolution::{RESOLVED_RANGE_PCT, resolution};
use crate::model::stats;
use crate::read::side::ProfileTable;

/// `summary.md`: invariant violations, resolution, then the headline
/// comparisons and claims per host, then every row.
pub fn summary_md(a: &Analysis) -> String {
    let c = a.campaign;
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
    holds_section(&mut out, c);
    strata_sections(&mut out, c);
    for host in c.hosts() {
        host_section(&mut out, c, &host);
    }
    language_section(&mut out, c, &a.languages);
    super::links::links_section(&mut out, c);
    super::cost::cost_section(&mut out, a);
    valid_section(&mut out, c);
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
    let header: Vec<&str> = SUMMARY_HEADER.split(',').collect();
    let rows: Vec<Vec<String>> = c.rows.iter().map(row_cells).collect();
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
            .map(|r| format!("{} {} min", r.id, fixed(r.minutes, 1)))
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
        let within = format!("within {} %", fixed(RESOLVED_RANGE_PCT, 0));
        md_table(
            out,
            &[
                "workload",
                "paired ratios",
                &within,
                "share %",
                "median range %",
            ],
            &rows,
        );
    }
}

fn language_section(out: &mut String, c: &Campaign, matrix: &[MatrixRow]) {
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
            .map(|u| format!(
                "{} ({}).",
                u.why,
                crate::model::languages::NOT_MEASURED_CELL
            ))
            .collect::<Vec<_>>()
            .join(" ")
    );
    let rows: Vec<Vec<String>> = matrix
        .iter()
        .map(|m| {
            let mut r = vec![m.format.clone()];
            r.extend(m.cells.iter().map(|cell| {
                cell.fastest
                    .as_ref()
                    .map_or("-".into(), |f| format!("{:.0} ({})", f.ns, f.library))
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
/// Per profile of the campaign, whether it carries every valid event (the
/// corpus and `results/valid/`), naming each refusal.
fn valid_section(out: &mut String, c: &Campaign) {
    let Some(v) = &c.valid else { return };
    let _ = writeln!(
        out,
        "## Valid events (`results/valid/`, `binostr corpus valid`)\n\n\
         {} awkward but valid events (`vectors/valid-awkward.jsonl`) beside the corpus; a profile \
         that refuses one fails the first gate of the recommendation.\n",
        v.cases
    );
    let mut profiles: Vec<String> = c.profiles(c.primary_host());
    profiles.extend(c.apart.iter().map(|a| a.profile.clone()));
    profiles.sort();
    profiles.dedup();
    let rows: Vec<Vec<String>> = profiles
        .iter()
        .map(|p| {
            let refused = crate::model::recommend::valid_refusals(c, p);
            vec![
                p.clone(),
                v.refused_by(p).len().to_string(),
                refused.unwrap_or_else(|| "carries every valid event".to_owned()),
            ]
        })
        .collect();
    md_table(out, &["profile", "awkward refused", "refusals"], &rows);
    let _ = writeln!(out);
}

fn suite_section(out: &mut String, title: &str, table: &ProfileTable) {
    if table.rows.is_empty() {
        return;
    }
    let _ = writeln!(out, "## {title}\n");
    let header: Vec<&str> = table.header.iter().map(String::as_str).collect();
    md_table(out, &header, &table.rows);
    let _ = writeln!(out);
}

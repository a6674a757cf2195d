//! `## Cost of a million events on the wire` in `summary.md`.

use std::fmt::Write as _;

use super::table::md_table;
use crate::fmt::fixed;
use crate::interval::Interval;
use crate::model::analysis::Analysis;
use crate::model::cost::{self, PARAMS, Prices, Role, Unit};

/// The section, when the campaign has links rows.
pub(super) fn cost_section(out: &mut String, a: &Analysis) {
    let c = a.campaign;
    if c.links.is_empty() {
        return;
    }
    let p = Prices::default();
    let _ = writeln!(
        out,
        "## Cost of a million events on the wire (`results/links/`, unshaped rows)\n\n\
         Time: bytes × 8 / link rate + relay CPU + client CPU; money: egress GB × $/GB + relay \
         CPU-hours × $/core-hour. Candidates are (profile, compression, deflater) as the links \
         workload measured them. A term whose difference from the JSON candidate is under \
         {} % of its total counts as no difference; a binary candidate replaces JSON only when \
         it saves more than {} %. CPU terms are medians over the links workload's rounds with \
         95 % CIs; a term's difference counts only where the two candidates' intervals do not \
         overlap. The candidates are the profiles that pass the recommendation's gates for the role \
         (the table marks the others); over them, this model sets the recommendation's pick for \
         both roles.\n",
        fixed(cost::DECISIVE.default, 0),
        fixed(cost::SWITCH.default, 0),
    );
    let rows: Vec<Vec<String>> = PARAMS
        .iter()
        .map(|q| {
            vec![
                format!("`{}`", q.id),
                format!("{} {}", q.default, q.unit),
                format!("{} to {}", q.low, q.high),
                q.source.to_owned(),
            ]
        })
        .collect();
    md_table(out, &["parameter", "default", "range", "source"], &rows);
    for role in Role::ALL {
        let admit = |id: &str| a.admits(role, id);
        let cands = cost::candidates(&c.links, role);
        let text = match a.wire_answer(role) {
            Some(answer) => answer.text(&p),
            None => {
                let kind = |json: bool| {
                    let n = cands
                        .iter()
                        .filter(|k| admit(&k.profile) && cost::is_json(c, &k.profile) == json)
                        .count();
                    format!("{n} {} candidate", if json { "JSON" } else { "binary" })
                };
                format!(
                    "No answer: the gates let through {} and {}; the model needs one of each.",
                    kind(true),
                    kind(false)
                )
            }
        };
        let _ = writeln!(out, "### {}\n\n{text}\n", role.name());
        let mut rows: Vec<(f64, Vec<String>)> = cands
            .iter()
            .map(|k| {
                let s = cost::total(&k.terms, Unit::Seconds, &p);
                let d = cost::total(&k.terms, Unit::Dollars, &p);
                let key = if role.unit() == Unit::Dollars { d } else { s };
                (
                    key,
                    vec![
                        k.label(),
                        if admit(&k.profile) { "pass" } else { "out" }.to_owned(),
                        fixed(k.terms.link_bytes, 1),
                        micros(k.terms.relay_cpu_ns),
                        micros(k.terms.client_cpu_ns),
                        fixed(s, 1),
                        fixed(d, 4),
                    ],
                )
            })
            .collect();
        rows.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1[0].cmp(&b.1[0])));
        md_table(
            out,
            &[
                "candidate",
                "gates",
                "link B/event",
                "relay CPU µs [95 % CI]",
                "client CPU µs [95 % CI]",
                "s per million",
                "$ per million",
            ],
            &rows.into_iter().map(|(_, r)| r).collect::<Vec<_>>(),
        );
    }
}

/// An interval of ns in µs: `est [lo, hi]`.
fn micros(i: Interval) -> String {
    format!(
        "{} [{}, {}]",
        fixed(i.est / 1e3, 1),
        fixed(i.lo / 1e3, 1),
        fixed(i.hi / 1e3, 1)
    )
}

/// The header of `summary/cost.csv`.
pub const COST_HEADER: &str = "role,unit,link_mbit,egress_usd_per_gb,cpu_usd_per_core_hour,json_candidate,json_s_per_million,json_usd_per_million,binary_candidate,binary_s_per_million,binary_usd_per_million,saving_pct,saving_pct_low,switch_pct,switch,pick,pick_other_unit,break_even_mbit,break_even_egress_usd_per_gb";

/// `summary/cost.csv`: per role, the answer under the defaults in both
/// units over the gated candidates, the pick, the best binary candidate
/// and the break-even values; the header only without links rows.
pub fn cost_csv(a: &Analysis) -> String {
    let p = Prices::default();
    let mut out = format!("{COST_HEADER}\n");
    for role in Role::ALL {
        let admit = |id: &str| a.admits(role, id);
        let other = cost::campaign_answer(a.campaign, &admit, role, role.unit().other(), &p);
        let (Some(a), Some(other)) = (a.wire_answer(role), other) else {
            continue;
        };
        let total = |k: &cost::Candidate, unit| cost::total(&k.terms, unit, &p);
        let cells = [
            role.id().to_owned(),
            role.unit().id().to_owned(),
            p.link_mbit.to_string(),
            p.egress_usd_per_gb.to_string(),
            p.cpu_usd_per_core_hour.to_string(),
            a.json.label(),
            fixed(total(&a.json, Unit::Seconds), 3),
            fixed(total(&a.json, Unit::Dollars), 6),
            a.binary.label(),
            fixed(total(&a.binary, Unit::Seconds), 3),
            fixed(total(&a.binary, Unit::Dollars), 6),
            fixed(a.saving.pct, 2),
            fixed(a.saving.pct_low, 2),
            cost::SWITCH.default.to_string(),
            if a.switch { "yes" } else { "no" }.to_owned(),
            a.pick().label(),
            other.pick().label(),
            a.break_even_mbit.map_or(String::new(), |r| fixed(r, 1)),
            a.break_even_egress.map_or(String::new(), |e| fixed(e, 6)),
        ];
        out.push_str(&super::csv::csv_line(&cells));
    }
    out
}

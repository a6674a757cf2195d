//! Each criterion's value for one profile, read from the campaign.

use binostr_records::Workload;
use binostr_records::robustness::Outcome;

use super::compare::{Kind, Value};
use super::criteria::Measure;
use super::gates::Facts;
use crate::model::campaign::Campaign;
use crate::model::summary::BASELINE;

/// `profile`'s value of `m`, `None` when not measured.
pub(super) fn value(c: &Campaign, facts: &Facts, profile: &str, m: Measure) -> Option<Value> {
    let host = c.primary_host();
    match m {
        Measure::SizePct(m) => {
            let v = c.stratum_pct(profile, "all", m)?;
            Some(Value::point(v / 100.0, Kind::Exact).on("subset all"))
        }
        Measure::SocketPct(mode) => {
            let v = (*facts.socket.get(profile)?.get(mode))?;
            Some(Value::point(v / 100.0, Kind::Exact).on("the timed exchange"))
        }
        Measure::Paired(w) => {
            let workloads: Vec<&str> = if w == "filter" {
                vec![
                    Workload::FilterChecked.name(),
                    Workload::FilterPreverified.name(),
                ]
            } else {
                vec![w]
            };
            if profile == BASELINE {
                let subset = workloads.iter().find_map(|w| {
                    ["all", "mix"]
                        .into_iter()
                        .find(|s| c.row(host, w, profile, s, 1).is_some())
                })?;
                return Some(Value::point(1.0, Kind::Interval).on(&format!("subset {subset}")));
            }
            let p = workloads
                .iter()
                .find_map(|w| c.paired_where_measured(host, w, profile, BASELINE))?;
            let crate::interval::Interval { est, lo, hi } = p.interval();
            Some(Value {
                est,
                lo,
                hi,
                kind: Kind::Interval,
                word: String::new(),
                on: format!("subset {}", p.subset),
            })
        }
        Measure::LanguageDecode(lang) => {
            let ns = *facts.languages.get(profile)?.get(lang)?;
            let json = *facts.languages.get(BASELINE)?.get(lang)?;
            let kind = if ns == json {
                Kind::Exact
            } else {
                Kind::Sitting
            };
            Some(Value::point(ns / json, kind).on("the interop events"))
        }
        Measure::Languages => {
            let n = facts.language_count(profile);
            (n > 0).then(|| Value::point(n as f64, Kind::Rank))
        }
        Measure::Spec => {
            let status = profile_cell(&c.maintenance, profile, "spec_status")?;
            let rank = match status {
                "ietf-rfc" => 3.0,
                "vendor" => 2.0,
                "informal" => 1.0,
                "none" => 0.0,
                _ => return None,
            };
            Some(Value {
                word: status.to_owned(),
                ..Value::point(rank, Kind::Rank)
            })
        }
        Measure::NonCanonical => {
            let s = c
                .robustness
                .as_ref()?
                .subjects
                .iter()
                .find(|s| s.ours && s.subject == profile)?;
            let (mut hits, mut total) = (0u64, 0u64);
            for counts in s.classes.values() {
                for (o, n) in &counts.outcomes {
                    total += n;
                    if *o == Outcome::AcceptedNonCanonical {
                        hits += n;
                    }
                }
            }
            (total > 0).then(|| Value::point(hits as f64 * 1e6 / total as f64, Kind::Exact))
        }
        Measure::RangeRefused => {
            let t = &c.evolution;
            let row = t
                .rows
                .iter()
                .find(|r| t.cell(r, "profile") == Some(profile))?;
            let refused = t
                .header
                .iter()
                .zip(row)
                .filter(|(h, v)| h.starts_with("range_") && v.as_str() == "refused")
                .count();
            Some(Value::point(refused as f64, Kind::Exact))
        }
    }
}

fn profile_cell<'a>(
    t: &'a crate::read::side::ProfileTable,
    profile: &str,
    column: &str,
) -> Option<&'a str> {
    let row = t
        .rows
        .iter()
        .find(|r| t.cell(r, "profile") == Some(profile))?;
    t.cell(row, column)
}

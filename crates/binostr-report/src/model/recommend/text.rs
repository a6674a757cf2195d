//! The recommendation in words: one paragraph per role, profile ids in
//! backticks (the paper and the page turn them into code), numbers printed
//! with no more digits than their intervals support.

use std::fmt::Write as _;

use super::compare::{Cmp, Kind, MARGIN, SITTING_MARGIN, Value};
use super::criteria::Measure;
use super::decide::{Candidate, Decision};
use crate::fmt::fixed;
use crate::model::cost;
use crate::model::summary::BASELINE;

/// A value as tables and sentences print it.
pub fn value_text(v: &Value, m: Measure) -> String {
    match (v.kind, m) {
        (_, Measure::SizePct(_) | Measure::SocketPct(_)) => fixed(v.est * 100.0, 1),
        (Kind::Interval, _) if v.hi > v.lo => interval_text(v.est, v.lo, v.hi),
        (Kind::Sitting, _) => significant(v.est, 2),
        (Kind::Rank, Measure::Spec) => v.word.clone(),
        _ => significant_or_integer(v.est),
    }
}

fn significant_or_integer(x: f64) -> String {
    if x.fract() == 0.0 || x >= 10.0 {
        fixed(x, 0)
    } else {
        significant(x, 2)
    }
}

/// `est [lo, hi]` with the decimals the interval supports.
pub fn interval_text(est: f64, lo: f64, hi: f64) -> String {
    let d = ci_decimals(lo, hi);
    format!("{} [{}, {}]", fixed(est, d), fixed(lo, d), fixed(hi, d))
}

/// Decimals that show the first digit of an interval's width (0 to 3).
pub fn ci_decimals(lo: f64, hi: f64) -> usize {
    let w = (hi - lo).abs();
    if w.is_nan() || w <= 0.0 {
        return 2;
    }
    (-w.log10().floor()).clamp(0.0, 3.0) as usize
}

/// `x` to `digits` significant digits.
pub fn significant(x: f64, digits: i32) -> String {
    if !(x.is_finite() && x > 0.0) {
        return fixed(x, 0);
    }
    let d = (digits - 1 - x.log10().floor() as i32).max(0) as usize;
    fixed(x, d)
}

/// The unit of a criterion's values.
pub fn unit(m: Measure) -> &'static str {
    match m {
        Measure::SizePct(_) => "% of json, subset all",
        Measure::SocketPct(_) => "% of json, the timed exchange",
        Measure::Paired(_) => "paired ratio to json, 95% CI",
        Measure::LanguageDecode(_) => "ratio to that language's json, one sitting",
        Measure::Languages => "count",
        Measure::Spec => "status",
        Measure::NonCanonical => "per million cases",
        Measure::RangeRefused => "cases",
    }
}

/// `a`, `a and b`, `a, b, and c`.
pub fn list(items: &[String]) -> String {
    match items {
        [] => "none".to_owned(),
        [a] => a.clone(),
        [a, b] => format!("{a} and {b}"),
        [rest @ .., last] => format!("{}, and {last}", rest.join(", ")),
    }
}

fn code(p: &str) -> String {
    format!("`{p}`")
}

/// The pick in words.
pub fn pick_text(d: &Decision) -> String {
    if d.no_change && d.pick == BASELINE {
        "keep JSON".to_owned()
    } else if d.no_change {
        format!("keep JSON, parsed with {}", code(&d.pick))
    } else {
        format!("change to {}", code(&d.pick))
    }
}

fn labels(d: &Decision, ids: &[&str]) -> String {
    let names: Vec<String> = ids
        .iter()
        .filter_map(|id| d.role.criteria.iter().find(|k| k.id == *id))
        .map(|k| k.label.to_owned())
        .collect();
    list(&names)
}

/// The value of `profile` on criterion `id`, as text.
fn value_of(d: &Decision, profile: &str, id: &str) -> Option<String> {
    let i = d.role.criteria.iter().position(|k| k.id == id)?;
    let v = d.candidate(profile)?.values[i].as_ref()?;
    Some(value_text(v, d.role.criteria[i].measure))
}

fn evidence(d: &Decision, ids: &[&str], a: &str, b: &str) -> String {
    let parts: Vec<String> = ids
        .iter()
        .filter_map(|id| {
            let k = d.role.criteria.iter().find(|k| k.id == *id)?;
            Some(format!(
                "{} {} against {}",
                k.label,
                value_of(d, a, id)?,
                value_of(d, b, id)?
            ))
        })
        .collect();
    list(&parts)
}

/// The rules, in one paragraph.
pub fn rules() -> String {
    format!(
        "Gates come first: a candidate must carry every valid event (the corpus, and the \
         awkward valid events of results/valid/, derived from every profile's packing \
         rules), show no crash and no silent change under the robustness suite, have a reader in the role's number of \
         languages, and have every criterion measured. A difference counts only when it \
         exceeds a margin of {} % (for ratios, only when the 95 % intervals are also \
         disjoint); within the margin two values are equivalent, and timings from one sitting \
         of another language's harness count only beyond {} %. The Pareto set is what no \
         other candidate dominates. On the wire (relay to client, client to relay), the cost \
         model picks among the gated candidates, each a profile in one compression mode with \
         one deflater: a role is decided in the unit of whoever pays, dollars for the relay \
         that serves REQs and seconds for the client that waits for its OK, at the stated \
         default link rate and prices. The cheapest binary candidate replaces the cheapest \
         JSON-text one only when it saves more than {} % of JSON's cost, counting a term only \
         when it reaches {} % of JSON's cost and the two candidates' intervals do not overlap. \
         The criteria are then the evidence beside the pick. In the other roles, whose costs \
         are not yet in units, the role stays JSON while a JSON-text candidate is in the \
         Pareto set, because a change must improve every criterion. Ties go through the \
         criteria in the order of the scorecard. Two measures \
         are reported but not weighed: selective reads of kind and author, which only formats \
         with a borrowed view have (the filter criterion already reads through that view), \
         and the lines and crates of our implementation, which measure this code base rather \
         than the format.",
        fixed(MARGIN * 100.0, 0),
        fixed(SITTING_MARGIN * 100.0, 0),
        fixed(cost::SWITCH.default, 0),
        fixed(cost::DECISIVE.default, 0),
    )
}

/// One role's paragraph: pick, Pareto set, deciding evidence, what would
/// change it, the mix range, and what the gates left out.
pub fn role_text(d: &Decision) -> String {
    let mut s = format!("Pick: {}. ", pick_text(d));
    if let Some(a) = &d.cost {
        let _ = write!(s, "{} ", a.text(&cost::Prices::default()));
    }
    let pareto: Vec<String> = d
        .candidates
        .iter()
        .filter(|c| c.pareto)
        .map(|c| code(&c.profile))
        .collect();
    let _ = write!(s, "Pareto set ({}): {}. ", pareto.len(), list(&pareto));
    if let Some(ch) = &d.challenger {
        let kind = if d.no_change { "binary" } else { "JSON-text" };
        let side = |ids: &[&str], word: &str| {
            if ids.is_empty() {
                format!("{word} on no criterion")
            } else {
                format!(
                    "{word} on {} ({})",
                    labels(d, ids),
                    evidence(d, ids, &d.pick, ch)
                )
            }
        };
        let whose = if d.cost.is_some() {
            "On the criteria, against the cost model's"
        } else {
            "Against the strongest"
        };
        let _ = write!(
            s,
            "{whose} {kind} candidate, {}, the pick is {} and {}. ",
            code(ch),
            side(&d.wins, "better"),
            side(&d.losses, "worse"),
        );
    } else {
        s.push_str("No candidate of the other kind passes the gates. ");
    }
    if d.change.is_empty() {
        if !d.wins.is_empty() && d.cost.is_none() {
            s.push_str(
                "What would change it: no criterion the pick wins on, given no weight alone, \
                 changes it. ",
            );
        }
    } else {
        let parts: Vec<String> = d
            .change
            .iter()
            .map(|c| {
                let still = if c.pick == d.pick { "still " } else { "" };
                format!(
                    "giving no weight to {} would {still}pick {}",
                    labels(d, &c.dropped),
                    code(&c.pick)
                )
            })
            .collect();
        let _ = write!(s, "What would change it: {}. ", parts.join("; "));
    }
    s.push_str(&across(d));
    let sized = match &d.challenger {
        Some(ch) if d.no_change => ch,
        _ => &d.pick,
    };
    for span in &d.mix {
        let _ = write!(
            s,
            "Over the traffic-mix grid ({} cells), {}'s {} spans {}–{} % of json. ",
            span.cells,
            code(sized),
            labels(d, &[span.criterion]),
            fixed(span.lo * 100.0, 1),
            fixed(span.hi * 100.0, 1)
        );
    }
    let out: Vec<String> = d
        .candidates
        .iter()
        .filter(|c| !c.gated())
        .map(|c| format!("{} ({})", code(&c.profile), c.failed.join("; ")))
        .collect();
    if !out.is_empty() {
        let _ = write!(s, "Gated out: {}.", out.join("; "));
    }
    s.trim_end().to_owned()
}

/// Per criterion, the range over the binary candidates measured and how
/// many compare better, equivalent, worse or undecided with json.
fn across(d: &Decision) -> String {
    let binary: Vec<&Candidate> = d.candidates.iter().filter(|c| !c.json_text).collect();
    let mut parts = Vec::new();
    for (i, k) in d.role.criteria.iter().enumerate() {
        let vals: Vec<(&Value, Option<Cmp>)> = binary
            .iter()
            .filter_map(|c| Some((c.values[i].as_ref()?, c.vs_json.get(i).copied().flatten())))
            .collect();
        if vals.is_empty() || matches!(k.measure, Measure::Spec | Measure::Languages) {
            continue;
        }
        let lo = vals
            .iter()
            .min_by(|a, b| a.0.est.total_cmp(&b.0.est))
            .expect("one");
        let hi = vals
            .iter()
            .max_by(|a, b| a.0.est.total_cmp(&b.0.est))
            .expect("one");
        let count = |x: Cmp| vals.iter().filter(|v| v.1 == Some(x)).count();
        let tally: Vec<String> = [Cmp::Better, Cmp::Equivalent, Cmp::Worse, Cmp::Undecided]
            .into_iter()
            .filter(|x| count(*x) > 0)
            .map(|x| format!("{} {}", x.word(), count(x)))
            .collect();
        parts.push(format!(
            "{} {} to {} over {} ({})",
            k.label,
            value_text(lo.0, k.measure),
            value_text(hi.0, k.measure),
            vals.len(),
            tally.join(", ")
        ));
    }
    if parts.is_empty() {
        return String::new();
    }
    format!(
        "Binary candidates against json, gated or not: {}. ",
        parts.join("; ")
    )
}

/// The abstract's conclusion: one clause per role, with the cost and its
/// conditions on the wire.
pub fn summary(ds: &[Decision]) -> String {
    let p = cost::Prices::default();
    let parts: Vec<String> = ds
        .iter()
        .map(|d| {
            let mut s = format!("{}: {}", d.role.name, pick_text(d));
            if let Some(a) = &d.cost {
                let (what, at) = match a.unit {
                    cost::Unit::Dollars => (
                        "of the relay's cost per event served",
                        format!("{} $/GB egress", p.egress_usd_per_gb),
                    ),
                    cost::Unit::Seconds => (
                        "of a publisher's time per event",
                        format!("a {} Mbit/s link", p.link_mbit),
                    ),
                };
                let b = &a.binary;
                let how = b.setting();
                let pct = |x| cost::pct_text(x, cost::SWITCH.default);
                let saves = format!("{} % {what} at {at}", pct(a.saving.pct));
                let least = format!("at least {} % within the intervals", pct(a.saving.pct_low));
                let switch = fixed(cost::SWITCH.default, 0);
                let _ = if a.switch {
                    write!(
                        s,
                        " with{how}, saving {saves} ({least}; the threshold is {switch} %)"
                    )
                } else {
                    write!(
                        s,
                        " (the cheapest binary candidate, {}, saves {saves}, {least}, not clear \
                         of the {switch} % threshold)",
                        b.code()
                    )
                };
            }
            s
        })
        .collect();
    format!("Per role, the rules pick: {}.", parts.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precision_follows_the_interval() {
        assert_eq!(ci_decimals(1.1267, 1.1547), 2);
        assert_eq!(ci_decimals(0.9, 1.3), 1);
        assert_eq!(ci_decimals(1.0001, 1.0003), 3);
        assert_eq!(ci_decimals(103.4, 111.4), 0);
        assert_eq!(significant(1.357, 2), "1.4");
        assert_eq!(significant(0.7123, 2), "0.71");
        assert_eq!(list(&["a".into(), "b".into(), "c".into()]), "a, b, and c");
    }
}

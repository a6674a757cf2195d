//! Rules 1 (per role), 3, 4 and 5: each role's candidates gated, its
//! Pareto set, its pick, and what would change it.

use super::compare::{Cmp, Value, compare};
use super::criteria::{Better, Measure, ROLES, Role};
use super::gates::Facts;
use super::values::value;
use crate::model::campaign::Campaign;
use crate::model::cost::{self, Answer, Prices};
use crate::model::languages::MatrixRow;
use crate::model::relay::is_json_text;
use crate::model::summary::BASELINE;

/// One candidate in one role.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// Profile id.
    pub profile: String,
    /// Whether it travels as NIP-01 JSON text.
    pub json_text: bool,
    /// Per criterion of the role, its value (`None`: not measured).
    pub values: Vec<Option<Value>>,
    /// Per criterion, how it compares with `json`.
    pub vs_json: Vec<Option<Cmp>>,
    /// The gates it fails, in words (empty: it passes).
    pub failed: Vec<String>,
    /// Whether it is in the role's Pareto set.
    pub pareto: bool,
}

impl Candidate {
    /// Whether it passes every gate.
    pub fn gated(&self) -> bool {
        self.failed.is_empty()
    }
}

/// What would change a role's pick.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// The criteria (ids) given no weight.
    pub dropped: Vec<&'static str>,
    /// The pick without them.
    pub pick: String,
}

/// A role's scorecard and pick.
#[derive(Clone, Debug)]
pub struct Decision {
    /// The role.
    pub role: Role,
    /// Every candidate, ordered by the first criterion (ungated last).
    pub candidates: Vec<Candidate>,
    /// The pick.
    pub pick: String,
    /// Whether the pick keeps the JSON wire.
    pub no_change: bool,
    /// The strongest candidate of the other kind (a binary one when the
    /// role stays JSON, the best JSON-text one otherwise); on the wire, the
    /// cost model's cheapest of that kind.
    pub challenger: Option<String>,
    /// The criteria (ids) on which the pick beats the challenger.
    pub wins: Vec<&'static str>,
    /// The criteria (ids) on which it loses to the challenger.
    pub losses: Vec<&'static str>,
    /// What would change the pick: each criterion it wins on given no
    /// weight alone, where that changes it; when none does and the role
    /// stays JSON, all of them together. Empty on the wire, where the cost
    /// model's break-even values say it.
    pub change: Vec<Change>,
    /// Size measures of the challenger (or the pick) over the mix grid.
    pub mix: Vec<MixSpan>,
    /// On the wire, the cost model's answer over the gated candidates at
    /// the default prices: it sets the pick (rule 4).
    pub cost: Option<Answer>,
}

/// One size criterion of a profile over the mix grid.
#[derive(Clone, Debug, PartialEq)]
pub struct MixSpan {
    /// The criterion (id).
    pub criterion: &'static str,
    /// Lowest ratio to json over the cells.
    pub lo: f64,
    /// Highest ratio to json.
    pub hi: f64,
    /// Cells of the grid.
    pub cells: usize,
}

impl Decision {
    /// The candidate `profile`.
    pub fn candidate(&self, profile: &str) -> Option<&Candidate> {
        self.candidates.iter().find(|c| c.profile == profile)
    }

    /// Whether `profile` passes the role's gates.
    pub fn admits(&self, profile: &str) -> bool {
        self.candidate(profile).is_some_and(Candidate::gated)
    }
}

/// Every role's decision, in [`ROLES`] order, from the language matrix
/// `matrix` ([`crate::model::languages::language_matrix`]).
pub fn recommend(c: &Campaign, matrix: &[MatrixRow]) -> Vec<Decision> {
    let facts = Facts::gather(c, matrix);
    ROLES.iter().map(|r| decide(c, &facts, r)).collect()
}

/// The comparisons of `a` with `b` per criterion (`None` where either is missing).
fn cmps(role: &Role, a: &Candidate, b: &Candidate) -> Vec<Option<Cmp>> {
    role.criteria
        .iter()
        .zip(a.values.iter().zip(&b.values))
        .map(|(k, (x, y))| Some(compare(x.as_ref()?, y.as_ref()?, k.better)))
        .collect()
}

/// Whether `a` dominates `b` on `keep` (criterion indices).
fn dominates(role: &Role, a: &Candidate, b: &Candidate, keep: &[usize]) -> bool {
    let c = cmps(role, a, b);
    let kept = keep.iter().map(|&i| c[i]);
    kept.clone()
        .all(|x| matches!(x, Some(Cmp::Better | Cmp::Equivalent)))
        && kept.clone().any(|x| x == Some(Cmp::Better))
}

fn decide(c: &Campaign, facts: &Facts, role: &Role) -> Decision {
    let json_values: Vec<Option<Value>> = role
        .criteria
        .iter()
        .map(|k| value(c, facts, BASELINE, k.measure))
        .collect();
    let mut candidates: Vec<Candidate> = facts
        .profiles
        .iter()
        .map(|p| {
            let values: Vec<Option<Value>> = role
                .criteria
                .iter()
                .map(|k| value(c, facts, p, k.measure))
                .collect();
            let mut failed = facts.gates[p].clone();
            let langs = facts.language_count(p);
            if langs < role.min_languages {
                failed.push(format!(
                    "a reader in {langs} language{} (gate: {})",
                    if langs == 1 { "" } else { "s" },
                    role.min_languages
                ));
            }
            failed.extend(other_events(role, &values, &json_values));
            let missing: Vec<&str> = role
                .criteria
                .iter()
                .zip(&values)
                .filter(|(_, v)| v.is_none())
                .map(|(k, _)| k.label)
                .collect();
            if !missing.is_empty() {
                failed.push(format!("not measured: {}", missing.join(", ")));
            }
            Candidate {
                profile: p.clone(),
                json_text: is_json_text(c, p),
                values,
                vs_json: Vec::new(),
                failed,
                pareto: false,
            }
        })
        .collect();
    let all: Vec<usize> = (0..role.criteria.len()).collect();
    if let Some(json) = candidates.iter().find(|x| x.profile == BASELINE).cloned() {
        for x in &mut candidates {
            x.vs_json = cmps(role, x, &json);
        }
    }
    let gated: Vec<Candidate> = candidates.iter().filter(|x| x.gated()).cloned().collect();
    for x in candidates.iter_mut().filter(|x| x.gated()) {
        x.pareto = !gated.iter().any(|y| dominates(role, y, x, &all));
    }
    let cost = role.wire.and_then(|w| {
        let admit = |id: &str| candidates.iter().any(|x| x.profile == id && x.gated());
        cost::campaign_answer(c, &admit, w, w.unit(), &Prices::default())
    });
    let (pick, no_change, challenger) = match &cost {
        Some(a) => {
            let other = if a.switch { &a.json } else { &a.binary };
            (
                a.pick().profile.clone(),
                !a.switch,
                Some(other.profile.clone()),
            )
        }
        None => {
            let pick = pick_on(role, &candidates, &all);
            let no_change = candidates.iter().any(|x| x.profile == pick && x.json_text);
            let challenger = best_on(
                role,
                candidates
                    .iter()
                    .filter(|x| x.gated() && x.json_text != no_change)
                    .collect(),
                &all,
            )
            .map(str::to_owned);
            (pick, no_change, challenger)
        }
    };
    let (mut wins, mut losses) = (Vec::new(), Vec::new());
    let mut change = Vec::new();
    if let (Some(ch), Some(p)) = (
        challenger
            .as_ref()
            .and_then(|n| candidates.iter().find(|x| &x.profile == n)),
        candidates.iter().find(|x| x.profile == pick),
    ) {
        for (k, cmp) in role.criteria.iter().zip(cmps(role, p, ch)) {
            match cmp {
                Some(Cmp::Better) => wins.push(k.id),
                Some(Cmp::Worse) => losses.push(k.id),
                _ => {}
            }
        }
        if cost.is_none() {
            change = changes(role, &candidates, &wins, &pick, no_change);
        }
    }
    let sized = match &challenger {
        Some(ch) if no_change => ch.clone(),
        _ => pick.clone(),
    };
    let mix = mix_spans(c, role, &sized);
    let order = role.criteria[0];
    candidates.sort_by(|a, b| {
        let key = |x: &Candidate| {
            let v = x.values[0].as_ref().map_or(f64::INFINITY, |v| v.est);
            (
                !x.gated(),
                if order.better == Better::Lower { v } else { -v },
            )
        };
        let (ga, va) = key(a);
        let (gb, vb) = key(b);
        ga.cmp(&gb)
            .then(va.total_cmp(&vb))
            .then(a.profile.cmp(&b.profile))
    });
    Decision {
        role: *role,
        candidates,
        pick: pick.clone(),
        no_change,
        challenger,
        wins,
        losses,
        change,
        mix,
        cost,
    }
}

/// Rule 5: the picks without the criteria `wins` (ids): each alone where
/// that changes the pick; else, when the wire stays JSON, all together.
fn changes(
    role: &Role,
    candidates: &[Candidate],
    wins: &[&'static str],
    pick: &str,
    no_change: bool,
) -> Vec<Change> {
    let without = |drop: &[&'static str]| -> Vec<usize> {
        (0..role.criteria.len())
            .filter(|&i| !drop.contains(&role.criteria[i].id))
            .collect()
    };
    let single: Vec<Change> = wins
        .iter()
        .map(|id| Change {
            dropped: vec![*id],
            pick: pick_on(role, candidates, &without(&[id])),
        })
        .filter(|c| c.pick != pick)
        .collect();
    if !single.is_empty() || !no_change || wins.len() < 2 {
        return single;
    }
    vec![Change {
        dropped: wins.to_vec(),
        pick: pick_on(role, candidates, &without(wins)),
    }]
}

/// The criteria on which a value was measured on other events than
/// json's: such a comparison is refused (a gate).
fn other_events(role: &Role, values: &[Option<Value>], json: &[Option<Value>]) -> Vec<String> {
    role.criteria
        .iter()
        .zip(values.iter().zip(json))
        .filter_map(|(k, (v, j))| {
            let (v, j) = (v.as_ref()?, j.as_ref()?);
            (v.on != j.on).then(|| format!("{} measured on {}, json on {}", k.label, v.on, j.on))
        })
        .collect()
}

/// Rule 4 on the criteria `keep` (Pareto set and dominance recomputed).
fn pick_on(role: &Role, candidates: &[Candidate], keep: &[usize]) -> String {
    let gated: Vec<&Candidate> = candidates.iter().filter(|x| x.gated()).collect();
    let pareto: Vec<&Candidate> = gated
        .iter()
        .copied()
        .filter(|x| !gated.iter().any(|y| dominates(role, y, x, keep)))
        .collect();
    let json_text: Vec<&Candidate> = pareto.iter().copied().filter(|x| x.json_text).collect();
    let pool = if !json_text.is_empty() {
        json_text
    } else {
        let json = candidates.iter().find(|x| x.profile == BASELINE);
        let over: Vec<&Candidate> = pareto
            .iter()
            .copied()
            .filter(|x| json.is_some_and(|j| dominates(role, x, j, keep)))
            .collect();
        if over.is_empty() { pareto } else { over }
    };
    best_on(role, pool, keep).map_or_else(|| BASELINE.to_owned(), str::to_owned)
}

/// The tie-breakers: lexicographic through `keep` in order (equivalent
/// counts as equal, undecided keeps both), then JSON text, then `json`
/// itself, then the name.
fn best_on<'a>(role: &Role, mut pool: Vec<&'a Candidate>, keep: &[usize]) -> Option<&'a str> {
    for &i in keep {
        let k = role.criteria[i];
        let survivors: Vec<&Candidate> = pool
            .iter()
            .copied()
            .filter(|x| {
                !pool.iter().any(|y| {
                    matches!(
                        (&y.values[i], &x.values[i]),
                        (Some(a), Some(b)) if compare(a, b, k.better) == Cmp::Better
                    )
                })
            })
            .collect();
        if !survivors.is_empty() {
            pool = survivors;
        }
    }
    pool.sort_by_key(|x| (!x.json_text, x.profile != BASELINE, x.profile.clone()));
    pool.first().map(|x| x.profile.as_str())
}

/// The size criteria of `role` for `profile` over the mix grid: lowest and
/// highest % of json and the cells (grid measures raw and zstd per event).
fn mix_spans(c: &Campaign, role: &Role, profile: &str) -> Vec<MixSpan> {
    let mut out = Vec::new();
    for k in role.criteria {
        let Measure::SizePct(m) = k.measure else {
            continue;
        };
        let Some(grid) = c.grids.iter().find(|g| g.measure == m) else {
            continue;
        };
        let ratios: Vec<f64> = grid.cells.iter().filter_map(|x| x.ratio(profile)).collect();
        if ratios.is_empty() {
            continue;
        }
        let lo = ratios.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        out.push(MixSpan {
            criterion: k.id,
            lo,
            hi,
            cells: ratios.len(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::recommend::compare::Kind;
    use crate::model::recommend::criteria::{DECODE, RAW};

    fn cand(p: &str, json_text: bool, values: &[f64]) -> Candidate {
        Candidate {
            profile: p.to_owned(),
            json_text,
            values: values
                .iter()
                .map(|x| Some(Value::point(*x, Kind::Exact)))
                .collect(),
            vs_json: Vec::new(),
            failed: Vec::new(),
            pareto: false,
        }
    }

    const TWO: Role = Role {
        id: "t",
        name: "t",
        scope: "t",
        min_languages: 1,
        criteria: &[RAW, DECODE],
        wire: None,
    };

    #[test]
    fn json_stays_unless_dominated() {
        // b is smaller but slower: json stays.
        let c = [
            cand("json", true, &[1.0, 1.0]),
            cand("b", false, &[0.6, 1.5]),
        ];
        assert_eq!(pick_on(&TWO, &c, &[0, 1]), "json");
        // Without the time criterion, b wins.
        assert_eq!(pick_on(&TWO, &c, &[0]), "b");
        // b smaller and equivalent in time: b dominates json.
        let c = [
            cand("json", true, &[1.0, 1.0]),
            cand("b", false, &[0.6, 1.02]),
        ];
        assert_eq!(pick_on(&TWO, &c, &[0, 1]), "b");
        // A gated-out candidate never wins.
        let mut c = c;
        c[1].failed.push("gate".into());
        assert_eq!(pick_on(&TWO, &c, &[0, 1]), "json");
    }

    #[test]
    fn other_events_are_refused() {
        let json = [Some(Value::point(1.0, Kind::Exact).on("subset all")), None];
        let same = [Some(Value::point(0.7, Kind::Exact).on("subset all")), None];
        let other = [Some(Value::point(0.7, Kind::Exact).on("subset mix")), None];
        assert!(other_events(&TWO, &same, &json).is_empty());
        assert_eq!(
            other_events(&TWO, &other, &json),
            ["raw bytes measured on subset mix, json on subset all"]
        );
    }

    #[test]
    fn ties_go_through_the_criteria_in_order() {
        let c = [
            cand("json", true, &[1.0, 1.0]),
            cand("b", false, &[0.60, 0.7]),
            cand("a", false, &[0.61, 0.9]),
            cand("z", false, &[0.40, 0.95]),
        ];
        // z is smallest beyond the margin; a and b are equivalent in size.
        assert_eq!(pick_on(&TWO, &c, &[0, 1]), "z");
        assert_eq!(pick_on(&TWO, &c, &[1]), "b");
    }
}

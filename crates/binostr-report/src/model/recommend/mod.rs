//! The recommendation: the roles a protocol designer decides for, the
//! criteria each weighs (every one bound to a measured column), and the
//! rules that turn them into one pick per role. This file is the rules;
//! `docs/METHOD.md` states them in words and the paper prints them.
//!
//! Rules, in order:
//! 1. **Gates.** A candidate must carry every event of the corpus (not be
//!    measured apart), have no failing robustness outcome (crash, hang,
//!    memory bound, invalid UTF-8 accepted), no silent change (an accepted
//!    input that does not re-encode to the same event), a reader in at least
//!    the role's number of languages, and a value for every criterion.
//! 2. **Comparison** of two values of one criterion ([`compare`]): better,
//!    worse, equivalent or undecided. Equivalent means the difference lies
//!    within the criterion's margin ([`MARGIN`], or [`SITTING_MARGIN`] for
//!    timings from one sitting without an interval); better means the
//!    intervals are disjoint and the difference exceeds the margin.
//! 3. **Pareto set.** The gated candidates that no other gated candidate
//!    dominates (better on one criterion, better or equivalent on all).
//! 4. **Pick.** The wire stays JSON ("no change") while a JSON-text
//!    candidate is in the Pareto set: a change must be an improvement on
//!    every criterion, because the cost of changing is not measured here.
//!    Otherwise the pick is a Pareto member that dominates `json`. Ties go
//!    lexicographically through the role's criteria in order, then to JSON
//!    text, then to the name.
//! 5. **What would change it**, computed, not asserted: the pick with the
//!    criteria that decided it given no weight, and the size measures over
//!    the traffic-mix grid ([`crate::model::sensitivity`]).

pub mod text;

use std::collections::BTreeMap;

use binostr_records::Workload;
use binostr_records::robustness::Outcome;

use crate::model::campaign::Campaign;
use crate::model::languages::{LANGUAGES, language_matrix};
use crate::model::relay::is_json_text;
use crate::model::summary::BASELINE;

/// Equivalence margin of measured ratios and exact sizes: a relative
/// difference within it does not count.
pub const MARGIN: f64 = crate::model::stats::EQUIVALENCE_MARGIN;

/// Equivalence margin of timings from one sitting without an interval
/// (the other languages' harnesses).
pub const SITTING_MARGIN: f64 = 0.25;

/// Which way a criterion improves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Better {
    /// Smaller is better (bytes, time).
    Lower,
    /// Larger is better (languages, spec status).
    Higher,
}

/// Where a criterion's value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// [`Campaign::stratum_pcts`] at subset `all`, by index: raw, zstd per
    /// event, zstd stream, deflate per event, deflate with context takeover
    /// (% of json under the same measure; exact).
    SizePct(usize),
    /// Relay → client socket bytes of the timed exchange (`transport.csv`),
    /// by [`crate::read::transport::MODES`] index, % of json's (exact).
    SocketPct(usize),
    /// The paired ratio to json of a workload (95% CI), one thread, subset
    /// `all` (or `mix`, where the workload ran only there). `filter` takes
    /// the profile's `filter-checked` or `filter-preverified` row.
    Paired(&'static str),
    /// The fastest library of a language decoding to the event over that
    /// language's json (`results/interop`, one sitting).
    LanguageDecode(&'static str),
    /// Languages with a decoder measured (Rust and the interop harnesses).
    Languages,
    /// Spec status (`results/maintenance`): ietf-rfc > vendor > informal > none.
    Spec,
    /// Robustness cases accepted in a non-canonical spelling, per million
    /// cases (`results/robustness`).
    NonCanonical,
    /// Range-growth cases the format refuses (`results/evolution`).
    RangeRefused,
}

/// One criterion of a role.
#[derive(Clone, Copy, Debug)]
pub struct Criterion {
    /// Short id (CSV column).
    pub id: &'static str,
    /// Column heading.
    pub label: &'static str,
    /// Its source.
    pub measure: Measure,
    /// Which way it improves.
    pub better: Better,
}

const fn lower(id: &'static str, label: &'static str, measure: Measure) -> Criterion {
    Criterion {
        id,
        label,
        measure,
        better: Better::Lower,
    }
}

const fn higher(id: &'static str, label: &'static str, measure: Measure) -> Criterion {
    Criterion {
        id,
        label,
        measure,
        better: Better::Higher,
    }
}

const RAW: Criterion = lower("raw", "raw bytes", Measure::SizePct(0));
const ZSTD: Criterion = lower("zstd", "zstd per event", Measure::SizePct(1));
const DEFLATE: Criterion = lower("deflate", "deflate bytes", Measure::SizePct(3));
const DECODE: Criterion = lower("decode", "decode", Measure::Paired(Workload::Decode.name()));
const JS: Criterion = lower("js", "decode in JS", Measure::LanguageDecode("js"));
const LANGUAGE_COUNT: Criterion = higher("languages", "languages", Measure::Languages);
const SPEC: Criterion = higher("spec", "spec", Measure::Spec);
const NON_CANONICAL: Criterion = lower("noncanonical", "non-canonical", Measure::NonCanonical);
const RANGE: Criterion = lower("range", "range refused", Measure::RangeRefused);

/// A role a designer decides for.
#[derive(Clone, Copy, Debug)]
pub struct Role {
    /// Short id (file and anchor names).
    pub id: &'static str,
    /// Name.
    pub name: &'static str,
    /// What the role carries.
    pub scope: &'static str,
    /// Gate: a reader in at least this many languages.
    pub min_languages: usize,
    /// Its criteria, the first deciding ties first.
    pub criteria: &'static [Criterion],
}

/// Every role, in the order the paper discusses them.
pub const ROLES: [Role; 5] = [
    Role {
        id: "relay-client",
        name: "Relay to client",
        scope: "REQ responses, with permessage-deflate as deployed",
        min_languages: 3,
        criteria: &[
            lower("socket", "socket bytes (deflate)", Measure::SocketPct(1)),
            lower(
                "socket-ctx",
                "socket bytes (deflate+ctx)",
                Measure::SocketPct(2),
            ),
            lower(
                "exchange",
                "exchange (deflate)",
                Measure::Paired(Workload::TransportDeflate.name()),
            ),
            lower(
                "exchange-ctx",
                "exchange (deflate+ctx)",
                Measure::Paired(Workload::TransportDeflateCtx.name()),
            ),
            JS,
            LANGUAGE_COUNT,
            SPEC,
        ],
    },
    Role {
        id: "client-relay",
        name: "Client to relay",
        scope: "publishing: one EVENT, validated by the relay",
        min_languages: 3,
        criteria: &[
            RAW,
            DEFLATE,
            lower("encode", "encode", Measure::Paired(Workload::Encode.name())),
            lower(
                "validate",
                "validate",
                Measure::Paired(Workload::Validate.name()),
            ),
            NON_CANONICAL,
            LANGUAGE_COUNT,
            SPEC,
        ],
    },
    Role {
        id: "storage",
        name: "Relay storage",
        scope: "stored events, REQ filters matched on them",
        min_languages: 1,
        criteria: &[
            RAW,
            ZSTD,
            lower("filter", "filter", Measure::Paired("filter")),
            DECODE,
            RANGE,
        ],
    },
    Role {
        id: "cache",
        name: "Client cache",
        scope: "events a client keeps, read back in Rust or JavaScript",
        min_languages: 1,
        criteria: &[RAW, DECODE, JS, RANGE],
    },
    Role {
        id: "sdk",
        name: "SDKs",
        scope: "libraries across languages",
        min_languages: 4,
        criteria: &[
            LANGUAGE_COUNT,
            JS,
            lower("go", "decode in Go", Measure::LanguageDecode("go")),
            lower(
                "python",
                "decode in Python",
                Measure::LanguageDecode("python"),
            ),
            lower(
                "kotlin",
                "decode in Kotlin",
                Measure::LanguageDecode("kotlin"),
            ),
            SPEC,
        ],
    },
];

/// How a value was obtained, which sets its comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A paired ratio with its 95% CI.
    Interval,
    /// Exact (bytes, counts).
    Exact,
    /// One sitting, no interval.
    Sitting,
    /// An ordinal rank (languages, spec status): any difference counts.
    Rank,
}

/// One candidate's value of one criterion.
#[derive(Clone, Debug, PartialEq)]
pub struct Value {
    /// Estimate.
    pub est: f64,
    /// Interval (equal to `est` unless `kind` is [`Kind::Interval`]).
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
    /// How it was obtained.
    pub kind: Kind,
    /// A word for ranks (spec status), else empty.
    pub word: String,
    /// The events (subset or input) it was measured on: every value of a
    /// criterion must share json's, or the comparison is refused.
    pub on: String,
}

impl Value {
    fn point(est: f64, kind: Kind) -> Self {
        Value {
            est,
            lo: est,
            hi: est,
            kind,
            word: String::new(),
            on: String::new(),
        }
    }

    fn on(mut self, on: &str) -> Self {
        self.on = on.to_owned();
        self
    }
}

/// The outcome of comparing `a` with `b` on one criterion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    /// `a` is better, beyond the margin and (for intervals) resolved.
    Better,
    /// `a` is worse.
    Worse,
    /// The difference lies within the margin.
    Equivalent,
    /// Neither: the intervals overlap but do not fit within the margin.
    Undecided,
}

impl Cmp {
    /// The word tables print.
    pub fn word(self) -> &'static str {
        match self {
            Cmp::Better => "better",
            Cmp::Worse => "worse",
            Cmp::Equivalent => "equivalent",
            Cmp::Undecided => "undecided",
        }
    }

    fn flip(self) -> Self {
        match self {
            Cmp::Better => Cmp::Worse,
            Cmp::Worse => Cmp::Better,
            x => x,
        }
    }
}

/// Compares `a` with `b` (rule 2).
pub fn compare(a: &Value, b: &Value, better: Better) -> Cmp {
    let raw = match (a.kind, b.kind) {
        (Kind::Rank, _) | (_, Kind::Rank) => {
            if a.est == b.est {
                Cmp::Equivalent
            } else if a.est < b.est {
                Cmp::Better
            } else {
                Cmp::Worse
            }
        }
        (Kind::Interval, _) | (_, Kind::Interval) => {
            let span = a.hi.max(b.hi) / a.lo.min(b.lo);
            if a.hi < b.lo && b.est / a.est > 1.0 + MARGIN {
                Cmp::Better
            } else if b.hi < a.lo && a.est / b.est > 1.0 + MARGIN {
                Cmp::Worse
            } else if span <= 1.0 + MARGIN {
                Cmp::Equivalent
            } else {
                Cmp::Undecided
            }
        }
        _ => {
            let margin = if a.kind == Kind::Sitting || b.kind == Kind::Sitting {
                SITTING_MARGIN
            } else {
                MARGIN
            };
            let (x, y) = (a.est, b.est);
            if x == y || (x.min(y) > 0.0 && x.max(y) / x.min(y) <= 1.0 + margin) {
                Cmp::Equivalent
            } else if x < y {
                Cmp::Better
            } else {
                Cmp::Worse
            }
        }
    };
    match better {
        Better::Lower => raw,
        Better::Higher => raw.flip(),
    }
}

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
    /// wire stays JSON, the best JSON-text one otherwise).
    pub challenger: Option<String>,
    /// The criteria on which the pick beats the challenger, and those on
    /// which it loses (ids).
    pub deciding: (Vec<&'static str>, Vec<&'static str>),
    /// What would change the pick: each criterion it wins on given no
    /// weight alone, where that changes it; when none does and the wire
    /// stays JSON, all of them together.
    pub change: Vec<Change>,
    /// Size measures of the challenger (or the pick) over the mix grid:
    /// (criterion id, lowest and highest % of json, cells).
    pub mix: Vec<(&'static str, f64, f64, usize)>,
}

impl Decision {
    /// The candidate `profile`.
    pub fn candidate(&self, profile: &str) -> Option<&Candidate> {
        self.candidates.iter().find(|c| c.profile == profile)
    }
}

/// Every role's decision, in [`ROLES`] order.
pub fn recommend(c: &Campaign) -> Vec<Decision> {
    let facts = Facts::gather(c);
    ROLES.iter().map(|r| decide(c, &facts, r)).collect()
}

/// Role-independent facts per profile.
struct Facts {
    profiles: Vec<String>,
    socket: BTreeMap<String, [Option<f64>; 3]>,
    languages: BTreeMap<String, BTreeMap<String, f64>>,
    gates: BTreeMap<String, Vec<String>>,
}

impl Facts {
    fn gather(c: &Campaign) -> Self {
        let host = c.primary_host();
        let mut profiles: Vec<String> = c.profiles(host);
        profiles.extend(c.apart.iter().map(|a| a.profile.clone()));
        profiles.sort();
        profiles.dedup();
        let mut languages: BTreeMap<String, BTreeMap<String, f64>> = BTreeMap::new();
        for (format, cells) in language_matrix(c) {
            for (lang, cell) in LANGUAGES.iter().zip(cells) {
                if let Some((_, ns)) = cell {
                    languages
                        .entry(format.clone())
                        .or_default()
                        .insert((*lang).to_owned(), ns);
                }
            }
        }
        for p in &profiles {
            if c.row(host, Workload::Decode.name(), p, "all", 1).is_some() {
                languages
                    .entry(p.clone())
                    .or_default()
                    .entry("rust".to_owned())
                    .or_insert(f64::NAN);
            }
        }
        // JSON text is the same bytes whatever parses it: other languages
        // read it with json's libraries, so they get json's times.
        if let Some(json) = languages.get(BASELINE).cloned() {
            for p in profiles.iter().filter(|p| is_json_text(c, p)) {
                let own = languages.entry(p.clone()).or_default();
                for (lang, ns) in json.iter().filter(|(l, _)| *l != "rust") {
                    own.insert(lang.clone(), *ns);
                }
            }
        }
        let socket = crate::model::relay::transport_rows(c, host)
            .into_iter()
            .map(|r| (r.profile, r.pct_json))
            .collect();
        let gates = profiles
            .iter()
            .map(|p| (p.clone(), gate_failures(c, p)))
            .collect();
        Facts {
            profiles,
            socket,
            languages,
            gates,
        }
    }

    fn language_count(&self, profile: &str) -> usize {
        self.languages.get(profile).map_or(0, BTreeMap::len)
    }
}

/// The role-independent gates `profile` fails.
fn gate_failures(c: &Campaign, profile: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(a) = c.apart.iter().find(|a| a.profile == profile) {
        let refused = a
            .record
            .as_ref()
            .map(|r| match r.refused.len() {
                1 => " (1 event refused)".to_owned(),
                n => format!(" ({n} events refused)"),
            })
            .unwrap_or_default();
        out.push(format!("cannot carry every corpus event{refused}"));
    }
    let Some(r) = &c.robustness else {
        out.push("no robustness record".to_owned());
        return out;
    };
    let Some(s) = r.subjects.iter().find(|s| s.ours && s.subject == profile) else {
        out.push("no robustness record".to_owned());
        return out;
    };
    let mut failing = 0;
    let mut lossy = 0;
    for (class, counts) in &s.classes {
        for (outcome, n) in &counts.outcomes {
            if outcome.fails_ours(*class) {
                failing += n;
            }
            if *outcome == Outcome::AcceptedLossy {
                lossy += n;
            }
        }
    }
    if failing > 0 {
        out.push(format!("{failing} failing robustness cases"));
    }
    if lossy > 0 {
        out.push(format!("{lossy} silent changes"));
    }
    out
}

/// `profile`'s value of `m`, `None` when not measured.
fn value(c: &Campaign, facts: &Facts, profile: &str, m: Measure) -> Option<Value> {
    let host = c.primary_host();
    match m {
        Measure::SizePct(i) => {
            let v = c.stratum_pcts(profile, "all")?[i]?;
            Some(Value::point(v / 100.0, Kind::Exact).on("subset all"))
        }
        Measure::SocketPct(i) => {
            let v = facts.socket.get(profile)?[i]?;
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
            let (est, lo, hi) = p.triple();
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
    let mut deciding = (Vec::new(), Vec::new());
    let mut change = Vec::new();
    if let (Some(ch), Some(p)) = (
        challenger
            .as_ref()
            .and_then(|n| candidates.iter().find(|x| &x.profile == n)),
        candidates.iter().find(|x| x.profile == pick),
    ) {
        for (k, cmp) in role.criteria.iter().zip(cmps(role, p, ch)) {
            match cmp {
                Some(Cmp::Better) => deciding.0.push(k.id),
                Some(Cmp::Worse) => deciding.1.push(k.id),
                _ => {}
            }
        }
        change = changes(role, &candidates, &deciding.0, &pick, no_change);
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
        deciding,
        change,
        mix,
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
fn mix_spans(c: &Campaign, role: &Role, profile: &str) -> Vec<(&'static str, f64, f64, usize)> {
    let mut out = Vec::new();
    for k in role.criteria {
        let Measure::SizePct(i) = k.measure else {
            continue;
        };
        // Grid measures index SIZE_MEASURES: raw and zstd per event are
        // this file's SizePct(0) and SizePct(1).
        let Some(grid) = c.grids.iter().find(|g| g.measure == i && i < 2) else {
            continue;
        };
        let ratios: Vec<f64> = grid.cells.iter().filter_map(|x| x.ratio(profile)).collect();
        if ratios.is_empty() {
            continue;
        }
        let lo = ratios.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        out.push((k.id, lo, hi, ratios.len()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(est: f64, lo: f64, hi: f64) -> Value {
        Value {
            est,
            lo,
            hi,
            kind: Kind::Interval,
            word: String::new(),
            on: String::new(),
        }
    }

    #[test]
    fn intervals_resolve_only_beyond_the_margin() {
        let json = Value::point(1.0, Kind::Interval);
        assert_eq!(
            compare(&v(1.14, 1.13, 1.15), &json, Better::Lower),
            Cmp::Worse
        );
        assert_eq!(
            compare(&v(0.74, 0.73, 0.79), &json, Better::Lower),
            Cmp::Better
        );
        assert_eq!(
            compare(&v(1.02, 1.01, 1.03), &json, Better::Lower),
            Cmp::Equivalent
        );
        assert_eq!(
            compare(&v(1.03, 0.95, 1.10), &json, Better::Lower),
            Cmp::Undecided
        );
    }

    #[test]
    fn exact_sizes_and_ranks() {
        let a = Value::point(0.849, Kind::Exact);
        let b = Value::point(0.852, Kind::Exact);
        let json = Value::point(1.0, Kind::Exact);
        assert_eq!(compare(&a, &b, Better::Lower), Cmp::Equivalent);
        assert_eq!(compare(&a, &json, Better::Lower), Cmp::Better);
        assert_eq!(compare(&json, &a, Better::Lower), Cmp::Worse);
        let five = Value::point(5.0, Kind::Rank);
        let four = Value::point(4.0, Kind::Rank);
        assert_eq!(compare(&five, &four, Better::Higher), Cmp::Better);
        let s = Value::point(1.2, Kind::Sitting);
        let one = Value::point(1.0, Kind::Exact);
        assert_eq!(compare(&s, &one, Better::Lower), Cmp::Equivalent);
        let s = Value::point(1.6, Kind::Sitting);
        assert_eq!(compare(&s, &one, Better::Lower), Cmp::Worse);
    }

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

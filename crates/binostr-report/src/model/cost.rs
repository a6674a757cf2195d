//! The cost of a million events on the wire, in seconds on a stated link
//! and in dollars at stated prices, for candidates that are (profile,
//! compression, deflater) triples, from the links workload (`links.csv`,
//! unshaped rows: bytes are the same on every link, CPU is not mixed with
//! waiting).
//!
//! - **Relay → client** (REQ → EOSE): link bytes and egress are the
//!   exchange's relay → client bytes per event; relay and client CPU per
//!   event.
//! - **Client → relay** (EVENT → OK): link bytes are the EVENT's and its
//!   OK's; egress is the OK (the relay sends it); relay and client CPU per
//!   published event.
//!
//! Time: `bytes * 8 / rate + relay CPU + client CPU`. Money: `egress GB *
//! $/GB + relay CPU-hours * $/core-hour`. A term whose difference from
//! json's is under [`DECISIVE`] of json's total cannot decide: it counts as
//! no difference. A candidate replaces json only when it saves more than
//! [`SWITCH`] of json's cost at the low ends of the counted terms'
//! intervals.

use crate::fmt::fixed;
use crate::interval::{Ci, Interval};
use crate::model::campaign::Campaign;
use crate::read::links::LinkRow;
use crate::read::transport::Mode;

pub use binostr_records::cost::{CPU, DECISIVE, EGRESS, LINK, PARAMS, Param, Prices, SWITCH};

/// The roles on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// REQ → EOSE: stored events to a client.
    RelayToClient,
    /// EVENT → OK: a client publishes.
    ClientToRelay,
}

/// What one event costs a candidate in one role.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Terms {
    /// Bytes on the link per event, both directions.
    pub link_bytes: f64,
    /// Bytes the relay sends per event.
    pub egress_bytes: f64,
    /// Relay CPU ns per event: median over rounds and its 95 % CI.
    pub relay_cpu_ns: Interval,
    /// Client CPU ns per event: median over rounds and its 95 % CI.
    pub client_cpu_ns: Interval,
}

/// One term of a cost, in the cost's unit per million events.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Term {
    /// What it is.
    pub name: &'static str,
    /// Its value.
    pub value: f64,
    /// Its 95 % CI (a point for byte counts, which are exact).
    pub ci: Ci,
}

impl Term {
    /// An exact term.
    pub fn exact(name: &'static str, value: f64) -> Term {
        Term {
            name,
            value,
            ci: Ci {
                lo: value,
                hi: value,
            },
        }
    }

    /// A term measured as `i`, scaled by `k`.
    fn measured(name: &'static str, i: Interval, k: f64) -> Term {
        Term {
            name,
            value: i.est * k,
            ci: Ci {
                lo: i.lo * k,
                hi: i.hi * k,
            },
        }
    }
}

impl Terms {
    /// Seconds per million events on `p`'s link: transfer, relay CPU,
    /// client CPU.
    pub fn seconds(&self, p: &Prices) -> [Term; 3] {
        [
            Term::exact("transfer", p.transfer_s_per_million(self.link_bytes)),
            Term::measured("relay CPU", self.relay_cpu_ns, 1e-3),
            Term::measured("client CPU", self.client_cpu_ns, 1e-3),
        ]
    }

    /// Dollars per million events at `p`'s prices: egress, relay CPU.
    pub fn dollars(&self, p: &Prices) -> [Term; 2] {
        [
            Term::exact("egress", p.egress_usd_per_million(self.egress_bytes)),
            Term::measured(
                "relay CPU",
                self.relay_cpu_ns,
                1e6 * 1e-9 / 3600.0 * p.cpu_usd_per_core_hour,
            ),
        ]
    }
}

/// A candidate: a profile in one compression mode with one deflater.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// Profile id.
    pub profile: String,
    /// The compression mode.
    pub mode: Mode,
    /// The deflater; empty for `none`.
    pub deflater: String,
    /// Its costs per event.
    pub terms: Terms,
}

impl Candidate {
    /// `` mode (deflater)``: the label after the profile, space first.
    pub fn setting(&self) -> String {
        if self.deflater.is_empty() {
            format!(" {}", self.mode.name())
        } else {
            format!(" {} ({})", self.mode.name(), self.deflater)
        }
    }

    /// `` `profile` mode (deflater) ``: the label with the id as code.
    pub fn code(&self) -> String {
        format!("`{}`{}", self.profile, self.setting())
    }

    /// `profile mode (deflater)`.
    pub fn label(&self) -> String {
        format!("{}{}", self.profile, self.setting())
    }
}

/// The candidates of `role`: every unshaped row measured without added
/// round trip.
pub fn candidates(rows: &[LinkRow], role: Role) -> Vec<Candidate> {
    rows.iter()
        .filter(|r| r.rate_mbit.is_none() && r.rtt_ms == 0.0 && r.events > 0)
        .map(|r| Candidate {
            profile: r.profile.clone(),
            mode: r.mode,
            deflater: r.deflate_impl.clone(),
            terms: match role {
                Role::RelayToClient => {
                    let b = r.s2c_bytes as f64 / r.events as f64;
                    Terms {
                        link_bytes: b,
                        egress_bytes: b,
                        relay_cpu_ns: r.relay_cpu_ns,
                        client_cpu_ns: r.client_cpu_ns,
                    }
                }
                Role::ClientToRelay => Terms {
                    link_bytes: r.event_c2s_bytes + r.ok_s2c_bytes,
                    egress_bytes: r.ok_s2c_bytes,
                    relay_cpu_ns: r.event_relay_cpu_ns,
                    client_cpu_ns: r.event_client_cpu_ns,
                },
            },
        })
        .collect()
}

/// A candidate's saving over a baseline: the terms that may decide, and
/// their sum, in the unit of the terms and in % of the baseline's total.
#[derive(Clone, Debug, PartialEq)]
pub struct Saving {
    /// Per term: the baseline's value minus the candidate's; 0 where the
    /// difference is under the decisive share.
    pub counted: Vec<Term>,
    /// Their sum.
    pub total: f64,
    /// The sum in % of the baseline's total.
    pub pct: f64,
    /// The least the counted terms save within their intervals (each
    /// term's baseline low minus the candidate's high), in % of the
    /// baseline's total: a switch must clear the threshold with it.
    pub pct_low: f64,
    /// The baseline's total.
    pub whole: f64,
}

/// What `candidate` saves over `baseline` (term by term, same order),
/// counting only differences of at least `decisive_pct` of the baseline's
/// total that the two terms' intervals resolve (they do not overlap).
pub fn saving(baseline: &[Term], candidate: &[Term], decisive_pct: f64) -> Saving {
    let whole: f64 = baseline.iter().map(|t| t.value).sum();
    let mut low = 0.0;
    let counted: Vec<Term> = baseline
        .iter()
        .zip(candidate)
        .map(|(b, c)| {
            let d = b.value - c.value;
            let resolved = b.ci.hi < c.ci.lo || c.ci.hi < b.ci.lo;
            let counts = resolved && d.abs() * 100.0 >= decisive_pct * whole;
            if counts {
                low += b.ci.lo - c.ci.hi;
            }
            Term::exact(b.name, if counts { d } else { 0.0 })
        })
        .collect();
    let total = counted.iter().map(|t| t.value).sum();
    let pct = |x: f64| if whole > 0.0 { x / whole * 100.0 } else { 0.0 };
    Saving {
        pct: pct(total),
        pct_low: pct(low),
        counted,
        total,
        whole,
    }
}

/// The link rate, Mbit/s, at which `a` and `b` take the same time (more
/// bytes and less CPU on one side); `None` when one is faster at every rate.
pub fn break_even_mbit(a: &Terms, b: &Terms) -> Option<f64> {
    let bytes = a.link_bytes - b.link_bytes;
    let cpu_ns =
        (b.relay_cpu_ns.est + b.client_cpu_ns.est) - (a.relay_cpu_ns.est + a.client_cpu_ns.est);
    let rate = bytes * 8.0 / (cpu_ns * 1e-9) / 1e6;
    (bytes != 0.0 && cpu_ns != 0.0 && rate > 0.0).then_some(rate)
}

/// The egress price, $/GB, at which `a` and `b` cost the same at `cpu`
/// $/core-hour; `None` when one is cheaper at every price.
pub fn break_even_egress(a: &Terms, b: &Terms, cpu_usd_per_core_hour: f64) -> Option<f64> {
    let gb = (a.egress_bytes - b.egress_bytes) * 1e6 / 1e9;
    let cpu_usd =
        (b.relay_cpu_ns.est - a.relay_cpu_ns.est) * 1e6 * 1e-9 / 3600.0 * cpu_usd_per_core_hour;
    let price = cpu_usd / gb;
    (gb != 0.0 && price > 0.0).then_some(price)
}

/// The unit a role's pick is decided in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Seconds per million events on the stated link.
    Seconds,
    /// Dollars per million events at the stated prices.
    Dollars,
}

impl Role {
    /// Both roles, in report order.
    pub const ALL: [Role; 2] = [Role::RelayToClient, Role::ClientToRelay];

    /// Its id in CSVs and file names.
    pub fn id(self) -> &'static str {
        match self {
            Role::RelayToClient => "relay-to-client",
            Role::ClientToRelay => "client-to-relay",
        }
    }

    /// Its name in text.
    pub fn name(self) -> &'static str {
        match self {
            Role::RelayToClient => "relay → client (REQ → EOSE)",
            Role::ClientToRelay => "client → relay (EVENT → OK)",
        }
    }

    /// Who pays, declared up front: the relay pays egress and CPU for what
    /// it serves; a publishing client waits for its OK.
    pub fn unit(self) -> Unit {
        match self {
            Role::RelayToClient => Unit::Dollars,
            Role::ClientToRelay => Unit::Seconds,
        }
    }
}

/// A candidate's terms in `unit` at `p`.
pub fn cost_terms(t: &Terms, unit: Unit, p: &Prices) -> Vec<Term> {
    match unit {
        Unit::Seconds => t.seconds(p).to_vec(),
        Unit::Dollars => t.dollars(p).to_vec(),
    }
}

/// The sum of a candidate's terms in `unit` at `p`.
pub fn total(t: &Terms, unit: Unit, p: &Prices) -> f64 {
    cost_terms(t, unit, p).iter().map(|t| t.value).sum()
}

/// A role's two answers: keep JSON or switch, and the binary candidate to
/// adopt if it switches.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The role.
    pub role: Role,
    /// The unit it is decided in.
    pub unit: Unit,
    /// The cheapest candidate that is NIP-01 JSON text (no switching cost).
    pub json: Candidate,
    /// The cheapest binary candidate.
    pub binary: Candidate,
    /// What `binary` saves over `json`, counting decisive terms only.
    pub saving: Saving,
    /// Whether the saving exceeds the switching threshold.
    pub switch: bool,
    /// The link rate at which the two take the same time.
    pub break_even_mbit: Option<f64>,
    /// The egress price at which the two cost the same.
    pub break_even_egress: Option<f64>,
    /// The cheapest candidate of each other binary profile over which
    /// `binary` saves nothing decisive: the model does not tell them
    /// apart. Cheapest first.
    pub rivals: Vec<Candidate>,
}

/// A saving in % with one decimal, or two where one would round it onto
/// the switching threshold `switch_pct`.
pub fn pct_text(x: f64, switch_pct: f64) -> String {
    let one = fixed(x, 1);
    if one.parse::<f64>().is_ok_and(|r| r == switch_pct) && x != switch_pct {
        fixed(x, 2)
    } else {
        one
    }
}

impl Answer {
    /// The candidate it picks: the binary one when it switches.
    pub fn pick(&self) -> &Candidate {
        if self.switch {
            &self.binary
        } else {
            &self.json
        }
    }

    /// The answer in words at `p`: the verdict, both candidates' costs,
    /// the decisive terms and where it flips. Profile ids in backticks.
    pub fn text(&self, p: &Prices) -> String {
        let (unit, decimals) = self.unit.words(p);
        let (other_unit, other_decimals) = self.unit.other().words(p);
        let in_other = |c: &Candidate| fixed(total(&c.terms, self.unit.other(), p), other_decimals);
        let terms: Vec<String> = self
            .saving
            .counted
            .iter()
            .map(|t| {
                if t.value == 0.0 {
                    format!("{} not decisive", t.name)
                } else {
                    format!("{} {}", t.name, fixed(t.value, decimals))
                }
            })
            .collect();
        let bytes_only =
            self.saving.counted.first().map_or(0.0, |t| t.value) / self.saving.whole * 100.0;
        let verdict = if self.switch {
            format!("switch to {}", self.binary.code())
        } else {
            format!("keep JSON ({})", self.json.code())
        };
        let (json, binary) = (&self.json.terms, &self.binary.terms);
        let rivals = if self.rivals.is_empty() {
            "It saves a decisive term over the cheapest candidate of every other binary profile."
                .to_owned()
        } else {
            let names: Vec<String> = self
                .rivals
                .iter()
                .map(|r| {
                    format!(
                        "{} ({})",
                        r.code(),
                        fixed(total(&r.terms, self.unit, p), decimals)
                    )
                })
                .collect();
            format!(
                "The model does not tell it apart from {}: no term of the difference reaches \
                 the decisive share with disjoint intervals.",
                names.join(", ")
            )
        };
        let rate =
            self.break_even_mbit
                .map_or("none (one is faster at every rate)".to_owned(), |r| {
                    let side = if binary.link_bytes < json.link_bytes {
                        "below"
                    } else {
                        "above"
                    };
                    format!(
                        "{} Mbit/s (the binary candidate is faster {side} it)",
                        fixed(r, 0)
                    )
                });
        let egress =
            self.break_even_egress
                .map_or("none (one is cheaper at every price)".to_owned(), |e| {
                    let side = if binary.egress_bytes < json.egress_bytes {
                        "above"
                    } else {
                        "below"
                    };
                    format!(
                        "{} $/GB (the binary candidate is cheaper {side} it)",
                        fixed(e, 4)
                    )
                });
        format!(
            "Decided in {unit}: {verdict}. The cheapest JSON candidate is {} at {}, the \
             cheapest binary one {} at {}; the binary one saves {} ({} % of JSON's, at least {} % \
             within the intervals; {}) against a switching threshold of {} %, which the least \
             saving must exceed. On the byte term alone it saves {} %. Break-even \
             link rate: {rate}; break-even egress price: {egress}. Both candidates are the \
             minimum over every measured candidate of their kind, which favours the kind with \
             more candidates when their CPU terms are within noise. {rivals} In {other_unit}, the \
             binary candidate costs {} against JSON's {}.",
            self.json.code(),
            fixed(total(json, self.unit, p), decimals),
            self.binary.code(),
            fixed(total(binary, self.unit, p), decimals),
            fixed(self.saving.total, decimals),
            pct_text(self.saving.pct, SWITCH.default),
            pct_text(self.saving.pct_low, SWITCH.default),
            terms.join(", "),
            fixed(SWITCH.default, 0),
            pct_text(bytes_only, SWITCH.default),
            in_other(&self.binary),
            in_other(&self.json),
        )
    }
}

/// The answer of `role` over `cands` decided in `unit`, `is_json` saying
/// which profiles are JSON text; `None` without both kinds of candidate.
/// The binary one switches when its saving's low bound exceeds
/// `switch_pct`.
pub fn answer_in(
    unit: Unit,
    cands: &[Candidate],
    role: Role,
    is_json: &dyn Fn(&str) -> bool,
    p: &Prices,
    decisive_pct: f64,
    switch_pct: f64,
) -> Option<Answer> {
    let cheapest = |json: bool| {
        cands
            .iter()
            .filter(|c| is_json(&c.profile) == json)
            .map(|c| (total(&c.terms, unit, p), c.label(), c))
            .min_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(&b.1)))
            .map(|(_, _, c)| c.clone())
    };
    let (json, binary) = (cheapest(true)?, cheapest(false)?);
    let terms = |c: &Candidate| cost_terms(&c.terms, unit, p);
    let mut rivals: Vec<(f64, Candidate)> = Vec::new();
    for c in cands
        .iter()
        .filter(|c| !is_json(&c.profile) && c.profile != binary.profile)
    {
        let t = total(&c.terms, unit, p);
        match rivals.iter_mut().find(|(_, r)| r.profile == c.profile) {
            Some(r) if t < r.0 => *r = (t, c.clone()),
            Some(_) => {}
            None => rivals.push((t, c.clone())),
        }
    }
    rivals.retain(|(_, r)| saving(&terms(r), &terms(&binary), decisive_pct).total <= 0.0);
    rivals.sort_by(|a, b| {
        a.0.total_cmp(&b.0)
            .then_with(|| a.1.label().cmp(&b.1.label()))
    });
    let saving = saving(&terms(&json), &terms(&binary), decisive_pct);
    Some(Answer {
        role,
        unit,
        switch: saving.pct_low > switch_pct,
        break_even_mbit: break_even_mbit(&json.terms, &binary.terms),
        break_even_egress: break_even_egress(&json.terms, &binary.terms, p.cpu_usd_per_core_hour),
        json,
        binary,
        saving,
        rivals: rivals.into_iter().map(|(_, c)| c).collect(),
    })
}

/// Whether `id` is JSON text in `c` (json, or the registry's
/// `nostr-baseline` family): a candidate with no switching cost.
pub fn is_json(c: &Campaign, id: &str) -> bool {
    id == crate::model::summary::BASELINE || crate::model::relay::is_json_text(c, id)
}

/// The candidates of `role` whose profile `admit` lets through (the
/// recommendation's gates for the role).
pub fn admitted(rows: &[LinkRow], role: Role, admit: &dyn Fn(&str) -> bool) -> Vec<Candidate> {
    let mut out = candidates(rows, role);
    out.retain(|c| admit(&c.profile));
    out
}

/// `role`'s answer over `c`'s links rows of the profiles `admit` lets
/// through, decided in `unit` at `p` and the default thresholds.
pub fn campaign_answer(
    c: &Campaign,
    admit: &dyn Fn(&str) -> bool,
    role: Role,
    unit: Unit,
    p: &Prices,
) -> Option<Answer> {
    answer_in(
        unit,
        &admitted(&c.links, role, admit),
        role,
        &|id: &str| is_json(c, id),
        p,
        DECISIVE.default,
        SWITCH.default,
    )
}

/// A role's picks over link rate × egress price, the CPU price at its
/// default: the pick in the role's own unit, and in the other unit.
#[derive(Clone, Debug, PartialEq)]
pub struct PickMap {
    /// The role.
    pub role: Role,
    /// Link rates, Mbit/s, log-spaced over [`LINK`]'s range.
    pub links: Vec<f64>,
    /// Egress prices, $/GB, over [`EGRESS`]'s range.
    pub egress: Vec<f64>,
    /// Per egress price, per link rate: the pick's label in the role's
    /// unit, and in the other unit.
    pub cells: Vec<Vec<[String; 2]>>,
}

impl PickMap {
    /// The labels picked in the role's own unit, in first-seen order over
    /// the cells.
    pub fn picks(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for c in self.cells.iter().flatten() {
            if !out.contains(&c[0]) {
                out.push(c[0].clone());
            }
        }
        out
    }
}

impl Unit {
    /// Its name in CSVs and text.
    pub fn id(self) -> &'static str {
        match self {
            Unit::Seconds => "seconds",
            Unit::Dollars => "dollars",
        }
    }

    /// `s per million events at R Mbit/s` or `$ per million events at
    /// E $/GB and C $/core-hour`, and the decimals its values print with.
    pub fn words(self, p: &Prices) -> (String, usize) {
        match self {
            Unit::Seconds => (format!("s per million events at {} Mbit/s", p.link_mbit), 1),
            Unit::Dollars => (
                format!(
                    "$ per million events at {} $/GB and {} $/core-hour",
                    p.egress_usd_per_gb, p.cpu_usd_per_core_hour
                ),
                4,
            ),
        }
    }

    /// The other unit.
    pub fn other(self) -> Unit {
        match self {
            Unit::Seconds => Unit::Dollars,
            Unit::Dollars => Unit::Seconds,
        }
    }
}

/// Cells per axis of the pick maps the summary's plots and the paper draw.
pub const MAP_CELLS: usize = 49;

/// `role`'s [`PickMap`] on an `n` × `n` grid at the default thresholds;
/// `None` without both kinds of candidate.
pub fn pick_map(
    cands: &[Candidate],
    role: Role,
    is_json: &dyn Fn(&str) -> bool,
    n: usize,
) -> Option<PickMap> {
    let step = |i: usize| i as f64 / (n - 1).max(1) as f64;
    let links: Vec<f64> = (0..n)
        .map(|i| LINK.low * (LINK.high / LINK.low).powf(step(i)))
        .collect();
    let egress: Vec<f64> = (0..n)
        .map(|i| EGRESS.low + (EGRESS.high - EGRESS.low) * step(i))
        .collect();
    let mut cells = Vec::with_capacity(n);
    for &e in &egress {
        let mut row = Vec::with_capacity(n);
        for &l in &links {
            let p = Prices {
                link_mbit: l,
                egress_usd_per_gb: e,
                ..Prices::default()
            };
            let pick = |unit: Unit| {
                answer_in(
                    unit,
                    cands,
                    role,
                    is_json,
                    &p,
                    DECISIVE.default,
                    SWITCH.default,
                )
                .map(|a| a.pick().label())
            };
            row.push([pick(role.unit())?, pick(role.unit().other())?]);
        }
        cells.push(row);
    }
    Some(PickMap {
        role,
        links,
        egress,
        cells,
    })
}

/// The model as data for the page's `cost.js`: the parameters, and per
/// role its deciding unit and the candidates `admit` lets through, with
/// their terms per event. Floats
/// are written as Rust holds them, so the page computes on the same numbers.
pub fn export(
    rows: &[LinkRow],
    is_json: &dyn Fn(&str) -> bool,
    admit: &dyn Fn(Role, &str) -> bool,
) -> serde_json::Value {
    use serde_json::json;
    let interval = |i: Interval| json!({"est": i.est, "lo": i.lo, "hi": i.hi});
    let params: Vec<serde_json::Value> = PARAMS
        .iter()
        .map(|q| {
            json!({"id": q.id, "unit": q.unit, "default": q.default, "low": q.low,
                   "high": q.high, "source": q.source})
        })
        .collect();
    let roles: Vec<serde_json::Value> = Role::ALL
        .iter()
        .map(|&role| {
            let cands: Vec<serde_json::Value> = admitted(rows, role, &|id| admit(role, id))
                .iter()
                .map(|c| {
                    json!({
                        "label": c.label(),
                        "profile": c.profile,
                        "mode": c.mode.name(),
                        "deflater": c.deflater,
                        "is_json": is_json(&c.profile),
                        "terms": {
                            "link_bytes": c.terms.link_bytes,
                            "egress_bytes": c.terms.egress_bytes,
                            "relay_cpu_ns": interval(c.terms.relay_cpu_ns),
                            "client_cpu_ns": interval(c.terms.client_cpu_ns),
                        },
                    })
                })
                .collect();
            json!({"id": role.id(), "name": role.name(), "unit": role.unit().id(),
                   "candidates": cands})
        })
        .collect();
    json!({"params": params, "roles": roles})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(x: f64) -> Interval {
        Interval {
            est: x,
            lo: x,
            hi: x,
        }
    }

    fn terms(link: f64, egress: f64, relay: f64, client: f64) -> Terms {
        Terms {
            link_bytes: link,
            egress_bytes: egress,
            relay_cpu_ns: point(relay),
            client_cpu_ns: point(client),
        }
    }

    #[test]
    fn seconds_and_dollars_by_hand() {
        // 1250 B at 10 Mbit/s: 1 ms per event, 1000 s per million.
        let t = terms(1250.0, 1000.0, 36_000.0, 4_000.0);
        let p = Prices::default();
        let s = t.seconds(&p);
        assert!((s[0].value - 1000.0).abs() < 1e-9);
        assert!((s[1].value - 36.0).abs() < 1e-9);
        assert!((s[2].value - 4.0).abs() < 1e-9);
        // 1 GB per million at 0.09 $/GB; 36 s = 0.01 h at 0.0425 $/h.
        let d = t.dollars(&p);
        assert!((d[0].value - 0.09).abs() < 1e-12);
        assert!((d[1].value - 0.000425).abs() < 1e-12);
    }

    #[test]
    fn a_term_under_the_decisive_share_cannot_decide() {
        let json = [
            Term::exact("transfer", 1000.0),
            Term::exact("relay CPU", 10.0),
        ];
        // Saves 0.9 % on CPU only: under 1 %, so nothing counts.
        let cpu_only = [
            Term::exact("transfer", 1000.0),
            Term::exact("relay CPU", 0.9),
        ];
        let s = saving(&json, &cpu_only, 1.0);
        assert_eq!(s.total, 0.0);
        assert_eq!(s.pct, 0.0);
        // With no decisive share it would count.
        assert!(saving(&json, &cpu_only, 0.0).total > 9.0);
        // A 5 % transfer saving counts, and a 0.5 % loss on CPU does not.
        let bytes = [
            Term::exact("transfer", 950.0),
            Term::exact("relay CPU", 15.0),
        ];
        let s = saving(&json, &bytes, 1.0);
        assert_eq!(s.total, 50.0);
        assert!((s.pct - 50.0 / 1010.0 * 100.0).abs() < 1e-9);
    }

    /// Monotone: a candidate no worse than another on every term is never
    /// behind it, whichever terms are kept.
    #[test]
    fn dropping_terms_never_puts_a_dominated_candidate_ahead() {
        let mut seed = 0x62696e6f_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % 10_000) as f64
        };
        let p = Prices::default();
        for _ in 0..2000 {
            let better = terms(next(), next(), next(), next());
            let worse = terms(
                better.link_bytes + next(),
                better.egress_bytes + next(),
                better.relay_cpu_ns.est + next(),
                better.client_cpu_ns.est + next(),
            );
            let json = terms(next(), next(), next(), next());
            for keep in 0u8..8 {
                let pick = |t: &Terms| -> Vec<Term> {
                    t.seconds(&p)
                        .into_iter()
                        .enumerate()
                        .filter(|(i, _)| keep & (1 << i) != 0)
                        .map(|(_, t)| t)
                        .collect()
                };
                let (j, b, w) = (pick(&json), pick(&better), pick(&worse));
                for decisive in [0.0, 1.0, 5.0] {
                    let (sb, sw) = (saving(&j, &b, decisive), saving(&j, &w, decisive));
                    assert!(
                        sb.total >= sw.total,
                        "keep {keep:03b}, decisive {decisive}: {sb:?} < {sw:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn break_evens_by_hand() {
        // a: 500 B more, 40 µs less CPU: equal at 500*8 bits / 40 µs = 100 Mbit/s.
        let a = terms(1500.0, 1500.0, 10_000.0, 0.0);
        let b = terms(1000.0, 1000.0, 50_000.0, 0.0);
        let r = break_even_mbit(&a, &b).unwrap();
        assert!((r - 100.0).abs() < 1e-9, "{r}");
        // One both smaller and cheaper: no break-even.
        assert_eq!(
            break_even_mbit(&b, &terms(900.0, 900.0, 10_000.0, 0.0)),
            None
        );
        // 0.5 GB more per million against 40 s of CPU at 0.0425 $/h:
        // 40/3600*0.0425/0.5 $/GB.
        let e = break_even_egress(&a, &b, 0.0425).unwrap();
        assert!((e - 40.0 / 3600.0 * 0.0425 / 0.5).abs() < 1e-12, "{e}");
    }

    fn candidate(profile: &str, mode: &str, t: Terms) -> Candidate {
        let mode = Mode::from_name(mode).unwrap();
        Candidate {
            profile: profile.into(),
            mode,
            deflater: if mode == Mode::None { "" } else { "zlib-1" }.into(),
            terms: t,
        }
    }

    #[test]
    fn the_answer_compares_the_cheapest_of_each_kind() {
        let cands = [
            candidate("json", "none", terms(1600.0, 1600.0, 2_000.0, 5_000.0)),
            candidate("json", "deflate", terms(900.0, 900.0, 30_000.0, 20_000.0)),
            candidate("bin", "none", terms(1000.0, 1000.0, 1_000.0, 4_000.0)),
            candidate("bin", "deflate", terms(800.0, 800.0, 33_000.0, 11_000.0)),
        ];
        let is_json = |p: &str| p == "json";
        let p = Prices::default();
        let a = answer_in(
            Unit::Dollars,
            &cands,
            Role::RelayToClient,
            &is_json,
            &p,
            1.0,
            10.0,
        )
        .unwrap();
        // Dollars: egress dominates; json deflate and bin deflate are the cheapest.
        assert_eq!(a.json.label(), "json deflate (zlib-1)");
        assert_eq!(a.binary.label(), "bin deflate (zlib-1)");
        assert!(a.switch, "{:?}", a.saving);
        assert!((a.saving.pct - 11.1).abs() < 0.1, "{:?}", a.saving);
        // bin deflate is smaller and costs more CPU: equal at some rate.
        assert!(a.break_even_mbit.is_none(), "smaller and less CPU in total");
        let strict = answer_in(
            Unit::Dollars,
            &cands,
            Role::RelayToClient,
            &is_json,
            &p,
            1.0,
            20.0,
        )
        .unwrap();
        assert!(!strict.switch);
    }

    #[test]
    fn a_saving_next_to_the_threshold_keeps_its_second_decimal() {
        assert_eq!(pct_text(9.99, 10.0), "9.99");
        assert_eq!(pct_text(10.04, 10.0), "10.04");
        assert_eq!(pct_text(10.0, 10.0), "10.0");
        assert_eq!(pct_text(15.98, 10.0), "16.0");
    }

    #[test]
    fn a_switch_must_clear_the_threshold_within_the_intervals() {
        let t = |name, value: f64, lo: f64, hi: f64| Term {
            name,
            value,
            ci: Ci { lo, hi },
        };
        let json = [
            Term::exact("transfer", 800.0),
            t("relay CPU", 200.0, 190.0, 210.0),
        ];
        // 11 % saved at the medians, 8 % at the interval ends (190 - 110).
        let bin = [
            Term::exact("transfer", 800.0),
            t("relay CPU", 90.0, 80.0, 110.0),
        ];
        let s = saving(&json, &bin, 1.0);
        assert!((s.pct - 11.0).abs() < 1e-9, "{s:?}");
        assert!((s.pct_low - 8.0).abs() < 1e-9, "{s:?}");
        // Exact terms: the least saving is the saving.
        let exact = saving(&json[..1], &[Term::exact("transfer", 800.0)], 1.0);
        assert_eq!(exact.pct, exact.pct_low);
        let cands = [
            candidate("json", "none", terms(1000.0, 1000.0, 100_000.0, 0.0)),
            candidate(
                "bin",
                "none",
                Terms {
                    relay_cpu_ns: Interval {
                        est: 40_000.0,
                        lo: 30_000.0,
                        hi: 95_000.0,
                    },
                    ..terms(1000.0, 1000.0, 0.0, 0.0)
                },
            ),
        ];
        let p = Prices::default();
        let a = |switch| {
            answer_in(
                Unit::Seconds,
                &cands,
                Role::ClientToRelay,
                &|p: &str| p == "json",
                &p,
                1.0,
                switch,
            )
            .unwrap()
        };
        // 60 of 900 s at the medians (6.7 %), 5 at the ends (0.6 %).
        assert!(a(0.5).switch && !a(1.0).switch, "{:?}", a(1.0).saving);
    }

    #[test]
    fn rivals_are_the_binary_profiles_the_model_does_not_tell_apart() {
        let cands = [
            candidate("json", "deflate", terms(900.0, 900.0, 30_000.0, 20_000.0)),
            candidate("bin", "deflate", terms(800.0, 800.0, 33_000.0, 11_000.0)),
            // 0.5 % more bytes: under the decisive share, a rival.
            candidate("near", "deflate", terms(804.0, 804.0, 33_000.0, 11_000.0)),
            // Its plain mode is dearer and does not list it twice.
            candidate("near", "none", terms(1000.0, 1000.0, 1_000.0, 4_000.0)),
            // 10 % more bytes: `bin` saves a decisive term over it.
            candidate("far", "deflate", terms(880.0, 880.0, 33_000.0, 11_000.0)),
        ];
        let a = answer_in(
            Unit::Dollars,
            &cands,
            Role::RelayToClient,
            &|p: &str| p == "json",
            &Prices::default(),
            1.0,
            10.0,
        )
        .unwrap();
        assert_eq!(a.binary.label(), "bin deflate (zlib-1)");
        let rivals: Vec<String> = a.rivals.iter().map(Candidate::label).collect();
        assert_eq!(rivals, ["near deflate (zlib-1)"]);
        assert!(
            a.text(&Prices::default())
                .contains("does not tell it apart from `near`")
        );
    }

    #[test]
    fn the_map_flips_once_at_the_break_even_rate() {
        // The binary one: 40 % fewer bytes, 200 µs more CPU per event.
        let json = candidate("json", "none", terms(1000.0, 1000.0, 10_000.0, 10_000.0));
        let bin = candidate("bin", "none", terms(600.0, 600.0, 110_000.0, 110_000.0));
        let cands = [json.clone(), bin.clone()];
        let is_json = |id: &str| id == "json";
        let map = pick_map(&cands, Role::ClientToRelay, &is_json, 25).unwrap();
        assert_eq!(map.links.len(), 25);
        assert!((map.links[0] - LINK.low).abs() < 1e-9);
        assert!((map.links[24] - LINK.high).abs() < 1e-6);
        let even = break_even_mbit(&json.terms, &bin.terms).unwrap();
        for row in &map.cells {
            // Seconds decide client → relay: binary below the break-even
            // rate (with margin for the switching threshold), json above.
            let picks: Vec<&str> = row.iter().map(|c| c[0].as_str()).collect();
            assert_eq!(picks[0], bin.label());
            assert_eq!(picks[24], json.label());
            let flips = picks.windows(2).filter(|w| w[0] != w[1]).count();
            assert_eq!(flips, 1, "{picks:?}");
            let at = picks.iter().position(|p| *p == json.label()).unwrap();
            assert!(
                map.links[at] > even * 0.1 && map.links[at - 1] < even,
                "{even}"
            );
        }
        // Every row is the same in seconds: the egress price is not a term.
        assert!(
            map.cells
                .iter()
                .all(|r| r == &map.cells[0]
                    || r.iter().zip(&map.cells[0]).all(|(a, b)| a[0] == b[0]))
        );
    }

    #[test]
    fn a_difference_the_intervals_do_not_resolve_cannot_decide() {
        let cpu = |est: f64, lo: f64, hi: f64| Term {
            name: "relay CPU",
            value: est,
            ci: Ci { lo, hi },
        };
        let json = [Term::exact("transfer", 100.0), cpu(100.0, 80.0, 120.0)];
        // 30 % less CPU, but its interval reaches json's.
        let noisy = [Term::exact("transfer", 100.0), cpu(70.0, 50.0, 85.0)];
        assert_eq!(saving(&json, &noisy, 1.0).total, 0.0);
        // The same saving, resolved.
        let resolved = [Term::exact("transfer", 100.0), cpu(70.0, 60.0, 75.0)];
        assert_eq!(saving(&json, &resolved, 1.0).total, 30.0);
    }
    /// The page computes on exactly the model's numbers: every role's
    /// candidates come back from the exported JSON text bit for bit.
    #[test]
    fn the_export_round_trips() {
        use crate::read::links::{test_line as line, test_rows};
        let rows = test_rows(&[
            line(("json", "none", "", "unshaped", 0.0), 0.002, None, 743.7),
            line(
                ("b", "deflate", "zlib-1", "unshaped", 0.0),
                0.003,
                None,
                401.3,
            ),
            line(("b", "none", "", "10mbit", 0.0), 0.05, None, 500.0),
            line(("out", "none", "", "unshaped", 0.0), 0.002, None, 300.0),
        ]);
        let is_json = |p: &str| p == "json";
        // `out` fails relay → client's gates only.
        let admit = |role: Role, p: &str| !(role == Role::RelayToClient && p == "out");
        let text = serde_json::to_string(&export(&rows, &is_json, &admit)).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["params"].as_array().unwrap().len(), PARAMS.len());
        for (q, e) in PARAMS.iter().zip(v["params"].as_array().unwrap()) {
            assert_eq!(e["id"], q.id);
            assert_eq!(e["default"].as_f64(), Some(q.default));
            assert_eq!(
                (e["low"].as_f64(), e["high"].as_f64()),
                (Some(q.low), Some(q.high))
            );
        }
        let interval = |e: &serde_json::Value| Interval {
            est: e["est"].as_f64().unwrap(),
            lo: e["lo"].as_f64().unwrap(),
            hi: e["hi"].as_f64().unwrap(),
        };
        for (role, e) in Role::ALL.iter().zip(v["roles"].as_array().unwrap()) {
            assert_eq!(e["id"], role.id());
            assert_eq!(e["unit"], role.unit().id());
            let back: Vec<Candidate> = e["candidates"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| {
                    let t = &c["terms"];
                    let k = Candidate {
                        profile: c["profile"].as_str().unwrap().into(),
                        mode: Mode::from_name(c["mode"].as_str().unwrap()).unwrap(),
                        deflater: c["deflater"].as_str().unwrap().into(),
                        terms: Terms {
                            link_bytes: t["link_bytes"].as_f64().unwrap(),
                            egress_bytes: t["egress_bytes"].as_f64().unwrap(),
                            relay_cpu_ns: interval(&t["relay_cpu_ns"]),
                            client_cpu_ns: interval(&t["client_cpu_ns"]),
                        },
                    };
                    assert_eq!(c["label"], k.label());
                    assert_eq!(c["is_json"], is_json(&k.profile));
                    k
                })
                .collect();
            // The shaped row is no candidate, nor a gated-out profile.
            let want = if *role == Role::RelayToClient { 2 } else { 3 };
            assert_eq!(back.len(), want);
            assert_eq!(back, admitted(&rows, *role, &|p| admit(*role, p)));
        }
    }
}

//! The `kind-other` stratum composed from its sub-strata (`docs/RESULTS.md`,
//! "Strata and the traffic mix").
//!
//! The mix states the published shares of kinds inside `kind-other`
//! ([`binostr_records::MixStratum::within`]). Each published kind the corpus
//! holds weighs its share; the published kinds it lacks and the share no
//! published kind accounts for go to `kind-other-rest` (the corpus's other
//! kinds the source does not publish). A campaign without those sub-strata,
//! or whose mix states no shares inside, composes `kind-other` as one
//! stratum, the corpus's own mix of other kinds.

use binostr_records::{Mix, Subset};

use crate::fmt::fixed;
use crate::model::mix::{NOT_MEASURED, SizeSource, TIME_WORKLOADS, Weight};
use crate::model::paired::Rounds;
use crate::model::summary::BASELINE;

/// The stratum split into sub-strata.
pub const OTHER: &str = "kind-other";

/// The sub-stratum of the kinds the source does not publish.
pub fn rest() -> String {
    Subset::KindOtherRest.name()
}

/// A published kind inside `kind-other`.
#[derive(Clone, Debug, PartialEq)]
pub struct Published {
    /// Event kind.
    pub kind: u16,
    /// Published share of all events, 0..=1.
    pub share: f64,
    /// json's events in its sub-stratum (0: the corpus lacks it).
    pub events: f64,
}

impl Published {
    /// Its sub-stratum, `kind-N`.
    pub fn stratum(&self) -> String {
        Subset::Kind(self.kind).name()
    }

    fn held(&self) -> bool {
        self.events > 0.0
    }
}

/// How `kind-other` is composed on one host.
#[derive(Clone, Debug, PartialEq)]
pub struct OtherKinds {
    /// `kind-other`'s share of all events.
    pub share: f64,
    /// The published kinds inside it, in published order.
    pub kinds: Vec<Published>,
    /// The share no published kind accounts for.
    pub unattributed: f64,
    /// json's events in [`rest`].
    pub rest_events: f64,
    /// Whether composed sizes use the sub-strata.
    pub sizes: bool,
    /// Whether composed times use them.
    pub times: bool,
}

impl OtherKinds {
    /// From the mix's shares, json's events per sub-stratum (`None`: no
    /// row) and whether json has rounds of a workload on a subset. Times
    /// use the sub-strata when every one used has json's rounds of each
    /// composed workload that `kind-other` has.
    pub fn new(
        mix: &Mix,
        events: impl Fn(&str) -> Option<f64>,
        timed: impl Fn(&str, &str) -> bool,
    ) -> Self {
        let stratum = mix.strata.iter().find(|s| s.stratum == OTHER);
        let kinds: Vec<Published> = mix
            .within(OTHER)
            .iter()
            .map(|k| Published {
                kind: k.kind,
                share: k.share,
                events: events(&Subset::Kind(k.kind).name()).unwrap_or(0.0),
            })
            .collect();
        let rest_events = events(&rest()).unwrap_or(0.0);
        let sizes = !kinds.is_empty() && rest_events > 0.0;
        let used: Vec<String> = kinds
            .iter()
            .filter(|k| k.held())
            .map(Published::stratum)
            .chain([rest()])
            .collect();
        let workloads: Vec<&str> = TIME_WORKLOADS
            .into_iter()
            .map(|w| w.name())
            .filter(|w| timed(OTHER, w))
            .collect();
        let times = sizes
            && !workloads.is_empty()
            && workloads.iter().all(|w| used.iter().all(|s| timed(s, w)));
        OtherKinds {
            share: stratum.map_or(0.0, |s| s.share),
            unattributed: stratum.map_or(0.0, |s| s.unattributed()),
            kinds,
            rest_events,
            sizes,
            times,
        }
    }

    /// [`OtherKinds::new`] from json's size rows and rounds on `src`'s host.
    pub fn of(mix: &Mix, src: &SizeSource, rounds: &Rounds) -> Self {
        Self::new(
            mix,
            |s| src.row(BASELINE, s).map(|r| r.events),
            |s, w| !rounds.passes(src.host, w, s, BASELINE, BASELINE).is_empty(),
        )
    }

    /// Published share of the kinds the corpus holds.
    pub fn measured_share(&self) -> f64 {
        self.kinds
            .iter()
            .filter(|k| k.held())
            .map(|k| k.share)
            .sum()
    }

    /// Published share of the kinds the corpus lacks.
    pub fn absent_share(&self) -> f64 {
        self.kinds
            .iter()
            .filter(|k| !k.held())
            .map(|k| k.share)
            .sum()
    }

    /// The share [`rest`] stands for: the absent kinds and the unattributed.
    pub fn rest_share(&self) -> f64 {
        self.absent_share() + self.unattributed
    }

    /// `weights` with `kind-other` split into its sub-strata when sizes use
    /// them.
    pub fn sized(&self, weights: &[Weight]) -> Vec<Weight> {
        self.split(weights, self.sizes)
    }

    /// `weights` with `kind-other` split into its sub-strata when times use
    /// them.
    pub fn timed(&self, weights: &[Weight]) -> Vec<Weight> {
        self.split(weights, self.times)
    }

    fn split(&self, weights: &[Weight], apply: bool) -> Vec<Weight> {
        if !apply || self.share <= 0.0 {
            return weights.to_vec();
        }
        let mut out = Vec::new();
        for w in weights {
            if w.stratum != OTHER {
                out.push(w.clone());
                continue;
            }
            let part = |stratum: String, share: f64| Weight {
                stratum,
                weight: w.weight * share / self.share,
            };
            out.extend(
                self.kinds
                    .iter()
                    .filter(|k| k.held())
                    .map(|k| part(k.stratum(), k.share)),
            );
            out.push(part(rest(), self.rest_share()));
        }
        out
    }

    /// How `kind-other` is composed, in one sentence of shares and counts.
    pub fn sentence(&self) -> String {
        if !self.sizes {
            return format!(
                "{OTHER} is composed as one stratum, the corpus's own mix of other kinds: its \
                 sub-strata by published kind are {NOT_MEASURED}"
            );
        }
        let pct = |x: f64| format!("{} %", fixed(x * 100.0, 2));
        let list = |held: bool, events: bool| {
            let parts: Vec<String> = self
                .kinds
                .iter()
                .filter(|k| k.held() == held)
                .map(|k| {
                    let n = if events {
                        format!(" ({} events)", fixed(k.events, 0))
                    } else {
                        String::new()
                    };
                    format!("{} {}{n}", k.stratum(), pct(k.share))
                })
                .collect();
            if parts.is_empty() {
                "none".to_owned()
            } else {
                parts.join(", ")
            }
        };
        let mut s = format!(
            "{OTHER} ({} of all events) is composed from its sub-strata at the published shares: \
             the published kinds this corpus holds, {} in all ({}); {} ({} events, the corpus's \
             other kinds the source does not publish) at {}, standing for the published kinds \
             the corpus lacks, {} in all ({}), and the share the source attributes to no \
             published kind, {}",
            pct(self.share),
            pct(self.measured_share()),
            list(true, true),
            rest(),
            fixed(self.rest_events, 0),
            pct(self.rest_share()),
            pct(self.absent_share()),
            list(false, false),
            pct(self.unattributed),
        );
        if !self.times {
            s.push_str(&format!(
                ". Times of the sub-strata are {NOT_MEASURED}: composed times take {OTHER} as \
                 one stratum"
            ));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::mix::{compose, weights};

    /// json's events per sub-stratum in the real corpus (publication-real).
    const REAL: [(&str, f64); 10] = [
        ("kind-4", 481.0),
        ("kind-6", 220.0),
        ("kind-10002", 33.0),
        ("kind-42", 13.0),
        ("kind-5", 11.0),
        ("kind-1984", 8.0),
        ("kind-6300", 5.0),
        ("kind-31234", 3.0),
        ("kind-1000", 2.0),
        ("kind-other-rest", 1200.0),
    ];

    fn real(mix: &Mix, timed: bool) -> OtherKinds {
        OtherKinds::new(
            mix,
            |s| REAL.iter().find(|r| r.0 == s).map(|r| r.1),
            |_, _| timed,
        )
    }

    fn get(w: &[Weight], s: &str) -> f64 {
        w.iter()
            .find(|x| x.stratum == s)
            .map_or(f64::NAN, |x| x.weight)
    }

    #[test]
    fn the_published_shares_split_kind_other() {
        let mix = Mix::bigbrotr();
        let o = real(&mix, true);
        assert!(o.sizes && o.times);
        assert!((o.share - 0.3007).abs() < 1e-12);
        // 5.63 + 4.40 + 3.12 + 2.61 + 1.88 + 1.54 + 0.72 + 0.61 + 0.25.
        assert!((o.measured_share() - 0.2076).abs() < 1e-12);
        // 1059, 9041, 5300, 321, 1010 and 30818 are not in the corpus.
        assert!((o.absent_share() - 0.0613).abs() < 1e-12);
        assert!((o.unattributed - 0.0318).abs() < 1e-12);
        assert!((o.rest_share() - 0.0931).abs() < 1e-12);
        let base = weights(&mix, None);
        let w = o.sized(&base);
        assert_eq!(w.len(), base.len() - 1 + 10);
        assert!(
            w.iter()
                .all(|x| x.stratum != OTHER && x.stratum != "kind-1059")
        );
        let total: f64 = w.iter().map(|x| x.weight).sum();
        assert!((total - 1.0).abs() < 1e-12);
        assert!((get(&w, "kind-4") - 0.0563).abs() < 1e-12);
        assert!((get(&w, "kind-1000") - 0.0261).abs() < 1e-12);
        assert!((get(&w, "kind-other-rest") - 0.0931).abs() < 1e-12);
        assert_eq!(get(&w, "kind-1"), get(&base, "kind-1"));
        // A rescaled kind-other (the sensitivity grid) keeps the proportions.
        let scaled = o.sized(&[Weight {
            stratum: OTHER.to_owned(),
            weight: 0.5,
        }]);
        assert!((get(&scaled, "kind-4") - 0.5 * 0.0563 / 0.3007).abs() < 1e-12);
        assert!((scaled.iter().map(|x| x.weight).sum::<f64>() - 0.5).abs() < 1e-12);
    }

    #[test]
    fn composing_the_sub_strata_by_hand() {
        let mix = Mix::bigbrotr();
        let o = real(&mix, true);
        // 100 bytes per event in kind 4, 10 in every other sub-stratum,
        // 1 in the named strata.
        let value = |s: &str| {
            Some(match s {
                "kind-4" => 100.0,
                s if s.starts_with("kind-other") || REAL.iter().any(|r| r.0 == s) => 10.0,
                _ => 1.0,
            })
        };
        let got = compose(&o.sized(&weights(&mix, None)), value).unwrap();
        let want = 0.6993 + 0.0563 * 100.0 + (0.3007 - 0.0563) * 10.0;
        assert!((got - want).abs() < 1e-9, "{got} {want}");
    }

    #[test]
    fn the_sentence_states_each_share_and_count() {
        let s = real(&Mix::bigbrotr(), true).sentence();
        for part in [
            "kind-other (30.07 % of all events)",
            "the published kinds this corpus holds, 20.76 % in all (kind-4 5.63 % (481 events), \
             kind-6 4.40 % (220 events)",
            "kind-1000 2.61 % (2 events)",
            "kind-other-rest (1200 events",
            "at 9.31 %",
            "the published kinds the corpus lacks, 6.13 % in all (kind-1059 2.17 %, kind-9041 \
             2.15 %, kind-5300 0.74 %, kind-321 0.51 %, kind-1010 0.31 %, kind-30818 0.25 %)",
            "attributes to no published kind, 3.18 %",
        ] {
            assert!(s.contains(part), "{part}\n{s}");
        }
        assert!(!s.contains(NOT_MEASURED));
    }

    #[test]
    fn untimed_sub_strata_leave_times_on_kind_other() {
        let mix = Mix::bigbrotr();
        let o = real(&mix, false);
        assert!(o.sizes && !o.times);
        let base = weights(&mix, None);
        assert_eq!(o.timed(&base), base);
        assert_ne!(o.sized(&base), base);
        assert!(o.sentence().contains(&format!(
            "Times of the sub-strata are {NOT_MEASURED}: composed times take kind-other as one \
             stratum"
        )));
    }

    #[test]
    fn times_need_every_used_sub_stratum_timed_where_kind_other_is() {
        let mix = Mix::bigbrotr();
        let events = |s: &str| REAL.iter().find(|r| r.0 == s).map(|r| r.1);
        // kind-other has decode only; so do the sub-strata.
        let decode_only = |_: &str, w: &str| w == "decode";
        assert!(OtherKinds::new(&mix, events, decode_only).times);
        // kind-1000 lacks decode.
        let thin = |s: &str, w: &str| w == "decode" && s != "kind-1000";
        assert!(!OtherKinds::new(&mix, events, thin).times);
        // An absent kind needs no rounds.
        let absent = |s: &str, w: &str| w == "decode" && s != "kind-1059";
        assert!(OtherKinds::new(&mix, events, absent).times);
        // Nothing timed on kind-other: nothing to compose.
        assert!(!OtherKinds::new(&mix, events, |s, _| s != OTHER).times);
    }

    #[test]
    fn campaigns_without_the_sub_strata_fall_back_to_kind_other() {
        let bigbrotr = Mix::bigbrotr();
        let mut old = bigbrotr.clone();
        old.strata.iter_mut().for_each(|s| s.within.clear());
        let base = weights(&bigbrotr, None);
        let no_rest = OtherKinds::new(&bigbrotr, |s| (s == "kind-4").then_some(481.0), |_, _| true);
        for o in [
            real(&old, true),
            OtherKinds::new(&bigbrotr, |_| None, |_, _| true),
            no_rest,
        ] {
            assert!(!o.sizes && !o.times);
            assert_eq!(o.sized(&base), base);
            assert_eq!(o.timed(&base), base);
            assert_eq!(
                o.sentence(),
                format!(
                    "kind-other is composed as one stratum, the corpus's own mix of other kinds: \
                     its sub-strata by published kind are {NOT_MEASURED}"
                )
            );
        }
    }
}

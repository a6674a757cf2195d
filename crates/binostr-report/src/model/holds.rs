//! Where each claim holds: on the campaign's own corpus, on another
//! label's (`aggregate ... --holds-on LABEL`, typically the real events
//! beside the default corpus), and per kind stratum.
//!
//! A claim is the primary host's statement about a workload on subset
//! `all` ([`Claim`]). It holds on another campaign or stratum when that
//! one's claim says the same: the same profile resolved as the fastest, or,
//! for a tie, again no profile resolved and the same leader among the tied.

use crate::model::campaign::{Campaign, KindClaim};
use crate::model::claims::Claim;

/// Whether `other` says what `claim` says.
pub fn same(claim: &Claim, other: &Claim) -> bool {
    if claim.resolved {
        other.resolved && other.leader == claim.leader
    } else {
        !other.resolved && other.tied_set().contains(&claim.leader)
    }
}

/// Where one claim holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    /// Workload.
    pub workload: String,
    /// The claim's sentence on this campaign.
    pub sentence: String,
    /// This campaign's label and corpus source.
    pub here: Corpus,
    /// The other label and whether the claim holds there (`None` when no
    /// other label was given or it has no claim).
    pub there: Option<There>,
    /// The claim's leader, when the other label measures it apart (so it
    /// is in none of that label's claims).
    pub apart_there: Option<String>,
    /// The kind strata whose own claim says the same.
    pub kinds_holding: Vec<String>,
    /// The kind strata with a claim for the workload.
    pub kinds_measured: Vec<String>,
}

/// A label and its corpus source.
#[derive(Clone, Debug, PartialEq)]
pub struct Corpus {
    /// The label.
    pub label: String,
    /// Its `corpus.source` (`generated`, `real`, ...).
    pub source: String,
}

/// The other label of a mark.
#[derive(Clone, Debug, PartialEq)]
pub struct There {
    /// Its label and corpus source.
    pub corpus: Corpus,
    /// Whether the claim holds there.
    pub holds: bool,
}

impl Mark {
    /// Whether the claim holds on both corpora.
    pub fn on_both(&self) -> bool {
        self.there.as_ref().is_some_and(|t| t.holds)
    }

    /// The mark: where the claim holds, by corpus then by kind.
    pub fn text(&self) -> String {
        let here = &self.here;
        let corpora = match &self.there {
            Some(There {
                corpus: there,
                holds: true,
            }) => format!(
                "holds on both corpora ({} `{}`, {} `{}`)",
                here.source, here.label, there.source, there.label
            ),
            Some(There {
                corpus: Corpus { label, source: src },
                holds: false,
            }) => {
                let why = self.apart_there.as_ref().map_or(String::new(), |p| {
                    format!(
                        ", where `{p}` cannot represent every event and is measured apart, \
                         in none of its claims"
                    )
                });
                format!(
                    "holds only on the {} corpus (`{}`), not on the {src} corpus (`{label}`){why}",
                    here.source, here.label
                )
            }
            None => format!(
                "holds on the {} corpus (`{}`); not checked on a second corpus",
                here.source, here.label
            ),
        };
        format!("{corpora}; {}", self.kinds_text())
    }

    fn kinds_text(&self) -> String {
        if self.kinds_measured.is_empty() {
            "no kind stratum measured".to_owned()
        } else if self.kinds_holding == self.kinds_measured {
            format!(
                "for every kind measured ({})",
                self.kinds_measured.join(", ")
            )
        } else if self.kinds_holding.is_empty() {
            format!(
                "for no single kind ({} measured)",
                self.kinds_measured.join(", ")
            )
        } else {
            format!(
                "only for some kinds: {} (of {})",
                self.kinds_holding.join(", "),
                self.kinds_measured.join(", ")
            )
        }
    }
}

/// The marks of the primary host's claims.
pub fn marks(c: &Campaign) -> Vec<Mark> {
    let host = c.primary_host();
    let here = Corpus {
        label: c.labels[0].clone(),
        source: c.corpus_source().unwrap_or("unknown").to_owned(),
    };
    c.claims
        .iter()
        .filter(|k| k.host == host)
        .map(|k| {
            let there = c.holds_on.as_ref().and_then(|h| {
                let o = h.claims.iter().find(|o| o.workload == k.workload)?;
                Some(There {
                    corpus: Corpus {
                        label: h.label.clone(),
                        source: h.source.clone(),
                    },
                    holds: same(k, o),
                })
            });
            let apart_there = c
                .holds_on
                .as_ref()
                .filter(|h| h.apart.contains(&k.leader))
                .map(|_| k.leader.clone());
            let kinds: Vec<&KindClaim> = c
                .kind_claims
                .iter()
                .filter(|o| o.claim.workload == k.workload)
                .collect();
            Mark {
                workload: k.workload.clone(),
                sentence: k.sentence(),
                here: here.clone(),
                there,
                apart_there,
                kinds_holding: kinds
                    .iter()
                    .filter(|o| same(k, &o.claim))
                    .map(|o| o.stratum.clone())
                    .collect(),
                kinds_measured: kinds.iter().map(|o| o.stratum.clone()).collect(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use binostr_records::Workload;

    use super::*;

    fn claim(leader: &str, resolved: bool, tied: &[&str]) -> Claim {
        Claim {
            host: "h".into(),
            workload: Workload::Decode.name().into(),
            leader: leader.into(),
            leader_ratio: 0.5,
            resolved,
            tied: tied.iter().map(|s| (*s).to_owned()).collect(),
            tied_pct: 1.0,
            equivalent: Vec::new(),
            closest: None,
            excluded: Vec::new(),
        }
    }

    #[test]
    fn a_claim_holds_where_the_same_is_said() {
        let fastest_a = claim("a", true, &[]);
        assert!(same(&fastest_a, &claim("a", true, &[])));
        assert!(!same(&fastest_a, &claim("b", true, &[])));
        assert!(!same(&fastest_a, &claim("a", false, &["b"])));
        let tie = claim("a", false, &["b"]);
        assert!(same(&tie, &claim("b", false, &["a", "c"])));
        assert!(!same(&tie, &claim("c", false, &["d"])));
        assert!(!same(&tie, &claim("a", true, &[])));
    }

    fn corpus(label: &str, source: &str) -> Corpus {
        Corpus {
            label: label.into(),
            source: source.into(),
        }
    }

    #[test]
    fn marks_name_corpora_and_kinds() {
        let mut m = Mark {
            workload: Workload::Decode.name().into(),
            sentence: String::new(),
            here: corpus("pd", "generated"),
            there: Some(There {
                corpus: corpus("qr", "real"),
                holds: false,
            }),
            apart_there: None,
            kinds_holding: vec!["kind-1".into()],
            kinds_measured: vec!["kind-0".into(), "kind-1".into()],
        };
        assert_eq!(
            m.text(),
            "holds only on the generated corpus (`pd`), not on the real corpus (`qr`); \
             only for some kinds: kind-1 (of kind-0, kind-1)"
        );
        m.apart_there = Some("nson".into());
        assert!(m.text().starts_with(
            "holds only on the generated corpus (`pd`), not on the real corpus (`qr`), \
             where `nson` cannot represent every event and is measured apart, in none of its claims;"
        ));
        m.apart_there = None;
        m.there = Some(There {
            corpus: corpus("qr", "real"),
            holds: true,
        });
        m.kinds_holding = m.kinds_measured.clone();
        assert!(m.on_both());
        assert_eq!(
            m.text(),
            "holds on both corpora (generated `pd`, real `qr`); for every kind measured (kind-0, kind-1)"
        );
    }
}

//! `campaign.json`: the label's setup, shared by all its runs.

use serde::{Deserialize, Serialize};

/// `campaign.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CampaignRecord {
    /// Schema version ([`crate::SCHEMA`]).
    pub schema: u32,
    /// Label.
    pub label: String,
    /// The campaign's settings: `smoke`, `quick` or `publication`
    /// (`campaign_profile` in campaigns recorded before the rename).
    #[serde(alias = "campaign_profile")]
    pub settings: String,
    /// Runs asked for most recently.
    pub runs: usize,
    /// Seed.
    pub seed: u64,
    /// Corpus.
    pub corpus: CorpusRecord,
    /// The events every pass of each subset covers.
    pub sequences: Vec<Sequence>,
    /// The traffic mix of subset `mix` and of composed figures (absent in
    /// campaigns recorded before it existed: [`Mix::bigbrotr`] applies).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mix: Option<Mix>,
}

/// Median `p` tags of a follow list in the published crawl of 272 follow
/// lists (mmalmi/nostr-social-graph, Sept 2024).
pub const CRAWL_FOLLOW_MEDIAN: u32 = 317;

/// A traffic mix: each kind stratum's share of all events.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mix {
    /// Stable name.
    pub name: String,
    /// Where the shares come from.
    pub source: String,
    /// Every stratum once; shares sum to 1.
    pub strata: Vec<MixStratum>,
}

/// One stratum of a [`Mix`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MixStratum {
    /// Subset name: `kind-N` or `kind-other`.
    pub stratum: String,
    /// Share of all events, 0..=1.
    pub share: f64,
    /// The published shares of kinds inside this stratum (`kind-other`);
    /// the rest of `share` is unattributed. Empty in campaigns recorded
    /// before it existed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub within: Vec<KindShare>,
}

/// One kind's published share inside a [`MixStratum`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct KindShare {
    /// Event kind.
    pub kind: u16,
    /// Share of all events (not of the stratum), 0..=1.
    pub share: f64,
}

/// The kind strata, in the order reports list them; `kind-other` is every
/// kind not named before it.
pub const STRATA: [&str; 6] = [
    "kind-0",
    "kind-1",
    "kind-3",
    "kind-7",
    "kind-9735",
    "kind-other",
];

/// The kinds with a stratum of their own.
pub const STRATUM_KINDS: [u16; 5] = [0, 1, 3, 7, 9735];

/// The 20 most frequent kinds and their shares of all events in percent,
/// in published order (BigBrotr/analysis, MIT, 172.66 million relay events,
/// Dec 2022 to Jul 2025).
pub const BIGBROTR_KINDS: [(u16, f64); 20] = [
    (1, 38.96),
    (7, 18.89),
    (4, 5.63),
    (0, 4.73),
    (3, 4.54),
    (6, 4.40),
    (5, 3.12),
    (9735, 2.81),
    (1000, 2.61),
    (1059, 2.17),
    (9041, 2.15),
    (10002, 1.88),
    (42, 1.54),
    (5300, 0.74),
    (31234, 0.72),
    (6300, 0.61),
    (321, 0.51),
    (1010, 0.31),
    (30818, 0.25),
    (1984, 0.25),
];

/// The kinds of [`BIGBROTR_KINDS`] inside `kind-other`, in published order:
/// each has a sub-stratum `kind-N` of its own.
pub const OTHER_KINDS: [u16; 15] = other_kinds();

const fn other_kinds() -> [u16; 15] {
    let mut out = [0; 15];
    let (mut i, mut n) = (0, 0);
    while i < BIGBROTR_KINDS.len() {
        let kind = BIGBROTR_KINDS[i].0;
        let (mut j, mut named) = (0, false);
        while j < STRATUM_KINDS.len() {
            named |= STRATUM_KINDS[j] == kind;
            j += 1;
        }
        if !named {
            out[n] = kind;
            n += 1;
        }
        i += 1;
    }
    assert!(n == out.len());
    out
}

/// The published percent of `kind` in [`BIGBROTR_KINDS`] (0 when absent).
fn published(kind: u16) -> f64 {
    BIGBROTR_KINDS
        .iter()
        .find(|(k, _)| *k == kind)
        .map_or(0.0, |(_, p)| *p)
}

impl Mix {
    /// Published traffic shares ([`BIGBROTR_KINDS`]); `kind-other` holds
    /// the remaining 30.07 %, with the published shares of
    /// [`OTHER_KINDS`] inside it (26.89 %; 3.18 % unattributed).
    pub fn bigbrotr() -> Self {
        let named = STRATUM_KINDS.map(|k| (format!("kind-{k}"), published(k)));
        let other = 100.0 - named.iter().map(|(_, p)| p).sum::<f64>();
        let within = OTHER_KINDS
            .iter()
            .map(|&kind| KindShare {
                kind,
                share: published(kind) / 100.0,
            })
            .collect();
        let strata = named
            .into_iter()
            .map(|(stratum, percent)| MixStratum {
                stratum,
                share: percent / 100.0,
                within: Vec::new(),
            })
            .chain([MixStratum {
                stratum: "kind-other".into(),
                share: other / 100.0,
                within,
            }])
            .collect();
        Self {
            name: "bigbrotr-2025".into(),
            source: "BigBrotr/analysis: kinds of 172.66 million relay events, Dec 2022 to Jul 2025"
                .into(),
            strata,
        }
    }

    /// The share of `stratum`, 0 when absent.
    pub fn share(&self, stratum: &str) -> f64 {
        self.strata
            .iter()
            .find(|s| s.stratum == stratum)
            .map_or(0.0, |s| s.share)
    }

    /// The published kind shares inside `stratum` (empty when it records
    /// none).
    pub fn within(&self, stratum: &str) -> &[KindShare] {
        self.strata
            .iter()
            .find(|s| s.stratum == stratum)
            .map_or(&[], |s| &s.within)
    }
}

impl MixStratum {
    /// The share no published kind accounts for: `share` minus `within`.
    pub fn unattributed(&self) -> f64 {
        self.share - self.within.iter().map(|k| k.share).sum::<f64>()
    }
}

/// The corpus a campaign measured (`campaign.json`'s `corpus`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CorpusRecord {
    /// Fingerprint of the measured events.
    pub fingerprint: String,
    /// Events measured.
    pub count: u64,
    /// Seed of generation and selection (`null` for `--corpus FILE`).
    pub seed: Option<u64>,
    /// `generated`, `real` (the recorded real corpus) or the file name given.
    pub source: String,
    /// SHA-256 of `corpus/audit.json`.
    pub audit_sha256: String,
    /// Enabled profiles that cannot represent every event, measured apart
    /// (absent in campaigns recorded before it existed).
    #[serde(default)]
    pub apart: Vec<Apart>,
}

/// An enabled profile that cannot represent every event of the corpus. The
/// corpus keeps those events; the profile is measured apart, on the events
/// it represents, paired with json on the same events (`run-K/apart-ID/`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Apart {
    /// Profile id.
    pub profile: String,
    /// Events it represents, measured apart.
    pub count: u64,
    /// Fingerprint of those events.
    pub fingerprint: String,
    /// The events it refuses.
    pub refused: Vec<Refused>,
}

/// An event of the corpus that an [`Apart`] profile refuses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refused {
    /// Event id, hex.
    pub id: String,
    /// Its encoder's reason.
    pub reason: String,
}

/// The events one subset's passes cover (`campaign.json`'s `sequences`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sequence {
    /// Subset name.
    pub subset: String,
    /// Events in the subset.
    pub of: usize,
    /// Indices into the corpus: ascending, except subset `mix`, whose
    /// order interleaves its strata as a stream would.
    pub indices: Vec<usize>,
    /// First 16 hex digits of SHA-256 over the sequence's event ids, in
    /// order (`samples.csv`'s `sequence`).
    pub id: String,
}

impl Sequence {
    /// Events per pass.
    pub fn len(&self) -> usize {
        self.indices.len()
    }

    /// Whether the sequence is empty.
    pub fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_other_kinds_are_the_published_kinds_without_a_stratum() {
        assert_eq!(
            OTHER_KINDS,
            [
                4, 6, 5, 1000, 1059, 9041, 10002, 42, 5300, 31234, 6300, 321, 1010, 30818, 1984
            ]
        );
        let total: f64 = BIGBROTR_KINDS.iter().map(|(_, p)| p).sum();
        assert!((total - 96.82).abs() < 1e-9, "{total}");
    }

    #[test]
    fn the_bigbrotr_mix_states_the_shares_inside_other() {
        let m = Mix::bigbrotr();
        let total: f64 = m.strata.iter().map(|s| s.share).sum();
        assert!((total - 1.0).abs() < 1e-12);
        let other = m.strata.iter().find(|s| s.stratum == "kind-other").unwrap();
        assert!((other.share - 0.3007).abs() < 1e-12);
        let within: f64 = other.within.iter().map(|k| k.share).sum();
        assert!((within - 0.2689).abs() < 1e-12, "{within}");
        assert!((other.unattributed() - 0.0318).abs() < 1e-12);
        assert_eq!(other.within.len(), 15);
        let first: Vec<(u16, f64)> = other.within[..3]
            .iter()
            .map(|k| (k.kind, k.share))
            .collect();
        for ((kind, share), (k, want)) in
            first
                .into_iter()
                .zip([(4, 0.0563), (6, 0.044), (5, 0.0312)])
        {
            assert!(kind == k && (share - want).abs() < 1e-12, "{kind} {share}");
        }
        assert_eq!(m.within("kind-other"), other.within.as_slice());
        assert!(m.within("kind-1").is_empty() && m.within("kind-2").is_empty());
        // The named strata carry no shares inside them.
        assert!(m.strata[..5].iter().all(|s| s.unattributed() == s.share));
    }

    #[test]
    fn a_mix_without_shares_inside_reads_and_writes_as_before() {
        let old = r#"{"name":"m","source":"s","strata":[{"stratum":"kind-other","share":0.3}]}"#;
        let m: Mix = serde_json::from_str(old).unwrap();
        assert!(m.within("kind-other").is_empty());
        assert_eq!(m.strata[0].unattributed(), 0.3);
        assert_eq!(serde_json::to_string(&m).unwrap(), old);
        let new = Mix::bigbrotr();
        let back: Mix = serde_json::from_str(&serde_json::to_string(&new).unwrap()).unwrap();
        assert_eq!(back, new);
    }
}

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

impl Mix {
    /// Published traffic shares (BigBrotr/analysis, 172.66 million events,
    /// Dec 2022 to Jul 2025); `kind-other` holds the remaining 30.07 %.
    pub fn bigbrotr() -> Self {
        let named = [
            ("kind-0", 4.73),
            ("kind-1", 38.96),
            ("kind-3", 4.54),
            ("kind-7", 18.89),
            ("kind-9735", 2.81),
        ];
        let other = 100.0 - named.iter().map(|(_, p)| p).sum::<f64>();
        let strata = named
            .into_iter()
            .chain([("kind-other", other)])
            .map(|(stratum, percent)| MixStratum {
                stratum: stratum.into(),
                share: percent / 100.0,
            })
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

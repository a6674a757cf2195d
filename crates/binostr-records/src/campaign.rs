//! `campaign.json`: the label's setup, shared by all its runs.

use serde::{Deserialize, Serialize};

/// `campaign.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CampaignRecord {
    /// Schema version ([`crate::SCHEMA`]).
    pub schema: u32,
    /// Label.
    pub label: String,
    /// The campaign's settings: `smoke`, `quick` or `publication`.
    pub campaign_profile: String,
    /// Runs asked for most recently.
    pub runs: usize,
    /// Seed.
    pub seed: u64,
    /// Corpus.
    pub corpus: CorpusRecord,
    /// The events every pass of each subset covers.
    pub sequences: Vec<Sequence>,
    /// The traffic mix of subset `mix` and of every composed headline
    /// (absent in campaigns recorded before it existed).
    #[serde(default)]
    pub mix: Option<Mix>,
}

/// A traffic mix: each kind stratum's share of all traffic (shares sum to 1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mix {
    /// Name.
    pub name: String,
    /// Where the shares come from.
    pub source: String,
    /// Strata and their shares.
    pub strata: Vec<MixStratum>,
}

/// One kind stratum of a [`Mix`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MixStratum {
    /// Subset name: `kind-0`, `kind-1`, `kind-3`, `kind-7`, `kind-9735` or
    /// `kind-other`.
    pub stratum: String,
    /// Share of all traffic.
    pub share: f64,
}

impl Mix {
    /// The BigBrotr 2025 kind shares, "other" kept as its own stratum.
    pub fn bigbrotr() -> Self {
        let strata = [
            ("kind-0", 0.0473),
            ("kind-1", 0.3896),
            ("kind-3", 0.0454),
            ("kind-7", 0.1889),
            ("kind-9735", 0.0281),
            ("kind-other", 0.3007),
        ];
        Mix {
            name: "bigbrotr-2025".to_owned(),
            source: "BigBrotr/analysis: kind shares of all relay traffic (docs/CORPUS.md)"
                .to_owned(),
            strata: strata
                .iter()
                .map(|(stratum, share)| MixStratum {
                    stratum: (*stratum).to_owned(),
                    share: *share,
                })
                .collect(),
        }
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
    /// Indices into the corpus, ascending.
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

//! The campaign settings (`--settings`): how long and how wide a campaign
//! measures.

use serde::{Deserialize, Serialize};

use crate::bench::group;
use crate::bench::timing::Settings;
use crate::bench::workload::Subset;

/// How long and how wide a campaign measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CampaignSettings {
    /// Minutes; a pipeline check on a tiny corpus, subsets `all` and `mix`.
    Smoke,
    /// Minutes on 2 cores with the default corpus.
    Quick,
    /// The paper's: longer passes and more rounds.
    Publication,
}

impl CampaignSettings {
    /// The stable name.
    pub fn name(self) -> &'static str {
        match self {
            CampaignSettings::Smoke => "smoke",
            CampaignSettings::Quick => "quick",
            CampaignSettings::Publication => "publication",
        }
    }

    /// Criterion settings.
    pub fn criterion(self) -> Settings {
        let (sample_size, warm_up_ms, measurement_ms, nresamples) = match self {
            CampaignSettings::Smoke => (10, 1, 5, 100),
            CampaignSettings::Quick => (10, 5, 20, 100),
            // One round per sample on most groups: 30 paired rounds.
            CampaignSettings::Publication => (30, 300, 100, 10_000),
        };
        Settings {
            sample_size,
            warm_up_ms,
            measurement_ms,
            nresamples,
        }
    }

    /// Subsets measured.
    pub fn subsets(self) -> &'static [Subset] {
        match self {
            CampaignSettings::Smoke => &[Subset::All, Subset::Mix],
            _ => &Subset::ALL,
        }
    }

    /// Most events and JSON bytes in one pass (a subset's sequence); larger
    /// subsets are sampled, stratified by size.
    pub fn sequence_budget(self) -> group::Budget {
        let (events, bytes) = match self {
            CampaignSettings::Smoke => (100, 1 << 20),
            CampaignSettings::Quick => (200, 1 << 20),
            CampaignSettings::Publication => (600, 4 << 20),
        };
        group::Budget { events, bytes }
    }

    /// Default generated corpus size and selection.
    pub fn default_corpus(self) -> (usize, usize) {
        match self {
            CampaignSettings::Smoke => (300, 100),
            _ => (10_000, 5_000),
        }
    }

    /// Events timed one by one for latency percentiles.
    pub fn latency_events(self) -> usize {
        match self {
            CampaignSettings::Smoke => 100,
            CampaignSettings::Quick => 2_000,
            CampaignSettings::Publication => usize::MAX,
        }
    }

    /// Timed rounds of `transport.csv` (one fresh connection per exchange).
    pub fn transport_rounds(self) -> usize {
        match self {
            CampaignSettings::Smoke => 3,
            CampaignSettings::Quick => 10,
            CampaignSettings::Publication => 30,
        }
    }

    /// Generated follow lists per median of `follow-lists.csv`.
    pub fn follow_lists_per_median(self) -> usize {
        match self {
            CampaignSettings::Smoke => 20,
            CampaignSettings::Quick => 60,
            CampaignSettings::Publication => 200,
        }
    }

    /// Events of the disjoint sample the zstd dictionaries are trained on.
    pub fn dictionary_sample(self) -> usize {
        match self {
            CampaignSettings::Smoke => 200,
            CampaignSettings::Quick => 500,
            CampaignSettings::Publication => 2_000,
        }
    }
}

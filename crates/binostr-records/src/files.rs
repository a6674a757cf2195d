//! File and directory names of a campaign (`results/campaigns/<label>/`).

/// `<label>/campaign.json`: [`crate::CampaignRecord`].
pub const CAMPAIGN: &str = "campaign.json";

/// `<label>/registry.json`: the [`crate::RegistryEntry`] list the campaign
/// measured.
pub const REGISTRY: &str = "registry.json";

/// `<label>/filters.json`: the filters the `filter` workloads scan.
pub const FILTERS: &str = "filters.json";

/// `<label>/run-K/contract.json`: [`crate::RunRecord`].
pub const CONTRACT: &str = "contract.json";

/// `<label>/manifest.json`: the SHA-256 of every file the campaign
/// published (`binostr manifest create`).
pub const MANIFEST: &str = "manifest.json";

/// `<label>/manifest.event.json`: the [`crate::SignedEvent`] that signs
/// [`MANIFEST`].
pub const MANIFEST_EVENT: &str = "manifest.event.json";

/// The inputs from outside any campaign directory that the paper and the
/// page read (robustness, interop, evolution, maintenance, the side-by-side
/// timings, fuzzing, the shaped links, the refusals of valid events),
/// relative to the repository root. The manifest of the campaign the paper
/// was built from covers them with `paper/generated/`.
pub const PAPER_SIDE_INPUTS: [&str; 8] = [
    crate::robustness::DIR,
    "results/interop",
    "results/evolution",
    "results/maintenance",
    "results/speed",
    "results/fuzz",
    "results/links",
    "results/valid",
];

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

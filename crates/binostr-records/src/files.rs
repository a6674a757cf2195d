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

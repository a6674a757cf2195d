//! How well a host's paired ratios are resolved: per workload, the share
//! whose cross-run range is within [`RESOLVED_RANGE_PCT`].

use std::collections::BTreeMap;

use crate::model::campaign::Campaign;
use crate::model::stats::median;

/// A paired ratio's cross-run range counts as resolved at or below this (%).
pub const RESOLVED_RANGE_PCT: f64 = 2.0;

/// Resolution of the paired ratios of one workload (or `all`) on one host.
#[derive(Clone, Debug, PartialEq)]
pub struct Resolution {
    /// Workload, or `all`.
    pub workload: String,
    /// Paired ratios.
    pub ratios: usize,
    /// Of them, those with a cross-run range within [`RESOLVED_RANGE_PCT`].
    pub within: usize,
    /// The median cross-run range, %.
    pub median_range_pct: f64,
}

impl Resolution {
    /// `within / ratios` in %.
    pub fn within_pct(&self) -> f64 {
        self.within as f64 / self.ratios as f64 * 100.0
    }
}

/// Per workload (sorted), then `all`: the resolution of `host`'s paired
/// ratios. Empty when the host has none.
pub fn resolution(c: &Campaign, host: &str) -> Vec<Resolution> {
    let mut by: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for p in c.paired.iter().filter(|p| p.host == host) {
        by.entry(&p.workload).or_default().push(p.est.range_pct);
    }
    let all: Vec<f64> = by.values().flatten().copied().collect();
    if all.is_empty() {
        return Vec::new();
    }
    let make = |w: &str, v: &[f64]| Resolution {
        workload: w.to_owned(),
        ratios: v.len(),
        within: v.iter().filter(|r| **r <= RESOLVED_RANGE_PCT).count(),
        median_range_pct: median(v),
    };
    let mut out: Vec<Resolution> = by.iter().map(|(w, v)| make(w, v)).collect();
    out.push(make("all", &all));
    out
}

//! `filters.json`: a drawn filter set with the reference matcher's counts,
//! written by `binostr filters` and beside each campaign's `campaign.json`.

use serde::{Deserialize, Serialize};

use super::{Filter, reference};
use crate::model::Event;

/// A drawn filter set and what it matches.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FilterSet {
    /// Seed of [`super::draw()`].
    pub seed: u64,
    /// Events the filters were drawn from.
    pub events: usize,
    /// Fingerprint of those events ([`crate::corpus::fingerprint`]).
    pub fingerprint: String,
    /// The filters, in drawing order (shape `i % 6` of [`super::draw::SHAPES`]).
    pub filters: Vec<Filter>,
    /// Events each filter matches, by the JSON reference matcher.
    pub matches: Vec<u64>,
}

impl FilterSet {
    /// Draws `count` filters from `events` with `seed` and counts their
    /// matches with [`reference::counts`].
    pub fn draw(
        events: &[Event],
        seed: u64,
        count: usize,
    ) -> Result<Self, reference::ReferenceError> {
        let filters = super::draw(events, seed, count);
        let json: Vec<Vec<u8>> = events.iter().map(|e| e.to_json().into_bytes()).collect();
        let matches = reference::counts(&filters, &json)?;
        Ok(Self {
            seed,
            events: events.len(),
            fingerprint: crate::corpus::fingerprint(events.iter().map(|e| &e.id)),
            filters,
            matches,
        })
    }
}

//! Stored events and which of them a REQ returns.
//!
//! Events are kept newest first (NIP-01: `created_at` descending, then the
//! lowest id), so a scan meets each filter's newest matches first: a
//! filter's `limit` keeps its first `limit` matches and the scan stops once
//! every limited filter is full. Every REQ is answered in that order.
//!
//! One [`Query`] is the whole of a REQ's matching. [`Store::matching`] runs
//! it unbounded (the benchmark's own REQs); [`answer`] runs it in chunks
//! under a [`Budget`], yielding between chunks so that other connections
//! keep their latency, and refuses a REQ over budget with the NIP-01
//! machine-readable reason its `CLOSED` carries.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::codec::Profile;
use crate::filter::Filter;
use crate::model::Event;
use crate::transport::TransportError;
use crate::transport::envelope::Framing;

/// One profile's encoded records of a set of events.
pub struct Store {
    /// The profile whose codec wrote `records`.
    pub profile: &'static Profile,
    /// How its messages travel.
    pub framing: Framing,
    /// One record per stored event, in the order of `events`.
    pub records: Vec<Vec<u8>>,
    /// The stored events, newest first ([`newest_first`]); REQ filters are
    /// matched against them.
    pub events: Arc<[Event]>,
}

/// `events` in NIP-01 order: `created_at` descending, then id ascending.
pub fn newest_first(events: &[Event]) -> Arc<[Event]> {
    let mut v = events.to_vec();
    v.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(a.id.cmp(&b.id)));
    v.into()
}

impl Store {
    /// Encodes every event, stored newest first; refuses the set if one is
    /// not representable.
    pub fn new(profile: &'static Profile, events: &[Event]) -> Result<Self, TransportError> {
        Self::over(profile, newest_first(events))
    }

    /// Encodes `events`, already in [`newest_first`] order (shared between
    /// the stores of one relay).
    pub fn over(profile: &'static Profile, events: Arc<[Event]>) -> Result<Self, TransportError> {
        let records = events
            .iter()
            .enumerate()
            .map(|(index, e)| {
                let mut r = Vec::new();
                profile
                    .codec
                    .encode(e, &mut r)
                    .map_err(|source| TransportError::Encode { index, source })?;
                Ok(r)
            })
            .collect::<Result<_, TransportError>>()?;
        Ok(Self {
            profile,
            framing: Framing::of(profile),
            records,
            events,
        })
    }

    /// Indices of the stored events a REQ with `filters` returns, without a
    /// budget. A filter that does not parse refuses the REQ.
    pub fn matching(&self, filters: &[serde_json::Value]) -> Result<Vec<usize>, String> {
        let mut q = Query::new(filters, &Budget::UNBOUNDED)?;
        q.scan(&self.events, 0..self.events.len())?;
        Ok(q.hits)
    }
}

/// Bounds on one REQ's work (NIP-11 `limitation`).
#[derive(Clone, Debug)]
pub struct Budget {
    /// Filters per REQ.
    pub max_filters: usize,
    /// A filter's `limit` above this is clamped to it.
    pub max_limit: u64,
    /// Events one REQ may return; over it, the REQ is refused.
    pub max_events: usize,
    /// Wall time the matching may take; over it, the REQ is refused.
    pub time: Option<Duration>,
}

impl Budget {
    /// No bound: the benchmark's own REQs.
    pub const UNBOUNDED: Budget = Budget {
        max_filters: usize::MAX,
        max_limit: u64::MAX,
        max_events: usize::MAX,
        time: None,
    };
}

/// Events scanned between two yields of [`answer`].
const CHUNK: usize = 512;

/// One REQ's matching in progress.
pub struct Query {
    filters: Vec<Filter>,
    /// Matches each filter may still take (`None`: no limit).
    left: Vec<Option<u64>>,
    max_events: usize,
    /// Indices of the events returned so far, in stored order.
    pub hits: Vec<usize>,
}

impl Query {
    /// Parses the REQ's filters; refuses a REQ with none, too many, or one
    /// that does not parse (NIP-01 `invalid:`).
    pub fn new(filters: &[serde_json::Value], budget: &Budget) -> Result<Self, String> {
        if filters.is_empty() {
            return Err("invalid: a REQ needs at least one filter".into());
        }
        if filters.len() > budget.max_filters {
            return Err(format!(
                "invalid: {} filters; this relay takes at most {} per REQ (NIP-11 max_filters)",
                filters.len(),
                budget.max_filters
            ));
        }
        let filters = filters
            .iter()
            .enumerate()
            .map(|(n, v)| Filter::from_json(v).map_err(|e| format!("invalid: filter {n}: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        let left = filters
            .iter()
            .map(|f| f.limit.map(|l| l.min(budget.max_limit)))
            .collect();
        Ok(Self {
            filters,
            left,
            max_events: budget.max_events,
            hits: Vec::new(),
        })
    }

    /// Whether every filter has a limit and has reached it.
    fn full(&self) -> bool {
        self.left.iter().all(|l| *l == Some(0))
    }

    /// Matches `events[range]`; `Ok(true)` once no later event can match.
    pub fn scan(
        &mut self,
        events: &[Event],
        range: std::ops::Range<usize>,
    ) -> Result<bool, String> {
        for i in range {
            if self.full() {
                return Ok(true);
            }
            let mut hit = false;
            for (f, left) in self.filters.iter().zip(&mut self.left) {
                if *left != Some(0) && f.matches_on(&events[i]) {
                    if let Some(l) = left {
                        *l -= 1;
                    }
                    hit = true;
                }
            }
            if hit {
                if self.hits.len() == self.max_events {
                    return Err(format!(
                        "blocked: the REQ matches more than {} events, this relay's bound; add a limit or narrow the filters",
                        self.max_events
                    ));
                }
                self.hits.push(i);
            }
        }
        Ok(self.full())
    }
}

/// The stored events a REQ returns, matched in chunks under `budget`.
pub async fn answer(
    events: &[Event],
    filters: &[serde_json::Value],
    budget: &Budget,
) -> Result<Vec<usize>, String> {
    let mut q = Query::new(filters, budget)?;
    // Time spent matching, not waiting to be scheduled between chunks: a
    // busy relay does not refuse a REQ for its own load.
    let mut spent = Duration::ZERO;
    let mut at = 0;
    while at < events.len() {
        let end = (at + CHUNK).min(events.len());
        let start = Instant::now();
        let done = q.scan(events, at..end)?;
        spent += start.elapsed();
        at = end;
        if done || at == events.len() {
            break;
        }
        if let Some(t) = budget.time
            && spent > t
        {
            return Err(format!(
                "error: the REQ took over {} ms to match (scanned {at} of {} events); narrow its filters",
                t.as_millis(),
                events.len()
            ));
        }
        tokio::task::yield_now().await;
    }
    Ok(q.hits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn events() -> Arc<[Event]> {
        let mut evs = crate::corpus::generate::generate(3, 40);
        // Two events at one created_at, to pin the tie order.
        evs[1].created_at = evs[0].created_at;
        newest_first(&evs)
    }

    #[test]
    fn stored_newest_first_ties_by_lowest_id() {
        let e = events();
        assert!(e.windows(2).all(|w| {
            w[0].created_at > w[1].created_at
                || (w[0].created_at == w[1].created_at && w[0].id < w[1].id)
        }));
    }

    #[test]
    fn limit_keeps_each_filters_newest() {
        let e = events();
        let mut q = Query::new(
            &[json!({"limit": 3}), json!({"kinds": [0]})],
            &Budget::UNBOUNDED,
        )
        .unwrap();
        q.scan(&e, 0..e.len()).unwrap();
        let mut want: Vec<usize> = (0..3).collect();
        want.extend((3..e.len()).filter(|&i| e[i].kind == 0));
        assert_eq!(q.hits, want);
        let mut clamp = Budget::UNBOUNDED;
        clamp.max_limit = 2;
        let mut q = Query::new(&[json!({"limit": 10})], &clamp).unwrap();
        assert!(q.scan(&e, 0..e.len()).unwrap());
        assert_eq!(q.hits, [0, 1]);
    }

    #[test]
    fn budget_refusals_say_why() {
        let e = events();
        let mut b = Budget::UNBOUNDED;
        b.max_filters = 2;
        let three = [json!({}), json!({}), json!({})];
        assert!(
            Query::new(&three, &b)
                .err()
                .unwrap()
                .starts_with("invalid: 3 filters")
        );
        assert!(Query::new(&[], &b).err().unwrap().starts_with("invalid:"));
        assert!(
            Query::new(&[json!(5)], &b)
                .err()
                .unwrap()
                .starts_with("invalid: filter 0")
        );
        b.max_events = 5;
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let err = rt.block_on(answer(&e, &[json!({})], &b)).unwrap_err();
        assert!(
            err.starts_with("blocked: the REQ matches more than 5"),
            "{err}"
        );
        b.max_events = usize::MAX;
        b.time = Some(Duration::ZERO);
        let many: Vec<_> = (0..2000).map(|_| e[0].clone()).collect();
        let err = rt.block_on(answer(&many, &[json!({})], &b)).unwrap_err();
        assert!(err.starts_with("error: the REQ took over 0 ms"), "{err}");
    }
}

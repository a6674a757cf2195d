//! A [`Fixture`] encodes a corpus with every profile and asserts each round
//! trip (and the borrowed view's kind and pubkey) before anything is timed.
//! Here too: the profiles and events it can hold, the records of one
//! profile, the timed body of one benchmark ([`Pass`]) and why a fixture
//! could not be prepared. The passes ([`crate::bench::pass`]), the filter
//! scans ([`crate::bench::filtering`]) and the groups
//! ([`crate::bench::group`]) build on it.

use std::time::Duration;

use rayon::prelude::*;

use binostr_records::Subset;

use crate::bench::filtering::Filters;
use crate::codec::{Limits, Profile};
use crate::model::Event;
use crate::validate;

pub use binostr_records::{BASELINE, REFERENCE};

/// Why a fixture could not be prepared.
#[derive(Debug, thiserror::Error)]
pub enum FixtureError {
    /// A profile refused an event.
    #[error(
        "{profile}: cannot represent event {index} ({reason}); Binostr measures only round trips"
    )]
    NotRepresentable {
        /// Profile id.
        profile: &'static str,
        /// Event position in the corpus.
        index: usize,
        /// The encoder's reason.
        reason: String,
    },
    /// A round trip or borrowed read disagreed with the event.
    #[error("{profile}: event {index} does not round-trip: {detail}")]
    RoundTrip {
        /// Profile id.
        profile: &'static str,
        /// Event position in the corpus.
        index: usize,
        /// What differed.
        detail: String,
    },
    /// A profile's match count for a drawn filter differs from the
    /// reference matcher's.
    #[error("{profile}: filter {filter} matches {got} events, the json reference matcher {want}")]
    FilterMismatch {
        /// Profile id.
        profile: &'static str,
        /// Filter position in the drawn set.
        filter: usize,
        /// The profile's count over the corpus.
        got: u64,
        /// The reference matcher's count.
        want: u64,
    },
    /// The reference matcher could not read an event's JSON.
    #[error("{0}")]
    FilterReference(String),
    /// An event of the corpus is not valid NIP-01.
    #[error("event {index} is not valid: {reason}")]
    Invalid {
        /// Event position in the corpus.
        index: usize,
        /// Validation error.
        reason: String,
    },
}

/// The encodings of one profile, aligned with the fixture's events.
pub struct ProfileRecords {
    /// The registry entry whose codec wrote `records`.
    pub profile: &'static Profile,
    /// One record per event.
    pub records: Vec<Vec<u8>>,
}

/// The timed body of one benchmark: one pass over its sequence.
pub struct Pass<'a> {
    /// Events processed per pass.
    pub events: u64,
    /// Runs one pass and returns its wall time.
    pub run: Box<dyn FnMut() -> Duration + 'a>,
}

/// A corpus encoded with every profile, round trips asserted.
pub struct Fixture {
    /// The corpus, in input order: the indices of every pass and record refer
    /// to it.
    pub events: Vec<Event>,
    /// Compact NIP-01 JSON size of each event.
    pub json_len: Vec<usize>,
    /// Records per profile, in registry order.
    pub profiles: Vec<ProfileRecords>,
    /// `pubkey || kind (big-endian)` per event, for `select-raw-offset`.
    pub(super) raw_offset: Vec<[u8; 34]>,
    /// Limits applied while decoding.
    pub limits: Limits,
    /// The drawn REQ filters of the `filter` workloads, with the reference
    /// matcher's verdicts.
    pub filters: Filters,
}

impl Fixture {
    /// Encodes `events` with `profiles`; every event must be valid and must
    /// round-trip through every profile (and its borrowed view). The
    /// `filter` workloads scan `filters` (a campaign's `filters.json`) where
    /// given, else the set drawn from `events`; either is checked against
    /// the reference matcher.
    pub fn prepare(
        events: Vec<Event>,
        profiles: &[&'static Profile],
        limits: Limits,
        filters: Option<Vec<crate::filter::Filter>>,
    ) -> Result<Fixture, FixtureError> {
        for (index, e) in events.iter().enumerate() {
            validate::verify_event(e).map_err(|err| FixtureError::Invalid {
                index,
                reason: err.to_string(),
            })?;
        }
        Fixture::prepare_verified(events, profiles, limits, filters)
    }

    /// [`Fixture::prepare`] without verifying ids and signatures again,
    /// round trips still asserted. Only for events a campaign has already
    /// audited and whose other children verify them in the same run: the
    /// instruction probe ([`crate::campaign::instructions`]), where
    /// verifying every event under Valgrind would cost more than the count.
    pub fn prepare_verified(
        events: Vec<Event>,
        profiles: &[&'static Profile],
        limits: Limits,
        filters: Option<Vec<crate::filter::Filter>>,
    ) -> Result<Fixture, FixtureError> {
        let json_len = events.iter().map(|e| e.to_json().len()).collect();
        let profiles = profiles
            .par_iter()
            .map(|p| encode_all(p, &events, &limits))
            .collect::<Result<Vec<_>, _>>()?;
        let filters = match filters {
            Some(filters) => Filters::judged(&events, filters)?,
            None => Filters::drawn(&events)?,
        };
        profiles
            .par_iter()
            .try_for_each(|p| filters.check(p, &limits))?;
        let raw_offset = events
            .iter()
            .map(|e| {
                let mut r = [0u8; 34];
                r[..32].copy_from_slice(&e.pubkey);
                r[32..].copy_from_slice(&e.kind.to_be_bytes());
                r
            })
            .collect();
        Ok(Fixture {
            events,
            json_len,
            profiles,
            raw_offset,
            limits,
            filters,
        })
    }

    /// Indices of the events in `subset`.
    pub fn subset(&self, subset: Subset) -> Vec<usize> {
        (0..self.events.len())
            .filter(|&i| subset.contains(self.events[i].kind, self.json_len[i]))
            .collect()
    }

    /// The records of profile `id`.
    pub fn records(&self, id: &str) -> Option<&ProfileRecords> {
        self.profiles.iter().find(|p| p.profile.id == id)
    }
}

fn encode_all(
    profile: &'static Profile,
    events: &[Event],
    limits: &Limits,
) -> Result<ProfileRecords, FixtureError> {
    let codec = profile.codec;
    let mut records = Vec::with_capacity(events.len());
    for (index, e) in events.iter().enumerate() {
        let mut out = Vec::new();
        codec
            .encode(e, &mut out)
            .map_err(|err| FixtureError::NotRepresentable {
                profile: profile.id,
                index,
                reason: err.reason,
            })?;
        let fail = |detail: String| FixtureError::RoundTrip {
            profile: profile.id,
            index,
            detail,
        };
        let back = codec
            .decode(&out, limits)
            .map_err(|err| fail(err.to_string()))?;
        if &back != e {
            return Err(fail("decoded event differs".into()));
        }
        if let Some(b) = codec.borrowed() {
            let got = b
                .kind_and_pubkey(&out, limits)
                .map_err(|err| fail(err.to_string()))?;
            if got != (e.kind, e.pubkey) {
                return Err(fail("borrowed kind/pubkey differ".into()));
            }
        }
        records.push(out);
    }
    Ok(ProfileRecords { profile, records })
}

/// Indices and reasons of the events a profile refuses.
pub type Refusals = Vec<(usize, String)>;

/// `profiles` split into those that represent every one of `events` and
/// the others, each with the events it refuses. A profile of the second
/// kind is measured apart, on the events it represents, paired with json
/// on them, so that no event is lost to the rest; json, the reference of
/// that pairing, must therefore represent every event.
pub fn split_profiles(
    profiles: &[&'static Profile],
    events: &[Event],
) -> Result<SplitProfiles, FixtureError> {
    let mut split = SplitProfiles::default();
    for &p in profiles {
        let refused: Refusals = events
            .par_iter()
            .enumerate()
            .filter_map(|(i, e)| {
                let mut buf = Vec::new();
                p.codec.encode(e, &mut buf).err().map(|err| (i, err.reason))
            })
            .collect();
        if refused.is_empty() {
            split.whole.push(p);
        } else if p.id == BASELINE {
            return Err(FixtureError::RoundTrip {
                profile: p.id,
                index: refused[0].0,
                detail: format!("json, the reference, cannot represent it: {}", refused[0].1),
            });
        } else {
            split.apart.push((p, refused));
        }
    }
    Ok(split)
}

/// The events of `events` that a profile with `refused` represents, in order.
pub fn represented(events: &[Event], refused: &Refusals) -> Vec<Event> {
    let gone: std::collections::BTreeSet<usize> = refused.iter().map(|(i, _)| *i).collect();
    (0..events.len())
        .filter(|i| !gone.contains(i))
        .map(|i| events[i].clone())
        .collect()
}

/// What [`split_profiles`] returns.
#[derive(Default)]
pub struct SplitProfiles {
    /// The profiles that represent every event.
    pub whole: Vec<&'static Profile>,
    /// The others, with the events each refuses.
    pub apart: Vec<(&'static Profile, Refusals)>,
}

/// `events` split into those every one of `profiles` can encode and the
/// others, each with the first profile that refused it and its reason.
pub fn representable(
    events: Vec<Event>,
    profiles: &[&'static Profile],
) -> (Vec<Event>, Vec<(Event, &'static str, String)>) {
    let refused: Vec<Option<(&'static str, String)>> = events
        .par_iter()
        .map(|e| {
            let mut buf = Vec::new();
            profiles.iter().find_map(|p| {
                buf.clear();
                p.codec
                    .encode(e, &mut buf)
                    .err()
                    .map(|err| (p.id, err.reason))
            })
        })
        .collect();
    let mut kept = Vec::with_capacity(events.len());
    let mut dropped = Vec::new();
    for (e, r) in events.into_iter().zip(refused) {
        match r {
            Some((profile, reason)) => dropped.push((e, profile, reason)),
            None => kept.push(e),
        }
    }
    (kept, dropped)
}

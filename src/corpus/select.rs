//! Seeded selection, stratified by kind.
//!
//! Each kind gets a quota proportional to its share of the input (largest
//! remainder), and its events are drawn by a seeded partial Fisher–Yates
//! shuffle over the kind's events sorted by id. The result depends only on
//! the set of input events, the seed and the count, not on file order.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use crate::model::Event;

/// Where the [`SelectionRecord`] of a selection written to `output` goes:
/// `FILE.selection.json` beside it.
pub fn record_path(output: &Path) -> PathBuf {
    let mut name = output.file_name().unwrap_or_default().to_os_string();
    name.push(".selection.json");
    output.with_file_name(name)
}

/// What a selection was made from and what it holds; stored beside it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SelectionRecord {
    /// Seed of the shuffle that drew the events; the same seed, inputs and
    /// count give the same selection.
    pub seed: u64,
    /// Events selected.
    pub count: usize,
    /// Distinct accepted events it was drawn from.
    pub available: usize,
    /// Fingerprint of the selected ids (see [`super::fingerprint`]).
    pub fingerprint: String,
    /// Fingerprint of the events it was drawn from.
    pub source_fingerprint: String,
    /// Selected events per kind.
    pub kinds: BTreeMap<u16, usize>,
}

/// Why a selection could not be made.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SelectError {
    /// More events were asked for than exist.
    #[error("asked for {requested} events but only {available} distinct accepted events exist")]
    TooFew {
        /// The count asked for.
        requested: usize,
        /// The events available.
        available: usize,
    },
}

/// Selects `count` events from `events` (duplicates by id are dropped first).
/// The selection is returned sorted by id.
pub fn select(
    mut events: Vec<Event>,
    seed: u64,
    count: usize,
) -> Result<(Vec<Event>, SelectionRecord), SelectError> {
    events.sort_unstable_by_key(|e| e.id);
    events.dedup_by(|a, b| a.id == b.id);
    let available = events.len();
    if count > available {
        return Err(SelectError::TooFew {
            requested: count,
            available,
        });
    }
    let source_fingerprint = super::fingerprint(events.iter().map(|e| &e.id));
    let mut strata: BTreeMap<u16, Vec<Event>> = BTreeMap::new();
    for e in events {
        strata.entry(e.kind).or_default().push(e);
    }
    let sizes: Vec<(u16, usize)> = strata.iter().map(|(k, v)| (*k, v.len())).collect();
    let quotas = quotas(&sizes, count);
    let mut selected = Vec::with_capacity(count);
    for (kind, quota) in quotas {
        let pool = strata.get_mut(&kind).expect("quota for a present kind");
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(u64::from(kind));
        for i in 0..quota {
            let j = i + uniform(&mut rng, pool.len() - i);
            pool.swap(i, j);
        }
        pool.truncate(quota);
        selected.append(pool);
    }
    selected.sort_unstable_by_key(|e| e.id);
    let mut kinds = BTreeMap::new();
    for e in &selected {
        *kinds.entry(e.kind).or_default() += 1;
    }
    let record = SelectionRecord {
        seed,
        count,
        available,
        fingerprint: super::fingerprint(selected.iter().map(|e| &e.id)),
        source_fingerprint,
        kinds,
    };
    Ok((selected, record))
}

/// Largest-remainder apportionment of `count` over strata of the given sizes.
fn quotas(sizes: &[(u16, usize)], count: usize) -> Vec<(u16, usize)> {
    let total: usize = sizes.iter().map(|s| s.1).sum();
    if total == 0 {
        return Vec::new();
    }
    let mut out: Vec<(u16, usize, usize)> = sizes
        .iter()
        .map(|&(kind, n)| {
            let exact = n as u128 * count as u128;
            let quota = usize::try_from(exact / total as u128).expect("quota ≤ count");
            let remainder = usize::try_from(exact % total as u128).expect("remainder < total");
            (kind, quota, remainder)
        })
        .collect();
    let mut missing = count - out.iter().map(|o| o.1).sum::<usize>();
    let mut order: Vec<usize> = (0..out.len()).collect();
    order.sort_by(|&a, &b| out[b].2.cmp(&out[a].2).then(out[a].0.cmp(&out[b].0)));
    for i in order {
        if missing == 0 {
            break;
        }
        out[i].1 += 1;
        missing -= 1;
    }
    out.into_iter().map(|(k, q, _)| (k, q)).collect()
}

/// An unbiased draw from `0..n` (`n > 0`).
fn uniform(rng: &mut ChaCha8Rng, n: usize) -> usize {
    let n = n as u64;
    let zone = u64::MAX - (u64::MAX % n);
    loop {
        let x = rng.next_u64();
        if x < zone {
            return usize::try_from(x % n).expect("below n");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(i: u8, kind: u16) -> Event {
        Event {
            id: [i; 32],
            pubkey: [0; 32],
            sig: [0; 64],
            created_at: 0,
            kind,
            tags: vec![],
            content: String::new(),
        }
    }

    fn corpus() -> Vec<Event> {
        (0..100u8)
            .map(|i| {
                event(
                    i,
                    if i < 70 {
                        1
                    } else if i < 95 {
                        7
                    } else {
                        3
                    },
                )
            })
            .collect()
    }

    #[test]
    fn quotas_follow_shares() {
        assert_eq!(
            quotas(&[(1, 70), (3, 5), (7, 25)], 10),
            vec![(1, 7), (3, 1), (7, 2)]
        );
        assert_eq!(
            quotas(&[(1, 1), (2, 1), (3, 1)], 2),
            vec![(1, 1), (2, 1), (3, 0)]
        );
    }

    #[test]
    fn deterministic_and_order_independent() {
        let (a, ra) = select(corpus(), 42, 20).unwrap();
        let mut reversed = corpus();
        reversed.reverse();
        reversed.push(event(3, 1)); // a duplicate id
        let (b, rb) = select(reversed, 42, 20).unwrap();
        assert_eq!(a, b);
        assert_eq!(ra, rb);
        assert_eq!(ra.count, 20);
        assert_eq!(ra.available, 100);
        assert_eq!(ra.kinds, BTreeMap::from([(1, 14), (3, 1), (7, 5)]));
        let (c, _) = select(corpus(), 43, 20).unwrap();
        assert_ne!(a, c, "another seed picks other events");
    }

    #[test]
    fn too_many_is_an_error() {
        assert_eq!(
            select(corpus(), 1, 101).unwrap_err(),
            SelectError::TooFew {
                requested: 101,
                available: 100
            }
        );
        let (all, record) = select(corpus(), 1, 100).unwrap();
        assert_eq!(all.len(), 100);
        assert_eq!(record.fingerprint, record.source_fingerprint);
    }
}

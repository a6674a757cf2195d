//! Seeded client REQs drawn from a corpus.
//!
//! [`draw`] cycles through six shapes a client sends, each filled from the
//! corpus so that most filters match something and some match nothing:
//!
//! | shape | filter |
//! |---|---|
//! | home feed | `authors`: 1..=16 corpus pubkeys plus 0..=3 absent ones, `kinds` `[1,6,7]`, `since` at a created_at quantile in 0.5..0.95, `limit` 500 |
//! | profile | `authors`: one corpus pubkey, `kinds` `[0]`, `limit` 1 |
//! | notifications | `#p`: one corpus `p` value, `kinds` `[1,6,7,9735]`, `limit` 100 |
//! | thread | `#e`: 1..=3 corpus `e` values, `kinds` `[1,7]` |
//! | ids lookup | `ids`: 1..=5 corpus ids plus one absent id |
//! | hashtag | `#t`: one corpus `t` value, `kinds` `[1]`, `since`/`until` at quantiles 0.1..0.5 and 0.5..1.0 |
//!
//! Tag values come from events of the kinds the filter asks for (a `p`
//! value from a note, not from a follow list). Corpus values are picked skewed toward the most frequent (a heavy head, as
//! on real relays). A shape whose tag has no value in the corpus uses a
//! seeded absent value, so it matches nothing rather than being dropped.

use std::collections::HashMap;

use sha2::{Digest, Sha256};

use super::Filter;
use crate::model::{Event, hex};
use crate::rng::Gen;

/// The seed of the filter set the benchmarks scan with.
pub const SEED: u64 = 1;

/// Filters in that set (ten of each shape).
pub const COUNT: usize = 60;

/// Kinds of a notifications filter.
const NOTIFICATION_KINDS: [u16; 4] = [1, 6, 7, 9735];

/// Kinds of a thread filter.
const THREAD_KINDS: [u16; 2] = [1, 7];

/// Shapes in the order [`draw`] cycles through them.
pub const SHAPES: [&str; 6] = [
    "home",
    "profile",
    "notifications",
    "thread",
    "ids",
    "hashtag",
];

/// Values of the corpus, most frequent first (ties in first-seen order).
struct Pools {
    pubkeys: Vec<[u8; 32]>,
    ids: Vec<[u8; 32]>,
    e: Vec<String>,
    p: Vec<String>,
    t: Vec<String>,
    times: Vec<u64>,
}

fn by_frequency<T: Clone + Eq + std::hash::Hash>(xs: impl Iterator<Item = T>) -> Vec<T> {
    let mut seen: HashMap<T, (usize, usize)> = HashMap::new();
    for (i, x) in xs.enumerate() {
        seen.entry(x).or_insert((0, i)).0 += 1;
    }
    let mut v: Vec<(T, (usize, usize))> = seen.into_iter().collect();
    v.sort_by_key(|(_, (n, first))| (std::cmp::Reverse(*n), *first));
    v.into_iter().map(|(x, _)| x).collect()
}

impl Pools {
    fn new(events: &[Event]) -> Self {
        let tag = |name: &str, kinds: &[u16]| {
            by_frequency(
                events
                    .iter()
                    .filter(|e| kinds.contains(&e.kind))
                    .flat_map(|e| {
                        e.tags
                            .iter()
                            .filter(move |t| t.len() >= 2 && t[0] == name)
                            .map(|t| t[1].clone())
                    }),
            )
        };
        let mut times: Vec<u64> = events.iter().map(|e| e.created_at).collect();
        times.sort_unstable();
        Self {
            pubkeys: by_frequency(events.iter().map(|e| e.pubkey)),
            ids: events.iter().map(|e| e.id).collect(),
            e: tag("e", &THREAD_KINDS),
            p: tag("p", &NOTIFICATION_KINDS),
            t: tag("t", &[1]),
            times,
        }
    }

    /// The created_at at quantile `u` (0 for an empty corpus).
    fn at(&self, u: f64) -> u64 {
        if self.times.is_empty() {
            return 0;
        }
        self.times[((self.times.len() - 1) as f64 * u) as usize]
    }
}

fn pick<T: Clone>(g: &mut Gen, xs: &[T]) -> Option<T> {
    (!xs.is_empty()).then(|| xs[g.skewed(xs.len())].clone())
}

/// `n` distinct values of `xs` (fewer when `xs` has fewer), skewed picks.
fn some<T: Clone + PartialEq>(g: &mut Gen, xs: &[T], n: usize) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    for _ in 0..n * 4 {
        if out.len() == n.min(xs.len()) {
            break;
        }
        if let Some(x) = pick(g, xs)
            && !out.contains(&x)
        {
            out.push(x);
        }
    }
    out
}

fn tag_value(g: &mut Gen, pool: &[String]) -> String {
    pick(g, pool).unwrap_or_else(|| hex::encode(&g.bytes::<32>()))
}

/// `count` filters drawn from `events`, a pure function of the events, the
/// seed and the count; shape `i % 6` of [`SHAPES`] for the `i`-th.
pub fn draw(events: &[Event], seed: u64, count: usize) -> Vec<Filter> {
    let pools = Pools::new(events);
    let key: [u8; 32] = Sha256::digest(format!("binostr-filters/{seed}"))
        .as_slice()
        .try_into()
        .expect("32 bytes");
    let mut g = Gen::new(key, 0);
    (0..count)
        .map(|i| {
            let mut f = Filter::default();
            match i % SHAPES.len() {
                0 => {
                    let n = 1 + g.below(16);
                    let mut authors = some(&mut g, &pools.pubkeys, n);
                    for _ in 0..g.below(4) {
                        authors.push(g.bytes());
                    }
                    g.shuffle(&mut authors);
                    f.authors = Some(authors);
                    f.kinds = Some(vec![1, 6, 7]);
                    f.since = Some(pools.at(0.5 + 0.45 * g.unit()));
                    f.limit = Some(500);
                }
                1 => {
                    f.authors = Some(vec![
                        pick(&mut g, &pools.pubkeys).unwrap_or_else(|| g.bytes()),
                    ]);
                    f.kinds = Some(vec![0]);
                    f.limit = Some(1);
                }
                2 => {
                    f.tags.insert('p', vec![tag_value(&mut g, &pools.p)]);
                    f.kinds = Some(NOTIFICATION_KINDS.to_vec());
                    f.limit = Some(100);
                }
                3 => {
                    let n = 1 + g.below(3);
                    let mut e = some(&mut g, &pools.e, n);
                    if e.is_empty() {
                        e.push(tag_value(&mut g, &[]));
                    }
                    f.tags.insert('e', e);
                    f.kinds = Some(THREAD_KINDS.to_vec());
                }
                4 => {
                    let n = 1 + g.below(5);
                    let mut ids: Vec<[u8; 32]> = Vec::new();
                    while ids.len() < n.min(pools.ids.len()) {
                        let id = g.pick(&pools.ids);
                        if !ids.contains(&id) {
                            ids.push(id);
                        }
                    }
                    ids.push(g.bytes());
                    f.ids = Some(ids);
                }
                _ => {
                    f.tags.insert('t', vec![tag_value(&mut g, &pools.t)]);
                    f.kinds = Some(vec![1]);
                    f.since = Some(pools.at(0.1 + 0.4 * g.unit()));
                    f.until = Some(pools.at(0.5 + 0.5 * g.unit()));
                }
            }
            f
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_are_seeded_shaped_and_mostly_match() {
        let events = crate::corpus::generate::generate(3, 400);
        let a = draw(&events, 7, 60);
        assert_eq!(a, draw(&events, 7, 60));
        assert_ne!(a, draw(&events, 8, 60));
        assert_eq!(a.len(), 60);
        assert_eq!(draw(&events, 7, 6)[..], a[..6], "a prefix of a longer draw");
        let matching = |f: &Filter| events.iter().filter(|e| f.matches_on(*e)).count();
        for (i, f) in a.iter().enumerate() {
            match SHAPES[i % 6] {
                "profile" => assert_eq!(f.kinds, Some(vec![0])),
                "ids" => {
                    let ids = f.ids.as_ref().unwrap();
                    assert_eq!(matching(f), ids.len() - 1, "one id is absent: {i}");
                }
                "home" => assert!(f.authors.as_ref().unwrap().len() <= 19),
                _ => {}
            }
            let back = Filter::from_json(&f.to_json()).unwrap();
            assert_eq!(&back, f, "drawn filters parse back");
        }
        let hits = a.iter().filter(|f| matching(f) > 0).count();
        assert!(
            hits * 2 > a.len(),
            "most filters match something: {hits}/60"
        );
        assert!(hits < a.len(), "some match nothing");
    }
}

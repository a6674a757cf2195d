//! Deterministic default corpus: real keys, valid signatures, calibrated shapes.
//!
//! [`generate`] turns a `u64` seed and a count into signed NIP-01 events that
//! work offline on a fresh machine. The same seed and count give the same
//! events, hence the same [`write_jsonl`](crate::files::write_jsonl) bytes, on every platform: all
//! randomness comes from ChaCha20 keyed by SHA-256 of the seed, and all
//! real-valued arithmetic uses correctly rounded IEEE operations only.
//!
//! # Model
//!
//! - **Kind mix.** [`KIND_SHARES`] holds the published traffic shares of the
//!   20 most frequent kinds (BigBrotr/analysis, MIT, 172.66 million events,
//!   Dec 2022 to Jul 2025; see `docs/CORPUS.md`), plus
//!   kind 30023 (see below). Counts are apportioned exactly over the table
//!   ([`kind_counts`], largest remainder), so a corpus of `n` events holds each
//!   kind within one event of `n × share / Σ shares`; the order is shuffled.
//! - **Sizes.** Each kind's main size parameter (tags of a follow list,
//!   bytes of a note, entries of a DVM result...) follows a piecewise
//!   log-linear inverse CDF through measured quantiles. Kind 3 uses the
//!   published crawl of follow lists (`p` tags p25 98, p50 317, p75 618, p90
//!   984, p99 2,606, max 5,413); the others use quantiles measured on the real
//!   events under `../shared/corpus/upstream` (`corpus::calibrate` compares
//!   the two). The quantile of each event is stratified within its kind, so
//!   even small corpora reproduce the distributions closely.
//! - **Keys.** 300 authors, 8 LNURL zap servers and 6 DVMs with real secp256k1
//!   keys (secret = SHA-256(seed key ‖ role ‖ index ‖ attempt), retried until
//!   valid); authors post with a heavy-headed skew. Gift wraps use a fresh
//!   ephemeral key each, as NIP-59 requires. Referenced pubkeys and event ids
//!   come from seeded pools with the same skew, so popular ones recur across
//!   events as they do on relays.
//! - **Signatures.** Ids are NIP-01 SHA-256 ids and signatures are BIP-340
//!   with auxiliary randomness drawn from each event's own ChaCha20 stream;
//!   events are built and signed in parallel (rayon) and collected in order.
//! - **Shapes.** Follow lists with `p` tags (some with relay hints and
//!   petnames) and relay-JSON content; reactions (`+`, `-`, emoji, custom
//!   emoji); reposts embedding a full signed kind 1 event; profile metadata
//!   JSON; zap receipts with a BOLT 11 invoice of realistic length and valid
//!   bech32 checksum, the signed kind 9734 request in `description`, and a
//!   `preimage` that hashes to the invoice's payment hash; NIP-04 `base64?iv=`
//!   and NIP-44 (gift wraps, drafts) ciphertext of spec-exact padded lengths;
//!   NIP-65 relay lists; NIP-90 requests and results embedding the signed
//!   request; notes in English, other Latin-script languages, CJK and
//!   right-to-left scripts, with hashtags, `nostr:` mentions, URLs, `imeta`,
//!   emoji, and occasionally newlines, CRLF, tabs, quotes, backslashes and
//!   U+2028. A small share of `e`/`p` tag values is written as non-canonical
//!   hex (uppercase, mixed case, odd length, `0x`-prefixed), which codecs must
//!   keep as strings.
//! - **Time.** `created_at` is uniform over 2023-01-01 to 2025-07-31 (the
//!   window of the published shares); embedded events precede their wrapper.
//!
//! # Deviations from the published mix
//!
//! - Kind 30023 (long-form Markdown) is not in the published top 20; it is
//!   added at 0.25 %, the smallest published share, so that long texts are
//!   represented. The published shares sum to 96.82 %; with this addition
//!   the table sums to 97.07 % and every share is normalised over that sum.
//! - Kinds 321 and 1010 have no published NIP; they are modelled as small
//!   events with short text or JSON content and an `e` or `p` reference.
//! - 60 % of reposts have empty content, which NIP-18 allows (as 134 of
//!   the 220 real ones do); the rest embed the reposted note.

use binostr_records::BIGBROTR_KINDS;
use binostr_records::CRAWL_FOLLOW_MEDIAN as CRAWL;
use rayon::prelude::*;
use secp256k1::Keypair;

use crate::model::Event;

mod curve;
mod encode;
mod kinds;
mod text;

use crate::rng::Gen;
use encode::sha256;

pub use kinds::FOLLOWS;

/// Kind shares in percent: the published top 20
/// ([`binostr_records::BIGBROTR_KINDS`]), in published order, then kind
/// 30023 added by this generator (see the module documentation). Shares are
/// normalised over the sum of this table.
pub const KIND_SHARES: [(u16, f64); 21] = {
    let mut table = [(30023, 0.25); 21];
    let mut i = 0;
    while i < BIGBROTR_KINDS.len() {
        table[i] = BIGBROTR_KINDS[i];
        i += 1;
    }
    table
};

/// Earliest `created_at`: 2023-01-01T00:00:00Z.
pub const FIRST_TIMESTAMP: u64 = 1_672_531_200;
/// Latest `created_at`: 2025-07-31T00:00:00Z.
pub const LAST_TIMESTAMP: u64 = 1_753_920_000;

const USERS: usize = 300;
const ZAPPERS: usize = 8;
const DVMS: usize = 6;
/// Pubkeys that are followed and mentioned but do not author events here.
const OTHER_PUBKEYS: usize = 30_000;
/// Event ids that events refer to.
const NOTE_IDS: usize = 50_000;

/// Shared, read-only state of one generation run.
struct Ctx {
    key: [u8; 32],
    users: Vec<Keypair>,
    user_pks: Vec<[u8; 32]>,
    zappers: Vec<Keypair>,
    dvms: Vec<Keypair>,
    others: Vec<[u8; 32]>,
    notes: Vec<[u8; 32]>,
}

impl Ctx {
    fn new(seed: u64) -> Self {
        let mut s = b"binostr/corpus/generate/v1".to_vec();
        s.extend_from_slice(&seed.to_le_bytes());
        let key = sha256(&s);
        let keys = |role: &str, n: usize| -> Vec<Keypair> {
            (0..n as u32)
                .into_par_iter()
                .map(|i| derive_keypair(&key, role, i))
                .collect()
        };
        let users = keys("user", USERS);
        let user_pks = users
            .iter()
            .map(|k| k.x_only_public_key().0.to_byte_array())
            .collect();
        let pool = |stream: u64, n: usize| -> Vec<[u8; 32]> {
            let mut g = Gen::new(key, stream);
            (0..n).map(|_| g.bytes()).collect()
        };
        Self {
            key,
            users,
            user_pks,
            zappers: keys("zapper", ZAPPERS),
            dvms: keys("dvm", DVMS),
            others: pool(u64::MAX, OTHER_PUBKEYS),
            notes: pool(u64::MAX - 1, NOTE_IDS),
        }
    }

    /// An author, skewed toward the most active.
    fn user(&self, g: &mut Gen) -> &Keypair {
        &self.users[g.skewed(self.users.len())]
    }

    /// An author's pubkey, skewed like [`Ctx::user`].
    fn user_pk(&self, g: &mut Gen) -> [u8; 32] {
        self.user_pks[g.skewed(self.user_pks.len())]
    }

    fn zapper(&self, g: &mut Gen) -> &Keypair {
        &self.zappers[g.skewed(self.zappers.len())]
    }

    fn dvm(&self, g: &mut Gen) -> &Keypair {
        &self.dvms[g.skewed(self.dvms.len())]
    }

    /// A referenced pubkey: an author or someone outside the corpus.
    fn pubkey(&self, g: &mut Gen) -> &[u8; 32] {
        if g.chance(0.5) {
            &self.user_pks[g.skewed(self.user_pks.len())]
        } else {
            &self.others[g.skewed(self.others.len())]
        }
    }

    /// A referenced event id.
    fn note(&self, g: &mut Gen) -> &[u8; 32] {
        &self.notes[g.skewed(self.notes.len())]
    }

    /// Number of pubkeys a follow list draws from.
    fn follow_universe(&self) -> usize {
        self.user_pks.len() + self.others.len()
    }

    /// Pubkey `i` of the follow universe: authors first, so they are the
    /// most followed.
    fn follow_target(&self, i: usize) -> &[u8; 32] {
        self.user_pks
            .get(i)
            .unwrap_or_else(|| &self.others[i - self.user_pks.len()])
    }

    /// A fresh one-time key (NIP-59 gift wraps).
    fn ephemeral_key(&self, g: &mut Gen) -> Keypair {
        loop {
            if let Ok(k) = Keypair::from_secret_bytes(g.bytes()) {
                return k;
            }
        }
    }

    fn timestamp(&self, g: &mut Gen) -> u64 {
        g.range(FIRST_TIMESTAMP, LAST_TIMESTAMP)
    }
}

/// secret = SHA-256(key ‖ role ‖ index ‖ attempt), the first valid one.
pub fn derive_keypair(key: &[u8; 32], role: &str, index: u32) -> Keypair {
    (0u32..)
        .find_map(|attempt| {
            let mut m = key.to_vec();
            m.extend_from_slice(role.as_bytes());
            m.extend_from_slice(&index.to_le_bytes());
            m.extend_from_slice(&attempt.to_le_bytes());
            Keypair::from_secret_bytes(sha256(&m)).ok()
        })
        .expect("a valid secret key is found within a few attempts")
}

/// An event signed by key `author` of the fixed key set `SHA-256(domain)`
/// ([`derive_keypair`]), with auxiliary randomness `SHA-256(name)`: the
/// same bytes on every run (interop vectors, awkward valid events).
pub fn signed_by_name(
    domain: &[u8],
    author: u32,
    name: &str,
    head: (u16, u64),
    tags: Vec<Vec<String>>,
    content: String,
) -> Event {
    let keypair = derive_keypair(&sha256(domain), "author", author);
    crate::validate::signed_event(&keypair, &sha256(name.as_bytes()), head, tags, content)
}

/// How many events of each kind a corpus of `count` events holds: the
/// largest-remainder apportionment of `count` over [`KIND_SHARES`], in table
/// order (ties go to the kind listed first). Kinds with no events are listed
/// with 0.
pub fn kind_counts(count: usize) -> Vec<(u16, usize)> {
    let total: f64 = KIND_SHARES.iter().map(|(_, s)| s).sum();
    let quotas: Vec<f64> = KIND_SHARES
        .iter()
        .map(|(_, s)| count as f64 * s / total)
        .collect();
    let counts = apportion(&quotas, count);
    KIND_SHARES
        .iter()
        .zip(counts)
        .map(|(&(k, _), n)| (k, n))
        .collect()
}

/// Largest-remainder apportionment of `n` over `quotas` (summing to `n`):
/// floors, then one more to each largest remainder, ties to the earlier.
pub fn apportion(quotas: &[f64], n: usize) -> Vec<usize> {
    let mut counts: Vec<usize> = quotas.iter().map(|q| q.floor() as usize).collect();
    let assigned: usize = counts.iter().sum();
    let mut order: Vec<usize> = (0..quotas.len()).collect();
    order.sort_by(|&a, &b| {
        let (ra, rb) = (quotas[a] - quotas[a].floor(), quotas[b] - quotas[b].floor());
        rb.total_cmp(&ra).then(a.cmp(&b))
    });
    for &i in order.iter().take(n.saturating_sub(assigned)) {
        counts[i] += 1;
    }
    counts
}

/// The kind and stratified size quantile of every event, in corpus order.
fn plan(key: [u8; 32], count: usize) -> Vec<(u16, f64)> {
    let mut g = Gen::new(key, 0);
    let mut kinds: Vec<u16> = kind_counts(count)
        .into_iter()
        .flat_map(|(k, n)| std::iter::repeat_n(k, n))
        .collect();
    g.shuffle(&mut kinds);
    let mut strata: Vec<(u16, Vec<f64>)> = kind_counts(count)
        .into_iter()
        .map(|(k, n)| {
            let mut slots: Vec<usize> = (0..n).collect();
            g.shuffle(&mut slots);
            let us = slots
                .into_iter()
                .map(|j| (j as f64 + g.unit()) / n as f64)
                .collect();
            (k, us)
        })
        .collect();
    kinds
        .into_iter()
        .map(|k| {
            let (_, us) = strata
                .iter_mut()
                .find(|(sk, _)| *sk == k)
                .expect("every planned kind has strata");
            (k, us.pop().expect("one stratum per planned event"))
        })
        .collect()
}

/// Generates `count` signed events from `seed`. Deterministic: the same seed
/// and count always give the same events, on any platform and thread count.
pub fn generate(seed: u64, count: usize) -> Vec<Event> {
    let mut events = Vec::with_capacity(count);
    generate_each(seed, count, count.max(1), |chunk| {
        events.extend(chunk);
        Ok::<_, std::convert::Infallible>(())
    })
    .unwrap_or_else(|never| match never {});
    events
}

/// The events of [`generate`], built in parallel `chunk` at a time and
/// handed to `each` in order. Memory: the plan (a kind and a quantile, 16
/// bytes per event, so that a seed keeps its events) and one chunk.
pub fn generate_each<E>(
    seed: u64,
    count: usize,
    chunk: usize,
    mut each: impl FnMut(Vec<Event>) -> Result<(), E>,
) -> Result<(), E> {
    let ctx = Ctx::new(seed);
    let plan = plan(ctx.key, count);
    for (c, part) in plan.chunks(chunk.max(1)).enumerate() {
        let events = part
            .par_iter()
            .enumerate()
            .map(|(j, &(kind, u))| {
                let i = c * chunk.max(1) + j;
                let mut g = Gen::new(ctx.key, i as u64 + 1);
                kinds::build(&ctx, &mut g, kind, u)
            })
            .collect();
        each(events)?;
    }
    Ok(())
}

/// Medians of the follow lists [`follow_lists`] builds for the mix
/// sensitivity, the published crawl's among them.
pub const FOLLOW_LIST_MEDIANS: [usize; 6] = [100, 200, CRAWL as usize, 400, 500, 600];

/// `count` signed follow lists from `seed` whose `p` tag counts follow the
/// published crawl's quantiles scaled so that their median is
/// `median_tags`, one per equal quantile stratum. Deterministic.
pub fn follow_lists(seed: u64, count: usize, median_tags: usize) -> Vec<Event> {
    let ctx = Ctx::new(seed);
    let scale = median_tags as f64 / f64::from(CRAWL);
    (0..count)
        .into_par_iter()
        .map(|i| {
            let mut g = Gen::new(ctx.key, (median_tags as u64) << 32 | i as u64);
            let u = (i as f64 + g.unit()) / count as f64;
            kinds::scaled_follow_list(&ctx, &mut g, u, scale)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::sync::OnceLock;

    use super::*;
    use crate::corpus::calibrate::percentile;
    use crate::files::write_jsonl;
    use crate::model::hex;
    use crate::validate::{Limits, check_limits, parse_event_json, verify_event};

    /// Signing and verifying are slow without optimisation; debug runs use a
    /// smaller corpus with the same assertions.
    const N: usize = if cfg!(debug_assertions) {
        2_000
    } else {
        10_000
    };
    const SEED: u64 = 0xB1_0057;
    /// SHA-256 of the JSONL of `generate(1, 64)`.
    const GOLDEN_SEED1_N64: &str =
        "2a9a64851816fc91050ff7774f01cd09cdbefe22a03e83edb3555d8d0a4252b4";

    fn corpus() -> &'static [Event] {
        static CORPUS: OnceLock<Vec<Event>> = OnceLock::new();
        CORPUS.get_or_init(|| {
            let t = std::time::Instant::now();
            let events = generate(SEED, N);
            eprintln!("generated {N} events in {:.2?}", t.elapsed());
            events
        })
    }

    fn jsonl(events: &[Event]) -> Vec<u8> {
        let mut out = Vec::new();
        write_jsonl(events, &mut out).unwrap();
        out
    }

    #[test]
    fn same_seed_same_bytes_other_seed_other_bytes() {
        let a = jsonl(&generate(42, 300));
        let b = jsonl(&generate(42, 300));
        let c = jsonl(&generate(43, 300));
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(a.iter().filter(|&&b| b == b'\n').count(), 300);
        assert!(a.ends_with(b"\n"));
        let one_thread = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(|| jsonl(&generate(42, 300)));
        assert_eq!(a, one_thread, "independent of the thread count");
    }

    /// The default corpus is part of the benchmark's contract: any change to
    /// its bytes must be deliberate. After an intended change, replace the
    /// digest with the one this test prints.
    #[test]
    fn golden_digest_of_a_small_corpus() {
        let digest = hex::encode(&sha256(&jsonl(&generate(1, 64))));
        assert_eq!(digest, GOLDEN_SEED1_N64, "generator output changed");
    }

    #[test]
    fn jsonl_lines_parse_back_to_the_events() {
        let events = &corpus()[..200];
        let bytes = jsonl(events);
        for (line, e) in bytes.split(|&b| b == b'\n').zip(events) {
            assert_eq!(&parse_event_json(line, &Limits::default()).unwrap(), e);
        }
    }

    #[test]
    fn every_event_verifies_and_fits_the_limits() {
        let limits = Limits::default();
        corpus().par_iter().enumerate().for_each(|(i, e)| {
            verify_event(e).unwrap_or_else(|err| panic!("seed {SEED} event {i}: {err}"));
            check_limits(e, &limits).unwrap_or_else(|err| panic!("seed {SEED} event {i}: {err}"));
            let size = e.to_json().len();
            assert!(size <= limits.max_event_bytes, "event {i}: {size} bytes");
        });
    }

    #[test]
    fn kind_counts_follow_the_table() {
        for n in [0, 1, 7, 100, 999, 10_000] {
            let counts = kind_counts(n);
            assert_eq!(counts.iter().map(|(_, c)| c).sum::<usize>(), n);
        }
        let total: f64 = KIND_SHARES.iter().map(|(_, s)| s).sum();
        assert!((total - 97.07).abs() < 1e-9, "{total}");
        let mut seen: Vec<u16> = KIND_SHARES.iter().map(|(k, _)| *k).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), KIND_SHARES.len(), "kinds are unique");
    }

    /// Tolerance: one event of the corpus, the rounding of the apportionment.
    #[test]
    fn generated_kind_shares_match_the_table() {
        let events = corpus();
        let total: f64 = KIND_SHARES.iter().map(|(_, s)| s).sum();
        let one_event = 100.0 / N as f64;
        for (kind, share) in KIND_SHARES {
            let n = events.iter().filter(|e| e.kind == kind).count();
            let got = n as f64 * 100.0 / N as f64;
            let want = share * 100.0 / total;
            assert!(
                (got - want).abs() <= one_event,
                "kind {kind}: {got:.3}% vs {want:.3}% (seed {SEED})"
            );
        }
        assert!(
            events
                .iter()
                .all(|e| KIND_SHARES.iter().any(|(k, _)| *k == e.kind))
        );
    }

    /// Tolerances: median within 5 % of 317, p25 and p90 within 10 % of the
    /// published 98 and 984.
    #[test]
    fn scaled_follow_lists_have_the_asked_median() {
        for median in [100, 600] {
            let lists = follow_lists(7, 41, median);
            assert!(lists.iter().all(|e| e.kind == 3));
            let mut tags: Vec<usize> = lists
                .iter()
                .map(|e| e.tags.iter().filter(|t| t[0] == "p").count())
                .collect();
            tags.sort_unstable();
            let got = tags[20] as f64;
            assert!((got / median as f64 - 1.0).abs() < 0.1, "{median}: {got}");
            assert_eq!(lists, follow_lists(7, 41, median));
        }
    }

    #[test]
    fn follow_list_sizes_follow_the_crawl() {
        let mut counts: Vec<usize> = corpus()
            .iter()
            .filter(|e| e.kind == 3)
            .map(|e| e.tags.iter().filter(|t| t[0] == "p").count())
            .collect();
        counts.sort_unstable();
        assert!(counts.len() >= 80, "{}", counts.len());
        let near = |got: usize, want: f64, tol: f64| (got as f64 - want).abs() <= want * tol;
        let (p25, p50, p90) = (
            percentile(&counts, 25.0),
            percentile(&counts, 50.0),
            percentile(&counts, 90.0),
        );
        assert!(near(p50, 317.0, 0.05), "median {p50}");
        assert!(near(p25, 98.0, 0.10), "p25 {p25}");
        assert!(near(p90, 984.0, 0.10), "p90 {p90}");
        let follows: Vec<&Event> = corpus().iter().filter(|e| e.kind == 3).collect();
        for e in follows {
            let mut keys: Vec<&str> = e
                .tags
                .iter()
                .filter(|t| t[0] == "p")
                .map(|t| t[1].as_str())
                .collect();
            let n = keys.len();
            keys.sort_unstable();
            keys.dedup();
            assert_eq!(keys.len(), n, "no duplicate follows");
        }
    }

    #[test]
    fn content_covers_scripts_and_escapes() {
        let has = |pred: &dyn Fn(char) -> bool| {
            corpus()
                .iter()
                .filter(|e| e.content.chars().any(pred))
                .count()
        };
        let cases: [(&str, &dyn Fn(char) -> bool); 9] = [
            ("emoji", &|c| ('\u{1F300}'..='\u{1FAFF}').contains(&c)),
            ("CJK", &|c| {
                ('\u{3040}'..='\u{30FF}').contains(&c) || ('\u{4E00}'..='\u{9FFF}').contains(&c)
            }),
            ("Hangul", &|c| ('\u{AC00}'..='\u{D7A3}').contains(&c)),
            ("Arabic", &|c| ('\u{0600}'..='\u{06FF}').contains(&c)),
            ("Hebrew", &|c| ('\u{05D0}'..='\u{05EA}').contains(&c)),
            ("newline", &|c| c == '\n'),
            ("tab", &|c| c == '\t'),
            ("quote", &|c| c == '"'),
            ("backslash", &|c| c == '\\'),
        ];
        for (name, pred) in cases {
            assert!(has(pred) >= 3, "{name}: {} events", has(pred));
        }
        // Quotes and backslashes also occur outside embedded JSON.
        let notes = |c: char| {
            corpus()
                .iter()
                .filter(|e| e.kind == 1 && e.content.contains(c))
                .count()
        };
        assert!(notes('"') >= 3 && notes('\\') >= 3 && notes('\t') >= 3);
    }

    #[test]
    fn some_hex_like_tag_values_are_not_canonical() {
        let odd: Vec<&String> = corpus()
            .iter()
            .flat_map(|e| &e.tags)
            .filter(|t| t.len() > 1 && (t[0] == "e" || t[0] == "p"))
            .map(|t| &t[1])
            .filter(|v| !hex::is_lower_hex(v))
            .collect();
        assert!(
            odd.iter()
                .any(|v| v.len() == 64 && v.bytes().any(|b| b.is_ascii_uppercase()))
        );
        assert!(odd.iter().any(|v| v.len() == 63));
        assert!(odd.iter().any(|v| v.starts_with("0x")));
    }

    #[test]
    fn embedded_events_are_signed_events() {
        let limits = Limits::default();
        let embedded = |e: &Event, json: &str| {
            let inner = parse_event_json(json.as_bytes(), &limits)
                .unwrap_or_else(|err| panic!("kind {} embeds bad JSON: {err}", e.kind));
            verify_event(&inner).unwrap();
            assert!(inner.created_at <= e.created_at);
            inner
        };
        let mut seen = [0usize; 3];
        for e in corpus() {
            match e.kind {
                6 if !e.content.is_empty() => {
                    let inner = embedded(e, &e.content);
                    assert_eq!(inner.kind, 1);
                    assert_eq!(e.tags[0][1], hex::encode(&inner.id));
                    seen[0] += 1;
                }
                9735 => {
                    let desc = e.tags.iter().find(|t| t[0] == "description").unwrap();
                    assert_eq!(embedded(e, &desc[1]).kind, 9734);
                    let bolt11 = e.tags.iter().find(|t| t[0] == "bolt11").unwrap();
                    assert!(bolt11[1].starts_with("lnbc") && bolt11[1].len() > 250);
                    seen[1] += 1;
                }
                6300 => {
                    let req = e.tags.iter().find(|t| t[0] == "request").unwrap();
                    assert_eq!(embedded(e, &req[1]).kind, 5300);
                    seen[2] += 1;
                }
                _ => {}
            }
        }
        assert!(seen.iter().all(|&n| n > 5), "{seen:?}");
    }

    #[test]
    fn encrypted_payload_shapes() {
        let b64 = |s: &str| {
            !s.is_empty()
                && s.len().is_multiple_of(4)
                && s.bytes()
                    .all(|c| c.is_ascii_alphanumeric() || b"+/=".contains(&c))
        };
        for e in corpus() {
            match e.kind {
                4 => {
                    let (ct, iv) = e.content.split_once("?iv=").unwrap();
                    assert!(b64(ct) && b64(iv) && iv.len() == 24, "{}", e.content);
                }
                1059 => {
                    assert_eq!(e.tags.len(), 1);
                    assert_eq!(e.tags[0][0], "p");
                    assert!(b64(&e.content) && e.content.len() > 1000);
                }
                _ => {}
            }
        }
    }
}

//! The workloads, defined once over the registry and used by `cargo bench`
//! and by the campaign.
//!
//! A [`Fixture`] encodes a corpus with every profile and asserts each round
//! trip (and the borrowed view's kind and pubkey) before anything is timed.
//! [`Fixture::pass`] gives the timed body of one key: one **pass** over a
//! fixed event sequence ([`crate::bench::group::Sequence`]), the same for
//! every profile and every run, so time per event is pass time over the
//! events in the pass. Window workloads (`batch`, `stream`, `compress`) cover
//! every [`WINDOW`]-event window of the sequence in a pass; `ingest-mt`
//! validates the whole sequence on its thread pool; a `transport-*` pass is
//! one REQ → EOSE exchange of the whole sequence over a WebSocket connection
//! opened (and its first exchange checked) when the pass is made
//! ([`crate::transport::session`]). Which passes are timed
//! together is [`crate::bench::group`]'s business.

use std::fmt;
use std::hint::black_box;
use std::time::Instant;

use binostr_records::Mix;
use rayon::prelude::*;

use crate::bench::filtering::{self, Filters};
use crate::bench::fixture::{FixtureError, Pass, ProfileRecords};
use crate::codec::framing::{FrameStream, write_frame};
use crate::codec::{Limits, NativeBatch, Profile, SelectContract};
use crate::model::Event;
use crate::transport::Compression;
use crate::transport::envelope::Framing;
use crate::transport::relay::Store;
use crate::transport::session::Session;
use crate::validate;

/// Events per iteration of the window workloads.
pub const WINDOW: usize = 64;

/// Bytes per chunk fed to the `stream` workload (a TCP segment's payload).
pub const STREAM_CHUNK: usize = 1460;

/// zstd level of the `compress` workload and of the size records.
pub const ZSTD_LEVEL: i32 = crate::bench::sizes::ZSTD_LEVEL;

/// A workload; [`Workload::name`] is the stable name used in results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Workload {
    /// Event to bytes, into a reused buffer.
    Encode,
    /// Bytes to an owned event.
    Decode,
    /// Decode, then recompute and compare the id.
    DecodeId,
    /// Bounded decode, structural checks, id and BIP-340.
    Validate,
    /// Borrowed kind and pubkey read, whole record checked first.
    SelectChecked,
    /// Borrowed kind and pubkey read from a prefix of stored bytes.
    SelectPreverified,
    /// Every drawn REQ filter over the stored records, through a view whose
    /// record is checked (or an owned decode).
    FilterChecked,
    /// Every drawn REQ filter over the stored records, through a view that
    /// trusts stored bytes.
    FilterPreverified,
    /// The format's native batch container.
    Batch,
    /// A framed stream fed in 1460-byte chunks, with a trailing partial record.
    Stream,
    /// zstd over a framed window.
    Compress,
    /// Validated ingest on a thread pool.
    IngestMt,
    /// One REQ → EOSE exchange over an open WebSocket connection to a relay
    /// thread on loopback, every event decoded; no compression.
    TransportPlain,
    /// `transport-plain` with permessage-deflate, no context takeover.
    TransportDeflate,
    /// `transport-plain` with permessage-deflate and context takeover.
    TransportDeflateCtx,
    /// Reference: id and BIP-340 of an already decoded event.
    IdVerify,
    /// Reference: kind and pubkey read at known byte offsets.
    SelectRawOffset,
    /// Reference: the drawn filters matched over already decoded events.
    FilterEvent,
    /// Floor of `encode`: a copy of the profile's encoded bytes.
    Copy,
    /// Floor of `decode`: `Event::clone` of the decoded events.
    Clone,
}

impl Workload {
    /// Every workload, in report order.
    pub const ALL: [Workload; 20] = [
        Workload::Encode,
        Workload::Decode,
        Workload::DecodeId,
        Workload::Validate,
        Workload::SelectChecked,
        Workload::SelectPreverified,
        Workload::FilterChecked,
        Workload::FilterPreverified,
        Workload::Batch,
        Workload::Stream,
        Workload::Compress,
        Workload::IngestMt,
        Workload::TransportPlain,
        Workload::TransportDeflate,
        Workload::TransportDeflateCtx,
        Workload::IdVerify,
        Workload::SelectRawOffset,
        Workload::FilterEvent,
        Workload::Copy,
        Workload::Clone,
    ];

    /// The name results use, e.g. `decode+id`; [`Workload::from_name`] reads it
    /// back.
    pub fn name(self) -> &'static str {
        match self {
            Workload::Encode => "encode",
            Workload::Decode => "decode",
            Workload::DecodeId => "decode+id",
            Workload::Validate => "validate",
            Workload::SelectChecked => "select-checked",
            Workload::SelectPreverified => "select-preverified",
            Workload::FilterChecked => "filter-checked",
            Workload::FilterPreverified => "filter-preverified",
            Workload::Batch => "batch",
            Workload::Stream => "stream",
            Workload::Compress => "compress",
            Workload::IngestMt => "ingest-mt",
            Workload::TransportPlain => "transport-plain",
            Workload::TransportDeflate => "transport-deflate",
            Workload::TransportDeflateCtx => "transport-deflate-ctx",
            Workload::IdVerify => "id+verify",
            Workload::SelectRawOffset => "select-raw-offset",
            Workload::FilterEvent => "filter-event",
            Workload::Copy => "copy",
            Workload::Clone => "clone",
        }
    }

    /// The workload with this name.
    pub fn from_name(name: &str) -> Option<Workload> {
        Workload::ALL.into_iter().find(|w| w.name() == name)
    }

    /// The compression mode of a `transport-*` workload.
    pub fn transport_mode(self) -> Option<Compression> {
        match self {
            Workload::TransportPlain => Some(Compression::None),
            Workload::TransportDeflate => Some(Compression::Deflate),
            Workload::TransportDeflateCtx => Some(Compression::DeflateContext),
            _ => None,
        }
    }

    /// The `transport-*` workload of `mode`.
    pub fn transport(mode: Compression) -> Workload {
        match mode {
            Compression::None => Workload::TransportPlain,
            Compression::Deflate => Workload::TransportDeflate,
            Compression::DeflateContext => Workload::TransportDeflateCtx,
        }
    }

    /// Reference rows are measured once, not per profile.
    pub fn is_reference(self) -> bool {
        matches!(
            self,
            Workload::IdVerify
                | Workload::SelectRawOffset
                | Workload::FilterEvent
                | Workload::Clone
        )
    }

    /// Floors: the least work a workload must do (measured, never a profile).
    pub fn is_floor(self) -> bool {
        matches!(self, Workload::Copy | Workload::Clone)
    }
}

impl fmt::Display for Workload {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A slice of the corpus by kind or by compact JSON size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Subset {
    /// Every event.
    All,
    /// Events of one kind.
    Kind(u16),
    /// Events of every kind without a stratum of its own
    /// ([`binostr_records::STRATUM_KINDS`]).
    KindOther,
    /// A stream whose kinds follow the campaign's traffic mix
    /// ([`crate::bench::group::mix_sequence`]).
    Mix,
    /// Under 512 bytes of JSON.
    SizeLt512,
    /// 512 bytes to 4 KiB of JSON.
    Size512To4k,
    /// Over 4 KiB of JSON.
    SizeGt4k,
}

impl Subset {
    /// The subsets every workload runs on.
    pub const ALL: [Subset; 11] = [
        Subset::All,
        Subset::Mix,
        Subset::Kind(0),
        Subset::Kind(1),
        Subset::Kind(3),
        Subset::Kind(7),
        Subset::Kind(9735),
        Subset::KindOther,
        Subset::SizeLt512,
        Subset::Size512To4k,
        Subset::SizeGt4k,
    ];

    /// The name results use, e.g. `kind-1` or `size-lt512`;
    /// [`Subset::from_name`] reads it back.
    pub fn name(self) -> String {
        match self {
            Subset::All => "all".into(),
            Subset::Kind(k) => format!("kind-{k}"),
            Subset::KindOther => "kind-other".into(),
            Subset::Mix => "mix".into(),
            Subset::SizeLt512 => "size-lt512".into(),
            Subset::Size512To4k => "size-512-4k".into(),
            Subset::SizeGt4k => "size-gt4k".into(),
        }
    }

    /// The subset with this name.
    pub fn from_name(name: &str) -> Option<Subset> {
        Subset::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The kind stratum of an event of `kind`.
    pub fn stratum(kind: u16) -> Subset {
        if binostr_records::STRATUM_KINDS.contains(&kind) {
            Subset::Kind(kind)
        } else {
            Subset::KindOther
        }
    }

    /// Whether an event of `json_len` compact JSON bytes belongs here (every
    /// event may be drawn into `mix`).
    pub fn contains(self, event: &Event, json_len: usize) -> bool {
        match self {
            Subset::All | Subset::Mix => true,
            Subset::Kind(k) => event.kind == k,
            Subset::KindOther => Subset::stratum(event.kind) == Subset::KindOther,
            Subset::SizeLt512 => json_len < 512,
            Subset::Size512To4k => (512..=4096).contains(&json_len),
            Subset::SizeGt4k => json_len > 4096,
        }
    }
}

/// One benchmark: the key of a row in `samples.csv`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BenchKey {
    /// What one pass does; [`Workload::name`] in the CSV.
    pub workload: Workload,
    /// Profile id, or [`REFERENCE`](crate::bench::fixture::REFERENCE).
    pub profile: &'static str,
    /// The slice of the corpus the pass covers; [`Subset::name`] in the CSV.
    pub subset: Subset,
    /// Threads (1 except for `ingest-mt`).
    pub threads: usize,
}

impl fmt::Display for BenchKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{}/{}/{}t",
            self.workload,
            self.profile,
            self.subset.name(),
            self.threads
        )
    }
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
    raw_offset: Vec<[u8; 34]>,
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
            .filter(|&i| subset.contains(&self.events[i], self.json_len[i]))
            .collect()
    }

    /// The records of profile `id`.
    pub fn records(&self, id: &str) -> Option<&ProfileRecords> {
        self.profiles.iter().find(|p| p.profile.id == id)
    }

    /// One pass of `key` over the events `seq` (corpus indices).
    ///
    /// # Panics
    /// If the key's profile is not in the fixture, does not support the
    /// workload (keys from [`crate::bench::group::plan`] always do), or
    /// `seq` is empty.
    pub fn pass(&self, key: &BenchKey, seq: &[usize]) -> Pass<'_> {
        assert!(!seq.is_empty(), "{key}: empty sequence");
        let idx = seq.to_vec();
        let limits = self.limits;
        let events = &self.events;
        match key.workload {
            Workload::IdVerify => {
                return per_event(idx, move |i| {
                    validate::verify_event(black_box(&events[i])).expect("prepared");
                });
            }
            Workload::SelectRawOffset => {
                let raw = &self.raw_offset;
                return per_event(idx, move |i| {
                    let r = black_box(&raw[i]);
                    let pubkey: [u8; 32] = r[..32].try_into().expect("32 bytes");
                    black_box((u16::from_be_bytes([r[32], r[33]]), pubkey));
                });
            }
            Workload::FilterEvent => {
                return filtering::reference_pass(&self.filters, events, idx);
            }
            Workload::Clone => {
                return per_event(idx, move |i| {
                    black_box(black_box(&events[i]).clone());
                });
            }
            _ => {}
        }
        let p = self
            .records(key.profile)
            .unwrap_or_else(|| panic!("{key}: profile not in fixture"));
        let codec = p.profile.codec;
        let records = &p.records;
        match key.workload {
            Workload::Encode => {
                let mut buf = Vec::with_capacity(1 << 16);
                per_event(idx, move |i| {
                    buf.clear();
                    codec
                        .encode(black_box(&events[i]), &mut buf)
                        .expect("prepared");
                    black_box(&buf);
                })
            }
            Workload::Copy => {
                let mut buf = Vec::with_capacity(1 << 16);
                per_event(idx, move |i| {
                    buf.clear();
                    buf.extend_from_slice(black_box(&records[i]));
                    black_box(&buf);
                })
            }
            Workload::Decode => per_event(idx, move |i| {
                black_box(
                    codec
                        .decode(black_box(&records[i]), &limits)
                        .expect("prepared"),
                );
            }),
            Workload::DecodeId => per_event(idx, move |i| {
                let e = codec
                    .decode(black_box(&records[i]), &limits)
                    .expect("prepared");
                validate::verify_id(&e).expect("prepared");
                black_box(e);
            }),
            Workload::Validate => per_event(idx, move |i| {
                assert!(black_box(validate_record(codec, &records[i], &limits)));
            }),
            Workload::SelectChecked | Workload::SelectPreverified => {
                let b = codec.borrowed().expect("planned");
                per_event(idx, move |i| {
                    black_box(
                        b.kind_and_pubkey(black_box(&records[i]), &limits)
                            .expect("prepared"),
                    );
                })
            }
            Workload::FilterChecked | Workload::FilterPreverified => {
                filtering::pass(&self.filters, codec, records, idx, limits)
            }
            Workload::Batch => {
                let batch = codec.batch().expect("planned");
                let windows: Vec<(Vec<u8>, usize)> = windows(&idx)
                    .enumerate()
                    .map(|(k, w)| {
                        let evs: Vec<Event> = w.iter().map(|&i| events[i].clone()).collect();
                        let mut out = Vec::new();
                        batch.encode_batch(&evs, &mut out).expect("prepared");
                        check_batch(batch, &out, &evs, &limits)
                            .unwrap_or_else(|e| panic!("{key}: window {k}: {e}"));
                        (out, w.len())
                    })
                    .collect();
                per_window(windows, move |(w, n)| {
                    let got = batch.decode_batch(black_box(w), &limits).expect("prepared");
                    assert_eq!(got.len(), *n);
                    black_box(got);
                })
            }
            Workload::Stream => {
                let wins: Vec<Vec<usize>> = windows(&idx).collect();
                let streams: Vec<((Vec<u8>, usize), usize)> = wins
                    .iter()
                    .enumerate()
                    .map(|(w, win)| {
                        let next = wins[(w + 1) % wins.len()][0];
                        (framed_with_partial(records, win, next), win.len())
                    })
                    .collect();
                let mut stream = FrameStream::new(limits.max_event_bytes);
                per_window(streams, move |((bytes, partial), n)| {
                    decode_stream(&mut stream, codec, bytes, &limits, *n, *partial);
                })
            }
            Workload::Compress => {
                let mut z = zstd::bulk::Compressor::new(ZSTD_LEVEL).expect("zstd level");
                let streams: Vec<(Vec<u8>, usize)> = windows(&idx)
                    .enumerate()
                    .map(|(k, w)| {
                        let mut s = Vec::new();
                        for &i in &w {
                            write_frame(&mut s, &records[i]).expect("small record");
                        }
                        let compressed = z.compress(&s).expect("zstd");
                        check_compressed(&compressed, &s)
                            .unwrap_or_else(|e| panic!("{key}: window {k}: {e}"));
                        (s, w.len())
                    })
                    .collect();
                per_window(streams, move |(s, _)| {
                    black_box(z.compress(black_box(s)).expect("zstd"));
                })
            }
            Workload::IngestMt => {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(key.threads)
                    .build()
                    .expect("thread pool");
                let n = idx.len();
                Pass {
                    events: n as u64,
                    run: Box::new(move || {
                        let start = Instant::now();
                        let ok = pool.install(|| {
                            idx.par_iter()
                                .filter(|&&i| validate_record(codec, &records[i], &limits))
                                .count()
                        });
                        let t = start.elapsed();
                        assert_eq!(ok, n);
                        t
                    }),
                }
            }
            Workload::TransportPlain
            | Workload::TransportDeflate
            | Workload::TransportDeflateCtx => {
                let mode = key.workload.transport_mode().expect("a transport workload");
                let store = Store {
                    profile: p.profile,
                    framing: Framing::of(p.profile),
                    records: idx.iter().map(|&i| records[i].clone()).collect(),
                    events: idx.iter().map(|&i| events[i].clone()).collect(),
                };
                // The first exchange (fresh connection) is checked in full,
                // its bytes against the flate2 model; a mismatch refuses
                // the run.
                let mut session = Session::open(std::sync::Arc::new(store), mode, limits)
                    .unwrap_or_else(|e| panic!("{key}: {e}"));
                let key = key.clone();
                Pass {
                    events: idx.len() as u64,
                    run: Box::new(move || {
                        session
                            .exchange()
                            .unwrap_or_else(|e| panic!("{key}: {e}"))
                            .0
                    }),
                }
            }
            Workload::IdVerify
            | Workload::SelectRawOffset
            | Workload::FilterEvent
            | Workload::Clone => {
                unreachable!("handled above")
            }
        }
    }
}

/// `subsets` split into those with events in `events` and the empty ones.
pub fn split_subsets(
    events: &[Event],
    subsets: &[Subset],
    mix: &Mix,
) -> (Vec<Subset>, Vec<Subset>) {
    let lens: Vec<usize> = events.iter().map(|e| e.to_json().len()).collect();
    let has = |s: Subset| events.iter().zip(&lens).any(|(e, &len)| s.contains(e, len));
    // `mix` needs an event of every stratum it gives a share.
    let mix_full = || {
        mix.strata.iter().filter(|s| s.share > 0.0).all(|s| {
            events
                .iter()
                .any(|e| Subset::stratum(e.kind).name() == s.stratum)
        })
    };
    subsets.iter().partition(|&&s| match s {
        Subset::Mix => mix_full(),
        _ => has(s),
    })
}

/// The select workload named by a contract.
pub fn select_workload(contract: SelectContract) -> Workload {
    match contract {
        SelectContract::Checked => Workload::SelectChecked,
        SelectContract::Preverified => Workload::SelectPreverified,
    }
}

/// The filter workload of a profile: named after its view's contract, or
/// `filter-checked` for a decode-only profile (an owned decode checks the
/// whole record).
pub fn filter_workload(contract: Option<SelectContract>) -> Workload {
    match contract {
        Some(SelectContract::Preverified) => Workload::FilterPreverified,
        Some(SelectContract::Checked) | None => Workload::FilterChecked,
    }
}

/// Bounded decode, structural checks, id and BIP-340; `true` when valid.
pub fn validate_record(codec: &dyn crate::codec::Codec, record: &[u8], limits: &Limits) -> bool {
    match codec.decode(record, limits) {
        Ok(e) => validate::check_limits(&e, limits).is_ok() && validate::verify_event(&e).is_ok(),
        Err(_) => false,
    }
}

/// Feeds `bytes` in [`STREAM_CHUNK`]-byte chunks, decoding every complete
/// record; checks that `expected` records came out and that the trailing
/// `partial` bytes stayed buffered.
///
/// # Panics
/// If a record fails to decode or the counts differ.
pub fn decode_stream(
    stream: &mut FrameStream,
    codec: &dyn crate::codec::Codec,
    bytes: &[u8],
    limits: &Limits,
    expected: usize,
    partial: usize,
) {
    stream.reset();
    let mut decoded = 0;
    for chunk in bytes.chunks(STREAM_CHUNK) {
        stream.push(chunk);
        while let Some((at, record)) = stream.next_record().expect("prepared stream") {
            let e = codec
                .decode(record, limits)
                .unwrap_or_else(|err| panic!("record at {at}: {err}"));
            black_box(e);
            decoded += 1;
        }
    }
    assert_eq!(decoded, expected, "complete records decoded");
    assert_eq!(stream.remainder().len(), partial, "partial record kept");
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

/// A batch window before it is timed: its bytes must decode to exactly
/// `events` (the count alone is what the timed pass checks).
fn check_batch(
    batch: &dyn NativeBatch,
    bytes: &[u8],
    events: &[Event],
    limits: &Limits,
) -> Result<(), String> {
    let got = batch
        .decode_batch(bytes, limits)
        .map_err(|e| format!("the batch does not decode: {e}"))?;
    if got.len() != events.len() {
        return Err(format!(
            "{} events decoded, {} encoded",
            got.len(),
            events.len()
        ));
    }
    match got.iter().zip(events).position(|(g, e)| g != e) {
        Some(i) => Err(format!(
            "event {i} of {} decodes to another event",
            events.len()
        )),
        None => Ok(()),
    }
}

/// A compressed window before it is timed: it must decompress to the
/// `framed` bytes it was made from (the timed pass only compresses).
fn check_compressed(compressed: &[u8], framed: &[u8]) -> Result<(), String> {
    let back = zstd::bulk::decompress(compressed, framed.len())
        .map_err(|e| format!("zstd does not decompress it: {e}"))?;
    if back.len() != framed.len() {
        return Err(format!(
            "decompresses to {} bytes, {} were compressed",
            back.len(),
            framed.len()
        ));
    }
    match back.iter().zip(framed).position(|(b, f)| b != f) {
        Some(i) => Err(format!(
            "decompresses to other bytes (first difference at byte {i} of {})",
            framed.len()
        )),
        None => Ok(()),
    }
}

/// Consecutive [`WINDOW`]-event windows of the sequence; the last may be
/// shorter, so every event is in exactly one.
fn windows(idx: &[usize]) -> impl Iterator<Item = Vec<usize>> + '_ {
    idx.chunks(WINDOW).map(<[usize]>::to_vec)
}

/// The framed window plus the first half of the frame of record `next`.
fn framed_with_partial(records: &[Vec<u8>], window: &[usize], next: usize) -> (Vec<u8>, usize) {
    let mut s = Vec::new();
    for &i in window {
        write_frame(&mut s, &records[i]).expect("small record");
    }
    let mut frame = Vec::new();
    write_frame(&mut frame, &records[next]).expect("small record");
    let partial = frame.len() / 2;
    s.extend_from_slice(&frame[..partial]);
    (s, partial)
}

fn per_event<'a>(idx: Vec<usize>, mut work: impl FnMut(usize) + 'a) -> Pass<'a> {
    Pass {
        events: idx.len() as u64,
        run: Box::new(move || {
            let start = Instant::now();
            for &i in &idx {
                work(i);
            }
            start.elapsed()
        }),
    }
}

/// A pass over every window; each item carries its event count.
fn per_window<'a, T: 'a>(
    items: Vec<(T, usize)>,
    mut work: impl FnMut(&(T, usize)) + 'a,
) -> Pass<'a> {
    Pass {
        events: items.iter().map(|(_, n)| *n as u64).sum(),
        run: Box::new(move || {
            let start = Instant::now();
            for item in &items {
                work(item);
            }
            start.elapsed()
        }),
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn names_round_trip() {
        for w in Workload::ALL {
            assert_eq!(Workload::from_name(w.name()), Some(w));
        }
        for s in Subset::ALL {
            assert_eq!(Subset::from_name(&s.name()), Some(s));
        }
    }

    #[test]
    fn transport_passes_reuse_one_connection() {
        let events = crate::corpus::generate::generate(5, 12);
        let profiles: Vec<&'static Profile> = ["json", "capnp-packed", "notepack"]
            .iter()
            .filter_map(|id| crate::profiles::find(id))
            .collect();
        assert_eq!(profiles.len(), 3);
        let fixture = Fixture::prepare(events, &profiles, Limits::default(), None).unwrap();
        let seq = [1, 4, 5, 9, 11];
        for p in &profiles {
            for mode in Compression::ALL {
                let key = BenchKey {
                    workload: Workload::transport(mode),
                    profile: p.id,
                    subset: Subset::All,
                    threads: 1,
                };
                let mut pass = fixture.pass(&key, &seq);
                assert_eq!(pass.events, seq.len() as u64);
                for _ in 0..3 {
                    assert!((pass.run)() > Duration::ZERO, "{key}");
                }
                assert_eq!(Workload::transport(mode).transport_mode(), Some(mode));
            }
        }
    }

    #[test]
    fn windows_cover_every_event_once() {
        let idx: Vec<usize> = (0..150).collect();
        let w: Vec<Vec<usize>> = windows(&idx).collect();
        assert_eq!(w.len(), 3);
        assert_eq!(w.concat(), idx);
        assert_eq!(w[2].len(), 150 - 2 * WINDOW);
        let small: Vec<usize> = vec![4, 9];
        assert_eq!(windows(&small).collect::<Vec<_>>(), vec![vec![4, 9]]);
    }

    #[test]
    fn batch_and_compress_passes_check_their_round_trip_first() {
        let events = crate::corpus::generate::generate(4, 150);
        let profiles: Vec<&'static Profile> = crate::profiles::PROFILES
            .iter()
            .filter(|p| p.codec.batch().is_some())
            .take(3)
            .chain(crate::profiles::find("json"))
            .collect();
        let fixture = Fixture::prepare(events, &profiles, Limits::default(), None).unwrap();
        let seq: Vec<usize> = (0..150).collect();
        for p in &profiles {
            let batch = p.codec.batch().map(|_| Workload::Batch);
            for workload in batch.into_iter().chain([Workload::Compress]) {
                let key = BenchKey {
                    workload,
                    profile: p.id,
                    subset: Subset::All,
                    threads: 1,
                };
                let mut pass = fixture.pass(&key, &seq);
                assert_eq!(pass.events, 150, "{key}");
                (pass.run)();
            }
        }
    }

    #[test]
    fn batch_and_compress_checks_catch_a_wrong_round_trip() {
        let events = crate::corpus::generate::generate(3, 5);
        let limits = Limits::default();
        let batch = crate::profiles::PROFILES
            .iter()
            .find_map(|p| p.codec.batch())
            .expect("a profile with a native batch");
        let mut bytes = Vec::new();
        batch.encode_batch(&events, &mut bytes).unwrap();
        assert_eq!(check_batch(batch, &bytes, &events, &limits), Ok(()));
        let mut other = events.clone();
        other[3].content.push('x');
        let err = check_batch(batch, &bytes, &other, &limits).unwrap_err();
        assert!(err.contains("event 3 of 5"), "{err}");
        let err = check_batch(batch, &bytes, &events[..4], &limits).unwrap_err();
        assert!(err.contains("5 events decoded, 4 encoded"), "{err}");

        let framed = b"framed window bytes".repeat(10);
        let compressed = zstd::bulk::compress(&framed, ZSTD_LEVEL).unwrap();
        assert_eq!(check_compressed(&compressed, &framed), Ok(()));
        let mut changed = framed.clone();
        changed[7] ^= 1;
        let err = check_compressed(&compressed, &changed).unwrap_err();
        assert!(err.contains("first difference at byte 7"), "{err}");
        let err = check_compressed(&compressed, &framed[1..]).unwrap_err();
        assert!(err.contains("decompress"), "{err}");
        assert!(check_compressed(b"not zstd", &framed).is_err());
    }
}

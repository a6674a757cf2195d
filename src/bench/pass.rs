//! The timed body of each workload: [`Fixture::pass`] gives one **pass** of
//! a key over a fixed event sequence ([`crate::bench::group::Sequence`]), the
//! same for every profile and every run, so time per event is pass time over
//! the events in the pass. Per-event workloads time each event in turn;
//! the window workloads are [`crate::bench::window`]'s; `ingest-mt`
//! validates the whole sequence on its thread pool; a `transport-*` pass is
//! one REQ → EOSE exchange of the whole sequence over a WebSocket connection
//! opened (and its first exchange checked) when the pass is made
//! ([`crate::transport::session`]). Which passes are timed together is
//! [`crate::bench::group`]'s business.

use std::hint::black_box;
use std::time::Instant;

use rayon::prelude::*;

use crate::bench::filtering;
use crate::bench::fixture::{Fixture, Pass, ProfileRecords};
use crate::bench::window;
use crate::bench::workload::{BenchKey, Workload, transport_mode};
use crate::codec::{Codec, Limits};
use crate::transport::envelope::Framing;
use crate::transport::relay::Store;
use crate::transport::session::Session;
use crate::validate;

impl Fixture {
    /// One pass of `key` over the events `seq` (corpus indices).
    ///
    /// # Panics
    /// If the key's profile is not in the fixture, does not support the
    /// workload (keys from [`crate::bench::group::plan`] always do), or
    /// `seq` is empty.
    pub fn pass(&self, key: &BenchKey, seq: &[usize]) -> Pass<'_> {
        assert!(!seq.is_empty(), "{key}: empty sequence");
        let idx = seq.to_vec();
        if key.workload.is_reference() {
            return self.reference_pass(key.workload, idx);
        }
        let p = self
            .records(key.profile)
            .unwrap_or_else(|| panic!("{key}: profile not in fixture"));
        let (codec, records, limits) = (p.profile.codec, &p.records, self.limits);
        match key.workload {
            Workload::FilterChecked | Workload::FilterPreverified => {
                filtering::pass(&self.filters, codec, records, idx, limits)
            }
            Workload::Batch => window::batch(key, codec, &self.events, &idx, limits),
            Workload::Stream => window::stream(codec, records, &idx, limits),
            Workload::Compress => window::compress(key, records, &idx),
            Workload::IngestMt => ingest_mt(key.threads, codec, records, idx, limits),
            Workload::TransportPlain
            | Workload::TransportDeflate
            | Workload::TransportDeflateCtx => self.transport_pass(key, p, &idx),
            w => self.event_pass(w, codec, records, idx),
        }
    }

    /// A reference workload's pass: no profile's records.
    fn reference_pass(&self, workload: Workload, idx: Vec<usize>) -> Pass<'_> {
        let events = &self.events;
        match workload {
            Workload::IdVerify => per_event(idx, move |i| {
                validate::verify_event(black_box(&events[i])).expect("prepared");
            }),
            Workload::SelectRawOffset => {
                let raw = &self.raw_offset;
                per_event(idx, move |i| {
                    let r = black_box(&raw[i]);
                    let pubkey: [u8; 32] = r[..32].try_into().expect("32 bytes");
                    black_box((u16::from_be_bytes([r[32], r[33]]), pubkey));
                })
            }
            Workload::FilterEvent => filtering::reference_pass(&self.filters, events, idx),
            Workload::Clone => per_event(idx, move |i| {
                black_box(black_box(&events[i]).clone());
            }),
            w => unreachable!("{w} is not a reference workload"),
        }
    }

    /// A per-event workload's pass over one profile's records.
    fn event_pass<'a>(
        &'a self,
        workload: Workload,
        codec: &'static dyn Codec,
        records: &'a [Vec<u8>],
        idx: Vec<usize>,
    ) -> Pass<'a> {
        let (events, limits) = (&self.events, self.limits);
        match workload {
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
            w => unreachable!("{w} is not a per-event workload"),
        }
    }

    /// One REQ → EOSE exchange of the sequence per pass, over a connection
    /// opened now. Its first exchange (fresh connection) is checked in
    /// full, its bytes against the flate2 model; a mismatch refuses the run.
    fn transport_pass(&self, key: &BenchKey, p: &ProfileRecords, idx: &[usize]) -> Pass<'_> {
        let mode = transport_mode(key.workload).expect("a transport workload");
        let store = Store {
            profile: p.profile,
            framing: Framing::of(p.profile),
            records: idx.iter().map(|&i| p.records[i].clone()).collect(),
            events: idx.iter().map(|&i| self.events[i].clone()).collect(),
        };
        let mut session = Session::open(std::sync::Arc::new(store), mode, self.limits)
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
}

/// Validated ingest of the whole sequence on a pool of `threads`.
fn ingest_mt<'a>(
    threads: usize,
    codec: &'static dyn Codec,
    records: &'a [Vec<u8>],
    idx: Vec<usize>,
    limits: Limits,
) -> Pass<'a> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
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

/// Bounded decode, structural checks, id and BIP-340; `true` when valid.
pub fn validate_record(codec: &dyn Codec, record: &[u8], limits: &Limits) -> bool {
    match codec.decode(record, limits) {
        Ok(e) => validate::check_limits(&e, limits).is_ok() && validate::verify_event(&e).is_ok(),
        Err(_) => false,
    }
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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use crate::bench::workload::{Subset, transport_workload};
    use crate::codec::Profile;
    use crate::transport::Compression;

    use super::*;

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
                    workload: transport_workload(mode),
                    profile: p.id,
                    subset: Subset::All,
                    threads: 1,
                };
                let mut pass = fixture.pass(&key, &seq);
                assert_eq!(pass.events, seq.len() as u64);
                for _ in 0..3 {
                    assert!((pass.run)() > Duration::ZERO, "{key}");
                }
                assert_eq!(transport_mode(transport_workload(mode)), Some(mode));
            }
        }
    }
}

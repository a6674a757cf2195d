//! The window workloads (`batch`, `stream`, `compress`): a pass covers every
//! [`WINDOW`]-event window of its sequence, each window built and checked
//! before anything is timed.

use std::hint::black_box;
use std::time::Instant;

use binostr_records::{STREAM_CHUNK, WINDOW, ZSTD_LEVEL};

use crate::bench::fixture::Pass;
use crate::bench::workload::BenchKey;
use crate::codec::framing::{FrameStream, write_frame};
use crate::codec::{Codec, Limits, NativeBatch};
use crate::model::Event;

/// `batch`: each window encoded as the format's native batch, decoded.
pub(crate) fn batch(
    key: &BenchKey,
    codec: &'static dyn Codec,
    events: &[Event],
    idx: &[usize],
    limits: Limits,
) -> Pass<'static> {
    let batch = codec.batch().expect("planned");
    let windows: Vec<(Vec<u8>, usize)> = windows(idx)
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

/// `stream`: each framed window, plus half the next record, fed to a
/// [`FrameStream`] in [`STREAM_CHUNK`]-byte chunks.
pub(crate) fn stream(
    codec: &'static dyn Codec,
    records: &[Vec<u8>],
    idx: &[usize],
    limits: Limits,
) -> Pass<'static> {
    let wins: Vec<Vec<usize>> = windows(idx).collect();
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

/// `compress`: zstd at [`ZSTD_LEVEL`] over each framed window.
pub(crate) fn compress(key: &BenchKey, records: &[Vec<u8>], idx: &[usize]) -> Pass<'static> {
    let mut z = zstd::bulk::Compressor::new(ZSTD_LEVEL).expect("zstd level");
    let streams: Vec<(Vec<u8>, usize)> = windows(idx)
        .enumerate()
        .map(|(k, w)| {
            let mut s = Vec::new();
            for &i in &w {
                write_frame(&mut s, &records[i]).expect("small record");
            }
            let compressed = z.compress(&s).expect("zstd");
            check_compressed(&compressed, &s).unwrap_or_else(|e| panic!("{key}: window {k}: {e}"));
            (s, w.len())
        })
        .collect();
    per_window(streams, move |(s, _)| {
        black_box(z.compress(black_box(s)).expect("zstd"));
    })
}

/// Feeds `bytes` in [`STREAM_CHUNK`]-byte chunks, decoding every complete
/// record; checks that `expected` records came out and that the trailing
/// `partial` bytes stayed buffered.
///
/// # Panics
/// If a record fails to decode or the counts differ.
pub fn decode_stream(
    stream: &mut FrameStream,
    codec: &dyn Codec,
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
    use crate::bench::fixture::Fixture;
    use crate::bench::workload::{Subset, Workload};
    use crate::codec::Profile;

    use super::*;

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

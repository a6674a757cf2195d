//! Encoded size per profile: raw bytes per event (mean, median, p99), by
//! kind, length-framed, and zstd over the framed stream, each as a share of
//! JSON over the *same* events, with not-representable events counted.

use std::collections::BTreeMap;

use binostr_records::ZSTD_LEVEL;
use serde::Serialize;

use crate::codec::Profile;
use crate::codec::framing::{FRAME_HEADER, write_frame};
use crate::corpus::calibrate::{Compressed, percentile};
use crate::model::Event;
use crate::transport::{deflate, deflater};

/// Per-event size statistics in bytes.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Stats {
    /// Events measured.
    pub events: usize,
    /// Mean bytes per event.
    pub mean: f64,
    /// Median.
    pub p50: usize,
    /// 99th percentile.
    pub p99: usize,
}

impl Stats {
    fn of(mut sizes: Vec<usize>) -> Self {
        sizes.sort_unstable();
        let total: usize = sizes.iter().sum();
        Self {
            events: sizes.len(),
            mean: if sizes.is_empty() {
                0.0
            } else {
                total as f64 / sizes.len() as f64
            },
            p50: percentile(&sizes, 50.0),
            p99: percentile(&sizes, 99.0),
        }
    }
}

/// Sizes of one profile over a corpus.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProfileSizes {
    /// Profile id.
    pub profile: &'static str,
    /// Events the profile refused to encode.
    pub not_representable: usize,
    /// The first refusal reasons, for the report.
    pub not_representable_reasons: Vec<String>,
    /// Raw record sizes over all represented events.
    pub raw: Stats,
    /// Raw record sizes per kind.
    pub by_kind: BTreeMap<u16, Stats>,
    /// Total bytes of the raw records.
    pub raw_total: usize,
    /// Total bytes with a 4-byte length per record.
    pub framed_total: usize,
    /// zstd (level [`ZSTD_LEVEL`]) of the framed stream.
    pub zstd_total: usize,
    /// Compact JSON bytes of the same events.
    pub json_total: usize,
    /// JSON of the same events, framed and zstd-compressed.
    pub json_zstd_total: usize,
}

impl ProfileSizes {
    /// Raw size as a share of JSON of the same events.
    pub fn raw_share(&self) -> f64 {
        ratio(self.raw_total, self.json_total)
    }

    /// Compressed size as a share of compressed JSON of the same events.
    pub fn zstd_share(&self) -> f64 {
        ratio(self.zstd_total, self.json_zstd_total)
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

/// Measures `profile` over `events`.
pub fn measure(profile: &Profile, events: &[Event]) -> std::io::Result<ProfileSizes> {
    let mut record = Vec::new();
    let mut json = Vec::new();
    let mut framed = Vec::new();
    let mut json_framed = Vec::new();
    let mut sizes = Vec::with_capacity(events.len());
    let mut by_kind: BTreeMap<u16, Vec<usize>> = BTreeMap::new();
    let mut refused = Vec::new();
    let mut json_total = 0;
    for e in events {
        record.clear();
        if let Err(err) = profile.codec.encode(e, &mut record) {
            refused.push(err.reason);
            continue;
        }
        json.clear();
        e.write_json(&mut json);
        json_total += json.len();
        write_frame(&mut framed, &record).map_err(std::io::Error::other)?;
        write_frame(&mut json_framed, &json).map_err(std::io::Error::other)?;
        sizes.push(record.len());
        by_kind.entry(e.kind).or_default().push(record.len());
    }
    let raw_total = sizes.iter().sum();
    Ok(ProfileSizes {
        profile: profile.id,
        not_representable: refused.len(),
        not_representable_reasons: refused.into_iter().take(5).collect(),
        framed_total: raw_total + FRAME_HEADER * sizes.len(),
        raw: Stats::of(sizes),
        by_kind: by_kind
            .into_iter()
            .map(|(k, v)| (k, Stats::of(v)))
            .collect(),
        raw_total,
        zstd_total: zstd::bulk::compress(&framed, ZSTD_LEVEL)?.len(),
        json_total,
        json_zstd_total: zstd::bulk::compress(&json_framed, ZSTD_LEVEL)?.len(),
    })
}

/// Byte totals of one set of records, as `sizes.csv` records them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Records measured.
    pub events: usize,
    /// Raw record bytes.
    pub raw: usize,
    /// With a 4-byte length per record.
    pub framed: usize,
    /// Each record compressed alone.
    pub zstd_event: usize,
    /// The framed stream compressed as a whole.
    pub zstd_stream: usize,
    /// Each record compressed alone with the dictionary (0 without one).
    pub zstd_dict: usize,
    /// Each record raw-deflated alone: its permessage-deflate payload
    /// without context takeover.
    pub deflate_event: usize,
    /// The records deflated in order through one context, each
    /// sync-flushed: permessage-deflate payloads with context takeover.
    pub deflate_stream: usize,
}

/// Measures `records`, compressing with zstd level [`ZSTD_LEVEL`]; `dict`
/// is a zstd dictionary trained on a disjoint sample.
pub fn totals<'a>(
    records: impl IntoIterator<Item = &'a [u8]>,
    dict: Option<&[u8]>,
) -> std::io::Result<Totals> {
    let mut plain = zstd::bulk::Compressor::new(ZSTD_LEVEL)?;
    let mut with_dict = dict
        .map(|d| zstd::bulk::Compressor::with_dictionary(ZSTD_LEVEL, d))
        .transpose()?;
    let mut framed = Vec::new();
    let mut t = Totals::default();
    let (mut alone, mut kept) = (deflater::compressor(), deflater::compressor());
    let mut out = Vec::new();
    for r in records {
        t.events += 1;
        t.raw += r.len();
        write_frame(&mut framed, r).map_err(std::io::Error::other)?;
        t.zstd_event += plain.compress(r)?.len();
        if let Some(c) = with_dict.as_mut() {
            t.zstd_dict += c.compress(r)?.len();
        }
        t.deflate_event += deflate::deflated_alone(&mut alone, r, &mut out)?;
        out.clear();
        deflate::deflate_message(&mut kept, r, &mut out)?;
        t.deflate_stream += out.len();
    }
    t.framed = framed.len();
    t.zstd_stream = plain.compress(&framed)?.len();
    Ok(t)
}

/// Compresses records one at a time, each alone: zstd at [`ZSTD_LEVEL`] and
/// permessage-deflate without context takeover (the transport's settings).
pub struct AloneCompressor {
    zstd: zstd::bulk::Compressor<'static>,
    deflate: flate2::Compress,
    scratch: Vec<u8>,
}

impl AloneCompressor {
    /// A compressor with fresh contexts.
    pub fn new() -> std::io::Result<Self> {
        Ok(Self {
            zstd: zstd::bulk::Compressor::new(ZSTD_LEVEL)?,
            deflate: deflater::compressor(),
            scratch: Vec::new(),
        })
    }

    /// Compressed sizes of `record` alone.
    pub fn compress(&mut self, record: &[u8]) -> std::io::Result<Compressed> {
        Ok(Compressed {
            zstd: self.zstd.compress(record)?.len(),
            deflate: deflate::deflated_alone(&mut self.deflate, record, &mut self.scratch)?,
        })
    }
}

/// Dictionary size trained for [`totals`].
pub const DICT_BYTES: usize = 32 * 1024;

/// Trains a zstd dictionary of at most [`DICT_BYTES`] on `samples`.
pub fn train_dictionary(samples: &[Vec<u8>]) -> std::io::Result<Vec<u8>> {
    zstd::dict::from_samples(samples, DICT_BYTES)
}

/// A Markdown table of `rows`, one line per profile.
pub fn render(rows: &[ProfileSizes]) -> String {
    use std::fmt::Write as _;
    let mut s = String::from(
        "| profile | events | not repr. | mean B | p50 B | p99 B | raw % JSON | framed B | zstd B | zstd % JSON zstd |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {:.1} | {} | {} | {:.1} | {} | {} | {:.1} |",
            r.profile,
            r.raw.events,
            r.not_representable,
            r.raw.mean,
            r.raw.p50,
            r.raw.p99,
            100.0 * r.raw_share(),
            r.framed_total,
            r.zstd_total,
            100.0 * r.zstd_share()
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_is_exactly_its_own_baseline() {
        let events = crate::corpus::generate::generate(5, 40);
        let json = crate::profiles::find("json").unwrap();
        let r = measure(json, &events).unwrap();
        assert_eq!(r.raw.events, 40);
        assert_eq!(r.not_representable, 0);
        assert_eq!(r.raw_total, r.json_total);
        assert_eq!(r.zstd_total, r.json_zstd_total);
        assert_eq!(r.framed_total, r.raw_total + 4 * 40);
        let expected: usize = events.iter().map(|e| e.to_json().len()).sum();
        assert_eq!(r.json_total, expected);
        assert_eq!(r.by_kind.values().map(|s| s.events).sum::<usize>(), 40);
        assert!((r.raw_share() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn totals_add_up_and_a_dictionary_helps() {
        let events = crate::corpus::generate::generate(6, 300);
        let json = crate::profiles::find("json").unwrap();
        let enc = |e: &Event| {
            let mut out = Vec::new();
            json.codec.encode(e, &mut out).unwrap();
            out
        };
        let train: Vec<Vec<u8>> = events[..200].iter().map(enc).collect();
        let test: Vec<Vec<u8>> = events[200..].iter().map(enc).collect();
        let dict = train_dictionary(&train).unwrap();
        let t = totals(test.iter().map(Vec::as_slice), Some(&dict)).unwrap();
        assert_eq!(t.events, 100);
        assert_eq!(t.raw, test.iter().map(Vec::len).sum::<usize>());
        assert_eq!(t.framed, t.raw + 400);
        assert!(t.zstd_stream < t.zstd_event, "{t:?}");
        assert!(t.zstd_dict < t.zstd_event, "{t:?}");
        // Context takeover finds what earlier events said.
        assert!(t.deflate_stream < t.deflate_event, "{t:?}");
        assert!(t.deflate_event < t.raw, "{t:?}");
        // One record alone: both deflate figures are that record's payload.
        let one = totals([test[0].as_slice()], None).unwrap();
        assert_eq!(one.deflate_event, one.deflate_stream);
        let none = totals(test.iter().map(Vec::as_slice), None).unwrap();
        assert_eq!(none.zstd_dict, 0);
    }

    #[test]
    fn alone_means_no_context_is_kept() {
        let record = br#"{"content":"the same text, the same text, the same text"}"#;
        let mut c = AloneCompressor::new().unwrap();
        let first = c.compress(record).unwrap();
        assert_eq!(c.compress(record).unwrap(), first);
        assert_eq!(
            first.zstd,
            zstd::bulk::compress(record, ZSTD_LEVEL).unwrap().len()
        );
        assert!(first.deflate < record.len(), "{first:?}");
    }

    #[test]
    fn stats_are_exact() {
        let s = Stats::of(vec![4, 1, 3, 2]);
        assert_eq!((s.events, s.p50, s.p99), (4, 2, 4));
        assert!((s.mean - 2.5).abs() < 1e-12);
    }
}

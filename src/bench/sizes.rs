//! Encoded size per profile: raw bytes per event (mean, median, p99), by
//! kind, length-framed, and zstd over the framed stream, each as a share of
//! JSON over the *same* events, with not-representable events counted.

use std::collections::BTreeMap;

use binostr_records::ZSTD_LEVEL;
use serde::Serialize;

use crate::codec::Profile;
use crate::codec::framing::{FRAME_HEADER, write_frame};
use crate::corpus::calibrate::Compressed;
use crate::model::Event;
use crate::transport::{deflate, deflater};

pub use crate::corpus::histogram::{Histogram, Stats};

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
    /// Each record raw-deflated alone (permessage-deflate without context
    /// takeover).
    pub deflate_total: usize,
    /// Raw record bytes per kind.
    pub raw_by_kind: BTreeMap<u16, usize>,
    /// Deflated bytes per kind, each record alone.
    pub deflate_by_kind: BTreeMap<u16, usize>,
    /// Compact JSON bytes of the same events.
    pub json_total: usize,
    /// Compact JSON bytes of the same events, per kind.
    pub json_by_kind: BTreeMap<u16, usize>,
    /// JSON of the same events, framed and zstd-compressed.
    pub json_zstd_total: usize,
    /// JSON of the same events, each deflated alone.
    pub json_deflate_total: usize,
    /// JSON of the same events, each deflated alone, per kind.
    pub json_deflate_by_kind: BTreeMap<u16, usize>,
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

    /// Deflated size as a share of deflated JSON of the same events.
    pub fn deflate_share(&self) -> f64 {
        ratio(self.deflate_total, self.json_deflate_total)
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

/// Counts the bytes written to it.
#[derive(Default)]
struct Counter(usize);

impl std::io::Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// One event's compact JSON and its size deflated alone, shared by every
/// profile's [`Accumulator`].
pub struct JsonOf {
    /// Compact JSON.
    pub json: Vec<u8>,
    /// Its size deflated alone.
    pub deflated: usize,
}

impl JsonOf {
    /// The JSON of `events`, computed in parallel.
    pub fn batch(events: &[Event]) -> std::io::Result<Vec<Self>> {
        use rayon::prelude::*;
        events
            .par_iter()
            .map_init(deflater::compressor, |c, e| {
                let mut json = Vec::with_capacity(512);
                e.write_json(&mut json);
                let deflated = deflate::deflated_alone(c, &json, &mut Vec::new())?;
                Ok(Self { json, deflated })
            })
            .collect()
    }
}

/// A profile's sizes over a stream of events, in memory bounded by the
/// largest record (histograms and compressor state), not by the count.
pub struct Accumulator {
    profile: &'static Profile,
    refused: usize,
    reasons: Vec<String>,
    raw: Histogram,
    by_kind: BTreeMap<u16, Histogram>,
    deflate_by_kind: BTreeMap<u16, usize>,
    json_by_kind: BTreeMap<u16, usize>,
    json_deflate_by_kind: BTreeMap<u16, usize>,
    zstd: zstd::stream::write::Encoder<'static, Counter>,
    json_zstd: zstd::stream::write::Encoder<'static, Counter>,
    deflate: flate2::Compress,
    record: Vec<u8>,
    scratch: Vec<u8>,
    framed: Vec<u8>,
    json_framed: Vec<u8>,
}

impl Accumulator {
    /// An empty accumulator for `profile`.
    pub fn new(profile: &'static Profile) -> std::io::Result<Self> {
        Ok(Self {
            profile,
            refused: 0,
            reasons: Vec::new(),
            raw: Histogram::default(),
            by_kind: BTreeMap::new(),
            deflate_by_kind: BTreeMap::new(),
            json_by_kind: BTreeMap::new(),
            json_deflate_by_kind: BTreeMap::new(),
            zstd: zstd::stream::write::Encoder::new(Counter::default(), ZSTD_LEVEL)?,
            json_zstd: zstd::stream::write::Encoder::new(Counter::default(), ZSTD_LEVEL)?,
            deflate: deflater::compressor(),
            record: Vec::new(),
            scratch: Vec::new(),
            framed: Vec::new(),
            json_framed: Vec::new(),
        })
    }

    /// Adds `events`, whose JSON is `json` (same order).
    pub fn add(&mut self, events: &[Event], json: &[JsonOf]) -> std::io::Result<()> {
        use std::io::Write as _;
        for (e, j) in events.iter().zip(json) {
            self.record.clear();
            if let Err(err) = self.profile.codec.encode(e, &mut self.record) {
                self.refused += 1;
                if self.reasons.len() < 5 {
                    self.reasons.push(err.reason);
                }
                continue;
            }
            let r = &self.record;
            let deflated = deflate::deflated_alone(&mut self.deflate, r, &mut self.scratch)?;
            // One frame at a time: no buffer grows with the batch.
            for (frame, bytes, out) in [
                (&mut self.framed, r.as_slice(), &mut self.zstd),
                (&mut self.json_framed, &j.json, &mut self.json_zstd),
            ] {
                frame.clear();
                write_frame(frame, bytes).map_err(std::io::Error::other)?;
                out.write_all(frame)?;
            }
            self.raw.add(r.len());
            self.by_kind.entry(e.kind).or_default().add(r.len());
            *self.deflate_by_kind.entry(e.kind).or_default() += deflated;
            *self.json_by_kind.entry(e.kind).or_default() += j.json.len();
            *self.json_deflate_by_kind.entry(e.kind).or_default() += j.deflated;
        }
        Ok(())
    }

    /// The profile's sizes over every event added.
    pub fn finish(self) -> std::io::Result<ProfileSizes> {
        let raw_total = self.raw.total() as usize;
        let sum = |m: &BTreeMap<u16, usize>| m.values().sum();
        Ok(ProfileSizes {
            profile: self.profile.id,
            not_representable: self.refused,
            not_representable_reasons: self.reasons,
            framed_total: raw_total + FRAME_HEADER * self.raw.events() as usize,
            raw: self.raw.stats(),
            by_kind: self.by_kind.iter().map(|(k, h)| (*k, h.stats())).collect(),
            raw_by_kind: self
                .by_kind
                .iter()
                .map(|(k, h)| (*k, h.total() as usize))
                .collect(),
            raw_total,
            zstd_total: self.zstd.finish()?.0,
            deflate_total: sum(&self.deflate_by_kind),
            json_total: sum(&self.json_by_kind),
            json_zstd_total: self.json_zstd.finish()?.0,
            json_deflate_total: sum(&self.json_deflate_by_kind),
            deflate_by_kind: self.deflate_by_kind,
            json_by_kind: self.json_by_kind,
            json_deflate_by_kind: self.json_deflate_by_kind,
        })
    }
}

/// Measures `profile` over `events`.
pub fn measure(profile: &'static Profile, events: &[Event]) -> std::io::Result<ProfileSizes> {
    let mut acc = Accumulator::new(profile)?;
    acc.add(events, &JsonOf::batch(events)?)?;
    acc.finish()
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

/// Per kind (and all), per profile: bytes per event raw and each deflated
/// alone, each as % of JSON of the same events, priced under the cost
/// model's defaults: egress dollars and transfer seconds per million events.
pub fn render_costs(rows: &[ProfileSizes]) -> String {
    use binostr_records::cost::{EGRESS, LINK};
    use std::fmt::Write as _;
    let mut s = format!(
        "\nPer million events: egress $ at {} = {} {} ({}); transfer s at {} = {} {} ({}).\n\n\
         | kind | profile | events | raw B/ev | raw % JSON | deflate B/ev | deflate % JSON | $ egress raw | $ egress deflate | s raw | s deflate |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
        EGRESS.id,
        EGRESS.default,
        EGRESS.unit,
        EGRESS.source,
        LINK.id,
        LINK.default,
        LINK.unit,
        LINK.source
    );
    let prices = binostr_records::cost::Prices::default();
    let dollars = |b: f64| prices.egress_usd_per_million(b);
    let seconds = |b: f64| prices.transfer_s_per_million(b);
    let mut line = |kind: &str,
                    r: &ProfileSizes,
                    n: usize,
                    raw: usize,
                    json: usize,
                    d: usize,
                    jd: usize| {
        let per = |b: usize| if n == 0 { 0.0 } else { b as f64 / n as f64 };
        let _ = writeln!(
            s,
            "| {kind} | {} | {n} | {:.1} | {:.1} | {:.1} | {:.1} | {:.2} | {:.2} | {:.0} | {:.0} |",
            r.profile,
            per(raw),
            100.0 * ratio(raw, json),
            per(d),
            100.0 * ratio(d, jd),
            dollars(per(raw)),
            dollars(per(d)),
            seconds(per(raw)),
            seconds(per(d)),
        );
    };
    for r in rows {
        line(
            "all",
            r,
            r.raw.events,
            r.raw_total,
            r.json_total,
            r.deflate_total,
            r.json_deflate_total,
        );
    }
    let kinds: std::collections::BTreeSet<u16> = rows
        .iter()
        .flat_map(|r| r.by_kind.keys().copied())
        .collect();
    for k in kinds {
        for r in rows {
            let Some(st) = r.by_kind.get(&k) else {
                continue;
            };
            let get = |m: &BTreeMap<u16, usize>| m.get(&k).copied().unwrap_or(0);
            line(
                &k.to_string(),
                r,
                st.events,
                get(&r.raw_by_kind),
                get(&r.json_by_kind),
                get(&r.deflate_by_kind),
                get(&r.json_deflate_by_kind),
            );
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::calibrate::percentile;

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
    fn batches_add_up_to_the_whole() {
        let events = crate::corpus::generate::generate(7, 300);
        let p = crate::profiles::find("cbor-packed").unwrap();
        let whole = measure(p, &events).unwrap();
        let mut acc = Accumulator::new(p).unwrap();
        for chunk in events.chunks(37) {
            acc.add(chunk, &JsonOf::batch(chunk).unwrap()).unwrap();
        }
        let parts = acc.finish().unwrap();
        assert_eq!(parts.raw, whole.raw);
        assert_eq!(parts.by_kind, whole.by_kind);
        assert_eq!(parts.raw_total, whole.raw_total);
        assert_eq!(parts.deflate_by_kind, whole.deflate_by_kind);
        assert_eq!(parts.json_deflate_total, whole.json_deflate_total);
        assert_eq!(parts.json_total, whole.json_total);
        let mut sizes: Vec<usize> = events
            .iter()
            .map(|e| {
                let mut r = Vec::new();
                p.codec.encode(e, &mut r).unwrap();
                r.len()
            })
            .collect();
        sizes.sort_unstable();
        assert_eq!(whole.raw_total, sizes.iter().sum::<usize>());
        assert_eq!(whole.raw.p99, percentile(&sizes, 99.0));
        assert!(whole.deflate_total < whole.raw_total, "{whole:?}");
        assert!(whole.json_deflate_total < whole.json_total, "{whole:?}");
    }

    #[test]
    fn stats_are_exact() {
        let s = Stats::of(vec![4, 1, 3, 2]);
        assert_eq!((s.events, s.p50, s.p99), (4, 2, 4));
        assert!((s.mean - 2.5).abs() < 1e-12);
    }
}

//! `avro`: an Apache Avro binary datum (no object-container header, no
//! schema fingerprint) of the record in `schemas/event.avsc`, written and
//! read by a hand-written, bounded codec that follows the Avro 1.11
//! specification, checked against the `apache-avro` crate in both
//! directions (tests).
//!
//! | field | Avro type | bytes |
//! |---|---|---|
//! | id | `fixed(32)` | 32 raw bytes |
//! | pubkey | `fixed(32)` | 32 raw bytes |
//! | created_at | `long` | zig-zag varint, 0..=i64::MAX |
//! | kind | `int` | zig-zag varint, 0..=65535 |
//! | tags | `array<array<union{bytes, string}>>` | blocks, see below |
//! | content | `string` | `long` length + UTF-8 |
//! | sig | `fixed(64)` | 64 raw bytes |
//!
//! An array is written as one block, `long count` then the items, then the
//! terminating `long 0`; an empty array is the single byte `00`. A union
//! value is its branch index as an `int` (`00` bytes, `02` string) then the
//! value; `bytes` and `string` are a `long` length then the data.
//!
//! Hex policy: a tag value that is non-empty, even-length, lowercase hex
//! ([`is_lower_hex`]) is the `bytes` branch and is re-emitted as lowercase
//! hex on decoding; every other value, including the empty string, is the
//! `string` branch. Content is never packed.
//!
//! Not representable: `created_at` above `i64::MAX` (Avro has no unsigned
//! long); encoding such an event is an [`EncodeError`].
//!
//! Canonical form, enforced by the decoder so that decode→encode reproduces
//! the input: minimal varints; each non-empty array is exactly one block
//! with a positive count (the spec also allows several blocks and negative
//! counts followed by a byte size; those are `NonCanonical` here, and
//! `apache-avro` never writes them); a `bytes` value is non-empty and a
//! `string` tag value is not lowercase hex. Negative lengths, a negative
//! `created_at`, a kind outside 0..=65535 and an unknown union branch are
//! `Invalid`.
//!
//! Limits are checked while reading: the event size first, then every
//! count against its limit and the remaining input (a tag takes at least one
//! byte, a value at least two) and every length against the remaining input
//! and `max_value_bytes` (packed hex counts as its string length) before
//! anything is allocated. Why not `apache-avro`'s own decoder: it resolves
//! into a generic `Value` tree (slow), and its only allocation bound is one
//! process-wide setting (`apache_avro::max_allocation_bytes`, 512 MiB by
//! default, settable once) checked against declared counts, not against the
//! remaining input: an array block declaring a huge count in ten bytes
//! reserves that many `Value`s up to the global cap, and per-call [`Limits`]
//! cannot be applied.

use crate::codec::{
    Capabilities, Codec, DecodeError, DecodeErrorKind, EncodeError, Family, Limits, Profile,
    Reader, check_event_size,
};
use crate::model::Event;
use crate::model::hex::{self, is_lower_hex};

/// The registry entry.
pub const PROFILE: Profile = Profile {
    id: "avro",
    family: Family::OpenStandard,
    capabilities: Capabilities {
        deterministic: true,
        self_describing: false,
    },
    enabled: true,
    codec: &Avro,
};

/// Avro binary datum of `binostr.Event`.
pub struct Avro;

fn put_long(out: &mut Vec<u8>, v: i64) {
    let mut n = ((v << 1) ^ (v >> 63)) as u64;
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

fn put_len(out: &mut Vec<u8>, n: usize) {
    put_long(out, n as i64);
}

impl Codec for Avro {
    fn encode(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let created_at = i64::try_from(event.created_at).map_err(|_| EncodeError {
            profile: PROFILE.id,
            reason: "created_at above i64::MAX (Avro long is signed)".into(),
        })?;
        out.extend_from_slice(&event.id);
        out.extend_from_slice(&event.pubkey);
        put_long(out, created_at);
        put_long(out, i64::from(event.kind));
        if !event.tags.is_empty() {
            put_len(out, event.tags.len());
            for tag in &event.tags {
                if !tag.is_empty() {
                    put_len(out, tag.len());
                    for v in tag {
                        if is_lower_hex(v) {
                            out.push(0);
                            put_len(out, v.len() / 2);
                            hex::decode_into(v, out);
                        } else {
                            out.push(2);
                            put_len(out, v.len());
                            out.extend_from_slice(v.as_bytes());
                        }
                    }
                }
                out.push(0);
            }
        }
        out.push(0);
        put_len(out, event.content.len());
        out.extend_from_slice(event.content.as_bytes());
        out.extend_from_slice(&event.sig);
        Ok(())
    }

    fn decode(&self, bytes: &[u8], limits: &Limits) -> Result<Event, DecodeError> {
        check_event_size(bytes, limits)?;
        let mut r = Reader::new(bytes);
        let id = *r.array::<32>()?;
        let pubkey = *r.array::<32>()?;
        let at = r.offset();
        let created_at = u64::try_from(long(&mut r)?)
            .map_err(|_| DecodeError::at(DecodeErrorKind::Invalid("negative created_at"), at))?;
        let at = r.offset();
        let kind = u16::try_from(long(&mut r)?)
            .map_err(|_| DecodeError::at(DecodeErrorKind::Invalid("kind outside 0..=65535"), at))?;
        let n_tags = block(&mut r, 1, limits.max_tags, "tags")?;
        let mut tags = Vec::with_capacity(n_tags);
        for _ in 0..n_tags {
            let n = block(&mut r, 2, limits.max_values_per_tag, "values per tag")?;
            let mut tag = Vec::with_capacity(n);
            for _ in 0..n {
                tag.push(value(&mut r, limits)?);
            }
            if n > 0 {
                end_of_array(&mut r)?;
            }
            tags.push(tag);
        }
        if n_tags > 0 {
            end_of_array(&mut r)?;
        }
        let len = length(&mut r)?;
        let content = r.str(len)?.to_owned();
        let sig = *r.array::<64>()?;
        r.finish()?;
        Ok(Event {
            id,
            pubkey,
            sig,
            created_at,
            kind,
            tags,
            content,
        })
    }
}

/// A zig-zag `long`: a minimal varint of at most 10 bytes.
fn long(r: &mut Reader<'_>) -> Result<i64, DecodeError> {
    let n = r.uvarint(true)?;
    Ok((n >> 1) as i64 ^ -((n & 1) as i64))
}

/// A non-negative `long` length, bounded by the remaining input.
fn length(r: &mut Reader<'_>) -> Result<usize, DecodeError> {
    let at = r.offset();
    let n = long(r)?;
    let n = u64::try_from(n)
        .map_err(|_| DecodeError::at(DecodeErrorKind::Invalid("negative length"), at))?;
    r.count(n, 1, usize::MAX, "length")
}

/// The count of a one-block array (0 for an empty one), checked against
/// `limit` and against `min_item` bytes per item in the remaining input.
fn block(
    r: &mut Reader<'_>,
    min_item: usize,
    limit: usize,
    what: &'static str,
) -> Result<usize, DecodeError> {
    let at = r.offset();
    let n = long(r)?;
    let n = u64::try_from(n).map_err(|_| DecodeError::at(DecodeErrorKind::NonCanonical, at))?;
    r.count(n, min_item, limit, what)
        .map_err(|e| DecodeError::at(e.kind, at))
}

/// The terminating `0` after a non-empty array's single block.
fn end_of_array(r: &mut Reader<'_>) -> Result<(), DecodeError> {
    match r.peek() {
        None => Err(r.error(DecodeErrorKind::Truncated)),
        Some(0) => r.u8().map(drop),
        Some(_) => Err(r.error(DecodeErrorKind::NonCanonical)),
    }
}

fn value(r: &mut Reader<'_>, limits: &Limits) -> Result<String, DecodeError> {
    let at = r.offset();
    let branch = r.u8()?;
    if branch != 0 && branch != 2 {
        return Err(DecodeError::at(
            DecodeErrorKind::Invalid("unknown union branch"),
            at,
        ));
    }
    let len = length(r)?;
    let too_long = || {
        Err(DecodeError::at(
            DecodeErrorKind::LimitExceeded("tag value bytes"),
            at,
        ))
    };
    match branch {
        0 => {
            if len.saturating_mul(2) > limits.max_value_bytes {
                return too_long();
            }
            if len == 0 {
                return Err(DecodeError::at(DecodeErrorKind::NonCanonical, at));
            }
            Ok(hex::encode(r.take(len)?))
        }
        _ => {
            if len > limits.max_value_bytes {
                return too_long();
            }
            let s = r.str(len)?;
            if is_lower_hex(s) {
                return Err(DecodeError::at(DecodeErrorKind::NonCanonical, at));
            }
            Ok(s.to_owned())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles::nostr_test_support::{self as support, golden_event, unhex};
    use apache_avro::types::Value;

    fn golden_bytes() -> Vec<u8> {
        unhex(&format!(
            "{} {} 80c49fd50c 02 06 \
             04 0202 65 0040 {} 00 \
             04 0202 70 020c 414243444546 00 \
             04 0202 74 020a 6e6f737472 00 \
             00 06 68690a {}",
            "11".repeat(32),
            "22".repeat(32),
            "ab".repeat(32),
            "33".repeat(64),
        ))
    }

    #[test]
    fn golden_vector() {
        let mut out = Vec::new();
        Avro.encode(&golden_event(), &mut out).unwrap();
        assert_eq!(support::hex(&out), support::hex(&golden_bytes()));
        assert_eq!(
            Avro.decode(&out, &Limits::default()).unwrap(),
            golden_event()
        );
    }

    #[test]
    fn generated_round_trip() {
        let (refused, total, json) = support::round_trip_generated(&Avro, true);
        assert_eq!(refused, 0);
        eprintln!("avro: {total} bytes vs json {json}");
    }

    #[test]
    fn truncations_and_trailing_bytes() {
        support::truncations_fail(&Avro, &golden_bytes());
    }

    #[test]
    fn limits() {
        support::limits_enforced(&Avro, golden_event());
        // A tag count of 2^62 in ten bytes.
        let mut huge = golden_bytes()[..70].to_vec();
        huge.extend_from_slice(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]);
        let err = Avro.decode(&huge, &Limits::default()).unwrap_err();
        assert!(support::is_bounded_failure(err.kind), "{err}");
        // A tag declaring 1,000 values with only a few bytes left.
        let mut values = golden_bytes()[..70].to_vec();
        values.extend_from_slice(&[0x02, 0xd0, 0x0f, 0x02, 0x00]);
        assert_eq!(
            Avro.decode(&values, &Limits::default()).unwrap_err().kind,
            DecodeErrorKind::Truncated
        );
        // Content length of 2^40.
        let mut content = golden_bytes()[..70].to_vec();
        content.extend_from_slice(&[0x00, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40]);
        assert_eq!(
            Avro.decode(&content, &Limits::default()).unwrap_err().kind,
            DecodeErrorKind::Truncated
        );
    }

    #[test]
    fn not_representable() {
        let mut e = golden_event();
        e.created_at = u64::MAX;
        let mut out = vec![7];
        let err = Avro.encode(&e, &mut out).unwrap_err();
        assert!(err.reason.contains("i64::MAX"), "{err}");
        assert_eq!(out, [7]);
        e.created_at = i64::MAX as u64;
        out.clear();
        Avro.encode(&e, &mut out).unwrap();
        assert_eq!(Avro.decode(&out, &Limits::default()).unwrap(), e);
    }

    #[test]
    fn non_canonical_input_is_rejected() {
        let limits = Limits::default();
        let head = golden_bytes()[..70].to_vec();
        let tail = |mid: &[u8]| {
            let mut b = head.clone();
            b.extend_from_slice(mid);
            b.extend_from_slice(&[0x00]);
            b.extend_from_slice(&[0x33; 64]);
            b
        };
        // Two tag blocks of one empty tag each (valid Avro, not canonical).
        let two_blocks = tail(&[0x02, 0x00, 0x02, 0x00, 0x00]);
        assert_eq!(
            Avro.decode(&two_blocks, &limits).unwrap_err(),
            DecodeError::at(DecodeErrorKind::NonCanonical, 72)
        );
        // A negative block count with a byte size.
        let negative = tail(&[0x01, 0x02, 0x00, 0x00]);
        assert_eq!(
            Avro.decode(&negative, &limits).unwrap_err().kind,
            DecodeErrorKind::NonCanonical
        );
        // Lowercase hex as the string branch, and an empty bytes branch.
        let text_hex = tail(&[0x02, 0x02, 0x02, 0x04, b'a', b'b', 0x00, 0x00]);
        assert_eq!(
            Avro.decode(&text_hex, &limits).unwrap_err().kind,
            DecodeErrorKind::NonCanonical
        );
        let empty_bytes = tail(&[0x02, 0x02, 0x00, 0x00, 0x00, 0x00]);
        assert_eq!(
            Avro.decode(&empty_bytes, &limits).unwrap_err().kind,
            DecodeErrorKind::NonCanonical
        );
        // Union branch 2 does not exist.
        let branch = tail(&[0x02, 0x02, 0x04, 0x00, 0x00, 0x00]);
        assert_eq!(
            Avro.decode(&branch, &limits).unwrap_err().kind,
            DecodeErrorKind::Invalid("unknown union branch")
        );
        // A negative created_at (-1 is zig-zag 1).
        let mut neg_time = golden_bytes()[..64].to_vec();
        neg_time.extend_from_slice(&[0x01, 0x02, 0x00, 0x00]);
        neg_time.extend_from_slice(&[0x33; 64]);
        assert_eq!(
            Avro.decode(&neg_time, &limits).unwrap_err().kind,
            DecodeErrorKind::Invalid("negative created_at")
        );
    }

    fn schema() -> apache_avro::Schema {
        apache_avro::Schema::parse_str(include_str!("../../schemas/event.avsc")).unwrap()
    }

    fn to_value(e: &Event) -> Value {
        let tags = e
            .tags
            .iter()
            .map(|t| {
                Value::Array(
                    t.iter()
                        .map(|v| {
                            if is_lower_hex(v) {
                                let mut b = Vec::new();
                                hex::decode_into(v, &mut b);
                                Value::Union(0, Box::new(Value::Bytes(b)))
                            } else {
                                Value::Union(1, Box::new(Value::String(v.clone())))
                            }
                        })
                        .collect(),
                )
            })
            .collect();
        Value::Record(vec![
            ("id".into(), Value::Fixed(32, e.id.to_vec())),
            ("pubkey".into(), Value::Fixed(32, e.pubkey.to_vec())),
            ("created_at".into(), Value::Long(e.created_at as i64)),
            ("kind".into(), Value::Int(i32::from(e.kind))),
            ("tags".into(), Value::Array(tags)),
            ("content".into(), Value::String(e.content.clone())),
            ("sig".into(), Value::Fixed(64, e.sig.to_vec())),
        ])
    }

    /// apache-avro writes our bytes, and reads our bytes to the same values.
    #[test]
    fn interop_with_apache_avro() {
        let schema = schema();
        let mut events = crate::corpus::generate::generate(1, 300);
        events.push(golden_event());
        let mut e = golden_event();
        e.tags = vec![vec![], vec![String::new()]];
        e.content.clear();
        events.push(e);
        let writer = apache_avro::writer::datum::GenericDatumWriter::builder(&schema)
            .build()
            .unwrap();
        let reader = apache_avro::reader::datum::GenericDatumReader::builder(&schema)
            .build()
            .unwrap();
        let mut ours = Vec::new();
        for (i, e) in events.iter().enumerate() {
            ours.clear();
            Avro.encode(e, &mut ours).unwrap();
            let theirs = writer.write_value_to_vec(to_value(e)).unwrap();
            assert_eq!(
                support::hex(&theirs),
                support::hex(&ours),
                "event {i}: apache-avro writes other bytes"
            );
            let read = reader.read_value(&mut &ours[..]).unwrap();
            assert_eq!(
                read,
                to_value(e),
                "event {i}: apache-avro reads other values"
            );
        }
    }
}

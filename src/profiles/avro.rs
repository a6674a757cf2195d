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
//! Array blocks: the decoder accepts every block layout the specification
//! allows ("Complex Types: Arrays"): any number of blocks before the
//! terminating `0`, and blocks with a negative count `-n` followed by the
//! block's size in bytes, then `n` items. Other writers use them (hamba/avro,
//! Go, splits long arrays into blocks and can write byte sizes); our encoder
//! writes one block, so such input decodes but is not canonical (the
//! robustness report counts it `accepted-noncanonical`). Each block's count
//! is checked before anything is reserved, against what the earlier blocks
//! left of the limit (`max_tags`, `max_values_per_tag`) and against the
//! remaining input; a byte size must fit the remaining input and match the
//! bytes its items took (`Invalid("array block byte size")`).
//!
//! Canonical form, enforced by the decoder where it does not refuse valid
//! Avro: minimal varints; a `bytes` value is non-empty and a `string` tag
//! value is not lowercase hex (both `NonCanonical`: these are our hex
//! policy, not Avro's). Negative lengths, a negative `created_at`, a kind
//! outside 0..=65535 and an unknown union branch are `Invalid`.
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
//!
//! Borrowed view ([`BorrowDecode`], `select-checked`): the same reader,
//! generic over its strings, keeping id, pubkey, sig and text borrowed
//! (packed hex is restored into owned strings); `kind_and_pubkey` reads the
//! whole datum through it.

use crate::codec::write::{Form, put_hex_or_text, put_uvarint, signed_created_at};
use std::borrow::Cow;

use crate::codec::{
    BorrowDecode, Capabilities, Codec, DecodeError, DecodeErrorKind, EncodeError, Family, Limit,
    Limits, Parts, Profile, Reader, SelectContract, check_event_size,
};
use crate::model::hex::{self, is_lower_hex};
use crate::model::{Event, EventRef};

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
    packs: crate::codec::HEX_TAG_ELEMENTS,
    evolution: &evolution::ADAPTER,
    maintenance: crate::codec::Maintenance {
        sources: &[file!()],
        shared: &[],
        schema: crate::codec::Schema::Document {
            path: "schemas/event.avsc",
        },
        crates: &[],
        spec: crate::codec::maintenance::AVRO,
    },
};

/// Avro binary datum of `binostr.Event`.
pub struct Avro;

fn put_long(out: &mut Vec<u8>, v: i64) {
    put_uvarint(out, ((v << 1) ^ (v >> 63)) as u64);
}

fn put_len(out: &mut Vec<u8>, n: usize) {
    put_long(out, n as i64);
}

impl Codec for Avro {
    fn encode(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let created_at = signed_created_at(event.created_at, PROFILE.id, "Avro long is signed")?;
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
                        put_hex_or_text(out, v, 1, |out, form| match form {
                            Form::Hex(n) => {
                                out.push(0);
                                put_len(out, n);
                            }
                            Form::Text(n) => {
                                out.push(2);
                                put_len(out, n);
                            }
                        });
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
        Ok(read::<String>(bytes, limits)?.into_event())
    }

    fn borrowed(&self) -> Option<&dyn BorrowDecode> {
        Some(self)
    }
}

/// The borrowed view: the same reader as `decode` (`read`), keeping id,
/// pubkey, sig and text borrowed; packed hex is restored into owned strings.
impl BorrowDecode for Avro {
    fn decode_ref<'a>(
        &self,
        bytes: &'a [u8],
        limits: &Limits,
    ) -> Result<EventRef<'a>, DecodeError> {
        Ok(read::<Cow<'a, str>>(bytes, limits)?.into_ref())
    }

    /// Checked: the whole datum is read first.
    fn select_contract(&self) -> SelectContract {
        SelectContract::Checked
    }
}

/// Reads one datum, bounded by `limits`; strings as `S` (owned `String` for
/// `decode`, `Cow` for the view).
fn read<'a, S: From<Cow<'a, str>>>(
    bytes: &'a [u8],
    limits: &Limits,
) -> Result<Parts<'a, S>, DecodeError> {
    check_event_size(bytes, limits)?;
    let mut r = Reader::new(bytes);
    let id = r.array::<32>()?;
    let pubkey = r.array::<32>()?;
    let at = r.offset();
    let created_at = u64::try_from(long(&mut r)?)
        .map_err(|_| DecodeError::at(DecodeErrorKind::Invalid("negative created_at"), at))?;
    let at = r.offset();
    let kind = u16::try_from(long(&mut r)?)
        .map_err(|_| DecodeError::at(DecodeErrorKind::Invalid("kind outside 0..=65535"), at))?;
    let mut tags = Vec::new();
    let mut tag_blocks = Blocks::new(1, limits.max_tags, Limit::Tags);
    while let Some(n_tags) = tag_blocks.next(&mut r)? {
        tags.reserve(n_tags);
        for _ in 0..n_tags {
            let mut tag = Vec::new();
            let mut value_blocks = Blocks::new(2, limits.max_values_per_tag, Limit::ValuesPerTag);
            while let Some(n) = value_blocks.next(&mut r)? {
                tag.reserve(n);
                for _ in 0..n {
                    tag.push(S::from(value(&mut r, limits)?));
                }
            }
            tags.push(tag);
        }
    }
    let len = length(&mut r)?;
    let content = S::from(Cow::Borrowed(r.str(len)?));
    let sig = r.array::<64>()?;
    r.finish()?;
    Ok(Parts::new(id, pubkey, sig, created_at, kind, tags, content))
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
    r.fits(n, 1)
}

/// Reads the blocks of one Avro array (spec, "Complex Types: Arrays"):
/// each block is a `long` count and that many items; a negative count is
/// followed by the block's size in bytes and means |count| items; a count of
/// 0 ends the array. Every block's count is checked, before its items are
/// read or reserved, against what is left of `limit` after the earlier
/// blocks and against `min_item` bytes per item in the remaining input; a
/// block's byte size against the remaining input and, once its items are
/// read, against the bytes they took.
struct Blocks {
    min_item: usize,
    limit: usize,
    what: Limit,
    total: usize,
    /// The offset where the current negative-count block must end, and the
    /// offset of its byte size.
    sized: Option<(usize, usize)>,
}

impl Blocks {
    fn new(min_item: usize, limit: usize, what: Limit) -> Self {
        Self {
            min_item,
            limit,
            what,
            total: 0,
            sized: None,
        }
    }

    /// The item count of the next block, or `None` after the terminating 0.
    /// Call only after the previous block's items were all read.
    fn next(&mut self, r: &mut Reader<'_>) -> Result<Option<usize>, DecodeError> {
        if let Some((end, size_at)) = self.sized.take()
            && r.offset() != end
        {
            return Err(DecodeError::at(
                DecodeErrorKind::Invalid("array block byte size"),
                size_at,
            ));
        }
        let at = r.offset();
        let n = long(r)?;
        if n == 0 {
            return Ok(None);
        }
        if n < 0 {
            let size_at = r.offset();
            let size = long(r)?;
            let size = u64::try_from(size).map_err(|_| {
                DecodeError::at(
                    DecodeErrorKind::Invalid("negative block byte size"),
                    size_at,
                )
            })?;
            let size = r
                .fits(size, 1)
                .map_err(|e| DecodeError::at(e.kind, size_at))?;
            self.sized = Some((r.offset() + size, size_at));
        }
        let n = r
            .count(
                n.unsigned_abs(),
                self.min_item,
                self.limit - self.total,
                self.what,
            )
            .map_err(|e| DecodeError::at(e.kind, at))?;
        self.total += n;
        Ok(Some(n))
    }
}

fn value<'a>(r: &mut Reader<'a>, limits: &Limits) -> Result<Cow<'a, str>, DecodeError> {
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
            DecodeErrorKind::LimitExceeded(Limit::ValueBytes),
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
            Ok(Cow::Owned(hex::encode(r.take(len)?)))
        }
        _ => {
            if len > limits.max_value_bytes {
                return too_long();
            }
            let s = r.str(len)?;
            if is_lower_hex(s) {
                return Err(DecodeError::at(DecodeErrorKind::NonCanonical, at));
            }
            Ok(Cow::Borrowed(s))
        }
    }
}

pub(crate) mod evolution;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles::test_support::{self as support, golden_event, golden_hex};
    use apache_avro::types::Value;

    fn golden_bytes() -> Vec<u8> {
        golden_hex(
            "{id} {pubkey} 80c49fd50c 02 08 \
             08 0202 65 0040 {e} 0226 {relay} 0208 726f6f74 00 \
             04 0202 70 0040 {p} 00 \
             0a 0202 74 020c 414243444546 0206 616263 0200 000200 00 \
             00 \
             00 50 {content} {sig}",
        )
    }

    #[test]
    fn conforms() {
        let (total, json) = support::conformance(&Avro, &golden_bytes(), true);
        eprintln!("avro: {total} bytes vs json {json}");
    }

    #[test]
    fn view_borrows_and_errs_where_decode_errs() {
        use std::borrow::Cow;
        let l = Limits::default();
        let g = golden_bytes();
        let view = Avro.decode_ref(&g, &l).unwrap();
        assert!(matches!(view.id, Cow::Borrowed(_)));
        assert!(matches!(view.content, Cow::Borrowed(c) if c == golden_event().content));
        assert!(matches!(view.tags[2][1], Cow::Borrowed("ABCDEF")));
        assert!(
            matches!(view.tags[0][1], Cow::Owned(_)),
            "packed hex is restored"
        );
        for at in 0..g.len() {
            for x in [0x00, 0xff, 0x01, 0x02, 0x80] {
                let mut m = g.clone();
                m[at] = x;
                let owned = Avro.decode(&m, &l);
                let viewed = Avro.decode_ref(&m, &l).map(|r| r.to_owned_event());
                assert_eq!(viewed, owned, "byte {at} = {x:02x}");
            }
        }
        let cut = Avro.decode_ref(&g[..g.len() - 1], &l).unwrap_err();
        assert_eq!(
            cut,
            DecodeError::at(DecodeErrorKind::Truncated, g.len() - 64)
        );
    }

    #[test]
    fn limits() {
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

    /// The golden's first 70 bytes, then `mid` as the tags, an empty
    /// content and the sig.
    fn with_tags(mid: &[u8]) -> Vec<u8> {
        let mut b = golden_bytes()[..70].to_vec();
        b.extend_from_slice(mid);
        b.extend_from_slice(&[0x00]);
        b.extend_from_slice(&[0x33; 64]);
        b
    }

    fn decoded_tags(b: &[u8], limits: &Limits) -> Result<Vec<Vec<String>>, DecodeError> {
        Avro.decode(b, limits).map(|e| e.tags)
    }

    #[test]
    fn every_block_layout_is_accepted() {
        let l = Limits::default();
        let t = |s: &str| vec![s.to_string()];
        // Two tag blocks of one empty tag each.
        assert_eq!(
            decoded_tags(&with_tags(&[0x02, 0x00, 0x02, 0x00, 0x00]), &l),
            Ok(vec![vec![], vec![]])
        );
        // One tag whose two values come in two blocks: ["a"], then ["b"].
        let values = [
            0x02, 0x02, 0x02, 0x02, b'a', 0x02, 0x02, 0x02, b'b', 0x00, 0x00,
        ];
        assert_eq!(
            decoded_tags(&with_tags(&values), &l),
            Ok(vec![vec!["a".into(), "b".into()]])
        );
        // A negative count (-1) with its byte size (1): one empty tag.
        assert_eq!(
            decoded_tags(&with_tags(&[0x01, 0x02, 0x00, 0x00]), &l),
            Ok(vec![vec![]])
        );
        // Negative-count blocks at both levels, then a positive block:
        // tags = -2 (size 7) [ -1 (size 3) ["a"], [] ], 1 [ ["b"] ].
        let nested = [
            0x03, 0x0e, 0x01, 0x06, 0x02, 0x02, b'a', 0x00, 0x00, 0x02, 0x02, 0x02, 0x02, b'b',
            0x00, 0x00,
        ];
        assert_eq!(
            decoded_tags(&with_tags(&nested), &l),
            Ok(vec![t("a"), vec![], t("b")])
        );
        // What other writers produce decodes to the event ours encodes.
        let e = Avro.decode(&with_tags(&values), &l).unwrap();
        let mut again = Vec::new();
        Avro.encode(&e, &mut again).unwrap();
        assert_eq!(
            again[70..again.len() - 64],
            [
                0x02, 0x04, 0x02, 0x02, b'a', 0x02, 0x02, b'b', 0x00, 0x00, 0x00
            ]
        );
    }

    #[test]
    fn hostile_block_layouts_are_bounded() {
        let small = Limits {
            max_tags: 3,
            max_values_per_tag: 2,
            ..Limits::default()
        };
        // 2 + 2 tags across two blocks: over max_tags = 3 at the second count.
        let err = decoded_tags(
            &with_tags(&[0x04, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00]),
            &small,
        )
        .unwrap_err();
        assert_eq!(
            err,
            DecodeError::at(DecodeErrorKind::LimitExceeded(Limit::Tags), 73)
        );
        // 1 + 2 values across two blocks: over max_values_per_tag = 2.
        let values = [0x02, 0x02, 0x02, 0x02, b'a', 0x04, 0x02, 0x02, b'b', 0x00];
        assert_eq!(
            decoded_tags(&with_tags(&values), &small).unwrap_err().kind,
            DecodeErrorKind::LimitExceeded(Limit::ValuesPerTag)
        );
        // Many blocks of one empty tag each: the cumulative count hits the
        // default limit, not the input.
        let mut many = Vec::new();
        for _ in 0..=Limits::default().max_tags {
            many.extend_from_slice(&[0x02, 0x00]);
        }
        many.push(0x00);
        assert_eq!(
            decoded_tags(&with_tags(&many), &Limits::default())
                .unwrap_err()
                .kind,
            DecodeErrorKind::LimitExceeded(Limit::Tags)
        );
        // A count of -2^63 (zig-zag u64::MAX) with a byte size.
        let mut min = vec![0xff; 9];
        min.extend_from_slice(&[0x01, 0x02, 0x00, 0x00]);
        assert!(support::is_bounded_failure(
            decoded_tags(&with_tags(&min), &Limits::default())
                .unwrap_err()
                .kind
        ));
        // A byte size past the end of the input (2^40).
        let past = [0x01, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40, 0x00, 0x00];
        assert_eq!(
            decoded_tags(&with_tags(&past), &Limits::default()).unwrap_err(),
            DecodeError::at(DecodeErrorKind::Truncated, 71)
        );
        // A byte size that disagrees with the items (2 for a 1-byte tag),
        // and a negative byte size.
        for (bad, kind) in [
            (0x04, DecodeErrorKind::Invalid("array block byte size")),
            (0x01, DecodeErrorKind::Invalid("negative block byte size")),
        ] {
            assert_eq!(
                decoded_tags(
                    &with_tags(&[0x01, bad, 0x00, 0x00, 0x00]),
                    &Limits::default()
                )
                .unwrap_err(),
                DecodeError::at(kind, 71)
            );
        }
        // Truncated after a block: the terminating 0 is missing.
        let mut cut = with_tags(&[0x02, 0x00]);
        cut.truncate(72);
        assert_eq!(
            Avro.decode(&cut, &Limits::default()).unwrap_err().kind,
            DecodeErrorKind::Truncated
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

//! `protobuf`: Protocol Buffers (proto3) with prost, schema
//! `schemas/event.proto` message `Event`, compiled by protox in `build.rs`
//! (pure Rust, no `protoc`).
//!
//! | field | number | wire type | content |
//! |---|---|---|---|
//! | id | 1 | LEN | 32 raw bytes |
//! | pubkey | 2 | LEN | 32 raw bytes |
//! | created_at | 3 | VARINT | `uint64`, omitted when 0 |
//! | kind | 4 | VARINT | `uint32` ≤ 65535, omitted when 0 |
//! | tags | 5 | LEN, repeated | `Tag { repeated TagValue values = 1 }` |
//! | content | 6 | LEN | UTF-8, omitted when empty |
//! | sig | 7 | LEN | 64 raw bytes |
//!
//! `TagValue` is `oneof value { bytes hex = 1; string text = 2; }`. A tag
//! value that is non-empty, even-length, lowercase hex ([`hex::is_lower_hex`]) is
//! packed as `hex` and re-emitted as lowercase hex on decoding; every other
//! value, including the empty string, is `text` (a oneof member is always
//! written, so `text = ""` is `12 00`). Content is never packed.
//!
//! Canonical form: what prost writes for the message, i.e. fields in
//! ascending number, each singular field at most once, proto3 defaults
//! omitted, minimal varints, no unknown fields. Protobuf parsers in general
//! accept much more (any field order, repeated singular fields with last one
//! winning, unknown fields, over-long varints, explicit defaults). This
//! profile rejects all of that (`NonCanonical` or `Invalid`), so that every
//! accepted input re-encodes to the same bytes and the profile is
//! deterministic; a `hex` member that is empty or a `text` member that is
//! lowercase hex is rejected too, since the encoder never writes those.
//!
//! Limits: prost's decoder is recursion-limited and only allocates for bytes
//! present in the input, but it applies no [`Limits`]. Checking the decoded
//! message afterwards would not be "while decoding", so a pre-scan first walks
//! the wire format once, without allocating: it checks the event size, every
//! length against the remaining input, the tag count, the values per tag
//! and each value's length (packed hex counts twice its byte length, as the
//! string it decodes to), together with the canonical-form rules above. Only
//! then does prost decode. The scan is part of the measured decode cost.
//! Error offsets come from the scan; a failure inside prost itself (which
//! after the scan can only be invalid UTF-8 in a string) is reported at
//! offset 0.
//!
//! Borrowed view ([`BorrowDecode`], `select-checked`): the same scan, then a
//! field walk in place of prost (after the scan the message is canonical);
//! id, pubkey, sig and text borrow from the input, packed hex is owned.
//! Invalid UTF-8 is `BadUtf8` at the offending byte here (prost reports no
//! position, so `decode` says offset 0).
//!
//! Differences from plain prost use: the pre-scan (limits, canonical form)
//! and the fixed-length checks on id, pubkey and sig (`Invalid`).

use std::borrow::Cow;

use crate::codec::{
    BorrowDecode, Capabilities, Codec, DecodeError, DecodeErrorKind, EncodeError, Family, Limit,
    Limits, Profile, Reader, SelectContract, check_event_size,
};
use crate::model::{Event, EventRef, hex};

/// The prost types generated from `schemas/event.proto`.
pub(super) mod pb {
    include!(concat!(env!("OUT_DIR"), "/binostr.rs"));
}

use pb::tag_value::Value;

/// The registry entry.
pub const PROFILE: Profile = Profile {
    id: "protobuf",
    family: Family::OpenStandard,
    capabilities: Capabilities {
        deterministic: true,
        self_describing: false,
    },
    enabled: true,
    codec: &Protobuf,
    packs: crate::codec::HEX_TAG_ELEMENTS,
    evolution: &evolution::ADAPTER,
    maintenance: crate::codec::Maintenance {
        sources: &[file!()],
        shared: &[],
        schema: crate::codec::Schema::BuildScript {
            path: "schemas/event.proto",
            out: "binostr.rs",
        },
        crates: &["prost"],
        spec: crate::codec::maintenance::PROTOBUF,
    },
};

/// prost, message `binostr.Event`.
pub struct Protobuf;

impl Codec for Protobuf {
    fn encode(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        encode(event, out, true);
        Ok(())
    }

    fn decode(&self, bytes: &[u8], limits: &Limits) -> Result<Event, DecodeError> {
        decode(bytes, limits, Some(Shape::Packed))
    }

    fn borrowed(&self) -> Option<&dyn BorrowDecode> {
        Some(self)
    }
}

/// The borrowed view: the same bounding, canonical-form `scan` as
/// `decode`, then a field walk instead of prost. After the scan the message
/// is canonical (each field once, in order, lengths in bounds), so the walk
/// reads each field where it lies: id, pubkey and sig borrow from the
/// input, text borrows after its UTF-8 check (at its offset), packed hex is
/// restored into owned strings.
impl BorrowDecode for Protobuf {
    fn decode_ref<'a>(
        &self,
        bytes: &'a [u8],
        limits: &Limits,
    ) -> Result<EventRef<'a>, DecodeError> {
        scan(bytes, limits, Shape::Packed)?;
        view(bytes)
    }

    /// Checked: the scan walks the whole record first.
    fn select_contract(&self) -> SelectContract {
        SelectContract::Checked
    }
}

/// The field walk of [`Protobuf::decode_ref`] over a message [`scan`] accepted.
fn view(bytes: &[u8]) -> Result<EventRef<'_>, DecodeError> {
    let missing = || DecodeError::at(DecodeErrorKind::Invalid("missing id, pubkey or sig"), 0);
    let (mut id, mut pubkey, mut sig) = (None, None, None);
    let (mut created_at, mut kind_, mut content) = (0, 0, Cow::Borrowed(""));
    let mut tags = Vec::new();
    let mut r = Reader::new(bytes);
    while r.remaining() > 0 {
        let (field, wire) = key(&mut r)?;
        if wire == VARINT {
            let v = r.uvarint(true)?;
            match field {
                3 => created_at = v,
                _ => kind_ = kind(u32::try_from(v).unwrap_or(u32::MAX))?,
            }
            continue;
        }
        let (at, body) = len_body(&mut r)?;
        match field {
            1 => id = Some(Cow::Borrowed(fixed_ref(body)?)),
            2 => pubkey = Some(Cow::Borrowed(fixed_ref(body)?)),
            7 => sig = Some(Cow::Borrowed(fixed_ref(body)?)),
            6 => content = Cow::Borrowed(text(body, at)?),
            _ => tags.push(view_tag(body, at)?),
        }
    }
    Ok(EventRef {
        id: id.ok_or_else(missing)?,
        pubkey: pubkey.ok_or_else(missing)?,
        sig: sig.ok_or_else(missing)?,
        created_at,
        kind: kind_,
        tags,
        content,
    })
}

fn view_tag(body: &[u8], base: usize) -> Result<Vec<Cow<'_, str>>, DecodeError> {
    let mut r = Reader::new(body);
    let mut values = Vec::new();
    while r.remaining() > 0 {
        key(&mut r)?;
        let (value_at, value) = len_body(&mut r)?;
        let mut v = Reader::new(value);
        let (member, _) = key(&mut v)?;
        let (at, payload) = len_body(&mut v)?;
        values.push(if member == 1 {
            Cow::Owned(hex::encode(payload))
        } else {
            Cow::Borrowed(text(payload, base + value_at + at)?)
        });
    }
    Ok(values)
}

/// UTF-8 text at offset `at` of the message.
fn text(b: &[u8], at: usize) -> Result<&str, DecodeError> {
    crate::codec::utf8(b).map_err(|i| DecodeError::at(DecodeErrorKind::BadUtf8, at + i))
}

/// A fixed-size field the scan has already length-checked, borrowed.
fn fixed_ref<const N: usize>(b: &[u8]) -> Result<&[u8; N], DecodeError> {
    b.try_into()
        .map_err(|_| DecodeError::at(DecodeErrorKind::Invalid("wrong fixed-field length"), 0))
}

/// The registry profile with its tag-value packing, its bounding pre-scan,
/// or both switched off, to measure what each costs
/// (`examples/pass_time.rs`, `docs/performance.md`). Benchmark-only: not in
/// the registry. Without the scan no [`Limits`] and no canonical-form rule
/// apply (prost alone decides), so it is unfit for untrusted bytes; without
/// packing every tag value is a `text` member, and the decoder accepts
/// lowercase hex text.
#[derive(Clone, Copy, Debug)]
pub struct Variant {
    /// Lowercase-hex tag values travel as `hex` bytes.
    pub packing: bool,
    /// The bounding, canonical-form pre-scan runs before prost.
    pub scan: bool,
}

/// The variants by benchmark name: `protobuf/no-scan`,
/// `protobuf/no-packing`, `protobuf/neither`.
pub static VARIANTS: &[(&str, Variant)] = &[
    (
        "protobuf/no-scan",
        Variant {
            packing: true,
            scan: false,
        },
    ),
    (
        "protobuf/no-packing",
        Variant {
            packing: false,
            scan: true,
        },
    ),
    (
        "protobuf/neither",
        Variant {
            packing: false,
            scan: false,
        },
    ),
];

impl Codec for Variant {
    fn encode(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        encode(event, out, self.packing);
        Ok(())
    }

    fn decode(&self, bytes: &[u8], limits: &Limits) -> Result<Event, DecodeError> {
        let shape = if self.packing {
            Shape::Packed
        } else {
            Shape::Unpacked
        };
        decode(bytes, limits, self.scan.then_some(shape))
    }
}

fn encode(event: &Event, out: &mut Vec<u8>, packing: bool) {
    let msg = pb::Event {
        id: event.id.to_vec(),
        pubkey: event.pubkey.to_vec(),
        created_at: event.created_at,
        kind: u32::from(event.kind),
        tags: event
            .tags
            .iter()
            .map(|tag| pb::Tag {
                values: tag.iter().map(|v| tag_value(v, packing)).collect(),
            })
            .collect(),
        content: event.content.clone(),
        sig: event.sig.to_vec(),
    };
    prost::Message::encode(&msg, out).expect("a Vec grows as needed");
}

/// prost's decode, after the scan of `shape` unless `None`.
fn decode(bytes: &[u8], limits: &Limits, shape: Option<Shape>) -> Result<Event, DecodeError> {
    if let Some(shape) = shape {
        scan(bytes, limits, shape)?;
    }
    let msg: pb::Event = prost::Message::decode(bytes).map_err(prost_error)?;
    let mut tags = Vec::with_capacity(msg.tags.len());
    for tag in msg.tags {
        let mut values = Vec::with_capacity(tag.values.len());
        for v in tag.values {
            values.push(match v.value {
                Some(Value::Hex(b)) => hex::encode(&b),
                Some(Value::Text(s)) => s,
                None => {
                    return Err(DecodeError::at(
                        DecodeErrorKind::Invalid("tag value is neither hex nor text"),
                        0,
                    ));
                }
            });
        }
        tags.push(values);
    }
    Ok(Event {
        id: fixed(&msg.id)?,
        pubkey: fixed(&msg.pubkey)?,
        sig: fixed(&msg.sig)?,
        created_at: msg.created_at,
        kind: kind(msg.kind)?,
        tags,
        content: msg.content,
    })
}

fn tag_value(v: &str, packing: bool) -> pb::TagValue {
    let mut b = Vec::new();
    let value = if packing && hex::decode_into(v, &mut b) {
        Value::Hex(b)
    } else {
        Value::Text(v.to_owned())
    };
    pb::TagValue { value: Some(value) }
}

/// A fixed-size field the scan has already length-checked.
pub(super) fn fixed<const N: usize>(b: &[u8]) -> Result<[u8; N], DecodeError> {
    b.try_into()
        .map_err(|_| DecodeError::at(DecodeErrorKind::Invalid("wrong fixed-field length"), 0))
}

/// The kind, already range-checked by the scan.
pub(super) fn kind(k: u32) -> Result<u16, DecodeError> {
    u16::try_from(k).map_err(|_| DecodeError::at(DecodeErrorKind::Invalid("kind above 65535"), 0))
}

/// A prost error after a successful scan: only invalid UTF-8 remains possible.
pub(super) fn prost_error(e: prost::DecodeError) -> DecodeError {
    let kind = if e.to_string().contains("UTF-8") {
        DecodeErrorKind::BadUtf8
    } else {
        DecodeErrorKind::Invalid("protobuf")
    };
    DecodeError::at(kind, 0)
}

/// Which message the scan walks.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Shape {
    /// `Event`: raw fixed fields, `TagValue` oneof members.
    Packed,
    /// `HexEvent`: hex text fixed fields, plain string values.
    HexStrings,
    /// `Event` with every tag value a `text` member ([`Variant`] with
    /// packing off).
    Unpacked,
}

const VARINT: u64 = 0;
const LEN: u64 = 2;

/// One bounded, allocation-free pass over the wire format: limits, lengths
/// against the remaining input, and the canonical-form rules of the module
/// docs. Offsets in errors are offsets into `bytes`.
pub(super) fn scan(bytes: &[u8], limits: &Limits, shape: Shape) -> Result<(), DecodeError> {
    check_event_size(bytes, limits)?;
    let (fixed32, fixed64) = match shape {
        Shape::Packed | Shape::Unpacked => (32, 64),
        Shape::HexStrings => (64, 128),
    };
    let mut r = Reader::new(bytes);
    let mut last = 0;
    let mut tags = 0usize;
    let mut seen = [false; 8];
    while r.remaining() > 0 {
        let at = r.offset();
        let (field, wire) = key(&mut r)?;
        let expected = match field {
            3 | 4 => VARINT,
            1 | 2 | 5 | 6 | 7 => LEN,
            _ => {
                return Err(DecodeError::at(
                    DecodeErrorKind::Invalid("unknown field"),
                    at,
                ));
            }
        };
        if wire != expected {
            return Err(DecodeError::at(
                DecodeErrorKind::Invalid("wrong wire type"),
                at,
            ));
        }
        if field < last || (field == last && field != 5) {
            return Err(DecodeError::at(DecodeErrorKind::NonCanonical, at));
        }
        last = field;
        seen[field as usize] = true;
        if wire == VARINT {
            let v = r.uvarint(true)?;
            if v == 0 {
                return Err(DecodeError::at(DecodeErrorKind::NonCanonical, at));
            }
            if field == 4 && v > u64::from(u16::MAX) {
                return Err(DecodeError::at(
                    DecodeErrorKind::Invalid("kind above 65535"),
                    at,
                ));
            }
            continue;
        }
        let (body_at, body) = len_body(&mut r)?;
        let need = match field {
            1 | 2 => Some(fixed32),
            7 => Some(fixed64),
            _ => None,
        };
        if need.is_some_and(|n| n != body.len()) {
            return Err(DecodeError::at(
                DecodeErrorKind::Invalid("wrong fixed-field length"),
                at,
            ));
        }
        match field {
            6 if body.is_empty() => {
                return Err(DecodeError::at(DecodeErrorKind::NonCanonical, at));
            }
            5 => {
                tags += 1;
                if tags > limits.max_tags {
                    return Err(DecodeError::at(
                        DecodeErrorKind::LimitExceeded(Limit::Tags),
                        at,
                    ));
                }
                scan_tag(body, limits, shape).map_err(|e| shifted(e, body_at))?;
            }
            _ => {}
        }
    }
    if !(seen[1] && seen[2] && seen[7]) {
        return Err(r.error(DecodeErrorKind::Invalid("missing id, pubkey or sig")));
    }
    Ok(())
}

fn scan_tag(body: &[u8], limits: &Limits, shape: Shape) -> Result<(), DecodeError> {
    let mut r = Reader::new(body);
    let mut values = 0usize;
    while r.remaining() > 0 {
        let at = r.offset();
        if key(&mut r)? != (1, LEN) {
            return Err(DecodeError::at(
                DecodeErrorKind::Invalid("unknown field in tag"),
                at,
            ));
        }
        values += 1;
        if values > limits.max_values_per_tag {
            return Err(DecodeError::at(
                DecodeErrorKind::LimitExceeded(Limit::ValuesPerTag),
                at,
            ));
        }
        let (value_at, value) = len_body(&mut r)?;
        match shape {
            Shape::HexStrings => value_len(value.len(), limits, at)?,
            Shape::Packed => scan_value(value, limits, true).map_err(|e| shifted(e, value_at))?,
            Shape::Unpacked => {
                scan_value(value, limits, false).map_err(|e| shifted(e, value_at))?;
            }
        }
    }
    Ok(())
}

fn scan_value(body: &[u8], limits: &Limits, packing: bool) -> Result<(), DecodeError> {
    let mut r = Reader::new(body);
    let (member, wire) = key(&mut r)?;
    if wire != LEN || !(member == 2 || (packing && member == 1)) {
        return Err(DecodeError::at(
            DecodeErrorKind::Invalid("tag value is neither hex nor text"),
            0,
        ));
    }
    let (_, value) = len_body(&mut r)?;
    if member == 1 {
        if value.is_empty() {
            return Err(DecodeError::at(DecodeErrorKind::NonCanonical, 0));
        }
        value_len(value.len().saturating_mul(2), limits, 0)?;
    } else {
        value_len(value.len(), limits, 0)?;
        if packing && hex::is_lower_hex_bytes(value) {
            return Err(DecodeError::at(DecodeErrorKind::NonCanonical, 0));
        }
    }
    if r.remaining() > 0 {
        return Err(r.error(DecodeErrorKind::Invalid("tag value has two members")));
    }
    Ok(())
}

fn value_len(len: usize, limits: &Limits, at: usize) -> Result<(), DecodeError> {
    if len > limits.max_value_bytes {
        return Err(DecodeError::at(
            DecodeErrorKind::LimitExceeded(Limit::ValueBytes),
            at,
        ));
    }
    Ok(())
}

/// A field key: (field number, wire type); keys are minimal varints.
fn key(r: &mut Reader<'_>) -> Result<(u64, u64), DecodeError> {
    let k = r.uvarint(true)?;
    Ok((k >> 3, k & 7))
}

/// A length-delimited body, bounded by the remaining input.
fn len_body<'a>(r: &mut Reader<'a>) -> Result<(usize, &'a [u8]), DecodeError> {
    let len = r.uvarint(true)?;
    let len = r.fits(len, 1)?;
    let at = r.offset();
    Ok((at, r.take(len)?))
}

fn shifted(e: DecodeError, by: usize) -> DecodeError {
    DecodeError::at(e.kind, e.offset + by)
}

pub(crate) mod evolution;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles::test_support::{self as support, golden_event, golden_hex};

    fn golden_bytes() -> Vec<u8> {
        golden_hex(
            "0a20 {id} 1220 {pubkey} 18 80e2cfaa06 20 01 \
             2a48 0a03 1201 65 0a22 0a20 {e} 0a15 1213 {relay} 0a06 1204 726f6f74 \
             2a29 0a03 1201 70 0a22 0a20 {p} \
             2a1f 0a03 1201 74 0a08 1206 414243444546 0a05 1203 616263 0a02 1200 \
                  0a03 0a01 00 \
             2a00 \
             3228 {content} 3a40 {sig}",
        )
    }

    #[test]
    fn view_borrows_and_errs_where_decode_errs() {
        let l = Limits::default();
        let g = golden_bytes();
        let view = Protobuf.decode_ref(&g, &l).unwrap();
        assert_eq!(view.to_owned_event(), golden_event());
        assert!(matches!(view.id, Cow::Borrowed(_)));
        assert!(matches!(view.sig, Cow::Borrowed(_)));
        assert!(matches!(view.content, Cow::Borrowed(c) if c == golden_event().content));
        assert!(matches!(view.tags[2][1], Cow::Borrowed("ABCDEF")));
        assert!(
            matches!(view.tags[0][1], Cow::Owned(_)),
            "packed hex is restored"
        );
        for at in 0..g.len() {
            for x in [0x00, 0xff, 0x80, 0x12, 0x0a] {
                let mut m = g.clone();
                m[at] = x;
                let owned = Protobuf.decode(&m, &l);
                let viewed = Protobuf.decode_ref(&m, &l).map(|r| r.to_owned_event());
                assert_eq!(viewed.is_ok(), owned.is_ok(), "byte {at} = {x:02x}");
                if let (Ok(a), Ok(b)) = (viewed, owned) {
                    assert_eq!(a, b, "byte {at} = {x:02x}");
                }
            }
        }
        // Invalid UTF-8 in content: decode says offset 0 (prost), the view
        // names the byte.
        let content = g.len() - 66 - 40;
        let mut m = g.clone();
        m[content + 1] = 0xff;
        assert_eq!(
            Protobuf.decode(&m, &l).unwrap_err().kind,
            DecodeErrorKind::BadUtf8
        );
        assert_eq!(
            Protobuf.decode_ref(&m, &l).unwrap_err(),
            DecodeError::at(DecodeErrorKind::BadUtf8, content + 1)
        );
        let cut = Protobuf.decode_ref(&g[..g.len() - 1], &l).unwrap_err();
        assert_eq!(cut, Protobuf.decode(&g[..g.len() - 1], &l).unwrap_err());
    }

    #[test]
    fn conforms() {
        let (total, json) = support::conformance(&Protobuf, &golden_bytes(), false);
        eprintln!("protobuf: {total} bytes vs json {json}");
    }

    #[test]
    fn benchmark_variants_round_trip() {
        for (name, v) in VARIANTS {
            let (refused, total, _) = support::round_trip_generated(v, true);
            assert_eq!(refused, 0, "{name}");
            eprintln!("{name}: {total} bytes");
        }
        let mut packed = Vec::new();
        Protobuf.encode(&golden_event(), &mut packed).unwrap();
        let mut plain = Vec::new();
        VARIANTS[1].1.encode(&golden_event(), &mut plain).unwrap();
        assert!(plain.len() > packed.len(), "the e tag's value is text");
        let limits = Limits::default();
        assert!(Protobuf.decode(&plain, &limits).is_err(), "non-canonical");
        assert_eq!(VARIANTS[1].1.decode(&packed, &limits).ok(), None);
        assert_eq!(
            VARIANTS[0].1.decode(&plain, &limits).unwrap(),
            golden_event()
        );
    }

    #[test]
    fn limits() {
        // A tag declaring a 4 GiB body in a few bytes.
        let mut huge = golden_bytes()[..68].to_vec();
        huge.extend_from_slice(&[0x2a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x0a]);
        assert_eq!(
            Protobuf.decode(&huge, &Limits::default()).unwrap_err().kind,
            DecodeErrorKind::Truncated
        );
        // 10,001 empty tags exceed max_tags without allocating.
        let mut many = golden_bytes()[..68].to_vec();
        for _ in 0..10_001 {
            many.extend_from_slice(&[0x2a, 0x00]);
        }
        assert_eq!(
            Protobuf.decode(&many, &Limits::default()).unwrap_err().kind,
            DecodeErrorKind::LimitExceeded(Limit::Tags)
        );
    }

    #[test]
    fn non_canonical_input_is_rejected() {
        let limits = Limits::default();
        let g = golden_bytes();
        // kind before created_at.
        let mut swapped = g[..68].to_vec();
        swapped.extend_from_slice(&[0x20, 0x01, 0x18, 0x01]);
        swapped.extend_from_slice(&g[g.len() - 66..]);
        assert_eq!(
            Protobuf.decode(&swapped, &limits).unwrap_err(),
            DecodeError::at(DecodeErrorKind::NonCanonical, 70)
        );
        // An explicit default (kind = 0).
        let mut zero = g[..68].to_vec();
        zero.extend_from_slice(&[0x20, 0x00]);
        zero.extend_from_slice(&g[g.len() - 66..]);
        assert_eq!(
            Protobuf.decode(&zero, &limits).unwrap_err().kind,
            DecodeErrorKind::NonCanonical
        );
        // An unknown field 8.
        let mut unknown = g.clone();
        unknown.extend_from_slice(&[0x40, 0x01]);
        assert_eq!(
            Protobuf.decode(&unknown, &limits).unwrap_err().kind,
            DecodeErrorKind::Invalid("unknown field")
        );
        // Lowercase hex written as text.
        let mut text_hex = g[..68].to_vec();
        text_hex.extend_from_slice(&[0x2a, 0x06, 0x0a, 0x04, 0x12, 0x02, b'a', b'b']);
        text_hex.extend_from_slice(&g[g.len() - 66..]);
        assert_eq!(
            Protobuf.decode(&text_hex, &limits).unwrap_err().kind,
            DecodeErrorKind::NonCanonical
        );
        // A short id, and a kind above 65535.
        let mut short = vec![0x0a, 0x01, 0x00];
        short.extend_from_slice(&g[34..]);
        assert_eq!(
            Protobuf.decode(&short, &limits).unwrap_err().kind,
            DecodeErrorKind::Invalid("wrong fixed-field length")
        );
        let mut big_kind = g[..68].to_vec();
        big_kind.extend_from_slice(&[0x20, 0x80, 0x80, 0x04]);
        big_kind.extend_from_slice(&g[g.len() - 66..]);
        assert_eq!(
            Protobuf.decode(&big_kind, &limits).unwrap_err().kind,
            DecodeErrorKind::Invalid("kind above 65535")
        );
    }

    #[test]
    fn empty_strings_and_tags() {
        let mut e = golden_event();
        e.tags = vec![vec![], vec![String::new(), "A".into()]];
        e.content = String::new();
        e.created_at = 0;
        e.kind = 0;
        let mut out = Vec::new();
        Protobuf.encode(&e, &mut out).unwrap();
        assert_eq!(Protobuf.decode(&out, &Limits::default()).unwrap(), e);
    }
}

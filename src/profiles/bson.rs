//! `bson`: one BSON document (bsonspec.org 1.1) written and read with the
//! `bson` crate's raw API (`RawDocumentBuf` to encode, the borrowing
//! `RawDocument` iterator to decode).
//!
//! | key | BSON type | content |
//! |---|---|---|
//! | `id` | binary (0x05), subtype 0 | 32 bytes |
//! | `pubkey` | binary, subtype 0 | 32 bytes |
//! | `created_at` | int64 (0x12) | 0..=i64::MAX |
//! | `kind` | int32 (0x10) | 0..=65535 |
//! | `tags` | array (0x04) of arrays | values: binary subtype 0 (packed hex) or string (0x02) |
//! | `content` | string | UTF-8 |
//! | `sig` | binary, subtype 0 | 64 bytes |
//!
//! A document is `int32 total length`, elements (`type byte`, key as a
//! NUL-terminated cstring, value), then `00`. An array is a document whose
//! keys are `"0"`, `"1"`, …; a string is `int32 (len + 1)`, the bytes and a
//! NUL; a binary is `int32 len`, the subtype byte, the bytes.
//!
//! Hex policy: a tag value that is non-empty, even-length, lowercase hex
//! ([`is_lower_hex`]) is a binary of subtype 0 and is re-emitted as
//! lowercase hex on decoding; every other value, including the empty
//! string, is a string. Content is never packed.
//!
//! Not representable: `created_at` above `i64::MAX` (BSON int64 is signed),
//! and an event whose document could exceed BSON's `i32` length.
//!
//! Canonical form, enforced by the decoder so that decode→encode reproduces
//! the input: exactly the seven keys above in that order with those types,
//! array keys `"0"`, `"1"`, … in order, binary subtype 0 only (the old
//! subtype 2 with its inner length is rejected), a packed value is non-empty
//! and a string tag value is not lowercase hex. Unknown keys, other types
//! and out-of-range numbers are `Invalid`.
//!
//! Bounds: the event size is checked first, then the declared document
//! length against the input (shorter input is `Truncated`, longer is
//! `TrailingBytes`) before the crate sees it. `RawDocument::from_bytes`
//! itself refuses a declared length that differs from the slice, and its
//! element iterator checks every nested length against the enclosing
//! document without allocating (bson 3.1.0 `raw/iter.rs`,
//! `verify_enough_bytes`), so nothing is allocated from a declared length.
//! The tag count, values per tag and value lengths are checked against
//! [`Limits`] as the iterator reaches each element, before the value is
//! copied. Error offsets are those of the top-level element being read
//! (the crate reports no positions).
//!
//! Speed: encode is the slowest of the registry (3.6× the median profile in
//! the codec bench of 2026-11-30, 1,000 generated events, same run). BSON
//! arrays are documents keyed `"0"`, `"1"`, …, so every tag value carries a
//! decimal key and a type byte, every tag is its own length-prefixed
//! document, and the crate's `RawArrayBuf` builds each tag in a separate
//! buffer that is then copied into its parent. That is the format as the
//! crate exposes it, not a missing fast path.

use std::fmt::Write as _;

use bson::raw::{RawArray, RawArrayBuf, RawBinaryRef, RawBsonRef, RawDocument, RawDocumentBuf};
use bson::spec::BinarySubtype;

use crate::codec::hostile::{HostileInputs, Nest, repeat};
use crate::codec::write::signed_created_at;
use crate::codec::{
    Capabilities, Codec, DecodeError, DecodeErrorKind, EncodeError, Family, Limit, Limits, Profile,
};
use crate::model::Event;
use crate::model::hex::{self, is_lower_hex};

/// The registry entry.
pub const PROFILE: Profile = Profile {
    id: "bson",
    family: Family::OpenStandard,
    capabilities: Capabilities {
        deterministic: true,
        self_describing: true,
    },
    enabled: true,
    codec: &Bson,
    packs: crate::codec::HEX_TAG_ELEMENTS,
    evolution: &evolution::ADAPTER,
    maintenance: crate::codec::Maintenance {
        sources: &[file!()],
        shared: &[],
        schema: crate::codec::Schema::None,
        crates: &["bson"],
        spec: crate::codec::maintenance::BSON,
    },
};

/// The `bson` crate's raw documents.
pub struct Bson;

const KEYS: [&str; 7] = [
    "id",
    "pubkey",
    "created_at",
    "kind",
    "tags",
    "content",
    "sig",
];

fn binary(bytes: &[u8]) -> RawBinaryRef<'_> {
    RawBinaryRef {
        subtype: BinarySubtype::Generic,
        bytes,
    }
}

fn refuse(reason: &str) -> EncodeError {
    EncodeError::new(PROFILE.id, reason)
}

impl Codec for Bson {
    fn hostile(&self) -> Option<&dyn HostileInputs> {
        Some(self)
    }

    fn encode(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let created_at = signed_created_at(event.created_at, PROFILE.id, "BSON int64 is signed")?;
        let bound = event.tags.iter().fold(256 + event.content.len(), |n, t| {
            t.iter().fold(n + 16, |n, v| n + 16 + v.len())
        });
        if bound > i32::MAX as usize {
            return Err(refuse("document longer than BSON's int32 length"));
        }
        let mut doc = RawDocumentBuf::new();
        doc.append(bson::raw::cstr!("id"), binary(&event.id));
        doc.append(bson::raw::cstr!("pubkey"), binary(&event.pubkey));
        doc.append(bson::raw::cstr!("created_at"), created_at);
        doc.append(bson::raw::cstr!("kind"), i32::from(event.kind));
        let mut tags = RawArrayBuf::new();
        let mut packed = Vec::new();
        for tag in &event.tags {
            let mut values = RawArrayBuf::new();
            for v in tag {
                packed.clear();
                if hex::decode_into(v, &mut packed) {
                    values.push(binary(&packed));
                } else {
                    values.push(v.as_str());
                }
            }
            tags.push(values);
        }
        doc.append(bson::raw::cstr!("tags"), tags);
        doc.append(bson::raw::cstr!("content"), event.content.as_str());
        doc.append(bson::raw::cstr!("sig"), binary(&event.sig));
        out.extend_from_slice(doc.as_bytes());
        Ok(())
    }

    fn decode(&self, bytes: &[u8], limits: &Limits) -> Result<Event, DecodeError> {
        let err = |kind, at| DecodeError::at(kind, at);
        if bytes.len() > limits.max_event_bytes {
            return Err(err(DecodeErrorKind::LimitExceeded(Limit::EventBytes), 0));
        }
        let Some(prefix) = bytes.first_chunk::<4>() else {
            return Err(err(DecodeErrorKind::Truncated, bytes.len()));
        };
        let declared = i32::from_le_bytes(*prefix);
        let declared = usize::try_from(declared)
            .ok()
            .filter(|&n| n >= 5)
            .ok_or(err(DecodeErrorKind::Invalid("document length"), 0))?;
        if declared > bytes.len() {
            return Err(err(DecodeErrorKind::Truncated, bytes.len()));
        }
        if declared < bytes.len() {
            return Err(err(DecodeErrorKind::TrailingBytes, declared));
        }
        let doc = RawDocument::from_bytes(bytes).map_err(|e| malformed(&e, 0))?;
        let mut elements = doc.iter_elements();
        let mut at = 4;
        let mut event = Event {
            id: [0; 32],
            pubkey: [0; 32],
            sig: [0; 64],
            created_at: 0,
            kind: 0,
            tags: Vec::new(),
            content: String::new(),
        };
        for key in KEYS {
            let element = elements
                .next()
                .ok_or(err(DecodeErrorKind::Invalid("missing field"), at))?
                .map_err(|e| malformed(&e, at))?;
            if element.key().as_str() != key {
                return Err(err(DecodeErrorKind::Invalid("unexpected key"), at));
            }
            let value = element.value().map_err(|e| malformed(&e, at))?;
            let wrong = err(DecodeErrorKind::Invalid("wrong type or range"), at);
            match (key, value) {
                ("id", RawBsonRef::Binary(b)) => event.id = fixed(b).ok_or(wrong)?,
                ("pubkey", RawBsonRef::Binary(b)) => event.pubkey = fixed(b).ok_or(wrong)?,
                ("sig", RawBsonRef::Binary(b)) => event.sig = fixed(b).ok_or(wrong)?,
                ("created_at", RawBsonRef::Int64(n)) => {
                    event.created_at = u64::try_from(n).map_err(|_| wrong)?;
                }
                ("kind", RawBsonRef::Int32(n)) => {
                    event.kind = u16::try_from(n).map_err(|_| wrong)?;
                }
                ("tags", RawBsonRef::Array(a)) => event.tags = tags(a, limits, at)?,
                ("content", RawBsonRef::String(s)) => event.content = s.to_owned(),
                _ => return Err(wrong),
            }
            at += 2 + key.len() + element.size();
        }
        if elements.next().is_some() {
            return Err(err(DecodeErrorKind::Invalid("unknown field"), at));
        }
        Ok(event)
    }
}

fn fixed<const N: usize>(b: RawBinaryRef<'_>) -> Option<[u8; N]> {
    if b.subtype != BinarySubtype::Generic {
        return None;
    }
    b.bytes.try_into().ok()
}

fn malformed(e: &bson::error::Error, at: usize) -> DecodeError {
    let kind = match e.kind {
        bson::error::ErrorKind::Utf8Encoding { .. } => DecodeErrorKind::BadUtf8,
        _ => DecodeErrorKind::Invalid("malformed bson"),
    };
    DecodeError::at(kind, at)
}

/// Iterates `a`, checking each element's key is its index in decimal.
fn each<'a>(
    a: &'a RawArray,
    at: usize,
    limit: usize,
    what: Limit,
    mut f: impl FnMut(RawBsonRef<'a>) -> Result<(), DecodeError>,
) -> Result<(), DecodeError> {
    let mut index = String::new();
    for (i, element) in a.iter_elements().enumerate() {
        if i >= limit {
            return Err(DecodeError::at(DecodeErrorKind::LimitExceeded(what), at));
        }
        let element = element.map_err(|e| malformed(&e, at))?;
        index.clear();
        write!(index, "{i}").expect("writing to a String");
        if element.key().as_str() != index {
            return Err(DecodeError::at(
                DecodeErrorKind::Invalid("array key is not its index"),
                at,
            ));
        }
        f(element.value().map_err(|e| malformed(&e, at))?)?;
    }
    Ok(())
}

fn tags(a: &RawArray, limits: &Limits, at: usize) -> Result<Vec<Vec<String>>, DecodeError> {
    let mut tags = Vec::new();
    each(a, at, limits.max_tags, Limit::Tags, |tag| {
        let RawBsonRef::Array(values) = tag else {
            return Err(DecodeError::at(
                DecodeErrorKind::Invalid("tag is not an array"),
                at,
            ));
        };
        let mut out = Vec::new();
        each(
            values,
            at,
            limits.max_values_per_tag,
            Limit::ValuesPerTag,
            |v| {
                out.push(value(v, limits, at)?);
                Ok(())
            },
        )?;
        tags.push(out);
        Ok(())
    })?;
    Ok(tags)
}

fn value(v: RawBsonRef<'_>, limits: &Limits, at: usize) -> Result<String, DecodeError> {
    let err = |kind| DecodeError::at(kind, at);
    let len = match v {
        RawBsonRef::String(s) => s.len(),
        RawBsonRef::Binary(b) => b.bytes.len().saturating_mul(2),
        _ => return Err(err(DecodeErrorKind::Invalid("tag value type"))),
    };
    if len > limits.max_value_bytes {
        return Err(err(DecodeErrorKind::LimitExceeded(Limit::ValueBytes)));
    }
    match v {
        RawBsonRef::String(s) if !is_lower_hex(s) => Ok(s.to_owned()),
        RawBsonRef::Binary(b) if b.subtype != BinarySubtype::Generic => {
            Err(err(DecodeErrorKind::Invalid("binary subtype")))
        }
        RawBsonRef::Binary(b) if !b.bytes.is_empty() => Ok(hex::encode(b.bytes)),
        _ => Err(err(DecodeErrorKind::NonCanonical)),
    }
}

/// A one-element document: `len, type, key, value bytes, 0x00`.
fn document(ty: u8, key: &[u8], value: &[u8], declared_len: Option<u32>) -> Vec<u8> {
    let len = 4 + 1 + key.len() + 1 + value.len() + 1;
    let mut out = declared_len
        .unwrap_or(u32::try_from(len).expect("small document"))
        .to_le_bytes()
        .to_vec();
    out.push(ty);
    out.extend_from_slice(key);
    out.push(0);
    out.extend_from_slice(value);
    out.push(0);
    out
}

/// Hostile inputs. BSON: documents carry an int32 length; arrays are documents keyed "0", "1", ….
impl HostileInputs for Bson {
    fn format(&self) -> &'static str {
        "bson"
    }

    fn nesting_bomb(&self, shape: Nest, depth: usize, out: &mut Vec<u8>) {
        // Each level: int32 length, type (0x04 array / 0x03 document), key
        // "0" or "a", the inner document, then the 0x00 terminator; the
        // innermost document holds one int32 zero.
        let (ty, key) = match shape {
            Nest::Array => (0x04, b'0'),
            Nest::Map => (0x03, b'a'),
        };
        const INNERMOST: usize = 4 + 1 + 2 + 4 + 1;
        const LEVEL: usize = 4 + 1 + 2 + 1;
        out.reserve(INNERMOST + LEVEL * depth);
        for level in (1..=depth).rev() {
            let len = INNERMOST + LEVEL * level;
            // Lengths past i32 are themselves hostile; keep the low bits.
            out.extend_from_slice(&(len as u32).to_le_bytes());
            out.extend_from_slice(&[ty, key, 0]);
        }
        out.extend_from_slice(&(INNERMOST as u32).to_le_bytes());
        out.extend_from_slice(&[0x10, key, 0, 0, 0, 0, 0, 0]);
        repeat(out, &[0], depth);
    }

    fn length_bombs(&self) -> Vec<(&'static str, Vec<u8>)> {
        vec![
            (
                "document-2^31-1",
                document(0x0a, b"a", &[], Some(0x7fff_ffff)),
            ),
            ("document-2^32-1", document(0x0a, b"a", &[], Some(u32::MAX))),
            (
                "string-2^32-1",
                document(0x02, b"content", &[0xff, 0xff, 0xff, 0xff, b'x'], None),
            ),
            (
                "binary-2^32-1",
                document(0x05, b"id", &[0xff, 0xff, 0xff, 0xff, 0x00, b'x'], None),
            ),
        ]
    }
}

pub(crate) mod evolution;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles::test_support::{self as support, golden_event, golden_hex};

    fn golden_bytes() -> Vec<u8> {
        golden_hex(
            "e0010000 \
             05 696400 20000000 00 {id} \
             05 7075626b657900 20000000 00 {pubkey} \
             12 637265617465645f617400 00f1536500000000 \
             10 6b696e6400 01000000 \
             04 7461677300 e1000000 \
               04 3000 5d000000 02 3000 02000000 6500 05 3100 20000000 00 {e} \
                 02 3200 14000000 {relay}00 02 3300 05000000 726f6f7400 00 \
               04 3100 36000000 02 3000 02000000 7000 05 3100 20000000 00 {p} 00 \
               04 3200 38000000 02 3000 02000000 7400 02 3100 07000000 41424344454600 \
                 02 3200 04000000 61626300 02 3300 01000000 00 05 3400 01000000 00 00 00 \
               04 3300 05000000 00 \
             00 \
             02 636f6e74656e7400 29000000 {content}00 \
             05 73696700 40000000 00 {sig} \
             00",
        )
    }

    #[test]
    fn conforms() {
        let (total, json) = support::conformance(&Bson, &golden_bytes(), true);
        eprintln!("bson: {total} bytes vs json {json}");
    }

    #[test]
    fn limits() {
        // A declared document length of 2 GiB on 5 bytes.
        assert_eq!(
            Bson.decode(&[0xff, 0xff, 0xff, 0x7f, 0x00], &Limits::default())
                .unwrap_err()
                .kind,
            DecodeErrorKind::Truncated
        );
        // The crate itself refuses a declared length longer than the slice.
        assert!(RawDocument::from_bytes(&[0xff, 0xff, 0xff, 0x7f, 0x00]).is_err());
        // A string inside the document declaring 2 GiB.
        let mut g = golden_bytes();
        // The sig element is 74 bytes, the content element 1 + 8 + 4 + 41.
        let content = g.len() - 1 - 74 - 54;
        g[content + 9..content + 13].copy_from_slice(&[0xff, 0xff, 0xff, 0x7f]);
        assert!(Bson.decode(&g, &Limits::default()).is_err());
    }

    /// A string whose terminating byte is not NUL.
    #[test]
    fn string_terminator_is_checked() {
        let mut g = golden_bytes();
        let end = g.len() - 1 - 74 - 1;
        assert_eq!(g[end], 0);
        g[end] = b'x';
        assert!(Bson.decode(&g, &Limits::default()).is_err());
    }

    #[test]
    fn not_representable_and_non_canonical() {
        let mut e = golden_event();
        e.created_at = u64::MAX;
        let mut out = vec![7];
        let err = Bson.encode(&e, &mut out).unwrap_err();
        assert!(err.reason.contains("i64::MAX"), "{err}");
        assert_eq!(out, [7]);
        let limits = Limits::default();
        // Subtype 0x80 on the id.
        let mut g = golden_bytes();
        g[12] = 0x80;
        assert_eq!(
            Bson.decode(&g, &limits).unwrap_err(),
            DecodeError::at(DecodeErrorKind::Invalid("wrong type or range"), 4)
        );
        // A renamed key (`Kind`).
        let mut g = golden_bytes();
        g[4 + 41 + 45 + 20 + 1] = b'K';
        assert_eq!(
            Bson.decode(&g, &limits).unwrap_err().kind,
            DecodeErrorKind::Invalid("unexpected key")
        );
        // Array key "0" of the first tag written as "9".
        let mut g = golden_bytes();
        let tags = 4 + 41 + 45 + 20 + 10;
        g[tags + 6 + 4 + 1] = b'9';
        assert_eq!(
            Bson.decode(&g, &limits).unwrap_err().kind,
            DecodeErrorKind::Invalid("array key is not its index")
        );
    }
}

//! `strfry-packed`: strfry's storage form, the `PackedEvent` index beside
//! the event's JSON (hoytech/strfry, commit
//! `f8a56a85967630a115e3c4367db42d228d7bedf3`: `src/PackedEvent.h`,
//! `src/events.cpp` `nostrJsonToPackedEvent`, `src/EventUtils.h`,
//! `src/constants.h`).
//!
//! strfry keeps the two in separate LMDB tables; this profile frames them as
//! one record, lossless as the pair:
//!
//! | offset | field | encoding |
//! |---|---|---|
//! | 0 | index length `n` | u32 LE (our framing; LMDB's value size in strfry) |
//! | 4 | id | 32 raw bytes |
//! | 36 | pubkey | 32 raw bytes |
//! | 68 | created_at | u64 LE (`lmdb::to_sv<uint64_t>`, native order) |
//! | 76 | kind | u64 LE |
//! | 84 | expiration | u64 LE |
//! | 92 | indexed tags | per tag: name byte, value length (u8), value |
//! | 4 + n | JSON | the `json` profile's canonical NIP-01 JSON, to the end |
//!
//! # The index, as `nostrJsonToPackedEvent` builds it
//!
//! - A replaceable kind (0, 3, 41, 10000–19999) starts the tags with a
//!   virtual `d` of empty value; a parameterised-replaceable kind
//!   (30000–39999) ends them with one.
//! - A tag whose name is one byte is indexed with its second field (empty
//!   when it has none); `e` and `p` values are their 32 decoded bytes. A
//!   value over 255 bytes (`MAX_INDEXED_TAG_VAL_SIZE`) is not indexed.
//! - The first `expiration` tag sets expiration; an ephemeral kind
//!   (20000–29999) has expiration 1.
//!
//! # Canonical form and decoding
//!
//! The index is derived from the event, so the encoder is deterministic.
//! Decoding parses the JSON through the `json` profile (full decode: its
//! lenient spellings are accepted there too), rebuilds the index from the
//! event and compares: a difference is `Invalid("index disagrees with
//! JSON")` at the first differing byte. The borrowed view's
//! `kind_and_pubkey` reads the index alone (offsets 36 and 76;
//! [`SelectContract::Preverified`]: the JSON is not parsed); `decode_ref`
//! is the full decode.
//!
//! # Deviations from strfry
//!
//! strfry refuses to store some events that NIP-01 allows; this profile
//! keeps them and leaves the offending tag out of the index (the JSON holds
//! the event): an `e`/`p` value that is not 64 lowercase hex, a tag with no
//! field, a value over `events__maxTagValSize`, an `expiration` that is not
//! a decimal u64 of at least 100 (expiration stays 0 and later
//! `expiration` tags are ignored, as strfry reads only the first), a kind-5
//! `a` tag naming another author; `events__maxNumTags` is left to
//! [`Limits`]. strfry stores `tao::json`'s serialisation (keys sorted);
//! this stores the `json` profile's NIP-01 order, so the bytes differ from
//! strfry's table while the index bytes are strfry's.
//!
//! # Hex policy and limits
//!
//! id and pubkey raw in the index and hex in the JSON (sig only in the
//! JSON); `e`/`p` index values raw. The index length is checked against the
//! input before anything is read; the JSON parser enforces [`Limits`]. The
//! event-size limit bounds the whole record, so an event whose JSON fits
//! but whose record (index added) exceeds the default limit is refused on
//! encode.

use crate::codec::{
    BorrowDecode, Capabilities, Codec, DecodeError, DecodeErrorKind, EncodeError, Family, Limits,
    Profile, Reader, SelectContract, check_event_size,
};
use crate::codec::{HEX_64, Marker, Packing, Place, Shape};
use crate::model::{Event, EventRef, hex};

/// The registry entry.
pub const PROFILE: Profile = Profile {
    id: "strfry-packed",
    family: Family::NostrShipped,
    capabilities: Capabilities {
        deterministic: true,
        self_describing: false,
    },
    enabled: true,
    codec: &StrfryPacked,
    packs: &[
        Packing {
            place: Place::Tag {
                name: "e",
                index: 1,
            },
            shape: HEX_64,
            marker: Marker::Index,
        },
        Packing {
            place: Place::Tag {
                name: "p",
                index: 1,
            },
            shape: HEX_64,
            marker: Marker::Index,
        },
        Packing {
            place: Place::OneByteTag { index: 1 },
            shape: Shape::Short { max: MAX_INDEXED },
            marker: Marker::Index,
        },
        Packing {
            place: Place::Tag {
                name: "expiration",
                index: 1,
            },
            shape: Shape::Decimal { min: 100 },
            marker: Marker::Index,
        },
    ],
    evolution: &crate::codec::evolution::surgery::Appended {
        mechanism: "a varint 42 appended after the JSON (hoytech/strfry src/PackedEvent.h: fixed 88-byte header and tags to the end of the value, no version or extension point)",
    },
    maintenance: crate::codec::Maintenance {
        sources: &[file!()],
        shared: &["src/profiles/json.rs", "src/validate/json.rs"],
        schema: crate::codec::Schema::None,
        crates: &["serde", "serde_json"],
        spec: crate::codec::maintenance::STRFRY_PACKED,
    },
};

/// strfry's `PackedEvent` index and the event's JSON.
pub struct StrfryPacked;

/// Bytes before the indexed tags (`PackedEventView`'s 88).
const HEADER: usize = 88;
/// The framing length before the index.
const FRAME: usize = 4;
/// `MAX_INDEXED_TAG_VAL_SIZE` (`src/constants.h`).
const MAX_INDEXED: usize = 255;

fn replaceable(kind: u16) -> bool {
    matches!(kind, 0 | 3 | 41 | 10_000..=19_999)
}

fn param_replaceable(kind: u16) -> bool {
    (30_000..40_000).contains(&kind)
}

fn ephemeral(kind: u16) -> bool {
    (20_000..30_000).contains(&kind)
}

/// `parseUint64` and the `expiration < 100` check; `None` where strfry
/// would refuse the event.
fn expiration_value(v: &str) -> Option<u64> {
    if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    v.parse::<u64>().ok().filter(|&x| x >= 100)
}

fn add(tags: &mut Vec<u8>, name: u8, value: &[u8]) {
    debug_assert!(value.len() <= MAX_INDEXED);
    tags.push(name);
    tags.push(value.len() as u8);
    tags.extend_from_slice(value);
}

/// Appends the `PackedEvent` index of `e`.
pub fn write_index(e: &Event, out: &mut Vec<u8>) {
    out.extend_from_slice(&e.id);
    out.extend_from_slice(&e.pubkey);
    out.extend_from_slice(&e.created_at.to_le_bytes());
    out.extend_from_slice(&u64::from(e.kind).to_le_bytes());
    let expiration_at = out.len();
    out.extend_from_slice(&[0; 8]);
    let mut expiration = None;
    if replaceable(e.kind) {
        add(out, b'd', b"");
    }
    for tag in &e.tags {
        let Some(name) = tag.first() else { continue };
        let value = tag.get(1).map_or("", String::as_str);
        if let [n] = name.as_bytes() {
            if *n == b'e' || *n == b'p' {
                if let Some(raw) = hex::decode_array::<32>(value) {
                    add(out, *n, &raw);
                }
            } else if value.len() <= MAX_INDEXED {
                add(out, *n, value.as_bytes());
            }
        } else if name == "expiration" && expiration.is_none() {
            expiration = Some(expiration_value(value).unwrap_or(0));
        }
    }
    if param_replaceable(e.kind) {
        add(out, b'd', b"");
    }
    let expiration = if ephemeral(e.kind) {
        1
    } else {
        expiration.unwrap_or(0)
    };
    out[expiration_at..expiration_at + 8].copy_from_slice(&expiration.to_le_bytes());
}

impl Codec for StrfryPacked {
    fn encode(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let start = out.len();
        out.extend_from_slice(&[0; FRAME]);
        write_index(event, out);
        let n = out.len() - start - FRAME;
        let Ok(n32) = u32::try_from(n) else {
            out.truncate(start);
            return Err(EncodeError::new(
                PROFILE.id,
                format!("index of {n} bytes exceeds u32"),
            ));
        };
        out[start..start + FRAME].copy_from_slice(&n32.to_le_bytes());
        event.write_json(out);
        let max = Limits::default().max_event_bytes;
        if out.len() - start > max {
            let len = out.len() - start;
            out.truncate(start);
            return Err(EncodeError::new(
                PROFILE.id,
                format!(
                    "record of {len} bytes (index and JSON) exceeds the default event-size limit {max}"
                ),
            ));
        }
        Ok(())
    }

    fn decode(&self, bytes: &[u8], limits: &Limits) -> Result<Event, DecodeError> {
        check_event_size(bytes, limits)?;
        let mut r = Reader::new(bytes);
        let n = u32::from_le_bytes(*r.array::<4>()?);
        if (n as usize) < HEADER {
            return Err(DecodeError::at(
                DecodeErrorKind::Invalid("index shorter than 88 bytes"),
                0,
            ));
        }
        let n = r.fits(u64::from(n), 1)?;
        let index = r.take(n)?;
        let json_at = r.offset();
        let event = crate::profiles::json::Json
            .decode(&bytes[json_at..], limits)
            .map_err(|e| DecodeError::at(e.kind, json_at + e.offset))?;
        let mut expected = Vec::with_capacity(index.len());
        write_index(&event, &mut expected);
        if expected != index {
            let at = expected
                .iter()
                .zip(index)
                .position(|(a, b)| a != b)
                .unwrap_or(expected.len().min(index.len()));
            return Err(DecodeError::at(
                DecodeErrorKind::Invalid("index disagrees with JSON"),
                FRAME + at,
            ));
        }
        Ok(event)
    }

    fn borrowed(&self) -> Option<&dyn BorrowDecode> {
        Some(self)
    }
}

impl BorrowDecode for StrfryPacked {
    /// The full decode (the JSON is parsed and checked against the index).
    fn decode_ref<'a>(
        &self,
        bytes: &'a [u8],
        limits: &Limits,
    ) -> Result<EventRef<'a>, DecodeError> {
        Ok(self.decode(bytes, limits)?.into())
    }

    fn select_contract(&self) -> SelectContract {
        SelectContract::Preverified
    }

    /// Pubkey and kind from the index's fixed offsets; the JSON is not read.
    fn kind_and_pubkey(
        &self,
        bytes: &[u8],
        limits: &Limits,
    ) -> Result<(u16, [u8; 32]), DecodeError> {
        check_event_size(bytes, limits)?;
        let mut r = Reader::new(bytes);
        r.take(FRAME + 32)?;
        let pubkey = *r.array::<32>()?;
        r.take(8)?;
        let at = r.offset();
        let kind = u64::from_le_bytes(*r.array::<8>()?);
        let kind = u16::try_from(kind)
            .map_err(|_| DecodeError::at(DecodeErrorKind::Invalid("kind over u16"), at))?;
        Ok((kind, pubkey))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles::test_support::{self as support, golden_event, golden_hex};

    /// The golden event: index (164 bytes: the fixed fields, then each
    /// tag's first value: `e` and `p` as 32 raw bytes, `t` as the string
    /// `ABCDEF`; the empty tag has none) then its JSON.
    fn golden_bytes() -> Vec<u8> {
        let mut b = golden_hex(
            "a4000000 {id} {pubkey} 00f1536500000000 0100000000000000 0000000000000000 \
             6520{e} 7020{p} 7406414243444546",
        );
        golden_event().write_json(&mut b);
        b
    }

    #[test]
    fn conforms() {
        let (total, json) = support::conformance(&StrfryPacked, &golden_bytes(), true);
        eprintln!("strfry-packed: {total} bytes vs json {json}");
    }

    fn index_of(e: &Event) -> Vec<u8> {
        let mut out = Vec::new();
        write_index(e, &mut out);
        out
    }

    #[test]
    fn virtual_d_tags_and_expiration() {
        let mut e = golden_event();
        e.tags = vec![
            vec!["expiration".into(), "12345".into()],
            vec!["expiration".into(), "999".into()],
            vec!["d".into(), "x".into()],
        ];
        e.kind = 3;
        let i = index_of(&e);
        assert_eq!(&i[80..88], &12345u64.to_le_bytes());
        assert_eq!(support::hex(&i[88..]), "6400640178");
        e.kind = 30_023;
        assert_eq!(support::hex(&index_of(&e)[88..]), "6401786400");
        e.kind = 20_001;
        assert_eq!(&index_of(&e)[80..88], &1u64.to_le_bytes());
        e.kind = 1;
        e.tags = vec![
            vec!["expiration".into(), "99".into()],
            vec!["expiration".into(), "12345".into()],
        ];
        assert_eq!(&index_of(&e)[80..88], &[0; 8]);
    }

    #[test]
    fn long_and_malformed_values_are_not_indexed() {
        let mut e = golden_event();
        e.tags = vec![
            vec!["r".into(), "x".repeat(255)],
            vec!["r".into(), "y".repeat(256)],
            vec!["p".into(), "AB".repeat(32)],
            vec!["q".into()],
            vec![],
        ];
        let i = index_of(&e);
        assert_eq!(i.len(), 88 + 2 + 255 + 2);
        assert_eq!(&i[88 + 257..], b"q\0");
        let mut bytes = Vec::new();
        StrfryPacked.encode(&e, &mut bytes).unwrap();
        assert_eq!(StrfryPacked.decode(&bytes, &Limits::default()).unwrap(), e);
    }

    #[test]
    fn index_must_agree_with_json() {
        let mut bytes = golden_bytes();
        bytes[4 + 72] = 2;
        let err = StrfryPacked.decode(&bytes, &Limits::default()).unwrap_err();
        assert_eq!(
            err,
            DecodeError::at(DecodeErrorKind::Invalid("index disagrees with JSON"), 76)
        );
        assert_eq!(
            StrfryPacked.kind_and_pubkey(&bytes, &Limits::default()),
            Ok((2, [0x22; 32]))
        );
    }
}

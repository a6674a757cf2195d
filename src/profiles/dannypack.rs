//! `dannypack`: DannyPack, the compact layout of dannym-arx/binostr and
//! andotherstuff/binostr (`src/dannypack.rs`, the hex-packing
//! `serialize_compact` variant), made lossless and bounded.
//!
//! | offset | field | encoding |
//! |---|---|---|
//! | 0 | id | 32 raw bytes |
//! | 32 | pubkey | 32 raw bytes |
//! | 64 | sig | 64 raw bytes |
//! | 128 | created_at | i64 little-endian (non-negative) |
//! | 136 | kind | u16 little-endian |
//! | 138 | tag section length | LEB128 varint |
//! | … | tag section | `varint(n_tags)`; per tag `u8 n_values`; per value `hdr` + bytes |
//! | … | content | `hdr` + bytes |
//!
//! `hdr` is one byte: bit 7 = is_hex; bits 0–6 hold the byte length when it
//! is below 127, otherwise they are `0x7F` and a LEB128 length follows.
//! There is no version byte and no magic.
//!
//! Hex policy: a tag value or the content that is lowercase, even-length hex
//! of at least 8 characters is written as its bytes with is_hex set, and
//! decoded back to lowercase hex. Upstream also packs uppercase hex and any
//! length, which loses case (`"ABCD"` comes back as `"abcd"`); we restrict
//! packing to strings that survive the round trip.
//!
//! Canonical form (enforced by the decoder, so decode→encode is the
//! identity): minimal varints; the `0x7F` escape only for lengths ≥ 127; a
//! hex value decodes to ≥ 4 bytes; a text value is not packable hex; the tag
//! section length matches its contents exactly (upstream treats length 0 as
//! "no tags"; we always write `n_tags`, so the section is never empty); no
//! trailing bytes.
//!
//! Not representable: a tag with more than 255 values (upstream's `as u8`
//! silently truncates the count and corrupts the record) and `created_at`
//! above `i64::MAX`.
//!
//! Differences from the upstream decoder, which we fix: it skips UTF-8
//! validation (`from_utf8_unchecked`), reads the header and `hdr` bytes
//! without checking the remaining input, has no varint length limit (the
//! shift overflows past 64 bits), and sizes `Vec::with_capacity` from input
//! counts. Ours validates UTF-8, bounds every read, rejects over-long
//! varints and checks counts against [`Limits`] and the remaining input.

use crate::codec::write::{Form, put_hex_or_text, put_uvarint, uvarint_len};
use crate::codec::{
    Capabilities, Codec, DecodeError, DecodeErrorKind, EncodeError, Family, Layout, Limit, Limits,
    NativeBatch, Parts, Profile, Reader, Text, fixed_prefix, hex_or_text, read_tags,
};
use crate::codec::{Marker, Packing, Place, Shape};
use crate::model::Event;

/// The registry entry.
pub const PROFILE: Profile = Profile {
    id: "dannypack",
    family: Family::NostrSpecific,
    capabilities: Capabilities {
        deterministic: true,
        self_describing: false,
    },
    enabled: true,
    codec: &DannyPack,
    packs: &[
        Packing {
            place: Place::AnyTagElement,
            shape: Shape::Hex {
                min: MIN_HEX_CHARS,
                max: usize::MAX,
            },
            marker: Marker::Flag,
        },
        Packing {
            place: Place::Content,
            shape: Shape::Hex {
                min: MIN_HEX_CHARS,
                max: usize::MAX,
            },
            marker: Marker::Flag,
        },
    ],
    evolution: &crate::codec::evolution::surgery::Appended {
        mechanism: "a varint 42 appended after the content, the last section (DannyPack layout, docs/FORMATS.md: fixed header, tag section, content; no version, magic or record length)",
    },
    maintenance: crate::codec::Maintenance::standalone(
        &[file!()],
        crate::codec::maintenance::DANNYPACK,
    ),
};

const HEADER: usize = 138;
const MIN_HEX_CHARS: usize = 8;
const ESCAPE: u8 = 0x7f;

/// The DannyPack codec; the layout is in the module docs.
pub struct DannyPack;

fn put_hdr(out: &mut Vec<u8>, len: usize, is_hex: bool) {
    let flag = if is_hex { 0x80 } else { 0 };
    if len < usize::from(ESCAPE) {
        out.push(flag | len as u8);
    } else {
        out.push(flag | ESCAPE);
        put_uvarint(out, len as u64);
    }
}

fn put_value(out: &mut Vec<u8>, s: &str) {
    put_hex_or_text(out, s, MIN_HEX_CHARS, |out, form| match form {
        Form::Hex(n) => put_hdr(out, n, true),
        Form::Text(n) => put_hdr(out, n, false),
    });
}

impl Layout for DannyPack {
    const ID: &'static str = PROFILE.id;

    fn write(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let created_at = i64::try_from(event.created_at)
            .map_err(|_| Self::refuse(format!("created_at {} exceeds i64", event.created_at)))?;
        if let Some(tag) = event.tags.iter().find(|t| t.len() > usize::from(u8::MAX)) {
            return Err(Self::refuse(format!(
                "a tag of {} values exceeds 255",
                tag.len()
            )));
        }
        out.extend_from_slice(&event.id);
        out.extend_from_slice(&event.pubkey);
        out.extend_from_slice(&event.sig);
        out.extend_from_slice(&created_at.to_le_bytes());
        out.extend_from_slice(&event.kind.to_le_bytes());
        // The section's length precedes it: leave one byte for it and, when
        // the length needs more, move the section up once.
        let len_at = out.len();
        out.push(0);
        let start = out.len();
        put_uvarint(out, event.tags.len() as u64);
        for tag in &event.tags {
            out.push(tag.len() as u8);
            for value in tag {
                put_value(out, value);
            }
        }
        let section = (out.len() - start) as u64;
        let width = uvarint_len(section);
        if width > 1 {
            let end = out.len();
            out.resize(end + width - 1, 0);
            out.copy_within(start..end, start + width - 1);
        }
        let mut at = len_at;
        let mut n = section;
        while n >= 0x80 {
            out[at] = (n as u8) | 0x80;
            n >>= 7;
            at += 1;
        }
        out[at] = n as u8;
        put_value(out, &event.content);
        Ok(())
    }

    fn parse<'a, S: Text<'a>>(
        bytes: &'a [u8],
        limits: &Limits,
    ) -> Result<Parts<'a, S>, DecodeError> {
        let mut r = Reader::new(bytes);
        let id = r.array::<32>()?;
        let pubkey = r.array::<32>()?;
        let sig = r.array::<64>()?;
        let created_at = u64::try_from(i64::from_le_bytes(*r.array::<8>()?))
            .map_err(|_| DecodeError::at(DecodeErrorKind::Invalid("negative created_at"), 128))?;
        let kind = u16::from_le_bytes(*r.array::<2>()?);
        let section = r.uvarint(true)?;
        let section = r.fits(section, 1)?;
        let end = r.offset() + section;
        let tags = read_tags(
            &mut r,
            limits,
            |r| r.uvarint(true),
            |r| Ok(u64::from(r.u8()?)),
            1,
            |r, _| value(r, limits.max_value_bytes),
        )?;
        if r.offset() != end {
            return Err(r.error(DecodeErrorKind::Invalid("tag section length mismatch")));
        }
        let content = value(&mut r, usize::MAX)?;
        r.finish()?;
        Ok(Parts::new(id, pubkey, sig, created_at, kind, tags, content))
    }

    /// Fixed offsets: pubkey at 32, kind at 136. Only the header is checked.
    fn prefix(bytes: &[u8], _: &Limits) -> Result<(u16, [u8; 32]), DecodeError> {
        fixed_prefix(bytes, HEADER, 136, u16::from_le_bytes)
    }

    fn native_batch(&self) -> Option<&dyn NativeBatch> {
        Some(self)
    }
}

/// DannyPack's batch: `u32 LE count`, then per event `u32 LE len` + record.
impl NativeBatch for DannyPack {
    fn encode_batch(&self, events: &[Event], out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let start = out.len();
        let result = (|| {
            let count = u32::try_from(events.len()).map_err(|_| {
                Self::refuse(format!("a batch of {} events exceeds u32", events.len()))
            })?;
            out.extend_from_slice(&count.to_le_bytes());
            for event in events {
                let at = out.len();
                out.extend_from_slice(&[0; 4]);
                self.encode(event, out)?;
                let len = u32::try_from(out.len() - at - 4)
                    .map_err(|_| Self::refuse("an event over u32::MAX bytes"))?;
                out[at..at + 4].copy_from_slice(&len.to_le_bytes());
            }
            Ok(())
        })();
        if result.is_err() {
            out.truncate(start);
        }
        result
    }

    fn decode_batch(&self, bytes: &[u8], limits: &Limits) -> Result<Vec<Event>, DecodeError> {
        let mut r = Reader::new(bytes);
        let count = u32::from_le_bytes(*r.array::<4>()?);
        let count = r.fits(u64::from(count), 4 + HEADER)?;
        let mut events = Vec::with_capacity(count);
        for _ in 0..count {
            let len = u32::from_le_bytes(*r.array::<4>()?);
            let len = r.count(u64::from(len), 1, limits.max_event_bytes, Limit::EventBytes)?;
            let at = r.offset();
            let record = r.take(len)?;
            let event = self
                .decode(record, limits)
                .map_err(|e| DecodeError::at(e.kind, at + e.offset))?;
            events.push(event);
        }
        r.finish()?;
        Ok(events)
    }
}

fn value<'a, S: Text<'a>>(r: &mut Reader<'a>, max_text: usize) -> Result<S, DecodeError> {
    let at = r.offset();
    let hdr = r.u8()?;
    let is_hex = hdr & 0x80 != 0;
    let mut len = u64::from(hdr & ESCAPE);
    if len == u64::from(ESCAPE) {
        len = r.uvarint(true)?;
        if len < u64::from(ESCAPE) {
            return Err(DecodeError::at(DecodeErrorKind::NonCanonical, at));
        }
    }
    hex_or_text(r, at, len, is_hex, MIN_HEX_CHARS, max_text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles::test_support::{self as support, golden_event, golden_hex};

    fn golden_bytes() -> Vec<u8> {
        golden_hex(
            "{id} {pubkey} {sig} 00f1536500000000 0100 75 04 \
             04 0165 a0{e} 13{relay} 04726f6f74 \
             02 0170 a0{p} \
             05 0174 06414243444546 03616263 00 023030 \
             00 \
             28 {content}",
        )
    }

    #[test]
    fn conforms() {
        let (total, json) = support::conformance(&DannyPack, &golden_bytes(), true);
        eprintln!("dannypack: {total} bytes vs json {json}");
    }

    #[test]
    fn long_values_and_hex_content() {
        let mut e = golden_event();
        e.content = "ab".repeat(200);
        e.tags = vec![vec!["x".repeat(127), "abcdef".into(), "abcdef01".into()]];
        let mut out = Vec::new();
        DannyPack.encode(&e, &mut out).unwrap();
        assert_eq!(
            support::hex(&out[out.len() - 203..out.len() - 200]),
            "ffc801"
        );
        let tags = support::hex(&out[HEADER..HEADER + 5]);
        assert_eq!(tags, "8f01".to_owned() + "01" + "03" + "7f");
        assert_eq!(DannyPack.decode(&out, &Limits::default()).unwrap(), e);
    }

    #[test]
    fn limits() {
        let limits = Limits::default();
        let mut huge = golden_bytes()[..HEADER].to_vec();
        huge.extend_from_slice(&[0xff, 0xff, 0xff, 0xff, 0x0f, 0x00]);
        let err = DannyPack.decode(&huge, &limits).unwrap_err();
        assert!(support::is_bounded_failure(err.kind), "{err}");
        let mut tags = golden_bytes()[..HEADER].to_vec();
        tags.extend_from_slice(&[0x04, 0xff, 0xff, 0xff, 0x0f]);
        let err = DannyPack.decode(&tags, &limits).unwrap_err();
        assert!(support::is_bounded_failure(err.kind), "{err}");
        let mut value = golden_bytes()[..HEADER].to_vec();
        value.extend_from_slice(&[0x07, 0x01, 0x01, 0x7f, 0xff, 0xff, 0xff, 0x0f]);
        let err = DannyPack.decode(&value, &limits).unwrap_err();
        assert!(support::is_bounded_failure(err.kind), "{err}");
        let mut bad_utf8 = golden_bytes()[..HEADER].to_vec();
        bad_utf8.extend_from_slice(&[0x01, 0x00, 0x01, 0xff]);
        assert_eq!(
            DannyPack.decode(&bad_utf8, &limits).unwrap_err().kind,
            DecodeErrorKind::BadUtf8
        );
        let mut long_varint = golden_bytes()[..HEADER].to_vec();
        long_varint.extend_from_slice(&[0x80; 11]);
        assert_eq!(
            DannyPack.decode(&long_varint, &limits).unwrap_err().kind,
            DecodeErrorKind::BadVarint
        );
    }

    #[test]
    fn not_representable() {
        let mut out = Vec::new();
        let mut e = golden_event();
        e.tags = vec![vec!["v".into(); 256]];
        let err = DannyPack.encode(&e, &mut out).unwrap_err();
        assert!(err.reason.contains("255"), "{err}");
        let mut e = golden_event();
        e.created_at = u64::MAX;
        assert!(DannyPack.encode(&e, &mut out).is_err());
        assert!(out.is_empty());
        let mut edge = golden_event();
        edge.tags = vec![vec!["v".into(); 255]];
        DannyPack.encode(&edge, &mut out).unwrap();
        assert_eq!(DannyPack.decode(&out, &Limits::default()).unwrap(), edge);
    }

    #[test]
    fn case_and_short_hex_stay_text() {
        let mut e = golden_event();
        e.tags = vec![vec!["ABCDEF01".into(), "abcdef".into(), "abcdef0".into()]];
        e.content = "DEADBEEF".into();
        let mut out = Vec::new();
        DannyPack.encode(&e, &mut out).unwrap();
        assert!(out[HEADER..].iter().all(|b| b & 0x80 == 0));
        assert_eq!(DannyPack.decode(&out, &Limits::default()).unwrap(), e);
    }
}

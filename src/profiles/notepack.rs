//! `notepack`: jb55's compact binary note format (notepack `SPEC.md`, crates.io
//! `notepack` 0.3.0), byte-compatible with that crate in both directions.
//!
//! | field | encoding |
//! |---|---|
//! | version | `varint(1)` (one byte `0x01`) |
//! | id, pubkey, sig | raw 32, 32, 64 bytes |
//! | created_at | `varint` (u64) |
//! | kind | `varint` (≤ 65535 here; upstream allows u64) |
//! | content | `varint(len)` + UTF-8 bytes |
//! | tags | `varint(n_tags)`; per tag `varint(n_elems)`; per element `varint((len << 1) \| is_bytes)` + payload |
//!
//! Varints are unsigned LEB128. Content comes before the tags.
//!
//! Hex policy (the upstream heuristic, which is exact for our model): a tag
//! element that is non-empty, even-length, lowercase hex
//! ([`is_lower_hex`](crate::model::hex::is_lower_hex)) is written as bytes (`is_bytes = 1`, `len` = decoded
//! length), whatever its length; every other element, including the empty
//! string, is UTF-8 text. Decoding re-emits bytes as lowercase hex, so the
//! round trip is exact. Content is never hex-packed.
//!
//! Canonical form, enforced by the decoder so that decode→encode reproduces
//! the input: the version is exactly `0x01`; every varint is minimal; a bytes
//! element is non-empty; a text element is not lowercase hex (the encoder
//! would have packed it). Trailing bytes are an error.
//!
//! Differences from upstream 0.3.0, all on the decoding side (the encoder is
//! byte-identical, see the interop tests):
//! - `SPEC.md` §3.1 lists a `u8 version` field, §13 says "no version field
//!   is present" and the §9 test vector has none; the code writes
//!   `varint(1)`. We follow the code, and reject any other version (upstream
//!   reads it and ignores it, truncated `as u8`).
//! - upstream `read_bytes` slices without a length check, so a truncated
//!   id/pubkey/sig or content panics; ours returns `Truncated`.
//! - upstream's varint reader accepts a 10th byte and shifts it by 63,
//!   silently dropping its upper six bits; ours rejects such a varint
//!   (`BadVarint`), as SPEC §4.2 requires.
//! - upstream sizes `Vec::with_capacity` from input counts when
//!   materialising tags (`note.rs`, `main.rs`); ours bounds every count by
//!   [`Limits`] and the remaining input before allocating.
//! - upstream accepts non-minimal varints, empty byte elements and text
//!   elements that look like hex; we reject them as `NonCanonical`.
//!
//! The `notepack_` + base64 string form is not part of this profile.

use crate::codec::write::{Form, put_hex_or_text, put_uvarint};
use crate::codec::{
    Capabilities, DecodeError, DecodeErrorKind, EncodeError, Family, Layout, Limits, Parts,
    Profile, Reader, Text, hex_or_text, read_tags,
};
use crate::model::Event;

/// The registry entry.
pub const PROFILE: Profile = Profile {
    id: "notepack",
    family: Family::NostrSpecific,
    capabilities: Capabilities {
        deterministic: true,
        self_describing: false,
    },
    enabled: true,
    codec: &Notepack,
    packs: crate::codec::HEX_TAG_ELEMENTS,
    evolution: &evolution::ADAPTER,
    maintenance: crate::codec::Maintenance::standalone(
        &[file!()],
        crate::codec::maintenance::NOTEPACK,
    ),
};

/// The only version byte upstream writes.
const VERSION: u8 = 1;

/// jb55's notepack.
pub struct Notepack;

fn put_element(out: &mut Vec<u8>, s: &str) {
    put_hex_or_text(out, s, 1, |out, form| match form {
        Form::Hex(n) => put_uvarint(out, (n as u64) << 1 | 1),
        Form::Text(n) => put_uvarint(out, (n as u64) << 1),
    });
}

impl Layout for Notepack {
    const ID: &'static str = PROFILE.id;

    fn write(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        out.push(VERSION);
        out.extend_from_slice(&event.id);
        out.extend_from_slice(&event.pubkey);
        out.extend_from_slice(&event.sig);
        put_uvarint(out, event.created_at);
        put_uvarint(out, u64::from(event.kind));
        put_uvarint(out, event.content.len() as u64);
        out.extend_from_slice(event.content.as_bytes());
        put_uvarint(out, event.tags.len() as u64);
        for tag in &event.tags {
            put_uvarint(out, tag.len() as u64);
            for value in tag {
                put_element(out, value);
            }
        }
        Ok(())
    }

    fn parse<'a, S: Text<'a>>(
        bytes: &'a [u8],
        limits: &Limits,
    ) -> Result<Parts<'a, S>, DecodeError> {
        let mut r = header(bytes)?;
        let id = r.array::<32>()?;
        let pubkey = r.array::<32>()?;
        let sig = r.array::<64>()?;
        let created_at = r.uvarint(true)?;
        let kind = kind(&mut r)?;
        let len = r.uvarint(true)?;
        let len = r.fits(len, 1)?;
        let content = S::from(r.str(len)?);
        let uvarint = |r: &mut Reader<'a>| r.uvarint(true);
        let tags = read_tags(&mut r, limits, uvarint, uvarint, 1, |r, _| {
            element(r, limits)
        })?;
        r.finish()?;
        Ok(Parts::new(id, pubkey, sig, created_at, kind, tags, content))
    }

    /// Kind after the fixed fields and the `created_at` varint. Only the
    /// prefix is checked.
    fn prefix(bytes: &[u8], _: &Limits) -> Result<(u16, [u8; 32]), DecodeError> {
        let mut r = header(bytes)?;
        r.array::<32>()?;
        let pubkey = *r.array::<32>()?;
        r.take(64)?;
        r.uvarint(true)?;
        Ok((kind(&mut r)?, pubkey))
    }
}

fn header(bytes: &[u8]) -> Result<Reader<'_>, DecodeError> {
    let mut r = Reader::new(bytes);
    if r.u8()? != VERSION {
        return Err(DecodeError::at(
            DecodeErrorKind::Invalid("unknown version"),
            0,
        ));
    }
    Ok(r)
}

fn kind(r: &mut Reader<'_>) -> Result<u16, DecodeError> {
    let at = r.offset();
    let k = r.uvarint(true)?;
    u16::try_from(k).map_err(|_| DecodeError::at(DecodeErrorKind::Invalid("kind above 65535"), at))
}

fn element<'a, S: Text<'a>>(r: &mut Reader<'a>, limits: &Limits) -> Result<S, DecodeError> {
    let at = r.offset();
    let raw = r.uvarint(true)?;
    hex_or_text(r, at, raw >> 1, raw & 1 == 1, 1, limits.max_value_bytes)
}

pub(crate) mod evolution;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::Codec;
    use crate::model::hex;
    use crate::profiles::test_support::{self as support, golden_event, golden_hex};

    fn golden_bytes() -> Vec<u8> {
        golden_hex(
            "01 {id} {pubkey} {sig} 80e2cfaa06 01 28 {content} 04 \
             04 0265 41{e} 26{relay} 08726f6f74 \
             02 0270 41{p} \
             05 0274 0c414243444546 06616263 00 0300 \
             00",
        )
    }

    #[test]
    fn conforms() {
        let (total, json) = support::conformance(&Notepack, &golden_bytes(), true);
        eprintln!("notepack: {total} bytes vs json {json}");
    }

    #[test]
    fn limits() {
        let mut huge = golden_bytes()[..129].to_vec();
        huge.extend_from_slice(&[0x00, 0x01, 0x00]);
        huge.extend_from_slice(&[0xff, 0xff, 0xff, 0xff, 0x0f]);
        let err = Notepack.decode(&huge, &Limits::default()).unwrap_err();
        assert!(support::is_bounded_failure(err.kind), "{err}");
        let mut content = golden_bytes()[..129].to_vec();
        content.extend_from_slice(&[0x00, 0x01, 0xff, 0xff, 0xff, 0xff, 0x0f]);
        let err = Notepack.decode(&content, &Limits::default()).unwrap_err();
        assert!(support::is_bounded_failure(err.kind), "{err}");
    }

    /// Inputs that break upstream 0.3.0 give clean errors here.
    #[test]
    fn upstream_defect_inputs_fail_cleanly() {
        let limits = Limits::default();
        // Truncated fixed fields and content: upstream `read_bytes` panics.
        assert_eq!(
            Notepack.decode(&[1, 0, 0], &limits).unwrap_err().kind,
            DecodeErrorKind::Truncated
        );
        let mut short_content = golden_bytes()[..129].to_vec();
        short_content.extend_from_slice(&[0x00, 0x01, 0x10, b'x']);
        assert_eq!(
            Notepack.decode(&short_content, &limits).unwrap_err().kind,
            DecodeErrorKind::Truncated
        );
        // A 10-byte created_at whose last byte carries bits beyond 64.
        let mut wide = golden_bytes()[..129].to_vec();
        wide.extend_from_slice(&[0x80; 9]);
        wide.extend_from_slice(&[0x02, 0x01, 0x00, 0x00]);
        assert_eq!(
            Notepack.decode(&wide, &limits).unwrap_err(),
            DecodeError::at(DecodeErrorKind::BadVarint, 129)
        );
        // Huge declared tag and element counts in a few bytes.
        let mut many = golden_bytes()[..129].to_vec();
        many.extend_from_slice(&[0x00, 0x01, 0x00, 0x01, 0xff, 0xff, 0x03]);
        let err = Notepack.decode(&many, &limits).unwrap_err();
        assert!(support::is_bounded_failure(err.kind), "{err}");
        // Version other than 1, and non-canonical encodings.
        let mut v2 = golden_bytes();
        v2[0] = 2;
        assert!(Notepack.decode(&v2, &limits).is_err());
        let mut text_hex = golden_bytes()[..129].to_vec();
        text_hex.extend_from_slice(&[0x00, 0x01, 0x00, 0x01, 0x01, 0x04, b'a', b'b']);
        assert_eq!(
            Notepack.decode(&text_hex, &limits).unwrap_err().kind,
            DecodeErrorKind::NonCanonical
        );
    }

    /// Upstream 0.3.0 panics on truncated input (finding, checked cheaply).
    #[test]
    fn upstream_panics_on_truncated_input() {
        let truncated = golden_bytes()[..40].to_vec();
        let result =
            std::panic::catch_unwind(|| notepack::NoteParser::new(&truncated).into_note().is_ok());
        assert!(result.is_err(), "upstream 0.3.0 no longer panics");
        // The 10th varint byte 0x02 is silently dropped upstream: reads as 0.
        let mut wide = golden_bytes()[..129].to_vec();
        wide.extend_from_slice(&[0x80; 9]);
        wide.extend_from_slice(&[0x02, 0x01, 0x00, 0x00]);
        let note = notepack::NoteParser::new(&wide).into_note().unwrap();
        assert_eq!(note.created_at, 0, "upstream drops the 10th byte's bits");
    }

    fn to_upstream(e: &Event) -> notepack::NoteBuf {
        notepack::NoteBuf {
            id: hex::encode(&e.id),
            pubkey: hex::encode(&e.pubkey),
            created_at: e.created_at,
            kind: u64::from(e.kind),
            tags: e.tags.clone(),
            content: e.content.clone(),
            sig: hex::encode(&e.sig),
        }
    }

    fn from_upstream(bytes: &[u8]) -> Event {
        let note = notepack::NoteParser::new(bytes).into_note().unwrap();
        let mut tags = Vec::new();
        let mut cursor = note.tags.clone();
        while let Some(elems) = cursor.next_tag().unwrap() {
            let mut tag = Vec::new();
            for elem in elems {
                tag.push(match elem.unwrap() {
                    notepack::StringType::Str(s) => s.to_owned(),
                    notepack::StringType::Bytes(b) => hex::encode(b),
                });
            }
            tags.push(tag);
        }
        Event {
            id: *note.id,
            pubkey: *note.pubkey,
            sig: *note.sig,
            created_at: note.created_at,
            kind: u16::try_from(note.kind).unwrap(),
            tags,
            content: note.content.to_owned(),
        }
    }

    /// Byte-compatible with crates.io notepack 0.3.0 in both directions.
    #[test]
    fn interop_with_upstream_crate() {
        let mut events = crate::corpus::generate::generate(1, 300);
        events.push(golden_event());
        let limits = Limits::default();
        for (i, e) in events.iter().enumerate() {
            let mut ours = Vec::new();
            Notepack.encode(e, &mut ours).unwrap();
            let theirs = notepack::pack_note(&to_upstream(e)).unwrap();
            assert_eq!(ours, theirs, "event {i}: encodings differ");
            assert_eq!(from_upstream(&ours), *e, "event {i}: upstream decode");
            assert_eq!(Notepack.decode(&theirs, &limits).unwrap(), *e, "event {i}");
        }
    }
}

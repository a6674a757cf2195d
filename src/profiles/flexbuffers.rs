//! `flexbuffers`: FlexBuffers (the `flexbuffers` crate, serde mode) over the
//! shared positional model ([`super::positional`]), untagged variant.
//!
//! Layout (FlexBuffers: a schemaless FlatBuffers; values are written before
//! the vectors that point at them with backward offsets, and the root is
//! found from the END of the buffer):
//!
//! | part          | encoding                                             |
//! |---------------|------------------------------------------------------|
//! | `id`, `pubkey`, `sig` | Blob: width-sized length, then the bytes     |
//! | strings       | String: length, UTF-8 bytes, NUL terminator          |
//! | tag value     | Blob (packed lowercase hex) or String                |
//! | tag           | untyped vector: length, offsets/inline values, one type byte per element |
//! | `tags`        | untyped vector of tag vectors                        |
//! | event         | untyped vector of 7: blob, blob, uint, uint, vector, string, blob |
//! | root          | last 2 bytes: root type byte, root byte width        |
//!
//! Widths (8/16/32/64-bit) are chosen per vector by the builder from the
//! largest value or offset it holds. Canonical form: what the crate's builder
//! writes for this model (no string sharing); the decoder does not check
//! widths or layout, so only encoder output is canonical.
//!
//! Hex: non-empty, even-length lowercase hex tag values are Blobs and come
//! back as lowercase hex; everything else is a String.
//!
//! Limits and safety. The model's seed checks declared counts against
//! [`Limits`] and charges every decoded element and payload byte against the
//! input length, which refuses offset-sharing amplification (many vector
//! slots pointing at one large string). FINDING: the `flexbuffers` 25.12.19
//! reader is NOT safe against hostile input: `read_usize` slices
//! `&buffer[address..]` and indexes `cursor[0]` without a bounds check (an
//! element address computed from an unchecked vector length can reach past
//! the end), `get_str`/`get_blob` add an input-controlled length to an
//! address without overflow checks, `get_bool` slices
//! `buffer[address..address + width]` unchecked, and `deserialize_any` ends
//! in `unreachable!` for unhandled type/width pairs. The 3-byte input
//! `00 6b 01` (root: a 64-bit Bool) panics in `get_bool`; it is pinned in
//! the tests. There is no verifier in the
//! Rust crate (the C++ library has one). This profile contains such panics
//! with `catch_unwind` and reports `Invalid("flexbuffers reader panicked")`;
//! that is a containment, not a bounded decoder (a panic=abort build would
//! still abort), so results for this profile under hostile input carry that
//! caveat.
//!
//! Differences from upstream: none in the bytes. Encoding goes through the
//! crate's own serializer buffer and is then copied into the caller's buffer
//! (the crate cannot append to a caller's `Vec`). Error offsets are 0 (the
//! reader reports no positions) or the input length for truncation.

use std::panic::{AssertUnwindSafe, catch_unwind};

use serde::Serialize;
use serde::de::DeserializeSeed;

use super::positional::{Positional, PositionalSeed};
use crate::codec::{
    Capabilities, Codec, DecodeError, DecodeErrorKind, EncodeError, Family, Limits, Profile,
    check_event_size,
};
use crate::model::Event;

/// The registry entry.
pub const PROFILE: Profile = Profile {
    id: "flexbuffers",
    family: Family::OpenStandard,
    capabilities: Capabilities {
        deterministic: true,
        self_describing: true,
    },
    enabled: true,
    codec: &FlexBuffers,
};

/// FlexBuffers via the `flexbuffers` crate.
pub struct FlexBuffers;

impl Codec for FlexBuffers {
    fn hostile(&self) -> Option<&dyn crate::codec::HostileInputs> {
        Some(&crate::codec::hostile::FlexBuffers)
    }

    fn encode(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let mut s = flexbuffers::FlexbufferSerializer::new();
        Positional::<false>(event)
            .serialize(&mut s)
            .map_err(|e| EncodeError {
                profile: PROFILE.id,
                reason: e.to_string(),
            })?;
        out.extend_from_slice(s.view());
        Ok(())
    }

    fn decode(&self, bytes: &[u8], limits: &Limits) -> Result<Event, DecodeError> {
        check_event_size(bytes, limits)?;
        let seed = PositionalSeed::<false>::new(bytes, limits);
        let result = catch_unwind(AssertUnwindSafe(|| {
            let root = flexbuffers::Reader::get_root(bytes)
                .map_err(flexbuffers::DeserializationError::Reader)?;
            (&seed).deserialize(root)
        }));
        match result {
            Ok(Ok(event)) => Ok(event),
            Ok(Err(e)) => Err(seed.error(classify(&e))),
            Err(_) => Err(DecodeError::at(
                DecodeErrorKind::Invalid("flexbuffers reader panicked"),
                0,
            )),
        }
    }
}

fn classify(e: &flexbuffers::DeserializationError) -> DecodeErrorKind {
    use flexbuffers::ReaderError as R;
    match e {
        flexbuffers::DeserializationError::Reader(
            R::FlexbufferOutOfBounds | R::IndexOutOfBounds | R::ReadUsizeOverflowed,
        ) => DecodeErrorKind::Truncated,
        flexbuffers::DeserializationError::Reader(R::Utf8Error(_)) => DecodeErrorKind::BadUtf8,
        _ => DecodeErrorKind::Invalid("malformed flexbuffer"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles::positional::tests::{conformance, json_total};

    fn h(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    /// Checked by hand: type byte = type << 2 | width (String 5 → `14`,
    /// UInt 2 w32 → `0a`, Vector 10 → `28`/`2a`, Blob 25 → `64`); offsets
    /// count back from the slot that holds them.
    fn golden() -> Vec<u8> {
        let mut g = h("20"); // blob, length 32 (id)
        g.extend([0x11; 32]);
        g.extend(h("20")); // pubkey
        g.extend([0x22; 32]);
        g.extend(h("016500")); // "e"
        g.extend(h("20")); // blob(32)
        g.extend([0xab; 32]);
        g.extend(h("0224221464")); // tag ["e", blob]: len 2, offsets, types
        g.extend(h("017000")); // "p"
        g.extend(h("0641424344454600")); // "ABCDEF"
        g.extend(h("020b091414"));
        g.extend(h("017400")); // "t"
        g.extend(h("056e6f73747200")); // "nostr"
        g.extend(h("020a081414"));
        g.extend(h("03241507282828")); // tags: 3 vectors
        g.extend(h("0368690a00")); // content "hi\n"
        g.extend(h("40")); // sig blob, length 64
        g.extend([0x33; 64]);
        g.extend(h("00")); // padding to the 32-bit vector
        g.extend(h("07000000")); // event vector: length 7, 32-bit slots
        g.extend(h("db000000be000000")); // offsets to id, pubkey
        g.extend(h("00f1536501000000")); // created_at, kind inline
        g.extend(h("610000005e0000005d000000")); // offsets to tags, content, sig
        g.extend(h("64640a0a281464")); // slot types
        g.extend(h("232a01")); // root: offset, type vector w32, width 1
        g
    }

    #[test]
    fn conforms() {
        let (unrepresentable, total) = conformance(&FlexBuffers, &golden());
        assert_eq!(unrepresentable, 0);
        println!("flexbuffers: {total} bytes vs json {}", json_total());
    }

    /// A hand-built event whose `tags` slots all point at ONE tag vector
    /// holding ONE 1,000-byte string: FlexBuffers offsets allow sharing, so
    /// the decoded size is not bounded by the input. (The crate's builder
    /// declares `SHARE_STRINGS` but does not implement it.)
    fn shared_tags(tags: usize) -> Vec<u8> {
        let mut b: Vec<u8> = Vec::new();
        let align = |b: &mut Vec<u8>, n: usize| b.resize(b.len().next_multiple_of(n), 0);
        let blob = |b: &mut Vec<u8>, byte: u8, n: usize| {
            b.push(u8::try_from(n).unwrap());
            let at = b.len();
            b.resize(at + n, byte);
            at
        };
        let id = blob(&mut b, 0x11, 32);
        let pubkey = blob(&mut b, 0x22, 32);
        align(&mut b, 2);
        b.extend(1_000u16.to_le_bytes());
        let big = b.len();
        b.resize(big + 1_000, b'x');
        b.push(0);
        align(&mut b, 2);
        b.extend(1u16.to_le_bytes());
        let tag = b.len();
        b.extend(u16::try_from(tag - big).unwrap().to_le_bytes());
        b.push(0x15); // String, 16-bit length
        align(&mut b, 2);
        b.extend(u16::try_from(tags).unwrap().to_le_bytes());
        let tags_at = b.len();
        for i in 0..tags {
            let slot = tags_at + 2 * i;
            b.extend(u16::try_from(slot - tag).unwrap().to_le_bytes());
        }
        b.resize(b.len() + tags, 0x29); // Vector, 16-bit slots
        b.push(0);
        let content = b.len();
        b.push(0);
        let sig = blob(&mut b, 0x33, 64);
        align(&mut b, 4);
        b.extend(7u32.to_le_bytes());
        let ev = b.len();
        let off = |b: &Vec<u8>, target: usize| u32::try_from(b.len() - target).unwrap();
        for target in [id, pubkey] {
            let o = off(&b, target);
            b.extend(o.to_le_bytes());
        }
        b.extend(1_700_000_000u32.to_le_bytes());
        b.extend(1u32.to_le_bytes());
        for target in [tags_at, content, sig] {
            let o = off(&b, target);
            b.extend(o.to_le_bytes());
        }
        b.extend([0x64, 0x64, 0x0a, 0x0a, 0x29, 0x14, 0x64]);
        let root = u8::try_from(b.len() - ev).unwrap();
        b.extend([root, 0x2a, 0x01]);
        b
    }

    #[test]
    fn shared_offsets_cannot_amplify() {
        let l = Limits::default();
        let one = FlexBuffers.decode(&shared_tags(1), &l).unwrap();
        assert_eq!(one.tags, vec![vec!["x".repeat(1_000)]]);
        assert_eq!(one.created_at, 1_700_000_000);
        let many = shared_tags(100);
        assert!(many.len() < 1_500, "{}", many.len());
        assert_eq!(
            FlexBuffers.decode(&many, &l).unwrap_err().kind,
            DecodeErrorKind::LimitExceeded("decoded bytes exceed input")
        );
    }

    #[test]
    fn hostile_bytes_are_contained() {
        let l = Limits::default();
        let g = golden();
        let mut panicked = 0;
        for i in 0..g.len() {
            for b in [0x00, 0x7f, 0xff] {
                let mut m = g.clone();
                m[i] = b;
                if FlexBuffers.decode(&m, &l).is_err_and(|e| {
                    e.kind == DecodeErrorKind::Invalid("flexbuffers reader panicked")
                }) {
                    panicked += 1;
                }
            }
        }
        println!("flexbuffers: {panicked} single-byte mutations panicked inside the crate");
        // a 3-byte root claiming a 64-bit Bool: `Reader::get_bool` slices
        // 8 bytes past the end and panics inside the crate (found by a
        // random-mutation sweep of the golden bytes)
        assert_eq!(
            FlexBuffers
                .decode(&[0x00, 0x6b, 0x01], &l)
                .unwrap_err()
                .kind,
            DecodeErrorKind::Invalid("flexbuffers reader panicked")
        );
        // the event vector's length slot changed from 7 to 64
        let mut m = g.clone();
        let len_at = g.len() - 3 - 7 - 28 - 4;
        m[len_at] = 0x40;
        assert!(FlexBuffers.decode(&m, &l).is_err());
    }
}

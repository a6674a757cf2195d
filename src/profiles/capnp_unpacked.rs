//! `capnp-unpacked` (disabled by default): the `capnp-packed` message in
//! Cap'n Proto's plain serialization (`capnp::serialize`), for comparing
//! what packing buys. Schema, hex policy, determinism and bounding are those
//! of [`super::capnp_packed`], whose module documentation gives the layout.
//!
//! Bytes: segment table `u32 LE (segments − 1) = 0`, `u32 LE` word count,
//! then the one segment's words: the root pointer, the `Event` struct (2
//! data words, 5 pointers), then `id`, `pubkey`, `sig`, the tag list, each
//! tag's inline-composite list of `Value` structs (1 data word holding the
//! union discriminant, 1 pointer) followed by their `Data`/`Text`, and the
//! content (`Text` is NUL-terminated; every object is padded to a word).
//! The reader borrows the input without copying (`read_message_from_flat_slice`)
//! and caps the traversal at `max_event_bytes / 4` words.

use crate::codec::{Capabilities, Codec, DecodeError, EncodeError, Family, Limits, Profile};
use crate::model::Event;

use super::capnp_packed::{decode, encode};

/// The registry entry.
pub const PROFILE: Profile = Profile {
    id: "capnp-unpacked",
    family: Family::StandardEnvelope,
    capabilities: Capabilities {
        deterministic: true,
        self_describing: false,
    },
    enabled: false,
    codec: &CapnpUnpacked,
    evolution: &evolution::ADAPTER,
    maintenance: crate::codec::Maintenance {
        sources: &[file!()],
        shared: &["src/profiles/capnp_packed.rs"],
        schema: crate::codec::Schema::Committed {
            path: "schemas/event.capnp",
            generated: &["crates/binostr-generated/src/event_capnp.rs"],
        },
        crates: &["capnp"],
        spec: crate::codec::maintenance::CAPNP,
    },
};

/// Cap'n Proto, unpacked serialization.
pub struct CapnpUnpacked;

impl Codec for CapnpUnpacked {
    fn encode(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        encode(event, out, false, PROFILE.id)
    }

    fn decode(&self, bytes: &[u8], limits: &Limits) -> Result<Event, DecodeError> {
        decode(bytes, limits, false)
    }
}

pub(crate) mod evolution;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::DecodeErrorKind;
    use crate::profiles::test_support::{self as support, unhex};

    fn golden_bytes() -> Vec<u8> {
        unhex(GOLDEN)
    }

    /// Checked by hand, word by word (`sN` = segment word N).
    const GOLDEN: &str = concat!(
        "00000000 34000000", // segment table: 1 segment of 52 words
        "00000000 02000500", // s0 root: struct at s1, 2 data words, 5 pointers
        "00f1536500000000",  // s1 createdAt 1700000000
        "0100000000000000",  // s2 kind 1
        "11000000 02010000", // s3 id -> s8, byte list of 32
        "1d000000 02010000", // s4 pubkey -> s12, 32 bytes
        "29000000 02020000", // s5 sig -> s16, 64 bytes
        "45000000 1e000000", // s6 tags -> s24, pointer list of 3
        "ad000000 22000000", // s7 content -> s51, 4 bytes ("hi\n" NUL)
        "1111111111111111111111111111111111111111111111111111111111111111", // s8-11
        "2222222222222222222222222222222222222222222222222222222222222222", // s12-15
        "3333333333333333333333333333333333333333333333333333333333333333",
        "3333333333333333333333333333333333333333333333333333333333333333", // s16-23
        "09000000 27000000", // s24 tag 0 -> s27, inline composite, 4 words
        "2d000000 27000000", // s25 tag 1 -> s37
        "45000000 27000000", // s26 tag 2 -> s44
        "08000000 01000100", // s27 composite tag: 2 Values of 1 data word + 1 pointer
        "0100000000000000",  // s28 value 0: discriminant 1 (text)
        "09000000 12000000", // s29   -> s32, 2 bytes
        "0000000000000000",  // s30 value 1: discriminant 0 (hex)
        "05000000 02010000", // s31   -> s33, 32 bytes
        "6500000000000000",  // s32 "e" NUL
        "abababababababababababababababababababababababababababababababab", // s33-36
        "08000000 01000100", // s37 tag 1: 2 Values
        "0100000000000000",  // s38 text
        "09000000 12000000", // s39   -> s42, 2 bytes
        "0100000000000000",  // s40 text
        "05000000 3a000000", // s41   -> s43, 7 bytes
        "7000000000000000",  // s42 "p" NUL
        "4142434445460000",  // s43 "ABCDEF" NUL pad
        "08000000 01000100", // s44 tag 2: 2 Values
        "0100000000000000",  // s45 text
        "09000000 12000000", // s46   -> s49, 2 bytes
        "0100000000000000",  // s47 text
        "05000000 32000000", // s48   -> s50, 6 bytes
        "7400000000000000",  // s49 "t" NUL
        "6e6f737472000000",  // s50 "nostr" NUL pad
        "68690a0000000000",  // s51 content "hi\n" NUL pad
    );

    #[test]
    fn conforms() {
        let (total, json) = support::conformance(&CapnpUnpacked, &golden_bytes(), true);
        eprintln!("capnp-unpacked: {total} bytes vs json {json}");
    }

    #[test]
    fn limits() {
        // A segment table declaring 2^32 - 1 words in eight bytes.
        let err = CapnpUnpacked
            .decode(&[0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff], &Limits::default())
            .unwrap_err();
        assert!(support::is_bounded_failure(err.kind), "{err}");
        // A huge tag-list length inside the message fails in the reader.
        let mut bytes = golden_bytes();
        let tags_ptr = 8 + 6 * 8;
        bytes[tags_ptr + 4..tags_ptr + 8].copy_from_slice(&0xffff_fff6u32.to_le_bytes());
        let err = CapnpUnpacked
            .decode(&bytes, &Limits::default())
            .unwrap_err();
        assert!(
            matches!(
                err.kind,
                DecodeErrorKind::Invalid(_) | DecodeErrorKind::LimitExceeded(_)
            ),
            "{err}"
        );
    }
}

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
    packs: crate::codec::HEX_TAG_ELEMENTS,
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
    use crate::profiles::test_support::{self as support, golden_hex};

    fn golden_bytes() -> Vec<u8> {
        golden_hex(GOLDEN)
    }

    /// Checked by hand, word by word (`sN` = segment word N; a list pointer
    /// `-> sN` counts from the word after it).
    const GOLDEN: &str = concat!(
        "00000000 4f000000", // segment table: 1 segment of 79 words
        "00000000 02000500", // s0 root: struct at s1, 2 data words, 5 pointers
        "00f1536500000000",  // s1 createdAt 1700000000
        "0100000000000000",  // s2 kind 1
        "11000000 02010000", // s3 id -> s8, byte list of 32
        "1d000000 02010000", // s4 pubkey -> s12, 32 bytes
        "29000000 02020000", // s5 sig -> s16, 64 bytes
        "45000000 26000000", // s6 tags -> s24, pointer list of 4
        "05010000 4a010000", // s7 content -> s73, 41 bytes (40 + NUL)
        "{id}",              // s8-11
        "{pubkey}",          // s12-15
        "{sig}",             // s16-23
        "0d000000 47000000", // s24 tag 0 -> s28, inline composite, 8 words
        "51000000 27000000", // s25 tag 1 -> s46, 4 words
        "75000000 57000000", // s26 tag 2 -> s56, 10 words
        "b1000000 07000000", // s27 tag 3 -> s72, 0 words
        "10000000 01000100", // s28 composite tag: 4 Values of 1 data word + 1 pointer
        "0100000000000000",  // s29 value 0: discriminant 1 (text)
        "19000000 12000000", // s30   -> s37, 2 bytes
        "0000000000000000",  // s31 value 1: discriminant 0 (hex)
        "15000000 02010000", // s32   -> s38, 32 bytes
        "0100000000000000",  // s33 value 2: text
        "1d000000 a2000000", // s34   -> s42, 20 bytes
        "0100000000000000",  // s35 value 3: text
        "21000000 2a000000", // s36   -> s45, 5 bytes
        "6500000000000000",  // s37 "e" NUL
        "{e}",               // s38-41
        "{relay}0000000000", // s42-44 "wss://relay.example" NUL pad
        "726f6f7400000000",  // s45 "root" NUL pad
        "08000000 01000100", // s46 tag 1: 2 Values
        "0100000000000000",  // s47 text
        "09000000 12000000", // s48   -> s51, 2 bytes
        "0000000000000000",  // s49 hex
        "05000000 02010000", // s50   -> s52, 32 bytes
        "7000000000000000",  // s51 "p" NUL
        "{p}",               // s52-55
        "14000000 01000100", // s56 tag 2: 5 Values
        "0100000000000000",  // s57 text
        "21000000 12000000", // s58   -> s67, 2 bytes
        "0100000000000000",  // s59 text
        "1d000000 3a000000", // s60   -> s68, 7 bytes
        "0100000000000000",  // s61 text
        "19000000 22000000", // s62   -> s69, 4 bytes
        "0100000000000000",  // s63 text
        "15000000 0a000000", // s64   -> s70, 1 byte
        "0000000000000000",  // s65 hex
        "11000000 0a000000", // s66   -> s71, 1 byte
        "7400000000000000",  // s67 "t" NUL
        "4142434445460000",  // s68 "ABCDEF" NUL pad
        "6162630000000000",  // s69 "abc" NUL pad
        "0000000000000000",  // s70 "" NUL pad
        "0000000000000000",  // s71 "00" packed: byte 00, pad
        "00000000 01000100", // s72 tag 3: 0 Values
        "{content}",         // s73-77
        "0000000000000000",  // s78 content NUL pad
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

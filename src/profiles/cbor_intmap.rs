//! `cbor-intmap` (disabled variant): the positional model's values in a CBOR
//! map keyed by small integers instead of an array, to measure what keys
//! cost over `cbor-packed`.
//!
//! Layout: `a7` (map of 7), then key/value pairs in ascending key order,
//! which is also RFC 8949 §4.2.1 order for these one-byte keys:
//!
//! | key | field        | value (as in `cbor-packed`)                     |
//! |-----|--------------|-------------------------------------------------|
//! | `01`| `id`         | byte string `58 20` + 32 bytes                  |
//! | `02`| `pubkey`     | byte string `58 20` + 32 bytes                  |
//! | `03`| `created_at` | unsigned int, shortest head                     |
//! | `04`| `kind`       | unsigned int, shortest head, ≤ 65535            |
//! | `05`| `tags`       | array of arrays of byte/text strings            |
//! | `06`| `content`    | text string                                     |
//! | `07`| `sig`        | byte string `58 40` + 64 bytes                  |
//!
//! Canonical form: core deterministic encoding (shortest heads, definite
//! lengths, keys in this order). Any other key, order or count is rejected
//! (wrong order or a non-shortest key as `NonCanonical`), so decode→encode
//! reproduces any accepted input. Hex and limits: as `cbor-packed` (packed
//! non-empty even-length lowercase hex tag values; counts checked before
//! reserving). Disabled by default: it is a comparison row, not a proposal.

use minicbor::Encoder;

use super::cbor_packed::{Cbor, EncResult, write_tags};
use super::positional::restore_packed;
use crate::codec::{
    Capabilities, Codec, DecodeError, DecodeErrorKind, EncodeError, Family, Limits, Profile,
};
use crate::model::Event;

/// The registry entry.
pub const PROFILE: Profile = Profile {
    id: "cbor-intmap",
    family: Family::OpenStandard,
    capabilities: Capabilities {
        deterministic: true,
        self_describing: true,
    },
    enabled: false,
    codec: &CborIntMap,
    packs: crate::codec::HEX_TAG_ELEMENTS,
    evolution: &evolution::ADAPTER,
    maintenance: crate::codec::Maintenance {
        sources: &[file!()],
        shared: &["src/profiles/cbor_packed.rs", "src/profiles/positional.rs"],
        schema: crate::codec::Schema::Document {
            path: "schemas/event.cddl",
        },
        crates: &["minicbor"],
        spec: crate::codec::maintenance::CBOR,
    },
};

/// Deterministic CBOR, integer-keyed map.
pub struct CborIntMap;

fn write_event(event: &Event, out: &mut Vec<u8>) -> EncResult {
    let mut e = Encoder::new(out);
    e.map(7)?
        .u8(1)?
        .bytes(&event.id)?
        .u8(2)?
        .bytes(&event.pubkey)?
        .u8(3)?
        .u64(event.created_at)?
        .u8(4)?
        .u16(event.kind)?
        .u8(5)?;
    write_tags(&mut e, &event.tags)?;
    e.u8(6)?.str(&event.content)?.u8(7)?.bytes(&event.sig)?;
    Ok(())
}

fn key(d: &mut Cbor<'_>, want: u64) -> Result<(), DecodeError> {
    let at = d.d.position();
    let k = d.uint()?;
    match k {
        _ if k == want => Ok(()),
        1..=7 => Err(d.err(DecodeErrorKind::NonCanonical, at)),
        _ => Err(d.err(DecodeErrorKind::Invalid("unknown key"), at)),
    }
}

impl Codec for CborIntMap {
    fn hostile(&self) -> Option<&dyn crate::codec::HostileInputs> {
        Some(&super::cbor_packed::CborPacked)
    }

    fn encode(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        write_event(event, out).map_err(|e| EncodeError::new(PROFILE.id, e.to_string()))
    }

    fn decode(&self, bytes: &[u8], limits: &Limits) -> Result<Event, DecodeError> {
        let mut d = Cbor::event_map(bytes, limits)?;
        key(&mut d, 1)?;
        let id = *d.fixed::<32>()?;
        key(&mut d, 2)?;
        let pubkey = *d.fixed::<32>()?;
        key(&mut d, 3)?;
        let created_at = d.uint()?;
        key(&mut d, 4)?;
        let kind = d.kind()?;
        key(&mut d, 5)?;
        let tags = d.tags(limits, restore_packed)?;
        key(&mut d, 6)?;
        let content = d.text()?.to_owned();
        key(&mut d, 7)?;
        let sig = *d.fixed::<64>()?;
        d.finish()?;
        Ok(Event::new(id, pubkey, sig, created_at, kind, tags, content))
    }
}

pub(crate) mod evolution;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles::test_support::{conformance, golden_hex, mutation_sweep};

    /// `a7` map(7), keys `01`..`07` each before its value, as in
    /// `cbor-packed`.
    fn golden() -> Vec<u8> {
        golden_hex(
            "a7 01 5820 {id} 02 5820 {pubkey} 03 1a6553f100 04 01 05 84 \
             84 6165 5820 {e} 73 {relay} 64 726f6f74 \
             82 6170 5820 {p} \
             85 6174 66 414243444546 63 616263 60 4100 \
             80 \
             06 7828 {content} 07 5840 {sig}",
        )
    }

    #[test]
    fn conforms() {
        let golden = golden();
        assert_eq!(
            golden.len(),
            1 + 35 + 35 + 6 + 2 + 2 + 62 + 37 + 17 + 1 + 43 + 67
        );
        let (total, json) = conformance(&CborIntMap, &golden, true);
        mutation_sweep(&CborIntMap, &golden, true);
        println!("cbor-intmap: {total} bytes vs json {json}");
    }

    #[test]
    fn keys_must_be_in_order() {
        let mut g = golden();
        g[1] = 0x02;
        assert_eq!(
            CborIntMap.decode(&g, &Limits::default()).unwrap_err(),
            DecodeError::at(DecodeErrorKind::NonCanonical, 1)
        );
        g[1] = 0x08;
        assert_eq!(
            CborIntMap.decode(&g, &Limits::default()).unwrap_err().kind,
            DecodeErrorKind::Invalid("unknown key")
        );
    }
}

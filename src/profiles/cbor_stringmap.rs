//! `cbor-stringmap` (disabled variant): NIP-01's JSON object shape in CBOR,
//! a map with text keys and hex text strings, to measure what the positional
//! model and byte packing save.
//!
//! Layout: `a7` (map of 7), then pairs in RFC 8949 §4.2.1 key order
//! (bytewise order of the encoded keys, so shorter keys first):
//!
//! | key            | value                                             |
//! |----------------|---------------------------------------------------|
//! | `"id"`         | text, 64 lowercase hex characters (`78 40` + hex)  |
//! | `"sig"`        | text, 128 lowercase hex characters (`78 80` + hex) |
//! | `"kind"`       | unsigned int, shortest head, ≤ 65535              |
//! | `"tags"`       | array of arrays of text strings                   |
//! | `"pubkey"`     | text, 64 lowercase hex characters                 |
//! | `"content"`    | text string                                       |
//! | `"created_at"` | unsigned int, shortest head                       |
//!
//! Canonical form: core deterministic encoding (shortest heads, definite
//! lengths, sorted keys); a known key out of order is `NonCanonical`, any
//! other key `Invalid`, so decode→encode reproduces any accepted input. Hex:
//! nothing is packed; id, pubkey and sig must be lowercase hex of the exact
//! length, and tag values are text strings exactly as written (a byte string
//! in a tag is `Invalid`). Limits: as `cbor-packed` (the same decoder).
//! Disabled by default: it is a comparison row, not a proposal.

use minicbor::Encoder;

use super::cbor_packed::{Cbor, EncResult};
use super::positional::{TagValue, restore};
use crate::codec::{
    Capabilities, Codec, DecodeError, DecodeErrorKind, EncodeError, Family, Limits, Profile,
};
use crate::model::{Event, hex};

/// The registry entry.
pub const PROFILE: Profile = Profile {
    id: "cbor-stringmap",
    family: Family::OpenStandard,
    capabilities: Capabilities {
        deterministic: true,
        self_describing: true,
    },
    enabled: false,
    codec: &CborStringMap,
    packs: &[],
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

/// Deterministic CBOR, text-keyed map with hex strings.
pub struct CborStringMap;

const KEYS: [&str; 7] = [
    "id",
    "sig",
    "kind",
    "tags",
    "pubkey",
    "content",
    "created_at",
];

fn hex_str<'a>(bytes: &[u8], buf: &'a mut [u8; 128]) -> &'a str {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    for (i, b) in bytes.iter().enumerate() {
        buf[2 * i] = DIGITS[usize::from(b >> 4)];
        buf[2 * i + 1] = DIGITS[usize::from(b & 0x0f)];
    }
    std::str::from_utf8(&buf[..2 * bytes.len()]).expect("hex digits are ASCII")
}

fn write_event(event: &Event, out: &mut Vec<u8>) -> EncResult {
    let mut buf = [0u8; 128];
    let mut e = Encoder::new(out);
    e.map(7)?.str("id")?.str(hex_str(&event.id, &mut buf))?;
    e.str("sig")?.str(hex_str(&event.sig, &mut buf))?;
    e.str("kind")?.u16(event.kind)?;
    e.str("tags")?.array(event.tags.len() as u64)?;
    for tag in &event.tags {
        e.array(tag.len() as u64)?;
        for v in tag {
            e.str(v)?;
        }
    }
    e.str("pubkey")?.str(hex_str(&event.pubkey, &mut buf))?;
    e.str("content")?.str(&event.content)?;
    e.str("created_at")?.u64(event.created_at)?;
    Ok(())
}

fn key(d: &mut Cbor<'_>, want: &str) -> Result<(), DecodeError> {
    let at = d.d.position();
    let k = d.text()?;
    if k == want {
        Ok(())
    } else if KEYS.contains(&k) {
        Err(d.err(DecodeErrorKind::NonCanonical, at))
    } else {
        Err(d.err(DecodeErrorKind::Invalid("unknown key"), at))
    }
}

fn hex_field<const N: usize>(d: &mut Cbor<'_>) -> Result<[u8; N], DecodeError> {
    let at = d.d.position();
    let s = d.text()?;
    hex::decode_array::<N>(s).ok_or_else(|| d.err(DecodeErrorKind::Invalid("bad hex"), at))
}

impl Codec for CborStringMap {
    fn hostile(&self) -> Option<&dyn crate::codec::HostileInputs> {
        Some(&super::cbor_packed::CborPacked)
    }

    fn encode(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        write_event(event, out).map_err(|e| EncodeError::new(PROFILE.id, e.to_string()))
    }

    fn decode(&self, bytes: &[u8], limits: &Limits) -> Result<Event, DecodeError> {
        let mut d = Cbor::event_map(bytes, limits)?;
        key(&mut d, "id")?;
        let id = hex_field::<32>(&mut d)?;
        key(&mut d, "sig")?;
        let sig = hex_field::<64>(&mut d)?;
        key(&mut d, "kind")?;
        let kind = d.kind()?;
        key(&mut d, "tags")?;
        let tags = d.tags(limits, |v, l| match v {
            TagValue::Text(_) => restore(v, l),
            TagValue::Bytes(_) => Err(DecodeErrorKind::Invalid("byte string tag value")),
        })?;
        key(&mut d, "pubkey")?;
        let pubkey = hex_field::<32>(&mut d)?;
        key(&mut d, "content")?;
        let content = d.text()?.to_owned();
        key(&mut d, "created_at")?;
        let created_at = d.uint()?;
        d.finish()?;
        Ok(Event::new(id, pubkey, sig, created_at, kind, tags, content))
    }
}

pub(crate) mod evolution;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles::test_support::{conformance, golden_hex, mutation_sweep};

    /// `a7` map(7), then each text key before its value: `"id"`,
    /// `"sig"` (`78 40`/`78 80` text of 64/128), `"kind"`, `"tags"`,
    /// `"pubkey"`, `"content"`, `"created_at"`.
    fn golden() -> Vec<u8> {
        golden_hex(
            "a7 626964 7840 {id-hex} 63736967 7880 {sig-hex} \
             646b696e64 01 6474616773 84 \
             84 6165 7840 {e-hex} 73 {relay} 64 726f6f74 \
             82 6170 7840 {p-hex} \
             85 6174 66 414243444546 63 616263 60 62 3030 \
             80 \
             66 7075626b6579 7840 {pubkey-hex} \
             67636f6e74656e74 7828 {content} \
             6a637265617465645f6174 1a6553f100",
        )
    }

    #[test]
    fn conforms() {
        let golden = golden();
        assert_eq!(
            golden.len(),
            1 + 3 + 66 + 4 + 130 + 6 + 6 + 94 + 69 + 18 + 1 + 9 + 64 + 50 + 16
        );
        let (total, json) = conformance(&CborStringMap, &golden, true);
        mutation_sweep(&CborStringMap, &golden, true);
        println!("cbor-stringmap: {total} bytes vs json {json}");
    }

    #[test]
    fn hex_and_keys_are_checked() {
        let l = Limits::default();
        let mut g = golden();
        g[6] = b'A';
        assert_eq!(
            CborStringMap.decode(&g, &l).unwrap_err(),
            DecodeError::at(DecodeErrorKind::Invalid("bad hex"), 4)
        );
        let mut g = golden();
        g[2] = b's'; // "sd": unknown key
        assert_eq!(
            CborStringMap.decode(&g, &l).unwrap_err().kind,
            DecodeErrorKind::Invalid("unknown key")
        );
    }
}

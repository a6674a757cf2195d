//! `protobuf-hexstrings` (disabled variant): Protocol Buffers (proto3) with
//! prost, schema `schemas/event.proto` message `HexEvent`, which keeps every
//! hex field as text, the way NIP-01 JSON writes it. It exists to show the
//! cost of hex against `protobuf`, which holds the same fields as bytes.
//!
//! | field | number | wire type | content |
//! |---|---|---|---|
//! | id | 1 | LEN | 64 lowercase hex characters |
//! | pubkey | 2 | LEN | 64 lowercase hex characters |
//! | created_at | 3 | VARINT | `uint64`, omitted when 0 |
//! | kind | 4 | VARINT | `uint32` ≤ 65535, omitted when 0 |
//! | tags | 5 | LEN, repeated | `HexTag { repeated string values = 1 }` |
//! | content | 6 | LEN | UTF-8, omitted when empty |
//! | sig | 7 | LEN | 128 lowercase hex characters |
//!
//! Hex policy: nothing is packed; id, pubkey and sig must be lowercase hex of
//! their length (`Invalid` otherwise), tag values are plain strings.
//!
//! Canonical form and limits are those of [`super::protobuf`]: the same
//! allocation-free pre-scan checks the limits (values by their string length)
//! and rejects non-canonical protobuf (field order, explicit defaults,
//! unknown fields, over-long varints) before prost decodes, so the profile is
//! deterministic.

use super::protobuf::{Shape, kind, pb, prost_error, scan};
use crate::codec::{
    Capabilities, Codec, DecodeError, DecodeErrorKind, EncodeError, Family, Limits, Profile,
};
use crate::model::Event;
use crate::model::hex;

/// The registry entry.
pub const PROFILE: Profile = Profile {
    id: "protobuf-hexstrings",
    family: Family::OpenStandard,
    capabilities: Capabilities {
        deterministic: true,
        self_describing: false,
    },
    enabled: false,
    codec: &ProtobufHexStrings,
    packs: &[],
    evolution: &evolution::ADAPTER,
    maintenance: crate::codec::Maintenance {
        sources: &[file!()],
        shared: &["src/profiles/protobuf.rs"],
        schema: crate::codec::Schema::BuildScript {
            path: "schemas/event.proto",
            out: "binostr.rs",
        },
        crates: &["prost"],
        spec: crate::codec::maintenance::PROTOBUF,
    },
};

/// prost, message `binostr.HexEvent`.
pub struct ProtobufHexStrings;

impl Codec for ProtobufHexStrings {
    fn encode(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let msg = pb::HexEvent {
            id: hex::encode(&event.id),
            pubkey: hex::encode(&event.pubkey),
            created_at: event.created_at,
            kind: u32::from(event.kind),
            tags: event
                .tags
                .iter()
                .map(|tag| pb::HexTag {
                    values: tag.clone(),
                })
                .collect(),
            content: event.content.clone(),
            sig: hex::encode(&event.sig),
        };
        prost::Message::encode(&msg, out).expect("a Vec grows as needed");
        Ok(())
    }

    fn decode(&self, bytes: &[u8], limits: &Limits) -> Result<Event, DecodeError> {
        scan(bytes, limits, Shape::HexStrings)?;
        let msg: pb::HexEvent = prost::Message::decode(bytes).map_err(prost_error)?;
        Ok(Event {
            id: from_hex(&msg.id, 0)?,
            pubkey: from_hex(&msg.pubkey, 66)?,
            sig: from_hex(&msg.sig, bytes.len().saturating_sub(131))?,
            created_at: msg.created_at,
            kind: kind(msg.kind)?,
            tags: msg.tags.into_iter().map(|t| t.values).collect(),
            content: msg.content,
        })
    }
}

/// Lowercase hex of a fixed field; `at` is the offset of its key in the
/// canonical layout (id first, pubkey second, sig last).
fn from_hex<const N: usize>(s: &str, at: usize) -> Result<[u8; N], DecodeError> {
    hex::decode_array(s).ok_or(DecodeError::at(
        DecodeErrorKind::Invalid("fixed field is not lowercase hex"),
        at,
    ))
}

pub(crate) mod evolution;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles::test_support::{self as support, golden_hex};

    fn golden_bytes() -> Vec<u8> {
        golden_hex(
            "0a40 {id-hex} 1240 {pubkey-hex} 18 80e2cfaa06 20 01 \
             2a60 0a01 65 0a40 {e-hex} 0a13 {relay} 0a04 726f6f74 \
             2a45 0a01 70 0a40 {p-hex} \
             2a16 0a01 74 0a06 414243444546 0a03 616263 0a00 0a02 3030 \
             2a00 \
             3228 {content} 3a8001 {sig-hex}",
        )
    }

    #[test]
    fn conforms() {
        let (total, json) = support::conformance(&ProtobufHexStrings, &golden_bytes(), false);
        eprintln!("protobuf-hexstrings: {total} bytes vs json {json}");
    }

    #[test]
    fn limits() {
        let mut huge = golden_bytes()[..132].to_vec();
        huge.extend_from_slice(&[0x2a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x0a]);
        assert_eq!(
            ProtobufHexStrings
                .decode(&huge, &Limits::default())
                .unwrap_err()
                .kind,
            DecodeErrorKind::Truncated
        );
    }

    #[test]
    fn uppercase_id_is_invalid() {
        let mut g = golden_bytes();
        g[2] = b'A';
        assert_eq!(
            ProtobufHexStrings
                .decode(&g, &Limits::default())
                .unwrap_err()
                .kind,
            DecodeErrorKind::Invalid("fixed field is not lowercase hex")
        );
    }
}

//! `event2`: mleku's binary event codec (mleku.net/nostr, 2024:
//! `codec/event/binarymarshal.go`, `binaryunmarshal.go`; the nostrbench
//! harness), made lossless.
//!
//! | field | encoding |
//! |---|---|
//! | id, pubkey | raw 32 + 32 bytes |
//! | created_at | `uvarint` (LEB128) |
//! | kind | u16 little-endian |
//! | tags | `uvarint(n_tags)`; per tag `uvarint(n_fields)`; per field `uvarint(len)` + bytes |
//! | content | `uvarint(len)` + UTF-8 bytes |
//! | sig | raw 64 bytes, last |
//!
//! Packing is chosen by tag name, with no flag bit. When the first field is
//! exactly `e` or `p`, the second field is `uvarint(32)` + the 32 bytes of
//! its hex. When the first field is exactly `a`, the second field
//! `kind:pubkey:d` is `uvarint(34 + len d)` + `kind:u16 LE` + 32 pubkey
//! bytes + the raw bytes of `d` (everything after the second colon, so `d`
//! may itself contain `:`). Every other field is its UTF-8 string.
//!
//! Hex and representability policy (our choice: carry unpacked where that
//! is unambiguous, reject otherwise). The format has no flag bit, but every
//! field has an explicit length, and a packed value has a known length: 32
//! bytes for `e`/`p`, at least 34 for `a`. So:
//! - an `e`/`p` second field that is 64 lowercase hex is packed; any other
//!   value is written as its plain string when its byte length is not 32,
//!   and is not representable (encoding fails) when it is exactly 32;
//! - an `a` second field that is exactly `<kind>:<64 lowercase hex>:<d>`,
//!   `kind` a canonical decimal u16 (`0` or no leading zero, ≤ 65535), is
//!   packed; any other value is written plain when shorter than 34 bytes and
//!   is not representable from 34 bytes up.
//!
//! The decoder applies the same rule: an `e`/`p` second field of length 32
//! is packed bytes, an `a` second field of 34 bytes or more is packed, and
//! anything else is UTF-8 text. Real follow lists carry uppercase, `0x`
//! prefixed and 63-character `p` values, which this keeps lossless; note
//! that upstream decoders hex-encode *every* `e`/`p` second field, so they
//! misread such plain values (interop with the Go original holds for events
//! whose `e`/`p`/`a` values are well formed). Canonical form: minimal
//! varints, a plain `e`/`p` value is never 64 lowercase hex, no trailing
//! bytes, so decode→encode is the identity.
//!
//! Upstream defects we do not reproduce: the encoder assumes e/p values are
//! hex (a failed hex decode aborts with a half-written buffer); it splits
//! `a` values on every `:`, so a `d` containing `:` is truncated, and it
//! writes the never-assigned `n` (kind 0) instead of the parsed kind; the
//! decoder appends the reconstructed `a` value *and* falls through to append
//! the raw field again (one extra element), and formats the pubkey with
//! `%0x` over its hex (doubly hex-encoded); counts and lengths from the
//! input size `make`/`NewWithCap` without bounds.

use crate::codec::write::put_uvarint;
use crate::codec::{
    Capabilities, DecodeError, DecodeErrorKind, EncodeError, Family, HEX_64, Layout, Limit, Limits,
    Marker, Parts, Place, Profile, Reader, Shape, Text, read_tags,
};
use crate::model::{Event, hex};

/// The registry entry.
pub const PROFILE: Profile = Profile {
    id: "event2",
    family: Family::NostrSpecific,
    capabilities: Capabilities {
        deterministic: true,
        self_describing: false,
    },
    enabled: true,
    codec: &Event2,
    packs: &[
        crate::codec::Packing {
            place: Place::Tag {
                name: "e",
                index: 1,
            },
            shape: HEX_64,
            marker: Marker::Length,
        },
        crate::codec::Packing {
            place: Place::Tag {
                name: "p",
                index: 1,
            },
            shape: HEX_64,
            marker: Marker::Length,
        },
        crate::codec::Packing {
            place: Place::Tag {
                name: "a",
                index: 1,
            },
            shape: Shape::Address,
            marker: Marker::Length,
        },
    ],
    evolution: &crate::codec::evolution::surgery::Appended {
        mechanism: "a varint 42 appended after the signature, the last field (mleku/nostr codec/event binary layout, docs/FORMATS.md; no version or record length)",
    },
    maintenance: crate::codec::Maintenance::standalone(
        &[file!()],
        crate::codec::maintenance::EVENT2,
    ),
};

/// mleku's event2 binary codec.
pub struct Event2;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Packing {
    None,
    Hex,
    Address,
}

fn packing(name: &str) -> Packing {
    match name {
        "e" | "p" => Packing::Hex,
        "a" => Packing::Address,
        _ => Packing::None,
    }
}

/// Splits `kind:pubkeyhex:d` exactly as the decoder will rebuild it.
fn split_address(s: &str) -> Option<(u16, [u8; 32], &str)> {
    let (kind, rest) = s.split_once(':')?;
    let (pubkey, d) = rest.split_once(':')?;
    let canonical = !kind.is_empty()
        && kind.bytes().all(|b| b.is_ascii_digit())
        && (kind == "0" || !kind.starts_with('0'));
    if !canonical || kind.len() > 5 {
        return None;
    }
    Some((kind.parse().ok()?, hex::decode_array::<32>(pubkey)?, d))
}

/// Packed form: 32 bytes for `e`/`p`, 34 + d bytes for `a`.
const PACKED_HEX: usize = 32;
const PACKED_ADDRESS_MIN: usize = 34;

fn refuse_hex(name: &str, value: &str) -> EncodeError {
    Event2::refuse(format!(
        "`{name}` tag value {value:?} is not 64 lowercase hex and is 32 bytes long, \
         the length of a packed value"
    ))
}

fn refuse_address(value: &str) -> EncodeError {
    Event2::refuse(format!(
        "`a` tag value {value:?} is not kind:pubkey:d and is at least 34 bytes long, \
         like a packed value"
    ))
}

/// Writes one tag; the refusal of a value that cannot be carried is decided
/// on the value itself, in the same pass that packs it.
fn put_tag(out: &mut Vec<u8>, tag: &[String]) -> Result<(), EncodeError> {
    put_uvarint(out, tag.len() as u64);
    let pack = tag.first().map_or(Packing::None, |n| packing(n));
    for (j, field) in tag.iter().enumerate() {
        if j == 1 && pack == Packing::Hex {
            if let Some(bytes) = hex::decode_array::<32>(field) {
                out.push(PACKED_HEX as u8);
                out.extend_from_slice(&bytes);
                continue;
            }
            if field.len() == PACKED_HEX {
                return Err(refuse_hex(&tag[0], field));
            }
        } else if j == 1 && pack == Packing::Address {
            if let Some((kind, pubkey, d)) = split_address(field) {
                put_uvarint(out, (PACKED_ADDRESS_MIN + d.len()) as u64);
                out.extend_from_slice(&kind.to_le_bytes());
                out.extend_from_slice(&pubkey);
                out.extend_from_slice(d.as_bytes());
                continue;
            }
            if field.len() >= PACKED_ADDRESS_MIN {
                return Err(refuse_address(field));
            }
        }
        put_uvarint(out, field.len() as u64);
        out.extend_from_slice(field.as_bytes());
    }
    Ok(())
}

impl Layout for Event2 {
    const ID: &'static str = PROFILE.id;

    fn write(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let start = out.len();
        out.extend_from_slice(&event.id);
        out.extend_from_slice(&event.pubkey);
        put_uvarint(out, event.created_at);
        out.extend_from_slice(&event.kind.to_le_bytes());
        put_uvarint(out, event.tags.len() as u64);
        for tag in &event.tags {
            if let Err(e) = put_tag(out, tag) {
                out.truncate(start);
                return Err(e);
            }
        }
        put_uvarint(out, event.content.len() as u64);
        out.extend_from_slice(event.content.as_bytes());
        out.extend_from_slice(&event.sig);
        Ok(())
    }

    fn parse<'a, S: Text<'a>>(
        bytes: &'a [u8],
        limits: &Limits,
    ) -> Result<Parts<'a, S>, DecodeError> {
        let mut r = Reader::new(bytes);
        let id = r.array::<32>()?;
        let pubkey = r.array::<32>()?;
        let created_at = r.uvarint(true)?;
        let kind = u16::from_le_bytes(*r.array::<2>()?);
        let uvarint = |r: &mut Reader<'a>| r.uvarint(true);
        let tags = read_tags(&mut r, limits, uvarint, uvarint, 1, |r, tag: &[S]| {
            let pack = match tag {
                [name] => packing(name.as_ref()),
                _ => Packing::None,
            };
            field(r, limits, tag.len(), pack)
        })?;
        let len = r.uvarint(true)?;
        let len = r.fits(len, 1)?;
        let content = S::from(r.str(len)?);
        let sig = r.array::<64>()?;
        r.finish()?;
        Ok(Parts::new(id, pubkey, sig, created_at, kind, tags, content))
    }

    /// Pubkey at 32; kind after the `created_at` varint. Only the prefix is
    /// checked.
    fn prefix(bytes: &[u8], _: &Limits) -> Result<(u16, [u8; 32]), DecodeError> {
        let mut r = Reader::new(bytes);
        r.take(32)?;
        let pubkey = *r.array::<32>()?;
        r.uvarint(true)?;
        Ok((u16::from_le_bytes(*r.array::<2>()?), pubkey))
    }
}

/// Field `j` of a tag whose packing (from its name) is `pack`.
fn field<'a, S: Text<'a>>(
    r: &mut Reader<'a>,
    limits: &Limits,
    j: usize,
    pack: Packing,
) -> Result<S, DecodeError> {
    let at = r.offset();
    let len = r.uvarint(true)?;
    let len = r.fits(len, 1)?;
    let too_long = || {
        Err(DecodeError::at(
            DecodeErrorKind::LimitExceeded(Limit::ValueBytes),
            at,
        ))
    };
    Ok(match (j, pack) {
        (1, Packing::Hex) if len == PACKED_HEX => {
            if limits.max_value_bytes < 64 {
                return too_long();
            }
            S::from(hex::encode(r.take(32)?))
        }
        (1, Packing::Address) if len >= PACKED_ADDRESS_MIN => {
            let k = u16::from_le_bytes(*r.array::<2>()?);
            let pk = r.array::<32>()?;
            let d = r.str(len - PACKED_ADDRESS_MIN)?;
            let mut s = k.to_string();
            if s.len() + 66 + d.len() > limits.max_value_bytes {
                return too_long();
            }
            s.push(':');
            hex::encode_into_string(pk, &mut s);
            s.push(':');
            s.push_str(d);
            S::from(s)
        }
        (j, pack) => {
            if len > limits.max_value_bytes {
                return too_long();
            }
            let s = r.str(len)?;
            if j == 1 && pack == Packing::Hex && hex::decode_array::<32>(s).is_some() {
                return Err(DecodeError::at(DecodeErrorKind::NonCanonical, at));
            }
            S::from(s)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::Codec;
    use crate::profiles::test_support::{self as support, golden_event, golden_hex, unhex};

    fn golden() -> Event {
        golden_event()
    }

    fn golden_bytes() -> Vec<u8> {
        golden_hex(
            "{id} {pubkey} 80e2cfaa06 0100 04 \
             04 0165 20{e} 13{relay} 04726f6f74 \
             02 0170 20{p} \
             05 0174 06414243444546 03616263 00 023030 \
             00 \
             28 {content} {sig}",
        )
    }

    #[test]
    fn conforms() {
        let (total, json) = support::conformance(&Event2, &golden_bytes(), true);
        eprintln!("event2: {total} bytes vs json {json}");
    }

    #[test]
    fn address_tags_keep_colons_in_d() {
        let mut e = golden();
        let value = format!("30023:{}:my:d", "ee".repeat(32));
        e.tags = vec![vec!["a".into(), value, "wss://r".into()]];
        let mut out = Vec::new();
        Event2.encode(&e, &mut out).unwrap();
        let expected = format!(
            "01 03 0161 26 4775 {} 6d793a64 07 7773733a2f2f72",
            "ee".repeat(32)
        );
        assert_eq!(
            support::hex(&out[71..71 + 51]),
            support::hex(&unhex(&expected))
        );
        assert_eq!(Event2.decode(&out, &Limits::default()).unwrap(), e);
    }

    #[test]
    fn limits() {
        let limits = Limits::default();
        let mut huge = golden_bytes()[..71].to_vec();
        huge.extend_from_slice(&[0xff, 0xff, 0xff, 0xff, 0x0f]);
        let err = Event2.decode(&huge, &limits).unwrap_err();
        assert!(support::is_bounded_failure(err.kind), "{err}");
        let mut value = golden_bytes()[..71].to_vec();
        value.extend_from_slice(&[0x01, 0x01, 0xff, 0xff, 0xff, 0xff, 0x0f]);
        let err = Event2.decode(&value, &limits).unwrap_err();
        assert!(support::is_bounded_failure(err.kind), "{err}");
        let mut plain_hex = golden_bytes()[..71].to_vec();
        plain_hex.extend_from_slice(&[0x01, 0x02, 0x01, b'e', 0x40]);
        plain_hex.extend_from_slice("ab".repeat(32).as_bytes());
        assert_eq!(
            Event2.decode(&plain_hex, &limits).unwrap_err(),
            DecodeError::at(DecodeErrorKind::NonCanonical, 75)
        );
    }

    #[test]
    fn not_representable() {
        let pk = "ee".repeat(32);
        let bad = [
            ("p", "x".repeat(32)),
            ("e", "AB".repeat(16)),
            ("a", format!("030023:{pk}:d")),
            ("a", format!("65536:{pk}:d")),
            ("a", format!("1:{}:d", "EE".repeat(32))),
            ("a", format!("1:{pk}")),
            ("a", format!("naddr1{}", "q".repeat(40))),
        ];
        let mut out = Vec::new();
        for (name, value) in bad {
            let mut e = golden();
            e.tags = vec![vec![name.into(), value.clone()]];
            let err = Event2.encode(&e, &mut out).unwrap_err();
            assert!(err.reason.contains(&value), "{err}");
            assert!(out.is_empty());
        }
    }

    #[test]
    fn malformed_short_values_stay_plain() {
        let pk = "ee".repeat(32);
        let mut ok = golden();
        ok.tags = vec![
            vec!["e".into()],
            vec!["p".into(), "AB".repeat(32)],
            vec!["p".into(), "ab".repeat(31)],
            vec!["p".into(), format!("0x{pk}")],
            vec!["a".into(), format!("0:{pk}:")],
            vec!["a".into(), "30023:npub1:d".into()],
            vec!["t".into(), "ABCDEF".into()],
        ];
        let mut out = Vec::new();
        Event2.encode(&ok, &mut out).unwrap();
        assert_eq!(Event2.decode(&out, &Limits::default()).unwrap(), ok);
        let mut again = Vec::new();
        Event2
            .encode(
                &Event2.decode(&out, &Limits::default()).unwrap(),
                &mut again,
            )
            .unwrap();
        assert_eq!(again, out);
    }
}

//! `beve`: [BEVE](https://github.com/beve-org/beve) (Binary Efficient
//! Versatile Encoding) through the `beve` crate's serde serializer and
//! deserializer.
//!
//! Layout: positional, one BEVE generic array of 7 values in NIP-01 order
//! (no field names on the wire):
//!
//! | # | value | BEVE encoding |
//! |---|---|---|
//! | 0 | id | typed array of u8 (`0x14`), size 32, 32 raw bytes |
//! | 1 | pubkey | typed array of u8, size 32, 32 raw bytes |
//! | 2 | created_at | unsigned number, 8 bytes LE (`0x71`) |
//! | 3 | kind | unsigned number, 2 bytes LE (`0x32`) |
//! | 4 | tags | generic array (`0x05`, size) of tags; each non-empty tag is a typed string array (`0x3c`, size, then per value: size, UTF-8 bytes), an empty tag an empty generic array (`0x05 0x00`) |
//! | 5 | content | string (`0x02`, size, UTF-8 bytes) |
//! | 6 | sig | typed array of u8, size 64, 64 raw bytes |
//!
//! Sizes use BEVE's compressed size (2 low bits select 1, 2, 4 or 8 bytes).
//! The exact header bytes are whatever `beve` 7.3.0 writes; the golden test
//! pins them. Hex: id, pubkey and sig are raw bytes; tag values stay text.
//! BEVE's u8 typed array is a distinct byte-string type, so lowercase hex tag
//! values *could* be packed losslessly with the type as the marker; this
//! profile keeps them as text to measure BEVE as a generic format would be
//! used (the Nostr-specific rows measure hex packing).
//!
//! Canonical form: exactly what the encoder writes. `beve::from_slice`
//! accepts more than that: it skips leading delimiter extensions, accepts any
//! integer width and, upstream finding, **ignores trailing bytes** (its
//! source says "trailing bytes allowed? We'll ignore for now") and exposes no
//! position to check them. Decoding therefore re-encodes the decoded event
//! into a reused thread-local buffer and requires byte equality with the
//! input: a longer input that starts with the canonical bytes is
//! `TrailingBytes`, any other difference `NonCanonical`. That re-encode is
//! part of the measured decode cost.
//!
//! Encoding: `beve::to_vec_into` *replaces* its buffer's contents (it
//! clears it) rather than appending, so when `out` already holds bytes the
//! event goes through a thread-local scratch buffer and is copied on.
//!
//! Limits: `max_event_bytes` is checked first. The crate's decoder does not
//! allocate from declared lengths itself (strings and byte arrays are
//! bounds-checked slices of the input), but it passes declared array counts
//! to serde as size hints, and serde's derived `Vec` visitor preallocates
//! from them (up to 1 MiB per array): a finding for the robustness suite.
//! This profile uses its own visitors: a declared tag count or tag size is
//! checked against `max_tags` / `max_values_per_tag` *before* any element is
//! read (so a huge declared count fails at once), capacities come from the
//! elements actually read, and value lengths are checked before copying. The
//! crate's `from_slice` takes no seed, so the limits reach the visitors
//! through a thread-local set for the duration of the call.

use std::cell::{Cell, RefCell};

use serde::de::{self, Deserialize, Deserializer, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeTuple, Serializer};

use crate::codec::hostile::{HostileInputs, Nest, repeat};
use crate::codec::{
    Capabilities, Codec, DecodeError, DecodeErrorKind, EncodeError, Family, Limit, Limits, Profile,
};
use crate::model::Event;

/// The registry entry.
pub const PROFILE: Profile = Profile {
    id: "beve",
    family: Family::Emerging,
    capabilities: Capabilities {
        deterministic: true,
        self_describing: true,
    },
    enabled: true,
    codec: &Beve,
    packs: &[],
    evolution: &evolution::ADAPTER,
    maintenance: crate::codec::Maintenance {
        sources: &[file!()],
        shared: &[],
        schema: crate::codec::Schema::None,
        crates: &["beve", "serde"],
        spec: crate::codec::maintenance::BEVE,
    },
};

/// BEVE via the `beve` crate, positional layout.
pub struct Beve;

thread_local! {
    /// Limits of the decode in progress on this thread.
    static LIMITS: Cell<Limits> = Cell::new(Limits::default());
    /// The limit that failed, typed (serde errors are strings).
    static FAILED: Cell<Option<Limit>> = const { Cell::new(None) };
    /// Encoding buffer for appends to a non-empty output.
    static SCRATCH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// Re-encoding buffer for the canonical-form check.
    static CANONICAL: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

impl Codec for Beve {
    fn hostile(&self) -> Option<&dyn HostileInputs> {
        Some(self)
    }

    fn encode(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let failed = |e: beve::Error| EncodeError::new(PROFILE.id, e.to_string());
        if out.is_empty() {
            return beve::to_vec_into(out, &Wire(event)).map_err(|e| {
                out.clear();
                failed(e)
            });
        }
        // `beve::to_vec_into` clears its buffer, so appending goes through
        // a scratch buffer (one extra copy, only when `out` is not empty).
        SCRATCH.with_borrow_mut(|scratch| {
            beve::to_vec_into(scratch, &Wire(event)).map_err(failed)?;
            out.extend_from_slice(scratch);
            Ok(())
        })
    }

    fn decode(&self, bytes: &[u8], limits: &Limits) -> Result<Event, DecodeError> {
        if bytes.len() > limits.max_event_bytes {
            return Err(DecodeError::at(
                DecodeErrorKind::LimitExceeded(Limit::EventBytes),
                limits.max_event_bytes,
            ));
        }
        LIMITS.set(*limits);
        FAILED.set(None);
        let event = beve::from_slice::<Owned>(bytes)
            .map_err(|e| DecodeError::at(kind_of(&e), 0))?
            .0;
        CANONICAL.with_borrow_mut(|again| {
            again.clear();
            self.encode(&event, again)
                .map_err(|_| DecodeError::at(DecodeErrorKind::NonCanonical, 0))?;
            if again.as_slice() == bytes {
                Ok(())
            } else if bytes.starts_with(again) {
                Err(DecodeError::at(DecodeErrorKind::TrailingBytes, again.len()))
            } else {
                let at = again.iter().zip(bytes).take_while(|(a, b)| a == b).count();
                Err(DecodeError::at(DecodeErrorKind::NonCanonical, at))
            }
        })?;
        Ok(event)
    }
}

fn kind_of(e: &beve::Error) -> DecodeErrorKind {
    if let Some(what) = FAILED.take() {
        return DecodeErrorKind::LimitExceeded(what);
    }
    match e {
        beve::Error::Eof => DecodeErrorKind::Truncated,
        beve::Error::InvalidSize => DecodeErrorKind::Invalid("invalid size"),
        beve::Error::InvalidHeader(_) => DecodeErrorKind::Invalid("invalid header"),
        beve::Error::MessageOwned(m) if m.contains("UTF-8") || m.contains("utf") => {
            DecodeErrorKind::BadUtf8
        }
        _ => DecodeErrorKind::Invalid("not a beve event"),
    }
}

/// Serializes an event in the positional layout.
struct Wire<'a>(&'a Event);

/// A byte string (BEVE typed array of u8).
struct Bytes<'a>(&'a [u8]);

impl Serialize for Bytes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

impl Serialize for Wire<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let e = self.0;
        let mut t = s.serialize_tuple(7)?;
        t.serialize_element(&Bytes(&e.id))?;
        t.serialize_element(&Bytes(&e.pubkey))?;
        t.serialize_element(&e.created_at)?;
        t.serialize_element(&e.kind)?;
        t.serialize_element(&e.tags)?;
        t.serialize_element(&e.content)?;
        t.serialize_element(&Bytes(&e.sig))?;
        t.end()
    }
}

/// Deserializes the positional layout with the thread's [`Limits`].
struct Owned(Event);

fn limit<E: de::Error>(what: Limit) -> E {
    FAILED.set(Some(what));
    E::custom(format_args!("limit exceeded ({what})"))
}

impl<'de> Deserialize<'de> for Owned {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_tuple(7, EventVisitor)
    }
}

struct EventVisitor;

fn next<'de, A: SeqAccess<'de>, T: Deserialize<'de>>(seq: &mut A) -> Result<T, A::Error> {
    seq.next_element()?
        .ok_or_else(|| de::Error::custom("event array too short"))
}

impl<'de> Visitor<'de> for EventVisitor {
    type Value = Owned;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a 7-element BEVE array")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Owned, A::Error> {
        if seq.size_hint() != Some(7) {
            return Err(de::Error::custom("event array must have 7 elements"));
        }
        let id: Fixed<32> = next(&mut seq)?;
        let pubkey: Fixed<32> = next(&mut seq)?;
        let created_at: u64 = next(&mut seq)?;
        let kind: u16 = next(&mut seq)?;
        let tags: Tags = next(&mut seq)?;
        let content: String = next(&mut seq)?;
        let sig: Fixed<64> = next(&mut seq)?;
        Ok(Owned(Event {
            id: id.0,
            pubkey: pubkey.0,
            sig: sig.0,
            created_at,
            kind,
            tags: tags.0,
            content,
        }))
    }
}

/// Exactly `N` bytes from a u8 typed array.
struct Fixed<const N: usize>([u8; N]);

impl<'de, const N: usize> Deserialize<'de> for Fixed<N> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<const N: usize>;
        impl<const N: usize> Visitor<'_> for V<N> {
            type Value = Fixed<N>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                write!(f, "{N} bytes")
            }
            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Fixed<N>, E> {
                v.try_into()
                    .map(Fixed)
                    .map_err(|_| E::invalid_length(v.len(), &self))
            }
        }
        d.deserialize_bytes(V::<N>)
    }
}

/// The tags, bounded by the thread's limits.
struct Tags(Vec<Vec<String>>);

impl<'de> Deserialize<'de> for Tags {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Tags;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an array of tags")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Tags, A::Error> {
                let max = LIMITS.get().max_tags;
                if seq.size_hint().is_some_and(|n| n > max) {
                    return Err(limit(Limit::Tags));
                }
                let mut tags = Vec::new();
                while let Some(tag) = seq.next_element::<Tag>()? {
                    if tags.len() == max {
                        return Err(limit(Limit::Tags));
                    }
                    tags.push(tag.0);
                }
                Ok(Tags(tags))
            }
        }
        d.deserialize_seq(V)
    }
}

/// One tag, bounded by the thread's limits.
struct Tag(Vec<String>);

impl<'de> Deserialize<'de> for Tag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Tag;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an array of strings")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Tag, A::Error> {
                let max = LIMITS.get().max_values_per_tag;
                if seq.size_hint().is_some_and(|n| n > max) {
                    return Err(limit(Limit::ValuesPerTag));
                }
                let mut values = Vec::new();
                while let Some(value) = seq.next_element::<Value>()? {
                    if values.len() == max {
                        return Err(limit(Limit::ValuesPerTag));
                    }
                    values.push(value.0);
                }
                Ok(Tag(values))
            }
        }
        d.deserialize_seq(V)
    }
}

/// One tag value, its length checked before it is copied.
struct Value(String);

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Value;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
                if v.len() > LIMITS.get().max_value_bytes {
                    return Err(limit(Limit::ValueBytes));
                }
                Ok(Value(v.to_owned()))
            }
        }
        d.deserialize_str(V)
    }
}

/// Appends BEVE's compressed size `n`.
fn put_size(n: u64, out: &mut Vec<u8>) {
    let b0 = ((n & 0x3f) as u8) << 2;
    let rest = n >> 6;
    match n {
        _ if n < 1 << 6 => out.push(b0),
        _ if n < 1 << 14 => out.extend_from_slice(&[b0 | 0b01, rest as u8]),
        _ if n < 1 << 30 => {
            out.push(b0 | 0b10);
            out.extend_from_slice(&(rest as u32).to_le_bytes()[..3]);
        }
        _ => {
            out.push(b0 | 0b11);
            out.extend_from_slice(&rest.to_le_bytes()[..7]);
        }
    }
}

/// `header`, size `n`, then `tail`.
fn with_size(header: u8, n: u64, tail: &[u8]) -> Vec<u8> {
    let mut out = vec![header];
    put_size(n, &mut out);
    out.extend_from_slice(tail);
    out
}

/// Hostile inputs. BEVE: one header byte (type in the low 3 bits), then a compressed size
/// whose 2 low bits select 1, 2, 4 or 8 bytes (at most 2^62−1).
impl HostileInputs for Beve {
    fn format(&self) -> &'static str {
        "beve"
    }

    fn nesting_bomb(&self, shape: Nest, depth: usize, out: &mut Vec<u8>) {
        // Generic array of one (0x05, size 1) or string-keyed object of one
        // (0x03, size 1, key "a"), around a null (0x00).
        let open: &[u8] = match shape {
            Nest::Array => &[0x05, 0x04],
            Nest::Map => &[0x03, 0x04, 0x04, b'a'],
        };
        repeat(out, open, depth);
        out.push(0x00);
    }

    fn length_bombs(&self) -> Vec<(&'static str, Vec<u8>)> {
        const MAX: u64 = (1 << 62) - 1;
        vec![
            ("string-2^32-1", with_size(0x02, u64::from(u32::MAX), b"x")),
            ("string-2^62-1", with_size(0x02, MAX, b"x")),
            (
                "u8-array-2^32-1",
                with_size(0x14, u64::from(u32::MAX), b"x"),
            ),
            ("generic-array-2^62-1", with_size(0x05, MAX, &[0x00])),
            (
                "event-with-tags-2^62-1",
                [&with_size(0x05, 7, &[])[..], &with_size(0x05, MAX, &[])[..]].concat(),
            ),
        ]
    }
}

pub(crate) mod evolution;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles::test_support::{self as support, golden_event, golden_hex};

    /// Checked by hand: `05 1c` = generic array of 7 (compressed size 7<<2);
    /// `14 80` = u8 typed array of 32; `71` = u64 LE; `31` = u16 LE; `05 10`
    /// = 4 tags; `3c 10` = string array of 4, each value `size<<2` then
    /// bytes (`01 01` = 2-byte size 64, `4c` = 19); an empty tag is `05 00`
    /// (generic array of 0); `02 a0` = string of 40; `14 01 01` = u8 typed
    /// array of 64.
    fn golden_bytes() -> Vec<u8> {
        golden_hex(
            "051c 1480{id} 1480{pubkey} 71 00f1536500000000 31 0100 \
             0510 \
             3c10 0465 0101{e-hex} 4c{relay} 10726f6f74 \
             3c08 0470 0101{p-hex} \
             3c14 0474 18414243444546 0c616263 00 083030 \
             0500 \
             02a0 {content} \
             140101{sig}",
        )
    }

    #[test]
    fn conforms() {
        let (total, json) = support::conformance(&Beve, &golden_bytes(), true);
        eprintln!("beve: {total} bytes vs json {json}");
    }

    #[test]
    fn empty_tag_and_empty_strings() {
        let mut e = golden_event();
        e.tags = vec![vec![], vec![String::new()]];
        e.content = String::new();
        let mut out = Vec::new();
        Beve.encode(&e, &mut out).unwrap();
        assert_eq!(Beve.decode(&out, &Limits::default()).unwrap(), e);
    }

    #[test]
    fn non_canonical_is_rejected() {
        // created_at as a 4-byte unsigned (`0x51`) instead of 8 bytes.
        let golden = golden_bytes();
        let mut short = golden[..70].to_vec();
        short.extend_from_slice(&[0x51, 0x00, 0xf1, 0x53, 0x65]);
        short.extend_from_slice(&golden[79..]);
        let err = Beve.decode(&short, &Limits::default()).unwrap_err();
        assert_eq!(err.kind, DecodeErrorKind::NonCanonical, "{err}");
        // A leading delimiter extension, which `beve::from_slice` skips.
        let mut led = vec![0x06];
        led.extend_from_slice(&golden);
        assert!(Beve.decode(&led, &Limits::default()).is_err());
    }

    #[test]
    fn limits() {
        let golden = golden_bytes();
        assert_eq!(golden[82], 0x05, "tags header");
        let mut huge = golden[..82].to_vec();
        huge.extend_from_slice(&[0x05, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
        let err = Beve.decode(&huge, &Limits::default()).unwrap_err();
        assert!(support::is_bounded_failure(err.kind), "{err}");
        let mut value = golden[..84].to_vec();
        value.extend_from_slice(&[0x3c, 0x08, 0x04, 0x65, 0xff, 0xff, 0xff, 0xff]);
        let err = Beve.decode(&value, &Limits::default()).unwrap_err();
        assert!(support::is_bounded_failure(err.kind), "{err}");
        let mut values = golden[..84].to_vec();
        values.extend_from_slice(&[0x3c, 0xfd, 0xff, 0xff, 0xff]);
        let err = Beve.decode(&values, &Limits::default()).unwrap_err();
        assert_eq!(
            err.kind,
            DecodeErrorKind::LimitExceeded(Limit::ValuesPerTag),
            "{err}"
        );
    }
}

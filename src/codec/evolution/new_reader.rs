//! Newer readers for the serde-based formats: our event with one optional
//! field more, `future: Option<u64>` defaulting to `None`, deserialized by
//! the format's own library from bytes an old writer produced.
//!
//! [`NewObject`] is the keyed form (JSON, BSON, CBOR with string keys):
//! serde's `#[serde(default)]`. [`NewPositional`] is the positional form
//! (CBOR, MessagePack, BEVE, FlexBuffers, bincode, postcard): an 8-element
//! tuple whose last element may be absent, which only a format that carries
//! the array length can tell.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, SeqAccess, Visitor};

use super::{NewRead, ReadError};
use crate::model::{Event, hex};

/// A byte string, from any serde byte or sequence representation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bytes(pub Vec<u8>);

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Bytes;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a byte string")
            }
            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Bytes, E> {
                Ok(Bytes(v.to_vec()))
            }
            fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Bytes, E> {
                Ok(Bytes(v))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Bytes, A::Error> {
                let mut out = Vec::new();
                while let Some(b) = seq.next_element::<u8>()? {
                    out.push(b);
                }
                Ok(Bytes(out))
            }
        }
        d.deserialize_bytes(V)
    }
}

/// A tag value told apart by the format's own types (byte string = packed
/// lowercase hex, text = verbatim).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Untagged(pub String);

impl<'de> Deserialize<'de> for Untagged {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Untagged;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a byte string or a text string")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Untagged, E> {
                Ok(Untagged(v.to_string()))
            }
            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Untagged, E> {
                Ok(Untagged(hex::encode(v)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Untagged, A::Error> {
                Bytes::deserialize(de::value::SeqAccessDeserializer::new(seq))
                    .map(|b| Untagged(hex::encode(&b.0)))
            }
        }
        d.deserialize_any(V)
    }
}

/// A tag value carried as a serde enum (bincode, postcard: variant 0 bytes,
/// 1 text).
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
pub enum Tagged {
    /// Packed lowercase hex.
    Bytes(Bytes),
    /// Verbatim text.
    Text(String),
}

/// A tag value type of [`NewPositional`].
pub trait TagValue {
    /// The string it stands for.
    fn into_string(self) -> String;
}

impl TagValue for Untagged {
    fn into_string(self) -> String {
        self.0
    }
}

impl TagValue for Tagged {
    fn into_string(self) -> String {
        match self {
            Tagged::Bytes(b) => hex::encode(&b.0),
            Tagged::Text(t) => t,
        }
    }
}

/// The positional event of `profiles::positional` plus an optional eighth
/// element.
pub struct NewPositional<V>(pub Result<NewRead, ReadError>, PhantomData<V>);

impl<'de, V: Deserialize<'de> + TagValue> Deserialize<'de> for NewPositional<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Vis<V>(PhantomData<V>);
        impl<'de, V: Deserialize<'de> + TagValue> Visitor<'de> for Vis<V> {
            type Value = NewPositional<V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an event of 7 or 8 elements")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let missing = |i| de::Error::invalid_length(i, &"7 or 8 elements");
                let id: Bytes = seq.next_element()?.ok_or_else(|| missing(0))?;
                let pubkey: Bytes = seq.next_element()?.ok_or_else(|| missing(1))?;
                let created_at: u64 = seq.next_element()?.ok_or_else(|| missing(2))?;
                let kind: u16 = seq.next_element()?.ok_or_else(|| missing(3))?;
                let tags: Vec<Vec<V>> = seq.next_element()?.ok_or_else(|| missing(4))?;
                let content: String = seq.next_element()?.ok_or_else(|| missing(5))?;
                let sig: Bytes = seq.next_element()?.ok_or_else(|| missing(6))?;
                let future: Option<Option<u64>> = seq.next_element()?;
                let read = (|| {
                    Ok(NewRead {
                        event: Event {
                            id: ReadError::fixed(id.0, "id")?,
                            pubkey: ReadError::fixed(pubkey.0, "pubkey")?,
                            sig: ReadError::fixed(sig.0, "sig")?,
                            created_at,
                            kind,
                            tags: tags
                                .into_iter()
                                .map(|t| t.into_iter().map(TagValue::into_string).collect())
                                .collect(),
                            content,
                        },
                        future: future.flatten(),
                    })
                })();
                Ok(NewPositional(read, PhantomData))
            }
        }
        d.deserialize_tuple(8, Vis(PhantomData))
    }
}

/// The keyed event with hex strings (NIP-01 JSON) plus `future`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewObject {
    id: String,
    pubkey: String,
    created_at: u64,
    kind: u16,
    tags: Vec<Vec<String>>,
    content: String,
    sig: String,
    #[serde(default)]
    future: Option<u64>,
}

impl NewObject {
    /// The event it holds (hex fields decoded).
    pub fn into_read(self) -> Result<Box<NewRead>, ReadError> {
        Ok(Box::new(NewRead {
            event: Event {
                id: hex_field(&self.id, "id")?,
                pubkey: hex_field(&self.pubkey, "pubkey")?,
                sig: hex_field(&self.sig, "sig")?,
                created_at: self.created_at,
                kind: self.kind,
                tags: self.tags,
                content: self.content,
            },
            future: self.future,
        }))
    }
}

/// The bytes of the lowercase hex `s`, a field of `N` bytes.
fn hex_field<const N: usize>(s: &str, field: &'static str) -> Result<[u8; N], ReadError> {
    let mut out = Vec::new();
    if !hex::decode_into(s, &mut out) {
        return Err(ReadError::Field {
            field,
            problem: "not lowercase hex",
        });
    }
    ReadError::fixed(out, field)
}

/// The [`super::Backward`] of a positional serde reader's result.
pub fn positional<V, E: fmt::Display>(
    reader: &'static str,
    r: Result<NewPositional<V>, E>,
) -> super::Backward {
    super::Backward::Executed {
        reader,
        result: r
            .map_err(ReadError::library)
            .and_then(|p| p.0)
            .map(Box::new),
    }
}

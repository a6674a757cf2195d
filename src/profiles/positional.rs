//! The typed positional model shared by `cbor-packed`, `msgpack`, `bincode`
//! and `postcard`, so that comparing them compares codecs, not Rust
//! representations (docs/PROFILES.md).
//!
//! An event is a 7-element array, in NIP-01 field order:
//!
//! | # | field        | type                          |
//! |---|--------------|-------------------------------|
//! | 0 | `id`         | byte string, exactly 32 bytes |
//! | 1 | `pubkey`     | byte string, exactly 32 bytes |
//! | 2 | `created_at` | unsigned integer (u64)        |
//! | 3 | `kind`       | unsigned integer (u16)        |
//! | 4 | `tags`       | array of arrays of [`TagValue`] |
//! | 5 | `content`    | text string                   |
//! | 6 | `sig`        | byte string, exactly 64 bytes |
//!
//! Hex policy: a tag value that is non-empty, even-length, lowercase hex
//! ([`hex::is_lower_hex`]) travels as a byte string ([`TagValue::Bytes`]) and
//! is restored as lowercase hex; every other value (uppercase, odd-length,
//! non-hex, empty) is a text string ([`TagValue::Text`]). An empty byte string
//! and a text string that is packable hex are rejected on decode
//! (`NonCanonical`, [`restore_packed`]): no encoder produces them, and
//! accepting them would break decode→encode identity. Content is never packed.
//!
//! Self-describing formats (CBOR, MessagePack) tell the two [`TagValue`]s apart
//! by their own byte/text types. Formats without types (bincode, postcard)
//! carry a serde enum variant index (0 = bytes, 1 = text); that is the
//! `TAGGED` parameter of [`Positional`] and [`PositionalSeed`].
//!
//! Bounded decoding: [`PositionalSeed`] is a serde `DeserializeSeed` that
//! carries the [`Limits`]. It checks every declared count (the format's size
//! hint) against the limit before reserving, caps any reservation by the input
//! length, counts elements as they arrive (for formats without size hints),
//! and checks each value's restored length against `max_value_bytes`. The
//! model's depth is fixed (event → tags → tag), so no input drives recursion:
//! an array where a scalar is expected is a type error, not a descent. Strings
//! and byte strings are borrowed from the input where the format allows and
//! copied once into the owned [`Event`], or, for the borrowed view
//! ([`PositionalSeed::view`]), kept borrowed in an [`EventRef`] (text only:
//! packed hex is restored into owned strings and the fixed fields are
//! copied). Both go through the same visitors ([`Build`]), so the view
//! accepts exactly what the owned decode accepts.
//!
//! Wire types: a format's serde deserializer may hand the visitor bytes for
//! something that was not a byte string on the wire (rmp-serde passes a
//! `str` holding invalid UTF-8 on as bytes). A profile can install a
//! [`WireCheck`] ([`PositionalSeed::with_wire_check`]) that every borrowed
//! byte string passes before it is accepted as `id`, `pubkey`, `sig` or a
//! packed tag value.

use std::borrow::Cow;
use std::cell::Cell;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, EnumAccess, SeqAccess, VariantAccess, Visitor};
use serde::ser::{SerializeSeq, SerializeTuple};
use serde::{Serialize, Serializer};

use crate::codec::{DecodeError, DecodeErrorKind, DecodedParts, Limit, Limits};
use crate::model::{Event, EventRef, hex};

/// One tag value on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TagValue<'a> {
    /// Lowercase hex, packed: restored with [`hex::encode`].
    Bytes(&'a [u8]),
    /// Any other string, verbatim.
    Text(&'a str),
}

/// Calls `f` with the wire form of tag value `s`: [`TagValue::Bytes`] for
/// non-empty, even-length lowercase hex, [`TagValue::Text`] otherwise.
/// Values up to 128 hex characters are unpacked on the stack.
#[inline]
pub fn with_tag_value<R>(s: &str, f: impl FnOnce(TagValue<'_>) -> R) -> R {
    let b = s.as_bytes();
    if b.is_empty() || !b.len().is_multiple_of(2) {
        return f(TagValue::Text(s));
    }
    let n = b.len() / 2;
    if n <= 64 {
        let mut buf = [0u8; 64];
        if hex::decode_to_slice(s, &mut buf[..n]) {
            f(TagValue::Bytes(&buf[..n]))
        } else {
            f(TagValue::Text(s))
        }
    } else {
        let mut buf = vec![0u8; n];
        if hex::decode_to_slice(s, &mut buf) {
            f(TagValue::Bytes(&buf))
        } else {
            f(TagValue::Text(s))
        }
    }
}

/// Restores a decoded tag value as the owned string, checking
/// `max_value_bytes` (on the restored length) and rejecting empty bytes.
#[inline]
pub fn restore(value: TagValue<'_>, limits: &Limits) -> Result<String, DecodeErrorKind> {
    match value {
        TagValue::Bytes([]) => Err(DecodeErrorKind::NonCanonical),
        TagValue::Bytes(b) => {
            if b.len().saturating_mul(2) > limits.max_value_bytes {
                return Err(DecodeErrorKind::LimitExceeded(Limit::ValueBytes));
            }
            let mut s = String::with_capacity(b.len() * 2);
            hex::encode_into_string(b, &mut s);
            Ok(s)
        }
        TagValue::Text(t) => {
            if t.len() > limits.max_value_bytes {
                return Err(DecodeErrorKind::LimitExceeded(Limit::ValueBytes));
            }
            Ok(t.to_owned())
        }
    }
}

/// [`restore`] for profiles that pack hex: a text value that is packable
/// hex ([`hex::is_lower_hex`]) is [`DecodeErrorKind::NonCanonical`], since
/// the encoder writes such a value as bytes. The string is the same either
/// way, so this refuses a second spelling, not a different value.
#[inline]
pub fn restore_packed(value: TagValue<'_>, limits: &Limits) -> Result<String, DecodeErrorKind> {
    check_text(value)?;
    restore(value, limits)
}

/// The text half of [`restore_packed`], for decoders that borrow text.
#[inline]
pub fn check_text(value: TagValue<'_>) -> Result<(), DecodeErrorKind> {
    match value {
        TagValue::Text(t) if hex::is_lower_hex(t) => Err(DecodeErrorKind::NonCanonical),
        _ => Ok(()),
    }
}

/// Serialises an [`Event`] as the positional tuple. `TAGGED` selects serde
/// enum variants for [`TagValue`] (formats without byte/text types).
#[derive(Clone, Copy, Debug)]
pub struct Positional<'a, const TAGGED: bool>(pub &'a Event);

struct RawBytes<'a>(&'a [u8]);

impl Serialize for RawBytes<'_> {
    #[inline]
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

struct Value<'a, const TAGGED: bool>(&'a str);

impl<const TAGGED: bool> Serialize for Value<'_, TAGGED> {
    #[inline]
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        with_tag_value(self.0, |v| match (TAGGED, v) {
            (false, TagValue::Bytes(b)) => s.serialize_bytes(b),
            (false, TagValue::Text(t)) => s.serialize_str(t),
            (true, TagValue::Bytes(b)) => {
                s.serialize_newtype_variant("TagValue", 0, "Bytes", &RawBytes(b))
            }
            (true, TagValue::Text(t)) => s.serialize_newtype_variant("TagValue", 1, "Text", t),
        })
    }
}

struct Tag<'a, const TAGGED: bool>(&'a [String]);

impl<const TAGGED: bool> Serialize for Tag<'_, TAGGED> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for v in self.0 {
            seq.serialize_element(&Value::<TAGGED>(v))?;
        }
        seq.end()
    }
}

struct Tags<'a, const TAGGED: bool>(&'a [Vec<String>]);

impl<const TAGGED: bool> Serialize for Tags<'_, TAGGED> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for t in self.0 {
            seq.serialize_element(&Tag::<TAGGED>(t))?;
        }
        seq.end()
    }
}

impl<const TAGGED: bool> Serialize for Positional<'_, TAGGED> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let e = self.0;
        let mut t = s.serialize_tuple(7)?;
        t.serialize_element(&RawBytes(&e.id))?;
        t.serialize_element(&RawBytes(&e.pubkey))?;
        t.serialize_element(&e.created_at)?;
        t.serialize_element(&e.kind)?;
        t.serialize_element(&Tags::<TAGGED>(&e.tags))?;
        t.serialize_element(e.content.as_str())?;
        t.serialize_element(&RawBytes(&e.sig))?;
        t.end()
    }
}

/// Checks that the borrowed bytes `input[at..at + len]`, handed to the model
/// as a byte string, were a byte string on the wire; the error (with its
/// offset) is the decode error otherwise.
pub type WireCheck = fn(input: &[u8], at: usize, len: usize) -> Result<(), DecodeError>;

/// What the model's visitors build: an owned [`Event`] ([`Owned`]) or a
/// borrowed [`EventRef`] ([`Borrowed`]).
pub trait Build<'de> {
    /// A string of the event (content or tag value).
    type Str;
    /// The event.
    type Out;
    /// A string the format borrowed from the input.
    fn borrowed(s: &'de str) -> Self::Str;
    /// A string the format copied, or a restored hex value.
    fn owned(s: String) -> Self::Str;
    /// The event from its fields.
    fn event(
        id: [u8; 32],
        pubkey: [u8; 32],
        sig: [u8; 64],
        created_at: u64,
        kind: u16,
        tags: Vec<Vec<Self::Str>>,
        content: Self::Str,
    ) -> Self::Out;
}

/// Builds an owned [`Event`].
pub struct Owned;

/// Builds an [`EventRef`] borrowing the strings the format borrows.
pub struct Borrowed;

impl<'de> Build<'de> for Owned {
    type Str = String;
    type Out = Event;
    #[inline]
    fn borrowed(s: &'de str) -> String {
        s.to_owned()
    }
    #[inline]
    fn owned(s: String) -> String {
        s
    }
    #[inline]
    fn event(
        id: [u8; 32],
        pubkey: [u8; 32],
        sig: [u8; 64],
        created_at: u64,
        kind: u16,
        tags: Vec<Vec<String>>,
        content: String,
    ) -> Event {
        Event::new(id, pubkey, sig, created_at, kind, tags, content)
    }
}

impl<'de> Build<'de> for Borrowed {
    type Str = Cow<'de, str>;
    type Out = EventRef<'de>;
    #[inline]
    fn borrowed(s: &'de str) -> Cow<'de, str> {
        Cow::Borrowed(s)
    }
    #[inline]
    fn owned(s: String) -> Cow<'de, str> {
        Cow::Owned(s)
    }
    #[inline]
    fn event(
        id: [u8; 32],
        pubkey: [u8; 32],
        sig: [u8; 64],
        created_at: u64,
        kind: u16,
        tags: Vec<Vec<Cow<'de, str>>>,
        content: Cow<'de, str>,
    ) -> EventRef<'de> {
        DecodedParts {
            id,
            pubkey,
            sig,
            created_at,
            kind,
            tags,
            content,
        }
        .into_ref()
    }
}

/// Deserialises the positional tuple into an owned [`Event`], enforcing
/// [`Limits`] while reading. Errors raised by the model (limits, canonical
/// form, shape) are recorded so that [`PositionalSeed::error`] can report
/// their [`DecodeErrorKind`] instead of the format's generic message.
#[derive(Debug)]
pub struct PositionalSeed<'l, const TAGGED: bool> {
    limits: &'l Limits,
    base: usize,
    input_len: usize,
    failure: Cell<Option<DecodeErrorKind>>,
    failure_at: Cell<Option<usize>>,
    end: Cell<usize>,
    budget: Cell<usize>,
    wire: Option<(&'l [u8], WireCheck)>,
}

impl<'l, const TAGGED: bool> PositionalSeed<'l, TAGGED> {
    /// A seed for decoding `input` under `limits`.
    pub fn new(input: &[u8], limits: &'l Limits) -> Self {
        Self {
            limits,
            base: input.as_ptr() as usize,
            input_len: input.len(),
            failure: Cell::new(None),
            failure_at: Cell::new(None),
            end: Cell::new(0),
            budget: Cell::new(input.len()),
            wire: None,
        }
    }

    /// Runs `check` on every borrowed byte string of `input` (the same
    /// bytes as given to [`PositionalSeed::new`]) before the model accepts it.
    pub fn with_wire_check(mut self, input: &'l [u8], check: WireCheck) -> Self {
        self.wire = Some((input, check));
        self
    }

    /// The offset just past the last string or byte string borrowed from the
    /// input (the end of `sig` after a successful decode), or 0 when the
    /// format copied instead of borrowing.
    pub fn end(&self) -> usize {
        self.end.get()
    }

    /// Converts a format error into a [`DecodeError`]: a model failure keeps
    /// its kind, otherwise `fallback` classifies the format's error. The
    /// offset is the end of the last borrowed field (a lower bound on where
    /// decoding stopped), or the input length for truncation.
    pub fn error(&self, fallback: DecodeErrorKind) -> DecodeError {
        let kind = self.failure.get().unwrap_or(fallback);
        let offset = if let Some(at) = self.failure_at.get() {
            at
        } else if kind == DecodeErrorKind::Truncated {
            self.input_len
        } else {
            self.end.get()
        };
        DecodeError::at(kind, offset)
    }

    /// The installed [`WireCheck`] on borrowed bytes `s`.
    fn check_wire<E: de::Error>(&self, s: &[u8]) -> Result<(), E> {
        let Some((input, check)) = self.wire else {
            return Ok(());
        };
        let at = (s.as_ptr() as usize).wrapping_sub(self.base);
        check(input, at, s.len()).map_err(|e| {
            if self.failure.get().is_none() {
                self.failure_at.set(Some(e.offset));
            }
            self.fail(e.kind, "wire type")
        })
    }

    fn fail<E: de::Error>(&self, kind: DecodeErrorKind, msg: &'static str) -> E {
        if self.failure.get().is_none() {
            self.failure.set(Some(kind));
        }
        E::custom(msg)
    }

    fn borrowed(&self, s: &[u8]) {
        let start = (s.as_ptr() as usize).wrapping_sub(self.base);
        if start <= self.input_len {
            self.end.set(start + s.len());
        }
    }

    /// Charges `n` bytes (at least 1) of decoded output against the input
    /// length. Every element takes at least one input byte and every payload
    /// byte its own input byte in the formats here, except where a format
    /// can point several elements at shared data (FlexBuffers offsets): the
    /// budget refuses such amplification.
    fn charge<E: de::Error>(&self, n: usize) -> Result<(), E> {
        match self.budget.get().checked_sub(n.max(1)) {
            Some(left) => {
                self.budget.set(left);
                Ok(())
            }
            None => Err(self.fail(
                DecodeErrorKind::LimitExceeded(Limit::EventBytes),
                "amplification",
            )),
        }
    }

    fn cap(&self, hint: Option<usize>, limit: usize) -> usize {
        hint.unwrap_or(0).min(limit).min(self.input_len)
    }

    /// The seed of the borrowed view: the same model, building an
    /// [`EventRef`].
    pub fn view(&self) -> View<'_, 'l, TAGGED> {
        View(self)
    }
}

/// [`PositionalSeed::view`].
pub struct View<'s, 'l, const TAGGED: bool>(&'s PositionalSeed<'l, TAGGED>);

impl<'de, const TAGGED: bool> DeserializeSeed<'de> for View<'_, '_, TAGGED> {
    type Value = EventRef<'de>;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<EventRef<'de>, D::Error> {
        d.deserialize_tuple(7, EventVisitor::<TAGGED, Borrowed>(self.0, PhantomData))
    }
}

impl<'de, const TAGGED: bool> DeserializeSeed<'de> for &PositionalSeed<'_, TAGGED> {
    type Value = Event;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Event, D::Error> {
        d.deserialize_tuple(7, EventVisitor::<TAGGED, Owned>(self, PhantomData))
    }
}

struct EventVisitor<'s, 'l, const TAGGED: bool, M>(&'s PositionalSeed<'l, TAGGED>, PhantomData<M>);

impl<'de, const TAGGED: bool, M: Build<'de>> Visitor<'de> for EventVisitor<'_, '_, TAGGED, M> {
    type Value = M::Out;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a 7-element positional event")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<M::Out, A::Error> {
        let s = self.0;
        if seq.size_hint().is_some_and(|n| n != 7) {
            return Err(s.fail(DecodeErrorKind::Invalid("event array length"), "length"));
        }
        let missing = || s.fail(DecodeErrorKind::Invalid("event array length"), "missing");
        let id = seq
            .next_element_seed(Fixed::<32, TAGGED>(s))?
            .ok_or_else(missing)?;
        let pubkey = seq
            .next_element_seed(Fixed::<32, TAGGED>(s))?
            .ok_or_else(missing)?;
        let created_at: u64 = seq.next_element()?.ok_or_else(missing)?;
        let kind: u16 = seq.next_element()?.ok_or_else(missing)?;
        let tags = seq
            .next_element_seed(TagsSeed::<TAGGED, M>(s, PhantomData))?
            .ok_or_else(missing)?;
        let content = seq
            .next_element_seed(Text::<TAGGED, M>(s, PhantomData))?
            .ok_or_else(missing)?;
        let sig = seq
            .next_element_seed(Fixed::<64, TAGGED>(s))?
            .ok_or_else(missing)?;
        Ok(M::event(id, pubkey, sig, created_at, kind, tags, content))
    }
}

struct Fixed<'s, 'l, const N: usize, const TAGGED: bool>(&'s PositionalSeed<'l, TAGGED>);

impl<'de, const N: usize, const TAGGED: bool> DeserializeSeed<'de> for Fixed<'_, '_, N, TAGGED> {
    type Value = [u8; N];

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<[u8; N], D::Error> {
        d.deserialize_bytes(self)
    }
}

impl<'de, const N: usize, const TAGGED: bool> Visitor<'de> for Fixed<'_, '_, N, TAGGED> {
    type Value = [u8; N];

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a {N}-byte string")
    }

    fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<[u8; N], E> {
        self.0.check_wire(v)?;
        self.0.borrowed(v);
        self.visit_bytes(v)
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<[u8; N], E> {
        v.try_into().map_err(|_| {
            self.0
                .fail(DecodeErrorKind::Invalid("fixed field length"), "length")
        })
    }
}

struct Text<'s, 'l, const TAGGED: bool, M>(&'s PositionalSeed<'l, TAGGED>, PhantomData<M>);

impl<'de, const TAGGED: bool, M: Build<'de>> DeserializeSeed<'de> for Text<'_, '_, TAGGED, M> {
    type Value = M::Str;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<M::Str, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de, const TAGGED: bool, M: Build<'de>> Visitor<'de> for Text<'_, '_, TAGGED, M> {
    type Value = M::Str;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a text string")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<M::Str, E> {
        self.0.borrowed(v.as_bytes());
        self.0.charge(v.len())?;
        Ok(M::borrowed(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<M::Str, E> {
        self.0.charge(v.len())?;
        Ok(M::owned(v.to_owned()))
    }
}

struct TagsSeed<'s, 'l, const TAGGED: bool, M>(&'s PositionalSeed<'l, TAGGED>, PhantomData<M>);

impl<'de, const TAGGED: bool, M: Build<'de>> DeserializeSeed<'de> for TagsSeed<'_, '_, TAGGED, M> {
    type Value = Vec<Vec<M::Str>>;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de, const TAGGED: bool, M: Build<'de>> Visitor<'de> for TagsSeed<'_, '_, TAGGED, M> {
    type Value = Vec<Vec<M::Str>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of tags")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let s = self.0;
        let max = s.limits.max_tags;
        if seq.size_hint().is_some_and(|n| n > max) {
            return Err(s.fail(DecodeErrorKind::LimitExceeded(Limit::Tags), "tags"));
        }
        let mut tags = Vec::with_capacity(s.cap(seq.size_hint(), max));
        while let Some(tag) = seq.next_element_seed(TagSeed::<TAGGED, M>(s, PhantomData))? {
            s.charge(1)?;
            if tags.len() == max {
                return Err(s.fail(DecodeErrorKind::LimitExceeded(Limit::Tags), "tags"));
            }
            tags.push(tag);
        }
        Ok(tags)
    }
}

struct TagSeed<'s, 'l, const TAGGED: bool, M>(&'s PositionalSeed<'l, TAGGED>, PhantomData<M>);

impl<'de, const TAGGED: bool, M: Build<'de>> DeserializeSeed<'de> for TagSeed<'_, '_, TAGGED, M> {
    type Value = Vec<M::Str>;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de, const TAGGED: bool, M: Build<'de>> Visitor<'de> for TagSeed<'_, '_, TAGGED, M> {
    type Value = Vec<M::Str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a tag (array of values)")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let s = self.0;
        let max = s.limits.max_values_per_tag;
        if seq.size_hint().is_some_and(|n| n > max) {
            return Err(s.fail(
                DecodeErrorKind::LimitExceeded(Limit::ValuesPerTag),
                "values",
            ));
        }
        let mut values = Vec::with_capacity(s.cap(seq.size_hint(), max));
        while let Some(v) = seq.next_element_seed(ValueSeed::<TAGGED, M>(s, PhantomData))? {
            if values.len() == max {
                return Err(s.fail(
                    DecodeErrorKind::LimitExceeded(Limit::ValuesPerTag),
                    "values",
                ));
            }
            values.push(v);
        }
        Ok(values)
    }
}

struct ValueSeed<'s, 'l, const TAGGED: bool, M>(&'s PositionalSeed<'l, TAGGED>, PhantomData<M>);

impl<'de, const TAGGED: bool, M: Build<'de>> ValueSeed<'_, '_, TAGGED, M> {
    fn restore<E: de::Error>(&self, v: TagValue<'_>) -> Result<M::Str, E> {
        self.0.charge(match v {
            TagValue::Bytes(b) => b.len(),
            TagValue::Text(t) => t.len(),
        })?;
        restore_packed(v, self.0.limits)
            .map(M::owned)
            .map_err(|k| self.0.fail(k, "tag value"))
    }

    /// [`ValueSeed::restore`] of borrowed text, kept borrowed.
    fn text<E: de::Error>(&self, t: &'de str) -> Result<M::Str, E> {
        self.0.charge(t.len())?;
        check_text(TagValue::Text(t)).map_err(|k| self.0.fail(k, "tag value"))?;
        if t.len() > self.0.limits.max_value_bytes {
            return Err(self.0.fail(
                DecodeErrorKind::LimitExceeded(Limit::ValueBytes),
                "tag value",
            ));
        }
        Ok(M::borrowed(t))
    }
}

impl<'de, const TAGGED: bool, M: Build<'de>> DeserializeSeed<'de> for ValueSeed<'_, '_, TAGGED, M> {
    type Value = M::Str;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<M::Str, D::Error> {
        if TAGGED {
            d.deserialize_enum("TagValue", &["Bytes", "Text"], self)
        } else {
            d.deserialize_any(self)
        }
    }
}

impl<'de, const TAGGED: bool, M: Build<'de>> Visitor<'de> for ValueSeed<'_, '_, TAGGED, M> {
    type Value = M::Str;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a byte or text string")
    }

    fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<M::Str, E> {
        self.0.check_wire(v)?;
        self.0.borrowed(v);
        self.restore(TagValue::Bytes(v))
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<M::Str, E> {
        self.restore(TagValue::Bytes(v))
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<M::Str, E> {
        self.0.borrowed(v.as_bytes());
        self.text(v)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<M::Str, E> {
        self.restore(TagValue::Text(v))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<M::Str, A::Error> {
        let (index, variant): (u32, _) = data.variant()?;
        match index {
            0 => variant.newtype_variant_seed(BytesValue(self)),
            1 => variant.newtype_variant_seed(TextValue(self)),
            _ => Err(self
                .0
                .fail(DecodeErrorKind::Invalid("tag value variant"), "variant")),
        }
    }
}

struct BytesValue<'s, 'l, const TAGGED: bool, M>(ValueSeed<'s, 'l, TAGGED, M>);

impl<'de, const TAGGED: bool, M: Build<'de>> DeserializeSeed<'de>
    for BytesValue<'_, '_, TAGGED, M>
{
    type Value = M::Str;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<M::Str, D::Error> {
        d.deserialize_bytes(self.0)
    }
}

struct TextValue<'s, 'l, const TAGGED: bool, M>(ValueSeed<'s, 'l, TAGGED, M>);

impl<'de, const TAGGED: bool, M: Build<'de>> DeserializeSeed<'de> for TextValue<'_, '_, TAGGED, M> {
    type Value = M::Str;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<M::Str, D::Error> {
        d.deserialize_str(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_policy() {
        let kinds = |s: &str| {
            with_tag_value(s, |v| match v {
                TagValue::Bytes(b) => Some(b.to_vec()),
                TagValue::Text(_) => None,
            })
        };
        assert_eq!(kinds("00ff"), Some(vec![0, 0xff]));
        for s in ["", "0", "AB", "aB", "abc", "zz", "0x"] {
            assert_eq!(kinds(s), None, "{s:?}");
        }
        let long = "ab".repeat(100);
        assert_eq!(kinds(&long), Some(vec![0xab; 100]));
        assert_eq!(kinds(&format!("{long}A")), None);
        let l = Limits::default();
        assert_eq!(
            restore(TagValue::Bytes(&[]), &l),
            Err(DecodeErrorKind::NonCanonical)
        );
        assert_eq!(restore(TagValue::Bytes(&[0xab]), &l).unwrap(), "ab");
        // packable hex as text is a second spelling: refused where hex is packed
        assert_eq!(
            restore_packed(TagValue::Text("ab"), &l),
            Err(DecodeErrorKind::NonCanonical)
        );
        for t in ["", "a", "AB", "abc", "xy"] {
            assert_eq!(restore_packed(TagValue::Text(t), &l).unwrap(), t);
        }
        assert_eq!(restore(TagValue::Text("ab"), &l).unwrap(), "ab");
    }
}

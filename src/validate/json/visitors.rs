//! The serde visitors behind [`deserialize_event`](super::deserialize_event):
//! one `Want` per position of the event (key, hex field, integer, content,
//! tags, tag, value, envelope), each accepting only the JSON types its field
//! allows and recording the broken rule as a typed [`ValidationError`].

use std::cell::Cell;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use super::{Record, RecordKind};
use crate::model::{Event, hex};
use crate::validate::{Limit, Limits, ValidationError};

/// Limits and the typed-error side channel shared by the visitors of one parse.
pub(super) struct Ctx {
    limits: Limits,
    pub(super) rule: Cell<Option<ValidationError>>,
}

impl Ctx {
    pub(super) fn new(limits: &Limits) -> Self {
        Self {
            limits: *limits,
            rule: Cell::new(None),
        }
    }

    /// Records `rule` and turns it into the backend's error type.
    fn fail<E: de::Error>(&self, rule: ValidationError) -> E {
        let e = E::custom(&rule);
        self.rule.set(Some(rule));
        e
    }
}

/// What one position in the event accepts. Every JSON type a position does
/// not accept becomes [`Want::wrong`], a typed error, never serde's generic one.
pub(super) trait Want<'de>: Sized {
    type Out;
    /// The error for a value of JSON type `found` here.
    fn wrong(&self, found: &'static str) -> ValidationError;
    fn str(self, _: &Ctx, _: &str) -> Result<Self::Out, ValidationError> {
        Err(self.wrong("a string"))
    }
    fn string(self, ctx: &Ctx, s: String) -> Result<Self::Out, ValidationError> {
        self.str(ctx, &s)
    }
    fn u64(self, _: u64) -> Result<Self::Out, ValidationError> {
        Err(self.wrong("a number"))
    }
    fn i64(self, _: i64) -> Result<Self::Out, ValidationError> {
        Err(self.wrong("a number"))
    }
    fn f64(self, _: f64) -> Result<Self::Out, ValidationError> {
        Err(self.wrong("a number"))
    }
    fn seq<A: SeqAccess<'de>>(self, ctx: &Ctx, _: A) -> Result<Self::Out, A::Error> {
        Err(ctx.fail(self.wrong("an array")))
    }
    fn map<A: MapAccess<'de>>(self, ctx: &Ctx, _: A) -> Result<Self::Out, A::Error> {
        Err(ctx.fail(self.wrong("an object")))
    }
}

/// Adapts a [`Want`] to serde's seed and visitor traits.
pub(super) struct Seed<'c, T>(pub(super) &'c Ctx, pub(super) T);

impl<'de, T: Want<'de>> DeserializeSeed<'de> for Seed<'_, T> {
    type Value = T::Out;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T::Out, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, T: Want<'de>> Visitor<'de> for Seed<'_, T> {
    type Value = T::Out;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a NIP-01 event")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<T::Out, E> {
        self.1.str(self.0, v).map_err(|e| self.0.fail(e))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<T::Out, E> {
        self.1.string(self.0, v).map_err(|e| self.0.fail(e))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T::Out, E> {
        self.1.u64(v).map_err(|e| self.0.fail(e))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T::Out, E> {
        self.1.i64(v).map_err(|e| self.0.fail(e))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<T::Out, E> {
        self.1.f64(v).map_err(|e| self.0.fail(e))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<T::Out, E> {
        Err(self.0.fail(self.1.wrong("a boolean")))
    }
    fn visit_unit<E: de::Error>(self) -> Result<T::Out, E> {
        Err(self.0.fail(self.1.wrong("null")))
    }
    fn visit_none<E: de::Error>(self) -> Result<T::Out, E> {
        Err(self.0.fail(self.1.wrong("null")))
    }
    fn visit_bytes<E: de::Error>(self, _: &[u8]) -> Result<T::Out, E> {
        Err(self.0.fail(self.1.wrong("bytes")))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<T::Out, A::Error> {
        self.1.seq(self.0, seq)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T::Out, A::Error> {
        self.1.map(self.0, map)
    }
}

const FIELDS: [&str; 7] = [
    "id",
    "pubkey",
    "created_at",
    "kind",
    "tags",
    "content",
    "sig",
];

fn wrong_type(field: &'static str, expected: &'static str) -> ValidationError {
    ValidationError::WrongType { field, expected }
}

/// A bare event object.
pub(super) struct EventWant;

impl<'de> Want<'de> for EventWant {
    type Out = Event;
    fn wrong(&self, found: &'static str) -> ValidationError {
        ValidationError::NotAnEvent(format!("expected an event object, found {found}"))
    }
    fn map<A: MapAccess<'de>>(self, ctx: &Ctx, mut map: A) -> Result<Event, A::Error> {
        let mut event = Event {
            id: [0; 32],
            pubkey: [0; 32],
            sig: [0; 64],
            created_at: 0,
            kind: 0,
            tags: Vec::new(),
            content: String::new(),
        };
        let mut seen = 0u8;
        while let Some(i) = map.next_key_seed(Seed(ctx, KeyWant))? {
            if seen & (1 << i) != 0 {
                return Err(ctx.fail(ValidationError::DuplicateField(FIELDS[i].into())));
            }
            seen |= 1 << i;
            match i {
                0 => event.id = map.next_value_seed(Seed(ctx, HexWant::<32>("id")))?,
                1 => event.pubkey = map.next_value_seed(Seed(ctx, HexWant::<32>("pubkey")))?,
                2 => {
                    event.created_at =
                        map.next_value_seed(Seed(ctx, IntWant("created_at", u64::MAX)))?;
                }
                3 => {
                    let kind =
                        map.next_value_seed(Seed(ctx, IntWant("kind", u64::from(u16::MAX))))?;
                    event.kind = u16::try_from(kind).expect("range checked while reading");
                }
                4 => event.tags = map.next_value_seed(Seed(ctx, TagsWant))?,
                5 => event.content = map.next_value_seed(Seed(ctx, ContentWant))?,
                _ => event.sig = map.next_value_seed(Seed(ctx, HexWant::<64>("sig")))?,
            }
        }
        if let Some(i) = (0..FIELDS.len()).find(|i| seen & (1 << i) == 0) {
            return Err(ctx.fail(ValidationError::MissingField(FIELDS[i])));
        }
        Ok(event)
    }
}

/// An object key: the index of a NIP-01 field.
struct KeyWant;

impl Want<'_> for KeyWant {
    type Out = usize;
    fn wrong(&self, found: &'static str) -> ValidationError {
        ValidationError::UnknownField(format!("<{found}>"))
    }
    fn str(self, _: &Ctx, key: &str) -> Result<usize, ValidationError> {
        FIELDS
            .iter()
            .position(|f| *f == key)
            .ok_or_else(|| ValidationError::UnknownField(key.into()))
    }
}

/// Lowercase hex of exactly `2 * N` characters.
struct HexWant<const N: usize>(&'static str);

impl<const N: usize> Want<'_> for HexWant<N> {
    type Out = [u8; N];
    fn wrong(&self, _: &'static str) -> ValidationError {
        wrong_type(self.0, "a string")
    }
    fn str(self, _: &Ctx, s: &str) -> Result<[u8; N], ValidationError> {
        hex::decode_array::<N>(s).ok_or(ValidationError::BadHex {
            field: self.0,
            len: 2 * N,
        })
    }
}

/// A non-negative integer up to a maximum.
struct IntWant(&'static str, u64);

impl Want<'_> for IntWant {
    type Out = u64;
    fn wrong(&self, _: &'static str) -> ValidationError {
        wrong_type(self.0, "an integer")
    }
    fn u64(self, x: u64) -> Result<u64, ValidationError> {
        if x <= self.1 {
            Ok(x)
        } else {
            Err(ValidationError::OutOfRange {
                field: self.0,
                detail: x.to_string(),
            })
        }
    }
    fn i64(self, x: i64) -> Result<u64, ValidationError> {
        match u64::try_from(x) {
            Ok(x) => self.u64(x),
            Err(_) => Err(ValidationError::OutOfRange {
                field: self.0,
                detail: x.to_string(),
            }),
        }
    }
    fn f64(self, x: f64) -> Result<u64, ValidationError> {
        if x.fract() != 0.0 {
            Err(self.wrong("a number"))
        } else {
            Err(ValidationError::OutOfRange {
                field: self.0,
                detail: x.to_string(),
            })
        }
    }
}

/// The content string.
struct ContentWant;

impl Want<'_> for ContentWant {
    type Out = String;
    fn wrong(&self, _: &'static str) -> ValidationError {
        wrong_type("content", "a string")
    }
    fn str(self, _: &Ctx, s: &str) -> Result<String, ValidationError> {
        Ok(s.to_owned())
    }
    fn string(self, _: &Ctx, s: String) -> Result<String, ValidationError> {
        Ok(s)
    }
}

fn wrong_tags() -> ValidationError {
    wrong_type("tags", "an array of arrays of strings")
}

fn limit(what: Limit, limit: usize, actual: usize) -> ValidationError {
    ValidationError::LimitExceeded {
        what: what.name(),
        limit,
        actual,
    }
}

/// The tags array; counted against `max_tags` as each tag arrives.
struct TagsWant;

impl<'de> Want<'de> for TagsWant {
    type Out = Vec<Vec<String>>;
    fn wrong(&self, _: &'static str) -> ValidationError {
        wrong_tags()
    }
    fn seq<A: SeqAccess<'de>>(self, ctx: &Ctx, mut seq: A) -> Result<Self::Out, A::Error> {
        let max = ctx.limits.max_tags;
        // A size hint may echo a declared count (binary backends), so it
        // only seeds a small initial capacity.
        let mut tags = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(max).min(64));
        while let Some(tag) = seq.next_element_seed(Seed(ctx, TagWant))? {
            if tags.len() == max {
                return Err(ctx.fail(limit(Limit::Tags, max, max + 1)));
            }
            tags.push(tag);
        }
        Ok(tags)
    }
}

/// One tag; counted against `max_values_per_tag` as each value arrives.
struct TagWant;

impl<'de> Want<'de> for TagWant {
    type Out = Vec<String>;
    fn wrong(&self, _: &'static str) -> ValidationError {
        wrong_tags()
    }
    fn seq<A: SeqAccess<'de>>(self, ctx: &Ctx, mut seq: A) -> Result<Self::Out, A::Error> {
        let max = ctx.limits.max_values_per_tag;
        let mut values = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(max).min(16));
        while let Some(value) = seq.next_element_seed(Seed(ctx, ValueWant))? {
            if values.len() == max {
                return Err(ctx.fail(limit(Limit::ValuesPerTag, max, max + 1)));
            }
            values.push(value);
        }
        Ok(values)
    }
}

/// One tag value, checked against `max_value_bytes`.
struct ValueWant;

impl Want<'_> for ValueWant {
    type Out = String;
    fn wrong(&self, _: &'static str) -> ValidationError {
        wrong_tags()
    }
    fn str(self, ctx: &Ctx, s: &str) -> Result<String, ValidationError> {
        check_value(ctx, s)?;
        Ok(s.to_owned())
    }
    fn string(self, ctx: &Ctx, s: String) -> Result<String, ValidationError> {
        check_value(ctx, &s)?;
        Ok(s)
    }
}

fn check_value(ctx: &Ctx, s: &str) -> Result<(), ValidationError> {
    let max = ctx.limits.max_value_bytes;
    if s.len() > max {
        return Err(limit(Limit::ValueBytes, max, s.len()));
    }
    Ok(())
}

/// A bare event object or a relay `EVENT` envelope.
pub(super) struct RecordWant;

fn not_envelope() -> ValidationError {
    ValidationError::NotAnEvent("array is not [\"EVENT\",{…}] or [\"EVENT\",subid,{…}]".into())
}

impl<'de> Want<'de> for RecordWant {
    type Out = Record;
    fn wrong(&self, found: &'static str) -> ValidationError {
        ValidationError::NotAnEvent(format!("found {found}"))
    }
    fn map<A: MapAccess<'de>>(self, ctx: &Ctx, map: A) -> Result<Record, A::Error> {
        Ok(Record {
            event: EventWant.map(ctx, map)?,
            kind: RecordKind::Event,
        })
    }
    fn seq<A: SeqAccess<'de>>(self, ctx: &Ctx, mut seq: A) -> Result<Record, A::Error> {
        present(ctx, seq.next_element_seed(Seed(ctx, VerbWant))?)?;
        let (event, subscription) =
            match present(ctx, seq.next_element_seed(Seed(ctx, SubOrEvent))?)? {
                SubOrEventOut::Event(event) => (event, None),
                SubOrEventOut::Sub(sub) => (
                    present(ctx, seq.next_element_seed(Seed(ctx, EnvelopeEvent))?)?,
                    Some(sub),
                ),
            };
        if seq.next_element_seed(Seed(ctx, Nothing))?.is_some() {
            return Err(ctx.fail(not_envelope()));
        }
        Ok(Record {
            event,
            kind: RecordKind::Envelope { subscription },
        })
    }
}

/// The element an envelope needs, or not-an-event.
fn present<T, E: de::Error>(ctx: &Ctx, x: Option<T>) -> Result<T, E> {
    x.ok_or_else(|| ctx.fail(not_envelope()))
}

/// The `"EVENT"` verb of an envelope.
struct VerbWant;

impl Want<'_> for VerbWant {
    type Out = ();
    fn wrong(&self, _: &'static str) -> ValidationError {
        not_envelope()
    }
    fn str(self, _: &Ctx, s: &str) -> Result<(), ValidationError> {
        if s == "EVENT" {
            Ok(())
        } else {
            Err(not_envelope())
        }
    }
}

/// The second envelope element: a subscription id or the event.
struct SubOrEvent;

enum SubOrEventOut {
    Sub(String),
    Event(Event),
}

impl<'de> Want<'de> for SubOrEvent {
    type Out = SubOrEventOut;
    fn wrong(&self, _: &'static str) -> ValidationError {
        not_envelope()
    }
    fn str(self, _: &Ctx, s: &str) -> Result<SubOrEventOut, ValidationError> {
        Ok(SubOrEventOut::Sub(s.to_owned()))
    }
    fn map<A: MapAccess<'de>>(self, ctx: &Ctx, map: A) -> Result<SubOrEventOut, A::Error> {
        EventWant.map(ctx, map).map(SubOrEventOut::Event)
    }
}

/// The event after a subscription id.
struct EnvelopeEvent;

impl<'de> Want<'de> for EnvelopeEvent {
    type Out = Event;
    fn wrong(&self, _: &'static str) -> ValidationError {
        not_envelope()
    }
    fn map<A: MapAccess<'de>>(self, ctx: &Ctx, map: A) -> Result<Event, A::Error> {
        EventWant.map(ctx, map)
    }
}

/// Nothing may follow the event in an envelope.
struct Nothing;

impl Want<'_> for Nothing {
    type Out = ();
    fn wrong(&self, _: &'static str) -> ValidationError {
        not_envelope()
    }
}

//! Structural parsing of NIP-01 JSON into an [`Event`].
//!
//! Accepts an event object, or a relay envelope `["EVENT",subid,{…}]` /
//! `["EVENT",{…}]` through [`parse_record`]. Fields are checked for presence,
//! type, duplicates and lowercase hex; unknown fields are rejected because no
//! binary profile could carry them.
//!
//! The field rules live in ONE place, [`deserialize_event`]: a set of serde
//! visitors that work over any self-describing serde `Deserializer`
//! (serde_json here, sonic-rs and simd-json in their profiles). They stream:
//! hex is decoded straight from the parser's string, integers are
//! range-checked as they are read, tag counts, values per tag and value
//! lengths are checked as each element arrives, and no `serde_json::Value`
//! tree is built. A rule violation is recorded as a typed
//! [`ValidationError`] beside the parser's own error, so every backend
//! reports the same [`ValidationError::code`] for the same input.

use std::cell::Cell;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use super::{Limit, Limits, ValidationError};
use crate::model::{Event, hex};

/// How an event arrived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordKind {
    /// A bare event object.
    Event,
    /// Inside a relay `EVENT` message, with the subscription id if present.
    Envelope {
        /// The subscription id of `["EVENT",subid,{…}]`.
        subscription: Option<String>,
    },
}

/// A structurally valid event and how it was wrapped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The event (id and signature not yet checked).
    pub event: Event,
    /// Bare or enveloped.
    pub kind: RecordKind,
}

/// A failed [`deserialize_event`]: the parser's error, and the typed rule
/// that was broken when the failure was a field rule rather than syntax.
#[derive(Debug)]
pub struct Rejected<E> {
    /// The NIP-01 field rule or limit that failed, if one did.
    pub rule: Option<ValidationError>,
    /// The deserializer's error (carries the backend's position).
    pub error: E,
}

/// Reads one bare event object from any self-describing serde deserializer,
/// enforcing the NIP-01 field rules and `limits` (except `max_event_bytes`,
/// which the caller checks on the input length) while parsing.
///
/// The caller checks for trailing input afterwards (`end()` on serde_json and
/// sonic-rs deserializers).
pub fn deserialize_event<'de, D: Deserializer<'de>>(
    d: D,
    limits: &Limits,
) -> Result<Event, Rejected<D::Error>> {
    let ctx = Ctx::new(limits);
    Seed(&ctx, EventWant)
        .deserialize(d)
        .map_err(|error| Rejected {
            rule: ctx.rule.take(),
            error,
        })
}

/// Parses one bare event object; checks structure and limits only.
pub fn parse_event_json(bytes: &[u8], limits: &Limits) -> Result<Event, ValidationError> {
    parse_event_json_at(bytes, limits).map_err(|(e, _)| e)
}

/// Parses an event object or a relay `EVENT` envelope; checks structure and
/// limits only. A well-formed object with neither `id` nor `sig` that breaks
/// a field rule is `not-an-event` (a client's cache entry or an unsigned
/// template), not an event with fields missing.
pub fn parse_record(bytes: &[u8], limits: &Limits) -> Result<Record, ValidationError> {
    check_size(bytes, limits).map_err(|(e, _)| e)?;
    let ctx = Ctx::new(limits);
    let mut de = serde_json::Deserializer::from_slice(bytes);
    Seed(&ctx, RecordWant)
        .deserialize(&mut de)
        .and_then(|r| de.end().map(|()| r))
        .map_err(|e| match ctx.rule.take() {
            Some(rule) => match syntax_first(bytes, rule) {
                (rule, None) => unsigned_object(bytes).unwrap_or(rule),
                (syntax, Some(_)) => syntax,
            },
            None => ValidationError::MalformedJson(e.to_string()),
        })
}

/// `not-an-event` for a well-formed object with neither `id` nor `sig`;
/// re-parses its keys, on the error path only.
fn unsigned_object(bytes: &[u8]) -> Option<ValidationError> {
    let keys: std::collections::BTreeMap<String, de::IgnoredAny> =
        serde_json::from_slice(bytes).ok()?;
    if keys.contains_key("id") || keys.contains_key("sig") {
        return None;
    }
    let names: Vec<&str> = keys.keys().map(String::as_str).take(8).collect();
    let more = if keys.len() > names.len() {
        ", …"
    } else {
        ""
    };
    Some(ValidationError::NotAnEvent(format!(
        "an object with neither id nor sig (keys: {}{more})",
        names.join(", ")
    )))
}

/// A broken field rule in input that is not even well-formed JSON reports
/// the syntax error, as a whole-document parser would: the streaming
/// visitors meet rules first, so this re-parses, on the error path only.
fn syntax_first(bytes: &[u8], rule: ValidationError) -> (ValidationError, Option<usize>) {
    match serde_json::from_slice::<de::IgnoredAny>(bytes) {
        Ok(_) => (rule, None),
        Err(e) => (
            ValidationError::MalformedJson(e.to_string()),
            Some(byte_offset(bytes, e.line(), e.column())),
        ),
    }
}

/// Like [`parse_event_json`], with the byte offset where the error was
/// detected (for a broken field rule, where the parser stood when it broke).
/// Input that is not well-formed JSON reports the syntax error even when a
/// field rule broke earlier in it.
pub fn parse_event_json_at(
    bytes: &[u8],
    limits: &Limits,
) -> Result<Event, (ValidationError, usize)> {
    check_size(bytes, limits)?;
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let offset = |e: &serde_json::Error| byte_offset(bytes, e.line(), e.column());
    let event = deserialize_event(&mut de, limits).map_err(|r| {
        let at = offset(&r.error);
        match r.rule {
            Some(rule) => match syntax_first(bytes, rule) {
                (e, Some(syntax_at)) => (e, syntax_at),
                (e, None) => (e, at),
            },
            None => (ValidationError::MalformedJson(r.error.to_string()), at),
        }
    })?;
    de.end()
        .map_err(|e| (ValidationError::MalformedJson(e.to_string()), offset(&e)))?;
    Ok(event)
}

/// The `max_event_bytes` check every JSON backend runs first.
pub(crate) fn check_size(bytes: &[u8], limits: &Limits) -> Result<(), (ValidationError, usize)> {
    if bytes.len() > limits.max_event_bytes {
        return Err((
            ValidationError::LimitExceeded {
                what: Limit::EventBytes.name(),
                limit: limits.max_event_bytes,
                actual: bytes.len(),
            },
            limits.max_event_bytes,
        ));
    }
    Ok(())
}

/// Converts 1-based line and column to a byte offset.
pub(crate) fn byte_offset(bytes: &[u8], line: usize, column: usize) -> usize {
    let line_start = if line <= 1 {
        0
    } else {
        bytes
            .iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .nth(line - 2)
            .map_or(bytes.len(), |(i, _)| i + 1)
    };
    (line_start + column.saturating_sub(1)).min(bytes.len())
}

/// Limits and the typed-error side channel shared by the visitors of one parse.
struct Ctx {
    limits: Limits,
    rule: Cell<Option<ValidationError>>,
}

impl Ctx {
    fn new(limits: &Limits) -> Self {
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
trait Want<'de>: Sized {
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
struct Seed<'c, T>(&'c Ctx, T);

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
struct EventWant;

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
struct RecordWant;

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

#[cfg(test)]
mod tests {
    use super::*;

    const EVENT: &str = r#"{"id":"0000000000000000000000000000000000000000000000000000000000000001","pubkey":"0000000000000000000000000000000000000000000000000000000000000002","created_at":1,"kind":1,"tags":[["e","x"]],"content":"hi","sig":"00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000003"}"#;

    fn code(json: &str) -> &'static str {
        parse_record(json.as_bytes(), &Limits::default())
            .unwrap_err()
            .code()
    }

    #[test]
    fn accepts_object_and_envelopes() {
        let l = Limits::default();
        let bare = parse_record(EVENT.as_bytes(), &l).unwrap();
        assert_eq!(bare.kind, RecordKind::Event);
        assert_eq!(bare.event.tags, vec![vec!["e".to_string(), "x".into()]]);
        let env = parse_record(format!("[\"EVENT\",\"s1\",{EVENT}]").as_bytes(), &l).unwrap();
        assert_eq!(env.event, bare.event);
        assert_eq!(
            env.kind,
            RecordKind::Envelope {
                subscription: Some("s1".into())
            }
        );
        let env2 = parse_record(format!("[\"EVENT\",{EVENT}]").as_bytes(), &l).unwrap();
        assert_eq!(env2.event, bare.event);
    }

    #[test]
    fn structural_rejections_have_precise_codes() {
        assert_eq!(code("{\"id\":"), "malformed-json");
        assert_eq!(code("[1,2]"), "not-an-event");
        assert_eq!(code(&format!("[\"EOSE\",{EVENT}]")), "not-an-event");
        assert_eq!(code(&EVENT.replace("\"kind\":1,", "")), "missing-field");
        // No id and no sig: some other record, whatever else it breaks.
        assert_eq!(
            code("{\"kind\":10000128,\"content\":\"{}\"}"),
            "not-an-event"
        );
        assert_eq!(code("{\"kind\":1,\"pubkey\":\"ab\"}"), "not-an-event");
        assert_eq!(code("{}"), "not-an-event");
        assert_eq!(code("{\"kind\":1,\"sig\":\"ab\"}"), "bad-hex");
        assert_eq!(code("{\"kind\":1,"), "malformed-json");
        assert_eq!(
            code(&EVENT.replace("\"kind\":1", "\"kind\":\"1\"")),
            "wrong-type"
        );
        assert_eq!(
            code(&EVENT.replace("\"kind\":1", "\"kind\":65536")),
            "out-of-range"
        );
        assert_eq!(
            code(&EVENT.replace("\"kind\":1", "\"kind\":-1")),
            "out-of-range"
        );
        assert_eq!(
            code(&EVENT.replace("\"kind\":1", "\"kind\":1.5")),
            "wrong-type"
        );
        assert_eq!(
            code(&EVENT.replace("\"created_at\":1", "\"created_at\":1,\"kind\":2")),
            "duplicate-field"
        );
        assert_eq!(
            code(&EVENT.replace("\"content\"", "\"extra\":0,\"content\"")),
            "unknown-field"
        );
        assert_eq!(code(&EVENT.replace("\"id\":\"0", "\"id\":\"A")), "bad-hex");
        assert_eq!(code(&EVENT.replace("\"id\":\"0", "\"id\":\"")), "bad-hex");
        assert_eq!(
            code(&EVENT.replace("[[\"e\",\"x\"]]", "[[\"e\",1]]")),
            "wrong-type"
        );
        assert_eq!(
            code(&EVENT.replace("[[\"e\",\"x\"]]", "[\"e\"]")),
            "wrong-type"
        );
        assert_eq!(
            code(&EVENT.replace("[[\"e\",\"x\"]]", "[[[\"e\"]]]")),
            "wrong-type"
        );
        assert_eq!(
            code(&EVENT.replace("\"hi\"", "\"\\ud800\"")),
            "malformed-json"
        );
    }

    #[test]
    fn limits_apply_while_parsing() {
        let small = Limits {
            max_event_bytes: 100,
            ..Limits::default()
        };
        let err = parse_record(EVENT.as_bytes(), &small).unwrap_err();
        assert_eq!(err.code(), "limit-exceeded");
        let one_value = Limits {
            max_values_per_tag: 1,
            ..Limits::default()
        };
        let err = parse_record(EVENT.as_bytes(), &one_value).unwrap_err();
        assert!(err.to_string().contains("values per tag 2 > 1"), "{err}");
    }
}

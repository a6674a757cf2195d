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

use serde::de::{self, DeserializeSeed, Deserializer};

use super::{Limit, Limits, ValidationError};
use crate::model::Event;

mod visitors;

use visitors::{Ctx, EventWant, RecordWant, Seed};

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
pub struct ParseRejection<E> {
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
) -> Result<Event, ParseRejection<D::Error>> {
    let ctx = Ctx::new(limits);
    Seed(&ctx, EventWant)
        .deserialize(d)
        .map_err(|error| ParseRejection {
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

//! Structural parsing of NIP-01 JSON into an [`Event`].
//!
//! Accepts an event object, or a relay envelope `["EVENT",subid,{…}]` /
//! `["EVENT",{…}]` through [`parse_record`]. Fields are checked for presence,
//! type, duplicates and lowercase hex; unknown fields are rejected because no
//! binary profile could carry them.

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::{Limits, ValidationError};
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

/// Parses one bare event object; checks structure and limits only.
pub fn parse_event_json(bytes: &[u8], limits: &Limits) -> Result<Event, ValidationError> {
    parse_event_json_at(bytes, limits).map_err(|(e, _)| e)
}

/// Parses an event object or a relay `EVENT` envelope; checks structure and
/// limits only.
pub fn parse_record(bytes: &[u8], limits: &Limits) -> Result<Record, ValidationError> {
    match parse_raw(bytes, limits)? {
        Raw::Object(fields) => Ok(Record {
            event: event_from_fields(fields, limits)?,
            kind: RecordKind::Event,
        }),
        Raw::Array(items) => {
            let mut items = items.into_iter();
            match (items.next(), items.next(), items.next(), items.next()) {
                (Some(Raw::Str(verb)), Some(Raw::Object(fields)), None, None)
                    if verb == "EVENT" =>
                {
                    Ok(Record {
                        event: event_from_fields(fields, limits)?,
                        kind: RecordKind::Envelope { subscription: None },
                    })
                }
                (Some(Raw::Str(verb)), Some(Raw::Str(sub)), Some(Raw::Object(fields)), None)
                    if verb == "EVENT" =>
                {
                    Ok(Record {
                        event: event_from_fields(fields, limits)?,
                        kind: RecordKind::Envelope {
                            subscription: Some(sub),
                        },
                    })
                }
                _ => Err(ValidationError::NotAnEvent(
                    "array is not [\"EVENT\",{…}] or [\"EVENT\",subid,{…}]".into(),
                )),
            }
        }
        other => Err(ValidationError::NotAnEvent(format!(
            "found {}",
            other.describe()
        ))),
    }
}

/// Like [`parse_event_json`], with the byte offset of a syntax error (0 for
/// errors that concern the event as a whole).
pub fn parse_event_json_at(
    bytes: &[u8],
    limits: &Limits,
) -> Result<Event, (ValidationError, usize)> {
    match parse_raw_at(bytes, limits) {
        Ok(Raw::Object(fields)) => event_from_fields(fields, limits).map_err(|e| (e, 0)),
        Ok(other) => Err((
            ValidationError::NotAnEvent(format!(
                "expected an event object, found {}",
                other.describe()
            )),
            0,
        )),
        Err(e) => Err(e),
    }
}

fn parse_raw(bytes: &[u8], limits: &Limits) -> Result<Raw, ValidationError> {
    parse_raw_at(bytes, limits).map_err(|(e, _)| e)
}

fn parse_raw_at(bytes: &[u8], limits: &Limits) -> Result<Raw, (ValidationError, usize)> {
    if bytes.len() > limits.max_event_bytes {
        return Err((
            ValidationError::LimitExceeded {
                what: "event bytes",
                limit: limits.max_event_bytes,
                actual: bytes.len(),
            },
            limits.max_event_bytes,
        ));
    }
    serde_json::from_slice(bytes).map_err(|e| {
        let offset = byte_offset(bytes, e.line(), e.column());
        (ValidationError::MalformedJson(e.to_string()), offset)
    })
}

/// Converts serde_json's 1-based line and column to a byte offset.
fn byte_offset(bytes: &[u8], line: usize, column: usize) -> usize {
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

/// The outer shape of a record, with object fields kept in order so that
/// duplicates are visible.
enum Raw {
    Object(Vec<(String, Value)>),
    Array(Vec<Raw>),
    Str(String),
    Other(&'static str),
}

impl Raw {
    fn describe(&self) -> &'static str {
        match self {
            Raw::Object(_) => "an object",
            Raw::Array(_) => "an array",
            Raw::Str(_) => "a string",
            Raw::Other(what) => what,
        }
    }
}

impl<'de> Deserialize<'de> for Raw {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(RawVisitor)
    }
}

struct RawVisitor;

impl<'de> Visitor<'de> for RawVisitor {
    type Value = Raw;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Raw, A::Error> {
        let mut fields = Vec::with_capacity(7);
        while let Some(entry) = map.next_entry::<String, Value>()? {
            fields.push(entry);
        }
        Ok(Raw::Object(fields))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Raw, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Raw>()? {
            items.push(item);
        }
        Ok(Raw::Array(items))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Raw, E> {
        Ok(Raw::Str(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Raw, E> {
        Ok(Raw::Str(v))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Raw, E> {
        Ok(Raw::Other("a boolean"))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Raw, E> {
        Ok(Raw::Other("a number"))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Raw, E> {
        Ok(Raw::Other("a number"))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Raw, E> {
        Ok(Raw::Other("a number"))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Raw, E> {
        Ok(Raw::Other("null"))
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

fn event_from_fields(
    fields: Vec<(String, Value)>,
    limits: &Limits,
) -> Result<Event, ValidationError> {
    let mut slots: [Option<Value>; 7] = Default::default();
    for (key, value) in fields {
        let Some(i) = FIELDS.iter().position(|f| *f == key) else {
            return Err(ValidationError::UnknownField(key));
        };
        if slots[i].replace(value).is_some() {
            return Err(ValidationError::DuplicateField(key));
        }
    }
    let mut take = |i: usize| {
        slots[i]
            .take()
            .ok_or(ValidationError::MissingField(FIELDS[i]))
    };
    let id = hex_field::<32>(take(0)?, "id")?;
    let pubkey = hex_field::<32>(take(1)?, "pubkey")?;
    let created_at = integer_field(take(2)?, "created_at", u64::MAX)?;
    let kind = integer_field(take(3)?, "kind", u64::from(u16::MAX))?;
    let tags = tags_field(take(4)?, limits)?;
    let content = match take(5)? {
        Value::String(s) => s,
        _ => return Err(wrong_type("content", "a string")),
    };
    let sig = hex_field::<64>(take(6)?, "sig")?;
    Ok(Event {
        id,
        pubkey,
        sig,
        created_at,
        kind: u16::try_from(kind).expect("range checked above"),
        tags,
        content,
    })
}

fn wrong_type(field: &'static str, expected: &'static str) -> ValidationError {
    ValidationError::WrongType { field, expected }
}

fn hex_field<const N: usize>(v: Value, field: &'static str) -> Result<[u8; N], ValidationError> {
    let Value::String(s) = v else {
        return Err(wrong_type(field, "a string"));
    };
    hex::decode_array::<N>(&s).ok_or(ValidationError::BadHex { field, len: 2 * N })
}

fn integer_field(v: Value, field: &'static str, max: u64) -> Result<u64, ValidationError> {
    let Value::Number(n) = v else {
        return Err(wrong_type(field, "an integer"));
    };
    match n.as_u64() {
        Some(x) if x <= max => Ok(x),
        _ if n.is_f64() && n.as_f64().is_some_and(|f| f.fract() != 0.0) => {
            Err(wrong_type(field, "an integer"))
        }
        _ => Err(ValidationError::OutOfRange {
            field,
            detail: n.to_string(),
        }),
    }
}

fn tags_field(v: Value, limits: &Limits) -> Result<Vec<Vec<String>>, ValidationError> {
    let Value::Array(tags) = v else {
        return Err(wrong_type("tags", "an array of arrays of strings"));
    };
    if tags.len() > limits.max_tags {
        return Err(ValidationError::LimitExceeded {
            what: "tags",
            limit: limits.max_tags,
            actual: tags.len(),
        });
    }
    tags.into_iter()
        .map(|tag| {
            let Value::Array(values) = tag else {
                return Err(wrong_type("tags", "an array of arrays of strings"));
            };
            if values.len() > limits.max_values_per_tag {
                return Err(ValidationError::LimitExceeded {
                    what: "values per tag",
                    limit: limits.max_values_per_tag,
                    actual: values.len(),
                });
            }
            values
                .into_iter()
                .map(|value| match value {
                    Value::String(s) if s.len() > limits.max_value_bytes => {
                        Err(ValidationError::LimitExceeded {
                            what: "tag value bytes",
                            limit: limits.max_value_bytes,
                            actual: s.len(),
                        })
                    }
                    Value::String(s) => Ok(s),
                    _ => Err(wrong_type("tags", "an array of arrays of strings")),
                })
                .collect()
        })
        .collect()
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

//! `json`: NIP-01 JSON with serde_json, the baseline every other profile is
//! compared against.
//!
//! Layout: one compact JSON object, fields in NIP-01 order
//! `{"id","pubkey","created_at","kind","tags","content","sig"}`, no
//! whitespace, RFC 8259 string escaping (control characters as `\u00XX`).
//! Canonical form: exactly what [`Event::write_json`] writes, so decode then
//! encode reproduces canonical input byte for byte. Hex: id, pubkey and sig
//! are lowercase hex strings; decoding rejects any other hex. Decoding is
//! strict: unknown or duplicate fields are errors.

use crate::codec::{
    Capabilities, Codec, DecodeError, DecodeErrorKind, EncodeError, Family, Limits, Profile,
};
use crate::model::Event;
use crate::validate::{ValidationError, parse_event_json_at};

/// The registry entry.
pub const PROFILE: Profile = Profile {
    id: "json",
    family: Family::NostrBaseline,
    capabilities: Capabilities {
        deterministic: true,
        self_describing: true,
    },
    enabled: true,
    codec: &Json,
};

/// serde_json, NIP-01 field order.
pub struct Json;

impl Codec for Json {
    fn hostile(&self) -> Option<&dyn crate::codec::HostileInputs> {
        Some(&crate::codec::hostile::Json)
    }

    fn encode(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        event.write_json(out);
        Ok(())
    }

    fn decode(&self, bytes: &[u8], limits: &Limits) -> Result<Event, DecodeError> {
        parse_event_json_at(bytes, limits)
            .map_err(|(e, offset)| DecodeError::at(kind_of(&e), offset))
    }
}

/// The decode error kind for a structural JSON error.
pub fn kind_of(e: &ValidationError) -> DecodeErrorKind {
    match e {
        ValidationError::LimitExceeded { what, .. } => DecodeErrorKind::LimitExceeded(what),
        ValidationError::MalformedJson(m) if m.contains("EOF") => DecodeErrorKind::Truncated,
        ValidationError::MalformedJson(m) if m.contains("unicode") || m.contains("UTF-8") => {
            DecodeErrorKind::BadUtf8
        }
        ValidationError::MalformedJson(m) if m.contains("trailing") => {
            DecodeErrorKind::TrailingBytes
        }
        other => DecodeErrorKind::Invalid(other.code()),
    }
}

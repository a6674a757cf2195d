//! `json-sonic`: the `json` profile's bytes, parsed and written with
//! [sonic-rs](https://github.com/cloudwego/sonic-rs) (SIMD JSON, ByteDance).
//!
//! Layout: identical to [`json`](super::json): one compact JSON object,
//! fields in NIP-01 order `{"id","pubkey","created_at","kind","tags",
//! "content","sig"}`, no whitespace, RFC 8259 escaping with control
//! characters as `\u00XX`. Canonical form: exactly what
//! [`Event::write_json`] writes; the encoder is `write_json` with sonic-rs's
//! SIMD string escaper, and the tests check it is byte-identical to `json` on
//! the generated corpus and on every character class (so decode→encode
//! reproduces canonical input). Hex: id, pubkey and sig are lowercase hex
//! strings, decoded straight from the parser's string; any other hex is
//! rejected.
//!
//! Lenient where JSON is: the decoder accepts any RFC 8259 spelling of the
//! event, so insignificant whitespace (spaces, `\r`, `\n`, tabs between
//! tokens) and escapes that need not be escapes (`\u0021` for `!`, `\/`)
//! decode to the same event and re-encode canonically. Relays and clients
//! write such JSON, and NIP-01 ids are computed over a re-serialisation, not
//! the received bytes, so refusing it would refuse valid events. The
//! robustness report counts these `accepted-noncanonical`; the value never
//! changes.
//!
//! Decoding: sonic-rs's serde `Deserializer` drives the shared NIP-01 field
//! visitors ([`deserialize_event`]), so missing, duplicate and unknown
//! fields, hex lengths, integer ranges and every [`Limits`] bound are checked
//! exactly as in `json`, while parsing, with no intermediate value tree.
//! sonic-rs validates the whole input as UTF-8 up front (its `&[u8]` reader
//! does), then parses; trailing non-whitespace is `TrailingBytes`.
//! Differences from upstream usage: none; `sonic_rs::from_slice` is the same
//! reader plus an `end()` check, which we call explicitly.

use crate::codec::{
    Capabilities, Codec, DecodeError, DecodeErrorKind, EncodeError, Family, Limits, Profile,
};
use crate::model::Event;
use crate::profiles::json::kind_of;
use crate::validate::{check_size, deserialize_event};

/// The registry entry.
pub const PROFILE: Profile = Profile {
    id: "json-sonic",
    family: Family::NostrBaseline,
    capabilities: Capabilities {
        deterministic: true,
        self_describing: true,
    },
    enabled: true,
    codec: &JsonSonic,
    packs: &[],
    evolution: &evolution::ADAPTER,
    maintenance: crate::codec::Maintenance {
        sources: &[file!()],
        shared: &["src/profiles/json.rs", "src/validate/json.rs"],
        schema: crate::codec::Schema::None,
        crates: &["serde", "sonic-rs"],
        spec: crate::codec::maintenance::JSON,
    },
};

/// sonic-rs, NIP-01 field order.
pub struct JsonSonic;

impl Codec for JsonSonic {
    fn hostile(&self) -> Option<&dyn crate::codec::HostileInputs> {
        Some(&super::json::Json)
    }

    fn encode(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        event.write_json_with(out, |s, out| {
            sonic_rs::to_writer(&mut *out, s).expect("writing a str into a Vec cannot fail");
        });
        Ok(())
    }

    fn decode(&self, bytes: &[u8], limits: &Limits) -> Result<Event, DecodeError> {
        check_size(bytes, limits).map_err(|(e, at)| DecodeError::at(kind_of(&e), at))?;
        let mut de = sonic_rs::Deserializer::from_slice(bytes);
        let event = deserialize_event(&mut de, limits).map_err(|r| match r.rule {
            Some(rule) => DecodeError::at(kind_of(&rule), r.error.offset()),
            None => raw(&r.error),
        })?;
        de.end().map_err(|e| raw(&e))?;
        Ok(event)
    }
}

/// The decode error for a sonic-rs syntax error.
fn raw(e: &sonic_rs::Error) -> DecodeError {
    let message = e.to_string();
    let kind = if e.is_eof() {
        DecodeErrorKind::Truncated
    } else if message.contains("UTF-8") || message.contains("nicode") {
        DecodeErrorKind::BadUtf8
    } else if message.contains("trailing characters") {
        DecodeErrorKind::TrailingBytes
    } else {
        DecodeErrorKind::Invalid("malformed-json")
    };
    DecodeError::at(kind, e.offset())
}

pub(crate) mod evolution;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles::json::shared_tests;

    #[test]
    fn shared_json_conformance() {
        let (total, json) = shared_tests::check(&JsonSonic, true);
        eprintln!("json-sonic: {total} bytes vs json {json}");
    }
}

//! `json-simd`: the `json` profile's bytes, parsed and written with
//! [simd-json](https://github.com/simd-lite/simd-json) (a Rust port of
//! simdjson).
//!
//! Layout: identical to [`json`](super::json): one compact JSON object,
//! fields in NIP-01 order `{"id","pubkey","created_at","kind","tags",
//! "content","sig"}`, no whitespace, RFC 8259 escaping with control
//! characters as `\u00XX`. Canonical form: exactly what
//! [`Event::write_json`] writes; the encoder is `write_json` with simd-json's
//! string serializer, and the tests check it is byte-identical to `json` on
//! the generated corpus and on every character class (so decode→encode
//! reproduces canonical input). Hex: id, pubkey and sig are lowercase hex
//! strings; any other hex is rejected.
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
//! Decoding: simd-json parses *in place*: it needs a mutable input buffer
//! (it unescapes strings into it) and builds a tape of the whole document
//! before serde sees the first field. [`Codec::decode`] receives `&[u8]`, so
//! each decode **copies the input** into a thread-local scratch buffer (reused
//! across calls, as are simd-json's `Buffers`); that copy is part of the
//! measured cost, as it would be for any relay that keeps the received frame.
//! The tape itself (a `Vec` sized from the structural characters found, so
//! bounded by the input length, which is checked against `max_event_bytes`
//! first) is allocated per call by simd-json. The shared NIP-01 field
//! visitors ([`deserialize_event`]) then walk the tape, so missing, duplicate
//! and unknown fields, hex lengths, integer ranges and the tag limits are
//! checked exactly as in `json`. Unlike `json` and `json-sonic`, the limits
//! apply while walking the tape, i.e. after simd-json has structurally
//! parsed the (size-capped) input.
//!
//! Difference from `json`: simd-json without its `big-int-as-float` feature
//! rejects an integer beyond `u64` as a syntax error, so such a `created_at`
//! reports `Invalid("malformed-json")` where `json` reports `out-of-range`.

use std::cell::RefCell;

use simd_json::{Buffers, ErrorType};

use crate::codec::{
    Capabilities, Codec, DecodeError, DecodeErrorKind, EncodeError, Family, Limit, Limits, Profile,
};
use crate::model::Event;
use crate::profiles::json::kind_of;
use crate::validate::{check_size, deserialize_event};

/// The registry entry.
pub const PROFILE: Profile = Profile {
    id: "json-simd",
    family: Family::NostrBaseline,
    capabilities: Capabilities {
        deterministic: true,
        self_describing: true,
    },
    enabled: true,
    codec: &JsonSimd,
    packs: &[],
    evolution: &evolution::ADAPTER,
    maintenance: crate::codec::Maintenance {
        sources: &[file!()],
        shared: &["src/profiles/json.rs", "src/validate/json.rs"],
        schema: crate::codec::Schema::None,
        crates: &["serde", "simd-json"],
        spec: crate::codec::maintenance::JSON,
    },
};

/// simd-json, NIP-01 field order.
pub struct JsonSimd;

thread_local! {
    /// The mutable copy of the input and simd-json's parser buffers.
    static SCRATCH: RefCell<(Vec<u8>, Buffers)> = RefCell::new((Vec::new(), Buffers::default()));
}

impl Codec for JsonSimd {
    fn hostile(&self) -> Option<&dyn crate::codec::HostileInputs> {
        Some(&super::json::Json)
    }

    fn encode(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        event.write_json_with(out, |s, out| {
            simd_json::serde::to_writer(&mut *out, s)
                .expect("writing a str into a Vec cannot fail");
        });
        Ok(())
    }

    fn decode(&self, bytes: &[u8], limits: &Limits) -> Result<Event, DecodeError> {
        check_size(bytes, limits).map_err(|(e, at)| DecodeError::at(kind_of(&e), at))?;
        check_depth(bytes, limits)?;
        SCRATCH.with_borrow_mut(|(input, buffers)| {
            input.clear();
            input.extend_from_slice(bytes);
            let mut de = simd_json::Deserializer::from_slice_with_buffers(input, buffers)
                .map_err(|e| raw(&e))?;
            deserialize_event(&mut de, limits).map_err(|r| match r.rule {
                Some(rule) => DecodeError::at(kind_of(&rule), r.error.index()),
                None => raw(&r.error),
            })
        })
    }
}

/// Rejects nesting deeper than `limits.max_depth` before simd-json runs:
/// simd-json builds its whole tape (about 16 bytes per structural character)
/// before any visitor sees the depth, so a deep bomb would otherwise cost
/// many times its size in memory. One pass over the bytes, part of the
/// measured decode cost.
fn check_depth(bytes: &[u8], limits: &Limits) -> Result<(), DecodeError> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, &b) in bytes.iter().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > limits.max_depth {
                    return Err(DecodeError::at(
                        DecodeErrorKind::LimitExceeded(Limit::Depth),
                        i,
                    ));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

/// The decode error for a simd-json syntax error.
fn raw(e: &simd_json::Error) -> DecodeError {
    let kind = match e.error() {
        ErrorType::Eof | ErrorType::UnterminatedString => DecodeErrorKind::Truncated,
        ErrorType::InvalidUtf8
        | ErrorType::InvalidUnicodeEscape
        | ErrorType::InvalidUnicodeCodepoint => DecodeErrorKind::BadUtf8,
        ErrorType::TrailingData => DecodeErrorKind::TrailingBytes,
        _ => DecodeErrorKind::Invalid("malformed-json"),
    };
    DecodeError::at(kind, e.index())
}

pub(crate) mod evolution;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_nesting_fails_before_simd_json_builds_a_tape() {
        let limits = Limits::default();
        let bomb = [&[b'['; 100_000][..], &[b']'; 100_000][..]].concat();
        let err = JsonSimd.decode(&bomb, &limits).unwrap_err();
        assert_eq!(
            err,
            DecodeError::at(DecodeErrorKind::LimitExceeded(Limit::Depth), 3)
        );
        // Brackets inside strings do not count.
        assert!(check_depth(br#"{"content":"[[[[[[","tags":[["a"]]}"#, &limits).is_ok());
    }
    use crate::profiles::json::shared_tests;

    #[test]
    fn shared_json_conformance() {
        let (total, json) = shared_tests::check(&JsonSimd, false);
        eprintln!("json-simd: {total} bytes vs json {json}");
    }
}

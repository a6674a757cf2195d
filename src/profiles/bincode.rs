//! `bincode`: bincode 2 (serde mode, `config::standard()` with a byte limit)
//! over the shared positional model ([`super::positional`]), tagged variant.
//!
//! Layout (bincode 2 standard config: little-endian, "varint" integers where
//! a value below 251 is one byte, otherwise `fb`+u16, `fc`+u32, `fd`+u64):
//!
//! | field        | encoding                                               |
//! |--------------|--------------------------------------------------------|
//! | event        | a tuple: no length prefix                              |
//! | `id`         | varint(32) `20` + 32 bytes                             |
//! | `pubkey`     | varint(32) `20` + 32 bytes                             |
//! | `created_at` | varint u64                                             |
//! | `kind`       | varint u16                                             |
//! | `tags`       | varint(n) then n tags; a tag is varint(m) then m values |
//! | tag value    | varint(variant) then: 0 = varint(len) + bytes (packed lowercase hex), 1 = varint(len) + UTF-8 |
//! | `content`    | varint(len) + UTF-8                                    |
//! | `sig`        | varint(64) `40` + 64 bytes                             |
//!
//! Fixed fields are serde byte strings (one length byte each) rather than
//! 32/64-element tuples: bincode writes them with one copy, and the model is
//! shared with the self-describing formats.
//!
//! Canonical form: the encoder writes the one bincode form; bincode's varint
//! decoder accepts non-shortest encodings (e.g. `fb 01 00` for 1), so only
//! encoder output is canonical. Such input decodes to the value it means;
//! nothing changes silently, and refusing it would need a second walk
//! outside serde (bincode's varint reader is internal). A text tag value
//! that is packable hex is `NonCanonical`
//! ([`super::positional::restore_packed`]).
//!
//! Hex: as [`super::positional`]: non-empty, even-length lowercase hex tag
//! values are variant 0 (bytes), restored as lowercase hex.
//!
//! Limits: the input length is checked first; bincode's `with_limit` caps the
//! bytes it will claim at [`BYTE_LIMIT`]; the model's seed checks every
//! declared count against [`Limits`] before reserving (bincode passes the
//! declared length as the size hint and borrows strings from the input).
//!
//! Differences from upstream: none in the bytes. Error offsets are the end of
//! the last borrowed field (bincode's errors carry no position).

use bincode::config::{self, Configuration, LittleEndian, Varint};
use bincode::enc::write::Writer;

use super::positional::{Positional, PositionalSeed};
use crate::codec::{
    Capabilities, Codec, DecodeError, DecodeErrorKind, EncodeError, Family, Limit, Limits, Profile,
    check_event_size,
};
use crate::model::Event;

/// The registry entry.
pub const PROFILE: Profile = Profile {
    id: "bincode",
    family: Family::RustOnly,
    capabilities: Capabilities {
        deterministic: true,
        self_describing: false,
    },
    enabled: true,
    codec: &Bincode,
    packs: crate::codec::HEX_TAG_ELEMENTS,
    evolution: &evolution::ADAPTER,
    maintenance: crate::codec::Maintenance {
        sources: &[file!()],
        shared: &["src/profiles/positional.rs"],
        schema: crate::codec::Schema::None,
        crates: &["bincode", "serde"],
        spec: crate::codec::maintenance::BINCODE,
    },
};

/// The byte limit given to bincode's decoder (16 MiB), a backstop above
/// any sane [`Limits::max_event_bytes`]; the runtime limits are enforced
/// by the model.
pub const BYTE_LIMIT: usize = 16 << 20;

const CONFIG: Configuration<LittleEndian, Varint, config::Limit<BYTE_LIMIT>> =
    config::standard().with_limit::<BYTE_LIMIT>();

/// bincode 2, serde mode.
pub struct Bincode;

struct Append<'a>(&'a mut Vec<u8>);

impl Writer for Append<'_> {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> Result<(), bincode::error::EncodeError> {
        self.0.extend_from_slice(bytes);
        Ok(())
    }
}

impl Codec for Bincode {
    fn encode(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        bincode::serde::encode_into_writer(Positional::<true>(event), Append(out), CONFIG)
            .map_err(|e| EncodeError::new(PROFILE.id, e.to_string()))
    }

    fn decode(&self, bytes: &[u8], limits: &Limits) -> Result<Event, DecodeError> {
        check_event_size(bytes, limits)?;
        let seed = PositionalSeed::<true>::new(bytes, limits);
        let (event, read) = bincode::serde::seed_decode_from_slice(&seed, bytes, CONFIG)
            .map_err(|e| seed.error(classify(&e)))?;
        if read != bytes.len() {
            return Err(DecodeError::at(DecodeErrorKind::TrailingBytes, read));
        }
        Ok(event)
    }
}

fn classify(e: &bincode::error::DecodeError) -> DecodeErrorKind {
    use bincode::error::DecodeError as E;
    match e {
        E::UnexpectedEnd { .. } => DecodeErrorKind::Truncated,
        E::LimitExceeded => DecodeErrorKind::LimitExceeded(Limit::EventBytes),
        E::Utf8 { .. } => DecodeErrorKind::BadUtf8,
        E::InvalidIntegerType { .. } | E::OutsideUsizeRange(_) => DecodeErrorKind::BadVarint,
        E::UnexpectedVariant { .. } => DecodeErrorKind::Invalid("tag value variant"),
        _ => DecodeErrorKind::Invalid("malformed bincode"),
    }
}

pub(crate) mod evolution;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles::test_support::positional_checks;
    use DecodeErrorKind::{Invalid, LimitExceeded};

    /// `created_at` as `fc` and a u32 LE.
    #[test]
    fn conforms_and_refuses_hostile_lengths() {
        let (total, json) = positional_checks(
            &Bincode,
            "fc00f15365",
            &[
                ("fdffffffffffffffff", Some(LimitExceeded(Limit::Tags))),
                ("01fcffffffff", Some(LimitExceeded(Limit::ValuesPerTag))),
                ("010101fcffffffff78", None),
                ("01010200", Some(Invalid("tag value variant"))),
            ],
        );
        println!("bincode: {total} bytes vs json {json}");
    }
}

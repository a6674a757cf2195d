//! `postcard`: postcard 1 over the shared positional model
//! ([`super::positional`]), tagged variant.
//!
//! Layout (postcard wire format: unsigned integers as LEB128 varints,
//! lengths as varint(usize), enum variants as varint(u32)):
//!
//! | field        | encoding                                               |
//! |--------------|--------------------------------------------------------|
//! | event        | a tuple: no length prefix                              |
//! | `id`         | varint(32) `20` + 32 bytes                             |
//! | `pubkey`     | varint(32) `20` + 32 bytes                             |
//! | `created_at` | LEB128 u64                                             |
//! | `kind`       | LEB128 u16                                             |
//! | `tags`       | varint(n) then n tags; a tag is varint(m) then m values |
//! | tag value    | varint(variant) then: 0 = varint(len) + bytes (packed lowercase hex), 1 = varint(len) + UTF-8 |
//! | `content`    | varint(len) + UTF-8                                    |
//! | `sig`        | varint(64) `40` + 64 bytes                             |
//!
//! Canonical form: the encoder writes shortest varints; postcard's decoder
//! rejects an overflowing last varint byte but accepts over-long
//! (zero-padded) varints, so only encoder output is canonical. Such input
//! decodes to the value the varint means (the robustness report's
//! `accepted-noncanonical` cases for this profile are these: `81 00` for 1,
//! and so on); nothing is changed silently. Refusing them would need a
//! second walk of the layout outside serde, since postcard's varint reader is
//! internal; we do not pay that on every decode. A text tag value that is
//! packable hex is `NonCanonical` ([`super::positional::restore_packed`]).
//!
//! Hex: as [`super::positional`]: non-empty, even-length lowercase hex tag
//! values are variant 0 (bytes), restored as lowercase hex.
//!
//! Limits: the input length is checked first; postcard borrows strings from
//! the input and passes declared lengths as size hints, which the model's seed
//! checks against [`Limits`] before reserving.
//!
//! Differences from upstream: none in the bytes. Error offsets are the end of
//! the last borrowed field (postcard's errors carry no position).

use serde::de::DeserializeSeed;

use super::positional::{Positional, PositionalSeed};
use crate::codec::{
    Capabilities, Codec, DecodeError, DecodeErrorKind, EncodeError, Family, Limits, Profile,
    check_event_size,
};
use crate::model::Event;

/// The registry entry.
pub const PROFILE: Profile = Profile {
    id: "postcard",
    family: Family::RustOnly,
    capabilities: Capabilities {
        deterministic: true,
        self_describing: false,
    },
    enabled: true,
    codec: &Postcard,
    packs: crate::codec::HEX_TAG_ELEMENTS,
    evolution: &evolution::ADAPTER,
    maintenance: crate::codec::Maintenance {
        sources: &[file!()],
        shared: &["src/profiles/positional.rs"],
        schema: crate::codec::Schema::None,
        crates: &["postcard", "serde"],
        spec: crate::codec::maintenance::POSTCARD,
    },
};

/// postcard 1.
pub struct Postcard;

struct Append<'a>(&'a mut Vec<u8>);

impl postcard::ser_flavors::Flavor for Append<'_> {
    type Output = ();

    #[inline]
    fn try_extend(&mut self, data: &[u8]) -> postcard::Result<()> {
        self.0.extend_from_slice(data);
        Ok(())
    }

    #[inline]
    fn try_push(&mut self, data: u8) -> postcard::Result<()> {
        self.0.push(data);
        Ok(())
    }

    fn finalize(self) -> postcard::Result<()> {
        Ok(())
    }
}

impl Codec for Postcard {
    fn encode(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        postcard::serialize_with_flavor(&Positional::<true>(event), Append(out))
            .map_err(|e| EncodeError::new(PROFILE.id, e.to_string()))
    }

    fn decode(&self, bytes: &[u8], limits: &Limits) -> Result<Event, DecodeError> {
        check_event_size(bytes, limits)?;
        let seed = PositionalSeed::<true>::new(bytes, limits);
        let mut de = postcard::Deserializer::from_bytes(bytes);
        let event = (&seed)
            .deserialize(&mut de)
            .map_err(|e| seed.error(classify(&e)))?;
        let rest = de.finalize().map_err(|e| seed.error(classify(&e)))?;
        if !rest.is_empty() {
            return Err(DecodeError::at(
                DecodeErrorKind::TrailingBytes,
                bytes.len() - rest.len(),
            ));
        }
        Ok(event)
    }
}

fn classify(e: &postcard::Error) -> DecodeErrorKind {
    use postcard::Error as E;
    match e {
        E::DeserializeUnexpectedEnd => DecodeErrorKind::Truncated,
        E::DeserializeBadVarint => DecodeErrorKind::BadVarint,
        E::DeserializeBadUtf8 => DecodeErrorKind::BadUtf8,
        E::DeserializeBadEnum => DecodeErrorKind::Invalid("tag value variant"),
        _ => DecodeErrorKind::Invalid("malformed postcard"),
    }
}

pub(crate) mod evolution;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles::test_support::positional_checks;
    use DecodeErrorKind::{Invalid, Truncated};

    /// `created_at` as the LEB128 of 0x6553f100; postcard itself refuses
    /// a count above the bytes left.
    #[test]
    fn conforms_and_refuses_hostile_lengths() {
        let (total, json) = positional_checks(
            &Postcard,
            "80e2cfaa06",
            &[
                ("ffffffffffffffffff01", None),
                ("01ffffffff0f", None),
                ("010101ffffffff0f78", Some(Truncated)),
                ("01010200", Some(Invalid("tag value variant"))),
            ],
        );
        println!("postcard: {total} bytes vs json {json}");
    }
}

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
        bincode::serde::encode_into_writer(Positional::<true>(event), Append(out), CONFIG).map_err(
            |e| EncodeError {
                profile: PROFILE.id,
                reason: e.to_string(),
            },
        )
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
    use crate::profiles::test_support::conformance;

    fn h(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    const HEAD: usize = 33 + 33 + 5 + 1;

    fn golden() -> Vec<u8> {
        let mut g = h("20");
        g.extend([0x11; 32]);
        g.extend(h("20"));
        g.extend([0x22; 32]);
        g.extend(h("fc00f15365")); // created_at: fc + u32 LE 0x6553f100
        g.extend(h("01")); // kind 1
        g.extend(h("03")); // 3 tags
        g.extend(h("02" /* 2 values */));
        g.extend(h("010165" /* Text "e" */));
        g.extend(h("0020" /* Bytes, 32 */));
        g.extend([0xab; 32]);
        g.extend(h("02010170" /* "p" */));
        g.extend(h("0106414243444546" /* Text "ABCDEF" */));
        g.extend(h("02010174"));
        g.extend(h("01056e6f737472"));
        g.extend(h("0368690a")); // content
        g.extend(h("40"));
        g.extend([0x33; 64]);
        g
    }

    #[test]
    fn conforms() {
        let golden = golden();
        assert_eq!(golden.len(), HEAD + 1 + 38 + 12 + 11 + 4 + 65);
        let (total, json) = conformance(&Bincode, &golden, true);
        println!("bincode: {total} bytes vs json {json}");
    }

    #[test]
    fn hostile_lengths_fail_before_allocating() {
        let l = Limits::default();
        let mut g = golden();
        g.truncate(HEAD);
        g.extend(h("fdffffffffffffffff"));
        assert_eq!(
            Bincode.decode(&g, &l).unwrap_err().kind,
            DecodeErrorKind::LimitExceeded(Limit::Tags)
        );
        g.truncate(HEAD);
        g.extend(h("01fcffffffff"));
        assert_eq!(
            Bincode.decode(&g, &l).unwrap_err().kind,
            DecodeErrorKind::LimitExceeded(Limit::ValuesPerTag)
        );
        g.truncate(HEAD);
        g.extend(h("010101fcffffffff78"));
        let kind = Bincode.decode(&g, &l).unwrap_err().kind;
        assert!(
            matches!(
                kind,
                DecodeErrorKind::Truncated | DecodeErrorKind::LimitExceeded(_)
            ),
            "{kind:?}"
        );
        g.truncate(HEAD);
        g.extend(h("01010200"));
        assert_eq!(
            Bincode.decode(&g, &l).unwrap_err().kind,
            DecodeErrorKind::Invalid("tag value variant")
        );
    }
}

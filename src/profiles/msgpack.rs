//! `msgpack`: MessagePack (rmp-serde) over the shared positional model
//! ([`super::positional`]).
//!
//! Layout (MessagePack spec; all lengths big-endian, shortest form):
//!
//! | field        | encoding                                                  |
//! |--------------|-----------------------------------------------------------|
//! | event        | `fixarray(7)` = `0x97`                                    |
//! | `id`         | `bin8` = `c4 20` + 32 bytes                               |
//! | `pubkey`     | `bin8` = `c4 20` + 32 bytes                               |
//! | `created_at` | smallest unsigned int (`fixint`, `cc`, `cd`, `ce`, `cf`)  |
//! | `kind`       | smallest unsigned int                                     |
//! | `tags`       | array (`fixarray`/`dc`/`dd`) of arrays of tag values      |
//! | tag value    | `bin8/16/32` (packed lowercase hex) or `fixstr/str8/16/32` |
//! | `content`    | `fixstr/str8/16/32`                                       |
//! | `sig`        | `bin8` = `c4 40` + 64 bytes                               |
//!
//! Canonical form: the encoder always writes the shortest marker (rmp's
//! `write_uint`, `write_bin`, `write_str`, `write_array_len`), so decode then
//! encode reproduces our own bytes. The decoder, like rmp-serde, also accepts
//! non-shortest markers (e.g. `cf` or `cc 07` for a small integer, `dc`/`dd`
//! for a short array) and signed-integer markers holding a non-negative
//! value (`d0 07`, `d2 ...`): they are valid MessagePack with the same
//! value, other writers use them (Go's vmihailenco/msgpack writes typed
//! widths), and refusing them would refuse valid input. So only encoder
//! output is canonical; the robustness report counts such input
//! `accepted-noncanonical`. A `str` tag value that is packable hex is
//! `NonCanonical` (the encoder writes `bin`).
//!
//! Hex: tag values that are non-empty, even-length lowercase hex travel as
//! `bin` and come back as lowercase hex; everything else is `str`.
//!
//! UTF-8: rmp-serde hands a `str` whose payload is not UTF-8 to the visitor
//! as bytes (`visit_borrowed_bytes`, its "unpack invalid UTF-8 into a byte
//! array" fallback), and a tag value accepts bytes, so such a `str` would
//! come back silently as hex (and a 32-byte one would pass as an `id`). So
//! every byte string the model borrows passes a wire check (`bin_on_wire`,
//! installed with [`PositionalSeed::with_wire_check`]): it must follow a
//! `bin` header of its own length, otherwise it was such a `str` and the
//! decoder returns [`DecodeErrorKind::BadUtf8`] at the offset of its first
//! invalid byte. The check reads at most 5 header bytes per byte string.
//!
//! Limits: the input length is checked first; counts and lengths are checked
//! by the model's seed while rmp-serde reads (see [`super::positional`]).
//! rmp-serde borrows strings and byte strings from the input, never
//! preallocates from a declared length, and rejects arrays whose declared
//! length disagrees with what the visitor consumed.
//!
//! Borrowed view ([`BorrowDecode`], `select-checked`): the owned decoder's
//! seed building an [`EventRef`] ([`PositionalSeed::view`]), so it accepts
//! exactly what `decode` accepts; content and text tag values borrow from
//! the input. `kind_and_pubkey` checks the whole record the same way.
//!
//! Differences from upstream rmp-serde usage: none in the bytes; decoding goes
//! through a `DeserializeSeed` instead of `Deserialize` so that limits apply
//! while reading. Error offsets are the end of the last borrowed field (rmp
//! does not report positions), or the input length for truncation.

use serde::de::DeserializeSeed;

use super::positional::{Positional, PositionalSeed};
use crate::codec::hostile::{HostileInputs, Nest, repeat};
use crate::codec::{
    BorrowDecode, Capabilities, Codec, DecodeError, DecodeErrorKind, EncodeError, Family, Limit,
    Limits, Profile, SelectContract, check_event_size,
};
use crate::model::{Event, EventRef};

/// The registry entry.
pub const PROFILE: Profile = Profile {
    id: "msgpack",
    family: Family::OpenStandard,
    capabilities: Capabilities {
        deterministic: true,
        self_describing: true,
    },
    enabled: true,
    codec: &MsgPack,
    packs: crate::codec::HEX_TAG_ELEMENTS,
    evolution: &evolution::ADAPTER,
    maintenance: crate::codec::Maintenance {
        sources: &[file!()],
        shared: &["src/profiles/positional.rs"],
        schema: crate::codec::Schema::None,
        crates: &["rmp-serde", "serde"],
        spec: crate::codec::maintenance::MSGPACK,
    },
};

/// MessagePack via rmp-serde.
pub struct MsgPack;

impl Codec for MsgPack {
    fn hostile(&self) -> Option<&dyn HostileInputs> {
        Some(self)
    }

    fn borrowed(&self) -> Option<&dyn BorrowDecode> {
        Some(self)
    }

    fn encode(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        rmp_serde::encode::write(out, &Positional::<false>(event))
            .map_err(|e| EncodeError::new(PROFILE.id, e.to_string()))
    }

    fn decode(&self, bytes: &[u8], limits: &Limits) -> Result<Event, DecodeError> {
        check_event_size(bytes, limits)?;
        let seed = PositionalSeed::<false>::new(bytes, limits).with_wire_check(bytes, bin_on_wire);
        let mut de = rmp_serde::Deserializer::from_read_ref(bytes);
        let event = (&seed)
            .deserialize(&mut de)
            .map_err(|e| seed.error(classify(&e)))?;
        if seed.end() != bytes.len() {
            return Err(DecodeError::at(DecodeErrorKind::TrailingBytes, seed.end()));
        }
        Ok(event)
    }
}

/// The borrowed view: the same seed and deserializer as [`Codec::decode`]
/// ([`PositionalSeed::view`]), so it accepts exactly what `decode` accepts;
/// content and text tag values borrow from the input, packed hex and the
/// fixed fields are owned.
impl BorrowDecode for MsgPack {
    fn decode_ref<'a>(
        &self,
        bytes: &'a [u8],
        limits: &Limits,
    ) -> Result<EventRef<'a>, DecodeError> {
        check_event_size(bytes, limits)?;
        let seed = PositionalSeed::<false>::new(bytes, limits).with_wire_check(bytes, bin_on_wire);
        let mut de = rmp_serde::Deserializer::from_read_ref(bytes);
        let event = seed
            .view()
            .deserialize(&mut de)
            .map_err(|e| seed.error(classify(&e)))?;
        if seed.end() != bytes.len() {
            return Err(DecodeError::at(DecodeErrorKind::TrailingBytes, seed.end()));
        }
        Ok(event)
    }

    /// Checked: the whole record goes through [`BorrowDecode::decode_ref`].
    fn select_contract(&self) -> SelectContract {
        SelectContract::Checked
    }
}

fn classify(e: &rmp_serde::decode::Error) -> DecodeErrorKind {
    use rmp_serde::decode::Error as E;
    match e {
        E::InvalidMarkerRead(io) | E::InvalidDataRead(io)
            if io.kind() == std::io::ErrorKind::UnexpectedEof =>
        {
            DecodeErrorKind::Truncated
        }
        E::Utf8Error(_) => DecodeErrorKind::BadUtf8,
        E::TypeMismatch(_) => DecodeErrorKind::Invalid("type mismatch"),
        E::LengthMismatch(_) => DecodeErrorKind::Invalid("event array length"),
        E::OutOfRange => DecodeErrorKind::Invalid("integer out of range"),
        E::DepthLimitExceeded => DecodeErrorKind::LimitExceeded(Limit::Depth),
        _ => DecodeErrorKind::Invalid("malformed messagepack"),
    }
}

/// The [`WireCheck`](super::positional::WireCheck): borrowed bytes `input[at..at + len]` must follow a
/// `bin8/16/32` header declaring `len`. Otherwise rmp-serde passed on a
/// `str` whose payload is not UTF-8 (its fallback), and that is
/// [`DecodeErrorKind::BadUtf8`] at the first invalid byte. No `str` header
/// can pass for a `bin` header of the same length: the bytes before a
/// `str` payload are `a0|n` (never `n` for n < 32), `d9 n`, `da n16` or
/// `db n32`, and each differs from `c4 n`, `c5 n16` and `c6 n32` in the
/// marker or in the length.
fn bin_on_wire(input: &[u8], at: usize, len: usize) -> Result<(), DecodeError> {
    let header = |marker: u8, n: usize| {
        at.checked_sub(1 + n)
            .and_then(|h| input.get(h..at))
            .is_some_and(|h| {
                h[0] == marker
                    && h[1..]
                        .iter()
                        .fold(0usize, |v, &x| (v << 8) | usize::from(x))
                        == len
            })
    };
    if header(0xc4, 1) || header(0xc5, 2) || header(0xc6, 4) {
        return Ok(());
    }
    let payload = input.get(at..at.saturating_add(len)).unwrap_or_default();
    let bad = std::str::from_utf8(payload)
        .err()
        .map_or(0, |e| e.valid_up_to());
    Err(DecodeError::at(DecodeErrorKind::BadUtf8, at + bad))
}

/// Hostile inputs. MessagePack.
impl HostileInputs for MsgPack {
    fn format(&self) -> &'static str {
        "msgpack"
    }

    fn nesting_bomb(&self, shape: Nest, depth: usize, out: &mut Vec<u8>) {
        let unit: &[u8] = match shape {
            Nest::Array => &[0x91],
            Nest::Map => &[0x81, 0x00],
        };
        repeat(out, unit, depth);
        out.push(0xc0);
    }

    fn length_bombs(&self) -> Vec<(&'static str, Vec<u8>)> {
        let u32max = [0xff; 4];
        vec![
            ("array32-2^32-1", [&[0xdd][..], &u32max].concat()),
            ("map32-2^32-1", [&[0xdf][..], &u32max].concat()),
            ("bin32-2^32-1", [&[0xc6][..], &u32max].concat()),
            ("str32-2^32-1", [&[0xdb][..], &u32max].concat()),
            ("ext32-2^32-1", [&[0xc9][..], &u32max, &[0x01]].concat()),
            ("event-id-2^32-1", [&[0x97, 0xc6][..], &u32max].concat()),
            (
                "event-tags-2^32-1",
                [
                    &[0x97, 0xc4, 0x00, 0xc4, 0x00, 0x00, 0x00, 0xdd][..],
                    &u32max,
                ]
                .concat(),
            ),
        ]
    }

    fn variants(&self, golden: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
        match golden.split_first() {
            Some((&head, body)) if head & 0xf0 == 0x90 => vec![
                (
                    "array16-outer",
                    [&[0xdc, 0x00, head & 0x0f][..], body].concat(),
                ),
                (
                    "array32-outer",
                    [&[0xdd, 0, 0, 0, head & 0x0f][..], body].concat(),
                ),
            ],
            _ => Vec::new(),
        }
    }
}

pub(crate) mod evolution;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles::test_support::{conformance, golden_event, golden_hex};

    /// `97` array(7), `c4 20` bin8(32), `ce` uint32, `94` array(4),
    /// `a0`..`b3` fixstr of 0..19, `c4 01` bin8(1), `90` array(0), `d9 28`
    /// str8(40), `c4 40` bin8(64).
    fn golden() -> Vec<u8> {
        golden_hex(
            "97 c420 {id} c420 {pubkey} ce6553f100 01 94 \
             94 a165 c420 {e} b3 {relay} a4 726f6f74 \
             92 a170 c420 {p} \
             95 a174 a6 414243444546 a3 616263 a0 c401 00 \
             90 \
             d928 {content} \
             c440 {sig}",
        )
    }

    #[test]
    fn conforms() {
        let golden = golden();
        assert_eq!(
            golden.len(),
            1 + 34 + 34 + 5 + 1 + 1 + 62 + 37 + 18 + 1 + 42 + 66
        );
        let (total, json) = conformance(&MsgPack, &golden, true);
        println!("msgpack: {total} bytes vs json {json}");
    }

    #[test]
    fn view_borrows_text_and_refuses_what_decode_refuses() {
        use std::borrow::Cow;
        let l = Limits::default();
        let g = golden();
        let view = MsgPack.decode_ref(&g, &l).unwrap();
        assert!(matches!(view.content, Cow::Borrowed(c) if c == golden_event().content));
        assert!(matches!(view.tags[2][1], Cow::Borrowed("ABCDEF")));
        assert!(
            matches!(view.tags[0][1], Cow::Owned(_)),
            "packed hex is restored"
        );
        assert_eq!(MsgPack.kind_and_pubkey(&g, &l), Ok((1, [0x22; 32])));
        // Mutations: the view errs exactly where decode errs, at the same offset.
        for at in 0..g.len() {
            for x in [0x00, 0xff, 0xc1, 0xa0, 0x90] {
                let mut m = g.clone();
                m[at] = x;
                let owned = MsgPack.decode(&m, &l).map(|_| ());
                let viewed = MsgPack.decode_ref(&m, &l).map(|_| ());
                assert_eq!(viewed, owned, "byte {at} = {x:02x}");
            }
        }
        let err = MsgPack.decode_ref(&g[..g.len() - 1], &l).unwrap_err();
        assert_eq!(
            err,
            DecodeError::at(DecodeErrorKind::Truncated, g.len() - 1)
        );
    }

    #[test]
    fn hostile_lengths_fail_before_allocating() {
        let l = Limits::default();
        // array32 of 2^32-1 elements as the event, and as the tags
        let err = MsgPack
            .decode(&[0xdd, 0xff, 0xff, 0xff, 0xff], &l)
            .unwrap_err();
        assert_eq!(err.kind, DecodeErrorKind::Invalid("event array length"));
        let mut g = golden();
        g.truncate(1 + 34 + 34 + 5 + 1);
        g.extend([0xdd, 0xff, 0xff, 0xff, 0xff]);
        assert_eq!(
            MsgPack.decode(&g, &l).unwrap_err().kind,
            DecodeErrorKind::LimitExceeded(Limit::Tags)
        );
        // one tag declaring 2^32-1 values
        g.truncate(1 + 34 + 34 + 5 + 1);
        g.extend([0x91, 0xdd, 0xff, 0xff, 0xff, 0xff]);
        assert_eq!(
            MsgPack.decode(&g, &l).unwrap_err().kind,
            DecodeErrorKind::LimitExceeded(Limit::ValuesPerTag)
        );
        // one value declaring a 4 GiB string
        g.truncate(1 + 34 + 34 + 5 + 1);
        g.extend([0x91, 0x91, 0xdb, 0xff, 0xff, 0xff, 0xff, b'x']);
        assert_eq!(
            MsgPack.decode(&g, &l).unwrap_err().kind,
            DecodeErrorKind::Truncated
        );
        // empty bin as a tag value is not canonical
        g.truncate(1 + 34 + 34 + 5 + 1);
        g.extend([0x91, 0x91, 0xc4, 0x00, 0xa0]);
        g.extend([0xc4, 0x40]);
        g.extend([0x33; 64]);
        assert_eq!(
            MsgPack.decode(&g, &l).unwrap_err().kind,
            DecodeErrorKind::NonCanonical
        );
    }

    /// A `str` tag value holding invalid UTF-8: rmp-serde would pass it on
    /// as bytes (and the value would come back as hex); it is an error at
    /// the offset of the bad byte.
    #[test]
    fn invalid_utf8_str_is_an_error_not_bytes() {
        let l = Limits::default();
        let g = golden();
        // the marker of "ABCDEF" (a6 41 42 ...)
        let at = 1 + 34 + 34 + 5 + 1 + 1 + 62 + 37 + 1 + 2;
        assert_eq!(&g[at..at + 3], &[0xa6, 0x41, 0x42]);
        for bad in [
            &[0xff][..],
            &[0xc0, 0x80],
            &[0xed, 0xa0, 0x80],
            &[0xe6, 0x97],
        ] {
            let mut m = g.clone();
            m[at + 1..at + 1 + bad.len()].copy_from_slice(bad);
            assert_eq!(
                MsgPack.decode(&m, &l).unwrap_err(),
                DecodeError::at(DecodeErrorKind::BadUtf8, at + 1),
                "{bad:02x?}"
            );
        }
        // and in content (rmp-serde already refuses it there)
        let content = g.len() - 66 - 40;
        let mut m = g.clone();
        m[content] = 0xff;
        assert_eq!(
            MsgPack.decode(&m, &l).unwrap_err().kind,
            DecodeErrorKind::BadUtf8
        );
        // a 32-byte `str` of invalid UTF-8 in place of the `bin8` id
        let mut m = g.clone();
        m[1..3].copy_from_slice(&[0xd9, 0x20]);
        m[3] = 0xff;
        assert_eq!(
            MsgPack.decode(&m, &l).unwrap_err(),
            DecodeError::at(DecodeErrorKind::BadUtf8, 3)
        );
        // the same with valid UTF-8 is a type error, as before
        m[3] = b'x';
        assert!(MsgPack.decode(&m, &l).is_err());
    }

    #[test]
    fn wire_check_tells_bin_from_str_headers() {
        // (bytes, payload offset, payload length, is bin)
        let cases: [(&[u8], usize, usize, bool); 7] = [
            (&[0xc4, 0x01, 0xff], 2, 1, true),
            (&[0xc5, 0x00, 0x01, 0xff], 3, 1, true),
            (&[0xc6, 0x00, 0x00, 0x00, 0x01, 0xff], 5, 1, true),
            (&[0xa1, 0xff], 1, 1, false),
            (&[0xd9, 0x01, 0xff], 2, 1, false),
            (&[0xda, 0x00, 0x01, 0xff], 3, 1, false),
            (&[0xdb, 0x00, 0x00, 0x00, 0x01, 0xff], 5, 1, false),
        ];
        for (b, at, len, bin) in cases {
            let r = bin_on_wire(b, at, len);
            assert_eq!(r.is_ok(), bin, "{b:02x?}");
            if !bin {
                assert_eq!(r, Err(DecodeError::at(DecodeErrorKind::BadUtf8, at)));
            }
        }
        // out-of-range positions are errors, not panics
        assert!(bin_on_wire(&[], 7, 3).is_err());
        assert!(bin_on_wire(&[0xc4], 0, usize::MAX).is_err());
    }

    #[test]
    fn bombs_have_the_exact_bytes() {
        use crate::codec::hostile::bomb;
        assert_eq!(bomb(&MsgPack, Nest::Map, 1), [0x81, 0x00, 0xc0]);
    }
}

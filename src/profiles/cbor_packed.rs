//! `cbor-packed`: the shared positional model ([`super::positional`]) as
//! RFC 8949 CBOR in core deterministic encoding (§4.2.1), via minicbor with
//! hand-written encode and decode.
//!
//! Layout (major type / additional info; `h(n)` is the shortest head for n):
//!
//! | field        | encoding                                               |
//! |--------------|--------------------------------------------------------|
//! | event        | array(7) = `87`                                        |
//! | `id`         | byte string `58 20` + 32 bytes                         |
//! | `pubkey`     | byte string `58 20` + 32 bytes                         |
//! | `created_at` | unsigned int (major 0), shortest head                  |
//! | `kind`       | unsigned int (major 0), shortest head, ≤ 65535         |
//! | `tags`       | array h(n) of arrays h(m) of tag values                |
//! | tag value    | byte string (major 2: packed lowercase hex) or text string (major 3) |
//! | `content`    | text string (major 3)                                  |
//! | `sig`        | byte string `58 40` + 64 bytes                         |
//!
//! Canonical form: every head is the shortest (an argument below 24 in the
//! initial byte, then 1, 2, 4 or 8 bytes only when needed) and every length
//! is definite. The decoder rejects indefinite lengths and longer-than-needed
//! heads as `NonCanonical`, and rejects CBOR tags, maps, negative integers,
//! floats and simple values as `Invalid`, so each event has exactly one
//! accepted encoding: decode→encode reproduces any accepted input.
//!
//! Hex: tag values that are non-empty, even-length lowercase hex travel as
//! byte strings and are restored as lowercase hex; every other value is a
//! text string. An empty byte string, and a text string that is such hex
//! (the encoder would have written bytes), are `NonCanonical`.
//!
//! Limits: the input length is checked first; each declared array count is
//! checked against [`Limits`] and against the bytes left (each element takes
//! at least one byte) before anything is reserved; strings are borrowed
//! slices checked against `max_value_bytes` before they are copied. Depth is
//! fixed at 3 and walked with straight-line code, never recursion.
//!
//! Differences from upstream minicbor: minicbor's `Decoder` accepts
//! non-shortest heads; this profile adds the check after each head (comparing
//! the bytes consumed with the shortest head for the value read).
//! [`BorrowDecode`] is provided: strings borrow from the input, packed hex is
//! owned, and `kind_and_pubkey` reads only the first four fields.

use std::borrow::Cow;

use minicbor::data::Type;
use minicbor::{Decoder, Encoder};

use super::positional::{TagValue, check_text, restore, restore_packed, with_tag_value};
use crate::codec::hostile::{HostileInputs, Nest, repeat};
use crate::codec::{
    BorrowDecode, Capabilities, Codec, DecodeError, DecodeErrorKind, EncodeError, Family, Limit,
    Limits, Parts, Profile, SelectContract, Text, check_event_size,
};
use crate::model::{Event, EventRef};

/// The registry entry.
pub const PROFILE: Profile = Profile {
    id: "cbor-packed",
    family: Family::OpenStandard,
    capabilities: Capabilities {
        deterministic: true,
        self_describing: true,
    },
    enabled: true,
    codec: &CborPacked,
    packs: crate::codec::HEX_TAG_ELEMENTS,
    evolution: &evolution::ADAPTER,
    maintenance: crate::codec::Maintenance {
        sources: &[file!()],
        shared: &["src/profiles/positional.rs"],
        schema: crate::codec::Schema::Document {
            path: "schemas/event.cddl",
        },
        crates: &["minicbor"],
        spec: crate::codec::maintenance::CBOR,
    },
};

/// Deterministic CBOR, positional array.
pub struct CborPacked;

/// What the CBOR profiles' writers return.
pub(super) type EncResult = Result<(), minicbor::encode::Error<std::convert::Infallible>>;

fn write_event(event: &Event, out: &mut Vec<u8>) -> EncResult {
    let mut e = Encoder::new(out);
    e.array(7)?
        .bytes(&event.id)?
        .bytes(&event.pubkey)?
        .u64(event.created_at)?
        .u16(event.kind)?;
    write_tags(&mut e, &event.tags)?;
    e.str(&event.content)?.bytes(&event.sig)?;
    Ok(())
}

/// The tag array: per tag an array of values, packed hex as byte strings
/// and the rest as text (`cbor-packed`, `cbor-intmap`).
pub(super) fn write_tags(e: &mut Encoder<&mut Vec<u8>>, tags: &[Vec<String>]) -> EncResult {
    e.array(tags.len() as u64)?;
    for tag in tags {
        e.array(tag.len() as u64)?;
        for v in tag {
            with_tag_value(v, |tv| match tv {
                TagValue::Bytes(b) => e.bytes(b).map(|_| ()),
                TagValue::Text(t) => e.str(t).map(|_| ()),
            })?;
        }
    }
    Ok(())
}

impl Codec for CborPacked {
    fn hostile(&self) -> Option<&dyn HostileInputs> {
        Some(self)
    }

    fn encode(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        write_event(event, out).map_err(|e| EncodeError::new(PROFILE.id, e.to_string()))
    }

    fn decode(&self, bytes: &[u8], limits: &Limits) -> Result<Event, DecodeError> {
        Ok(decode_parts(bytes, limits, restore_packed)?.into_event())
    }

    fn borrowed(&self) -> Option<&dyn BorrowDecode> {
        Some(&CborPacked)
    }
}

impl BorrowDecode for CborPacked {
    fn select_contract(&self) -> SelectContract {
        SelectContract::Preverified
    }

    fn decode_ref<'a>(
        &self,
        bytes: &'a [u8],
        limits: &Limits,
    ) -> Result<EventRef<'a>, DecodeError> {
        let p = decode_parts(bytes, limits, |v, l| match v {
            TagValue::Text(t) if t.len() > l.max_value_bytes => {
                Err(DecodeErrorKind::LimitExceeded(Limit::ValueBytes))
            }
            TagValue::Text(t) => check_text(v).map(|()| Cow::Borrowed(t)),
            bytes => restore(bytes, l).map(Cow::Owned),
        })?;
        Ok(p.into_ref())
    }

    fn kind_and_pubkey(
        &self,
        bytes: &[u8],
        limits: &Limits,
    ) -> Result<(u16, [u8; 32]), DecodeError> {
        let mut d = Cbor::event_array(bytes, limits)?;
        d.fixed::<32>()?;
        let pubkey = *d.fixed::<32>()?;
        d.uint()?;
        let kind = d.kind()?;
        Ok((kind, pubkey))
    }
}

fn decode_parts<'b, V: Text<'b>>(
    bytes: &'b [u8],
    limits: &Limits,
    value: impl Fn(TagValue<'b>, &Limits) -> Result<V, DecodeErrorKind>,
) -> Result<Parts<'b, V>, DecodeError> {
    let mut d = Cbor::event_array(bytes, limits)?;
    let id = d.fixed::<32>()?;
    let pubkey = d.fixed::<32>()?;
    let created_at = d.uint()?;
    let kind = d.kind()?;
    let tags = d.tags(limits, value)?;
    let content = d.text()?;
    let sig = d.fixed::<64>()?;
    d.finish()?;
    let content = V::from(content);
    Ok(Parts::new(id, pubkey, sig, created_at, kind, tags, content))
}

/// Length of the shortest CBOR head for argument `v`.
fn head_len(v: u64) -> usize {
    match v {
        0..=23 => 1,
        24..=0xff => 2,
        0x100..=0xffff => 3,
        0x1_0000..=0xffff_ffff => 5,
        _ => 9,
    }
}

/// minicbor's decoder plus the canonical-form checks (shared with the
/// `cbor-stringmap` and `cbor-intmap` variants).
pub(super) struct Cbor<'b> {
    pub(super) d: Decoder<'b>,
}

impl<'b> Cbor<'b> {
    fn new(bytes: &'b [u8]) -> Self {
        Self {
            d: Decoder::new(bytes),
        }
    }

    /// A decoder over `bytes`, within `limits.max_event_bytes`, past the
    /// head of the 7-element event array (`cbor-packed`).
    #[inline]
    fn event_array(bytes: &'b [u8], limits: &Limits) -> Result<Self, DecodeError> {
        check_event_size(bytes, limits)?;
        let mut d = Self::new(bytes);
        d.event_head()?;
        Ok(d)
    }

    /// [`Cbor::event_array`] for the 7-entry event map of `cbor-intmap` and
    /// `cbor-stringmap`.
    #[inline]
    pub(super) fn event_map(bytes: &'b [u8], limits: &Limits) -> Result<Self, DecodeError> {
        check_event_size(bytes, limits)?;
        let mut d = Self::new(bytes);
        d.map_head(7)?;
        Ok(d)
    }

    pub(super) fn err(&self, kind: DecodeErrorKind, at: usize) -> DecodeError {
        DecodeError::at(kind, at)
    }

    fn map(&self, e: &minicbor::decode::Error, at: usize, other: DecodeErrorKind) -> DecodeError {
        if e.is_end_of_input() {
            self.err(DecodeErrorKind::Truncated, self.d.input().len())
        } else if e.is_type_mismatch() {
            self.err(DecodeErrorKind::Invalid("type mismatch"), at)
        } else {
            self.err(other, at)
        }
    }

    /// Rejects an indefinite-length item at the current position.
    fn definite(&self) -> Result<usize, DecodeError> {
        let at = self.d.position();
        match self.d.input().get(at) {
            None => Err(self.err(DecodeErrorKind::Truncated, at)),
            Some(b) if b & 0x1f == 31 && b >> 5 >= 2 && b >> 5 <= 5 => {
                Err(self.err(DecodeErrorKind::NonCanonical, at))
            }
            Some(_) => Ok(at),
        }
    }

    /// Checks that the head just read (from `at`, `payload` bytes after it)
    /// was the shortest for `v`.
    fn shortest(&self, at: usize, payload: usize, v: u64) -> Result<(), DecodeError> {
        if self.d.position() - at - payload == head_len(v) {
            Ok(())
        } else {
            Err(self.err(DecodeErrorKind::NonCanonical, at))
        }
    }

    pub(super) fn array(&mut self) -> Result<(u64, usize), DecodeError> {
        let at = self.definite()?;
        let n = self
            .d
            .array()
            .map_err(|e| self.map(&e, at, DecodeErrorKind::Invalid("array")))?
            .ok_or_else(|| self.err(DecodeErrorKind::NonCanonical, at))?;
        self.shortest(at, 0, n)?;
        Ok((n, at))
    }

    fn event_head(&mut self) -> Result<(), DecodeError> {
        let (n, at) = self.array()?;
        if n != 7 {
            return Err(self.err(DecodeErrorKind::Invalid("event array length"), at));
        }
        Ok(())
    }

    /// A declared count, bounded by `limit` and by the bytes left.
    pub(super) fn count(&mut self, limit: usize, what: Limit) -> Result<usize, DecodeError> {
        let (n, at) = self.array()?;
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        if n > limit {
            return Err(self.err(DecodeErrorKind::LimitExceeded(what), at));
        }
        if n > self.d.input().len() - self.d.position() {
            return Err(self.err(DecodeErrorKind::Truncated, at));
        }
        Ok(n)
    }

    pub(super) fn uint(&mut self) -> Result<u64, DecodeError> {
        let at = self.d.position();
        let v = self
            .d
            .u64()
            .map_err(|e| self.map(&e, at, DecodeErrorKind::Invalid("unsigned integer")))?;
        self.shortest(at, 0, v)?;
        Ok(v)
    }

    pub(super) fn kind(&mut self) -> Result<u16, DecodeError> {
        let at = self.d.position();
        let v = self.uint()?;
        u16::try_from(v).map_err(|_| self.err(DecodeErrorKind::Invalid("kind out of range"), at))
    }

    pub(super) fn bytes(&mut self) -> Result<&'b [u8], DecodeError> {
        let at = self.definite()?;
        let b = self
            .d
            .bytes()
            .map_err(|e| self.map(&e, at, DecodeErrorKind::Invalid("byte string")))?;
        self.shortest(at, b.len(), b.len() as u64)?;
        Ok(b)
    }

    pub(super) fn fixed<const N: usize>(&mut self) -> Result<&'b [u8; N], DecodeError> {
        let at = self.d.position();
        self.bytes()?
            .try_into()
            .map_err(|_| self.err(DecodeErrorKind::Invalid("fixed field length"), at))
    }

    pub(super) fn text(&mut self) -> Result<&'b str, DecodeError> {
        let at = self.definite()?;
        let s = self
            .d
            .str()
            .map_err(|e| self.map(&e, at, DecodeErrorKind::BadUtf8))?;
        self.shortest(at, s.len(), s.len() as u64)?;
        Ok(s)
    }

    /// A definite map head with exactly `n` pairs.
    fn map_head(&mut self, n: u64) -> Result<(), DecodeError> {
        let at = self.definite()?;
        let len = self
            .d
            .map()
            .map_err(|e| self.map(&e, at, DecodeErrorKind::Invalid("map")))?
            .ok_or_else(|| self.err(DecodeErrorKind::NonCanonical, at))?;
        self.shortest(at, 0, len)?;
        if len != n {
            return Err(self.err(DecodeErrorKind::Invalid("event map length"), at));
        }
        Ok(())
    }

    /// The tags array, each value converted by `value`.
    pub(super) fn tags<V>(
        &mut self,
        limits: &Limits,
        value: impl Fn(TagValue<'b>, &Limits) -> Result<V, DecodeErrorKind>,
    ) -> Result<Vec<Vec<V>>, DecodeError> {
        let n_tags = self.count(limits.max_tags, Limit::Tags)?;
        let mut tags = Vec::with_capacity(n_tags);
        for _ in 0..n_tags {
            let n = self.count(limits.max_values_per_tag, Limit::ValuesPerTag)?;
            let mut tag = Vec::with_capacity(n);
            for _ in 0..n {
                let at = self.d.position();
                let v = self.tag_value()?;
                tag.push(value(v, limits).map_err(|k| DecodeError::at(k, at))?);
            }
            tags.push(tag);
        }
        Ok(tags)
    }

    /// Fails unless all input was consumed.
    pub(super) fn finish(&self) -> Result<(), DecodeError> {
        let at = self.d.position();
        if at == self.d.input().len() {
            Ok(())
        } else {
            Err(self.err(DecodeErrorKind::TrailingBytes, at))
        }
    }

    pub(super) fn tag_value(&mut self) -> Result<TagValue<'b>, DecodeError> {
        let at = self.definite()?;
        match self.d.datatype() {
            Ok(Type::Bytes) => self.bytes().map(TagValue::Bytes),
            Ok(Type::String) => self.text().map(TagValue::Text),
            Ok(_) => Err(self.err(DecodeErrorKind::Invalid("tag value type"), at)),
            Err(e) => Err(self.map(&e, at, DecodeErrorKind::Invalid("tag value type"))),
        }
    }
}

/// Hostile inputs. CBOR (RFC 8949) heads: the major type in the top three bits. The CBOR profiles share these.
impl HostileInputs for CborPacked {
    fn format(&self) -> &'static str {
        "cbor"
    }

    fn nesting_bomb(&self, shape: Nest, depth: usize, out: &mut Vec<u8>) {
        let unit: &[u8] = match shape {
            Nest::Array => &[0x81],
            Nest::Map => &[0xa1, 0x00],
        };
        repeat(out, unit, depth);
        out.push(0xf6);
    }

    fn length_bombs(&self) -> Vec<(&'static str, Vec<u8>)> {
        let u32max = [0xff; 4];
        let u64max = [0xff; 8];
        vec![
            ("array-2^32-1", [&[0x9a][..], &u32max].concat()),
            ("array-2^64-1", [&[0x9b][..], &u64max].concat()),
            ("map-2^64-1", [&[0xbb][..], &u64max].concat()),
            ("bytes-2^32-1", [&[0x5a][..], &u32max].concat()),
            ("bytes-2^64-1", [&[0x5b][..], &u64max].concat()),
            ("text-2^64-1", [&[0x7b][..], &u64max].concat()),
            ("event-id-2^64-1", [&[0x87, 0x5b][..], &u64max].concat()),
            (
                "event-tags-2^64-1",
                [&[0x87, 0x40, 0x40, 0x00, 0x00, 0x9b][..], &u64max].concat(),
            ),
            ("indefinite-unterminated", vec![0x9f; 64]),
        ]
    }

    fn variants(&self, golden: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
        let Some((&head, body)) = golden.split_first() else {
            return Vec::new();
        };
        let major = head & 0xe0;
        let n = head & 0x1f;
        if (major != 0x80 && major != 0xa0) || n >= 24 {
            return Vec::new();
        }
        vec![
            (
                "indefinite-outer",
                [&[major | 0x1f][..], body, &[0xff]].concat(),
            ),
            ("overlong-head-1", [&[major | 24, n][..], body].concat()),
            (
                "overlong-head-8",
                [&[major | 27, 0, 0, 0, 0, 0, 0, 0, n][..], body].concat(),
            ),
            ("tagged-outer", [&[0xd9, 0xd9, 0xf7][..], golden].concat()),
        ]
    }
}

pub(crate) mod evolution;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles::test_support::{
        conformance, error_after, golden_event, golden_hex, mutation_sweep, unhex,
    };

    const HEAD: usize = 1 + 34 + 34 + 5 + 1;

    /// `87` array(7), `58 20` bytes(32), `1a` uint32, `84` array(4),
    /// `60`..`73` text of 0..19, `41` bytes(1), `78 28` text of 40, `58 40`
    /// bytes(64).
    fn golden() -> Vec<u8> {
        golden_hex(
            "87 5820 {id} 5820 {pubkey} 1a6553f100 01 84 \
             84 6165 5820 {e} 73 {relay} 64 726f6f74 \
             82 6170 5820 {p} \
             85 6174 66 414243444546 63 616263 60 4100 \
             80 \
             7828 {content} 5840 {sig}",
        )
    }

    #[test]
    fn conforms() {
        let golden = golden();
        assert_eq!(golden.len(), HEAD + 1 + 62 + 37 + 17 + 1 + 42 + 66);
        let (total, json) = conformance(&CborPacked, &golden, true);
        println!("cbor-packed: {total} bytes vs json {json}");
    }

    #[test]
    fn every_accepted_mutation_is_canonical() {
        mutation_sweep(&CborPacked, &golden(), true);
    }

    #[test]
    fn borrowed_view() {
        let g = golden();
        let l = Limits::default();
        let r = CborPacked.decode_ref(&g, &l).unwrap();
        assert_eq!(r.to_owned_event(), golden_event());
        assert!(matches!(r.tags[2][1], Cow::Borrowed("ABCDEF")));
        assert_eq!(r.tags[0][1], crate::model::hex::encode(&[0xab; 32]));
        assert_eq!(CborPacked.kind_and_pubkey(&g, &l).unwrap(), (1, [0x22; 32]));
    }

    #[test]
    fn non_canonical_is_rejected() {
        let l = Limits::default();
        let g = golden();
        let at = |i: usize, with: &str, skip: usize| {
            let mut v = g[..i].to_vec();
            v.extend(golden_hex(with));
            v.extend(&g[i + skip..]);
            CborPacked.decode(&v, &l).unwrap_err()
        };
        // kind 1 as uint8
        assert_eq!(at(HEAD - 1, "1801", 1).kind, DecodeErrorKind::NonCanonical);
        // created_at as uint64
        assert_eq!(
            at(HEAD - 6, "1b000000006553f100", 5).kind,
            DecodeErrorKind::NonCanonical
        );
        // tags array with a 1-byte count
        assert_eq!(at(HEAD, "9803", 1).kind, DecodeErrorKind::NonCanonical);
        // indefinite-length tags array
        let e = at(HEAD, "9f", 1);
        assert_eq!(e, DecodeError::at(DecodeErrorKind::NonCanonical, HEAD));
        // content as an indefinite text string
        let content = g.len() - 66 - 42;
        assert_eq!(
            at(content, "7f 7828 {content} ff", 42).kind,
            DecodeErrorKind::NonCanonical
        );
        // an empty byte string as a tag value
        let v = at(HEAD + 1 + 3, "40", 34);
        assert_eq!(v.kind, DecodeErrorKind::NonCanonical);
        // a CBOR tag before the event
        let mut t = unhex("c0");
        t.extend(&g);
        assert_eq!(
            CborPacked.decode(&t, &l).unwrap_err().kind,
            DecodeErrorKind::Invalid("type mismatch")
        );
    }

    #[test]
    fn hostile_lengths_fail_before_allocating() {
        let g = golden();
        let after = |tail| error_after(&CborPacked, &g, HEAD, tail);
        assert_eq!(
            after("9bffffffffffffffff"),
            DecodeErrorKind::LimitExceeded(Limit::Tags)
        );
        // 1000 tags in 3 bytes
        assert_eq!(after("9903e8"), DecodeErrorKind::Truncated);
        assert_eq!(
            after("819a00010000"),
            DecodeErrorKind::LimitExceeded(Limit::ValuesPerTag)
        );
        assert_eq!(
            after("81817bffffffffffffffff78"),
            DecodeErrorKind::Truncated
        );
        assert_eq!(after("818162ff00"), DecodeErrorKind::BadUtf8);
    }

    #[test]
    fn bombs_have_the_exact_bytes_and_are_linear() {
        use crate::codec::hostile::bomb;
        assert_eq!(bomb(&CborPacked, Nest::Array, 2), [0x81, 0x81, 0xf6]);
        let b = bomb(&CborPacked, Nest::Array, 10_000_000);
        assert_eq!(b.len(), 10_000_001);
    }
}

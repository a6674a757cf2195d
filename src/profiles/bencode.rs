//! `bencode`: the event as a BEP 3 bencoded positional list.
//!
//! # Layout
//!
//! Bencode has byte strings `N:bytes`, integers `i…e`, lists `l…e` and
//! dicts `d…e`; only the first three occur.
//!
//! | position | value | encoding |
//! |---|---|---|
//! | event | list of the seven fields below | `l` … `e` |
//! | 0 | id | `32:` + 32 raw bytes |
//! | 1 | pubkey | `32:` + 32 raw bytes |
//! | 2 | created_at | `i` decimal `e` |
//! | 3 | kind | `i` decimal `e` |
//! | 4 | tags | `l` (`l` (`N:` UTF-8 value)* `e`)* `e` |
//! | 5 | content | `N:` UTF-8 |
//! | 6 | sig | `64:` + 64 raw bytes |
//!
//! The event is a positional list rather than a dict (whose keys BEP 3 would
//! require sorted), for a fair comparison with the other positional profiles.
//!
//! # Canonical form
//!
//! Integers and string lengths are canonical decimal: no leading zeros and
//! no `-0`, as BEP 3 requires for integers (and as canonical bencode requires
//! of lengths). `created_at` and `kind` are non-negative and fit `u64` and
//! `u16`. Exactly seven elements. The encoding is unique, so the profile is
//! deterministic.
//!
//! # Hex policy
//!
//! Bencode strings are byte strings, and positions 0, 1 and 6 always hold
//! id, pubkey and sig, so these travel as raw 32/32/64-byte strings (exact
//! lengths required): the fair choice for size, as in the other binary
//! profiles. Tag values and content are text exactly as written (UTF-8
//! validated on decode), never packed: a packed tag value would need a marker
//! bencode does not have.
//!
//! # Limits
//!
//! `max_event_bytes` is checked first. Every string length is checked against
//! the remaining input and (for tag values) `max_value_bytes` before the
//! bytes are read; bencode lists carry no count, so tags and values are
//! counted as they are read (`max_tags`, `max_values_per_tag`). The schema
//! fixes the depth at three (also checked against `max_depth`): a list where
//! a string or integer belongs is rejected at once, without recursion. Every
//! event is representable.
//!
//! # Borrowed decoding
//!
//! [`BorrowDecode`](crate::codec::BorrowDecode) borrows id, pubkey, sig, tag values and content from the
//! input. `kind_and_pubkey` reads only the fixed prefix (list opener, id,
//! pubkey, created_at, kind), bounds-checked; it does not validate the rest
//! of the event.

use crate::codec::ascii::{push_len, push_u64};
use crate::codec::hostile::{HostileInputs, Nest, repeat, replace_first};
use crate::codec::{
    Capabilities, DecodeError, DecodeErrorKind, EncodeError, Family, Layout, Limit, Limits, Parts,
    Profile, Reader, Text,
};
use crate::model::Event;

/// The registry entry.
pub const PROFILE: Profile = Profile {
    id: "bencode",
    family: Family::Streaming,
    capabilities: Capabilities {
        deterministic: true,
        self_describing: true,
    },
    enabled: true,
    codec: &Bencode,
    packs: &[],
    evolution: &evolution::ADAPTER,
    maintenance: crate::codec::Maintenance::standalone(
        &[file!()],
        crate::codec::maintenance::BENCODE,
    ),
};

/// Bencode, positional list, raw id/pubkey/sig.
pub struct Bencode;

fn put_bytes(out: &mut Vec<u8>, s: &[u8]) {
    push_len(out, s.len());
    out.push(b':');
    out.extend_from_slice(s);
}

fn put_int(out: &mut Vec<u8>, n: u64) {
    out.push(b'i');
    push_u64(out, n);
    out.push(b'e');
}

impl Layout for Bencode {
    const ID: &'static str = PROFILE.id;

    fn write(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        out.push(b'l');
        put_bytes(out, &event.id);
        put_bytes(out, &event.pubkey);
        put_int(out, event.created_at);
        put_int(out, u64::from(event.kind));
        out.push(b'l');
        for tag in &event.tags {
            out.push(b'l');
            for value in tag {
                put_bytes(out, value.as_bytes());
            }
            out.push(b'e');
        }
        out.push(b'e');
        put_bytes(out, event.content.as_bytes());
        put_bytes(out, &event.sig);
        out.push(b'e');
        Ok(())
    }

    fn parse<'a, S: Text<'a>>(
        bytes: &'a [u8],
        limits: &Limits,
    ) -> Result<Parts<'a, S>, DecodeError> {
        let mut r = Reader::new(bytes);
        let Head {
            id,
            pubkey,
            created_at,
            kind,
        } = head(&mut r, limits)?;
        if limits.max_depth < 2 {
            return Err(r.error(DecodeErrorKind::LimitExceeded(Limit::Depth)));
        }
        r.expect(b'l', "tags must be a list")?;
        let mut tags = Vec::new();
        loop {
            match r.peek() {
                Some(b'e') => break,
                Some(b'l') => {}
                None => return Err(r.error(DecodeErrorKind::Truncated)),
                Some(_) => return Err(r.error(DecodeErrorKind::Invalid("tag must be a list"))),
            }
            if tags.len() == limits.max_tags {
                return Err(r.error(DecodeErrorKind::LimitExceeded(Limit::Tags)));
            }
            if limits.max_depth < 3 {
                return Err(r.error(DecodeErrorKind::LimitExceeded(Limit::Depth)));
            }
            r.u8()?;
            let mut tag = Vec::new();
            loop {
                match r.peek() {
                    Some(b'e') => break,
                    Some(b'0'..=b'9') => {}
                    None => return Err(r.error(DecodeErrorKind::Truncated)),
                    Some(_) => {
                        return Err(
                            r.error(DecodeErrorKind::Invalid("tag value must be a byte string"))
                        );
                    }
                }
                if tag.len() == limits.max_values_per_tag {
                    return Err(r.error(DecodeErrorKind::LimitExceeded(Limit::ValuesPerTag)));
                }
                tag.push(S::from(text(&mut r, limits.max_value_bytes)?));
            }
            r.u8()?;
            tags.push(tag);
        }
        r.u8()?;
        let content = S::from(text(&mut r, usize::MAX)?);
        let sig = fixed::<64>(&mut r, "sig must be a 64-byte string")?;
        r.expect(b'e', "event list has extra elements")?;
        r.finish()?;
        Ok(Parts::new(id, pubkey, sig, created_at, kind, tags, content))
    }

    /// The list opener, id, pubkey, created_at and kind, bounds-checked; the
    /// rest of the event is not validated.
    fn prefix(bytes: &[u8], limits: &Limits) -> Result<(u16, [u8; 32]), DecodeError> {
        let mut r = Reader::new(bytes);
        let head = head(&mut r, limits)?;
        Ok((head.kind, *head.pubkey))
    }

    fn hostile_inputs(&self) -> Option<&dyn HostileInputs> {
        Some(self)
    }
}

/// The fixed prefix of the event list.
struct Head<'a> {
    id: &'a [u8; 32],
    pubkey: &'a [u8; 32],
    created_at: u64,
    kind: u16,
}

fn head<'a>(r: &mut Reader<'a>, limits: &Limits) -> Result<Head<'a>, DecodeError> {
    if limits.max_depth < 1 {
        return Err(r.error(DecodeErrorKind::LimitExceeded(Limit::Depth)));
    }
    r.expect(b'l', "event must be a list")?;
    let id = fixed::<32>(r, "id must be a 32-byte string")?;
    let pubkey = fixed::<32>(r, "pubkey must be a 32-byte string")?;
    let created_at = int(r, u64::MAX)?;
    let kind = u16::try_from(int(r, u64::from(u16::MAX))?).unwrap_or(u16::MAX);
    Ok(Head {
        id,
        pubkey,
        created_at,
        kind,
    })
}

/// Reads a string length and its `:`; `what` names the expected string.
fn length(r: &mut Reader<'_>, what: &'static str) -> Result<u64, DecodeError> {
    match r.peek() {
        Some(b'0'..=b'9') => {}
        None => return Err(r.error(DecodeErrorKind::Truncated)),
        Some(_) => return Err(r.error(DecodeErrorKind::Invalid(what))),
    }
    let n = r.ascii_decimal(20)?;
    r.expect(b':', "expected ':' after a string length")?;
    Ok(n)
}

fn fixed<'a, const N: usize>(
    r: &mut Reader<'a>,
    what: &'static str,
) -> Result<&'a [u8; N], DecodeError> {
    let start = r.offset();
    if length(r, what)? != N as u64 {
        return Err(DecodeError::at(DecodeErrorKind::Invalid(what), start));
    }
    r.array::<N>()
}

fn text<'a>(r: &mut Reader<'a>, max: usize) -> Result<&'a str, DecodeError> {
    let start = r.offset();
    let n = length(r, "expected a byte string")?;
    let n = usize::try_from(n).unwrap_or(usize::MAX);
    if n > max {
        return Err(DecodeError::at(
            DecodeErrorKind::LimitExceeded(Limit::ValueBytes),
            start,
        ));
    }
    r.str(n)
}

fn int(r: &mut Reader<'_>, max: u64) -> Result<u64, DecodeError> {
    let start = r.offset();
    r.expect(b'i', "expected an integer")?;
    if r.peek() == Some(b'-') {
        return Err(r.error(DecodeErrorKind::Invalid("negative integer")));
    }
    let v = r.ascii_decimal(20)?;
    r.expect(b'e', "integer is not canonical decimal")?;
    if v > max {
        return Err(DecodeError::at(
            DecodeErrorKind::Invalid("integer out of range"),
            start,
        ));
    }
    Ok(v)
}

/// Hostile inputs. Bencode (BEP 3).
impl HostileInputs for Bencode {
    fn format(&self) -> &'static str {
        "bencode"
    }

    fn nesting_bomb(&self, shape: Nest, depth: usize, out: &mut Vec<u8>) {
        let open: &[u8] = match shape {
            Nest::Array => b"l",
            Nest::Map => b"d1:a",
        };
        repeat(out, open, depth);
        out.extend_from_slice(b"i0e");
        repeat(out, b"e", depth);
    }

    fn length_bombs(&self) -> Vec<(&'static str, Vec<u8>)> {
        vec![
            ("string-2^32-1", b"4294967295:x".to_vec()),
            ("string-2^64-1", b"18446744073709551615:x".to_vec()),
            ("in-dict-2^64-1", b"d18446744073709551615:x".to_vec()),
            ("integer-2^64", b"i18446744073709551616e".to_vec()),
            ("digits-4096", [&[b'9'; 4096][..], b":"].concat()),
        ]
    }

    fn variants(&self, golden: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
        let mut v = Vec::new();
        if let Some(b) = replace_first(golden, b"4:kindi", b"4:kindi0") {
            v.push(("leading-zero-integer", b));
        }
        if let Some(b) = replace_first(golden, b"4:kind", b"4:kindi1e4:kind") {
            v.push(("duplicate-kind", b));
        }
        if let Some(b) = replace_first(golden, b"4:kind", b"1:xi0e4:kind") {
            v.push(("unknown-field", b));
        }
        v
    }
}

pub(crate) mod evolution;

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::*;
    use crate::codec::{BorrowDecode, Codec};
    use crate::profiles::test_support::golden_event;

    /// Built by hand from the layout (raw bytes spelled out).
    fn golden_bytes() -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(b"l32:");
        b.extend((0..32).map(|i: u8| i));
        b.extend_from_slice(b"32:");
        b.extend_from_slice(&[0x22; 32]);
        b.extend_from_slice(b"i1700000000ei1e");
        b.extend_from_slice(b"ll1:e64:");
        b.extend_from_slice("ab".repeat(32).as_bytes());
        b.extend_from_slice(b"19:wss://relay.example4:rootel1:p64:");
        b.extend_from_slice("cd".repeat(32).as_bytes());
        b.extend_from_slice(b"el1:t6:ABCDEF3:abc0:2:00elee40:");
        b.extend_from_slice("gm 🌅 \"quoted\"\n\t日本語 עברית \u{1}64:".as_bytes());
        b.extend((0..64).map(|i: u8| 0xff - i));
        b.push(b'e');
        b
    }

    fn encode(e: &Event) -> Vec<u8> {
        let mut out = Vec::new();
        Bencode.encode(e, &mut out).unwrap();
        out
    }

    #[test]
    fn golden_vector() {
        let bytes = encode(&golden_event());
        assert_eq!(bytes, golden_bytes());
        // 1 + 35 + 35 + 12 + 3 + tags (1 + 100 + 72 + 24 + 2 + 1) + 43 + 67 + 1
        assert_eq!(bytes.len(), 397);
        assert_eq!(
            Bencode.decode(&bytes, &Limits::default()),
            Ok(golden_event())
        );
    }

    #[test]
    fn bep3_vectors() {
        let mut out = Vec::new();
        put_int(&mut out, 42);
        put_bytes(&mut out, b"spam");
        put_int(&mut out, 0);
        assert_eq!(out, b"i42e4:spami0e");
    }

    #[test]
    fn encode_appends() {
        let mut out = b"xy".to_vec();
        Bencode.encode(&golden_event(), &mut out).unwrap();
        assert_eq!(&out[..2], b"xy");
        assert_eq!(&out[2..], golden_bytes());
    }

    #[test]
    fn generated_corpus_round_trips_and_is_deterministic() {
        let events = crate::corpus::generate::generate(1, 300);
        let limits = Limits::default();
        let mut not_representable = 0;
        for e in &events {
            let mut out = Vec::new();
            match Bencode.encode(e, &mut out) {
                Ok(()) => {
                    let back = Bencode.decode(&out, &limits).unwrap();
                    assert_eq!(&back, e);
                    assert_eq!(encode(&back), out);
                    let view = Bencode.decode_ref(&out, &limits).unwrap();
                    assert_eq!(view.to_owned_event(), *e);
                    assert_eq!(
                        Bencode.kind_and_pubkey(&out, &limits),
                        Ok((e.kind, e.pubkey))
                    );
                }
                Err(_) => not_representable += 1,
            }
        }
        assert_eq!(not_representable, 0);
    }

    #[test]
    fn borrowed_view_borrows() {
        let bytes = golden_bytes();
        let view = Bencode.decode_ref(&bytes, &Limits::default()).unwrap();
        assert!(matches!(view.pubkey, Cow::Borrowed(_)));
        assert!(matches!(view.content, Cow::Borrowed(c) if c == golden_event().content));
        assert!(matches!(view.tags[2][1], Cow::Borrowed("ABCDEF")));
        assert_eq!(view.to_owned_event(), golden_event());
    }

    #[test]
    fn every_truncation_fails_and_trailing_bytes_fail() {
        let bytes = golden_bytes();
        let limits = Limits::default();
        for n in 0..bytes.len() {
            assert!(Bencode.decode(&bytes[..n], &limits).is_err(), "{n}");
            assert!(Bencode.decode_ref(&bytes[..n], &limits).is_err(), "{n}");
        }
        // The prefix kind_and_pubkey reads ends after `i1e` at byte 86.
        for n in 0..86 {
            assert!(
                Bencode.kind_and_pubkey(&bytes[..n], &limits).is_err(),
                "{n}"
            );
        }
        assert_eq!(
            Bencode.kind_and_pubkey(&bytes[..86], &limits),
            Ok((1, [0x22; 32]))
        );
        let mut long = bytes.clone();
        long.push(b'e');
        assert_eq!(
            Bencode.decode(&long, &limits).unwrap_err(),
            DecodeError::at(DecodeErrorKind::TrailingBytes, bytes.len())
        );
    }

    #[test]
    fn limits_apply_while_decoding() {
        let bytes = golden_bytes();
        let one_tag = Limits {
            max_tags: 1,
            ..Limits::default()
        };
        assert_eq!(
            Bencode.decode(&bytes, &one_tag).unwrap_err().kind,
            DecodeErrorKind::LimitExceeded(Limit::Tags)
        );
        let one_value = Limits {
            max_values_per_tag: 1,
            ..Limits::default()
        };
        assert_eq!(
            Bencode.decode(&bytes, &one_value).unwrap_err().kind,
            DecodeErrorKind::LimitExceeded(Limit::ValuesPerTag)
        );
        let short_values = Limits {
            max_value_bytes: 63,
            ..Limits::default()
        };
        assert_eq!(
            Bencode.decode(&bytes, &short_values).unwrap_err().kind,
            DecodeErrorKind::LimitExceeded(Limit::ValueBytes)
        );
        let shallow = Limits {
            max_depth: 2,
            ..Limits::default()
        };
        assert_eq!(
            Bencode.decode(&bytes, &shallow).unwrap_err().kind,
            DecodeErrorKind::LimitExceeded(Limit::Depth)
        );
        let tiny = Limits {
            max_event_bytes: 100,
            ..Limits::default()
        };
        assert_eq!(
            Bencode.decode(&bytes, &tiny).unwrap_err().kind,
            DecodeErrorKind::LimitExceeded(Limit::EventBytes)
        );
        // A huge declared length in a few bytes fails before allocating.
        let mut huge = bytes[..86].to_vec();
        huge.extend_from_slice(b"ll9999999999999999999:");
        assert_eq!(
            Bencode.decode(&huge, &Limits::default()).unwrap_err().kind,
            DecodeErrorKind::LimitExceeded(Limit::ValueBytes)
        );
        assert_eq!(
            Bencode
                .decode(b"l18446744073709551616:", &Limits::default())
                .unwrap_err()
                .kind,
            DecodeErrorKind::Invalid("number out of range")
        );
        let mut big_content = bytes[..86].to_vec();
        big_content.extend_from_slice(b"le4000000000:");
        assert_eq!(
            Bencode
                .decode(&big_content, &Limits::default())
                .unwrap_err()
                .kind,
            DecodeErrorKind::Truncated
        );
    }

    #[test]
    fn non_canonical_input_is_rejected() {
        let good = golden_bytes();
        let swap = |from: &[u8], to: &[u8]| {
            let at = good.windows(from.len()).position(|w| w == from).unwrap();
            let mut b = good[..at].to_vec();
            b.extend_from_slice(to);
            b.extend_from_slice(&good[at + from.len()..]);
            b
        };
        let cases = [
            (swap(b"i1e", b"i01e"), DecodeErrorKind::NonCanonical),
            (
                swap(b"i1e", b"i-0e"),
                DecodeErrorKind::Invalid("negative integer"),
            ),
            (
                swap(b"i1e", b"i65536e"),
                DecodeErrorKind::Invalid("integer out of range"),
            ),
            (swap(b"1:t", b"01:t"), DecodeErrorKind::NonCanonical),
            (
                swap(b"l32:", b"l31:"),
                DecodeErrorKind::Invalid("id must be a 32-byte string"),
            ),
            (
                swap(b"l1:t6:ABCDEF", b"l1:ti5e"),
                DecodeErrorKind::Invalid("tag value must be a byte string"),
            ),
            (swap(b"6:ABCDEF", b"6:ABC\xffEF"), DecodeErrorKind::BadUtf8),
            (
                swap(b"i1700000000e", b"i1700000000 e"),
                DecodeErrorKind::Invalid("integer is not canonical decimal"),
            ),
        ];
        for (bad, kind) in cases {
            assert_eq!(
                Bencode.decode(&bad, &Limits::default()).unwrap_err().kind,
                kind,
                "{}",
                String::from_utf8_lossy(&bad)
            );
        }
    }

    #[test]
    fn deep_nesting_fails_fast_without_recursion() {
        let bytes = vec![b'l'; 100_000];
        let unlimited = Limits {
            max_event_bytes: usize::MAX,
            ..Limits::default()
        };
        let started = std::time::Instant::now();
        let err = Bencode.decode(&bytes, &unlimited).unwrap_err();
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
        assert_eq!(
            err,
            DecodeError::at(DecodeErrorKind::Invalid("id must be a 32-byte string"), 1)
        );
        // Nested lists inside a tag are rejected at the first extra opener.
        let mut deep = golden_bytes()[..86].to_vec();
        deep.extend(std::iter::repeat_n(b'l', 100_000));
        let err = Bencode.decode(&deep, &unlimited).unwrap_err();
        assert_eq!(
            err,
            DecodeError::at(
                DecodeErrorKind::Invalid("tag value must be a byte string"),
                88
            )
        );
    }

    #[test]
    fn bombs_have_the_exact_bytes() {
        use crate::codec::hostile::bomb;
        assert_eq!(bomb(&Bencode, Nest::Map, 2), b"d1:ad1:ai0eee");
    }
}

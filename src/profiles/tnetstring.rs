//! `tnetstring`: the event as a TNetstring (tagged netstring, tnetstrings.org)
//! positional list.
//!
//! # Layout
//!
//! Every value is `SIZE ':' DATA TYPE`: `SIZE` is the byte length of `DATA`
//! in ASCII decimal, and the type character comes *after* the data. Only
//! three of the spec's types occur: `,` string, `#` integer, `]` list.
//!
//! | position | value | encoding |
//! |---|---|---|
//! | event | list of the seven fields below | `N:` … `]` |
//! | 0 | id | `64:` 64 lowercase hex characters `,` |
//! | 1 | pubkey | `64:` 64 lowercase hex characters `,` |
//! | 2 | created_at | `N:` decimal `#` |
//! | 3 | kind | `N:` decimal `#` |
//! | 4 | tags | `N:` (`N:` (`N:` value `,`)* `]`)* `]` |
//! | 5 | content | `N:` UTF-8 `,` |
//! | 6 | sig | `128:` 128 lowercase hex characters `,` |
//!
//! The event is a positional list rather than a dict keyed by field name, for
//! a fair comparison with the other positional profiles (`cbor-packed`,
//! `bencode`, `otnetstring`); a dict would add about 45 bytes of keys.
//!
//! # Canonical form
//!
//! Sizes and integers are canonical decimal: no sign, no leading zeros (`0`
//! is `0`), at most 9 digits for a size as the spec's grammar
//! `SIZE = [0-9]{1,9}` requires. `created_at` must fit a `u64` and `kind` a
//! `u16`. Exactly seven elements; every nested value must end exactly at its
//! container's end. The encoding of an event is unique, so the profile is
//! deterministic.
//!
//! # Hex policy
//!
//! TNetstring's `,` is the only string type: it cannot tell text from bytes.
//! id, pubkey and sig travel as lowercase hex text, as they do in NIP-01 JSON
//! and as a dynamic TNetstring library hands them over; the decoder accepts
//! only lowercase hex of the exact length. Tag values and content are text,
//! exactly as written (UTF-8 validated on decode), never packed.
//!
//! # Limits
//!
//! The input size is checked against `max_event_bytes` first. Every `SIZE`
//! is checked against the remaining input and against its container before
//! anything is read or allocated, and a tag value's `SIZE` against
//! `max_value_bytes`. Tags and values are counted as they are read
//! (`max_tags`, `max_values_per_tag`). The schema fixes the depth at three
//! (event, tags, tag; also checked against `max_depth`): a container where a
//! string or integer belongs is rejected at once, without recursion.
//!
//! An event whose list payload exceeds 999,999,999 bytes (the 9-digit
//! `SIZE`) is not representable and fails to encode.
//!
//! # Differences from the spec
//!
//! The spec's reference parser uses Python `int()` on integers and sizes, so
//! it accepts signs, leading zeros and surrounding whitespace; this profile
//! requires canonical decimal. Strings are required to be UTF-8 where the
//! event needs text. Trailing bytes after the event are an error (the spec
//! returns them as a remainder; framing is the caller's job here).

use crate::codec::ascii::{digits, len_digits, push_len, push_u64};
use crate::codec::{
    Capabilities, Codec, DecodeError, DecodeErrorKind, EncodeError, Family, Limits, Profile,
    Reader, check_event_size,
};
use crate::model::{Event, hex};

/// The registry entry.
pub const PROFILE: Profile = Profile {
    id: "tnetstring",
    family: Family::Streaming,
    capabilities: Capabilities {
        deterministic: true,
        self_describing: true,
    },
    enabled: true,
    codec: &TNetstring,
};

/// TNetstring, positional list, hex text for id/pubkey/sig.
pub struct TNetstring;

/// Largest `SIZE` the 9-digit grammar allows.
const MAX_SIZE: usize = 999_999_999;

/// Encoded size of a value whose data is `n` bytes.
fn sized(n: usize) -> usize {
    len_digits(n) + n + 2
}

fn int_size(n: u64) -> usize {
    sized(digits(n))
}

fn tag_payload(tag: &[String]) -> usize {
    tag.iter().map(|v| sized(v.len())).sum()
}

fn put_header(out: &mut Vec<u8>, n: usize) {
    push_len(out, n);
    out.push(b':');
}

fn put_str(out: &mut Vec<u8>, s: &[u8]) {
    put_header(out, s.len());
    out.extend_from_slice(s);
    out.push(b',');
}

fn put_hex(out: &mut Vec<u8>, bytes: &[u8]) {
    put_header(out, 2 * bytes.len());
    hex::encode_into(bytes, out);
    out.push(b',');
}

fn put_int(out: &mut Vec<u8>, n: u64) {
    put_header(out, digits(n));
    push_u64(out, n);
    out.push(b'#');
}

impl Codec for TNetstring {
    fn hostile(&self) -> Option<&dyn crate::codec::HostileInputs> {
        Some(&crate::codec::hostile::TNetstring)
    }

    fn encode(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let tags_payload: usize = event.tags.iter().map(|t| sized(tag_payload(t))).sum();
        let payload = 2 * sized(64)
            + int_size(event.created_at)
            + int_size(u64::from(event.kind))
            + sized(tags_payload)
            + sized(event.content.len())
            + sized(128);
        if payload > MAX_SIZE {
            return Err(EncodeError {
                profile: PROFILE.id,
                reason: format!("event list of {payload} bytes exceeds the 9-digit size"),
            });
        }
        out.reserve(sized(payload));
        put_header(out, payload);
        put_hex(out, &event.id);
        put_hex(out, &event.pubkey);
        put_int(out, event.created_at);
        put_int(out, u64::from(event.kind));
        put_header(out, tags_payload);
        for tag in &event.tags {
            put_header(out, tag_payload(tag));
            for value in tag {
                put_str(out, value.as_bytes());
            }
            out.push(b']');
        }
        out.push(b']');
        put_str(out, event.content.as_bytes());
        put_hex(out, &event.sig);
        out.push(b']');
        Ok(())
    }

    fn decode(&self, bytes: &[u8], limits: &Limits) -> Result<Event, DecodeError> {
        check_event_size(bytes, limits)?;
        let mut r = Reader::new(bytes);
        let end = open(&mut r, bytes.len(), 1, limits, "event must be a list")?;
        let id = hex_field::<32>(&mut r, end, "id must be 64 lowercase hex characters")?;
        let pubkey = hex_field::<32>(&mut r, end, "pubkey must be 64 lowercase hex characters")?;
        let created_at = int(&mut r, end, u64::MAX)?;
        let kind = u16::try_from(int(&mut r, end, u64::from(u16::MAX))?).unwrap_or(u16::MAX);
        let tags_end = open(&mut r, end, 2, limits, "tags must be a list")?;
        let mut tags = Vec::new();
        while r.offset() < tags_end {
            if tags.len() == limits.max_tags {
                return Err(r.error(DecodeErrorKind::LimitExceeded("tags")));
            }
            let tag_end = open(&mut r, tags_end, 3, limits, "tag must be a list")?;
            let mut tag = Vec::new();
            while r.offset() < tag_end {
                if tag.len() == limits.max_values_per_tag {
                    return Err(r.error(DecodeErrorKind::LimitExceeded("values per tag")));
                }
                tag.push(string(&mut r, tag_end, limits.max_value_bytes)?.to_owned());
            }
            r.u8()?;
            tags.push(tag);
        }
        r.u8()?;
        let content = string(&mut r, end, usize::MAX)?.to_owned();
        let sig = hex_field::<64>(&mut r, end, "sig must be 128 lowercase hex characters")?;
        if r.offset() != end {
            return Err(r.error(DecodeErrorKind::Invalid("event list has extra elements")));
        }
        r.u8()?;
        r.finish()?;
        Ok(Event {
            id,
            pubkey,
            sig,
            created_at,
            kind,
            tags,
            content,
        })
    }
}

/// Reads `SIZE ':'` and checks that `SIZE` bytes of data plus the type
/// character fit in the input and before `end`; returns `SIZE`.
fn header(r: &mut Reader<'_>, end: usize) -> Result<usize, DecodeError> {
    let start = r.offset();
    let n = r.ascii_decimal(9)?;
    r.expect(b':', "expected ':' after a size")?;
    let n = usize::try_from(n).unwrap_or(usize::MAX);
    if n >= r.remaining() {
        return Err(r.error(DecodeErrorKind::Truncated));
    }
    if end.checked_sub(r.offset()).is_none_or(|room| n >= room) {
        return Err(DecodeError::at(
            DecodeErrorKind::Invalid("element overruns its container"),
            start,
        ));
    }
    Ok(n)
}

/// Reads a header and checks the type character after the data; leaves the
/// cursor at the data.
fn typed(r: &mut Reader<'_>, end: usize, ty: u8, what: &'static str) -> Result<usize, DecodeError> {
    let start = r.offset();
    let n = header(r, end)?;
    if r.peek_at(n) != Some(ty) {
        return Err(DecodeError::at(DecodeErrorKind::Invalid(what), start));
    }
    Ok(n)
}

/// Opens a list at nesting `depth`; returns the offset where its data ends
/// (the position of its `]`).
fn open(
    r: &mut Reader<'_>,
    end: usize,
    depth: usize,
    limits: &Limits,
    what: &'static str,
) -> Result<usize, DecodeError> {
    if depth > limits.max_depth {
        return Err(r.error(DecodeErrorKind::LimitExceeded("depth")));
    }
    let n = typed(r, end, b']', what)?;
    Ok(r.offset() + n)
}

fn string<'a>(r: &mut Reader<'a>, end: usize, max: usize) -> Result<&'a str, DecodeError> {
    let start = r.offset();
    let n = typed(r, end, b',', "expected a string")?;
    if n > max {
        return Err(DecodeError::at(
            DecodeErrorKind::LimitExceeded("tag value bytes"),
            start,
        ));
    }
    let s = r.str(n)?;
    r.u8()?;
    Ok(s)
}

fn hex_field<const N: usize>(
    r: &mut Reader<'_>,
    end: usize,
    what: &'static str,
) -> Result<[u8; N], DecodeError> {
    let start = r.offset();
    let n = typed(r, end, b',', what)?;
    let s = r.take(n)?;
    let out = std::str::from_utf8(s)
        .ok()
        .and_then(hex::decode_array::<N>)
        .ok_or(DecodeError::at(DecodeErrorKind::Invalid(what), start))?;
    r.u8()?;
    Ok(out)
}

fn int(r: &mut Reader<'_>, end: usize, max: u64) -> Result<u64, DecodeError> {
    let start = r.offset();
    let n = typed(r, end, b'#', "expected an integer")?;
    let data = r.offset();
    let v = r.ascii_decimal(n)?;
    if r.offset() - data != n {
        return Err(DecodeError::at(
            DecodeErrorKind::Invalid("integer is not canonical decimal"),
            data,
        ));
    }
    if v > max {
        return Err(DecodeError::at(
            DecodeErrorKind::Invalid("integer out of range"),
            start,
        ));
    }
    r.u8()?;
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn golden_event() -> Event {
        Event {
            id: [0x11; 32],
            pubkey: [0x22; 32],
            sig: [0x33; 64],
            created_at: 1_700_000_000,
            kind: 1,
            tags: vec![
                vec!["e".into(), "ab".repeat(32)],
                vec!["p".into(), "ABCDEF".into()],
                vec!["t".into(), "nostr".into()],
            ],
            content: "hi\n".into(),
        }
    }

    /// Built by hand from the layout: each size counts the bytes between its
    /// `:` and its type character.
    fn golden_bytes() -> Vec<u8> {
        let h11 = "11".repeat(32);
        let h22 = "22".repeat(32);
        let hab = "ab".repeat(32);
        let h33 = "33".repeat(64);
        // tag 1: "1:e," (4) + "64:<64>," (68) = 72
        // tag 2: "1:p," (4) + "6:ABCDEF," (9) = 13
        // tag 3: "1:t," (4) + "5:nostr," (8) = 12
        // tags: "72:" 72 "]" (76) + "13:" 13 "]" (17) + "12:" 12 "]" (16) = 109
        // event: 68 + 68 + "10:1700000000#" (14) + "1:1#" (4)
        //        + "109:" 109 "]" (114) + "3:hi\n," (6) + "128:<128>," (133) = 407
        format!(
            "407:64:{h11},64:{h22},10:1700000000#1:1#109:72:1:e,64:{hab},]13:1:p,6:ABCDEF,]12:1:t,5:nostr,]]3:hi\n,128:{h33},]"
        )
        .into_bytes()
    }

    fn encode(e: &Event) -> Vec<u8> {
        let mut out = Vec::new();
        TNetstring.encode(e, &mut out).unwrap();
        out
    }

    #[test]
    fn golden_vector() {
        let bytes = encode(&golden_event());
        assert_eq!(
            String::from_utf8_lossy(&bytes),
            String::from_utf8_lossy(&golden_bytes())
        );
        assert_eq!(bytes.len(), 412);
        assert_eq!(
            TNetstring.decode(&bytes, &Limits::default()),
            Ok(golden_event())
        );
    }

    #[test]
    fn encode_appends() {
        let mut out = b"xy".to_vec();
        TNetstring.encode(&golden_event(), &mut out).unwrap();
        assert_eq!(&out[..2], b"xy");
        assert_eq!(&out[2..], golden_bytes());
    }

    #[test]
    fn generated_corpus_round_trips_and_is_deterministic() {
        let events = crate::corpus::generate::generate(1, 300);
        let mut not_representable = 0;
        for e in &events {
            let mut out = Vec::new();
            match TNetstring.encode(e, &mut out) {
                Ok(()) => {
                    let back = TNetstring.decode(&out, &Limits::default()).unwrap();
                    assert_eq!(&back, e);
                    assert_eq!(encode(&back), out);
                }
                Err(_) => not_representable += 1,
            }
        }
        assert_eq!(not_representable, 0);
    }

    #[test]
    fn every_truncation_fails_and_trailing_bytes_fail() {
        let bytes = golden_bytes();
        for n in 0..bytes.len() {
            assert!(
                TNetstring.decode(&bytes[..n], &Limits::default()).is_err(),
                "{n}"
            );
        }
        let mut long = bytes.clone();
        long.push(b'0');
        assert_eq!(
            TNetstring.decode(&long, &Limits::default()).unwrap_err(),
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
            TNetstring.decode(&bytes, &one_tag).unwrap_err().kind,
            DecodeErrorKind::LimitExceeded("tags")
        );
        let short_values = Limits {
            max_value_bytes: 63,
            ..Limits::default()
        };
        assert_eq!(
            TNetstring.decode(&bytes, &short_values).unwrap_err().kind,
            DecodeErrorKind::LimitExceeded("tag value bytes")
        );
        let shallow = Limits {
            max_depth: 2,
            ..Limits::default()
        };
        assert_eq!(
            TNetstring.decode(&bytes, &shallow).unwrap_err().kind,
            DecodeErrorKind::LimitExceeded("depth")
        );
        let tiny = Limits {
            max_event_bytes: 100,
            ..Limits::default()
        };
        assert_eq!(
            TNetstring.decode(&bytes, &tiny).unwrap_err().kind,
            DecodeErrorKind::LimitExceeded("event bytes")
        );
        for huge in [&b"999999999:"[..], b"999999999:64:"] {
            assert_eq!(
                TNetstring
                    .decode(huge, &Limits::default())
                    .unwrap_err()
                    .kind,
                DecodeErrorKind::Truncated
            );
        }
        assert_eq!(
            TNetstring
                .decode(b"1000000000:", &Limits::default())
                .unwrap_err()
                .kind,
            DecodeErrorKind::Invalid("expected ':' after a size")
        );
    }

    #[test]
    fn non_canonical_input_is_rejected() {
        let good = String::from_utf8(golden_bytes()).unwrap();
        let cases = [
            (
                good.replacen("407:", "0407:", 1),
                DecodeErrorKind::NonCanonical,
            ),
            (
                good.replacen("10:1700000000#", "10:+700000000#", 1),
                DecodeErrorKind::Invalid("expected a decimal digit"),
            ),
            (
                good.replacen("10:1700000000#", "10:17000000 0#", 1),
                DecodeErrorKind::Invalid("integer is not canonical decimal"),
            ),
            (
                good.replacen("1:1#", "2:01#", 1)
                    .replacen("407:", "408:", 1),
                DecodeErrorKind::NonCanonical,
            ),
            (
                good.replacen("1:1#", "5:65536#", 1)
                    .replacen("407:", "411:", 1),
                DecodeErrorKind::Invalid("integer out of range"),
            ),
            (
                good.replacen("64:1111", "64:1A11", 1),
                DecodeErrorKind::Invalid("id must be 64 lowercase hex characters"),
            ),
            (
                good.replacen("1:t,", "1:t!", 1),
                DecodeErrorKind::Invalid("expected a string"),
            ),
            (
                good.replacen("12:1:t,", "13:1:t,", 1),
                DecodeErrorKind::Invalid("element overruns its container"),
            ),
        ];
        for (bad, kind) in cases {
            assert_eq!(
                TNetstring
                    .decode(bad.as_bytes(), &Limits::default())
                    .unwrap_err()
                    .kind,
                kind,
                "{bad}"
            );
        }
    }

    #[test]
    fn deep_nesting_fails_fast_without_recursion() {
        let n = 100_000;
        // Sizes from the inside out: level i holds level i+1 whole.
        let mut sizes = vec![0usize; n];
        for i in (0..n - 1).rev() {
            sizes[i] = sized(sizes[i + 1]);
        }
        let mut bytes = Vec::new();
        for s in &sizes {
            put_header(&mut bytes, *s);
        }
        bytes.extend(std::iter::repeat_n(b']', n));
        let unlimited = Limits {
            max_event_bytes: usize::MAX,
            ..Limits::default()
        };
        let started = std::time::Instant::now();
        let err = TNetstring.decode(&bytes, &unlimited).unwrap_err();
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
        assert!(err.offset < 20, "{err}");
        assert_eq!(
            err.kind,
            DecodeErrorKind::Invalid("id must be 64 lowercase hex characters")
        );
    }
}

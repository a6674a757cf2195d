//! `otnetstring`: the event as an OTNetstring (rkh/otnetstring) positional
//! list: TNetstring with the type character moved in front of the data.
//!
//! # Layout
//!
//! Every value is `SIZE TYPE DATA`: `SIZE` is the byte length of `DATA` in
//! ASCII decimal and the type character follows it at once, so a streaming
//! reader knows the type before the data. A list's data is its elements
//! concatenated. Only `,` string, `#` integer and `[` list occur.
//!
//! | position | value | encoding |
//! |---|---|---|
//! | event | list of the seven fields below | `N[` … |
//! | 0 | id | `64,` 64 lowercase hex characters |
//! | 1 | pubkey | `64,` 64 lowercase hex characters |
//! | 2 | created_at | `N#` decimal |
//! | 3 | kind | `N#` decimal |
//! | 4 | tags | `N[` (`N[` (`N,` value)*)* |
//! | 5 | content | `N,` UTF-8 |
//! | 6 | sig | `128,` 128 lowercase hex characters |
//!
//! Each value is one byte shorter than in `tnetstring` (no `:`). The event
//! is a positional list, not a dict, for a fair comparison with the other
//! positional profiles.
//!
//! # Canonical form
//!
//! Sizes and integers are canonical decimal: no sign, no leading zeros, and
//! a size has at most 9 digits (upstream's parser rejects longer sizes).
//! `created_at` fits a `u64`, `kind` a `u16`. Exactly seven elements; each
//! nested value ends exactly at its container's end. The encoding is unique,
//! so the profile is deterministic.
//!
//! # Hex policy
//!
//! As in `tnetstring`: the one string type cannot tell text from bytes, so
//! id, pubkey and sig are lowercase hex text (only lowercase hex of the exact
//! length decodes); tag values and content are text as written, never packed.
//!
//! # Limits
//!
//! `max_event_bytes` is checked first; every `SIZE` against the remaining
//! input, its container and (for tag values) `max_value_bytes` before the
//! data is read; tags and values are counted as read. The fixed schema
//! rejects a list where a string or integer belongs at once, so deep nesting
//! fails immediately without recursion; the three levels are also checked
//! against `max_depth`. An event list over 999,999,999 bytes is not
//! representable and fails to encode.
//!
//! # Differences from upstream (rkh/otnetstring)
//!
//! - Sizes count bytes. Upstream's encoder writes Ruby `String#length`, a
//!   count of *characters*, while its parser reads that many *bytes*, so any
//!   non-ASCII string (emoji, CJK content) is mis-framed upstream.
//! - Upstream parses integers with Ruby `Integer()`, which accepts signs,
//!   `0x` prefixes, underscores and leading zeros; this profile requires
//!   canonical decimal. Upstream ignores the size of `~` (null); null never
//!   occurs here.
//! - The README's table misprints the list example as `3:{1#1` (and the
//!   TNetstring column as `4:1:1#}` and `8:1:a,=1:b,}`); the code and specs
//!   give `3[1#1`, which is what this profile follows.
//! - Trailing bytes after the event are an error rather than a remainder.

use crate::codec::ascii::{digits, len_digits, push_len, push_u64};
use crate::codec::{
    Capabilities, Codec, DecodeError, DecodeErrorKind, EncodeError, Family, Limits, Profile,
    Reader, check_event_size,
};
use crate::model::{Event, hex};

/// The registry entry.
pub const PROFILE: Profile = Profile {
    id: "otnetstring",
    family: Family::Streaming,
    capabilities: Capabilities {
        deterministic: true,
        self_describing: true,
    },
    enabled: true,
    codec: &OTNetstring,
};

/// OTNetstring, positional list, hex text for id/pubkey/sig.
pub struct OTNetstring;

/// Largest `SIZE` with 9 digits.
const MAX_SIZE: usize = 999_999_999;

/// Encoded size of a value whose data is `n` bytes.
fn sized(n: usize) -> usize {
    len_digits(n) + n + 1
}

fn int_size(n: u64) -> usize {
    sized(digits(n))
}

fn tag_payload(tag: &[String]) -> usize {
    tag.iter().map(|v| sized(v.len())).sum()
}

fn put_header(out: &mut Vec<u8>, n: usize, ty: u8) {
    push_len(out, n);
    out.push(ty);
}

fn put_str(out: &mut Vec<u8>, s: &[u8]) {
    put_header(out, s.len(), b',');
    out.extend_from_slice(s);
}

fn put_hex(out: &mut Vec<u8>, bytes: &[u8]) {
    put_header(out, 2 * bytes.len(), b',');
    hex::encode_into(bytes, out);
}

fn put_int(out: &mut Vec<u8>, n: u64) {
    put_header(out, digits(n), b'#');
    push_u64(out, n);
}

impl Codec for OTNetstring {
    fn hostile(&self) -> Option<&dyn crate::codec::HostileInputs> {
        Some(&crate::codec::hostile::OTNetstring)
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
        put_header(out, payload, b'[');
        put_hex(out, &event.id);
        put_hex(out, &event.pubkey);
        put_int(out, event.created_at);
        put_int(out, u64::from(event.kind));
        put_header(out, tags_payload, b'[');
        for tag in &event.tags {
            put_header(out, tag_payload(tag), b'[');
            for value in tag {
                put_str(out, value.as_bytes());
            }
        }
        put_str(out, event.content.as_bytes());
        put_hex(out, &event.sig);
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
            tags.push(tag);
        }
        let content = string(&mut r, end, usize::MAX)?.to_owned();
        let sig = hex_field::<64>(&mut r, end, "sig must be 128 lowercase hex characters")?;
        if r.offset() != end {
            return Err(r.error(DecodeErrorKind::Invalid("event list has extra elements")));
        }
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

/// Reads `SIZE TYPE`, checks the type and that `SIZE` bytes fit in the input
/// and before `end`; returns `SIZE` with the cursor at the data.
fn header(
    r: &mut Reader<'_>,
    end: usize,
    ty: u8,
    what: &'static str,
) -> Result<usize, DecodeError> {
    let start = r.offset();
    let n = r.ascii_decimal(9)?;
    match r.u8()? {
        t if t == ty => {}
        b'0'..=b'9' => {
            return Err(DecodeError::at(
                DecodeErrorKind::Invalid("size longer than 9 digits"),
                start,
            ));
        }
        _ => return Err(DecodeError::at(DecodeErrorKind::Invalid(what), start)),
    }
    let n = usize::try_from(n).unwrap_or(usize::MAX);
    if n > r.remaining() {
        return Err(r.error(DecodeErrorKind::Truncated));
    }
    if end.checked_sub(r.offset()).is_none_or(|room| n > room) {
        return Err(DecodeError::at(
            DecodeErrorKind::Invalid("element overruns its container"),
            start,
        ));
    }
    Ok(n)
}

/// Opens a list at nesting `depth`; returns the offset where its data ends.
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
    let n = header(r, end, b'[', what)?;
    Ok(r.offset() + n)
}

fn string<'a>(r: &mut Reader<'a>, end: usize, max: usize) -> Result<&'a str, DecodeError> {
    let start = r.offset();
    let n = header(r, end, b',', "expected a string")?;
    if n > max {
        return Err(DecodeError::at(
            DecodeErrorKind::LimitExceeded("tag value bytes"),
            start,
        ));
    }
    r.str(n)
}

fn hex_field<const N: usize>(
    r: &mut Reader<'_>,
    end: usize,
    what: &'static str,
) -> Result<[u8; N], DecodeError> {
    let start = r.offset();
    let n = header(r, end, b',', what)?;
    let s = r.take(n)?;
    std::str::from_utf8(s)
        .ok()
        .and_then(hex::decode_array::<N>)
        .ok_or(DecodeError::at(DecodeErrorKind::Invalid(what), start))
}

fn int(r: &mut Reader<'_>, end: usize, max: u64) -> Result<u64, DecodeError> {
    let start = r.offset();
    let n = header(r, end, b'#', "expected an integer")?;
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

    /// Built by hand from the layout: each size counts the data bytes after
    /// its type character.
    fn golden_bytes() -> Vec<u8> {
        let h11 = "11".repeat(32);
        let h22 = "22".repeat(32);
        let hab = "ab".repeat(32);
        let h33 = "33".repeat(64);
        // tag 1: "1,e" (3) + "64,<64>" (67) = 70
        // tag 2: "1,p" (3) + "6,ABCDEF" (8) = 11
        // tag 3: "1,t" (3) + "5,nostr" (7) = 10
        // tags: "70[" 70 (73) + "11[" 11 (14) + "10[" 10 (13) = 100
        // event: 67 + 67 + "10#1700000000" (13) + "1#1" (3)
        //        + "100[" 100 (104) + "3,hi\n" (5) + "128,<128>" (132) = 391
        format!(
            "391[64,{h11}64,{h22}10#17000000001#1100[70[1,e64,{hab}11[1,p6,ABCDEF10[1,t5,nostr3,hi\n128,{h33}"
        )
        .into_bytes()
    }

    fn encode(e: &Event) -> Vec<u8> {
        let mut out = Vec::new();
        OTNetstring.encode(e, &mut out).unwrap();
        out
    }

    #[test]
    fn golden_vector() {
        let bytes = encode(&golden_event());
        assert_eq!(
            String::from_utf8_lossy(&bytes),
            String::from_utf8_lossy(&golden_bytes())
        );
        assert_eq!(bytes.len(), 395);
        assert_eq!(
            OTNetstring.decode(&bytes, &Limits::default()),
            Ok(golden_event())
        );
    }

    #[test]
    fn upstream_spec_vectors() {
        // From rkh/otnetstring's README and spec (`[1]`, "hello world", 42).
        let mut out = Vec::new();
        put_header(&mut out, 3, b'[');
        put_int(&mut out, 1);
        assert_eq!(out, b"3[1#1");
        out.clear();
        put_str(&mut out, b"hello world");
        put_int(&mut out, 42);
        assert_eq!(out, b"11,hello world2#42");
    }

    #[test]
    fn encode_appends() {
        let mut out = b"xy".to_vec();
        OTNetstring.encode(&golden_event(), &mut out).unwrap();
        assert_eq!(&out[..2], b"xy");
        assert_eq!(&out[2..], golden_bytes());
    }

    #[test]
    fn generated_corpus_round_trips_and_is_deterministic() {
        let events = crate::corpus::generate::generate(1, 300);
        let mut not_representable = 0;
        for e in &events {
            let mut out = Vec::new();
            match OTNetstring.encode(e, &mut out) {
                Ok(()) => {
                    let back = OTNetstring.decode(&out, &Limits::default()).unwrap();
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
                OTNetstring.decode(&bytes[..n], &Limits::default()).is_err(),
                "{n}"
            );
        }
        let mut long = bytes.clone();
        long.push(b'0');
        assert_eq!(
            OTNetstring.decode(&long, &Limits::default()).unwrap_err(),
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
            OTNetstring.decode(&bytes, &one_tag).unwrap_err().kind,
            DecodeErrorKind::LimitExceeded("tags")
        );
        let one_value = Limits {
            max_values_per_tag: 1,
            ..Limits::default()
        };
        assert_eq!(
            OTNetstring.decode(&bytes, &one_value).unwrap_err().kind,
            DecodeErrorKind::LimitExceeded("values per tag")
        );
        let short_values = Limits {
            max_value_bytes: 63,
            ..Limits::default()
        };
        assert_eq!(
            OTNetstring.decode(&bytes, &short_values).unwrap_err().kind,
            DecodeErrorKind::LimitExceeded("tag value bytes")
        );
        let shallow = Limits {
            max_depth: 2,
            ..Limits::default()
        };
        assert_eq!(
            OTNetstring.decode(&bytes, &shallow).unwrap_err().kind,
            DecodeErrorKind::LimitExceeded("depth")
        );
        for huge in [&b"999999999["[..], b"20[999999999,"] {
            assert_eq!(
                OTNetstring
                    .decode(huge, &Limits::default())
                    .unwrap_err()
                    .kind,
                DecodeErrorKind::Truncated
            );
        }
        assert_eq!(
            OTNetstring
                .decode(b"1000000000[", &Limits::default())
                .unwrap_err()
                .kind,
            DecodeErrorKind::Invalid("size longer than 9 digits")
        );
    }

    #[test]
    fn non_canonical_input_is_rejected() {
        let good = String::from_utf8(golden_bytes()).unwrap();
        let cases = [
            (
                good.replacen("391[", "0391[", 1),
                DecodeErrorKind::NonCanonical,
            ),
            (
                good.replacen("10#1700000000", "10#+700000000", 1),
                DecodeErrorKind::Invalid("expected a decimal digit"),
            ),
            (
                good.replacen("10#1700000000", "10#17000000 0", 1),
                DecodeErrorKind::Invalid("integer is not canonical decimal"),
            ),
            (
                good.replacen("1#1100[", "2#01100[", 1)
                    .replacen("391[", "392[", 1),
                DecodeErrorKind::NonCanonical,
            ),
            (
                good.replacen("1#1100[", "5#65536100[", 1)
                    .replacen("391[", "395[", 1),
                DecodeErrorKind::Invalid("integer out of range"),
            ),
            (
                good.replacen("64,1111", "64,1A11", 1),
                DecodeErrorKind::Invalid("id must be 64 lowercase hex characters"),
            ),
            (
                good.replacen("1,t", "1!t", 1),
                DecodeErrorKind::Invalid("expected a string"),
            ),
            (
                good.replacen("10[1,t", "11[1,t", 1),
                DecodeErrorKind::Invalid("element overruns its container"),
            ),
        ];
        for (bad, kind) in cases {
            assert_eq!(
                OTNetstring
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
        let mut sizes = vec![0usize; n];
        for i in (0..n - 1).rev() {
            sizes[i] = sized(sizes[i + 1]);
        }
        let mut bytes = Vec::new();
        for s in &sizes {
            put_header(&mut bytes, *s, b'[');
        }
        let unlimited = Limits {
            max_event_bytes: usize::MAX,
            ..Limits::default()
        };
        let started = std::time::Instant::now();
        let err = OTNetstring.decode(&bytes, &unlimited).unwrap_err();
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
        assert!(err.offset < 20, "{err}");
        assert_eq!(
            err.kind,
            DecodeErrorKind::Invalid("id must be 64 lowercase hex characters")
        );
    }
}

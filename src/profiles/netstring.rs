//! `tnetstring` and `otnetstring`: the event as a positional list in
//! TNetstring (tagged netstring, tnetstrings.org) or in OTNetstring
//! (rkh/otnetstring), TNetstring with the type character moved in front of
//! the data. One implementation, [`Netstring`], parameterised by where the
//! type character goes.
//!
//! # Layout
//!
//! A TNetstring value is `SIZE ':' DATA TYPE`; an OTNetstring value is
//! `SIZE TYPE DATA`, so a streaming reader knows the type before the data
//! and each value is one byte shorter. `SIZE` is the byte length of `DATA`
//! in ASCII decimal. A list's data is its elements concatenated. Only three
//! types occur: `,` string, `#` integer, and the list (`]` in TNetstring,
//! `[` in OTNetstring).
//!
//! | position | value | `tnetstring` | `otnetstring` |
//! |---|---|---|---|
//! | event | list of the seven fields below | `N:` … `]` | `N[` … |
//! | 0 | id | `64:` 64 lowercase hex characters `,` | `64,` 64 lowercase hex characters |
//! | 1 | pubkey | `64:` 64 lowercase hex characters `,` | `64,` 64 lowercase hex characters |
//! | 2 | created_at | `N:` decimal `#` | `N#` decimal |
//! | 3 | kind | `N:` decimal `#` | `N#` decimal |
//! | 4 | tags | `N:` (`N:` (`N:` value `,`)* `]`)* `]` | `N[` (`N[` (`N,` value)*)* |
//! | 5 | content | `N:` UTF-8 `,` | `N,` UTF-8 |
//! | 6 | sig | `128:` 128 lowercase hex characters `,` | `128,` 128 lowercase hex characters |
//!
//! The event is a positional list rather than a dict keyed by field name, for
//! a fair comparison with the other positional profiles (`cbor-packed`,
//! `bencode`); a dict would add about 45 bytes of keys.
//!
//! # Canonical form
//!
//! Sizes and integers are canonical decimal: no sign, no leading zeros (`0`
//! is `0`), at most 9 digits for a size, as TNetstring's grammar
//! `SIZE = [0-9]{1,9}` requires (upstream's OTNetstring parser rejects
//! longer sizes too). `created_at` must fit a `u64` and `kind` a `u16`.
//! Exactly seven elements; every nested value must end exactly at its
//! container's end. The encoding of an event is unique, so both profiles are
//! deterministic.
//!
//! # Hex policy
//!
//! The one string type `,` cannot tell text from bytes. id, pubkey and sig
//! travel as lowercase hex text, as they do in NIP-01 JSON and as a dynamic
//! TNetstring library hands them over; the decoder accepts only lowercase
//! hex of the exact length. Tag values and content are text, exactly as
//! written (UTF-8 validated on decode), never packed.
//!
//! # Limits
//!
//! The input size is checked against `max_event_bytes` first. Every `SIZE`
//! is checked against the remaining input and against its container before
//! anything is read or allocated, and a tag value's `SIZE` against
//! `max_value_bytes`. Tags and values are counted as they are read
//! (`max_tags`, `max_values_per_tag`). The schema fixes the depth at three
//! (event, tags, tag; also checked against `max_depth`): a list where a
//! string or integer belongs is rejected at once, without recursion.
//!
//! An event whose list payload exceeds 999,999,999 bytes (the 9-digit
//! `SIZE`) is not representable and fails to encode.
//!
//! # Differences from the TNetstring spec
//!
//! The spec's reference parser uses Python `int()` on integers and sizes, so
//! it accepts signs, leading zeros and surrounding whitespace; this profile
//! requires canonical decimal. Strings are required to be UTF-8 where the
//! event needs text. Trailing bytes after the event are an error (the spec
//! returns them as a remainder; framing is the caller's job here).
//!
//! # Differences from upstream OTNetstring (rkh/otnetstring)
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
use crate::codec::hostile::{HostileInputs, Nest, repeat};
use crate::codec::{
    Capabilities, Codec, DecodeError, DecodeErrorKind, EncodeError, Family, Limit, Limits, Profile,
    Reader, check_event_size,
};
use crate::model::{Event, hex};

/// The `tnetstring` registry entry.
pub const TNETSTRING: Profile = Netstring::<false>::PROFILE;

/// The `otnetstring` registry entry.
pub const OTNETSTRING: Profile = Netstring::<true>::PROFILE;

/// A netstring-family positional list with hex text for id, pubkey and sig:
/// TNetstring (`TYPE_FIRST = false`) or OTNetstring (`TYPE_FIRST = true`).
pub struct Netstring<const TYPE_FIRST: bool>;

/// Largest `SIZE` with 9 digits.
const MAX_SIZE: usize = 999_999_999;

impl<const TYPE_FIRST: bool> Netstring<TYPE_FIRST> {
    const PROFILE: Profile = Profile {
        id: if TYPE_FIRST {
            "otnetstring"
        } else {
            "tnetstring"
        },
        family: Family::Streaming,
        capabilities: Capabilities {
            deterministic: true,
            self_describing: true,
        },
        enabled: true,
        evolution: if TYPE_FIRST {
            &evolution::OT
        } else {
            &evolution::T
        },
        codec: &Netstring::<TYPE_FIRST>,
        packs: &[],
        maintenance: crate::codec::Maintenance {
            sources: &[file!()],
            shared: &[],
            schema: crate::codec::Schema::None,
            crates: &[],
            spec: if TYPE_FIRST {
                crate::codec::maintenance::OTNETSTRING
            } else {
                crate::codec::maintenance::TNETSTRING
            },
        },
    };

    /// The list's type character.
    const LIST: u8 = if TYPE_FIRST { b'[' } else { b']' };

    /// Bytes of a value besides `SIZE` and `DATA`.
    const FRAME: usize = if TYPE_FIRST { 1 } else { 2 };

    /// Encoded size of a value whose data is `n` bytes.
    fn sized(n: usize) -> usize {
        len_digits(n) + n + Self::FRAME
    }

    fn int_size(n: u64) -> usize {
        Self::sized(digits(n))
    }

    fn tag_payload(tag: &[String]) -> usize {
        tag.iter().map(|v| Self::sized(v.len())).sum()
    }

    /// Writes what precedes a value's data.
    fn open(out: &mut Vec<u8>, n: usize, ty: u8) {
        push_len(out, n);
        out.push(if TYPE_FIRST { ty } else { b':' });
    }

    /// Writes what follows a value's data.
    fn close(out: &mut Vec<u8>, ty: u8) {
        if !TYPE_FIRST {
            out.push(ty);
        }
    }

    fn put_str(out: &mut Vec<u8>, s: &[u8]) {
        Self::open(out, s.len(), b',');
        out.extend_from_slice(s);
        Self::close(out, b',');
    }

    fn put_hex(out: &mut Vec<u8>, bytes: &[u8]) {
        Self::open(out, 2 * bytes.len(), b',');
        hex::encode_into(bytes, out);
        Self::close(out, b',');
    }

    fn put_int(out: &mut Vec<u8>, n: u64) {
        Self::open(out, digits(n), b'#');
        push_u64(out, n);
        Self::close(out, b'#');
    }

    /// One whole value, for hand-built inputs.
    fn value(size: &[u8], ty: u8, data: &[u8]) -> Vec<u8> {
        if TYPE_FIRST {
            [size, &[ty], data].concat()
        } else {
            [size, b":", data, &[ty]].concat()
        }
    }
}

impl<const TYPE_FIRST: bool> Codec for Netstring<TYPE_FIRST> {
    fn hostile(&self) -> Option<&dyn HostileInputs> {
        Some(self)
    }

    fn encode(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let tags_payload: usize = event
            .tags
            .iter()
            .map(|t| Self::sized(Self::tag_payload(t)))
            .sum();
        let payload = 2 * Self::sized(64)
            + Self::int_size(event.created_at)
            + Self::int_size(u64::from(event.kind))
            + Self::sized(tags_payload)
            + Self::sized(event.content.len())
            + Self::sized(128);
        if payload > MAX_SIZE {
            return Err(EncodeError::new(
                Self::PROFILE.id,
                format!("event list of {payload} bytes exceeds the 9-digit size"),
            ));
        }
        out.reserve(Self::sized(payload));
        Self::open(out, payload, Self::LIST);
        Self::put_hex(out, &event.id);
        Self::put_hex(out, &event.pubkey);
        Self::put_int(out, event.created_at);
        Self::put_int(out, u64::from(event.kind));
        Self::open(out, tags_payload, Self::LIST);
        for tag in &event.tags {
            Self::open(out, Self::tag_payload(tag), Self::LIST);
            for value in tag {
                Self::put_str(out, value.as_bytes());
            }
            Self::close(out, Self::LIST);
        }
        Self::close(out, Self::LIST);
        Self::put_str(out, event.content.as_bytes());
        Self::put_hex(out, &event.sig);
        Self::close(out, Self::LIST);
        Ok(())
    }

    fn decode(&self, bytes: &[u8], limits: &Limits) -> Result<Event, DecodeError> {
        check_event_size(bytes, limits)?;
        let mut r = Reader::new(bytes);
        let end = Self::list(&mut r, bytes.len(), 1, limits, "event must be a list")?;
        let id = Self::hex_field::<32>(&mut r, end, "id must be 64 lowercase hex characters")?;
        let pubkey =
            Self::hex_field::<32>(&mut r, end, "pubkey must be 64 lowercase hex characters")?;
        let created_at = Self::int(&mut r, end, u64::MAX)?;
        let kind = u16::try_from(Self::int(&mut r, end, u64::from(u16::MAX))?).unwrap_or(u16::MAX);
        let tags_end = Self::list(&mut r, end, 2, limits, "tags must be a list")?;
        let mut tags = Vec::new();
        while r.offset() < tags_end {
            if tags.len() == limits.max_tags {
                return Err(r.error(DecodeErrorKind::LimitExceeded(Limit::Tags)));
            }
            let tag_end = Self::list(&mut r, tags_end, 3, limits, "tag must be a list")?;
            let mut tag = Vec::new();
            while r.offset() < tag_end {
                if tag.len() == limits.max_values_per_tag {
                    return Err(r.error(DecodeErrorKind::LimitExceeded(Limit::ValuesPerTag)));
                }
                tag.push(Self::string(&mut r, tag_end, limits.max_value_bytes)?.to_owned());
            }
            Self::skip_type(&mut r)?;
            tags.push(tag);
        }
        Self::skip_type(&mut r)?;
        let content = Self::string(&mut r, end, usize::MAX)?.to_owned();
        let sig = Self::hex_field::<64>(&mut r, end, "sig must be 128 lowercase hex characters")?;
        if r.offset() != end {
            return Err(r.error(DecodeErrorKind::Invalid("event list has extra elements")));
        }
        Self::skip_type(&mut r)?;
        r.finish()?;
        Ok(Event::new(id, pubkey, sig, created_at, kind, tags, content))
    }
}

impl<const TYPE_FIRST: bool> Netstring<TYPE_FIRST> {
    /// Reads a value's header and checks its type character `ty` and that
    /// its data (and, in TNetstring, the type character after it) fit in
    /// the input and before `end`; returns `SIZE` with the cursor at the
    /// data.
    fn header(
        r: &mut Reader<'_>,
        end: usize,
        ty: u8,
        what: &'static str,
    ) -> Result<usize, DecodeError> {
        let start = r.offset();
        let n = r.ascii_decimal(9)?;
        if TYPE_FIRST {
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
        } else {
            r.expect(b':', "expected ':' after a size")?;
        }
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        let after = usize::from(!TYPE_FIRST);
        if n + after > r.remaining() {
            return Err(r.error(DecodeErrorKind::Truncated));
        }
        if end
            .checked_sub(r.offset())
            .is_none_or(|room| n + after > room)
        {
            return Err(DecodeError::at(
                DecodeErrorKind::Invalid("element overruns its container"),
                start,
            ));
        }
        if !TYPE_FIRST && r.peek_at(n) != Some(ty) {
            return Err(DecodeError::at(DecodeErrorKind::Invalid(what), start));
        }
        Ok(n)
    }

    /// Consumes the type character after a value's data (TNetstring only).
    fn skip_type(r: &mut Reader<'_>) -> Result<(), DecodeError> {
        if !TYPE_FIRST {
            r.u8()?;
        }
        Ok(())
    }

    /// Opens a list at nesting `depth`; returns the offset where its data
    /// ends.
    fn list(
        r: &mut Reader<'_>,
        end: usize,
        depth: usize,
        limits: &Limits,
        what: &'static str,
    ) -> Result<usize, DecodeError> {
        if depth > limits.max_depth {
            return Err(r.error(DecodeErrorKind::LimitExceeded(Limit::Depth)));
        }
        let n = Self::header(r, end, Self::LIST, what)?;
        Ok(r.offset() + n)
    }

    fn string<'a>(r: &mut Reader<'a>, end: usize, max: usize) -> Result<&'a str, DecodeError> {
        let start = r.offset();
        let n = Self::header(r, end, b',', "expected a string")?;
        if n > max {
            return Err(DecodeError::at(
                DecodeErrorKind::LimitExceeded(Limit::ValueBytes),
                start,
            ));
        }
        let s = r.str(n)?;
        Self::skip_type(r)?;
        Ok(s)
    }

    fn hex_field<const N: usize>(
        r: &mut Reader<'_>,
        end: usize,
        what: &'static str,
    ) -> Result<[u8; N], DecodeError> {
        let start = r.offset();
        let n = Self::header(r, end, b',', what)?;
        let s = r.take(n)?;
        let out = std::str::from_utf8(s)
            .ok()
            .and_then(hex::decode_array::<N>)
            .ok_or(DecodeError::at(DecodeErrorKind::Invalid(what), start))?;
        Self::skip_type(r)?;
        Ok(out)
    }

    fn int(r: &mut Reader<'_>, end: usize, max: u64) -> Result<u64, DecodeError> {
        let start = r.offset();
        let n = Self::header(r, end, b'#', "expected an integer")?;
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
        Self::skip_type(r)?;
        Ok(v)
    }
}

/// Hostile inputs: each nesting layer is `SIZE` + the container's opening
/// (the child) + its closing, so sizes must be known inside-out. The
/// prefixes are collected innermost first with each one reversed, and the
/// whole run reversed once, which puts them outermost first.
impl<const TYPE_FIRST: bool> HostileInputs for Netstring<TYPE_FIRST> {
    fn format(&self) -> &'static str {
        Self::PROFILE.id
    }

    fn nesting_bomb(&self, shape: Nest, depth: usize, out: &mut Vec<u8>) {
        let leaf = Self::value(b"0", b'~', b"");
        let (ty, key) = match shape {
            Nest::Array => (Self::LIST, Vec::new()),
            Nest::Map => (
                if TYPE_FIRST { b'{' } else { b'}' },
                Self::value(b"1", b',', b"a"),
            ),
        };
        let mut rev = Vec::new();
        let mut len = leaf.len();
        for _ in 0..depth {
            let payload = key.len() + len;
            let mut prefix = Vec::with_capacity(24);
            Self::open(&mut prefix, payload, ty);
            prefix.extend_from_slice(&key);
            rev.extend(prefix.iter().rev());
            len = Self::sized(payload);
        }
        rev.reverse();
        out.extend_from_slice(&rev);
        out.extend_from_slice(&leaf);
        if !TYPE_FIRST {
            repeat(out, &[ty], depth);
        }
    }

    fn length_bombs(&self) -> Vec<(&'static str, Vec<u8>)> {
        let after_size = if TYPE_FIRST { b',' } else { b':' };
        vec![
            ("string-2^32-1", Self::value(b"4294967295", b',', b"x")),
            (
                "list-2^64-1",
                Self::value(b"18446744073709551615", Self::LIST, b""),
            ),
            (
                "length-overflow",
                Self::value(b"99999999999999999999999", b',', b"x"),
            ),
            ("digits-4096", [&[b'9'; 4096][..], &[after_size]].concat()),
        ]
    }
}

pub(crate) mod evolution;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles::test_support as support;

    type OT = Netstring<true>;

    /// Built by hand from the layout: each size counts the data bytes
    /// (in TNetstring, those between its `:` and its type character).
    fn golden_bytes(type_first: bool) -> Vec<u8> {
        let id: String = (0..32u8).map(|i| format!("{i:02x}")).collect();
        let h22 = "22".repeat(32);
        let hab = "ab".repeat(32);
        let hcd = "cd".repeat(32);
        let sig: String = (0..64u8).map(|i| format!("{:02x}", 0xff - i)).collect();
        // 40 bytes of UTF-8
        let c = "gm 🌅 \"quoted\"\n\t日本語 עברית \u{1}";
        let s = if type_first {
            // tag 1: "1,e" (3) + "64,<64>" (67) + "19,wss://relay.example" (22)
            //        + "4,root" (6) = 98
            // tag 2: "1,p" (3) + "64,<64>" (67) = 70
            // tag 3: "1,t" (3) + "6,ABCDEF" (8) + "3,abc" (5) + "0," (2) + "2,00" (4) = 22
            // tags: "98[" 98 (101) + "70[" 70 (73) + "22[" 22 (25) + "0[" (2) = 201
            // event: 67 + 67 + "10#1700000000" (13) + "1#1" (3)
            //        + "201[" 201 (205) + "40,<40>" (43) + "128,<128>" (132) = 530
            format!(
                "530[64,{id}64,{h22}10#17000000001#1201[\
                 98[1,e64,{hab}19,wss://relay.example4,root\
                 70[1,p64,{hcd}\
                 22[1,t6,ABCDEF3,abc0,2,00\
                 0[\
                 40,{c}128,{sig}"
            )
        } else {
            // tag 1: "1:e," (4) + "64:<64>," (68) + "19:wss://relay.example," (23)
            //        + "4:root," (7) = 102
            // tag 2: "1:p," (4) + "64:<64>," (68) = 72
            // tag 3: "1:t," (4) + "6:ABCDEF," (9) + "3:abc," (6) + "0:," (3) + "2:00," (5) = 27
            // tags: "102:" 102 "]" (107) + "72:" 72 "]" (76) + "27:" 27 "]" (31)
            //       + "0:]" (3) = 217
            // event: 68 + 68 + "10:1700000000#" (14) + "1:1#" (4)
            //        + "217:" 217 "]" (222) + "40:<40>," (44) + "128:<128>," (133) = 553
            format!(
                "553:64:{id},64:{h22},10:1700000000#1:1#217:\
                 102:1:e,64:{hab},19:wss://relay.example,4:root,]\
                 72:1:p,64:{hcd},]\
                 27:1:t,6:ABCDEF,3:abc,0:,2:00,]\
                 0:]]\
                 40:{c},128:{sig},]"
            )
        };
        s.into_bytes()
    }

    /// Both profiles with their golden bytes and golden length.
    fn both() -> [(&'static dyn Codec, Vec<u8>, usize); 2] {
        [
            (TNETSTRING.codec, golden_bytes(false), 558),
            (OTNETSTRING.codec, golden_bytes(true), 534),
        ]
    }

    #[test]
    fn shared_checks() {
        for (codec, golden, len) in both() {
            assert_eq!(golden.len(), len);
            support::conformance(codec, &golden, true);
        }
    }

    #[test]
    fn upstream_otnetstring_spec_vectors() {
        // From rkh/otnetstring's README and spec (`[1]`, "hello world", 42).
        let mut out = Vec::new();
        OT::open(&mut out, 3, b'[');
        OT::put_int(&mut out, 1);
        assert_eq!(out, b"3[1#1");
        out.clear();
        OT::put_str(&mut out, b"hello world");
        OT::put_int(&mut out, 42);
        assert_eq!(out, b"11,hello world2#42");
    }

    #[test]
    fn limits_apply_while_decoding() {
        let shallow = Limits {
            max_depth: 2,
            ..Limits::default()
        };
        for (codec, bytes, _) in both() {
            assert_eq!(
                codec.decode(&bytes, &shallow).unwrap_err().kind,
                DecodeErrorKind::LimitExceeded(Limit::Depth)
            );
        }
        let huge: [(&dyn Codec, &[u8]); 4] = [
            (TNETSTRING.codec, b"999999999:"),
            (TNETSTRING.codec, b"999999999:64:"),
            (OTNETSTRING.codec, b"999999999["),
            (OTNETSTRING.codec, b"20[999999999,"),
        ];
        for (codec, bytes) in huge {
            assert_eq!(
                codec.decode(bytes, &Limits::default()).unwrap_err().kind,
                DecodeErrorKind::Truncated
            );
        }
        let ten_digits: [(&dyn Codec, &[u8], &str); 2] = [
            (
                TNETSTRING.codec,
                b"1000000000:",
                "expected ':' after a size",
            ),
            (
                OTNETSTRING.codec,
                b"1000000000[",
                "size longer than 9 digits",
            ),
        ];
        for (codec, bytes, why) in ten_digits {
            assert_eq!(
                codec.decode(bytes, &Limits::default()).unwrap_err().kind,
                DecodeErrorKind::Invalid(why)
            );
        }
    }

    #[test]
    fn non_canonical_input_is_rejected() {
        use DecodeErrorKind::{Invalid, NonCanonical};
        let kinds = [
            NonCanonical,
            Invalid("expected a decimal digit"),
            Invalid("integer is not canonical decimal"),
            NonCanonical,
            Invalid("integer out of range"),
            Invalid("id must be 64 lowercase hex characters"),
            Invalid("expected a string"),
            Invalid("element overruns its container"),
        ];
        type Edits = [&'static [(&'static str, &'static str)]; 8];
        let t: Edits = [
            &[("553:", "0553:")],
            &[("10:1700000000#", "10:+700000000#")],
            &[("10:1700000000#", "10:17000000 0#")],
            &[("1:1#", "2:01#"), ("553:", "554:")],
            &[("1:1#", "5:65536#"), ("553:", "557:")],
            &[("64:0001", "64:0A01")],
            &[("1:t,", "1:t!")],
            &[("0:]]40:", "1:]]40:")],
        ];
        let ot: Edits = [
            &[("530[", "0530[")],
            &[("10#1700000000", "10#+700000000")],
            &[("10#1700000000", "10#17000000 0")],
            &[("1#1201[", "2#01201["), ("530[", "531[")],
            &[("1#1201[", "5#65536201["), ("530[", "534[")],
            &[("64,0001", "64,0A01")],
            &[("1,t", "1!t")],
            &[("2,000[40,", "2,001[40,")],
        ];
        for ((codec, golden, _), edits) in both().into_iter().zip([t, ot]) {
            let good = String::from_utf8(golden).unwrap();
            for (edit, kind) in edits.iter().zip(kinds) {
                let bad = edit
                    .iter()
                    .fold(good.clone(), |s, (from, to)| s.replacen(from, to, 1));
                assert_eq!(
                    codec
                        .decode(bad.as_bytes(), &Limits::default())
                        .unwrap_err()
                        .kind,
                    kind,
                    "{bad}"
                );
            }
        }
    }

    fn deep_nesting_fails_fast<const TYPE_FIRST: bool>() {
        let n = 100_000;
        let mut sizes = vec![0usize; n];
        for i in (0..n - 1).rev() {
            sizes[i] = Netstring::<TYPE_FIRST>::sized(sizes[i + 1]);
        }
        let mut bytes = Vec::new();
        for s in &sizes {
            Netstring::<TYPE_FIRST>::open(&mut bytes, *s, Netstring::<TYPE_FIRST>::LIST);
        }
        for _ in 0..n {
            Netstring::<TYPE_FIRST>::close(&mut bytes, Netstring::<TYPE_FIRST>::LIST);
        }
        let unlimited = Limits {
            max_event_bytes: usize::MAX,
            ..Limits::default()
        };
        let started = std::time::Instant::now();
        let err = Netstring::<TYPE_FIRST>
            .decode(&bytes, &unlimited)
            .unwrap_err();
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
        assert!(err.offset < 20, "{err}");
        assert_eq!(
            err.kind,
            DecodeErrorKind::Invalid("id must be 64 lowercase hex characters")
        );
    }

    #[test]
    fn deep_nesting_fails_fast_without_recursion() {
        deep_nesting_fails_fast::<false>();
        deep_nesting_fails_fast::<true>();
    }

    #[test]
    fn hostile_inputs_have_the_exact_bytes() {
        use crate::codec::hostile::bomb;
        assert_eq!(bomb(&Netstring::<false>, Nest::Array, 2), b"6:3:0:~]]");
        assert_eq!(bomb(&Netstring::<false>, Nest::Map, 1), b"7:1:a,0:~}");
        assert_eq!(bomb(&Netstring::<true>, Nest::Array, 2), b"4[2[0~");
        assert_eq!(bomb(&Netstring::<true>, Nest::Map, 1), b"5{1,a0~");
        let nines = [b'9'; 4096];
        let t: Vec<(&str, Vec<u8>)> = vec![
            ("string-2^32-1", b"4294967295:x,".to_vec()),
            ("list-2^64-1", b"18446744073709551615:]".to_vec()),
            ("length-overflow", b"99999999999999999999999:x,".to_vec()),
            ("digits-4096", [&nines[..], b":"].concat()),
        ];
        assert_eq!(Netstring::<false>.length_bombs(), t);
        let ot: Vec<(&str, Vec<u8>)> = vec![
            ("string-2^32-1", b"4294967295,x".to_vec()),
            ("list-2^64-1", b"18446744073709551615[".to_vec()),
            ("length-overflow", b"99999999999999999999999,x".to_vec()),
            ("digits-4096", [&nines[..], b","].concat()),
        ];
        assert_eq!(Netstring::<true>.length_bombs(), ot);
    }

    #[test]
    fn nesting_bomb_sizes_are_consistent_at_depth() {
        use crate::codec::hostile::bomb;
        let b = bomb(&Netstring::<false>, Nest::Array, 1000);
        let colon = b.iter().position(|&c| c == b':').unwrap();
        let len: usize = std::str::from_utf8(&b[..colon]).unwrap().parse().unwrap();
        assert_eq!(colon + 1 + len + 1, b.len());
        assert_eq!(*b.last().unwrap(), b']');
        let b = bomb(&Netstring::<true>, Nest::Map, 1000);
        let brace = b.iter().position(|&c| c == b'{').unwrap();
        let len: usize = std::str::from_utf8(&b[..brace]).unwrap().parse().unwrap();
        assert_eq!(brace + 1 + len, b.len());
    }
}

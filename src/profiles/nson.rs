//! `nson`: NSON (nostr-protocol/nips PR #515), a NIP-01 event as valid JSON
//! with a fixed field order and an `"nson"` member whose hex header gives the
//! length of every variable field, so an NSON-aware reader slices the
//! record instead of parsing it. Byte for byte what go-nostr's
//! `nson.Marshal` writes (github.com/nbd-wtf/go-nostr v0.32.0,
//! `nson/nson.go`; the package was removed after v0.34).
//!
//! # Layout
//!
//! | offset | bytes |
//! |---|---|
//! | 0 | `{"id":"` |
//! | 7 | id, 64 lowercase hex |
//! | 71 | `","pubkey":"` |
//! | 83 | pubkey, 64 lowercase hex |
//! | 147 | `","sig":"` |
//! | 156 | sig, 128 lowercase hex |
//! | 284 | `","created_at":` |
//! | 299 | created_at, exactly 10 decimal digits |
//! | 309 | `,"nson":"` (the marker Go checks) |
//! | 318 | header size `n`, one byte as 2 lowercase hex |
//! | 320 | the header, `n` bytes as `2n` lowercase hex |
//! | 320+2n | `","kind":`, kind in decimal |
//! | … | `,"content":"`, content as Go `strconv.Quote` writes it, `"` |
//! | … | `,"tags":[`, tags as `["v",…]` joined by `,`, `]}` |
//!
//! The header (inside the JSON string, hex):
//!
//! | header byte | field |
//! |---|---|
//! | 0 | kind: decimal digits (u8) |
//! | 1–2 | content: escaped bytes between its quotes (u16 BE) |
//! | 3 | number of tags (u8) |
//! | per tag | number of items (u8), then per item its escaped bytes (u16 BE) |
//!
//! # Escaping
//!
//! Strings are exactly Go's `strconv.Quote` (lowercase hex digits): `\"`,
//! `\\`, `\a`, `\b`, `\f`, `\n`, `\r`, `\t`, `\v`; other control
//! characters and DEL as `\xHH`; a non-ASCII character that Go's
//! `strconv.IsPrint` rejects as `\uHHHH`, or `\UHHHHHHHH` above U+FFFF;
//! everything else verbatim as UTF-8 (`/`, `<`, `&` too). The printable set
//! is `nson/goprint.rs`, generated from the Go toolchain
//! (`scripts/nson/goprint.go`); a Go release with another Unicode version
//! escapes newly assigned characters differently.
//!
//! `\a`, `\v`, `\x` and `\U` are not JSON escapes: a record whose content
//! or tags hold such a character (a control character other than
//! `\b\f\n\r\t`, DEL, or a non-printable character above U+FFFF such as
//! the emoji tag characters U+E0020–U+E007F) is what go-nostr writes and
//! reads back, but no JSON parser accepts it. We write it byte for byte as
//! Go does (the NSON reader needs no JSON parser); [`quotes_as_json`] tells
//! which events stay JSON.
//!
//! # Refused on encode (never truncated)
//!
//! Where Go would wrap a header field, panic, or write a record its own
//! `Unmarshal` misreads, encoding fails: created_at outside
//! 1,000,000,000–9,999,999,999 (the offsets assume 10 digits); content or
//! a tag item over 65,535 escaped bytes (Go wraps the u16); a header over
//! 255 bytes (`4 + Σ(1 + 2·items)`, so at most 251 tags: Go panics or
//! wraps; every large follow list is refused); and an empty tag followed by
//! a non-empty one (Go's `Unmarshal` does not step past the `]` of an empty
//! tag and misreads every later item).
//!
//! # Canonical form and consistency
//!
//! Any JSON parser also reads these bytes, so a record whose header
//! disagrees with its JSON text must not be read two ways. The decoder
//! accepts exactly the bytes the encoder writes for the event it returns:
//! every literal between fields is checked, every string must be in Go's
//! quoted form and exactly as long as the header says, the header is fully
//! consumed, and the record ends at `]}`. Profile is deterministic.
//!
//! # Differences from upstream
//!
//! Go's `Unmarshal` recovers from index panics, ignores parse errors of
//! kind, created_at and strings (leaving zero values), ignores trailing
//! bytes and does not check the JSON between fields. Ours checks all of it
//! with byte offsets, and applies [`Limits`] while decoding.
//!
//! # Hex policy
//!
//! id, pubkey and sig are lowercase hex text (as in JSON); tag values and
//! content are strings.

use std::borrow::Cow;

use crate::codec::hostile::{HostileInputs, Nest, replace_first};
use crate::codec::{
    BorrowDecode, Capabilities, Codec, DecodeError, DecodeErrorKind, DecodedParts, EncodeError,
    Family, Limit, Limits, Profile, Reader, SelectContract, Text, check_event_size,
};
use crate::model::hex;
use crate::model::{Event, EventRef};

pub(crate) mod evolution;
pub(crate) mod goprint;

/// The registry entry.
pub const PROFILE: Profile = Profile {
    id: "nson",
    family: Family::NostrShipped,
    capabilities: Capabilities {
        deterministic: true,
        self_describing: true,
    },
    enabled: true,
    codec: &Nson,
    packs: &[],
    evolution: &evolution::ADAPTER,
    maintenance: crate::codec::Maintenance::standalone(&[file!()], crate::codec::maintenance::NSON),
};

/// NSON as go-nostr v0.32.0 writes it.
pub struct Nson;

const ID_AT: usize = 7;
const PUBKEY_AT: usize = 83;
const SIG_AT: usize = 156;
const CREATED_AT_AT: usize = 299;
const SIZE_AT: usize = 318;
const HEADER_AT: usize = 320;
const MAX_HEADER: usize = 255;

fn refuse(reason: impl Into<String>) -> EncodeError {
    EncodeError::new(PROFILE.id, reason)
}

/// Whether Go's `strconv.IsPrint` rejects `c` (non-ASCII only).
fn not_print(c: u32) -> bool {
    goprint::NOT_PRINT
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// How Go's `strconv.Quote` writes one character.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Esc {
    /// Verbatim.
    Plain,
    /// A two-byte escape `\c`.
    Short(u8),
    /// `\xHH` (not JSON).
    X,
    /// `\uHHHH`.
    U4,
    /// `\UHHHHHHHH` (not JSON).
    U8,
}

fn go_escape(c: char) -> Esc {
    match c {
        '"' => Esc::Short(b'"'),
        '\\' => Esc::Short(b'\\'),
        '\u{7}' => Esc::Short(b'a'),
        '\u{8}' => Esc::Short(b'b'),
        '\u{c}' => Esc::Short(b'f'),
        '\n' => Esc::Short(b'n'),
        '\r' => Esc::Short(b'r'),
        '\t' => Esc::Short(b't'),
        '\u{b}' => Esc::Short(b'v'),
        ' '..='~' => Esc::Plain,
        '\u{0}'..='\u{1f}' | '\u{7f}' => Esc::X,
        c if not_print(c as u32) => {
            if (c as u32) < 0x10000 {
                Esc::U4
            } else {
                Esc::U8
            }
        }
        _ => Esc::Plain,
    }
}

/// The length of `s` as `strconv.Quote` writes it, without the quotes.
fn quoted_len(s: &str) -> usize {
    s.chars()
        .map(|c| match go_escape(c) {
            Esc::Plain => c.len_utf8(),
            Esc::Short(_) => 2,
            Esc::X => 4,
            Esc::U4 => 6,
            Esc::U8 => 10,
        })
        .sum()
}

/// Whether the quoted form of `s` is a JSON string (no `\a`, `\v`, `\x`
/// or `\U`).
pub fn quotes_as_json(s: &str) -> bool {
    s.chars().all(|c| {
        !matches!(
            go_escape(c),
            Esc::X | Esc::U8 | Esc::Short(b'a') | Esc::Short(b'v')
        )
    })
}

const LOWER_HEX: &[u8; 16] = b"0123456789abcdef";

/// Appends `s` as `strconv.Quote` writes it, without the quotes.
fn put_quoted(s: &str, out: &mut Vec<u8>) {
    let mut plain = 0;
    for (i, c) in s.char_indices() {
        let esc = go_escape(c);
        if esc == Esc::Plain {
            continue;
        }
        out.extend_from_slice(&s.as_bytes()[plain..i]);
        plain = i + c.len_utf8();
        let (prefix, digits) = match esc {
            Esc::Short(b) => {
                out.extend_from_slice(&[b'\\', b]);
                continue;
            }
            Esc::X => (b'x', 2),
            Esc::U4 => (b'u', 4),
            _ => (b'U', 8),
        };
        out.extend_from_slice(&[b'\\', prefix]);
        for k in (0..digits).rev() {
            out.push(LOWER_HEX[(c as usize >> (4 * k)) & 0xf]);
        }
    }
    out.extend_from_slice(&s.as_bytes()[plain..]);
}

fn u16_len(n: usize, what: &str) -> Result<u16, EncodeError> {
    u16::try_from(n).map_err(|_| refuse(format!("{what} of {n} escaped bytes exceeds 65535")))
}

/// The NSON header of `event`, or the refusal.
fn header(event: &Event) -> Result<Vec<u8>, EncodeError> {
    if !(1_000_000_000..=9_999_999_999).contains(&event.created_at) {
        return Err(refuse(format!(
            "created_at {} is not 10 digits (NSON's fixed offsets)",
            event.created_at
        )));
    }
    let size = 4 + event.tags.iter().map(|t| 1 + 2 * t.len()).sum::<usize>();
    if size > MAX_HEADER {
        return Err(refuse(format!(
            "an NSON header of {size} bytes exceeds 255 ({} tags)",
            event.tags.len()
        )));
    }
    if let Some(at) = event.tags.iter().position(Vec::is_empty)
        && event.tags[at..].iter().any(|t| !t.is_empty())
    {
        return Err(refuse(format!(
            "empty tag {at} before a non-empty one (go-nostr's Unmarshal misreads it)"
        )));
    }
    let mut h = Vec::with_capacity(size);
    let kind_digits = event.kind.to_string().len() as u8;
    h.push(kind_digits);
    let content = quoted_len(&event.content);
    h.extend_from_slice(&u16_len(content, "content")?.to_be_bytes());
    h.push(event.tags.len() as u8);
    for tag in &event.tags {
        h.push(tag.len() as u8);
        for v in tag {
            let n = quoted_len(v);
            h.extend_from_slice(&u16_len(n, "a tag item")?.to_be_bytes());
        }
    }
    Ok(h)
}

fn write(event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    let h = header(event)?;
    out.extend_from_slice(b"{\"id\":\"");
    hex::encode_into(&event.id, out);
    out.extend_from_slice(b"\",\"pubkey\":\"");
    hex::encode_into(&event.pubkey, out);
    out.extend_from_slice(b"\",\"sig\":\"");
    hex::encode_into(&event.sig, out);
    out.extend_from_slice(b"\",\"created_at\":");
    out.extend_from_slice(event.created_at.to_string().as_bytes());
    out.extend_from_slice(b",\"nson\":\"");
    hex::encode_into(&[h.len() as u8], out);
    hex::encode_into(&h, out);
    out.extend_from_slice(b"\",\"kind\":");
    out.extend_from_slice(event.kind.to_string().as_bytes());
    out.extend_from_slice(b",\"content\":\"");
    put_quoted(&event.content, out);
    out.extend_from_slice(b"\",\"tags\":[");
    for (t, tag) in event.tags.iter().enumerate() {
        if t > 0 {
            out.push(b',');
        }
        out.push(b'[');
        for (i, v) in tag.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.push(b'"');
            put_quoted(v, out);
            out.push(b'"');
        }
        out.push(b']');
    }
    out.extend_from_slice(b"]}");
    Ok(())
}

/// Consumes `lit` exactly: `Truncated` at the end of input, else
/// `Invalid` at the first differing byte.
fn literal(r: &mut Reader<'_>, lit: &[u8]) -> Result<(), DecodeError> {
    let start = r.offset();
    for (i, &b) in lit.iter().enumerate() {
        match r.peek_at(i) {
            None => return Err(DecodeError::at(DecodeErrorKind::Truncated, start + i)),
            Some(x) if x != b => {
                return Err(DecodeError::at(
                    DecodeErrorKind::Invalid("not the NSON layout"),
                    start + i,
                ));
            }
            Some(_) => {}
        }
    }
    r.take(lit.len())?;
    Ok(())
}

/// `N` bytes from `2N` lowercase hex characters.
fn hex_field<const N: usize>(r: &mut Reader<'_>) -> Result<[u8; N], DecodeError> {
    let at = r.offset();
    let s = r.take(2 * N)?;
    std::str::from_utf8(s)
        .ok()
        .and_then(hex::decode_array::<N>)
        .ok_or(DecodeError::at(DecodeErrorKind::Invalid("bad-hex"), at))
}

/// One string of `len` escaped bytes in Go's quoted form, unescaped;
/// borrowed when it holds no escape.
fn quoted<'a, S: Text<'a>>(r: &mut Reader<'a>, len: usize) -> Result<S, DecodeError> {
    let start = r.offset();
    let s = r.str(len)?;
    let bytes = s.as_bytes();
    let bad = |i: usize, k| Err(DecodeError::at(k, start + i));
    let mut owned: Option<String> = None;
    let mut plain = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            let c = s[i..].chars().next().expect("a char at a boundary");
            match go_escape(c) {
                Esc::Plain => {}
                _ if c == '"' => return bad(i, DecodeErrorKind::Invalid("unescaped quote")),
                _ => return bad(i, DecodeErrorKind::NonCanonical),
            }
            i += c.len_utf8();
            continue;
        }
        let hex_at = |from: usize, n: usize| -> Option<u32> {
            let h = bytes.get(from..from + n)?;
            h.iter().try_fold(0u32, |v, &d| {
                let d = LOWER_HEX.iter().position(|&x| x == d)?;
                Some(v << 4 | d as u32)
            })
        };
        let (c, n, want) = match bytes.get(i + 1) {
            Some(&b @ (b'"' | b'\\' | b'a' | b'b' | b'f' | b'n' | b'r' | b't' | b'v')) => {
                let c = match b {
                    b'a' => '\u{7}',
                    b'b' => '\u{8}',
                    b'f' => '\u{c}',
                    b'n' => '\n',
                    b'r' => '\r',
                    b't' => '\t',
                    b'v' => '\u{b}',
                    other => char::from(other),
                };
                (Some(c), 2, Esc::Short(b))
            }
            Some(b'x') => (hex_at(i + 2, 2).and_then(char::from_u32), 4, Esc::X),
            Some(b'u') => (hex_at(i + 2, 4).and_then(char::from_u32), 6, Esc::U4),
            Some(b'U') => (hex_at(i + 2, 8).and_then(char::from_u32), 10, Esc::U8),
            _ => (None, 0, Esc::Plain),
        };
        let Some(c) = c else {
            return bad(i, DecodeErrorKind::Invalid("bad escape"));
        };
        if go_escape(c) != want {
            return bad(i, DecodeErrorKind::NonCanonical);
        }
        let o = owned.get_or_insert_with(|| String::with_capacity(len));
        o.push_str(&s[plain..i]);
        o.push(c);
        i += n;
        plain = i;
    }
    Ok(match owned {
        None => S::from(s),
        Some(mut o) => {
            o.push_str(&s[plain..]);
            S::from(o)
        }
    })
}

/// The header: its bytes (at most 255) and where its hex starts.
struct Header {
    bytes: [u8; MAX_HEADER],
    len: usize,
    next: usize,
}

impl Header {
    fn read(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let [len] = hex_field::<1>(r)?;
        let len = usize::from(len);
        let at = r.offset();
        if len < 4 {
            return Err(DecodeError::at(
                DecodeErrorKind::Invalid("NSON header under 4 bytes"),
                at - 2,
            ));
        }
        let s = r.take(2 * len)?;
        let mut bytes = [0u8; MAX_HEADER];
        let ok = std::str::from_utf8(s).is_ok_and(|s| hex::decode_to_slice(s, &mut bytes[..len]));
        if !ok {
            return Err(DecodeError::at(DecodeErrorKind::Invalid("bad-hex"), at));
        }
        Ok(Header {
            bytes,
            len,
            next: 0,
        })
    }

    /// The next header byte, or `Invalid` at `at` (the JSON it describes).
    fn u8(&mut self, at: usize) -> Result<u8, DecodeError> {
        if self.next >= self.len {
            return Err(DecodeError::at(
                DecodeErrorKind::Invalid("NSON header ends before the JSON"),
                at,
            ));
        }
        self.next += 1;
        Ok(self.bytes[self.next - 1])
    }

    fn u16(&mut self, at: usize) -> Result<u16, DecodeError> {
        Ok(u16::from_be_bytes([self.u8(at)?, self.u8(at)?]))
    }
}

fn parse<'a, S: Text<'a>>(
    bytes: &'a [u8],
    limits: &Limits,
) -> Result<DecodedParts<S>, DecodeError> {
    check_event_size(bytes, limits)?;
    let depth = |need: usize, at: usize| {
        if limits.max_depth < need {
            Err(DecodeError::at(
                DecodeErrorKind::LimitExceeded(Limit::Depth),
                at,
            ))
        } else {
            Ok(())
        }
    };
    depth(1, 0)?;
    let mut r = Reader::new(bytes);
    literal(&mut r, b"{\"id\":\"")?;
    debug_assert_eq!(r.offset(), ID_AT);
    let id = hex_field::<32>(&mut r)?;
    literal(&mut r, b"\",\"pubkey\":\"")?;
    let pubkey = hex_field::<32>(&mut r)?;
    literal(&mut r, b"\",\"sig\":\"")?;
    debug_assert_eq!(r.offset(), SIG_AT);
    let sig = hex_field::<64>(&mut r)?;
    literal(&mut r, b"\",\"created_at\":")?;
    let at = r.offset();
    debug_assert_eq!(at, CREATED_AT_AT);
    let created_at = r.ascii_decimal(10)?;
    if r.offset() != at + 10 {
        return Err(DecodeError::at(
            DecodeErrorKind::Invalid("created_at is not 10 digits"),
            at,
        ));
    }
    literal(&mut r, b",\"nson\":\"")?;
    let mut h = Header::read(&mut r)?;
    literal(&mut r, b"\",\"kind\":")?;
    let at = r.offset();
    let digits = usize::from(h.u8(at)?);
    let kind = r.ascii_decimal(digits.min(5))?;
    if r.offset() != at + digits || digits == 0 {
        return Err(DecodeError::at(
            DecodeErrorKind::Invalid("kind digits disagree with the NSON header"),
            at,
        ));
    }
    let kind = u16::try_from(kind)
        .map_err(|_| DecodeError::at(DecodeErrorKind::Invalid("out-of-range"), at))?;
    literal(&mut r, b",\"content\":\"")?;
    let at = r.offset();
    let len = usize::from(h.u16(at)?);
    let content = quoted(&mut r, len)?;
    literal(&mut r, b"\",\"tags\":[")?;
    let at = r.offset();
    let n_tags = usize::from(h.u8(at)?);
    if n_tags > 0 {
        depth(3, at)?;
    }
    // Each tag takes at least `[]` and a comma.
    let n_tags = r.count(n_tags as u64, 2, limits.max_tags, Limit::Tags)?;
    let mut tags = Vec::with_capacity(n_tags);
    let mut empty_at = None;
    for t in 0..n_tags {
        if t > 0 {
            literal(&mut r, b",")?;
        }
        let at = r.offset();
        literal(&mut r, b"[")?;
        let n = usize::from(h.u8(at)?);
        let n = r.count(n as u64, 3, limits.max_values_per_tag, Limit::ValuesPerTag)?;
        if n == 0 {
            empty_at.get_or_insert(at);
        } else if let Some(e) = empty_at {
            return Err(DecodeError::at(
                DecodeErrorKind::Invalid("empty tag before a non-empty one"),
                e,
            ));
        }
        let mut tag = Vec::with_capacity(n);
        for i in 0..n {
            literal(&mut r, if i > 0 { b",\"" } else { b"\"" })?;
            let at = r.offset();
            let len = usize::from(h.u16(at)?);
            let v: S = quoted(&mut r, len)?;
            if v.as_ref().len() > limits.max_value_bytes {
                return Err(DecodeError::at(
                    DecodeErrorKind::LimitExceeded(Limit::ValueBytes),
                    at,
                ));
            }
            literal(&mut r, b"\"")?;
            tag.push(v);
        }
        literal(&mut r, b"]")?;
        tags.push(tag);
    }
    let at = r.offset();
    literal(&mut r, b"]}")?;
    if h.next != h.len {
        return Err(DecodeError::at(
            DecodeErrorKind::Invalid("NSON header longer than the JSON it describes"),
            at,
        ));
    }
    r.finish()?;
    Ok(DecodedParts {
        id,
        pubkey,
        sig,
        created_at,
        kind,
        tags,
        content,
    })
}

impl Codec for Nson {
    fn encode(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        write(event, out)
    }

    fn decode(&self, bytes: &[u8], limits: &Limits) -> Result<Event, DecodeError> {
        Ok(parse::<String>(bytes, limits)?.into_event())
    }

    fn borrowed(&self) -> Option<&dyn BorrowDecode> {
        Some(self)
    }

    fn hostile(&self) -> Option<&dyn HostileInputs> {
        Some(self)
    }
}

impl BorrowDecode for Nson {
    fn decode_ref<'a>(
        &self,
        bytes: &'a [u8],
        limits: &Limits,
    ) -> Result<EventRef<'a>, DecodeError> {
        Ok(parse::<Cow<'a, str>>(bytes, limits)?.into_ref())
    }

    /// Reads only the pubkey at its fixed offset and the kind through the
    /// header; the rest of the record is not checked.
    fn select_contract(&self) -> SelectContract {
        SelectContract::Preverified
    }

    fn kind_and_pubkey(
        &self,
        bytes: &[u8],
        limits: &Limits,
    ) -> Result<(u16, [u8; 32]), DecodeError> {
        check_event_size(bytes, limits)?;
        let mut r = Reader::new(bytes);
        r.take(PUBKEY_AT)?;
        let pubkey = hex_field::<32>(&mut r)?;
        r.take(SIZE_AT - r.offset())?;
        let [size] = hex_field::<1>(&mut r)?;
        let [digits] = hex_field::<1>(&mut r)?;
        r.take(2 * usize::from(size) - 2)?;
        literal(&mut r, b"\",\"kind\":")?;
        let at = r.offset();
        let kind = r.ascii_decimal(usize::from(digits).min(5))?;
        if r.offset() != at + usize::from(digits) {
            return Err(DecodeError::at(
                DecodeErrorKind::Invalid("kind digits disagree with the NSON header"),
                at,
            ));
        }
        let kind = u16::try_from(kind)
            .map_err(|_| DecodeError::at(DecodeErrorKind::Invalid("out-of-range"), at))?;
        Ok((kind, pubkey))
    }
}

/// Hostile inputs: JSON's nesting bombs (an NSON reader must refuse them at
/// the first literal), header length bombs, and variants of the golden
/// record that any JSON parser reads as the same event but whose bytes
/// disagree with the NSON layout or header.
impl HostileInputs for Nson {
    fn format(&self) -> &'static str {
        "nson"
    }

    fn nesting_bomb(&self, shape: Nest, depth: usize, out: &mut Vec<u8>) {
        crate::profiles::json::Json.nesting_bomb(shape, depth, out);
    }

    fn length_bombs(&self) -> Vec<(&'static str, Vec<u8>)> {
        let mut golden = Vec::new();
        write(&bomb_event(), &mut golden).expect("the bomb base encodes");
        let head = &golden[..HEADER_AT];
        let with = |hdr: &[u8]| {
            let mut b = head[..SIZE_AT].to_vec();
            hex::encode_into(&[hdr.len() as u8], &mut b);
            hex::encode_into(hdr, &mut b);
            b.extend_from_slice(b"\",\"kind\":1,\"content\":\"");
            b
        };
        vec![
            ("content-65535", with(&[1, 0xff, 0xff, 0])),
            ("tags-255", with(&[1, 0, 0, 0xff])),
            (
                "item-65535",
                [
                    with(&[1, 0, 0, 1, 1, 0xff, 0xff]),
                    b"\",\"tags\":[[\"".to_vec(),
                ]
                .concat(),
            ),
        ]
    }

    fn variants(&self, golden: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
        let mut v = Vec::new();
        let mut push = |name, bytes: Option<Vec<u8>>| {
            if let Some(b) = bytes {
                v.push((name, b));
            }
        };
        push(
            "whitespace",
            replace_first(golden, b"\"kind\":", b"\"kind\": "),
        );
        push(
            "escaped-letter",
            replace_first(golden, b"\"content\":\"h", b"\"content\":\"\\u0068"),
        );
        push(
            "header-disagrees",
            (golden.len() >= HEADER_AT + 2).then(|| {
                let mut b = golden.to_vec();
                b[HEADER_AT..HEADER_AT + 2].copy_from_slice(b"09");
                b
            }),
        );
        push(
            "unknown-field",
            replace_first(golden, b"\"tags\":", b"\"x\":0,\"tags\":"),
        );
        push(
            "trailing-member",
            replace_first(golden, b"]]}", b"]],\"x\":0}"),
        );
        v
    }
}

/// A small event for the length bombs' fixed prefix.
fn bomb_event() -> Event {
    Event::new(
        [0x11; 32],
        [0x22; 32],
        [0x33; 64],
        1_700_000_000,
        1,
        Vec::new(),
        String::new(),
    )
}

#[cfg(test)]
mod tests;

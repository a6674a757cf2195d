//! Hostile inputs for self-describing formats: nesting bombs, length bombs
//! and non-canonical forms, one builder per format family.
//!
//! A self-describing profile returns one of the format builders here from
//! [`Codec::hostile`](super::Codec::hostile); profiles that share a format
//! (the CBOR profiles) share a builder. The robustness suite
//! (`crate::torture`) writes and runs what these produce; nothing here
//! decodes.
//!
//! Every builder is iterative and linear in its output, so a 10,000,000-deep
//! bomb is built in one pass (10 to 90 MB depending on the format).

/// The container a nesting bomb nests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Nest {
    /// Arrays (lists, vectors) inside arrays.
    Array,
    /// Maps (dicts, objects) whose only value is the next map.
    Map,
}

impl Nest {
    /// Both shapes, in report order.
    pub const ALL: [Nest; 2] = [Nest::Array, Nest::Map];

    /// The lowercase name used in case file names.
    pub fn name(self) -> &'static str {
        match self {
            Nest::Array => "array",
            Nest::Map => "map",
        }
    }
}

/// Hostile inputs a self-describing format admits beyond byte mutations.
pub trait HostileInputs: Sync {
    /// The format family's name, for reports (`"cbor"`, `"json"`, ...).
    fn format(&self) -> &'static str;

    /// Appends `depth` nested containers of `shape` around a null or zero.
    fn nesting_bomb(&self, shape: Nest, depth: usize, out: &mut Vec<u8>);

    /// A few bytes each that declare 2^32−1 or 2^64−1 bytes or elements
    /// (or the format's nearest equivalent), named.
    fn length_bombs(&self) -> Vec<(&'static str, Vec<u8>)>;

    /// Valid-looking but non-canonical, duplicate-field or unknown-field
    /// variants of `golden` (an encoding of the golden event), named.
    fn variants(&self, golden: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
        let _ = golden;
        Vec::new()
    }
}

fn repeat(out: &mut Vec<u8>, unit: &[u8], n: usize) {
    out.reserve(unit.len().saturating_mul(n));
    for _ in 0..n {
        out.extend_from_slice(unit);
    }
}

/// Replaces the first occurrence of `from` in `bytes` with `to`.
fn replace_first(bytes: &[u8], from: &[u8], to: &[u8]) -> Option<Vec<u8>> {
    let at = bytes.windows(from.len()).position(|w| w == from)?;
    let mut out = bytes[..at].to_vec();
    out.extend_from_slice(to);
    out.extend_from_slice(&bytes[at + from.len()..]);
    Some(out)
}

/// JSON (RFC 8259).
pub struct Json;

impl HostileInputs for Json {
    fn format(&self) -> &'static str {
        "json"
    }

    fn nesting_bomb(&self, shape: Nest, depth: usize, out: &mut Vec<u8>) {
        let (open, close): (&[u8], &[u8]) = match shape {
            Nest::Array => (b"[", b"]"),
            Nest::Map => (br#"{"a":"#, b"}"),
        };
        repeat(out, open, depth);
        out.push(b'0');
        repeat(out, close, depth);
    }

    fn length_bombs(&self) -> Vec<(&'static str, Vec<u8>)> {
        vec![
            ("kind-2^64", br#"{"kind":18446744073709551616}"#.to_vec()),
            (
                "created-at-exponent-2^32-1",
                br#"{"created_at":1e4294967295}"#.to_vec(),
            ),
            (
                "digits-4096",
                [&br#"{"kind":"#[..], &[b'9'; 4096], b"}"].concat(),
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
            "duplicate-kind",
            replace_first(golden, br#""kind":"#, br#""kind":7,"kind":"#),
        );
        push(
            "unknown-field",
            replace_first(golden, br#""kind":"#, br#""x":null,"kind":"#),
        );
        push(
            "whitespace",
            replace_first(golden, br#""kind":"#, br#" "kind" : "#),
        );
        push(
            "escaped-letter",
            replace_first(golden, br#""content":"g"#, br#""content":"\u0067"#),
        );
        push(
            "leading-zero",
            replace_first(golden, br#""kind":"#, br#""kind":0"#),
        );
        v
    }
}

/// CBOR (RFC 8949) heads: the major type in the top three bits.
pub struct Cbor;

impl HostileInputs for Cbor {
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

/// MessagePack.
pub struct MsgPack;

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

/// FlexBuffers: values first, vectors after them with backward offsets, the
/// root at the end. Bombs use 8-bit widths throughout.
pub struct FlexBuffers;

/// FlexBuffers packed type bytes (type << 2 | bit width 8).
const FBT_INT: u8 = 1 << 2;
const FBT_MAP: u8 = 9 << 2;
const FBT_VECTOR: u8 = 10 << 2;

impl HostileInputs for FlexBuffers {
    fn format(&self) -> &'static str {
        "flexbuffers"
    }

    fn nesting_bomb(&self, shape: Nest, depth: usize, out: &mut Vec<u8>) {
        let base = out.len();
        match shape {
            // Each layer: [len=1][offset back to the child's data][type].
            Nest::Array => {
                out.reserve(3 * depth + 3);
                out.extend_from_slice(&[1, 0, FBT_INT]);
                for _ in 0..depth {
                    out.extend_from_slice(&[1, 3, FBT_VECTOR]);
                }
                let root_data = base + 3 * depth + 1;
                let root_offset = (out.len() - root_data) as u8;
                out.extend_from_slice(&[root_offset, FBT_VECTOR, 1]);
            }
            // Each layer (9 bytes at p): key "a\0" at p; a one-key vector
            // [len=1][3] at p+2 with data at p+3; a map prefix [keys offset
            // 1][keys width 1][len 1] at p+4; the value at p+7 (offset back
            // to the child map's data at p−2) and its type at p+8.
            Nest::Map => {
                out.reserve(9 * depth + 3);
                for layer in 0..depth {
                    let (value, ty) = if layer == 0 {
                        (0, FBT_INT)
                    } else {
                        (9, FBT_MAP)
                    };
                    out.extend_from_slice(&[b'a', 0, 1, 3, 1, 1, 1, value, ty]);
                }
                if depth == 0 {
                    out.extend_from_slice(&[0, FBT_INT, 1]);
                } else {
                    out.extend_from_slice(&[2, FBT_MAP, 1]);
                }
            }
        }
    }

    fn length_bombs(&self) -> Vec<(&'static str, Vec<u8>)> {
        vec![
            // A 64-bit-wide vector whose length word says 2^64−1.
            (
                "vector-len-2^64-1",
                [
                    &[0xff; 8][..],
                    &[0, 0, 0, 0, 0, 0, 0, 0],
                    &[8, FBT_VECTOR | 3, 8],
                ]
                .concat(),
            ),
            (
                "string-len-2^32-1",
                [&[0xff, 0xff, 0xff, 0xff][..], b"x\0", &[2, 5 << 2 | 2, 4]].concat(),
            ),
            (
                "blob-len-2^64-1",
                [
                    &[0xff; 8][..],
                    &[0, 0, 0, 0, 0, 0, 0, 0],
                    &[8, 25 << 2 | 3, 8],
                ]
                .concat(),
            ),
            (
                "root-offset-2^64-1",
                [&[0xff; 8][..], &[FBT_VECTOR | 3, 8]].concat(),
            ),
        ]
    }
}

/// Writes decimal `n` followed by `sep`.
fn decimal(out: &mut Vec<u8>, n: usize, sep: &[u8]) {
    out.extend_from_slice(n.to_string().as_bytes());
    out.extend_from_slice(sep);
}

fn digits(mut n: usize) -> usize {
    let mut d = 1;
    while n >= 10 {
        n /= 10;
        d += 1;
    }
    d
}

/// Netstring-style nesting (TNetstring, OTNetstring): each layer is
/// `len` `head` (child) `tail`, so lengths must be known inside-out. The
/// prefixes are collected innermost first with each one reversed, and the
/// whole run reversed once, which puts them outermost first.
fn netstring_nest(
    out: &mut Vec<u8>,
    depth: usize,
    leaf: &[u8],
    after_len: &[u8],
    head: &[u8],
    tail: &[u8],
) {
    let mut rev = Vec::new();
    let mut len = leaf.len();
    for _ in 0..depth {
        let payload = head.len() + len;
        let mut prefix = Vec::with_capacity(24);
        decimal(&mut prefix, payload, after_len);
        prefix.extend_from_slice(head);
        rev.extend(prefix.iter().rev());
        len = digits(payload) + after_len.len() + payload + tail.len();
    }
    rev.reverse();
    out.extend_from_slice(&rev);
    out.extend_from_slice(leaf);
    repeat(out, tail, depth);
}

/// TNetstring: `len:payload` + a type character.
pub struct TNetstring;

impl HostileInputs for TNetstring {
    fn format(&self) -> &'static str {
        "tnetstring"
    }

    fn nesting_bomb(&self, shape: Nest, depth: usize, out: &mut Vec<u8>) {
        match shape {
            Nest::Array => netstring_nest(out, depth, b"0:~", b":", b"", b"]"),
            Nest::Map => netstring_nest(out, depth, b"0:~", b":", b"1:a,", b"}"),
        }
    }

    fn length_bombs(&self) -> Vec<(&'static str, Vec<u8>)> {
        vec![
            ("string-2^32-1", b"4294967295:x,".to_vec()),
            ("list-2^64-1", b"18446744073709551615:]".to_vec()),
            ("length-overflow", b"99999999999999999999999:x,".to_vec()),
            ("digits-4096", [&[b'9'; 4096][..], b":"].concat()),
        ]
    }
}

/// OTNetstring: `len` + type character + payload.
pub struct OTNetstring;

impl HostileInputs for OTNetstring {
    fn format(&self) -> &'static str {
        "otnetstring"
    }

    fn nesting_bomb(&self, shape: Nest, depth: usize, out: &mut Vec<u8>) {
        match shape {
            Nest::Array => netstring_nest(out, depth, b"0~", b"[", b"", b""),
            Nest::Map => netstring_nest(out, depth, b"0~", b"{", b"1,a", b""),
        }
    }

    fn length_bombs(&self) -> Vec<(&'static str, Vec<u8>)> {
        vec![
            ("string-2^32-1", b"4294967295,x".to_vec()),
            ("list-2^64-1", b"18446744073709551615[".to_vec()),
            ("length-overflow", b"99999999999999999999999,x".to_vec()),
            ("digits-4096", [&[b'9'; 4096][..], b","].concat()),
        ]
    }
}

/// Bencode (BEP 3).
pub struct Bencode;

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

/// BSON: documents carry an int32 length; arrays are documents keyed "0", "1", ….
pub struct Bson;

impl Bson {
    /// A one-element document: `len, type, key, value bytes, 0x00`.
    fn document(ty: u8, key: &[u8], value: &[u8], declared_len: Option<u32>) -> Vec<u8> {
        let len = 4 + 1 + key.len() + 1 + value.len() + 1;
        let mut out = declared_len
            .unwrap_or(u32::try_from(len).expect("small document"))
            .to_le_bytes()
            .to_vec();
        out.push(ty);
        out.extend_from_slice(key);
        out.push(0);
        out.extend_from_slice(value);
        out.push(0);
        out
    }
}

impl HostileInputs for Bson {
    fn format(&self) -> &'static str {
        "bson"
    }

    fn nesting_bomb(&self, shape: Nest, depth: usize, out: &mut Vec<u8>) {
        // Each level: int32 length, type (0x04 array / 0x03 document), key
        // "0" or "a", the inner document, then the 0x00 terminator; the
        // innermost document holds one int32 zero.
        let (ty, key) = match shape {
            Nest::Array => (0x04, b'0'),
            Nest::Map => (0x03, b'a'),
        };
        const INNERMOST: usize = 4 + 1 + 2 + 4 + 1;
        const LEVEL: usize = 4 + 1 + 2 + 1;
        out.reserve(INNERMOST + LEVEL * depth);
        for level in (1..=depth).rev() {
            let len = INNERMOST + LEVEL * level;
            // Lengths past i32 are themselves hostile; keep the low bits.
            out.extend_from_slice(&(len as u32).to_le_bytes());
            out.extend_from_slice(&[ty, key, 0]);
        }
        out.extend_from_slice(&(INNERMOST as u32).to_le_bytes());
        out.extend_from_slice(&[0x10, key, 0, 0, 0, 0, 0, 0]);
        repeat(out, &[0], depth);
    }

    fn length_bombs(&self) -> Vec<(&'static str, Vec<u8>)> {
        vec![
            (
                "document-2^31-1",
                Self::document(0x0a, b"a", &[], Some(0x7fff_ffff)),
            ),
            (
                "document-2^32-1",
                Self::document(0x0a, b"a", &[], Some(u32::MAX)),
            ),
            (
                "string-2^32-1",
                Self::document(0x02, b"content", &[0xff, 0xff, 0xff, 0xff, b'x'], None),
            ),
            (
                "binary-2^32-1",
                Self::document(0x05, b"id", &[0xff, 0xff, 0xff, 0xff, 0x00, b'x'], None),
            ),
        ]
    }
}

/// BEVE: one header byte (type in the low 3 bits), then a compressed size
/// whose 2 low bits select 1, 2, 4 or 8 bytes (at most 2^62−1).
pub struct Beve;

impl Beve {
    fn size(n: u64, out: &mut Vec<u8>) {
        let b0 = ((n & 0x3f) as u8) << 2;
        let rest = n >> 6;
        match n {
            _ if n < 1 << 6 => out.push(b0),
            _ if n < 1 << 14 => out.extend_from_slice(&[b0 | 0b01, rest as u8]),
            _ if n < 1 << 30 => {
                out.push(b0 | 0b10);
                out.extend_from_slice(&(rest as u32).to_le_bytes()[..3]);
            }
            _ => {
                out.push(b0 | 0b11);
                out.extend_from_slice(&rest.to_le_bytes()[..7]);
            }
        }
    }

    fn with_size(header: u8, n: u64, tail: &[u8]) -> Vec<u8> {
        let mut out = vec![header];
        Self::size(n, &mut out);
        out.extend_from_slice(tail);
        out
    }
}

impl HostileInputs for Beve {
    fn format(&self) -> &'static str {
        "beve"
    }

    fn nesting_bomb(&self, shape: Nest, depth: usize, out: &mut Vec<u8>) {
        // Generic array of one (0x05, size 1) or string-keyed object of one
        // (0x03, size 1, key "a"), around a null (0x00).
        let open: &[u8] = match shape {
            Nest::Array => &[0x05, 0x04],
            Nest::Map => &[0x03, 0x04, 0x04, b'a'],
        };
        repeat(out, open, depth);
        out.push(0x00);
    }

    fn length_bombs(&self) -> Vec<(&'static str, Vec<u8>)> {
        const MAX: u64 = (1 << 62) - 1;
        vec![
            (
                "string-2^32-1",
                Self::with_size(0x02, u64::from(u32::MAX), b"x"),
            ),
            ("string-2^62-1", Self::with_size(0x02, MAX, b"x")),
            (
                "u8-array-2^32-1",
                Self::with_size(0x14, u64::from(u32::MAX), b"x"),
            ),
            ("generic-array-2^62-1", Self::with_size(0x05, MAX, &[0x00])),
            (
                "event-with-tags-2^62-1",
                [
                    &Self::with_size(0x05, 7, &[])[..],
                    &Self::with_size(0x05, MAX, &[])[..],
                ]
                .concat(),
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bomb(h: &dyn HostileInputs, shape: Nest, depth: usize) -> Vec<u8> {
        let mut out = Vec::new();
        h.nesting_bomb(shape, depth, &mut out);
        out
    }

    #[test]
    fn bombs_have_the_exact_bytes() {
        assert_eq!(bomb(&Json, Nest::Array, 3), b"[[[0]]]");
        assert_eq!(bomb(&Json, Nest::Map, 2), br#"{"a":{"a":0}}"#);
        assert_eq!(bomb(&Cbor, Nest::Array, 2), [0x81, 0x81, 0xf6]);
        assert_eq!(bomb(&MsgPack, Nest::Map, 1), [0x81, 0x00, 0xc0]);
        assert_eq!(bomb(&Bencode, Nest::Map, 2), b"d1:ad1:ai0eee");
        assert_eq!(bomb(&TNetstring, Nest::Array, 2), b"6:3:0:~]]");
        assert_eq!(bomb(&TNetstring, Nest::Map, 1), b"7:1:a,0:~}");
        assert_eq!(bomb(&OTNetstring, Nest::Array, 2), b"4[2[0~");
        assert_eq!(bomb(&OTNetstring, Nest::Map, 1), b"5{1,a0~");
        assert_eq!(
            bomb(&FlexBuffers, Nest::Array, 1),
            [1, 0, FBT_INT, 1, 3, FBT_VECTOR, 2, FBT_VECTOR, 1]
        );
    }

    #[test]
    fn flexbuffer_bombs_are_well_formed() {
        for depth in [1usize, 2, 5] {
            let b = bomb(&FlexBuffers, Nest::Array, depth);
            let mut r = flexbuffers::Reader::get_root(&b[..]).unwrap();
            // The innermost layer is itself a vector (holding the 0).
            for _ in 0..=depth {
                assert_eq!(r.flexbuffer_type(), flexbuffers::FlexBufferType::Vector);
                r = r.as_vector().idx(0);
            }
            assert_eq!(r.as_i64(), 0);
            let b = bomb(&FlexBuffers, Nest::Map, depth);
            let mut r = flexbuffers::Reader::get_root(&b[..]).unwrap();
            for _ in 0..depth {
                assert_eq!(r.flexbuffer_type(), flexbuffers::FlexBufferType::Map);
                r = r.as_map().idx("a");
            }
            assert_eq!(r.as_i64(), 0);
        }
    }

    #[test]
    fn netstring_lengths_are_consistent_at_depth() {
        let b = bomb(&TNetstring, Nest::Array, 1000);
        let colon = b.iter().position(|&c| c == b':').unwrap();
        let len: usize = std::str::from_utf8(&b[..colon]).unwrap().parse().unwrap();
        assert_eq!(colon + 1 + len + 1, b.len());
        assert_eq!(*b.last().unwrap(), b']');
        let b = bomb(&OTNetstring, Nest::Map, 1000);
        let brace = b.iter().position(|&c| c == b'{').unwrap();
        let len: usize = std::str::from_utf8(&b[..brace]).unwrap().parse().unwrap();
        assert_eq!(brace + 1 + len, b.len());
    }

    #[test]
    fn ten_million_deep_is_linear() {
        let b = bomb(&Cbor, Nest::Array, 10_000_000);
        assert_eq!(b.len(), 10_000_001);
    }
}

//! Lowercase hex ↔ bytes, exact in both directions.
//!
//! Only lowercase, even-length hex converts to bytes: those are the only
//! strings that [`encode`] reproduces byte for byte. Uppercase, mixed-case and
//! odd-length hex stay strings wherever they appear.
//!
//! Every profile that packs hex goes through this module, so it is written
//! for speed, in safe Rust. Checking and converting are one pass over
//! blocks of 16 characters with no branch per character (hex digits are
//! random, so a per-character `match` mispredicts); the block loops are
//! written so that the compiler vectorizes them with the baseline SIMD of
//! the target (SSE2 on x86-64). There is one predictable branch per block,
//! and text that is not hex usually fails in its first block.

/// Characters per decoded block (8 bytes out).
const BLOCK: usize = 16;

/// Decodes 16 characters into 8 bytes; false unless all 16 are lowercase
/// hex digits (`out` then holds garbage).
#[inline(always)]
fn decode_block(c: &[u8; BLOCK], out: &mut [u8; BLOCK / 2]) -> bool {
    let mut v = [0u8; BLOCK];
    let mut bad = 0u8;
    for i in 0..BLOCK {
        let d = c[i].wrapping_sub(b'0');
        let l = c[i].wrapping_sub(b'a');
        let is_digit = d < 10;
        let is_letter = l < 6;
        bad |= u8::from(!(is_digit | is_letter));
        v[i] = if is_digit { d } else { l.wrapping_add(10) };
    }
    for i in 0..BLOCK / 2 {
        out[i] = (v[2 * i] << 4) | (v[2 * i + 1] & 0x0f);
    }
    bad == 0
}

/// True when all 16 characters are lowercase hex digits.
#[inline(always)]
fn valid_block(c: &[u8; BLOCK]) -> bool {
    let mut bad = 0u8;
    for &x in c {
        bad |= u8::from(!(x.wrapping_sub(b'0') < 10 || x.wrapping_sub(b'a') < 6));
    }
    bad == 0
}

/// Fewer than 16 trailing characters, padded with `'0'` to a block.
#[inline(always)]
fn pad(tail: &[u8]) -> [u8; BLOCK] {
    let mut b = [b'0'; BLOCK];
    b[..tail.len()].copy_from_slice(tail);
    b
}

/// The lowercase hex digit of a nibble.
#[inline(always)]
fn digit(n: u8) -> u8 {
    n + if n < 10 { b'0' } else { b'a' - 10 }
}

/// Bytes per encoded block (16 characters out).
const BYTES: usize = 8;

/// The 16 characters of 8 bytes.
#[inline(always)]
fn encode_block(b: &[u8; BYTES]) -> [u8; 2 * BYTES] {
    let mut out = [0u8; 2 * BYTES];
    for i in 0..BYTES {
        out[2 * i] = digit(b[i] >> 4);
        out[2 * i + 1] = digit(b[i] & 0x0f);
    }
    out
}

/// Calls `emit` with the hex of `bytes`, 16 characters at a time (fewer
/// for the last call).
#[inline(always)]
fn encode_blocks(bytes: &[u8], mut emit: impl FnMut(&[u8])) {
    let mut chunks = bytes.chunks_exact(BYTES);
    for c in &mut chunks {
        emit(&encode_block(c.try_into().expect("a block")));
    }
    let tail = chunks.remainder();
    if !tail.is_empty() {
        let mut b = [0u8; BYTES];
        b[..tail.len()].copy_from_slice(tail);
        emit(&encode_block(&b)[..2 * tail.len()]);
    }
}

/// Calls `emit` with the bytes of even-length `s`, 8 at a time (fewer for
/// the last call); false, after fewer calls, when `s` is not lowercase hex.
#[inline(always)]
fn decode_blocks(s: &[u8], mut emit: impl FnMut(&[u8])) -> bool {
    debug_assert!(s.len().is_multiple_of(2));
    let mut chunks = s.chunks_exact(BLOCK);
    let mut out = [0u8; BLOCK / 2];
    for c in &mut chunks {
        if !decode_block(c.try_into().expect("a block"), &mut out) {
            return false;
        }
        emit(&out);
    }
    let tail = chunks.remainder();
    if !tail.is_empty() {
        if !decode_block(&pad(tail), &mut out) {
            return false;
        }
        emit(&out[..tail.len() / 2]);
    }
    true
}

/// True when `s` is non-empty, of even length and all lowercase hex digits:
/// exactly the strings that survive a bytes round trip unchanged.
pub fn is_lower_hex(s: &str) -> bool {
    is_lower_hex_bytes(s.as_bytes())
}

/// [`is_lower_hex`] of bytes not yet known to be UTF-8 (lowercase hex is
/// ASCII, so no separate UTF-8 check is needed).
pub fn is_lower_hex_bytes(b: &[u8]) -> bool {
    if b.is_empty() || !b.len().is_multiple_of(2) {
        return false;
    }
    let mut chunks = b.chunks_exact(BLOCK);
    chunks.all(|c| valid_block(c.try_into().expect("a block")))
        && (chunks.remainder().is_empty() || valid_block(&pad(chunks.remainder())))
}

/// Decodes lowercase hex of exactly `2 * N` characters into `[u8; N]`.
pub fn decode_array<const N: usize>(s: &str) -> Option<[u8; N]> {
    let bytes = s.as_bytes();
    if bytes.len() != 2 * N {
        return None;
    }
    let mut out = [0u8; N];
    let mut at = 0;
    decode_blocks(bytes, |b| {
        out[at..at + b.len()].copy_from_slice(b);
        at += b.len();
    })
    .then_some(out)
}

/// Decodes lowercase hex `s` into `out`, which must be exactly half as
/// long; false when `s` is not lowercase hex (`out` then holds garbage).
///
/// # Panics
/// If `out.len() * 2 != s.len()`.
#[inline]
pub fn decode_to_slice(s: &str, out: &mut [u8]) -> bool {
    assert_eq!(out.len() * 2, s.len(), "output is half the input");
    let mut at = 0;
    decode_blocks(s.as_bytes(), |b| {
        out[at..at + b.len()].copy_from_slice(b);
        at += b.len();
    })
}

/// Decodes lowercase, even-length hex into `out` (appending); returns false
/// and leaves `out`'s contents unchanged when `s` is not such hex. Empty
/// input is not hex. One pass: the bytes are appended while the characters
/// are checked, and dropped again on the first bad block.
pub fn decode_into(s: &str, out: &mut Vec<u8>) -> bool {
    let bytes = s.as_bytes();
    if bytes.is_empty() || !bytes.len().is_multiple_of(2) {
        return false;
    }
    let start = out.len();
    // Reserved once the first block is known to be hex, so that text (which
    // usually fails there) never grows `out`.
    let mut reserve = bytes.len() / 2;
    if decode_blocks(bytes, |b| {
        out.reserve(std::mem::take(&mut reserve));
        out.extend_from_slice(b);
    }) {
        true
    } else {
        out.truncate(start);
        false
    }
}

/// Appends the lowercase hex of `bytes` to `out`.
pub fn encode_into(bytes: &[u8], out: &mut Vec<u8>) {
    out.reserve(2 * bytes.len());
    encode_blocks(bytes, |c| out.extend_from_slice(c));
}

/// Appends the lowercase hex of `bytes` to a `String`.
pub fn encode_into_string(bytes: &[u8], out: &mut String) {
    out.reserve(2 * bytes.len());
    // Hex goes into `out` through `&str`: staged 128 characters at a time,
    // so the (ASCII fast path) UTF-8 check runs once per 64 bytes.
    for chunk in bytes.chunks(64) {
        let mut buf = [0u8; 128];
        let mut at = 0;
        encode_blocks(chunk, |c| {
            buf[at..at + c.len()].copy_from_slice(c);
            at += c.len();
        });
        out.push_str(std::str::from_utf8(&buf[..at]).expect("hex digits are ASCII"));
    }
}

/// The lowercase hex of `bytes`.
pub fn encode(bytes: &[u8]) -> String {
    let mut v = Vec::with_capacity(2 * bytes.len());
    encode_into(bytes, &mut v);
    String::from_utf8(v).expect("hex digits are ASCII")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The obvious per-character definitions the fast paths must equal.
    fn nibble(c: u8) -> Option<u8> {
        match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            _ => None,
        }
    }

    fn slow_decode(s: &[u8]) -> Option<Vec<u8>> {
        if s.is_empty() || !s.len().is_multiple_of(2) {
            return None;
        }
        s.chunks_exact(2)
            .map(|p| Some((nibble(p[0])? << 4) | nibble(p[1])?))
            .collect()
    }

    #[test]
    fn exact_round_trip() {
        for s in ["00", "ff", "0123456789abcdef", "deadbeef00"] {
            let mut b = Vec::new();
            assert!(decode_into(s, &mut b));
            assert_eq!(encode(&b), s);
        }
    }

    #[test]
    fn non_canonical_hex_stays_a_string() {
        for s in ["", "0", "abc", "AB", "aB", "0x12", "zz", "12 "] {
            let mut b = vec![9];
            assert!(!decode_into(s, &mut b), "{s:?}");
            assert_eq!(b, [9], "output untouched for {s:?}");
            assert!(!is_lower_hex(s));
        }
    }

    #[test]
    fn fixed_arrays() {
        assert_eq!(decode_array::<2>("a0ff"), Some([0xa0, 0xff]));
        assert_eq!(decode_array::<2>("A0FF"), None);
        assert_eq!(decode_array::<2>("a0f"), None);
        assert_eq!(decode_array::<2>("a0ff00"), None);
    }

    #[test]
    fn every_byte_value_at_every_position_matches_the_definition() {
        // Every length up to 40 characters, every position, every byte: the
        // SWAR check and conversion agree with the per-character definition.
        for len in (2..=40).step_by(2) {
            let base: Vec<u8> = (0..len).map(|i| b"0123456789abcdef"[i % 16]).collect();
            for pos in 0..len {
                for c in 0..=255u8 {
                    let mut s = base.clone();
                    s[pos] = c;
                    let want = slow_decode(&s);
                    let Ok(text) = std::str::from_utf8(&s) else {
                        assert!(want.is_none());
                        assert!(!decode_blocks(&s, |_| {}));
                        continue;
                    };
                    assert_eq!(is_lower_hex(text), want.is_some(), "{text:?}");
                    let mut out = vec![7];
                    assert_eq!(decode_into(text, &mut out), want.is_some(), "{text:?}");
                    match &want {
                        Some(w) => {
                            assert_eq!(&out[1..], &w[..], "{text:?}");
                            assert_eq!(encode(w), text);
                            if let Ok(a) = <[u8; 20]>::try_from(&w[..]) {
                                assert_eq!(decode_array::<20>(text), Some(a));
                            }
                        }
                        None => assert_eq!(out, [7], "{text:?}"),
                    }
                }
            }
        }
    }

    #[test]
    fn encoders_agree() {
        let bytes: Vec<u8> = (0..=255u8).chain(0..=255).collect();
        let mut s = String::from("x");
        encode_into_string(&bytes, &mut s);
        let mut v = b"x".to_vec();
        encode_into(&bytes, &mut v);
        assert_eq!(s.as_bytes(), &v[..]);
        assert_eq!(&s[1..], encode(&bytes));
        let want: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(encode(&bytes), want);
    }
}

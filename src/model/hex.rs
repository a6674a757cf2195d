//! Lowercase hex ↔ bytes, exact in both directions.
//!
//! Only lowercase, even-length hex converts to bytes: those are the only
//! strings that [`encode`] reproduces byte for byte. Uppercase, mixed-case and
//! odd-length hex stay strings wherever they appear.

const DIGITS: &[u8; 16] = b"0123456789abcdef";

/// Value of one lowercase hex digit, or `None`.
#[inline]
fn nibble(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    }
}

/// True when `s` is non-empty, of even length and all lowercase hex digits:
/// exactly the strings that survive a bytes round trip unchanged.
pub fn is_lower_hex(s: &str) -> bool {
    !s.is_empty() && s.len().is_multiple_of(2) && s.bytes().all(|c| nibble(c).is_some())
}

/// Decodes lowercase hex of exactly `2 * N` characters into `[u8; N]`.
pub fn decode_array<const N: usize>(s: &str) -> Option<[u8; N]> {
    let bytes = s.as_bytes();
    if bytes.len() != 2 * N {
        return None;
    }
    let mut out = [0u8; N];
    for (o, pair) in out.iter_mut().zip(bytes.chunks_exact(2)) {
        *o = (nibble(pair[0])? << 4) | nibble(pair[1])?;
    }
    Some(out)
}

/// Decodes lowercase, even-length hex into `out` (appending); returns false
/// and leaves `out` unchanged when `s` is not such hex. Empty input is not hex.
pub fn decode_into(s: &str, out: &mut Vec<u8>) -> bool {
    if !is_lower_hex(s) {
        return false;
    }
    out.extend(
        s.as_bytes()
            .chunks_exact(2)
            .map(|p| (nibble(p[0]).unwrap_or(0) << 4) | nibble(p[1]).unwrap_or(0)),
    );
    true
}

/// Appends the lowercase hex of `bytes` to `out`.
pub fn encode_into(bytes: &[u8], out: &mut Vec<u8>) {
    out.reserve(bytes.len() * 2);
    for b in bytes {
        out.push(DIGITS[usize::from(b >> 4)]);
        out.push(DIGITS[usize::from(b & 0x0f)]);
    }
}

/// Appends the lowercase hex of `bytes` to a `String`.
pub fn encode_into_string(bytes: &[u8], out: &mut String) {
    out.reserve(bytes.len() * 2);
    for b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0x0f)]));
    }
}

/// The lowercase hex of `bytes`.
pub fn encode(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    encode_into_string(bytes, &mut s);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

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
}

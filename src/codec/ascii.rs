//! ASCII decimal output for the text-framed profiles (netstrings, bencode).
//!
//! Reading the same numbers back is [`Reader::ascii_decimal`](super::Reader::ascii_decimal),
//! which enforces the canonical form these writers produce.

/// Number of decimal digits of `n` (`0` has one digit).
pub fn digits(n: u64) -> usize {
    let mut d = 1;
    let mut n = n / 10;
    while n > 0 {
        d += 1;
        n /= 10;
    }
    d
}

/// [`digits`] of a `usize` length.
pub fn len_digits(n: usize) -> usize {
    digits(u64::try_from(n).unwrap_or(u64::MAX))
}

/// Appends `n` in canonical decimal (no sign, no leading zeros).
pub fn push_u64(out: &mut Vec<u8>, mut n: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}

/// Appends a `usize` length in canonical decimal.
pub fn push_len(out: &mut Vec<u8>, n: usize) {
    push_u64(out, u64::try_from(n).unwrap_or(u64::MAX));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_round_trip() {
        for n in [0, 9, 10, 99, 100, 1_700_000_000, u64::MAX] {
            let mut out = Vec::new();
            push_u64(&mut out, n);
            assert_eq!(out, n.to_string().as_bytes());
            assert_eq!(digits(n), out.len());
        }
    }
}

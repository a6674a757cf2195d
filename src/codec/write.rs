//! Encode-side helpers shared by the hand-written encoders: LEB128 varints,
//! the one-pass "hex as bytes, else text" value writer and the signed
//! `created_at` of formats without an unsigned 64-bit integer.

use super::EncodeError;
use crate::model::hex;

/// `created_at` as the `i64` of a format without an unsigned 64-bit integer,
/// or `profile`'s refusal: "created_at above i64::MAX (`why`)".
#[inline]
pub fn signed_created_at(
    created_at: u64,
    profile: &'static str,
    why: &str,
) -> Result<i64, EncodeError> {
    i64::try_from(created_at)
        .map_err(|_| EncodeError::new(profile, format!("created_at above i64::MAX ({why})")))
}

/// Appends `n` as an unsigned LEB128 varint (minimal: 1 to 10 bytes).
#[inline]
pub fn put_uvarint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// The length of [`put_uvarint`]'s encoding of `n`.
#[inline]
pub fn uvarint_len(n: u64) -> usize {
    (64 - (n | 1).leading_zeros() as usize).div_ceil(7)
}

/// How [`put_hex_or_text`] writes a value, with the byte length that
/// follows its header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// Lowercase hex, written as this many decoded bytes.
    Hex(usize),
    /// Text, written as this many UTF-8 bytes.
    Text(usize),
}

/// Appends a value as `head(form)` followed by its bytes: the decoded bytes
/// when `s` is lowercase, even-length hex of at least `min_chars`
/// characters ([`hex::is_lower_hex`]), its UTF-8 otherwise; returns the
/// form written.
///
/// One pass over `s`: a candidate's header goes first and its bytes are
/// decoded straight after it; if a character turns out not to be hex, both
/// are dropped and the value is written as text. `head` must write the same
/// bytes for the same form.
#[inline]
pub fn put_hex_or_text(
    out: &mut Vec<u8>,
    s: &str,
    min_chars: usize,
    mut head: impl FnMut(&mut Vec<u8>, Form),
) -> Form {
    if s.len() >= min_chars.max(2) && s.len().is_multiple_of(2) {
        let at = out.len();
        let form = Form::Hex(s.len() / 2);
        head(out, form);
        if hex::decode_into(s, out) {
            return form;
        }
        out.truncate(at);
    }
    let form = Form::Text(s.len());
    head(out, form);
    out.extend_from_slice(s.as_bytes());
    form
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varint_lengths() {
        for n in [
            0,
            1,
            127,
            128,
            16_383,
            16_384,
            u64::from(u32::MAX),
            u64::MAX,
        ] {
            let mut v = Vec::new();
            put_uvarint(&mut v, n);
            assert_eq!(v.len(), uvarint_len(n), "{n}");
        }
    }

    #[test]
    fn hex_or_text_matches_the_two_pass_definition() {
        let head = |out: &mut Vec<u8>, f: Form| match f {
            Form::Hex(n) => out.extend_from_slice(&[1, n as u8]),
            Form::Text(n) => out.extend_from_slice(&[0, n as u8]),
        };
        for (s, min) in [
            ("", 1),
            ("ab", 1),
            ("ab", 8),
            ("abcdef01", 8),
            ("abcdef0", 1),
            ("ABCDEF01", 1),
            ("0123456789abcdef0123456789abcdeX", 1),
            ("0123456789abcdef0123456789abcdef00", 1),
            ("héllo", 1),
        ] {
            let mut got = vec![9];
            let form = put_hex_or_text(&mut got, s, min, head);
            let mut want = vec![9];
            if s.len() >= min && hex::is_lower_hex(s) {
                assert_eq!(form, Form::Hex(s.len() / 2));
                head(&mut want, form);
                hex::decode_into(s, &mut want);
            } else {
                assert_eq!(form, Form::Text(s.len()));
                head(&mut want, form);
                want.extend_from_slice(s.as_bytes());
            }
            assert_eq!(got, want, "{s:?}");
        }
    }
}

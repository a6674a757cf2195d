//! A bounds-checked cursor for hand-written decoders.
//!
//! Every read checks the remaining input first and reports the offset where
//! it failed; counts are checked against a limit *and* against the bytes left
//! before anything is allocated.

use super::{DecodeError, DecodeErrorKind, Limit};

/// `bytes` as `&str`, or the offset of the first byte that is not part of
/// valid UTF-8. Long strings are checked with SIMD (`simdutf8`, which
/// picks AVX2 or SSE4.2 at run time and falls back to the standard library
/// below 64 bytes); the standard library's check then locates an error.
#[inline]
pub fn utf8(bytes: &[u8]) -> Result<&str, usize> {
    if bytes.len() >= 64
        && let Ok(s) = simdutf8::basic::from_utf8(bytes)
    {
        return Ok(s);
    }
    std::str::from_utf8(bytes).map_err(|e| e.valid_up_to())
}

/// A cursor over an input slice.
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// Starts at offset 0.
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, pos: 0 }
    }

    /// Bytes consumed so far: the offset a decode error reports.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// Bytes not yet read.
    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    /// An error of `kind` at the current offset.
    pub fn error(&self, kind: DecodeErrorKind) -> DecodeError {
        DecodeError::at(kind, self.pos)
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        if n > self.remaining() {
            return Err(self.error(DecodeErrorKind::Truncated));
        }
        let out = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    /// The next `N` bytes as an array reference.
    pub fn array<const N: usize>(&mut self) -> Result<&'a [u8; N], DecodeError> {
        Ok(self.take(N)?.try_into().expect("take returned N bytes"))
    }

    /// One byte.
    pub fn u8(&mut self) -> Result<u8, DecodeError> {
        Ok(self.take(1)?[0])
    }

    /// The next byte without consuming it.
    pub fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// A LEB128 unsigned varint of at most 10 bytes. Rejects overflow and,
    /// when `canonical`, over-long encodings (a trailing zero byte).
    #[inline]
    pub fn uvarint(&mut self, canonical: bool) -> Result<u64, DecodeError> {
        // Most varints (lengths, counts, field keys) are one byte.
        if let Some(&b) = self.bytes.get(self.pos)
            && b < 0x80
        {
            self.pos += 1;
            return Ok(u64::from(b));
        }
        self.uvarint_long(canonical)
    }

    #[inline(never)]
    fn uvarint_long(&mut self, canonical: bool) -> Result<u64, DecodeError> {
        let start = self.pos;
        let mut value: u64 = 0;
        for i in 0..10 {
            let b = self.u8()?;
            let bits = u64::from(b & 0x7f);
            if i == 9 && b > 1 {
                return Err(DecodeError::at(DecodeErrorKind::BadVarint, start));
            }
            value |= bits << (7 * i);
            if b & 0x80 == 0 {
                if canonical && i > 0 && b == 0 {
                    return Err(DecodeError::at(DecodeErrorKind::NonCanonical, start));
                }
                return Ok(value);
            }
        }
        Err(DecodeError::at(DecodeErrorKind::BadVarint, start))
    }

    /// `n` bytes of UTF-8.
    pub fn str(&mut self, n: usize) -> Result<&'a str, DecodeError> {
        let start = self.pos;
        let bytes = self.take(n)?;
        utf8(bytes).map_err(|at| DecodeError::at(DecodeErrorKind::BadUtf8, start + at))
    }

    /// Checks a declared count: at most `limit` (the value of `which`, or a
    /// cap derived from it), and small enough that `count * min_item_bytes`
    /// fits in the remaining input.
    pub fn count(
        &self,
        count: u64,
        min_item_bytes: usize,
        limit: usize,
        which: Limit,
    ) -> Result<usize, DecodeError> {
        let n = usize::try_from(count).unwrap_or(usize::MAX);
        if n > limit {
            return Err(self.error(DecodeErrorKind::LimitExceeded(which)));
        }
        self.fits(count, min_item_bytes)
    }

    /// Checks a declared count or length bounded only by the input:
    /// `count * min_item_bytes` must fit in the remaining input.
    pub fn fits(&self, count: u64, min_item_bytes: usize) -> Result<usize, DecodeError> {
        let n = usize::try_from(count).unwrap_or(usize::MAX);
        if n.saturating_mul(min_item_bytes) > self.remaining() {
            return Err(self.error(DecodeErrorKind::Truncated));
        }
        Ok(n)
    }

    /// The byte `n` positions ahead of the cursor, without consuming anything.
    pub fn peek_at(&self, n: usize) -> Option<u8> {
        self.bytes.get(self.pos.checked_add(n)?).copied()
    }

    /// Consumes one byte that must be `byte`: `Truncated` at the end of
    /// input, `Invalid(what)` on any other byte (nothing consumed).
    pub fn expect(&mut self, byte: u8, what: &'static str) -> Result<(), DecodeError> {
        match self.peek() {
            None => Err(self.error(DecodeErrorKind::Truncated)),
            Some(b) if b == byte => {
                self.pos += 1;
                Ok(())
            }
            Some(_) => Err(self.error(DecodeErrorKind::Invalid(what))),
        }
    }

    /// A canonical unsigned ASCII decimal: one to `max_digits` digits, no
    /// sign, no leading zero unless the number is `0`. Stops before the first
    /// non-digit or after `max_digits` digits (the caller checks what
    /// follows). Rejects values above `u64::MAX`.
    pub fn ascii_decimal(&mut self, max_digits: usize) -> Result<u64, DecodeError> {
        let start = self.pos;
        let mut value: u64 = 0;
        let mut n = 0;
        while n < max_digits {
            match self.peek() {
                Some(c @ b'0'..=b'9') => {
                    if n == 1 && value == 0 {
                        return Err(DecodeError::at(DecodeErrorKind::NonCanonical, start));
                    }
                    value = value
                        .checked_mul(10)
                        .and_then(|v| v.checked_add(u64::from(c - b'0')))
                        .ok_or(DecodeError::at(
                            DecodeErrorKind::Invalid("number out of range"),
                            start,
                        ))?;
                    self.pos += 1;
                    n += 1;
                }
                None if n == 0 => return Err(self.error(DecodeErrorKind::Truncated)),
                _ => break,
            }
        }
        if n == 0 {
            return Err(self.error(DecodeErrorKind::Invalid("expected a decimal digit")));
        }
        Ok(value)
    }

    /// Fails unless the input is fully consumed.
    pub fn finish(&self) -> Result<(), DecodeError> {
        if self.remaining() == 0 {
            Ok(())
        } else {
            Err(self.error(DecodeErrorKind::TrailingBytes))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints() {
        assert_eq!(Reader::new(&[0x00]).uvarint(true), Ok(0));
        assert_eq!(Reader::new(&[0xac, 0x02]).uvarint(true), Ok(300));
        let max = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
        assert_eq!(Reader::new(&max).uvarint(true), Ok(u64::MAX));
        let overflow = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02];
        assert_eq!(
            Reader::new(&overflow).uvarint(true).unwrap_err().kind,
            DecodeErrorKind::BadVarint
        );
        assert_eq!(
            Reader::new(&[0x80, 0x00]).uvarint(true).unwrap_err().kind,
            DecodeErrorKind::NonCanonical
        );
        assert_eq!(Reader::new(&[0x80, 0x00]).uvarint(false), Ok(0));
        assert_eq!(
            Reader::new(&[0x80]).uvarint(true).unwrap_err(),
            DecodeError::at(DecodeErrorKind::Truncated, 1)
        );
    }

    #[test]
    fn counts_are_bounded_before_allocation() {
        let r = Reader::new(&[0; 10]);
        assert_eq!(r.count(5, 2, 100, Limit::Tags), Ok(5));
        assert_eq!(
            r.count(6, 2, 100, Limit::Tags).unwrap_err().kind,
            DecodeErrorKind::Truncated
        );
        assert_eq!(
            r.count(u64::MAX, 1, 100, Limit::Tags).unwrap_err().kind,
            DecodeErrorKind::LimitExceeded(Limit::Tags)
        );
        assert_eq!(r.fits(10, 1), Ok(10));
        assert_eq!(
            r.fits(u64::MAX, 1).unwrap_err().kind,
            DecodeErrorKind::Truncated
        );
    }

    #[test]
    fn ascii_decimals_are_canonical_and_bounded() {
        let mut r = Reader::new(b"1700000000:");
        assert_eq!(r.ascii_decimal(20), Ok(1_700_000_000));
        assert_eq!(r.offset(), 10);
        assert_eq!(r.expect(b':', "colon"), Ok(()));
        assert_eq!(Reader::new(b"0:").ascii_decimal(9), Ok(0));
        assert_eq!(
            Reader::new(b"01:").ascii_decimal(9).unwrap_err(),
            DecodeError::at(DecodeErrorKind::NonCanonical, 0)
        );
        assert_eq!(
            Reader::new(b"-1").ascii_decimal(9).unwrap_err().kind,
            DecodeErrorKind::Invalid("expected a decimal digit")
        );
        assert_eq!(
            Reader::new(b"").ascii_decimal(9).unwrap_err().kind,
            DecodeErrorKind::Truncated
        );
        assert_eq!(
            Reader::new(b"18446744073709551615").ascii_decimal(20),
            Ok(u64::MAX)
        );
        assert_eq!(
            Reader::new(b"18446744073709551616")
                .ascii_decimal(20)
                .unwrap_err()
                .kind,
            DecodeErrorKind::Invalid("number out of range")
        );
        let mut r = Reader::new(b"12345");
        assert_eq!(r.ascii_decimal(3), Ok(123));
        assert_eq!(r.peek_at(1), Some(b'5'));
        assert_eq!(r.peek_at(2), None);
        assert_eq!(
            r.expect(b':', "colon").unwrap_err(),
            DecodeError::at(DecodeErrorKind::Invalid("colon"), 3)
        );
    }

    #[test]
    fn utf8_errors_point_at_the_bad_byte() {
        let mut r = Reader::new(b"ab\xffc");
        assert_eq!(
            r.str(4).unwrap_err(),
            DecodeError::at(DecodeErrorKind::BadUtf8, 2)
        );
    }
}

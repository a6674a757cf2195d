//! Length framing for streams of records: a 4-byte big-endian length, then
//! the record. Every profile is framed the same way, so stream sizes compare.

use super::{DecodeError, DecodeErrorKind};

/// Bytes of framing per record.
pub const FRAME_HEADER: usize = 4;

/// Appends `record` with its length prefix. Records over `u32::MAX` bytes
/// cannot be framed.
pub fn write_frame(out: &mut Vec<u8>, record: &[u8]) -> Result<(), DecodeError> {
    let len = u32::try_from(record.len())
        .map_err(|_| DecodeError::at(DecodeErrorKind::LimitExceeded("frame length"), out.len()))?;
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(record);
    Ok(())
}

/// Iterates the records of a complete framed stream as `(offset, record)`;
/// a cut-off final frame is a `Truncated` error at its offset, and a declared
/// length over `max_record` is refused before it is read.
pub struct Frames<'a> {
    bytes: &'a [u8],
    pos: usize,
    max_record: usize,
}

impl<'a> Frames<'a> {
    /// Frames of at most `max_record` bytes.
    pub fn new(bytes: &'a [u8], max_record: usize) -> Self {
        Self {
            bytes,
            pos: 0,
            max_record,
        }
    }
}

impl<'a> Iterator for Frames<'a> {
    type Item = Result<(usize, &'a [u8]), DecodeError>;

    fn next(&mut self) -> Option<Self::Item> {
        let rest = &self.bytes[self.pos..];
        if rest.is_empty() {
            return None;
        }
        let start = self.pos;
        let fail = |kind| Some(Err(DecodeError::at(kind, start)));
        let Some(header) = rest.get(..FRAME_HEADER) else {
            self.pos = self.bytes.len();
            return fail(DecodeErrorKind::Truncated);
        };
        let len = u32::from_be_bytes(header.try_into().expect("4 bytes")) as usize;
        if len > self.max_record {
            self.pos = self.bytes.len();
            return fail(DecodeErrorKind::LimitExceeded("frame length"));
        }
        let Some(record) = rest.get(FRAME_HEADER..FRAME_HEADER + len) else {
            self.pos = self.bytes.len();
            return fail(DecodeErrorKind::Truncated);
        };
        self.pos += FRAME_HEADER + len;
        Some(Ok((start + FRAME_HEADER, record)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_and_truncation_is_reported() {
        let mut s = Vec::new();
        write_frame(&mut s, b"abc").unwrap();
        write_frame(&mut s, b"").unwrap();
        assert_eq!(s, b"\0\0\0\x03abc\0\0\0\0");
        let got: Vec<_> = Frames::new(&s, 10).collect::<Result<_, _>>().unwrap();
        assert_eq!(got, vec![(4, &b"abc"[..]), (11, &b""[..])]);
        let cut = &s[..5];
        let r: Vec<_> = Frames::new(cut, 10).collect();
        assert_eq!(r, vec![Err(DecodeError::at(DecodeErrorKind::Truncated, 0))]);
        let huge = [0xff, 0xff, 0xff, 0xff, 1];
        let r: Vec<_> = Frames::new(&huge, 10).collect();
        assert_eq!(
            r,
            vec![Err(DecodeError::at(
                DecodeErrorKind::LimitExceeded("frame length"),
                0
            ))]
        );
    }
}

//! Length framing for streams of records: a 4-byte big-endian length, then
//! the record. Every profile is framed the same way, so stream sizes compare.

use super::{DecodeError, DecodeErrorKind, Limit};

/// Bytes of framing per record.
pub const FRAME_HEADER: usize = 4;

/// Appends `record` with its length prefix. Records over `u32::MAX` bytes
/// cannot be framed.
pub fn write_frame(out: &mut Vec<u8>, record: &[u8]) -> Result<(), DecodeError> {
    let len = u32::try_from(record.len()).map_err(|_| {
        DecodeError::at(DecodeErrorKind::LimitExceeded(Limit::EventBytes), out.len())
    })?;
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
            return fail(DecodeErrorKind::LimitExceeded(Limit::EventBytes));
        }
        let Some(record) = rest.get(FRAME_HEADER..FRAME_HEADER + len) else {
            self.pos = self.bytes.len();
            return fail(DecodeErrorKind::Truncated);
        };
        self.pos += FRAME_HEADER + len;
        Some(Ok((start + FRAME_HEADER, record)))
    }
}

/// Reassembles framed records from chunks as they arrive (for example
/// 1460-byte TCP segments). Complete records are handed out in order; a
/// trailing partial record stays buffered, intact, for the next chunk.
#[derive(Debug, Default)]
pub struct FrameStream {
    buf: Vec<u8>,
    start: usize,
    /// Stream offset of `buf[0]`, for error offsets.
    base: usize,
    max_record: usize,
}

impl FrameStream {
    /// A stream of records of at most `max_record` bytes.
    pub fn new(max_record: usize) -> Self {
        Self {
            max_record,
            ..Self::default()
        }
    }

    /// Forgets everything buffered, keeping the allocation.
    pub fn reset(&mut self) {
        self.buf.clear();
        self.start = 0;
        self.base = 0;
    }

    /// Appends a chunk.
    pub fn push(&mut self, chunk: &[u8]) {
        if self.start > 0 {
            self.buf.drain(..self.start);
            self.base += self.start;
            self.start = 0;
        }
        self.buf.extend_from_slice(chunk);
    }

    /// The next complete record with its stream offset, `None` when only a
    /// partial record (or nothing) is buffered. A declared length over the
    /// limit is an error at the frame's offset, before anything is buffered
    /// for it.
    pub fn next_record(&mut self) -> Result<Option<(usize, &[u8])>, DecodeError> {
        let rest = &self.buf[self.start..];
        let Some(header) = rest.get(..FRAME_HEADER) else {
            return Ok(None);
        };
        let len = u32::from_be_bytes(header.try_into().expect("4 bytes")) as usize;
        if len > self.max_record {
            return Err(DecodeError::at(
                DecodeErrorKind::LimitExceeded(Limit::EventBytes),
                self.base + self.start,
            ));
        }
        if rest.len() < FRAME_HEADER + len {
            return Ok(None);
        }
        let from = self.start + FRAME_HEADER;
        self.start = from + len;
        Ok(Some((self.base + from, &self.buf[from..from + len])))
    }

    /// The buffered bytes of the partial record not yet complete.
    pub fn remainder(&self) -> &[u8] {
        &self.buf[self.start..]
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
                DecodeErrorKind::LimitExceeded(Limit::EventBytes),
                0
            ))]
        );
    }

    #[test]
    fn frame_stream_keeps_a_partial_record_across_chunks() {
        let mut s = Vec::new();
        for r in [&b"hello"[..], b"", b"a longer record"] {
            write_frame(&mut s, r).unwrap();
        }
        let whole = s.len();
        write_frame(&mut s, b"cut off").unwrap();
        let cut = whole + 6;
        for chunk in [1, 3, 7, 1460] {
            let mut stream = FrameStream::new(100);
            let mut got = Vec::new();
            for c in s[..cut].chunks(chunk) {
                stream.push(c);
                while let Some((at, r)) = stream.next_record().unwrap() {
                    got.push((at, r.to_vec()));
                }
            }
            let expected: Vec<_> = Frames::new(&s[..whole], 100)
                .map(|f| f.map(|(at, r)| (at, r.to_vec())))
                .collect::<Result<_, _>>()
                .unwrap();
            assert_eq!(got, expected, "chunk {chunk}");
            assert_eq!(stream.remainder(), &s[whole..cut], "chunk {chunk}");
        }
        let mut stream = FrameStream::new(3);
        stream.push(&s[..5]);
        stream.push(&s[5..9]);
        assert_eq!(
            stream.next_record(),
            Err(DecodeError::at(
                DecodeErrorKind::LimitExceeded(Limit::EventBytes),
                0
            ))
        );
    }
}

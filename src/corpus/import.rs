//! Streaming import: splits a (possibly compressed) file into raw records.
//!
//! Shapes are detected per file and may even mix:
//! - a JSON array of events or of relay messages, pretty-printed or compact
//!   (each element is a record);
//! - JSON Lines of event objects or of relay messages `["EVENT",…]`;
//! - one or more whole JSON documents (a pretty-printed event or envelope).
//!
//! gzip and zstd input is recognised by its magic bytes. Memory is bounded by
//! the largest record allowed, never by the file. The splitter only tracks
//! brackets and strings; parsing happens later, per record, so one broken
//! record cannot hide its neighbours. A record that spans lines after a first
//! line with content (a JSON Lines record) ends at its newline; so do strings,
//! since JSON forbids raw newlines in them. Every record keeps its byte offset
//! and line, so each can be accounted for.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use serde::Serialize;

use crate::validate::ValidationError;

/// Where a record starts in the decompressed stream.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Position {
    /// 1-based line number.
    pub line: u64,
    /// 0-based byte offset.
    pub byte: u64,
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {} (byte {})", self.line, self.byte)
    }
}

/// The layout of a file, as detected from its first record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Shape {
    /// A top-level JSON array of events.
    JsonArray,
    /// One record per line.
    Jsonl,
    /// Whole multi-line JSON documents.
    Document,
    /// No records at all.
    Empty,
}

impl Shape {
    /// The name used in provenance records and reports.
    pub fn name(self) -> &'static str {
        match self {
            Shape::JsonArray => "json-array",
            Shape::Jsonl => "jsonl",
            Shape::Document => "document",
            Shape::Empty => "empty",
        }
    }
}

/// One record cut from the input, not yet parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawRecord {
    /// The record's bytes (empty when `problem` says it was too large).
    pub bytes: Vec<u8>,
    /// Where it starts.
    pub position: Position,
    /// Set when the splitter already knows the record is bad.
    pub problem: Option<ValidationError>,
}

/// Opens `path` (or standard input for `-`), decompressing gzip or zstd.
pub fn open(path: &Path) -> io::Result<Box<dyn BufRead + Send>> {
    if path.as_os_str() == "-" {
        return decompress(Box::new(io::stdin()));
    }
    decompress(Box::new(File::open(path)?))
}

/// Wraps `input` in a decoder chosen by its magic bytes.
pub fn decompress(input: Box<dyn Read + Send>) -> io::Result<Box<dyn BufRead + Send>> {
    let mut buffered = BufReader::with_capacity(1 << 16, input);
    let head = buffered.fill_buf()?;
    if head.starts_with(&[0x1f, 0x8b]) {
        Ok(Box::new(BufReader::with_capacity(
            1 << 16,
            flate2::bufread::MultiGzDecoder::new(buffered),
        )))
    } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        Ok(Box::new(BufReader::with_capacity(
            1 << 16,
            zstd::stream::read::Decoder::with_buffer(buffered)?,
        )))
    } else {
        Ok(Box::new(buffered))
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Top,
    InArray,
    Done,
}

/// Splits a stream into [`RawRecord`]s; see the module docs.
pub struct RecordReader<R> {
    input: R,
    position: Position,
    max_record_bytes: usize,
    state: State,
    shape: Shape,
}

/// How a scan ended.
enum ScanEnd {
    Complete,
    CutAtNewline,
    Eof,
}

impl<R: BufRead> RecordReader<R> {
    /// Reads records of at most `max_record_bytes` from `input`; longer ones
    /// are skipped without being buffered and reported as over the limit.
    pub fn new(input: R, max_record_bytes: usize) -> Self {
        Self {
            input,
            position: Position { line: 1, byte: 0 },
            max_record_bytes,
            state: State::Top,
            shape: Shape::Empty,
        }
    }

    /// The shape detected from the first record so far.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Bytes of decompressed input consumed so far.
    pub fn bytes_read(&self) -> u64 {
        self.position.byte
    }

    fn peek(&mut self) -> io::Result<Option<u8>> {
        Ok(self.input.fill_buf()?.first().copied())
    }

    fn bump(&mut self) {
        if self.input.fill_buf().ok().and_then(|b| b.first().copied()) == Some(b'\n') {
            self.position.line += 1;
        }
        self.input.consume(1);
        self.position.byte += 1;
    }

    /// Skips whitespace; returns the next byte (not consumed) and whether a
    /// newline was skipped.
    fn skip_whitespace(&mut self) -> io::Result<(Option<u8>, bool)> {
        let mut newline = false;
        loop {
            match self.peek()? {
                Some(b @ (b' ' | b'\t' | b'\r' | b'\n')) => {
                    newline |= b == b'\n';
                    self.bump();
                }
                // A UTF-8 byte order mark at the very start.
                Some(0xef) if self.position.byte == 0 => {
                    let head = self.input.fill_buf()?;
                    if head.starts_with(&[0xef, 0xbb, 0xbf]) {
                        self.input.consume(3);
                        self.position.byte += 3;
                    } else {
                        return Ok((Some(0xef), newline));
                    }
                }
                other => return Ok((other, newline)),
            }
        }
    }

    /// Scans one bracketed value, starting at `depth` with `buf` holding the
    /// bytes already consumed. `first_line_content` counts non-blank bytes on
    /// the record's first line so far, or is `None` once a newline was passed.
    fn scan_value(
        &mut self,
        buf: &mut Vec<u8>,
        mut depth: u32,
        mut first_line_content: Option<usize>,
    ) -> io::Result<(ScanEnd, bool)> {
        let mut in_string = false;
        let mut escaped = false;
        let mut too_large = false;
        loop {
            let chunk = self.input.fill_buf()?;
            if chunk.is_empty() {
                return Ok((ScanEnd::Eof, too_large));
            }
            let mut end = None;
            for (i, &b) in chunk.iter().enumerate() {
                if b == b'\n' {
                    self.position.line += 1;
                    let line_shaped = first_line_content.is_some_and(|n| n > 1);
                    if in_string || (line_shaped && depth > 0) {
                        end = Some((i + 1, ScanEnd::CutAtNewline));
                        break;
                    }
                    first_line_content = None;
                    continue;
                }
                if let Some(n) = first_line_content.as_mut()
                    && !b.is_ascii_whitespace()
                {
                    *n += 1;
                }
                if in_string {
                    if escaped {
                        escaped = false;
                    } else if b == b'\\' {
                        escaped = true;
                    } else if b == b'"' {
                        in_string = false;
                    }
                    continue;
                }
                match b {
                    b'"' => in_string = true,
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            end = Some((i + 1, ScanEnd::Complete));
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let n = end.as_ref().map_or(chunk.len(), |(n, _)| *n);
            too_large = self.keep(buf, n, too_large);
            if let Some((_, how)) = end {
                return Ok((how, too_large));
            }
        }
    }

    /// Consumes the next `n` buffered bytes into `buf` while the record stays
    /// within the limit; past it, drops what was kept. Returns `too_large`.
    fn keep(&mut self, buf: &mut Vec<u8>, n: usize, too_large: bool) -> bool {
        let too_large = too_large || buf.len() + n > self.max_record_bytes;
        if too_large {
            buf.clear();
        } else {
            let chunk = self.input.fill_buf().unwrap_or_default();
            buf.extend_from_slice(&chunk[..n]);
        }
        self.input.consume(n);
        self.position.byte += n as u64;
        too_large
    }

    /// Scans bytes that cannot start an event up to the end of the line (or,
    /// inside an array, to the next `,` or `]`).
    fn scan_garbage(&mut self, buf: &mut Vec<u8>, in_array: bool) -> io::Result<bool> {
        let mut too_large = false;
        loop {
            let chunk = self.input.fill_buf()?;
            if chunk.is_empty() {
                return Ok(too_large);
            }
            let stop = chunk
                .iter()
                .position(|&b| b == b'\n' || (in_array && (b == b',' || b == b']')));
            let n = stop.unwrap_or(chunk.len());
            too_large = self.keep(buf, n, too_large);
            if stop.is_some() {
                return Ok(too_large);
            }
        }
    }

    fn finish(&self, buf: Vec<u8>, start: Position, end: ScanEnd, too_large: bool) -> RawRecord {
        let problem = if too_large {
            Some(ValidationError::LimitExceeded {
                what: "record bytes",
                limit: self.max_record_bytes,
                actual: usize::try_from(self.position.byte - start.byte).unwrap_or(usize::MAX),
            })
        } else {
            match end {
                ScanEnd::Complete => None,
                ScanEnd::CutAtNewline => Some(ValidationError::MalformedJson(format!(
                    "record cut off at the end of line {}",
                    self.position.line - 1
                ))),
                ScanEnd::Eof => Some(ValidationError::MalformedJson(
                    "record cut off at the end of input".into(),
                )),
            }
        };
        RawRecord {
            bytes: buf,
            position: start,
            problem,
        }
    }

    fn note_shape(&mut self, shape: Shape) {
        if self.shape == Shape::Empty {
            self.shape = shape;
        }
    }

    fn next_record(&mut self) -> io::Result<Option<RawRecord>> {
        loop {
            match self.state {
                State::Done => return Ok(None),
                State::Top => {
                    let (next, _) = self.skip_whitespace()?;
                    let start = self.position;
                    let mut buf = Vec::new();
                    match next {
                        None => {
                            self.state = State::Done;
                            return Ok(None);
                        }
                        Some(b'[') => {
                            self.bump();
                            let (next, newline) = self.skip_whitespace()?;
                            if matches!(next, Some(b'{' | b'[' | b']')) {
                                self.note_shape(Shape::JsonArray);
                                self.state = State::InArray;
                                continue;
                            }
                            buf.push(b'[');
                            let first_line = (!newline).then_some(1);
                            let (end, too_large) = self.scan_value(&mut buf, 1, first_line)?;
                            self.note_shape(if start.line == self.line_before_end(&end) {
                                Shape::Jsonl
                            } else {
                                Shape::Document
                            });
                            return Ok(Some(self.finish(buf, start, end, too_large)));
                        }
                        Some(b'{') => {
                            let (end, too_large) = self.scan_value(&mut buf, 0, Some(0))?;
                            self.note_shape(if start.line == self.line_before_end(&end) {
                                Shape::Jsonl
                            } else {
                                Shape::Document
                            });
                            return Ok(Some(self.finish(buf, start, end, too_large)));
                        }
                        Some(_) => {
                            let too_large = self.scan_garbage(&mut buf, false)?;
                            self.note_shape(Shape::Jsonl);
                            return Ok(Some(self.finish(buf, start, ScanEnd::Complete, too_large)));
                        }
                    }
                }
                State::InArray => {
                    let (next, _) = self.skip_whitespace()?;
                    let start = self.position;
                    let mut buf = Vec::new();
                    match next {
                        None => {
                            self.state = State::Done;
                            return Ok(None);
                        }
                        Some(b',') => self.bump(),
                        Some(b']') => {
                            self.bump();
                            self.state = State::Top;
                        }
                        Some(b'{' | b'[') => {
                            let (end, too_large) = self.scan_value(&mut buf, 0, Some(0))?;
                            return Ok(Some(self.finish(buf, start, end, too_large)));
                        }
                        Some(_) => {
                            let too_large = self.scan_garbage(&mut buf, true)?;
                            if buf.is_empty() && !too_large {
                                // A lone newline inside a broken element list.
                                self.bump();
                                continue;
                            }
                            return Ok(Some(self.finish(buf, start, ScanEnd::Complete, too_large)));
                        }
                    }
                }
            }
        }
    }

    /// The line a value ended on (a newline that cut it counts to the line before).
    fn line_before_end(&self, end: &ScanEnd) -> u64 {
        match end {
            ScanEnd::CutAtNewline => self.position.line - 1,
            _ => self.position.line,
        }
    }
}

impl<R: BufRead> Iterator for RecordReader<R> {
    type Item = io::Result<RawRecord>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.next_record() {
            Ok(Some(r)) => Some(Ok(r)),
            Ok(None) => None,
            Err(e) => {
                self.state = State::Done;
                Some(Err(e))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (text, line, problem code) of each record.
    type Split = Vec<(String, u64, Option<&'static str>)>;

    fn split(input: &str) -> (Split, Shape) {
        let mut reader = RecordReader::new(input.as_bytes(), 1000);
        let records = reader
            .by_ref()
            .map(|r| {
                let r = r.unwrap();
                (
                    String::from_utf8(r.bytes).unwrap(),
                    r.position.line,
                    r.problem.map(|p| p.code()),
                )
            })
            .collect();
        (records, reader.shape())
    }

    #[test]
    fn arrays_compact_and_pretty() {
        let (r, shape) = split("[{\"a\":1},{\"b\":[2]}]");
        assert_eq!(shape, Shape::JsonArray);
        assert_eq!(
            r,
            vec![
                ("{\"a\":1}".into(), 1, None),
                ("{\"b\":[2]}".into(), 1, None)
            ]
        );
        let (r, _) = split("[\n  {\n    \"a\": \"x]}\"\n  },\n  {\"b\": 2}\n]\n");
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].0, "{\n    \"a\": \"x]}\"\n  }");
        assert_eq!((r[1].1, r[1].2), (5, None));
        assert_eq!(split("[]").0, vec![]);
        let (r, shape) = split("[[\"EVENT\",{}],\n [\"EVENT\",\"s\",{}]]");
        assert_eq!(shape, Shape::JsonArray);
        assert_eq!(r.len(), 2);
        assert_eq!(r[1], ("[\"EVENT\",\"s\",{}]".into(), 2, None));
    }

    #[test]
    fn lines_and_envelopes() {
        let input = "{\"a\":1}\n[\"EVENT\",\"s\",{\"b\":\"[\"}]\n\n[\"EVENT\",{}]\n";
        let (r, shape) = split(input);
        assert_eq!(shape, Shape::Jsonl);
        assert_eq!(
            r,
            vec![
                ("{\"a\":1}".into(), 1, None),
                ("[\"EVENT\",\"s\",{\"b\":\"[\"}]".into(), 2, None),
                ("[\"EVENT\",{}]".into(), 4, None),
            ]
        );
    }

    #[test]
    fn pretty_documents() {
        let (r, shape) =
            split("[\n  \"EVENT\",\n  \"s\",\n  {\n    \"a\": 1\n  }\n]\n{\n \"b\": 2\n}");
        assert_eq!(shape, Shape::Document);
        assert_eq!(r.len(), 2);
        assert!(
            r[0].0.starts_with("[\n  \"EVENT\"") || r[0].0.starts_with("[\"EVENT\""),
            "{r:?}"
        );
        assert!(r[0].0.ends_with("}\n]"), "{r:?}");
        assert_eq!((r[1].1, r[1].2), (8, None));
    }

    #[test]
    fn broken_lines_are_cut_and_nothing_is_swallowed() {
        // A truncated line, then a line hard-wrapped in three, then a good line.
        let input = "{\"a\":\"tru\n{\"b\":1,\n\"c\":\"wrapped\nstill\"}\n{\"d\":1}\n";
        let (r, _) = split(input);
        let lines: Vec<u64> = r.iter().map(|x| x.1).collect();
        assert_eq!(lines, vec![1, 2, 3, 4, 5], "{r:?}");
        assert_eq!(r[0].2, Some("malformed-json"));
        assert_eq!(r[1].2, Some("malformed-json"));
        assert_eq!(r[4], ("{\"d\":1}".into(), 5, None));
    }

    #[test]
    fn garbage_between_records_is_a_record() {
        let (r, _) = split("[\"EVENT\",{}] garbage here\nnot json\n");
        assert_eq!(
            r.iter().map(|x| x.0.as_str()).collect::<Vec<_>>(),
            vec!["[\"EVENT\",{}]", "garbage here", "not json"]
        );
    }

    #[test]
    fn oversized_records_are_not_buffered() {
        let big = format!("{{\"a\":\"{}\"}}\n{{\"b\":1}}", "x".repeat(5000));
        let (r, _) = split(&big);
        assert_eq!(r.len(), 2);
        assert_eq!((r[0].0.as_str(), r[0].2), ("", Some("limit-exceeded")));
        assert_eq!(r[1], ("{\"b\":1}".into(), 2, None));
    }

    #[test]
    fn truncated_file() {
        let (r, _) = split("[{\"a\":1},{\"b\":");
        assert_eq!(r.len(), 2);
        assert_eq!(r[1].2, Some("malformed-json"));
    }

    #[test]
    fn compressed_input_is_detected() {
        use std::io::Write;
        let text = b"{\"a\":1}\n{\"b\":2}\n";
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(text).unwrap();
        let zs = zstd::encode_all(&text[..], 3).unwrap();
        for data in [gz.finish().unwrap(), zs] {
            let reader = decompress(Box::new(io::Cursor::new(data))).unwrap();
            let n = RecordReader::new(reader, 100).count();
            assert_eq!(n, 2);
        }
    }
}

//! Streaming import: splits a (possibly compressed) file into raw records.
//!
//! Shapes are detected per file and may even mix:
//! - a JSON array of events or of relay messages, pretty-printed or compact
//!   (each element is a record);
//! - JSON Lines of event objects or of relay messages `["EVENT",…]`;
//! - one or more whole JSON documents (a pretty-printed event or envelope);
//! - a JSON object used as a container (`object-of-arrays`, `object-of-events`):
//!   each value that is an array contributes its elements as records, each
//!   value that is an object is a record, and any other value is a record of
//!   its own (rejected later), so a client's cache file that files events
//!   under category keys, or a site index keyed by naddr, reads like an
//!   array. The keys themselves are skipped, never buffered.
//!
//! A top-level object is a container when its first key is not a NIP-01
//! field name and its first value opens an object or an array; otherwise it
//! is a record (an event, perhaps a broken one). The first key decides once:
//! a container's later values are records whatever their keys.
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
    /// A top-level object whose values are arrays of records (the first
    /// value is an array).
    ObjectOfArrays,
    /// A top-level object whose values are records, e.g. keyed by naddr (the
    /// first value is an object).
    ObjectOfEvents,
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
            Shape::ObjectOfArrays => "object-of-arrays",
            Shape::ObjectOfEvents => "object-of-events",
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

/// The NIP-01 field names: a top-level object whose first key is one of
/// them is a record, never a container.
const EVENT_FIELDS: [&[u8]; 7] = [
    b"id",
    b"pubkey",
    b"created_at",
    b"kind",
    b"tags",
    b"content",
    b"sig",
];

/// The most bytes read ahead of a top-level object to find its first key.
const FIRST_KEY_PEEK: usize = 1024;

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Top,
    /// Between the elements of an array of records; `in_object` when the
    /// array is a value of a container object.
    InArray {
        in_object: bool,
    },
    /// Between the members of a container object; `value_next` once a key
    /// and its `:` were consumed.
    InObject {
        value_next: bool,
    },
    Done,
}

/// Where a scan stands inside a value.
#[derive(Clone, Copy)]
struct Scan {
    depth: u32,
    in_string: bool,
    escaped: bool,
    /// Non-blank bytes on the record's first line so far, or `None` once a
    /// newline was passed.
    first_line_content: Option<usize>,
}

impl Scan {
    /// A value not yet started.
    const FRESH: Scan = Scan {
        depth: 0,
        in_string: false,
        escaped: false,
        first_line_content: Some(0),
    };
}

/// What the start of a top-level object turned out to be.
enum FirstMember {
    /// A record: go on scanning it from here.
    Record(Scan),
    /// A container whose first value starts with this byte (not consumed).
    Container(u8),
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

    /// Scans one bracketed value from `scan`, with `buf` holding the bytes
    /// already consumed.
    fn scan_value(&mut self, buf: &mut Vec<u8>, scan: Scan) -> io::Result<(ScanEnd, bool)> {
        let Scan {
            mut depth,
            mut in_string,
            mut escaped,
            mut first_line_content,
        } = scan;
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

    /// Reads the `{`, first key and `:` of a top-level object into `buf`,
    /// to tell a record from a container (see the module docs). Anything
    /// unexpected (no key, a newline that ends a JSON Lines record, a key
    /// longer than [`FIRST_KEY_PEEK`]) makes it a record, scanned on from
    /// where this stopped.
    fn first_member(&mut self, buf: &mut Vec<u8>) -> io::Result<FirstMember> {
        #[derive(PartialEq)]
        enum Phase {
            Open,
            BeforeKey,
            Key,
            AfterKey,
            AfterColon,
        }
        let cap = FIRST_KEY_PEEK.min(self.max_record_bytes);
        let mut scan = Scan::FRESH;
        let mut phase = Phase::Open;
        let mut key = 0..0;
        while buf.len() < cap {
            let Some(b) = self.peek()? else { break };
            if b == b'\n' && (phase == Phase::Key || scan.first_line_content.is_some_and(|n| n > 1))
            {
                break;
            }
            let blank = b.is_ascii_whitespace();
            match phase {
                Phase::Open => {
                    scan.depth = 1;
                    phase = Phase::BeforeKey;
                }
                Phase::Key if scan.escaped => scan.escaped = false,
                Phase::Key if b == b'\\' => scan.escaped = true,
                Phase::Key if b == b'"' => {
                    key.end = buf.len();
                    scan.in_string = false;
                    phase = Phase::AfterKey;
                }
                Phase::Key => {}
                _ if blank => {}
                Phase::BeforeKey if b == b'"' => {
                    key = buf.len() + 1..buf.len() + 1;
                    scan.in_string = true;
                    phase = Phase::Key;
                }
                Phase::AfterKey if b == b':' => phase = Phase::AfterColon,
                Phase::AfterColon if matches!(b, b'{' | b'[') => {
                    if EVENT_FIELDS.contains(&&buf[key]) {
                        break;
                    }
                    buf.clear();
                    return Ok(FirstMember::Container(b));
                }
                _ => break,
            }
            if b == b'\n' {
                scan.first_line_content = None;
            } else if !blank && let Some(n) = scan.first_line_content.as_mut() {
                *n += 1;
            }
            buf.push(b);
            self.bump();
        }
        Ok(FirstMember::Record(scan))
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

    /// Scans bytes that cannot start an event up to the end of the line or,
    /// outside strings, to the next byte in `stops` (a `,` or the container's
    /// closing bracket).
    fn scan_garbage(&mut self, buf: &mut Vec<u8>, stops: &[u8]) -> io::Result<bool> {
        let mut too_large = false;
        let (mut in_string, mut escaped) = (false, false);
        loop {
            let chunk = self.input.fill_buf()?;
            if chunk.is_empty() {
                return Ok(too_large);
            }
            let stop = chunk.iter().position(|&b| {
                if b == b'\n' {
                    return true;
                }
                if in_string {
                    if escaped {
                        escaped = false;
                    } else if b == b'\\' {
                        escaped = true;
                    } else if b == b'"' {
                        in_string = false;
                    }
                    return false;
                }
                in_string = b == b'"';
                stops.contains(&b)
            });
            let n = stop.unwrap_or(chunk.len());
            too_large = self.keep(buf, n, too_large);
            if stop.is_some() {
                return Ok(too_large);
            }
        }
    }

    /// Skips a key string (its opening quote next), unbuffered; stops early
    /// at a newline, which JSON forbids in strings.
    fn skip_string(&mut self) -> io::Result<()> {
        self.bump();
        let mut escaped = false;
        while let Some(b) = self.peek()? {
            if b == b'\n' {
                return Ok(());
            }
            self.bump();
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                return Ok(());
            }
        }
        Ok(())
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

    /// A record for a value that is not an array or object, or `None` (and
    /// the stop byte left in place) when there was nothing before it.
    fn garbage_record(&mut self, stops: &[u8]) -> io::Result<Option<RawRecord>> {
        let start = self.position;
        let mut buf = Vec::new();
        let too_large = self.scan_garbage(&mut buf, stops)?;
        if buf.is_empty() && !too_large {
            return Ok(None);
        }
        Ok(Some(self.finish(buf, start, ScanEnd::Complete, too_large)))
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
                                self.state = State::InArray { in_object: false };
                                continue;
                            }
                            buf.push(b'[');
                            let scan = Scan {
                                depth: 1,
                                first_line_content: (!newline).then_some(1),
                                ..Scan::FRESH
                            };
                            let (end, too_large) = self.scan_value(&mut buf, scan)?;
                            self.note_shape(if start.line == self.line_before_end(&end) {
                                Shape::Jsonl
                            } else {
                                Shape::Document
                            });
                            return Ok(Some(self.finish(buf, start, end, too_large)));
                        }
                        Some(b'{') => {
                            let scan = match self.first_member(&mut buf)? {
                                FirstMember::Record(scan) => scan,
                                FirstMember::Container(first) => {
                                    self.note_shape(if first == b'[' {
                                        Shape::ObjectOfArrays
                                    } else {
                                        Shape::ObjectOfEvents
                                    });
                                    self.state = State::InObject { value_next: true };
                                    continue;
                                }
                            };
                            let (end, too_large) = self.scan_value(&mut buf, scan)?;
                            self.note_shape(if start.line == self.line_before_end(&end) {
                                Shape::Jsonl
                            } else {
                                Shape::Document
                            });
                            return Ok(Some(self.finish(buf, start, end, too_large)));
                        }
                        Some(_) => {
                            let too_large = self.scan_garbage(&mut buf, &[])?;
                            self.note_shape(Shape::Jsonl);
                            return Ok(Some(self.finish(buf, start, ScanEnd::Complete, too_large)));
                        }
                    }
                }
                State::InArray { in_object } => {
                    let (next, _) = self.skip_whitespace()?;
                    let start = self.position;
                    match next {
                        None => {
                            self.state = State::Done;
                            return Ok(None);
                        }
                        Some(b',') => self.bump(),
                        Some(b']') => {
                            self.bump();
                            self.state = if in_object {
                                State::InObject { value_next: false }
                            } else {
                                State::Top
                            };
                        }
                        Some(b'{' | b'[') => {
                            let mut buf = Vec::new();
                            let (end, too_large) = self.scan_value(&mut buf, Scan::FRESH)?;
                            return Ok(Some(self.finish(buf, start, end, too_large)));
                        }
                        Some(_) => match self.garbage_record(b",]")? {
                            Some(record) => return Ok(Some(record)),
                            // A lone newline inside a broken element list.
                            None => self.bump(),
                        },
                    }
                }
                State::InObject { value_next: true } => {
                    let (next, _) = self.skip_whitespace()?;
                    let start = self.position;
                    self.state = State::InObject { value_next: false };
                    match next {
                        None => {
                            self.state = State::Done;
                            return Ok(None);
                        }
                        Some(b'[') => {
                            self.bump();
                            self.state = State::InArray { in_object: true };
                        }
                        Some(b'{') => {
                            let mut buf = Vec::new();
                            let (end, too_large) = self.scan_value(&mut buf, Scan::FRESH)?;
                            return Ok(Some(self.finish(buf, start, end, too_large)));
                        }
                        Some(_) => {
                            if let Some(record) = self.garbage_record(b",}")? {
                                return Ok(Some(record));
                            }
                        }
                    }
                }
                State::InObject { value_next: false } => {
                    let (next, _) = self.skip_whitespace()?;
                    match next {
                        None => {
                            self.state = State::Done;
                            return Ok(None);
                        }
                        Some(b',') => self.bump(),
                        Some(b'}') => {
                            self.bump();
                            self.state = State::Top;
                        }
                        Some(b'"') => {
                            self.skip_string()?;
                            if self.skip_whitespace()?.0 == Some(b':') {
                                self.bump();
                                self.state = State::InObject { value_next: true };
                            } else if let Some(record) = self.garbage_record(b",}")? {
                                return Ok(Some(record));
                            }
                        }
                        Some(_) => match self.garbage_record(b",}")? {
                            Some(record) => return Ok(Some(record)),
                            None => self.bump(),
                        },
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

    /// (text, line or byte offset, problem code) of each record.
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

    /// (text, byte offset, problem code) of each record, read with `limit`.
    fn split_at(input: &str, limit: usize) -> (Split, Shape) {
        let mut reader = RecordReader::new(input.as_bytes(), limit);
        let records = reader
            .by_ref()
            .map(|r| {
                let r = r.unwrap();
                let text = String::from_utf8(r.bytes).unwrap();
                (text, r.position.byte, r.problem.map(|p| p.code()))
            })
            .collect();
        (records, reader.shape())
    }

    #[test]
    fn object_of_arrays_yields_each_element() {
        // Category keys, an empty category, a non-array value, a broken
        // element between good ones, and a string holding brackets.
        let input = concat!(
            "{\"notes\": [{\"id\":1}, {\"a\":\"],}\"}],\n",
            " \"empty\": [],\n",
            " \"stats\": {\"kind\": 5},\n",
            " \"count\": 3,\n",
            " \"zaps\": [{\"b\":\"cut\n",
            "{\"c\":2}, oops, [\"EVENT\",{}]]}\n",
            "{\"d\":4}\n"
        );
        let (r, shape) = split_at(input, 1000);
        assert_eq!(shape, Shape::ObjectOfArrays);
        let at = |needle: &str| input.find(needle).unwrap() as u64;
        assert_eq!(
            r,
            vec![
                ("{\"id\":1}".into(), 11, None),
                ("{\"a\":\"],}\"}".into(), at("{\"a\""), None),
                ("{\"kind\": 5}".into(), at("{\"kind"), None),
                ("3".into(), at("3,"), None),
                (
                    "{\"b\":\"cut\n".into(),
                    at("{\"b\""),
                    Some("malformed-json")
                ),
                ("{\"c\":2}".into(), at("{\"c\""), None),
                ("oops".into(), at("oops"), None),
                ("[\"EVENT\",{}]".into(), at("[\"EVENT"), None),
                ("{\"d\":4}".into(), at("{\"d\""), None),
            ]
        );
    }

    #[test]
    fn object_of_events_yields_each_value() {
        let input = concat!(
            "{\"naddr1a\":{\"kind\":1,\"tags\":[[\"t\",\"{\"]]},",
            "\"naddr1b\":{\"id\":\"cut\n",
            "\"naddr1c\" : {\"id\":\"z\"},\"naddr1d\":{\"id\":"
        );
        let (r, shape) = split_at(input, 1000);
        assert_eq!(shape, Shape::ObjectOfEvents);
        let at = |needle: &str| input.find(needle).unwrap() as u64;
        assert_eq!(
            r,
            vec![
                ("{\"kind\":1,\"tags\":[[\"t\",\"{\"]]}".into(), 11, None),
                (
                    "{\"id\":\"cut\n".into(),
                    at("{\"id\":\"cut"),
                    Some("malformed-json")
                ),
                ("{\"id\":\"z\"}".into(), at("{\"id\":\"z"), None),
                (
                    "{\"id\":".into(),
                    input.rfind('{').unwrap() as u64,
                    Some("malformed-json")
                ),
            ]
        );
    }

    #[test]
    fn objects_keyed_by_event_fields_are_records() {
        // A pretty event whose first key is a NIP-01 field with an array
        // value stays one document; so does a compact one on its line.
        let pretty = "{\n  \"tags\": [\n    [\"p\", \"x\"]\n  ],\n  \"kind\": 3\n}\n";
        let (r, shape) = split_at(pretty, 1000);
        assert_eq!(shape, Shape::Document);
        assert_eq!(r, vec![(pretty.trim_end().into(), 0, None)]);
        let (r, shape) = split_at("{\"kind\":{\"a\":1}}\n{\"b\":[1]}", 1000);
        assert_eq!(shape, Shape::Jsonl);
        assert_eq!(r[0], ("{\"kind\":{\"a\":1}}".into(), 0, None));
        // A scalar first value: a record, not a container.
        assert_eq!(r.len(), 2);
        let (r, shape) = split_at("{\"a\":1,\"b\":[{}]}", 1000);
        assert_eq!((r.len(), shape), (1, Shape::Jsonl));
        // A first key longer than the look-ahead: a record.
        let long = format!("{{\"{}\":[1]}}", "k".repeat(FIRST_KEY_PEEK + 10));
        let (r, shape) = split_at(&long, 4000);
        assert_eq!((r.len(), shape), (1, Shape::Jsonl));
        assert_eq!((r[0].0.as_str(), r[0].2), (long.as_str(), None));
    }

    #[test]
    fn oversized_documents_and_elements_are_skipped_with_offsets() {
        let big = "x".repeat(5000);
        let doc = format!("{{\n  \"kind\": 30000,\n  \"content\": \"{big}\"\n}}\n{{\"b\":1}}\n");
        let (r, shape) = split_at(&doc, 1000);
        assert_eq!(shape, Shape::Document);
        assert_eq!(r.len(), 2);
        assert_eq!(
            (r[0].0.as_str(), r[0].1, r[0].2),
            ("", 0, Some("limit-exceeded"))
        );
        assert_eq!(
            r[1],
            ("{\"b\":1}".into(), doc.find("{\"b").unwrap() as u64, None)
        );
        let obj = format!("{{\"k\":[{{\"a\":1}},{{\"c\":\"{big}\"}},{{\"d\":2}}]}}");
        let (r, _) = split_at(&obj, 1000);
        let got: Vec<_> = r.iter().map(|x| (x.1, x.2)).collect();
        assert_eq!(
            got,
            vec![
                (6, None),
                (14, Some("limit-exceeded")),
                (obj.find("{\"d").unwrap() as u64, None)
            ]
        );
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

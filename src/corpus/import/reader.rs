//! The splitter: cuts a byte stream into raw records by tracking brackets
//! and strings, detecting the file's shape as it goes.

use std::io::{self, BufRead};

use super::{Position, RawRecord, Shape};
use crate::validate::ValidationError;

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
pub(super) const FIRST_KEY_PEEK: usize = 1024;

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

/// Splits a stream into [`RawRecord`]s; see the [`import`](super) module docs.
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

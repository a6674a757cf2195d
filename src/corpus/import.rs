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

mod reader;

pub use reader::RecordReader;

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

#[cfg(test)]
mod tests {
    use super::reader::FIRST_KEY_PEEK;
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

//! The canonical JSON form of `manifest.json`.
//!
//! - Object members sorted by key, comparing the keys' UTF-8 bytes; no
//!   duplicate keys.
//! - No whitespace outside strings; no trailing newline.
//! - Strings: `"` and `\` are escaped as `\"` and `\\`; U+0008, U+0009,
//!   U+000A, U+000C and U+000D as `\b`, `\t`, `\n`, `\f`, `\r`; the other
//!   control characters below U+0020 as `\u00xx` (lowercase hex). Everything
//!   else, including `/`, U+007F and non-ASCII, is written verbatim as UTF-8.
//! - Numbers: integers only, in shortest decimal form (no `+`, no leading
//!   zeros, no exponent, no fraction), within the range of `i64`/`u64`.
//! - `true`, `false` and `null` as themselves.
//!
//! For the manifest's ASCII keys and integers below 2^53 this coincides with
//! RFC 8785 (JCS); it differs only in allowing exact 64-bit integers.

use serde_json::Value;

/// Why a value has no canonical form.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no canonical form: {0}")]
pub struct NotCanonical(String);

/// Writes `value` in canonical form.
pub fn to_vec(value: &Value) -> Result<Vec<u8>, NotCanonical> {
    let mut out = Vec::new();
    write(value, &mut out)?;
    Ok(out)
}

fn write(value: &Value, out: &mut Vec<u8>) -> Result<(), NotCanonical> {
    match value {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        Value::Number(n) => {
            let text = if let Some(u) = n.as_u64() {
                u.to_string()
            } else if let Some(i) = n.as_i64() {
                i.to_string()
            } else {
                return Err(NotCanonical(format!("non-integer number {n}")));
            };
            out.extend_from_slice(text.as_bytes());
        }
        Value::String(s) => write_string(s, out),
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write(item, out)?;
            }
            out.push(b']');
        }
        Value::Object(map) => {
            let mut members: Vec<(&String, &Value)> = map.iter().collect();
            members.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            out.push(b'{');
            for (i, (key, item)) in members.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_string(key, out);
                out.push(b':');
                write(item, out)?;
            }
            out.push(b'}');
        }
    }
    Ok(())
}

fn write_string(s: &str, out: &mut Vec<u8>) {
    out.push(b'"');
    for c in s.chars() {
        match c {
            '"' => out.extend_from_slice(b"\\\""),
            '\\' => out.extend_from_slice(b"\\\\"),
            '\u{8}' => out.extend_from_slice(b"\\b"),
            '\t' => out.extend_from_slice(b"\\t"),
            '\n' => out.extend_from_slice(b"\\n"),
            '\u{c}' => out.extend_from_slice(b"\\f"),
            '\r' => out.extend_from_slice(b"\\r"),
            c if u32::from(c) < 0x20 => {
                out.extend_from_slice(format!("\\u{:04x}", u32::from(c)).as_bytes());
            }
            c => {
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
        }
    }
    out.push(b'"');
}

/// Why `bytes` are not a canonical manifest.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// Not JSON at all.
    #[error("not valid JSON: {0} (line {line}, column {column})", line = .0.line(), column = .0.column())]
    NotJson(serde_json::Error),
    /// JSON with no canonical form (a float, say).
    #[error(transparent)]
    NoForm(#[from] NotCanonical),
    /// JSON whose canonical form differs from `bytes`.
    #[error(
        "not in canonical form: first difference at byte {at} ({canonical} canonical bytes, {found} in the file)"
    )]
    Differs {
        /// Offset of the first differing byte.
        at: usize,
        /// Length of the canonical form.
        canonical: usize,
        /// Length of `bytes`.
        found: usize,
    },
}

/// Checks that `bytes` are the canonical form of the JSON they hold; on
/// failure says where (the first differing byte) or why.
pub fn check(bytes: &[u8]) -> Result<Value, CheckError> {
    let value: Value = serde_json::from_slice(bytes).map_err(CheckError::NotJson)?;
    let canonical = to_vec(&value)?;
    if canonical != bytes {
        let at = canonical
            .iter()
            .zip(bytes)
            .position(|(a, b)| a != b)
            .unwrap_or(canonical.len().min(bytes.len()));
        return Err(CheckError::Differs {
            at,
            canonical: canonical.len(),
            found: bytes.len(),
        });
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn exact_bytes() {
        let v = json!({"b": [1, -2, true, null], "a": "x\"\\\n\t\u{1}\u{7f}/é", "B": {}});
        assert_eq!(
            String::from_utf8(to_vec(&v).unwrap()).unwrap(),
            "{\"B\":{},\"a\":\"x\\\"\\\\\\n\\t\\u0001\u{7f}/é\",\"b\":[1,-2,true,null]}"
        );
        let big = json!({"n": u64::MAX});
        assert_eq!(to_vec(&big).unwrap(), b"{\"n\":18446744073709551615}");
    }

    #[test]
    fn refuses_floats() {
        assert!(to_vec(&json!({"x": 1.5})).is_err());
    }

    #[test]
    fn check_finds_the_first_difference() {
        assert!(check(b"{\"a\":1,\"b\":2}").is_ok());
        let e = check(b"{\"b\":2,\"a\":1}").unwrap_err().to_string();
        assert!(e.contains("first difference at byte 2"), "{e}");
        let at = |bytes: &[u8]| match check(bytes) {
            Err(CheckError::Differs { at, .. }) => Some(at),
            _ => None,
        };
        assert_eq!(at(b"{\"a\": 1}"), Some(5));
        assert_eq!(at(b"{\"a\":1}\n"), Some(7));
        assert!(check(b"{\"a\":1,\"a\":2}").is_err());
        assert!(check(b"{\"a\":1.0}").is_err());
        assert!(check(b"{\"a\":\"\\u0041\"}").is_err());
        let e = check(b"{\"a\"").unwrap_err();
        assert!(matches!(e, CheckError::NotJson(_)));
        assert!(e.to_string().starts_with("not valid JSON"), "{e}");
    }
}

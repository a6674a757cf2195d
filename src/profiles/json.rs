//! `json`: NIP-01 JSON with serde_json, the baseline every other profile is
//! compared against.
//!
//! Layout: one compact JSON object, fields in NIP-01 order
//! `{"id","pubkey","created_at","kind","tags","content","sig"}`, no
//! whitespace, RFC 8259 string escaping (control characters as `\u00XX`).
//! Canonical form: exactly what [`Event::write_json`] writes, so decode then
//! encode reproduces canonical input byte for byte. Hex: id, pubkey and sig
//! are lowercase hex strings; decoding rejects any other hex. Decoding is
//! strict: unknown or duplicate fields are errors.
//!
//! Lenient where JSON is: the decoder accepts any RFC 8259 spelling of the
//! event, so insignificant whitespace (spaces, `\r`, `\n`, tabs between
//! tokens) and escapes that need not be escapes (`\u0021` for `!`, `\/`)
//! decode to the same event and re-encode canonically. Relays and clients
//! write such JSON, and NIP-01 ids are computed over a re-serialisation, not
//! the received bytes, so refusing it would refuse valid events. The
//! robustness report counts these `accepted-noncanonical`; the value never
//! changes.

use crate::codec::hostile::{HostileInputs, Nest, repeat, replace_first};
use crate::codec::{
    Capabilities, Codec, DecodeError, DecodeErrorKind, EncodeError, Family, Limit, Limits, Profile,
};
use crate::model::Event;
use crate::validate::{ValidationError, parse_event_json_at};

/// The registry entry.
pub const PROFILE: Profile = Profile {
    id: "json",
    family: Family::NostrBaseline,
    capabilities: Capabilities {
        deterministic: true,
        self_describing: true,
    },
    enabled: true,
    codec: &Json,
    packs: &[],
    evolution: &evolution::ADAPTER,
    maintenance: crate::codec::Maintenance {
        sources: &[file!()],
        shared: &["src/validate/json.rs"],
        schema: crate::codec::Schema::None,
        crates: &["serde", "serde_json"],
        spec: crate::codec::maintenance::JSON,
    },
};

/// serde_json, NIP-01 field order.
pub struct Json;

impl Codec for Json {
    fn hostile(&self) -> Option<&dyn HostileInputs> {
        Some(self)
    }

    fn encode(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        event.write_json(out);
        Ok(())
    }

    fn decode(&self, bytes: &[u8], limits: &Limits) -> Result<Event, DecodeError> {
        parse_event_json_at(bytes, limits)
            .map_err(|(e, offset)| DecodeError::at(kind_of(&e), offset))
    }
}

/// The decode error kind for a structural JSON error.
pub fn kind_of(e: &ValidationError) -> DecodeErrorKind {
    match e {
        ValidationError::LimitExceeded { what, .. } => match Limit::named(what) {
            Some(limit) => DecodeErrorKind::LimitExceeded(limit),
            None => DecodeErrorKind::Invalid(e.code()),
        },
        ValidationError::MalformedJson(m) if m.contains("EOF") => DecodeErrorKind::Truncated,
        ValidationError::MalformedJson(m) if m.contains("unicode") || m.contains("UTF-8") => {
            DecodeErrorKind::BadUtf8
        }
        ValidationError::MalformedJson(m) if m.contains("trailing") => {
            DecodeErrorKind::TrailingBytes
        }
        other => DecodeErrorKind::Invalid(other.code()),
    }
}

/// The conformance checks shared by `json`, `json-sonic` and `json-simd`,
/// which share one byte layout and one set of field rules.
/// Hostile inputs. JSON (RFC 8259).
impl HostileInputs for Json {
    fn format(&self) -> &'static str {
        "json"
    }

    fn nesting_bomb(&self, shape: Nest, depth: usize, out: &mut Vec<u8>) {
        let (open, close): (&[u8], &[u8]) = match shape {
            Nest::Array => (b"[", b"]"),
            Nest::Map => (br#"{"a":"#, b"}"),
        };
        repeat(out, open, depth);
        out.push(b'0');
        repeat(out, close, depth);
    }

    fn length_bombs(&self) -> Vec<(&'static str, Vec<u8>)> {
        vec![
            ("kind-2^64", br#"{"kind":18446744073709551616}"#.to_vec()),
            (
                "created-at-exponent-2^32-1",
                br#"{"created_at":1e4294967295}"#.to_vec(),
            ),
            (
                "digits-4096",
                [&br#"{"kind":"#[..], &[b'9'; 4096], b"}"].concat(),
            ),
        ]
    }

    fn variants(&self, golden: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
        let mut v = Vec::new();
        let mut push = |name, bytes: Option<Vec<u8>>| {
            if let Some(b) = bytes {
                v.push((name, b));
            }
        };
        push(
            "duplicate-kind",
            replace_first(golden, br#""kind":"#, br#""kind":7,"kind":"#),
        );
        push(
            "unknown-field",
            replace_first(golden, br#""kind":"#, br#""x":null,"kind":"#),
        );
        push(
            "whitespace",
            replace_first(golden, br#""kind":"#, br#" "kind" : "#),
        );
        push(
            "escaped-letter",
            replace_first(golden, br#""content":"g"#, br#""content":"\u0067"#),
        );
        push(
            "leading-zero",
            replace_first(golden, br#""kind":"#, br#""kind":0"#),
        );
        v
    }
}

#[cfg(test)]
pub(crate) mod shared_tests {
    use super::*;
    use crate::profiles::test_support::{self as support, golden_event};

    /// The golden event's exact bytes, written out by hand from the layout.
    pub const GOLDEN: &str = concat!(
        r#"{"id":"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f","#,
        r#""pubkey":"2222222222222222222222222222222222222222222222222222222222222222","#,
        r#""created_at":1700000000,"kind":1,"#,
        r#""tags":[["e","abababababababababababababababababababababababababababababababab","#,
        r#""wss://relay.example","root"],"#,
        r#"["p","cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd"],"#,
        r#"["t","ABCDEF","abc","","00"],[]],"#,
        r#""content":"gm 🌅 \"quoted\"\n\t日本語 עברית \u0001","#,
        r#""sig":"fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0efeeedecebeae9e8e7e6e5e4e3e2e1e0"#,
        r#"dfdedddcdbdad9d8d7d6d5d4d3d2d1d0cfcecdcccbcac9c8c7c6c5c4c3c2c1c0"}"#,
    );

    /// The golden's `t` tag and content, as [`GOLDEN`] writes them.
    const T_TAG: &str = r#"["t","ABCDEF","abc","","00"]"#;
    const CONTENT: &str = r#""gm 🌅 \"quoted\"\n\t日本語 עברית \u0001""#;

    /// Runs every shared check on `codec`; returns (encoded bytes, json bytes)
    /// for the 300 generated events. `precise` backends also name truncation
    /// and trailing bytes as such (simd-json reports both as a bare syntax
    /// error) and report integers beyond u64 as out of range; json-simd, the
    /// one imprecise backend, refuses nesting past `max_depth` in a pre-scan
    /// before its parser runs, so it reports over-deep input as a limit.
    pub fn check(codec: &dyn Codec, precise: bool) -> (usize, usize) {
        let limits = Limits::default();
        let mut out = Vec::new();
        codec.encode(&golden_event(), &mut out).unwrap();
        assert_eq!(String::from_utf8(out.clone()).unwrap(), GOLDEN);
        assert_eq!(
            codec.decode(GOLDEN.as_bytes(), &limits).unwrap(),
            golden_event()
        );

        let (refused, total, json) = support::round_trip_generated(codec, true);
        assert_eq!(refused, 0);
        assert_eq!(total, json, "same layout as json");
        let mut ours = Vec::new();
        let mut baseline = Vec::new();
        for e in crate::corpus::generate::generate(7, 300) {
            ours.clear();
            baseline.clear();
            codec.encode(&e, &mut ours).unwrap();
            e.write_json(&mut baseline);
            assert_eq!(ours, baseline, "byte-identical to json");
        }
        let all_chars: String = (0u32..0x250)
            .chain([0x2028, 0x2029, 0xfeff, 0x1f305])
            .filter_map(char::from_u32)
            .collect();
        let mut odd = golden_event();
        odd.content = all_chars.clone();
        odd.tags.push(vec![all_chars, "/".into(), String::new()]);
        ours.clear();
        baseline.clear();
        codec.encode(&odd, &mut ours).unwrap();
        odd.write_json(&mut baseline);
        assert_eq!(ours, baseline, "escaping identical to serde_json");
        assert_eq!(codec.decode(&ours, &limits).unwrap(), odd);

        let golden = GOLDEN.as_bytes();
        for n in 0..golden.len() {
            assert!(codec.decode(&golden[..n], &limits).is_err(), "prefix {n}");
        }
        let mut longer = golden.to_vec();
        longer.push(b'x');
        let err = codec.decode(&longer, &limits).unwrap_err();
        if precise {
            assert_eq!(err.kind, DecodeErrorKind::TrailingBytes, "{err}");
            assert_eq!(err.offset, golden.len(), "{err}");
        }
        let mut spaced = golden.to_vec();
        spaced.extend_from_slice(b" \n");
        assert!(codec.decode(&spaced, &limits).is_ok(), "JSON whitespace");

        support::limits_enforced(codec, golden_event());
        strict_rules(codec, precise);
        (total, json)
    }

    fn code(codec: &dyn Codec, json: &str) -> DecodeErrorKind {
        codec
            .decode(json.as_bytes(), &Limits::default())
            .map(|e| panic!("accepted {json}: {e:?}"))
            .unwrap_err()
            .kind
    }

    /// Every backend reports the same typed error for the same broken input.
    fn strict_rules(codec: &dyn Codec, precise: bool) {
        use DecodeErrorKind::*;
        let g = GOLDEN;
        let too_deep = |want| {
            if precise {
                want
            } else {
                LimitExceeded(Limit::Depth)
            }
        };
        let cases: &[(String, DecodeErrorKind)] = &[
            (g.replace(r#""kind":1,"#, ""), Invalid("missing-field")),
            (
                g.replace(r#""kind":1"#, r#""kind":"1""#),
                Invalid("wrong-type"),
            ),
            (
                g.replace(r#""kind":1"#, r#""kind":65536"#),
                Invalid("out-of-range"),
            ),
            (
                g.replace(r#""kind":1"#, r#""kind":-1"#),
                Invalid("out-of-range"),
            ),
            (
                g.replace(r#""kind":1"#, r#""kind":1.5"#),
                Invalid("wrong-type"),
            ),
            (
                g.replace(r#""kind":1"#, r#""kind":1.0"#),
                Invalid("out-of-range"),
            ),
            (
                g.replace(r#""kind":1"#, r#""kind":null"#),
                Invalid("wrong-type"),
            ),
            (
                g.replace(r#""kind":1,"#, r#""kind":1,"kind":2,"#),
                Invalid("duplicate-field"),
            ),
            (
                g.replace(r#""content""#, r#""extra":0,"content""#),
                Invalid("unknown-field"),
            ),
            (g.replace(r#""id":"0"#, r#""id":"A"#), Invalid("bad-hex")),
            (g.replace(r#""id":"0"#, r#""id":""#), Invalid("bad-hex")),
            (g.replace(r#""id":"0"#, r#""id":"00"#), Invalid("bad-hex")),
            (g.replace(r#""ABCDEF""#, "1"), Invalid("wrong-type")),
            (g.replace(T_TAG, r#""t""#), Invalid("wrong-type")),
            (
                g.replace(T_TAG, r#"[["t"]]"#),
                too_deep(Invalid("wrong-type")),
            ),
            (g.replace(CONTENT, r#"["gm"]"#), Invalid("wrong-type")),
            (format!("[{g}]"), too_deep(Invalid("not-an-event"))),
            ("\"x\"".into(), Invalid("not-an-event")),
        ];
        for (json, want) in cases {
            assert_eq!(code(codec, json), *want, "{json}");
        }
        let big = g.replace(
            r#""created_at":1700000000"#,
            r#""created_at":18446744073709551616"#,
        );
        let want = if precise {
            Invalid("out-of-range")
        } else {
            Invalid("malformed-json")
        };
        assert_eq!(code(codec, &big), want);
        let bad_utf8 = g.replace("ABCDEF", "ABC\u{1}DEF");
        let mut bytes = bad_utf8.into_bytes();
        let at = bytes.iter().position(|&b| b == 1).unwrap();
        bytes[at] = 0xff;
        let err = codec.decode(&bytes, &Limits::default()).unwrap_err();
        assert_eq!(err.kind, BadUtf8, "{err}");
        // A huge declared-looking number or string costs nothing up front.
        let err = codec
            .decode(br#"{"tags":[["99999999999999999999"#, &Limits::default())
            .unwrap_err();
        if precise {
            assert_eq!(err.kind, Truncated, "{err}");
        }
    }

    #[test]
    fn json_profile() {
        let (total, json) = check(&Json, true);
        eprintln!("json: {total} bytes vs json {json}");
    }

    #[test]
    fn bombs_have_the_exact_bytes() {
        use crate::codec::hostile::bomb;
        assert_eq!(bomb(&Json, Nest::Array, 3), b"[[[0]]]");
        assert_eq!(bomb(&Json, Nest::Map, 2), br#"{"a":{"a":0}}"#);
    }
}

pub(crate) mod evolution;

//! Interop vectors: a fixed set of real signed events, each with its
//! compact NIP-01 JSON and its bytes under every enabled profile, written as
//! `vectors/interop-v1.json` for the Python, JS and Go verifiers.
//!
//! The events are built here, not drawn from the corpus generator, so the
//! file changes only when a vector, a profile's bytes or the crate version
//! changes. Keys come from [`generate::derive_keypair`] with a fixed key and
//! signatures from [`crate::validate::sign`] with auxiliary randomness derived
//! from the vector's name, so every run writes identical bytes.
//!
//! File layout (schema 1): `{"schema", "generator", "profiles": [{"id",
//! "deterministic"}], "vectors": [{"name", "note", "event", "json",
//! "encodings": {profile: hex | null}, "unrepresentable"?: {profile:
//! reason}}]}`, pretty-printed with keys in that order, profiles in registry
//! order, and a trailing newline. `deterministic` is the registry's
//! [`Capabilities::deterministic`](crate::codec::Capabilities): an
//! independent encoder that follows the module's documented layout must
//! reproduce the bytes.

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use sha2::{Digest, Sha256};

use crate::codec::{EncodeError, Profile};
use crate::corpus::generate;
use crate::model::{Event, hex};

/// Version of the file layout.
pub const SCHEMA: u32 = 1;

/// One named event and what it covers.
#[derive(Clone, Debug)]
pub struct Vector {
    /// Stable kebab-case name.
    pub name: &'static str,
    /// What the vector covers.
    pub note: &'static str,
    /// The signed event.
    pub event: Event,
}

fn sha256(data: &[u8]) -> [u8; 32] {
    Sha256::digest(data).into()
}

/// Signs an event by author `author` (an index into the fixed key set).
fn signed(
    name: &'static str,
    note: &'static str,
    author: u32,
    (kind, created_at): (u16, u64),
    tags: Vec<Vec<String>>,
    content: String,
) -> Vector {
    let event = generate::signed_by_name(
        b"binostr/vectors/v1",
        author,
        name,
        (kind, created_at),
        tags,
        content,
    );
    Vector { name, note, event }
}

fn tag(values: &[&str]) -> Vec<String> {
    values.iter().map(|v| (*v).to_string()).collect()
}

/// Lowercase hex of SHA-256 of `label ‖ i`: a stand-in 32-byte id or key.
fn ref_hex(label: &str, i: u32) -> String {
    let mut m = label.as_bytes().to_vec();
    m.extend_from_slice(&i.to_le_bytes());
    hex::encode(&sha256(&m))
}

/// The vectors, in file order.
pub fn vectors() -> Vec<Vector> {
    const T: u64 = 1_722_470_400; // 2024-08-01T00:00:00Z
    let note_id = ref_hex("note", 1);
    let pk = ref_hex("pubkey", 1);
    let follows = (0..2_000u32)
        .map(|i| {
            let mut t = vec!["p".to_string(), ref_hex("follow", i)];
            if i % 50 == 0 {
                t.push("wss://relay.damus.io".into());
            }
            if i % 100 == 0 {
                t.push(format!("friend{i}"));
            }
            t
        })
        .collect();
    let upper = ref_hex("upper", 0).to_uppercase();
    let mut mixed = ref_hex("mixed", 0);
    mixed.replace_range(0..4, "ABcd");
    let odd = ref_hex("odd", 0)[..63].to_string();
    vec![
        signed(
            "escapes-nip01",
            "the seven characters NIP-01 escapes (\\n \\\" \\\\ \\r \\t \\b \\f) in content and tag values",
            0,
            (1, T),
            vec![
                tag(&["t", "new\nline"]),
                tag(&["alt", "quote \" backslash \\ cr \r tab \t bs \u{8} ff \u{c}"]),
            ],
            "line one\nline two\r\n\"quoted\" back\\slash\ttab \u{8}backspace \u{c}formfeed".into(),
        ),
        signed(
            "control-characters",
            "raw U+0000, U+0001, U+001F and U+007F, which NIP-01 writes verbatim (JSON escapes them)",
            1,
            (1, T + 1),
            vec![tag(&["t", "nul\u{0}"]), tag(&["x", "\u{1}\u{1f}\u{7f}"])],
            "nul \u{0} soh \u{1} us \u{1f} del \u{7f} end".into(),
        ),
        signed(
            "line-separators",
            "U+2028 and U+2029, verbatim in NIP-01 and in JSON",
            2,
            (1, T + 2),
            vec![tag(&["subject", "a\u{2028}b\u{2029}c"])],
            "paragraph\u{2029}line\u{2028}end".into(),
        ),
        signed(
            "emoji-cjk",
            "4-byte UTF-8 (emoji, ZWJ sequences, skin tones), CJK, Hangul and right-to-left text",
            3,
            (1, T + 3),
            vec![
                tag(&["t", "日本語"]),
                tag(&["emoji", "soapbox", "https://example.com/emoji/soapbox.png"]),
                tag(&["t", "🤙"]),
            ],
            "gm 🌅🤙🏽 👨‍👩‍👧 日本語のテキスト 中文 한국어 עברית العربية".into(),
        ),
        signed(
            "empty-content-no-tags",
            "empty content and an empty tag list",
            4,
            (1, T + 4),
            vec![],
            String::new(),
        ),
        signed(
            "empty-tags-and-values",
            "an empty tag, a tag holding one empty value, and an empty value after a name",
            5,
            (1, T + 5),
            vec![vec![], tag(&[""]), tag(&["e", ""]), tag(&["t", "", ""])],
            "x".into(),
        ),
        signed(
            "follow-list-2000",
            "kind 3 with 2,000 p tags (some with relay hint and petname) and relay-map JSON content",
            6,
            (3, T + 6),
            follows,
            r#"{"wss://relay.damus.io":{"read":true,"write":true},"wss://nos.lol":{"read":true,"write":false}}"#
                .into(),
        ),
        signed(
            "metadata-kind0",
            "kind 0 with profile JSON (escaped newline and unicode inside the JSON string) as content",
            7,
            (0, T + 7),
            vec![],
            r#"{"name":"alice","about":"line one\nline two \u2028 ☕","picture":"https://example.com/a.png","nip05":"alice@example.com"}"#
                .into(),
        ),
        signed(
            "kind-65535",
            "the largest kind and a created_at past 2^32",
            8,
            (65_535, 4_294_967_296),
            vec![tag(&["d", "max"])],
            "kind 65535".into(),
        ),
        signed(
            "hex-looking-values",
            "tag values that look like hex: lowercase (packable), uppercase, mixed case, odd length, 0x-prefixed, short, single digit; hex content stays text",
            9,
            (1, T + 9),
            vec![
                tag(&["e", &note_id]),
                tag(&["p", &upper]),
                tag(&["e", &mixed]),
                tag(&["e", &odd]),
                tag(&["e", &format!("0x{}", &note_id[..62])]),
                tag(&["t", "00"]),
                tag(&["t", "abc"]),
                tag(&["t", "deadbeef", "DEADBEEF", "DeadBeef"]),
                tag(&["r", "0"]),
                tag(&["x", "0123456789abcdef0123456789abcdef"]),
            ],
            ref_hex("content", 0),
        ),
        signed(
            "note-reply",
            "an ordinary kind 1 reply with NIP-10 e/p tags, a URL and a hashtag",
            10,
            (1, T + 10),
            vec![
                tag(&["e", &note_id, "wss://relay.damus.io", "root"]),
                tag(&["p", &pk]),
                tag(&["t", "nostr"]),
            ],
            "Agreed, see https://github.com/nostr-protocol/nips/blob/master/01.md #nostr".into(),
        ),
        signed(
            "reaction-plus",
            "an ordinary kind 7 like",
            11,
            (7, T + 11),
            vec![tag(&["e", &note_id]), tag(&["p", &pk]), tag(&["k", "1"])],
            "+".into(),
        ),
        signed(
            "reaction-emoji",
            "a kind 7 reaction with an emoji",
            12,
            (7, T + 12),
            vec![tag(&["e", &note_id]), tag(&["p", &pk])],
            "🤙".into(),
        ),
        signed(
            "note-300-bytes",
            "a kind 1 note whose content needs a 2-byte length in most formats (300 bytes)",
            13,
            (1, T + 13),
            vec![tag(&["client", "binostr"])],
            "0123456789".repeat(30),
        ),
    ]
}

/// One profile's encoding of an event: lowercase hex, or why it refuses.
fn encode(p: &Profile, e: &Event) -> Result<String, EncodeError> {
    let mut out = Vec::new();
    p.codec.encode(e, &mut out).map(|()| hex::encode(&out))
}

/// The event as the file holds it (hex fields as NIP-01 strings).
#[derive(Serialize)]
struct EventJson<'a> {
    id: String,
    pubkey: String,
    created_at: u64,
    kind: u16,
    tags: &'a [Vec<String>],
    content: &'a str,
    sig: String,
}

/// Pairs serialised as a JSON object in the given order.
struct Ordered<V>(Vec<(&'static str, V)>);

impl<V: Serialize> Serialize for Ordered<V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

#[derive(Serialize)]
struct VectorJson<'a> {
    name: &'static str,
    note: &'static str,
    event: EventJson<'a>,
    json: String,
    encodings: Ordered<Option<String>>,
    #[serde(skip_serializing_if = "is_empty")]
    unrepresentable: Ordered<String>,
}

fn is_empty<V>(o: &Ordered<V>) -> bool {
    o.0.is_empty()
}

#[derive(Serialize)]
struct ProfileJson {
    id: &'static str,
    deterministic: bool,
}

#[derive(Serialize)]
struct File<'a> {
    schema: u32,
    generator: String,
    profiles: Vec<ProfileJson>,
    vectors: Vec<VectorJson<'a>>,
}

/// The complete file text for `vectors` over the enabled profiles.
pub fn render(vectors: &[Vector]) -> String {
    let profiles: Vec<&Profile> = crate::profiles::enabled().collect();
    let file = File {
        schema: SCHEMA,
        generator: format!("binostr {}", env!("CARGO_PKG_VERSION")),
        profiles: profiles
            .iter()
            .map(|p| ProfileJson {
                id: p.id,
                deterministic: p.capabilities.deterministic,
            })
            .collect(),
        vectors: vectors
            .iter()
            .map(|v| {
                let e = &v.event;
                let results: Vec<_> = profiles.iter().map(|p| (p.id, encode(p, e))).collect();
                VectorJson {
                    name: v.name,
                    note: v.note,
                    event: EventJson {
                        id: hex::encode(&e.id),
                        pubkey: hex::encode(&e.pubkey),
                        created_at: e.created_at,
                        kind: e.kind,
                        tags: &e.tags,
                        content: &e.content,
                        sig: hex::encode(&e.sig),
                    },
                    json: e.to_json(),
                    encodings: Ordered(
                        results
                            .iter()
                            .map(|(id, r)| (*id, r.as_ref().ok().cloned()))
                            .collect(),
                    ),
                    unrepresentable: Ordered(
                        results
                            .iter()
                            .filter_map(|(id, r)| {
                                r.as_ref().err().map(|why| (*id, why.to_string()))
                            })
                            .collect(),
                    ),
                }
            })
            .collect(),
    };
    serde_json::to_string_pretty(&file).expect("the vectors serialise") + "\n"
}

/// Where a file differs from the generated vectors.
#[derive(Debug, thiserror::Error)]
pub enum Drift {
    /// The file is not JSON.
    #[error("not JSON: {0}")]
    NotJson(#[from] serde_json::Error),
    /// A top-level field differs.
    #[error("field `{0}` differs")]
    Field(&'static str),
    /// Vector `index` differs in `what`.
    #[error("vector {index} ({name}): {what} differs")]
    Vector {
        /// Position in the file.
        index: usize,
        /// The generated vector's name.
        name: String,
        /// The differing field, e.g. `encodings.cbor-packed`.
        what: String,
    },
    /// Vector counts differ.
    #[error("{found} vectors in the file, {expected} generated")]
    Count {
        /// In the file.
        found: usize,
        /// Generated.
        expected: usize,
    },
    /// Same content, different text (indentation, key order or newline).
    #[error("same values, different formatting (regenerate with `binostr vectors -o FILE`)")]
    Formatting,
}

/// Compares `text` with `expected` (the output of [`render`]) and names the
/// first difference.
pub fn check(text: &str, expected: &str) -> Result<(), Drift> {
    if text == expected {
        return Ok(());
    }
    let found: serde_json::Value = serde_json::from_str(text)?;
    let want: serde_json::Value =
        serde_json::from_str(expected).expect("generated vectors are JSON");
    for field in ["schema", "generator", "profiles"] {
        if found.get(field) != want.get(field) {
            return Err(Drift::Field(field));
        }
    }
    let empty = Vec::new();
    let list = |v: &serde_json::Value| v["vectors"].as_array().unwrap_or(&empty).clone();
    let (found, want) = (list(&found), list(&want));
    for (index, (f, w)) in found.iter().zip(&want).enumerate() {
        let name = w["name"].as_str().unwrap_or_default().to_string();
        let differs = |what: String| Drift::Vector {
            index,
            name: name.clone(),
            what,
        };
        for field in ["name", "note", "event", "json"] {
            if f.get(field) != w.get(field) {
                return Err(differs(field.into()));
            }
        }
        for map in ["encodings", "unrepresentable"] {
            let (fm, wm) = (&f[map], &w[map]);
            if let Some(wo) = wm.as_object() {
                for (profile, value) in wo {
                    if fm.get(profile) != Some(value) {
                        return Err(differs(format!("{map}.{profile}")));
                    }
                }
            }
            if fm != wm {
                return Err(differs(map.into()));
            }
        }
    }
    if found.len() != want.len() {
        return Err(Drift::Count {
            found: found.len(),
            expected: want.len(),
        });
    }
    Err(Drift::Formatting)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique() {
        let v = vectors();
        let mut names: Vec<_> = v.iter().map(|v| v.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), v.len());
    }

    #[test]
    fn check_names_the_first_difference() {
        let v = vectors();
        let good = render(&v[..3]);
        assert!(check(&good, &good).is_ok());
        let cbor = encode(crate::profiles::find("cbor-packed").unwrap(), &v[1].event).unwrap();
        let bad = good.replacen(&cbor, &format!("{cbor}00"), 1);
        let err = check(&bad, &good).unwrap_err().to_string();
        assert_eq!(
            err,
            "vector 1 (control-characters): encodings.cbor-packed differs"
        );
        let reformatted = good.replace("\n", "\r\n");
        assert!(matches!(check(&reformatted, &good), Err(Drift::Formatting)));
    }
}

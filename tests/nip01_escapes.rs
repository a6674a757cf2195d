//! NIP-01 string escaping checked against events that independent Nostr
//! implementations signed.
//!
//! Each fixture line in `tests/data/escapes/*.jsonl` holds a signed event and
//! the exact string its implementation hashed. Where that string equals our
//! canonical serialisation, the event must verify. Where it differs, the only
//! allowed difference is that the implementation wrote a control character
//! outside NIP-01's seven escapes as `\u00XX`; such events fail our id check,
//! and the list of them is pinned per implementation. Regenerate with the
//! commands in `scripts/fixtures/README.md`.

use std::collections::BTreeSet;
use std::path::Path;

use binostr::Event;
use binostr::validate::{
    Limits, canonical_bytes, parse_event_json, verify_event, verify_signature,
};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// The seven characters NIP-01 escapes, with their escape sequences.
const ESCAPES: [(u8, &str); 7] = [
    (b'\n', "\\n"),
    (b'"', "\\\""),
    (b'\\', "\\\\"),
    (b'\r', "\\r"),
    (0x08, "\\b"),
    (b'\t', "\\t"),
    (0x0c, "\\f"),
];

/// Cases where nostr-tools (`JSON.stringify`) and go-nostr (`escapeString`)
/// write U+0000, U+0001 and U+001F as `\u00XX` instead of verbatim.
const CONTROL_CHARS_AS_UNICODE_ESCAPES: &[&str] = &[
    "ctrl-00-content",
    "ctrl-00-tag",
    "ctrl-01-content",
    "ctrl-01-tag",
    "ctrl-1f-content",
    "ctrl-1f-tag",
    "mix-content",
    "mix-tag",
];

/// Each fixture file, the implementation name its lines carry, and the cases
/// expected to diverge from our canonical serialisation.
const FIXTURES: &[(&str, &str, &[&str])] = &[
    (
        "nostr-tools.jsonl",
        "nostr-tools",
        CONTROL_CHARS_AS_UNICODE_ESCAPES,
    ),
    (
        "go-nostr.jsonl",
        "go-nostr",
        CONTROL_CHARS_AS_UNICODE_ESCAPES,
    ),
];

/// Where in an event a character appeared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Place {
    Content,
    Tag,
}

struct Fixture {
    case: String,
    implementation: String,
    serialized: String,
    event: Event,
}

fn read_fixtures(file: &str) -> Vec<Fixture> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/escapes")
        .join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            let at = format!("{file}:{}", i + 1);
            let value: Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{at}: bad json: {e}"));
            let field = |name: &str| {
                value[name]
                    .as_str()
                    .unwrap_or_else(|| panic!("{at}: missing string field `{name}`"))
                    .to_owned()
            };
            let event_json = serde_json::to_vec(&value["event"]).expect("re-encode event");
            let event = parse_event_json(&event_json, &Limits::default())
                .unwrap_or_else(|e| panic!("{at}: event does not parse: {e}"));
            Fixture {
                case: field("case"),
                implementation: field("implementation"),
                serialized: field("serialized"),
                event,
            }
        })
        .collect()
}

/// Our canonical bytes with every remaining control character written as a
/// lowercase `\u00XX` escape, the way `JSON.stringify` and go-nostr write it.
/// The seven NIP-01 escapes are already applied, so any byte below 0x20 left
/// in `canonical` is a raw control character inside a string literal.
fn with_unicode_escaped_controls(canonical: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(canonical.len());
    for &b in canonical {
        if b < 0x20 {
            out.extend_from_slice(format!("\\u{b:04x}").as_bytes());
        } else {
            out.push(b);
        }
    }
    out
}

fn escapes_present(event: &Event) -> BTreeSet<(u8, Place)> {
    let mut found = BTreeSet::new();
    for (c, _) in ESCAPES {
        if event.content.as_bytes().contains(&c) {
            found.insert((c, Place::Content));
        }
        if event
            .tags
            .iter()
            .flatten()
            .any(|v| v.as_bytes().contains(&c))
        {
            found.insert((c, Place::Tag));
        }
    }
    found
}

fn check_implementation(name: &str) {
    let &(file, _, expected_divergent) = FIXTURES
        .iter()
        .find(|(_, n, _)| *n == name)
        .unwrap_or_else(|| panic!("{name} is not in FIXTURES"));
    let fixtures = read_fixtures(file);
    assert!(!fixtures.is_empty(), "{file}: no fixtures");

    let mut divergent = BTreeSet::new();
    let mut covered = BTreeSet::new();
    for f in &fixtures {
        let at = format!("{file} {}", f.case);
        assert!(
            f.implementation.starts_with(&format!("{name}@")),
            "{at}: implementation {:?} is not {name}@<version>",
            f.implementation
        );
        let hashed: [u8; 32] = Sha256::digest(f.serialized.as_bytes()).into();
        assert_eq!(
            hashed, f.event.id,
            "{at}: id is not SHA-256 of `serialized`"
        );
        assert_eq!(
            verify_signature(&f.event),
            Ok(()),
            "{at}: the implementation's own signature does not verify"
        );

        let ours = canonical_bytes(&f.event);
        if ours == f.serialized.as_bytes() {
            assert_eq!(verify_event(&f.event), Ok(()), "{at}: does not verify");
            covered.extend(escapes_present(&f.event));
        } else {
            assert!(
                ours.iter().any(|&b| b < 0x20),
                "{at}: serialisations differ but ours has no raw control character\n ours:   {}\n theirs: {}",
                String::from_utf8_lossy(&ours),
                f.serialized
            );
            assert_eq!(
                String::from_utf8_lossy(&with_unicode_escaped_controls(&ours)),
                f.serialized,
                "{at}: serialisations differ by more than \\u00XX escapes of control characters"
            );
            assert_eq!(
                verify_event(&f.event).map_err(|e| e.code()),
                Err("id-mismatch"),
                "{at}"
            );
            divergent.insert(f.case.as_str());
        }
    }

    let expected: BTreeSet<&str> = expected_divergent.iter().copied().collect();
    assert_eq!(
        divergent, expected,
        "{file}: the cases where {name} diverges from NIP-01 changed"
    );

    for (c, escape) in ESCAPES {
        for place in [Place::Content, Place::Tag] {
            assert!(
                covered.contains(&(c, place)),
                "{file}: no verifying event covers {escape} in {place:?}"
            );
        }
    }
}

#[test]
fn nostr_tools_events() {
    check_implementation("nostr-tools");
}

#[test]
fn go_nostr_events() {
    check_implementation("go-nostr");
}

#[test]
fn every_fixture_file_is_checked() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/escapes");
    let on_disk: BTreeSet<String> = std::fs::read_dir(&dir)
        .expect("read fixture dir")
        .map(|e| {
            e.expect("dir entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(".jsonl"))
        .collect();
    let listed: BTreeSet<String> = FIXTURES.iter().map(|(f, _, _)| (*f).to_owned()).collect();
    assert_eq!(on_disk, listed);
}

//! The awkward but valid events (`binostr corpus valid`): the committed
//! fixture and refusal tables equal what the checkout generates, every
//! event of the fixture is signed and valid, and every refusal names a
//! reason (an accepted event decodes to itself, or `files` fails).

use std::fs;
use std::path::Path;

use binostr::codec::Limits;
use binostr::corpus::valid;
use binostr::profiles::PROFILES;
use binostr::validate::{parse_event_json, verify_event};

#[test]
fn committed_files_are_up_to_date() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = valid::files(PROFILES).unwrap_or_else(|e| panic!("{e}"));
    for (rel, text) in &files {
        let found = fs::read_to_string(root.join(rel)).unwrap_or_default();
        assert!(
            found == *text,
            "{rel} differs from what the checkout generates (regenerate with `just valid`)"
        );
    }
}

#[test]
fn every_fixture_event_verifies_and_every_refusal_has_a_reason() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = fs::read_to_string(root.join(valid::FIXTURE)).unwrap();
    let limits = Limits::default();
    let mut n = 0;
    for (i, line) in text.lines().enumerate() {
        let e = parse_event_json(line.as_bytes(), &limits)
            .unwrap_or_else(|err| panic!("line {}: {err}", i + 1));
        verify_event(&e).unwrap_or_else(|err| panic!("line {}: {err}", i + 1));
        n += 1;
    }
    let cases = valid::cases(PROFILES);
    assert_eq!(n, cases.len());
    let refused = valid::refusals(PROFILES, &cases).unwrap_or_else(|e| panic!("{e}"));
    assert!(refused.iter().all(|r| !r.reason.trim().is_empty()));
    // The profiles that read JSON text carry every valid event.
    for id in ["json", "json-sonic", "json-simd"] {
        assert!(
            !refused.iter().any(|r| r.profile == id),
            "{id} refuses a valid event"
        );
    }
}

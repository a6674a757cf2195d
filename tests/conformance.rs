//! One conformance suite, run for every registry entry: round trips of the
//! real and generated corpora, golden bytes, byte-identical re-encoding for
//! deterministic profiles, every truncation of the golden, and limits.
//!
//! Goldens live in `tests/golden/<profile>.hex`; regenerate them with
//! `BINOSTR_BLESS=1 cargo test --release --test conformance` and review the
//! diff (CI fails when code and goldens drift). Only the value `1` blesses,
//! and never under `CI=true`.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::OnceLock;

use binostr::Event;
use binostr::codec::{DecodeErrorKind, Limits, Profile};
use binostr::corpus::audit::{AuditOptions, Input, audit};
use binostr::corpus::source::{corpus_dir_or_skip, real_sources, resolve};
use binostr::model::hex;
use binostr::profiles::PROFILES;

const GENERATED: usize = 10_000;

fn generated() -> &'static [Event] {
    static EVENTS: OnceLock<Vec<Event>> = OnceLock::new();
    EVENTS.get_or_init(|| binostr::corpus::generate::generate(1, GENERATED))
}

/// The golden event: every tag-value class a profile must keep apart (shared
/// with the robustness suite, which mutates its encodings).
fn golden_event() -> Event {
    binostr::model::golden::golden_event()
}

fn encode(p: &Profile, e: &Event) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    p.codec.encode(e, &mut out).map_err(|e| e.to_string())?;
    Ok(out)
}

/// Round-trips `events`; returns how many the profile refused to encode.
fn round_trip(p: &Profile, events: &[Event], what: &str) -> usize {
    let limits = Limits::default();
    let mut refused = 0;
    let mut buf = Vec::new();
    for (i, e) in events.iter().enumerate() {
        buf.clear();
        if let Err(err) = p.codec.encode(e, &mut buf) {
            assert_eq!(err.profile, p.id);
            assert!(!err.reason.is_empty(), "{}: empty reason", p.id);
            refused += 1;
            continue;
        }
        let back = p
            .codec
            .decode(&buf, &limits)
            .unwrap_or_else(|err| panic!("{}: {what} event {i} does not decode: {err}", p.id));
        assert_eq!(
            &back, e,
            "{}: {what} event {i} changed in a round trip",
            p.id
        );
        if p.capabilities.deterministic {
            let again = encode(p, &back).unwrap();
            assert_eq!(
                again, buf,
                "{}: {what} event {i} re-encodes differently",
                p.id
            );
        }
        if let Some(view) = p.codec.borrowed() {
            let (kind, pubkey) = view.kind_and_pubkey(&buf, &limits).unwrap();
            assert_eq!(
                (kind, pubkey),
                (e.kind, e.pubkey),
                "{}: borrowed view",
                p.id
            );
            let r = view.decode_ref(&buf, &limits).unwrap();
            assert_eq!(&r.to_owned_event(), e, "{}: borrowed decode", p.id);
        }
    }
    refused
}

/// Events NSON cannot hold (src/profiles/nson.rs): a header over 255
/// bytes (most follow lists), a string over 65,535 bytes, or an empty tag
/// before a non-empty one. Its refusals are counted against these.
fn nson_cannot_hold(events: &[Event]) -> usize {
    events
        .iter()
        .filter(|e| {
            let header = 4 + e.tags.iter().map(|t| 1 + 2 * t.len()).sum::<usize>();
            let long =
                e.content.len() > 65_535 || e.tags.iter().flatten().any(|v| v.len() > 65_535);
            let empty_first = e
                .tags
                .iter()
                .position(Vec::is_empty)
                .is_some_and(|at| e.tags[at..].iter().any(|t| !t.is_empty()));
            header > 255 || long || empty_first
        })
        .count()
}

#[test]
fn generated_corpus_round_trips() {
    for p in PROFILES {
        let refused = round_trip(p, generated(), "generated");
        if p.id == "nson" {
            assert_eq!(refused, nson_cannot_hold(generated()), "nson refusals");
            continue;
        }
        eprintln!(
            "{}: {refused} of {GENERATED} generated events not representable",
            p.id
        );
        let bound = GENERATED / 100;
        assert!(refused < bound, "{}: refuses {refused} events", p.id);
    }
}

#[test]
fn real_corpus_round_trips() {
    let Some(dir) = corpus_dir_or_skip("real_corpus_round_trips") else {
        return;
    };
    let inputs: Vec<Input> = real_sources()
        .iter()
        .map(|s| Input::open(&resolve(s, &dir).unwrap()).unwrap())
        .collect();
    let mut events = Vec::new();
    audit(inputs, &AuditOptions::default(), |e| events.push(e)).unwrap();
    assert_eq!(events.len(), 8_740);
    for p in PROFILES {
        let refused = round_trip(p, &events, "real");
        eprintln!(
            "{}: {refused} of {} real events not representable",
            p.id,
            events.len()
        );
        // gonostr-binary's u16 lengths cannot hold one long-form article's
        // 124,438-byte content (dhalsim/nostr-static); it refuses it
        // explicitly. Every other profile carries every real event.
        let expected = match p.id {
            "gonostr-binary" => 1,
            "nson" => nson_cannot_hold(&events),
            _ => 0,
        };
        assert_eq!(refused, expected, "{}: real events refused", p.id);
    }
}

fn golden_path(p: &Profile) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(format!("{}.hex", p.id))
}

/// Whether to rewrite the goldens, from `BINOSTR_BLESS` and `CI`: only
/// `BINOSTR_BLESS=1` blesses; another value (`0`, empty) is a mistake, not a
/// "no", and CI checks the goldens, never rewrites them.
fn bless_mode(bless: Option<&str>, ci: Option<&str>) -> Result<bool, String> {
    match (bless, ci) {
        (None, _) => Ok(false),
        (Some("1"), Some("true")) => Err(
            "BINOSTR_BLESS=1 under CI=true: CI checks the goldens, it never rewrites them".into(),
        ),
        (Some("1"), _) => Ok(true),
        (Some(v), _) => Err(format!(
            "BINOSTR_BLESS must be 1 (rewrite the goldens) or unset, found {v:?}"
        )),
    }
}

#[test]
fn bless_needs_exactly_1_and_no_ci() {
    assert_eq!(bless_mode(None, None), Ok(false));
    assert_eq!(bless_mode(None, Some("true")), Ok(false));
    assert_eq!(bless_mode(Some("1"), None), Ok(true));
    assert_eq!(bless_mode(Some("1"), Some("false")), Ok(true));
    for v in ["0", "", "true", "yes", "11"] {
        let err = bless_mode(Some(v), None).unwrap_err();
        assert!(err.contains(&format!("found {v:?}")), "{err}");
    }
    assert!(bless_mode(Some("1"), Some("true")).is_err());
}

#[test]
fn goldens_match_exact_bytes() {
    let var = |k| std::env::var_os(k).map(|v| v.to_string_lossy().into_owned());
    let bless = bless_mode(var("BINOSTR_BLESS").as_deref(), var("CI").as_deref())
        .unwrap_or_else(|e| panic!("{e}"));
    for p in PROFILES {
        let Ok(bytes) = encode(p, &golden_event()) else {
            panic!("{}: the golden event must be representable", p.id);
        };
        let path = golden_path(p);
        let hex_now = hex::encode(&bytes) + "\n";
        if bless {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &hex_now).unwrap();
            continue;
        }
        let stored = std::fs::read_to_string(&path).unwrap_or_else(|_| {
            panic!(
                "{}: no golden at {}; run BINOSTR_BLESS=1 cargo test --test conformance",
                p.id,
                path.display()
            )
        });
        assert_eq!(
            stored, hex_now,
            "{}: encoding drifted from its golden",
            p.id
        );
    }
}

#[test]
fn every_truncation_of_the_golden_is_an_error() {
    let limits = Limits::default();
    for p in PROFILES {
        let bytes = encode(p, &golden_event()).unwrap();
        for cut in 0..bytes.len() {
            let result = catch_unwind(AssertUnwindSafe(|| p.codec.decode(&bytes[..cut], &limits)));
            match result {
                Ok(Err(_)) => {}
                Ok(Ok(_)) => panic!("{}: a {cut}-byte prefix decoded as an event", p.id),
                Err(_) => panic!("{}: panicked on a {cut}-byte prefix", p.id),
            }
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(
            p.codec.decode(&longer, &limits).is_err(),
            "{}: trailing byte accepted",
            p.id
        );
    }
}

#[test]
fn limits_are_enforced_while_decoding() {
    for p in PROFILES {
        let bytes = encode(p, &golden_event()).unwrap();
        let few_tags = Limits {
            max_tags: 3,
            ..Limits::default()
        };
        let err = p.codec.decode(&bytes, &few_tags).unwrap_err();
        assert!(
            matches!(err.kind, DecodeErrorKind::LimitExceeded(_)),
            "{}: {err}",
            p.id
        );
        let few_values = Limits {
            max_values_per_tag: 4,
            ..Limits::default()
        };
        let err = p.codec.decode(&bytes, &few_values).unwrap_err();
        assert!(
            matches!(err.kind, DecodeErrorKind::LimitExceeded(_)),
            "{}: {err}",
            p.id
        );
        let small = Limits {
            max_event_bytes: bytes.len() - 1,
            ..Limits::default()
        };
        let err = p.codec.decode(&bytes, &small).unwrap_err();
        assert!(
            matches!(err.kind, DecodeErrorKind::LimitExceeded(_)),
            "{}: {err}",
            p.id
        );
    }
}

#[test]
fn native_batches_round_trip_and_are_bounded() {
    let limits = Limits::default();
    let events = &generated()[..500];
    let mut tested = 0;
    for p in PROFILES {
        let Some(batch) = p.codec.batch() else {
            continue;
        };
        tested += 1;
        let representable: Vec<Event> = events
            .iter()
            .filter(|e| encode(p, e).is_ok())
            .cloned()
            .collect();
        let mut out = vec![0xaa];
        batch.encode_batch(&representable, &mut out).unwrap();
        assert_eq!(out[0], 0xaa, "{}: encode_batch appends", p.id);
        let back = batch.decode_batch(&out[1..], &limits).unwrap();
        assert_eq!(back, representable, "{}: batch round trip", p.id);
        for cut in [0, 1, 3, 4, out.len() / 2, out.len() - 2] {
            assert!(
                batch.decode_batch(&out[1..cut.max(1)], &limits).is_err(),
                "{}: {cut}",
                p.id
            );
        }
        // A count of 2^32-1 in a few bytes fails before anything is reserved.
        assert!(batch.decode_batch(&[0xff; 8], &limits).is_err(), "{}", p.id);
        let mut empty = Vec::new();
        batch.encode_batch(&[], &mut empty).unwrap();
        assert_eq!(batch.decode_batch(&empty, &limits).unwrap(), vec![]);
    }
    assert!(tested > 0, "no profile exposes a native batch");
}

/// The `stream` workload's reassembly on every registry profile: records
/// fed in 1460-byte (and odd-sized) chunks all decode, and a trailing partial
/// record stays buffered byte for byte.
#[test]
fn streams_keep_the_trailing_partial_record() {
    use binostr::bench::window::decode_stream;
    use binostr::codec::framing::{FRAME_HEADER, FrameStream, write_frame};
    let limits = Limits::default();
    let events = &generated()[..200];
    for p in PROFILES {
        let mut stream = Vec::new();
        let mut complete = 0;
        for e in events {
            if let Ok(r) = encode(p, e) {
                write_frame(&mut stream, &r).unwrap();
                complete += 1;
            }
        }
        let last = encode(p, &golden_event()).unwrap();
        let mut frame = Vec::new();
        write_frame(&mut frame, &last).unwrap();
        for cut in [
            1,
            FRAME_HEADER,
            FRAME_HEADER + last.len() / 2,
            frame.len() - 1,
        ] {
            let mut bytes = stream.clone();
            bytes.extend_from_slice(&frame[..cut]);
            let mut s = FrameStream::new(limits.max_event_bytes);
            decode_stream(&mut s, p.codec, &bytes, &limits, complete, cut);
            assert_eq!(s.remainder(), &frame[..cut], "{}: cut {cut}", p.id);
            s.push(&frame[cut..]);
            let (_, record) = s.next_record().unwrap().expect("now complete");
            assert_eq!(
                p.codec.decode(record, &limits).unwrap(),
                golden_event(),
                "{}",
                p.id
            );
            assert!(s.remainder().is_empty());
        }
    }
}

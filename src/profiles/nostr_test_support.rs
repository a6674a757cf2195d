//! Shared assertions for the Nostr-specific profile tests (test builds only).

use crate::codec::{Codec, DecodeErrorKind, Limits};
use crate::model::Event;

/// The hand-made golden event shared by the profile tests.
pub fn golden_event() -> Event {
    Event {
        id: [0x11; 32],
        pubkey: [0x22; 32],
        sig: [0x33; 64],
        created_at: 1_700_000_000,
        kind: 1,
        tags: vec![
            vec!["e".into(), "ab".repeat(32)],
            vec!["p".into(), "ABCDEF".into()],
            vec!["t".into(), "nostr".into()],
        ],
        content: "hi\n".into(),
    }
}

/// Hex of `bytes`, for readable failures.
pub fn hex(bytes: &[u8]) -> String {
    crate::model::hex::encode(bytes)
}

/// Bytes of a hex literal with optional whitespace.
pub fn unhex(s: &str) -> Vec<u8> {
    let clean: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    let mut out = Vec::new();
    assert!(
        crate::model::hex::decode_into(&clean, &mut out),
        "bad hex literal"
    );
    out
}

/// Round trip of the 300 generated events: every event round-trips exactly
/// or fails to encode. Checks decode→encode byte identity when
/// `deterministic`. Returns (not representable, encoded bytes, json bytes).
pub fn round_trip_generated(codec: &dyn Codec, deterministic: bool) -> (usize, usize, usize) {
    let events = crate::corpus::generate::generate(1, 300);
    let limits = Limits::default();
    let (mut refused, mut total, mut json) = (0, 0, 0);
    let mut buf = Vec::new();
    let mut again = Vec::new();
    for (i, e) in events.iter().enumerate() {
        json += e.to_json().len();
        buf.clear();
        buf.extend_from_slice(b"prefix");
        if let Err(err) = codec.encode(e, &mut buf) {
            eprintln!("event {i} (kind {}): {err}", e.kind);
            assert_eq!(
                buf, b"prefix",
                "event {i}: failed encode must not leave bytes"
            );
            refused += 1;
            continue;
        }
        assert!(buf.starts_with(b"prefix"), "encode must append");
        let bytes = &buf[6..];
        total += bytes.len();
        let back = codec
            .decode(bytes, &limits)
            .unwrap_or_else(|err| panic!("event {i} (kind {}): {err}", e.kind));
        assert_eq!(&back, e, "event {i}");
        if let Some(b) = codec.borrowed() {
            assert_eq!(b.decode_ref(bytes, &limits).unwrap().to_owned_event(), *e);
            assert_eq!(
                b.kind_and_pubkey(bytes, &limits).unwrap(),
                (e.kind, e.pubkey)
            );
        }
        if deterministic {
            again.clear();
            codec.encode(&back, &mut again).unwrap();
            assert_eq!(again, bytes, "event {i}: decode→encode changed bytes");
        }
    }
    (refused, total, json)
}

/// Every strict prefix fails; one extra byte fails.
pub fn truncations_fail(codec: &dyn Codec, golden: &[u8]) {
    let limits = Limits::default();
    for n in 0..golden.len() {
        assert!(codec.decode(&golden[..n], &limits).is_err(), "prefix {n}");
        if let Some(b) = codec.borrowed() {
            assert!(
                b.decode_ref(&golden[..n], &limits).is_err(),
                "ref prefix {n}"
            );
        }
    }
    let mut longer = golden.to_vec();
    longer.push(0);
    let err = codec.decode(&longer, &limits).unwrap_err();
    assert_eq!(err.kind, DecodeErrorKind::TrailingBytes, "{err}");
    assert_eq!(err.offset, golden.len());
}

/// The first two tags of `e` (with a 64-byte value) fail under `max_tags: 1`, and a tiny event-size limit fails.
pub fn limits_enforced(codec: &dyn Codec, mut e: Event) {
    e.tags.truncate(2);
    let mut bytes = Vec::new();
    codec.encode(&e, &mut bytes).unwrap();
    let tight = Limits {
        max_tags: 1,
        ..Limits::default()
    };
    let err = codec.decode(&bytes, &tight).unwrap_err();
    assert_eq!(err.kind, DecodeErrorKind::LimitExceeded("tags"), "{err}");
    let small = Limits {
        max_event_bytes: bytes.len() - 1,
        ..Limits::default()
    };
    let err = codec.decode(&bytes, &small).unwrap_err();
    assert_eq!(
        err.kind,
        DecodeErrorKind::LimitExceeded("event bytes"),
        "{err}"
    );
    let values = Limits {
        max_values_per_tag: 1,
        ..Limits::default()
    };
    let err = codec.decode(&bytes, &values).unwrap_err();
    assert_eq!(
        err.kind,
        DecodeErrorKind::LimitExceeded("values per tag"),
        "{err}"
    );
    let value_bytes = Limits {
        max_value_bytes: 63,
        ..Limits::default()
    };
    let err = codec.decode(&bytes, &value_bytes).unwrap_err();
    assert_eq!(
        err.kind,
        DecodeErrorKind::LimitExceeded("tag value bytes"),
        "{err}"
    );
}

/// The decode error kind is `Truncated` or a `LimitExceeded`.
pub fn is_bounded_failure(kind: DecodeErrorKind) -> bool {
    matches!(
        kind,
        DecodeErrorKind::Truncated | DecodeErrorKind::LimitExceeded(_)
    )
}

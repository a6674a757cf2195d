//! The golden event and the checks every profile's unit tests share (test
//! builds only).

use crate::codec::{Codec, DecodeErrorKind, Limit, Limits};
use crate::model::Event;

pub use crate::model::golden::golden_event;

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

/// Bytes of a hex template of [`golden_event`] ([`unhex`]). Placeholders
/// stand for raw bytes:
///
/// | placeholder | bytes                                          |
/// |-------------|------------------------------------------------|
/// | `{id}`      | the id, `00 01 .. 1f` (32)                     |
/// | `{pubkey}`  | the pubkey, `22` x 32                          |
/// | `{sig}`     | the sig, `ff fe .. c0` (64)                    |
/// | `{e}`       | the `e` tag's id, packed: `ab` x 32            |
/// | `{p}`       | the `p` tag's pubkey, packed: `cd` x 32        |
/// | `{relay}`   | the ASCII of `wss://relay.example` (19)        |
/// | `{content}` | the content's UTF-8 (40)                       |
///
/// and `{id-hex}`, `{pubkey-hex}`, `{sig-hex}`, `{e-hex}` and `{p-hex}`
/// for the ASCII of their lowercase hex.
pub fn golden_hex(template: &str) -> Vec<u8> {
    let e = golden_event();
    let mut s = template.to_owned();
    for (name, raw) in [
        ("id", &e.id[..]),
        ("pubkey", &e.pubkey[..]),
        ("sig", &e.sig[..]),
        ("e", &[0xab; 32][..]),
        ("p", &[0xcd; 32][..]),
    ] {
        s = s.replace(&format!("{{{name}}}"), &hex(raw));
        s = s.replace(&format!("{{{name}-hex}}"), &hex(hex(raw).as_bytes()));
    }
    s = s.replace("{relay}", &hex(b"wss://relay.example"));
    s = s.replace("{content}", &hex(e.content.as_bytes()));
    unhex(&s)
}

/// The golden event in the serde positional model of `bincode` and
/// `postcard` (varint lengths and counts, tag values as the `Bytes` (`00`) or
/// `Text` (`01`) variant), whose encodings differ only in `created_at`.
pub fn positional_golden(created_at: &str) -> Vec<u8> {
    golden_hex(&format!(
        "20 {{id}} 20 {{pubkey}} {created_at} 01 04 \
         04 010165 0020 {{e}} 0113 {{relay}} 0104 726f6f74 \
         02 010170 0020 {{p}} \
         05 010174 0106 414243444546 0103 616263 0100 000100 \
         00 \
         28 {{content}} 40 {{sig}}"
    ))
}

/// The error kind of decoding the first `head` bytes of `golden` followed
/// by the hex `tail`.
pub fn error_after(codec: &dyn Codec, golden: &[u8], head: usize, tail: &str) -> DecodeErrorKind {
    let mut bytes = golden[..head].to_vec();
    bytes.extend(unhex(tail));
    codec.decode(&bytes, &Limits::default()).unwrap_err().kind
}

/// The unit checks of a serde positional profile (`bincode`, `postcard`):
/// each `(tail, kind)` of `hostile`, decoded after the fixed fields of
/// [`positional_golden`] with `created_at` ([`error_after`]), fails with
/// `kind` (`None`: any [`is_bounded_failure`]); then [`conformance`].
/// Returns (encoded bytes, json bytes) of the generated events.
pub fn positional_checks(
    codec: &dyn Codec,
    created_at: &str,
    hostile: &[(&str, Option<DecodeErrorKind>)],
) -> (usize, usize) {
    const HEAD: usize = 33 + 33 + 5 + 1;
    let golden = positional_golden(created_at);
    assert_eq!(golden.len(), HEAD + 1 + 65 + 38 + 22 + 1 + 41 + 65);
    for &(tail, want) in hostile {
        let kind = error_after(codec, &golden, HEAD, tail);
        match want {
            Some(want) => assert_eq!(kind, want, "tail {tail}"),
            None => assert!(is_bounded_failure(kind), "tail {tail}: {kind:?}"),
        }
    }
    conformance(codec, &golden, true)
}

/// `golden` is the encoding of [`golden_event`], and decodes back to it,
/// owned and borrowed.
pub fn golden_matches(codec: &dyn Codec, golden: &[u8]) {
    let limits = Limits::default();
    let mut out = Vec::new();
    codec.encode(&golden_event(), &mut out).unwrap();
    assert_eq!(hex(&out), hex(golden), "golden bytes");
    assert_eq!(codec.decode(golden, &limits).unwrap(), golden_event());
    if let Some(b) = codec.borrowed() {
        let view = b.decode_ref(golden, &limits).unwrap();
        assert_eq!(view.to_owned_event(), golden_event());
        assert_eq!(b.kind_and_pubkey(golden, &limits), Ok((1, [0x22; 32])));
    }
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

/// Every strict prefix of `golden` fails to decode, owned and borrowed.
pub fn prefixes_fail(codec: &dyn Codec, golden: &[u8]) {
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
}

/// [`prefixes_fail`], and one byte more is `TrailingBytes` at the end of
/// `golden`.
pub fn truncations_fail(codec: &dyn Codec, golden: &[u8]) {
    prefixes_fail(codec, golden);
    let mut longer = golden.to_vec();
    longer.push(0);
    let err = codec.decode(&longer, &Limits::default()).unwrap_err();
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
    assert_eq!(
        err.kind,
        DecodeErrorKind::LimitExceeded(Limit::Tags),
        "{err}"
    );
    let small = Limits {
        max_event_bytes: bytes.len() - 1,
        ..Limits::default()
    };
    let err = codec.decode(&bytes, &small).unwrap_err();
    assert_eq!(
        err.kind,
        DecodeErrorKind::LimitExceeded(Limit::EventBytes),
        "{err}"
    );
    let values = Limits {
        max_values_per_tag: 1,
        ..Limits::default()
    };
    let err = codec.decode(&bytes, &values).unwrap_err();
    assert_eq!(
        err.kind,
        DecodeErrorKind::LimitExceeded(Limit::ValuesPerTag),
        "{err}"
    );
    let value_bytes = Limits {
        max_value_bytes: 63,
        ..Limits::default()
    };
    let err = codec.decode(&bytes, &value_bytes).unwrap_err();
    assert_eq!(
        err.kind,
        DecodeErrorKind::LimitExceeded(Limit::ValueBytes),
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

/// A xorshift64 generator from `seed`, for reproducible random tests.
pub fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut x = seed;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

/// 20,000 random 1–4 byte mutations of the golden bytes (fixed xorshift
/// seed): decoding never panics, and whatever decodes re-encodes (to the
/// same bytes when `identity`: a decoder that accepts only canonical input).
pub fn mutation_sweep(codec: &dyn Codec, golden: &[u8], identity: bool) {
    let limits = Limits::default();
    let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
    for round in 0..20_000 {
        let mut m = golden.to_vec();
        for _ in 0..=next() % 4 {
            let i = usize::try_from(next() % m.len() as u64).unwrap();
            m[i] = next().to_le_bytes()[0];
        }
        let r =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| codec.decode(&m, &limits)));
        let decoded = r.unwrap_or_else(|_| panic!("round {round} panicked"));
        if let Ok(e) = decoded {
            let mut out = Vec::new();
            codec.encode(&e, &mut out).unwrap();
            if identity {
                assert_eq!(out, m, "round {round}: accepted non-canonical input");
            }
        }
    }
}

/// The shared checks in one call: the golden both ways, every prefix fails,
/// one byte more is `TrailingBytes` at the end of `golden` (any error when
/// the format cannot tell, `exact_end: false`), limits, a mutation sweep,
/// and every generated event round-trips byte for byte. Returns (encoded
/// bytes, json bytes) of the generated events.
pub fn conformance(codec: &dyn Codec, golden: &[u8], exact_end: bool) -> (usize, usize) {
    golden_matches(codec, golden);
    if exact_end {
        truncations_fail(codec, golden);
    } else {
        prefixes_fail(codec, golden);
        let mut longer = golden.to_vec();
        longer.push(0);
        let decoded = codec.decode(&longer, &Limits::default());
        assert!(decoded.is_err(), "trailing byte");
    }
    limits_enforced(codec, golden_event());
    mutation_sweep(codec, golden, false);
    let (refused, total, json) = round_trip_generated(codec, true);
    assert_eq!(refused, 0, "every generated event is representable");
    (total, json)
}

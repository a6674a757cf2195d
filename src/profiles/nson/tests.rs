use super::*;
use crate::profiles::test_support::{self as support, golden_event};

/// The golden event's exact bytes, written out from the layout.
const GOLDEN: &str = concat!(
    r#"{"id":"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f","#,
    r#""pubkey":"2222222222222222222222222222222222222222222222222222222222222222","#,
    r#""sig":"fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0efeeedecebeae9e8e7e6e5e4e3e2e1e0"#,
    r#"dfdedddcdbdad9d8d7d6d5d4d3d2d1d0cfcecdcccbcac9c8c7c6c5c4c3c2c1c0","#,
    r#""created_at":1700000000,"nson":"1e"#, // header: 30 bytes
    "01002f04",                              // kind 1 digit, content 47 bytes, 4 tags
    "040001004000130004",                    // tag "e": 4 items of 1, 64, 19, 4 bytes
    "0200010040",                            // tag "p": 2 items of 1, 64
    "0500010006000300000002",                // tag "t": 5 items of 1, 6, 3, 0, 2
    "00",                                    // the empty tag
    r#"","kind":1,"content":"gm 🌅 \"quoted\"\n\t日本語 עברית \x01","#,
    r#""tags":[["e","abababababababababababababababababababababababababababababababab","#,
    r#""wss://relay.example","root"],"#,
    r#"["p","cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd"],"#,
    r#"["t","ABCDEF","abc","","00"],[]]}"#,
);

fn enc(e: &Event) -> Result<Vec<u8>, EncodeError> {
    let mut out = b"keep".to_vec();
    let r = Nson.encode(e, &mut out);
    if r.is_err() {
        assert_eq!(out, b"keep", "a refusal leaves the buffer as it was");
    }
    r.map(|()| out[4..].to_vec())
}

fn err(bytes: &[u8]) -> DecodeError {
    Nson.decode(bytes, &Limits::default()).unwrap_err()
}

#[test]
fn golden_offsets_and_conformance() {
    let g = GOLDEN.as_bytes();
    assert_eq!(&g[ID_AT..ID_AT + 2], b"00");
    assert_eq!(&g[PUBKEY_AT..PUBKEY_AT + 2], b"22");
    assert_eq!(&g[SIG_AT..SIG_AT + 2], b"ff");
    assert_eq!(&g[CREATED_AT_AT..CREATED_AT_AT + 10], b"1700000000");
    assert_eq!(&g[SIZE_AT..HEADER_AT], b"1e");
    support::golden_matches(&Nson, g);
    support::truncations_fail(&Nson, g);
    support::limits_enforced(&Nson, golden_event());
    support::mutation_sweep(&Nson, g, true);
}

/// Generated events: every one round-trips byte for byte or is refused,
/// and refused exactly when the header would pass 255 bytes.
#[test]
fn generated_round_trip_and_refusals() {
    let (refused, total, json) = support::round_trip_generated(&Nson, true);
    let events = crate::corpus::generate::generate(1, 300);
    let too_big = events
        .iter()
        .filter(|e| 4 + e.tags.iter().map(|t| 1 + 2 * t.len()).sum::<usize>() > 255)
        .count();
    assert_eq!(refused, too_big);
    assert!(refused < events.len());
    eprintln!("nson: {refused} refused; {total} bytes vs json {json}");
    let mut json_checked = 0;
    for e in &events {
        let Ok(bytes) = enc(e) else { continue };
        let as_json = serde_json::from_slice::<serde_json::Value>(&bytes);
        let is_json =
            quotes_as_json(&e.content) && e.tags.iter().flatten().all(|v| quotes_as_json(v));
        assert_eq!(as_json.is_ok(), is_json);
        let Ok(mut plain) = as_json else { continue };
        json_checked += 1;
        plain.as_object_mut().unwrap().remove("nson");
        let want: serde_json::Value = serde_json::from_str(&e.to_json()).unwrap();
        assert_eq!(plain, want, "any JSON parser reads the same event");
    }
    assert!(json_checked > 0);
}

#[test]
fn go_quoting() {
    let mut e = golden_event();
    e.tags.clear();
    e.content = "a\"\\/<&\u{8}\u{c}\n\r\té\u{a0}\u{ad}\u{200d}\u{feff}😀\u{fe0f}中".into();
    let bytes = enc(&e).unwrap();
    let text = std::str::from_utf8(&bytes).unwrap();
    let want = r#""content":"a\"\\/<&\b\f\n\r\té\u00a0\u00ad\u200d\ufeff😀"#;
    assert!(text.contains(want), "{text}");
    assert!(text.contains("\u{fe0f}中\",\"tags\":[]}"), "{text}");
    assert_eq!(Nson.decode(&bytes, &Limits::default()).unwrap(), e);
    let view = Nson.decode_ref(&bytes, &Limits::default()).unwrap();
    assert!(matches!(view.content, Cow::Owned(_)));
    let plain = Nson
        .decode_ref(GOLDEN.as_bytes(), &Limits::default())
        .unwrap();
    assert!(matches!(plain.tags[2][1], Cow::Borrowed("ABCDEF")));
    // Every BMP character Go escapes or not, through both directions.
    e.content = (0x20u32..0x3000)
        .filter(|&c| c != 0x7f)
        .filter_map(char::from_u32)
        .collect();
    e.tags = vec![vec![e.content.clone()]];
    let bytes = enc(&e).unwrap();
    assert_eq!(Nson.decode(&bytes, &Limits::default()).unwrap(), e);
}

#[test]
fn refusals() {
    let refused = |f: &dyn Fn(&mut Event)| {
        let mut e = golden_event();
        f(&mut e);
        enc(&e).unwrap_err().reason
    };
    // Go's escapes that are not JSON are written as Go writes them.
    let mut e = golden_event();
    e.tags.clear();
    e.content = "\u{7}\u{b}\u{1}\u{7f}\u{e0067}\u{f0000}\u{1f600}".into();
    let bytes = enc(&e).unwrap();
    let text = std::str::from_utf8(&bytes).unwrap();
    let want = r#""content":"\a\v\x01\x7f\U000e0067\U000f0000😀""#;
    assert!(text.contains(want), "{text}");
    assert_eq!(Nson.decode(&bytes, &Limits::default()).unwrap(), e);
    assert!(!quotes_as_json(&e.content));
    assert!(refused(&|e| e.created_at = 999_999_999).contains("10 digits"));
    assert!(refused(&|e| e.created_at = 10_000_000_000).contains("10 digits"));
    assert!(refused(&|e| e.content = "a".repeat(65_536)).contains("65535"));
    assert!(refused(&|e| e.content = "\"".repeat(32_768)).contains("65535"));
    assert!(refused(&|e| e.tags = vec![vec!["p".into()]; 126]).contains("255"));
    assert!(refused(&|e| e.tags.insert(0, Vec::new())).contains("empty tag 0"));
    // The largest header that fits, and an empty tag at the end, encode.
    let mut e = golden_event();
    e.tags = vec![vec!["p".into()]; 83];
    e.tags.extend([Vec::new(), Vec::new()]);
    assert_eq!(enc(&e).unwrap()[SIZE_AT..HEADER_AT], *b"ff");
    support::golden_matches(&Nson, GOLDEN.as_bytes());
    let bytes = enc(&e).unwrap();
    assert_eq!(Nson.decode(&bytes, &Limits::default()).unwrap(), e);
}

/// Bytes a JSON parser reads as the golden event but that disagree with
/// the header or the canonical form are errors, at the byte that differs.
#[test]
fn header_and_json_must_agree() {
    let g = GOLDEN;
    let at = |s: &str| err(s.as_bytes());
    let kind_at = g.find(r#""kind":1"#).unwrap() + 7;
    let e = at(&g.replacen("\"nson\":\"1e01", "\"nson\":\"1e02", 1));
    assert_eq!(
        e,
        DecodeError::at(
            DecodeErrorKind::Invalid("kind digits disagree with the NSON header"),
            kind_at
        )
    );
    let e = at(&g.replacen("\"kind\":1", "\"kind\":01", 1));
    assert_eq!(
        e.offset,
        kind_at + 1,
        "the byte after the one digit the header allows"
    );
    let e = at(&g.replacen("\"kind\":", "\"kind\": ", 1));
    assert_eq!(e.offset, kind_at);
    // The content's escaped length in the header is `002f` (47).
    let len = |n: &str| format!("\"nson\":\"1e01{n}");
    let content_at = g.find("gm ").unwrap();
    // 9 bytes end inside the escape `\"` at content_at + 8.
    assert_eq!(&g[content_at + 8..content_at + 10], "\\\"");
    let e = at(&g.replacen(&len("002f"), &len("0009"), 1));
    assert_eq!(
        e,
        DecodeError::at(DecodeErrorKind::Invalid("bad escape"), content_at + 8)
    );
    let e = at(&g
        .replacen("gm ", "\\u0067m ", 1)
        .replacen(&len("002f"), &len("0034"), 1));
    assert_eq!(
        e,
        DecodeError::at(DecodeErrorKind::NonCanonical, content_at)
    );
    // The newline, which Go writes `\n`, as `\x0a`.
    let newline = content_at + 18;
    assert_eq!(&g[newline..newline + 2], "\\n");
    let e = at(&g
        .replacen("\\\"\\n", "\\\"\\x0a", 1)
        .replacen(&len("002f"), &len("0031"), 1));
    assert_eq!(e, DecodeError::at(DecodeErrorKind::NonCanonical, newline));
    let e = at(&g
        .replacen("gm ", "g\u{a0} ", 1)
        .replacen(&len("002f"), &len("0030"), 1));
    assert_eq!(
        e,
        DecodeError::at(DecodeErrorKind::NonCanonical, content_at + 1)
    );
    let tags_end = g.len() - 2;
    let e =
        at(&g
            .replacen("\"nson\":\"1e", "\"nson\":\"1f", 1)
            .replacen("000200\"", "00020000\"", 1));
    assert_eq!(
        e.kind,
        DecodeErrorKind::Invalid("NSON header longer than the JSON it describes")
    );
    assert_eq!(e.offset, tags_end + 2);
    let e = at(&g.replacen("]]}", "]],\"x\":0}", 1));
    assert_eq!(e.offset, tags_end + 1);
    let e = at(&g.replacen("\"id\":\"0", "\"id\":\"A", 1));
    assert_eq!(
        e,
        DecodeError::at(DecodeErrorKind::Invalid("bad-hex"), ID_AT)
    );
    let e = at(&g.replacen("1700000000", "0700000000", 1));
    assert_eq!(
        e,
        DecodeError::at(DecodeErrorKind::NonCanonical, CREATED_AT_AT)
    );
    let e = at(&g.replacen("\"nson\":\"1e", "\"nson\":\"03", 1));
    assert_eq!(e.offset, SIZE_AT);
    let big = g.replacen("\"kind\":1", "\"kind\":99999", 1).replacen(
        "\"nson\":\"1e01",
        "\"nson\":\"1e05",
        1,
    );
    assert_eq!(
        at(&big),
        DecodeError::at(DecodeErrorKind::Invalid("out-of-range"), kind_at)
    );
    // Empty tag before a non-empty one: refused on read as on write.
    let empty_first = g
        .replacen("\"nson\":\"1e", "\"nson\":\"1f", 1)
        .replacen("01002f04", "01002f0500", 1)
        .replacen("\"tags\":[", "\"tags\":[[],", 1);
    let first = empty_first.find("\"tags\":[").unwrap() + 8;
    let want = DecodeErrorKind::Invalid("empty tag before a non-empty one");
    assert_eq!(at(&empty_first), DecodeError::at(want, first));
    for (name, bytes) in Nson.variants(GOLDEN.as_bytes()) {
        assert!(Nson.decode(&bytes, &Limits::default()).is_err(), "{name}");
    }
    for (name, bytes) in Nson.length_bombs() {
        let e = err(&bytes);
        assert_eq!(e.kind, DecodeErrorKind::Truncated, "{name}: {e}");
    }
}

#[test]
fn select_reads_through_the_header() {
    let limits = Limits::default();
    assert_eq!(
        Nson.kind_and_pubkey(GOLDEN.as_bytes(), &limits),
        Ok((1, [0x22; 32]))
    );
    let mut e = golden_event();
    e.kind = 30_023;
    let bytes = enc(&e).unwrap();
    assert_eq!(
        Nson.kind_and_pubkey(&bytes, &limits),
        Ok((30_023, [0x22; 32]))
    );
    for n in 0..=GOLDEN.find("\"kind\":1").unwrap() + 7 {
        assert!(
            Nson.kind_and_pubkey(&GOLDEN.as_bytes()[..n], &limits)
                .is_err(),
            "prefix {n}"
        );
    }
    let wrong = GOLDEN.replacen("\"nson\":\"1e01", "\"nson\":\"1e02", 1);
    assert!(Nson.kind_and_pubkey(wrong.as_bytes(), &limits).is_err());
}

#[test]
fn not_print_table_matches_go_basics() {
    assert!(not_print(0x80) && not_print(0xa0) && not_print(0xad) && not_print(0x200d));
    assert!(!not_print(0xe9) && !not_print(0x4e2d) && !not_print(0x1f600) && !not_print(0xfe0f));
    assert!(goprint::NOT_PRINT.windows(2).all(|w| w[0].1 < w[1].0));
}

#[test]
fn evolution_member_after_tags() {
    use crate::codec::evolution::Evolution;
    let e = golden_event();
    let base = enc(&e).unwrap();
    let newer = super::evolution::ADAPTER.with_field(&e, &base).unwrap();
    let err = Nson.decode(&newer.bytes, &Limits::default()).unwrap_err();
    assert_eq!(
        err.offset,
        base.len() - 1,
        "the old reader stops at the member"
    );
    let read = super::evolution::read(&newer.bytes).unwrap();
    assert_eq!((read.event, read.future), (e.clone(), Some(42)));
    let read = super::evolution::read(&base).unwrap();
    assert_eq!((read.event, read.future), (e, None));
}

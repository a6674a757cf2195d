use super::*;
use crate::profiles::test_support::{self as support, golden_event};

/// The golden event's exact bytes, written out from the layout.
const GOLDEN: &str = concat!(
    r#"{"id":"1111111111111111111111111111111111111111111111111111111111111111","#,
    r#""pubkey":"2222222222222222222222222222222222222222222222222222222222222222","#,
    r#""sig":"33333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333","#,
    r#""created_at":1700000000,"nson":"13"#,
    "01000403",
    "0200010040",
    "0200010006",
    "0200010005",
    r#"","kind":1,"content":"hi\n","tags":[["e","abababababababababababababababababababababababababababababababab"],"#,
    r#"["p","ABCDEF"],["t","nostr"]]}"#,
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
    assert_eq!(&g[ID_AT..ID_AT + 2], b"11");
    assert_eq!(&g[PUBKEY_AT..PUBKEY_AT + 2], b"22");
    assert_eq!(&g[SIG_AT..SIG_AT + 2], b"33");
    assert_eq!(&g[CREATED_AT_AT..CREATED_AT_AT + 10], b"1700000000");
    assert_eq!(&g[SIZE_AT..HEADER_AT], b"13");
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
    assert!(matches!(plain.tags[2][1], Cow::Borrowed("nostr")));
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
    let e = at(&g.replacen("\"nson\":\"1301", "\"nson\":\"1302", 1));
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
    let content_at = g.find("hi\\n").unwrap();
    let e = at(&g.replacen("0004", "0003", 1));
    assert_eq!(
        e,
        DecodeError::at(DecodeErrorKind::Invalid("bad escape"), content_at + 2)
    );
    let e = at(&g
        .replacen("hi\\n", "\\u0068\\n", 1)
        .replacen("0004", "0008", 1));
    assert_eq!(
        e,
        DecodeError::at(DecodeErrorKind::NonCanonical, content_at)
    );
    let e = at(&g
        .replacen("hi\\n", "h\\x0a\\n", 1)
        .replacen("0004", "0008", 1));
    assert_eq!(
        e,
        DecodeError::at(DecodeErrorKind::NonCanonical, content_at + 1)
    );
    let e = at(&g
        .replacen("hi\\n", "h\u{a0}\\n", 1)
        .replacen("0004", "0005", 1));
    assert_eq!(
        e,
        DecodeError::at(DecodeErrorKind::NonCanonical, content_at + 1)
    );
    let tags_end = g.len() - 2;
    let e = at(&g
        .replacen("\"nson\":\"13", "\"nson\":\"14", 1)
        .replacen("0005\"", "000500\"", 1));
    assert_eq!(
        e.kind,
        DecodeErrorKind::Invalid("NSON header longer than the JSON it describes")
    );
    assert_eq!(e.offset, tags_end + 2);
    let e = at(&g.replacen("]]}", "]],\"x\":0}", 1));
    assert_eq!(e.offset, tags_end + 1);
    let e = at(&g.replacen("\"id\":\"1", "\"id\":\"A", 1));
    assert_eq!(
        e,
        DecodeError::at(DecodeErrorKind::Invalid("bad-hex"), ID_AT)
    );
    let e = at(&g.replacen("1700000000", "0700000000", 1));
    assert_eq!(
        e,
        DecodeError::at(DecodeErrorKind::NonCanonical, CREATED_AT_AT)
    );
    let e = at(&g.replacen("\"nson\":\"13", "\"nson\":\"03", 1));
    assert_eq!(e.offset, SIZE_AT);
    let big = g.replacen("\"kind\":1", "\"kind\":99999", 1).replacen(
        "\"nson\":\"1301",
        "\"nson\":\"1305",
        1,
    );
    assert_eq!(
        at(&big),
        DecodeError::at(DecodeErrorKind::Invalid("out-of-range"), kind_at)
    );
    // Empty tag before a non-empty one: refused on read as on write.
    let empty_first = g
        .replacen("\"nson\":\"13", "\"nson\":\"14", 1)
        .replacen("01000403", "0100040400", 1)
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
    let wrong = GOLDEN.replacen("\"nson\":\"1301", "\"nson\":\"1302", 1);
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

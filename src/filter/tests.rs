use serde_json::json;

use super::*;

fn event() -> Event {
    Event::new(
        [0xaa; 32],
        [0xbb; 32],
        [0xcc; 64],
        1_700_000_000,
        1,
        vec![
            vec!["e".into(), "ev1".into(), "wss://r".into()],
            vec!["p".into(), "pk1".into()],
            vec!["t".into()],
            vec!["x".into(), "second".into(), "third".into()],
        ],
        "hi".into(),
    )
}

fn f(v: Value) -> Filter {
    Filter::from_json(&v).unwrap()
}

fn both(filter: &Filter, e: &Event) -> bool {
    let by_view = filter.matches(&e.as_ref());
    assert_eq!(by_view, filter.matches_on(e));
    let ev: Value = serde_json::from_str(&e.to_json()).unwrap();
    assert_eq!(
        reference::matches_value(&filter.to_json(), &ev).unwrap(),
        by_view,
        "{}",
        filter.to_json()
    );
    by_view
}

#[test]
fn nip01_semantics() {
    let e = event();
    let aa = "aa".repeat(32);
    let bb = "bb".repeat(32);
    let other = "01".repeat(32);
    assert!(both(&f(json!({})), &e));
    assert!(both(&f(json!({"ids": [other, aa]})), &e));
    assert!(!both(&f(json!({"ids": [other]})), &e));
    assert!(both(&f(json!({"authors": [bb], "kinds": [0, 1]})), &e));
    assert!(!both(&f(json!({"authors": [bb], "kinds": [0, 7]})), &e));
    assert!(both(
        &f(json!({"since": 1_700_000_000u64, "until": 1_700_000_000u64})),
        &e
    ));
    assert!(!both(&f(json!({"since": 1_700_000_001u64})), &e));
    assert!(!both(&f(json!({"until": 1_699_999_999u64})), &e));
    assert!(
        both(&f(json!({"limit": 0})), &e),
        "limit takes no part in matching"
    );
    assert!(both(&f(json!({"#e": ["zz", "ev1"]})), &e));
    assert!(both(&f(json!({"#e": ["ev1"], "#p": ["pk1"]})), &e));
    assert!(!both(&f(json!({"#e": ["ev1"], "#p": ["pk2"]})), &e));
    // Only the first value counts, and a one-string tag has none.
    assert!(!both(&f(json!({"#e": ["wss://r"]})), &e));
    assert!(!both(&f(json!({"#x": ["third"]})), &e));
    assert!(!both(&f(json!({"#t": [""]})), &e));
    assert!(
        !both(&f(json!({"#E": ["ev1"]})), &e),
        "tag names are case-sensitive"
    );
}

#[test]
fn json_round_trips_in_key_order() {
    let v = json!({
        "ids": ["aa".repeat(32)],
        "authors": ["bb".repeat(32), "01".repeat(32)],
        "kinds": [1, 6, 65535],
        "#e": ["x"],
        "#T": ["y"],
        "since": 1, "until": 2, "limit": 10
    });
    let filter = f(v.clone());
    assert_eq!(filter.to_json(), v);
    let text = serde_json::to_string(&filter).unwrap();
    assert!(text.starts_with("{\"ids\":"), "{text}");
    assert!(text.find("\"#T\"") < text.find("\"#e\""), "{text}");
    let back: Filter = serde_json::from_str(&text).unwrap();
    assert_eq!(back, filter);
}

#[test]
fn refuses_what_nip01_does_not_define() {
    let err = |v: Value| Filter::from_json(&v).unwrap_err().to_string();
    assert_eq!(err(json!([])), "a filter must be a json object");
    assert_eq!(
        err(json!({"search": "x"})),
        "unknown filter field \"search\""
    );
    assert_eq!(err(json!({"#ab": ["x"]})), "unknown filter field \"#ab\"");
    assert_eq!(err(json!({"#1": ["x"]})), "unknown filter field \"#1\"");
    assert_eq!(
        err(json!({"ids": ["aa".repeat(31)]})),
        "ids[0]: expected 64 lowercase hex characters",
        "prefixes were removed from NIP-01"
    );
    assert_eq!(
        err(json!({"authors": ["bb".repeat(32), "AA".repeat(32)]})),
        "authors[1]: expected 64 lowercase hex characters"
    );
    assert_eq!(
        err(json!({"kinds": []})),
        "kinds: a list must hold at least one value"
    );
    assert_eq!(
        err(json!({"kinds": [65536]})),
        "kinds[0]: expected an integer 0..=65535"
    );
    assert_eq!(err(json!({"kinds": 1})), "kinds: expected a list");
    assert_eq!(err(json!({"#p": [1]})), "#p[0]: expected a string");
    assert_eq!(
        err(json!({"since": -1})),
        "since: expected a non-negative integer"
    );
    assert_eq!(
        err(json!({"limit": 1.5})),
        "limit: expected a non-negative integer"
    );
}

//! Import and audit on deliberately broken files: every record is accounted
//! for, with the right reason and position, and nothing is lost.

use std::io::Write;
use std::path::PathBuf;

use binostr::Event;
use binostr::corpus::audit::{AuditOptions, AuditReport, audit_paths};
use binostr::validate::sign;

fn event(n: u64, content: &str, tags: Vec<Vec<String>>) -> Event {
    let keypair = secp256k1::Keypair::from_secret_bytes([0x5a; 32]).unwrap();
    let mut e = Event {
        id: [0; 32],
        pubkey: [0; 32],
        sig: [0; 64],
        created_at: 1_700_000_000 + n,
        kind: 1,
        tags,
        content: content.to_owned(),
    };
    sign(&mut e, &keypair, &[n as u8; 32]);
    e
}

fn valid(n: u64) -> String {
    event(n, &format!("note {n} with \"quotes\"\nand lines"), vec![]).to_json()
}

struct Case {
    _dir: tempfile::TempDir,
    path: PathBuf,
}

fn file(bytes: &[u8]) -> Case {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("input");
    std::fs::write(&path, bytes).unwrap();
    Case { _dir: dir, path }
}

fn audit(bytes: &[u8]) -> AuditReport {
    let case = file(bytes);
    let mut accepted = Vec::new();
    let report = audit_paths(
        std::slice::from_ref(&case.path),
        &AuditOptions::default(),
        |e| accepted.push(e),
    )
    .unwrap();
    assert_eq!(
        report.read,
        report.accepted + report.duplicates + report.rejected.len() as u64,
        "every record is accounted for"
    );
    assert_eq!(accepted.len() as u64, report.accepted);
    report
}

/// (reason, line) of every rejection.
fn rejections(report: &AuditReport) -> Vec<(&'static str, u64)> {
    report
        .rejected
        .iter()
        .map(|r| (r.reason, r.position.line))
        .collect()
}

#[test]
fn truncated_lines() {
    let second = valid(2);
    let input = format!(
        "{}\n{}\n{}\n",
        valid(1),
        &second[..second.len() / 2],
        valid(3)
    );
    let r = audit(input.as_bytes());
    assert_eq!((r.read, r.accepted), (3, 2));
    assert_eq!(rejections(&r), vec![("malformed-json", 2)]);
    let last_cut = format!("{}\n{}", valid(1), &second[..40]);
    let r = audit(last_cut.as_bytes());
    assert_eq!((r.read, r.accepted), (2, 1));
    assert_eq!(rejections(&r), vec![("malformed-json", 2)]);
}

#[test]
fn hard_wrapped_long_line() {
    let long = valid(2);
    let wrapped: Vec<&str> = long
        .as_bytes()
        .chunks(80)
        .map(|c| std::str::from_utf8(c).unwrap())
        .collect();
    assert!(wrapped.len() >= 4);
    let input = format!("{}\n{}\n{}\n", valid(1), wrapped.join("\n"), valid(3));
    let r = audit(input.as_bytes());
    assert_eq!(r.accepted, 2);
    assert_eq!(
        r.read,
        2 + wrapped.len() as u64,
        "each fragment is its own record"
    );
    let lines: Vec<u64> = r.rejected.iter().map(|x| x.position.line).collect();
    assert_eq!(lines, (2..2 + wrapped.len() as u64).collect::<Vec<_>>());
    assert!(r.rejected.iter().all(|x| x.reason == "malformed-json"));
}

#[test]
fn invalid_utf8() {
    let mut input = Vec::new();
    writeln!(input, "{}", valid(1)).unwrap();
    let bad = valid(2).replace("note 2", "note \u{e9}2");
    let at = bad.find('\u{e9}').unwrap();
    let mut bad = bad.into_bytes();
    bad[at] = 0xff; // a lone continuation-free byte: not UTF-8
    input.extend_from_slice(&bad);
    input.push(b'\n');
    writeln!(input, "{}", valid(3)).unwrap();
    let r = audit(&input);
    assert_eq!((r.read, r.accepted), (3, 2));
    assert_eq!(rejections(&r), vec![("malformed-json", 2)]);
    assert!(
        r.rejected[0].detail.contains("unicode"),
        "{}",
        r.rejected[0].detail
    );
}

#[test]
fn duplicate_ids() {
    let one = valid(1);
    let forged = one.replace("note 1", "note X");
    let input = format!("{one}\n{one}\n{forged}\n[\"EVENT\",\"s\",{one}]\n");
    let r = audit(input.as_bytes());
    assert_eq!((r.read, r.accepted, r.duplicates), (4, 1, 2));
    assert_eq!(rejections(&r), vec![("id-mismatch", 3)]);
}

#[test]
fn uppercase_hex() {
    let upper_id = {
        let v = valid(1);
        let id_start = v.find("\"id\":\"").unwrap() + 6;
        let (head, tail) = v.split_at(id_start);
        let id = tail[..64].to_uppercase();
        format!("{head}{id}{}", &tail[64..])
    };
    // Uppercase hex in a tag value is just a string, and the event is valid.
    let upper_tag = event(2, "x", vec![vec!["e".into(), "ABCDEF0123456789".repeat(4)]]).to_json();
    let input = format!("{upper_id}\n{upper_tag}\n");
    let r = audit(input.as_bytes());
    assert_eq!((r.read, r.accepted), (2, 1));
    assert_eq!(rejections(&r), vec![("bad-hex", 1)]);
}

#[test]
fn wrong_signatures() {
    let a = event(1, "a", vec![]);
    let b = event(2, "b", vec![]);
    let mut swapped = a.clone();
    swapped.sig = b.sig;
    let mut flipped = a.clone();
    flipped.sig[10] ^= 0x40;
    let mut bad_key = a.clone();
    bad_key.pubkey = [0xff; 32]; // not on the curve; id recomputed to isolate the key check
    bad_key.id = binostr::validate::compute_id(&bad_key);
    let input = format!(
        "{}\n{}\n{}\n{}\n",
        swapped.to_json(),
        flipped.to_json(),
        bad_key.to_json(),
        b.to_json()
    );
    let r = audit(input.as_bytes());
    assert_eq!((r.read, r.accepted), (4, 1));
    assert_eq!(
        rejections(&r),
        vec![
            ("bad-signature", 1),
            ("bad-signature", 2),
            ("bad-pubkey", 3)
        ]
    );
}

#[test]
fn envelope_next_to_garbage() {
    let input = format!(
        "[\"EVENT\",\"sub\",{}] trailing garbage\nnot json at all\n[\"EOSE\",\"sub\"]\n[\"EVENT\",{}]\n{{\"id\":1}}\n",
        valid(1),
        valid(2)
    );
    let r = audit(input.as_bytes());
    assert_eq!((r.read, r.accepted), (6, 2));
    assert_eq!(
        rejections(&r),
        vec![
            ("malformed-json", 1),
            ("malformed-json", 2),
            ("not-an-event", 3),
            ("wrong-type", 5)
        ]
    );
}

#[test]
fn arrays_documents_and_compression_agree() {
    let events: Vec<String> = (1..=5).map(valid).collect();
    let jsonl = events.join("\n") + "\n";
    let array = format!("[\n  {}\n]\n", events.join(",\n  "));
    let pretty: String = (1..=5)
        .map(|n| {
            let v: serde_json::Value = serde_json::from_str(&valid(n)).unwrap();
            serde_json::to_string_pretty(&v).unwrap() + "\n"
        })
        .collect();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(jsonl.as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    let zst = zstd::encode_all(jsonl.as_bytes(), 3).unwrap();
    let reports: Vec<AuditReport> = [
        jsonl.as_bytes(),
        array.as_bytes(),
        pretty.as_bytes(),
        &gz,
        &zst,
    ]
    .into_iter()
    .map(audit)
    .collect();
    let shapes: Vec<&str> = reports.iter().map(|r| r.inputs[0].shape.name()).collect();
    assert_eq!(
        shapes,
        ["jsonl", "json-array", "document", "jsonl", "jsonl"]
    );
    for r in &reports {
        assert_eq!((r.read, r.accepted), (5, 5));
        assert_eq!(r.fingerprint, reports[0].fingerprint);
        assert_eq!(r.kinds.get(&1), Some(&5));
    }
}

#[test]
fn oversized_record_is_rejected_with_limit() {
    let big = event(9, &"x".repeat(600_000), vec![]).to_json();
    let input = format!("{}\n{big}\n{}\n", valid(1), valid(2));
    let r = audit(input.as_bytes());
    assert_eq!((r.read, r.accepted), (3, 2));
    assert_eq!(rejections(&r), vec![("limit-exceeded", 2)]);
}

#[test]
fn object_containers_account_for_every_value() {
    // A feed cache: categories of events beside records that are not events
    // (no id, no sig), a broken event, and a repeated one.
    let (a, b, c) = (valid(1), valid(2), valid(3));
    let cache = format!(
        "{{\"notes\": [{a}, {{\"kind\": 10000100, \"content\": \"{{}}\"}}, {b}],\n \"previews\": [],\n \"stats\": {{\"kind\": 10000158, \"content\": \"\"}},\n \"zaps\": [{{\"id\":1}}, {a}, {c}]}}\n"
    );
    let r = audit(cache.as_bytes());
    assert_eq!(
        (r.read, r.accepted, r.duplicates),
        (7, 3, 1),
        "{:?}",
        r.rejected
    );
    let at = |needle: &str| cache.find(needle).unwrap() as u64;
    let got: Vec<_> = r
        .rejected
        .iter()
        .map(|x| (x.reason, x.position.line, x.position.byte))
        .collect();
    assert_eq!(
        got,
        vec![
            ("not-an-event", 1, at("{\"kind\": 10000100")),
            ("not-an-event", 3, at("{\"kind\": 10000158")),
            ("wrong-type", 4, at("{\"id\":1}")),
        ]
    );
    // A site index keyed by naddr: each value is an event.
    let index = format!("{{\"naddr1a\":{a},\"naddr1b\":{b},\"naddr1c\":{a}}}");
    let r = audit(index.as_bytes());
    assert_eq!((r.read, r.accepted, r.duplicates), (3, 2, 1));
}

#[test]
fn repeated_lines_are_duplicates_and_big_documents_are_skipped() {
    let lines: String = (0..3)
        .flat_map(|_| [valid(1), valid(2)])
        .map(|l| l + "\n")
        .collect();
    let r = audit(lines.as_bytes());
    assert_eq!((r.read, r.accepted, r.duplicates), (6, 2, 4));
    // A pretty-printed event over the record limit, next to a good one.
    let tags = (0..12_000)
        .map(|i| vec!["p".to_string(), format!("{i:064x}")])
        .collect();
    let big = event(3, "", tags);
    let v: serde_json::Value = serde_json::from_str(&big.to_json()).unwrap();
    let pretty = serde_json::to_string_pretty(&v).unwrap();
    let input = format!("{pretty}\n{}\n", valid(4));
    let r = audit(input.as_bytes());
    assert_eq!((r.read, r.accepted), (2, 1));
    assert_eq!(r.rejected[0].reason, "limit-exceeded");
    assert_eq!(
        (r.rejected[0].position.line, r.rejected[0].position.byte),
        (1, 0)
    );
    assert!(
        r.rejected[0].detail.contains(&pretty.len().to_string()),
        "{}",
        r.rejected[0].detail
    );
}

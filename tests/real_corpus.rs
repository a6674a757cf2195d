//! The real corpus (`provenance/*.toml`, bytes from `../shared/corpus`):
//! exact accepted and rejected counts, with reasons.
//!
//! An independent reader (NIP-01 id and BIP-340 signature, in Python) finds
//! 8,747 distinct valid events in these files. The audit accepts 8,740: the
//! other 7 are valid but rejected on purpose, each with a reason code: six
//! kind 4 events in irislib/iris-messenger carry an extra `text` field (the
//! client's decrypted plaintext; `unknown-field`, since no binary profile
//! could carry it), and SnowCait's 9,621-tag kind 30000 list is 933,555
//! bytes as filed (702,619 compact), over the 512,000-byte record limit
//! (`limit-exceeded`).

use std::collections::BTreeMap;

use binostr::corpus::audit::{AuditOptions, Input, audit};
use binostr::corpus::source::{corpus_dir_or_skip, real_sources, resolve};

#[test]
fn real_corpus_audits_to_the_expected_counts() {
    let Some(dir) = corpus_dir_or_skip("real_corpus_audits_to_the_expected_counts") else {
        return;
    };
    let sources = real_sources();
    let paths: Vec<_> = sources.iter().map(|s| resolve(s, &dir).unwrap()).collect();
    let inputs: Vec<Input> = sources
        .iter()
        .zip(&paths)
        .map(|(s, path)| {
            let mut input = Input::open(path).unwrap();
            input.label = s.label();
            input
        })
        .collect();
    let report = audit(inputs, &AuditOptions::default(), |_| {}).unwrap();

    assert_eq!(report.read, 10_726);
    assert_eq!(report.accepted, 8_740);
    assert_eq!(report.duplicates, 521);
    assert_eq!(report.rejected.len(), 1_465);
    assert_eq!(
        report.reasons(),
        BTreeMap::from([
            ("id-mismatch", 1),
            ("limit-exceeded", 1),
            ("not-an-event", 1_457),
            ("unknown-field", 6),
        ])
    );
    // Every rejection but the feed cache's non-events, with its position.
    let primal = "PrimalHQ/primal-android-app:data/caching/repository/src/desktopTest/resources/feed_persist_fixture.json";
    let iris = "irislib/iris-messenger:tests/events.json";
    let others: Vec<(&str, &str, u64, u64)> = report
        .rejected
        .iter()
        .filter(|r| r.reason != "not-an-event")
        .map(|r| {
            (
                r.source.as_str(),
                r.reason,
                r.position.line,
                r.position.byte,
            )
        })
        .collect();
    assert_eq!(
        others,
        [
            (
                "soapbox-pub/nostrify:fixtures/event-1.json",
                "id-mismatch",
                1,
                0
            ),
            (iris, "unknown-field", 1, 44_833),
            (iris, "unknown-field", 1, 155_775),
            (iris, "unknown-field", 1, 1_163_733),
            (iris, "unknown-field", 1, 1_247_476),
            (iris, "unknown-field", 1, 1_344_336),
            (iris, "unknown-field", 1, 1_401_314),
            (
                "SnowCait/nostr-japanese-users:docs/sleep.json",
                "limit-exceeded",
                1,
                0
            ),
        ]
    );
    // The non-events are the feed cache's link previews, stats and the like,
    // each an object at its own offset (the file is one line).
    let not_events: Vec<u64> = report
        .rejected
        .iter()
        .filter(|r| r.reason == "not-an-event")
        .inspect(|r| assert_eq!((r.source.as_str(), r.position.line), (primal, 1)))
        .map(|r| r.position.byte)
        .collect();
    assert_eq!(not_events.first(), Some(&555_859));
    assert!(not_events.windows(2).all(|w| w[0] < w[1]));
    // Every rejection's offset is where its record opens.
    for r in &report.rejected {
        let i = sources.iter().position(|s| s.label() == r.source).unwrap();
        let bytes = std::fs::read(&paths[i]).unwrap();
        let at = usize::try_from(r.position.byte).unwrap();
        assert!(matches!(bytes[at], b'{' | b'['), "{r:?}");
    }

    // Each file is detected as the shape its provenance records, and counted:
    // (read, accepted, duplicates, rejected) per file, in provenance order.
    for (source, summary) in sources.iter().zip(&report.inputs) {
        assert_eq!(summary.source, source.label());
        assert_eq!(summary.shape.name(), source.shape, "{}", source.label());
        assert_eq!(
            summary.read,
            summary.accepted + summary.duplicates + summary.rejected
        );
    }
    let per_file: Vec<(u64, u64, u64, u64)> = report
        .inputs
        .iter()
        .map(|s| (s.read, s.accepted, s.duplicates, s.rejected))
        .collect();
    assert_eq!(
        per_file,
        [
            // soapbox-pub/nostrify
            (1000, 1000, 0, 0),
            (100, 100, 0, 0),
            (4, 4, 0, 0),
            (1, 1, 0, 0),
            (1, 0, 0, 1),
            // vitorpamplona/amethyst
            (544, 544, 0, 0),
            // damus-io/nostrdb
            (501, 501, 0, 0),
            (202, 202, 0, 0),
            (1, 1, 0, 0),
            (1, 1, 0, 0),
            (1, 1, 0, 0),
            // Cameri/nostream, sandwichfarm/cassette
            (463, 463, 0, 0),
            (100, 100, 0, 0),
            // PrimalHQ/primal-android-app: 2,189 events (one also in
            // nostrdb's profiles) and 1,457 non-events
            (3646, 2188, 1, 1457),
            // irislib/iris-messenger
            (2299, 2292, 1, 6),
            // hzrd149/nostr-bucket: 1,500 lines, 500 repeated
            (1500, 1000, 500, 0),
            // dhalsim/nostr-static: articles recur across topic indexes
            (179, 179, 0, 0),
            (34, 26, 8, 0),
            (27, 24, 3, 0),
            (6, 5, 1, 0),
            (4, 2, 2, 0),
            (3, 2, 1, 0),
            (3, 2, 1, 0),
            (1, 0, 1, 0),
            (1, 0, 1, 0),
            (1, 0, 1, 0),
            // SnowCait/nostr-japanese-users
            (1, 1, 0, 0),
            (1, 0, 0, 1),
            (1, 1, 0, 0),
            // NicolaLS/nostr-kmp
            (100, 100, 0, 0),
        ]
    );
    assert_eq!(report.kinds.len(), 40, "{:?}", report.kinds);
    assert_eq!(report.kinds.values().sum::<u64>(), 8_740);
    let kind = |k: u16| report.kinds[&k];
    assert_eq!(
        [
            kind(1),
            kind(0),
            kind(7),
            kind(9735),
            kind(4),
            kind(30000),
            kind(10063),
            kind(30023),
            kind(6),
            kind(3)
        ],
        [3683, 1427, 892, 720, 481, 445, 302, 240, 220, 42]
    );
    // Compact JSON sizes; the largest is a 124 KB long-form article (kind
    // 30023) from dhalsim/nostr-static.
    assert_eq!(
        (
            report.sizes.p50,
            report.sizes.p90,
            report.sizes.p99,
            report.sizes.max
        ),
        (658, 1779, 9273, 128_240)
    );
    assert_eq!(
        report.fingerprint,
        "29f8f4cbe319998db208a6b0b269863d7040690fd791314a5b6b833319baa2c2"
    );
}

//! The real corpus (`provenance/*.toml`, bytes from `../shared/corpus`):
//! exact accepted and rejected counts, with reasons.

use binostr::corpus::audit::{AuditOptions, Input, audit};
use binostr::corpus::source::{corpus_dir_or_skip, real_sources, resolve};

#[test]
fn real_corpus_audits_to_the_expected_counts() {
    let Some(dir) = corpus_dir_or_skip("real_corpus_audits_to_the_expected_counts") else {
        return;
    };
    let sources = real_sources();
    let inputs: Vec<Input> = sources
        .iter()
        .map(|s| {
            let path = resolve(s, &dir).unwrap();
            let mut input = Input::open(&path).unwrap();
            input.label = s.label();
            input
        })
        .collect();
    let report = audit(inputs, &AuditOptions::default(), |_| {}).unwrap();

    assert_eq!(report.read, 2919);
    assert_eq!(report.accepted, 2918);
    assert_eq!(report.duplicates, 0);
    assert_eq!(report.rejected.len(), 1);
    let reject = &report.rejected[0];
    assert_eq!(reject.source, "soapbox-pub/nostrify:fixtures/event-1.json");
    assert_eq!(reject.reason, "id-mismatch");
    assert_eq!((reject.position.line, reject.position.byte), (1, 0));

    // Each file is detected as the shape its provenance records, and counted.
    for (source, summary) in sources.iter().zip(&report.inputs) {
        assert_eq!(summary.source, source.label());
        assert_eq!(summary.shape.name(), source.shape, "{}", source.label());
        assert_eq!(
            summary.read,
            summary.accepted + summary.duplicates + summary.rejected
        );
    }
    let per_file: Vec<u64> = report.inputs.iter().map(|s| s.read).collect();
    assert_eq!(
        per_file,
        [1000, 100, 4, 1, 1, 544, 501, 202, 1, 1, 1, 463, 100]
    );
    assert_eq!(report.kinds.len(), 32, "{:?}", report.kinds);
    assert_eq!(report.kinds.values().sum::<u64>(), 2918);
    assert_eq!(
        (
            report.kinds[&1],
            report.kinds[&0],
            report.kinds[&7],
            report.kinds[&3]
        ),
        (983, 837, 530, 36)
    );
    // Compact JSON sizes; the largest is the 792-tag follow list.
    assert_eq!(
        (
            report.sizes.p50,
            report.sizes.p90,
            report.sizes.p99,
            report.sizes.max
        ),
        (602, 1053, 4795, 76563)
    );
    assert_eq!(
        report.fingerprint,
        "8f728bf0833a96b692de4c4409a87527de6b2958e67fc1266889760bc400741b"
    );
}

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
    assert!(report.kinds.len() >= 20, "{:?}", report.kinds);
    assert_eq!(report.kinds.values().sum::<u64>(), 2918);
    assert!(report.sizes.max > 80_000, "the 792-tag follow list is the largest");
}

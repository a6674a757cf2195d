//! The generator's calibration bound against the real corpus: every kind
//! with at least 30 real events has its median and p90 JSON size, median tag
//! count, zstd and deflate ratios within 10 % of the real events, or a
//! stated reason (`corpus::calibrate::EXPLAINED`), on the default corpus
//! (seed 1, 10,000 events, as `binostr corpus calibrate` runs it).

use binostr::bench::sizes::AloneCompressor;
use binostr::corpus::audit::AuditOptions;
use binostr::corpus::calibrate::{
    BOUND_MIN_REAL, EXPLAINED, Verdict, calibrate, render_bound, render_table, unexplained,
};
use binostr::corpus::source::corpus_dir_or_skip;
use binostr::corpus::{audit_real, generate};

#[test]
fn generated_kinds_are_within_the_bound_or_explained() {
    let test = "generated_kinds_are_within_the_bound_or_explained";
    let Some(dir) = corpus_dir_or_skip(test) else {
        return;
    };
    let mut real = Vec::new();
    audit_real(Some(&dir), &AuditOptions::default(), |e| real.push(e)).unwrap();
    let generated = generate::generate(1, 10_000);
    let mut compressor = AloneCompressor::new().unwrap();
    let rows = calibrate(&generated, &real, |json| compressor.compress(json)).unwrap();
    let report = format!("{}{}", render_table(&rows), render_bound(&rows));

    assert_eq!(unexplained(&rows), Vec::<u16>::new(), "\n{report}");
    let bounded: Vec<u16> = rows
        .iter()
        .filter(|r| r.real.count >= BOUND_MIN_REAL)
        .map(|r| r.kind)
        .collect();
    assert!(bounded.len() >= 10, "{bounded:?}\n{report}");
    // Every stated reason is still needed: its kind is bounded and misses.
    for (kind, _) in EXPLAINED {
        let row = rows.iter().find(|r| r.kind == kind);
        assert!(
            row.is_some_and(|r| matches!(r.bound, Verdict::Explained { .. })),
            "kind {kind} has a reason but does not need one\n{report}"
        );
    }
    // The kinds that pass are generated: their ratios are real compressions.
    for r in rows.iter().filter(|r| r.bound == Verdict::Pass) {
        let zstd = r.generated.zstd_ratio.unwrap();
        assert!(
            zstd > 0.0 && zstd < 1.0,
            "kind {}: {zstd}\n{report}",
            r.kind
        );
    }
}

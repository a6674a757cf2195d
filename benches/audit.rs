//! Audit throughput in events/s on one thread and on all cores.
//!
//! Run with `cargo bench --bench audit`; Criterion prints elements/s for
//! `audit/threads=1` and `audit/threads=N` measured in the same run.

use std::hint::black_box;
use std::io::Cursor;

use binostr::corpus::audit::{AuditOptions, Input, audit};
use binostr::corpus::generate;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const EVENTS: usize = 2_000;
const SEED: u64 = 1;

fn bench_audit(c: &mut Criterion) {
    let events = generate::generate(SEED, EVENTS);
    let mut jsonl = Vec::new();
    binostr::files::write_jsonl(&events, &mut jsonl).expect("in-memory write");
    let run = |jsonl: &[u8]| {
        let input = Input {
            label: "bench".into(),
            reader: Box::new(Cursor::new(jsonl.to_vec())),
            size_hint: None,
        };
        audit(vec![input], &AuditOptions::default(), |e| {
            black_box(e);
        })
        .expect("in-memory audit")
    };
    let check = run(&jsonl);
    assert_eq!(
        check.accepted, EVENTS as u64,
        "the bench corpus must audit clean"
    );

    let mut group = c.benchmark_group("audit");
    group.throughput(Throughput::Elements(EVENTS as u64));
    group.sample_size(10);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    for threads in [1, cores] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool");
        group.bench_function(format!("threads={threads}"), |b| {
            b.iter(|| pool.install(|| run(black_box(&jsonl))))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_audit);
criterion_main!(benches);

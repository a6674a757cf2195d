//! Every workload on every enabled profile (subset `all`), from the same
//! definitions the campaign uses (`binostr::bench::workload`). Round trips
//! are asserted before timing. `cargo bench --bench workloads [FILTER]`;
//! set `BINOSTR_BENCH_EVENTS` to change the corpus size (default 1000).
//! For recorded, comparable numbers use `binostr campaign`.

use binostr::bench::workload::{Fixture, Subset, plan, split_subsets};
use binostr::campaign::ingest_threads;
use binostr::codec::{Limits, Profile};
use binostr::corpus::generate;
use binostr::profiles;
use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};

fn bench_workloads(c: &mut Criterion) {
    let count = std::env::var("BINOSTR_BENCH_EVENTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000);
    let enabled: Vec<&'static Profile> = profiles::enabled().collect();
    let fixture = Fixture::prepare(generate::generate(1, count), &enabled, Limits::default())
        .expect("every profile round-trips the generated corpus");
    let (subsets, _) = split_subsets(&fixture.events, &[Subset::All]);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    for key in plan(&enabled, &subsets, &ingest_threads(cores)) {
        let mut routine = fixture.routine(&key);
        let mut group = c.benchmark_group(format!("{}/{}", key.workload, key.profile));
        group.throughput(Throughput::Elements(routine.events_per_iter));
        group.sampling_mode(SamplingMode::Flat);
        group.bench_function(format!("{}t", key.threads), |b| {
            b.iter_custom(|iters| (routine.run)(iters))
        });
        group.finish();
    }
}

criterion_group!(benches, bench_workloads);
criterion_main!(benches);

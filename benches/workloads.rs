//! Every workload on every enabled profile (subset `all`; the WebSocket
//! loop on subset `mix`), from the same
//! definitions the campaign uses (`binostr::bench::group`). Round trips are
//! asserted before timing; one iteration is one pass over the same
//! sequence for every profile. `cargo bench --bench workloads [FILTER]`;
//! set `BINOSTR_BENCH_EVENTS` to change the corpus size (default 1000).
//! These are unpaired; for recorded, paired numbers use `binostr campaign`.

use binostr::bench::fixture::Fixture;
use binostr::bench::fixture::representable;
use binostr::bench::group::{Budget, plan, sequence};
use binostr::bench::workload::{Subset, split_subsets};
use binostr::campaign::ingest_threads;
use binostr::codec::{Limits, Profile};
use binostr::corpus::generate;
use binostr::profiles;
use binostr_records::Mix;
use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};

fn bench_workloads(c: &mut Criterion) {
    let count = std::env::var("BINOSTR_BENCH_EVENTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000);
    let enabled: Vec<&'static Profile> = profiles::enabled().collect();
    // As a campaign does: events some enabled profile cannot represent are
    // measured by none.
    let (events, refused) = representable(generate::generate(1, count), &enabled);
    for (e, profile, reason) in &refused {
        eprintln!(
            "not measured: event {} ({profile}: {reason})",
            binostr::model::hex::encode(&e.id)
        );
    }
    let fixture = Fixture::prepare(events, &enabled, Limits::default(), None)
        .expect("every profile round-trips the representable generated events");
    let mix = Mix::bigbrotr();
    let (subsets, _) = split_subsets(&fixture.events, &[Subset::All, Subset::Mix], &mix);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let whole = Budget {
        events: count,
        bytes: usize::MAX,
    };
    for group in plan(&enabled, &subsets, &ingest_threads(cores)) {
        let seq = sequence(
            &fixture.events,
            &fixture.json_len,
            group.subset,
            whole,
            1,
            &mix,
        );
        for key in &group.members {
            let mut pass = fixture.pass(key, &seq.indices);
            let mut g = c.benchmark_group(format!("{}/{}", key.workload, key.profile));
            g.throughput(Throughput::Elements(pass.events));
            g.sampling_mode(SamplingMode::Flat);
            g.bench_function(format!("{}t", key.threads), |b| {
                b.iter_custom(|iters| (0..iters).map(|_| (pass.run)()).sum())
            });
            g.finish();
        }
    }
}

criterion_group!(benches, bench_workloads);
criterion_main!(benches);

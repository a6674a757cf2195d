//! Side measurements, each meant to run in its own process so that none
//! skews the timings: per-event latency percentiles, peak RSS and
//! allocation counts (the counting allocator lives in the
//! `binostr-alloc-probe` binary, never in the timing process).

use std::hint::black_box;
use std::time::Instant;

use crate::bench::fixture::Fixture;
use crate::bench::pass::validate_record;
use crate::bench::workload::Workload;
use crate::codec::{Codec, Limits};
use crate::corpus::calibrate::percentile;
use crate::model::Event;

/// Workloads the probes measure.
pub const PROBED: [Workload; 2] = [Workload::Decode, Workload::Validate];

/// One [`PROBED`] workload on one record: `validate`, else `decode`.
fn run_probed(workload: Workload, codec: &dyn Codec, record: &[u8], limits: &Limits) {
    if workload == Workload::Validate {
        black_box(validate_record(codec, black_box(record), limits));
    } else {
        black_box(codec.decode(black_box(record), limits).ok());
    }
}

/// Latency percentiles of one (workload, profile), in ns per event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LatencyRow {
    /// The workload whose single-event latency is measured.
    pub workload: Workload,
    /// Profile id.
    pub profile: &'static str,
    /// Events timed.
    pub events: usize,
    /// Median cost of an empty timed region, subtracted from every sample.
    pub timer_overhead_ns: u64,
    /// Median.
    pub p50_ns: u64,
    /// 90th percentile.
    pub p90_ns: u64,
    /// 99th percentile.
    pub p99_ns: u64,
    /// 99.9th percentile.
    pub p999_ns: u64,
    /// Slowest event.
    pub max_ns: u64,
}

/// The median cost of timing an empty region with `Instant`.
pub fn timer_overhead_ns() -> u64 {
    let mut samples: Vec<usize> = (0..20_001)
        .map(|_| {
            let t = Instant::now();
            black_box(());
            t.elapsed().as_nanos() as usize
        })
        .collect();
    samples.sort_unstable();
    percentile(&samples, 50.0) as u64
}

/// Times each of the first `max_events` events alone (nearest-rank
/// percentiles, timer overhead subtracted).
pub fn latency(
    fixture: &Fixture,
    profile: &str,
    workload: Workload,
    max_events: usize,
    overhead_ns: u64,
) -> Option<LatencyRow> {
    let p = fixture.records(profile)?;
    let codec = p.profile.codec;
    let limits = fixture.limits;
    let n = max_events.min(p.records.len());
    let mut samples: Vec<usize> = p.records[..n]
        .iter()
        .map(|r| {
            let t = Instant::now();
            run_probed(workload, codec, r, &limits);
            (t.elapsed().as_nanos() as u64).saturating_sub(overhead_ns) as usize
        })
        .collect();
    samples.sort_unstable();
    let pct = |q| percentile(&samples, q) as u64;
    Some(LatencyRow {
        workload,
        profile: p.profile.id,
        events: n,
        timer_overhead_ns: overhead_ns,
        p50_ns: pct(50.0),
        p90_ns: pct(90.0),
        p99_ns: pct(99.0),
        p999_ns: pct(99.9),
        max_ns: samples.last().copied().unwrap_or(0) as u64,
    })
}

/// Runs `workload` over every record of `profile`, keeping every decoded
/// event (as an ingesting relay would), and returns them.
///
/// # Panics
/// If a prepared record fails (the fixture checked them all).
pub fn ingest_all(fixture: &Fixture, profile: &str, workload: Workload) -> Option<Vec<Event>> {
    let p = fixture.records(profile)?;
    let limits = fixture.limits;
    Some(
        p.records
            .iter()
            .map(|r| {
                let e = p.profile.codec.decode(r, &limits).expect("prepared");
                if workload == Workload::Validate {
                    crate::validate::check_limits(&e, &limits).expect("prepared");
                    crate::validate::verify_event(&e).expect("prepared");
                }
                e
            })
            .collect(),
    )
}

/// This process's peak resident set (VmHWM) in KiB, where `/proc` has it.
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// Allocation totals of one (workload, profile) over every record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AllocRow {
    /// The workload whose allocations are counted.
    pub workload: Workload,
    /// Profile id.
    pub profile: &'static str,
    /// Events processed.
    pub events: usize,
    /// Allocations and reallocations.
    pub allocs: u64,
    /// Bytes requested by them.
    pub alloc_bytes: u64,
}

/// Runs its argument and returns (allocations, bytes) counted by the
/// process's global allocator.
pub type AllocCounter<'a> = &'a dyn Fn(&mut dyn FnMut()) -> (u64, u64);

/// Counts allocations of [`PROBED`] workloads for every profile of the
/// fixture; `measure` runs its argument and returns (allocations, bytes)
/// counted by the process's global allocator.
pub fn alloc_rows(fixture: &Fixture, measure: AllocCounter<'_>) -> Vec<AllocRow> {
    let limits = fixture.limits;
    let mut rows = Vec::new();
    for p in &fixture.profiles {
        for workload in PROBED {
            let codec = p.profile.codec;
            let (allocs, alloc_bytes) = measure(&mut || {
                for r in &p.records {
                    run_probed(workload, codec, r, &limits);
                }
            });
            rows.push(AllocRow {
                workload,
                profile: p.profile.id,
                events: p.records.len(),
                allocs,
                alloc_bytes,
            });
        }
    }
    rows
}

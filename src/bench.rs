//! Measurements over the registry: the workloads (shared by `cargo bench`
//! and the campaign), encoded sizes, and the side probes (allocations, peak
//! RSS, per-event latency).

pub mod filtering;
pub mod fixture;
pub mod group;
pub mod pass;
pub mod probe;
pub mod sizes;
pub mod timing;
pub mod window;
pub mod workload;

//! Measurements over the registry: encoded sizes now; workloads, allocation
//! and latency probes as the benchmark grows.

pub mod sizes;

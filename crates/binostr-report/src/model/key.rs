//! The benchmark key every row and paired ratio is filed under.

/// The benchmark key columns of `samples.csv`.
pub const KEY: [&str; 4] = ["workload", "profile", "subset", "threads"];

/// A benchmark key: (host, workload, profile, subset, threads).
pub type Key = (String, String, String, String, i64);

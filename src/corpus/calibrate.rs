//! Per-kind comparison of a generated corpus against the real one.

//! The `binostr` command line.
#![forbid(unsafe_code)]

fn main() {}

//! The `binostr` command line; see [`binostr::cli`].
#![forbid(unsafe_code)]

fn main() {
    std::process::exit(binostr::cli::main());
}

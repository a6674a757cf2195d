//! The `binostr` command line (clap). Errors are one line on stderr and a
//! non-zero exit, never a panic.
//!
//! `args` holds what clap parses, `dispatch` turns it into library calls
//! (one file per command group under `dispatch/`), and `render` prints the
//! tables meant for people.

use clap::Parser;

mod args;
mod dispatch;
mod render;

pub use args::Cli;

/// Exit status for undecodable input (EX_DATAERR).
const EXIT_BAD_DATA: i32 = 65;

/// An error that carries its own exit status.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
struct ExitError {
    message: String,
    code: i32,
}

/// Parses arguments, runs the command and returns the process exit code.
pub fn main() -> i32 {
    let cli = Cli::parse();
    match dispatch::run(cli) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("binostr: {e:#}");
            e.downcast_ref::<ExitError>().map_or(1, |x| x.code)
        }
    }
}

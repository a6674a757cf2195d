//! Running hostile cases: subjects, child processes, classification and
//! the report.
//!
//! Subjects are every registry profile (ours; any failure fails the run) and
//! the upstream libraries of [`LIBRARIES`] as users call them (findings,
//! reported but never failing the run).
//!
//! Isolation. Length and nesting bombs run one per child process (this
//! binary re-executed as the hidden `binostr torture child`), under an
//! `RLIMIT_AS` address-space limit and a wall-clock timeout; the parent
//! samples the child's `VmHWM` from `/proc/<pid>/status` while it waits and
//! the child reports its own at the end. Everything else runs in-process
//! inside batch children under `catch_unwind`, reporting counts every few
//! thousand cases; if a batch child dies or stalls, the window since its
//! last report is replayed one case per report to find the culprit, which
//! is recorded (abort, signal, OOM, timeout) before the batch resumes after
//! it. So no outcome can take the runner down.
//!
//! Outcomes: `clean-error`; `accepted` (ours: the decoded event re-encodes
//! with the same profile and decodes back to the same event, a round trip;
//! not BIP-340 validation, which mutated ids would fail by design;
//! libraries: the value decoded); `accepted-lossy` (decoded, but no round
//! trip); `accepted-noncanonical` (a deterministic profile whose
//! re-encoding differs from the input bytes); `panic-contained` (an error returned after a panic was caught
//! inside the decoder, as the flexbuffers profile does); and the failures
//! `panic`, `stack-overflow`, `signal`, `timeout`, `oom`. For our profiles
//! a `bad-utf8` case that is accepted in any way (`accepted`,
//! `accepted-noncanonical`, `accepted-lossy`) is a failure too: the input
//! holds invalid UTF-8, so decoding it means a string was changed or not
//! checked ([`Outcome::fails_ours`]).
//!
//! Memory bound: an isolated case fails the bound when its peak RSS exceeds
//! 64 MiB + 4 × its input size; that counts as a failure for our profiles.
//!
//! `subjects` decides one case in-process, `child` is the hidden child
//! process, `supervision` runs and watches the children, and `report` holds
//! the outcome tables and their Markdown.

mod child;
mod report;
mod subjects;
mod supervision;

pub use child::child;
pub use report::{
    ClassCounts, Failing, Finding, Outcome, RunReport, SubjectResult, render_markdown,
};
pub use subjects::{LIBRARIES, Library, LibraryError, Subject, bomb_limits, subject, subjects};
pub use supervision::{RunOptions, run};

//! Instructions per event under Valgrind's callgrind: the deterministic
//! companion of the timings (`run-K/instructions.csv`, `docs/RESULTS.md`).
//!
//! Instruction counts repeat for the same binary, input and environment
//! whatever else the machine does, so they can be compared between runs and
//! hosts where wall time cannot. They are not time: caches, branch
//! prediction and SIMD width make the two diverge.
//!
//! Method. The benchmarks counted are the members of the `encode`, `decode`,
//! `validate` and `filter` groups of [`group::plan`] on subset `all`
//! ([`keys`]): every enabled profile's `encode`, `copy`, `decode`,
//! `decode+id`, `validate` and `filter-*`, and the `clone`, `id+verify` and
//! `filter-event` reference rows. A `filter` key scans the campaign's
//! `filters.json` (drawn from the whole corpus, as in the timings). Each is one process,
//! `valgrind --tool=callgrind --collect-atstart=no
//! --toggle-collect=`[`FUNCTION`]` binostr campaign-child ... instructions`,
//! over exactly the events of subset `all`'s sequence (the parent writes
//! them to a file once, so the child parses no more than it counts). The
//! child prepares a fixture of that one profile (round trips asserted; ids
//! and signatures are not verified again, see
//! [`Fixture::prepare_verified`]), runs one warm-up pass (lazy statics,
//! buffer and allocator growth), then [`PASSES`] passes inside
//! [`counted_passes`], the only code callgrind counts. The parent reads the
//! total `Ir` of the output file (its `totals:` line); instructions per event
//! are `instructions / (passes * events)`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};

use crate::bench::fixture::Fixture;
use crate::bench::fixture::Pass;
use crate::bench::group::{self, GroupKind};
use crate::bench::workload::{BenchKey, Subset};
use crate::codec::Profile;

/// The function whose calls callgrind counts (as valgrind demangles it).
pub const FUNCTION: &str = "binostr::campaign::instructions::counted_passes";

/// Passes counted after the warm-up pass.
pub const PASSES: u64 = 1;

/// `observed.instructions` when Valgrind is missing.
pub const SKIPPED: &str = "skipped: valgrind not found";

/// The benchmarks counted: the members of the encode, decode, validate and
/// filter groups of [`group::plan`] on subset `all`, in plan order.
pub fn keys(profiles: &[&'static Profile]) -> Vec<BenchKey> {
    group::plan(profiles, &[Subset::All], &[1])
        .into_iter()
        .filter(|g| {
            matches!(
                g.kind,
                GroupKind::Encode | GroupKind::Decode | GroupKind::Validate | GroupKind::Filter
            )
        })
        .flat_map(|g| g.members)
        .collect()
}

/// Runs one warm-up pass of `pass`, then `passes` counted ones; returns
/// the events per pass.
pub fn count(pass: &mut Pass<'_>, passes: u64) -> u64 {
    std::hint::black_box((pass.run)());
    counted_passes(pass, passes);
    pass.events
}

/// The measured region: `passes` passes, nothing else.
#[inline(never)]
pub fn counted_passes(pass: &mut Pass<'_>, passes: u64) {
    for _ in 0..passes {
        std::hint::black_box((pass.run)());
    }
}

/// The fixture of one benchmark: only its profile (none for the reference
/// rows), over events already verified by the campaign.
pub fn fixture(
    events: Vec<crate::model::Event>,
    profile: Option<&'static Profile>,
    filters: Vec<crate::filter::Filter>,
) -> Result<Fixture> {
    Ok(Fixture::prepare_verified(
        events,
        &profile.into_iter().collect::<Vec<_>>(),
        crate::codec::Limits::default(),
        Some(filters),
    )?)
}

/// A Valgrind installation.
#[derive(Clone, Debug)]
pub struct Valgrind {
    /// The `valgrind` executable.
    pub path: PathBuf,
    /// `valgrind --version`, e.g. `valgrind-3.19.0`.
    pub version: String,
}

impl Valgrind {
    /// `valgrind` on `PATH`, if it runs.
    pub fn detect() -> Option<Valgrind> {
        let path = std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|d| d.join("valgrind"))
                .find(|p| p.is_file())
        })?;
        let out = Command::new(&path)
            .arg("--version")
            .stdin(Stdio::null())
            .output()
            .ok()
            .filter(|o| o.status.success())?;
        let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
        Some(Valgrind { path, version })
    }

    /// `valgrind --tool=callgrind` counting only [`FUNCTION`], writing its
    /// profile to `out_file`, with an empty environment (the same in every
    /// run); the program and its arguments follow.
    pub fn callgrind(&self, out_file: &Path) -> Command {
        let mut cmd = Command::new(&self.path);
        cmd.env_clear()
            .arg("--tool=callgrind")
            .arg("-q")
            .arg(format!("--callgrind-out-file={}", out_file.display()))
            .arg("--read-inline-info=no")
            .arg("--collect-atstart=no")
            .arg(format!("--toggle-collect={FUNCTION}"));
        cmd
    }
}

/// The total `Ir` of a callgrind output file (its `totals:` line, else its
/// `summary:` line).
pub fn total_ir(text: &str) -> Result<u64> {
    let line = |prefix: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(prefix))
            .map(str::trim)
    };
    let Some(value) = line("totals:").or_else(|| line("summary:")) else {
        bail!("no `totals:` or `summary:` line in the callgrind output");
    };
    let ir = value
        .split_whitespace()
        .next()
        .context("empty totals line")?;
    ir.parse()
        .with_context(|| format!("`{value}` is not an instruction count"))
}

/// One row of `instructions.csv`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The benchmark.
    pub key: BenchKey,
    /// Events per pass.
    pub events: u64,
    /// Passes counted.
    pub passes: u64,
    /// Instructions over all counted passes.
    pub instructions: u64,
}

/// `instructions.csv` of `rows`.
pub fn csv(rows: &[Row]) -> String {
    let mut csv = binostr_records::csv::INSTRUCTIONS.header_line();
    for r in rows {
        csv.push_str(&format!(
            "{},{},{},{},{},{}\n",
            r.key.workload,
            r.key.profile,
            r.key.subset.name(),
            r.events,
            r.passes,
            r.instructions
        ));
    }
    csv
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::fixture::REFERENCE;
    use crate::bench::workload::Workload;
    use crate::profiles;

    #[test]
    fn keys_are_the_encode_decode_validate_and_filter_members() {
        let enabled: Vec<&'static Profile> = profiles::enabled().collect();
        let keys = keys(&enabled);
        assert_eq!(keys.len(), 6 * enabled.len() + 3);
        for w in [Workload::Clone, Workload::IdVerify, Workload::FilterEvent] {
            assert_eq!(
                keys.iter().filter(|k| k.workload == w).count(),
                1,
                "{w} once"
            );
            assert!(
                keys.iter()
                    .any(|k| k.workload == w && k.profile == REFERENCE)
            );
        }
        assert!(
            keys.iter()
                .all(|k| k.subset == Subset::All && k.threads == 1)
        );
    }

    #[test]
    fn totals_line_is_read() {
        let out = "events: Ir\nsummary: 1234\n\nfn=x\n0 3\ntotals: 1234\n";
        assert_eq!(total_ir(out).unwrap(), 1234);
        assert_eq!(total_ir("summary: 7\n").unwrap(), 7);
        assert!(total_ir("events: Ir\n").is_err());
        assert!(total_ir("totals: x\n").is_err());
    }
}

//! Finding and reading campaign run records (`docs/RESULTS.md`).
//!
//! A run is a complete `results/campaigns/<label>/run-K/` directory;
//! `run-K.tmp/` (killed or unfinished) is never read. Every CSV is checked
//! against its documented header before Polars scans it with a fixed schema,
//! and each scanned frame gains `host` (from `contract.json`) and `run`
//! (`<label>/run-K`) columns.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use binostr_records::csv::{ColumnType, Layout};
use binostr_records::{ContractCorpus, RunRecord};
use polars::prelude::*;

pub use binostr_records::csv::{
    ALLOC, FOLLOW_LISTS, INSTRUCTIONS, LATENCY, RATIOS, ROUNDS, RSS, SAMPLES, SIZES, TRANSPORT,
};
pub use binostr_records::label::campaign_dir;

/// One complete run directory and the parts of its contract we report.
#[derive(Clone, Debug)]
pub struct Run {
    /// The campaign label the run belongs to.
    pub label: String,
    /// K in `run-K`.
    pub k: u32,
    /// The run directory.
    pub dir: PathBuf,
    /// `contract.host.id`.
    pub host: String,
    /// `contract.git.commit`.
    pub commit: String,
    /// `contract.git.dirty`.
    pub dirty: bool,
    /// `contract.settings`.
    pub settings: String,
    /// `contract.corpus`.
    pub corpus: ContractCorpus,
    /// `observed.started` (RFC 3339), when recorded.
    pub started: Option<String>,
    /// `observed.finished` (RFC 3339), when recorded.
    pub finished: Option<String>,
    /// `observed.instructions`: the valgrind version that counted, or why
    /// none did.
    pub instructions: Option<String>,
}

impl Run {
    /// The run's id in the `run` column: `<label>/run-K`.
    pub fn id(&self) -> String {
        format!("{}/run-{}", self.label, self.k)
    }
}

/// Every complete run of `labels`, in label order then by K. Skipped
/// `run-K.tmp` directories are reported on stderr.
pub fn discover(root: &Path, labels: &[String]) -> Result<Vec<Run>> {
    let mut runs = Vec::new();
    for label in labels {
        let dir = campaign_dir(root, label);
        let entries = fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))?;
        let mut found = Vec::new();
        for entry in entries {
            let entry = entry.with_context(|| format!("reading {}", dir.display()))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(rest) = name.strip_prefix("run-") else {
                continue;
            };
            if rest.ends_with(".tmp") {
                eprintln!(
                    "binostr-report: skipping incomplete {}",
                    entry.path().display()
                );
                continue;
            }
            let Ok(k) = rest.parse::<u32>() else {
                continue;
            };
            if entry.file_type()?.is_dir() {
                found.push((k, entry.path()));
            }
        }
        if found.is_empty() {
            bail!("no complete run-K directory under {}", dir.display());
        }
        found.sort();
        for (k, path) in found {
            runs.push(read_run(label, k, path)?);
        }
    }
    one_valgrind_per_host(&runs)?;
    Ok(runs)
}

/// Instruction counts of one host are compared across its runs, so they must
/// come from one valgrind version.
fn one_valgrind_per_host(runs: &[Run]) -> Result<()> {
    let mut first: BTreeMap<&str, (&Run, &str)> = BTreeMap::new();
    for run in runs {
        let Some(version) = run
            .instructions
            .as_deref()
            .filter(|v| v.starts_with("valgrind-"))
        else {
            continue;
        };
        let (a, va) = *first.entry(&run.host).or_insert((run, version));
        if va != version {
            bail!(
                "{} counted instructions with {va}, {} with {version}: counts of different valgrind versions are not comparable; aggregate them apart",
                a.id(),
                run.id()
            );
        }
    }
    Ok(())
}

fn read_run(label: &str, k: u32, dir: PathBuf) -> Result<Run> {
    let path = dir.join(binostr_records::files::CONTRACT);
    let text = fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let file: RunRecord =
        serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    if file.schema != binostr_records::SCHEMA {
        bail!(
            "{}: schema {} (this reader knows {})",
            path.display(),
            file.schema,
            binostr_records::SCHEMA
        );
    }
    let c = file.contract;
    Ok(Run {
        label: label.to_owned(),
        k,
        dir,
        host: c.host.id,
        commit: c.git.commit,
        dirty: c.git.dirty,
        settings: c.settings,
        corpus: c.corpus,
        started: Some(file.observed.started),
        finished: Some(file.observed.finished),
        instructions: file.observed.instructions,
    })
}

/// Reading a run-record CSV of a [`Layout`] (`binostr_records::csv`).
pub trait Scan {
    /// The Polars schema of the layout's column types.
    fn schema(&self) -> SchemaRef;

    /// This table from every run that has it, concatenated, with `host` and
    /// `run` columns. `None` when no run has the file; a run without it is
    /// reported on stderr (the campaign writes side measurements only where
    /// they apply). A header that differs from the layout is an error.
    fn scan(&self, runs: &[Run]) -> Result<Option<LazyFrame>>;

    /// Like [`Scan::scan`], but a run without the file is an error.
    fn scan_required(&self, runs: &[Run]) -> Result<LazyFrame>;

    /// Like [`Scan::scan`], but silent about runs without the file (an
    /// optional record).
    fn scan_optional(&self, runs: &[Run]) -> Result<Option<LazyFrame>>;

    /// One file of this table, its header checked against the layout.
    fn scan_file(&self, path: &Path) -> Result<LazyFrame>;
}

/// The Polars type of a column type.
pub fn dtype(ty: ColumnType) -> DataType {
    match ty {
        ColumnType::Str => DataType::String,
        ColumnType::Int => DataType::Int64,
        ColumnType::Real => DataType::Float64,
    }
}

impl Scan for Layout {
    fn schema(&self) -> SchemaRef {
        let fields = self
            .columns
            .iter()
            .map(|c| Field::new(c.name.into(), dtype(c.ty)));
        Arc::new(Schema::from_iter(fields))
    }

    fn scan(&self, runs: &[Run]) -> Result<Option<LazyFrame>> {
        scan_with(self, runs, |path| {
            eprintln!("binostr-report: warning: {} is missing", path.display());
            Ok(())
        })
    }

    fn scan_required(&self, runs: &[Run]) -> Result<LazyFrame> {
        scan_with(self, runs, |path| bail!("{} is missing", path.display()))?
            .ok_or_else(|| anyhow::anyhow!("no run has {}", self.file))
    }

    fn scan_optional(&self, runs: &[Run]) -> Result<Option<LazyFrame>> {
        scan_with(self, runs, |_| Ok(()))
    }

    fn scan_file(&self, path: &Path) -> Result<LazyFrame> {
        // A superseded layout's file gains its missing columns as nulls.
        let old = binostr_records::csv::superseded(self)
            .find(|old| header_of(path).is_ok_and(|h| h == old.header()));
        let Some(old) = old else {
            check_header(path, &self.header())?;
            return read_csv(path, self.schema());
        };
        let missing: Vec<Expr> = self
            .columns
            .iter()
            .filter(|c| !old.columns.contains(c))
            .map(|c| lit(NULL).cast(dtype(c.ty)).alias(c.name))
            .collect();
        Ok(read_csv(path, old.schema())?.with_columns(missing))
    }
}

fn read_csv(path: &Path, schema: SchemaRef) -> Result<LazyFrame> {
    LazyCsvReader::new(PlRefPath::try_from_path(path)?)
        .with_has_header(true)
        .with_schema(Some(schema))
        .finish()
        .map_err(|e| anyhow::anyhow!("scanning {}: {e}", path.display()))
}

fn header_of(path: &Path) -> Result<String> {
    let text = fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    Ok(text
        .lines()
        .next()
        .unwrap_or("")
        .trim_end_matches('\r')
        .to_owned())
}

fn scan_with(
    layout: &Layout,
    runs: &[Run],
    mut missing: impl FnMut(&Path) -> Result<()>,
) -> Result<Option<LazyFrame>> {
    let mut frames = Vec::new();
    for run in runs {
        let path = run.dir.join(layout.file);
        if !path.exists() {
            missing(&path)?;
            continue;
        }
        frames.push(layout.scan_file(&path)?.with_columns([
            lit(run.host.as_str()).alias("host"),
            lit(run.id()).alias("run"),
        ]));
    }
    if frames.is_empty() {
        return Ok(None);
    }
    Ok(Some(concat(frames, UnionArgs::default())?))
}

fn check_header(path: &Path, expected: &str) -> Result<()> {
    let first = header_of(path)?;
    if first != expected {
        bail!(
            "{}: header at byte 0 is {first:?}, expected {expected:?}",
            path.display()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(k: u32, host: &str, instructions: Option<&str>) -> Run {
        Run {
            label: "l".into(),
            k,
            dir: PathBuf::new(),
            host: host.into(),
            commit: String::new(),
            dirty: false,
            settings: "quick".into(),
            corpus: ContractCorpus {
                fingerprint: "f".into(),
                count: 1,
                seed: Some(1),
            },
            started: None,
            finished: None,
            instructions: instructions.map(str::to_owned),
        }
    }

    #[test]
    fn one_host_counts_with_one_valgrind() {
        let same = [
            run(1, "h", Some("valgrind-3.19.0")),
            run(2, "h", Some("valgrind-3.19.0")),
            run(3, "h", Some("skipped: valgrind not found")),
            run(1, "other", Some("valgrind-3.25.1")),
        ];
        assert!(one_valgrind_per_host(&same).is_ok());
        let mixed = [
            run(1, "h", Some("valgrind-3.19.0")),
            run(2, "h", Some("valgrind-3.25.1")),
        ];
        let e = one_valgrind_per_host(&mixed).unwrap_err().to_string();
        assert!(
            e.contains("l/run-1") && e.contains("valgrind-3.25.1"),
            "{e}"
        );
    }
}

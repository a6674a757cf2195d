//! Side measurements (sizes, latency, allocations, RSS, transport) as medians over
//! runs, and the inputs from outside the campaign: the robustness report and
//! the interop timings.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use anyhow::{Context, Result, bail};
use polars::prelude::*;
use serde::Deserialize;

use binostr_records::csv::Layout;

use crate::read::frame::{f64s, strs};
use crate::read::records::{self, Run, Scan as _};

/// The host and key cells of one group, and its value medians.
pub type KeyedValues = (Vec<String>, Vec<f64>);

/// Text key columns and per-run medians of the value columns of `table`, one
/// row per host and key, sorted by host then key; `None` when no run has it.
pub fn medians(
    table: &Layout,
    runs: &[Run],
    keys: &[&str],
    values: &[&str],
) -> Result<Option<Vec<KeyedValues>>> {
    let Some(lf) = table.scan(runs)? else {
        return Ok(None);
    };
    let mut group = vec![col("host")];
    group.extend(keys.iter().map(|k| col(*k)));
    let mut sort: Vec<&str> = vec!["host"];
    sort.extend(keys);
    let df = lf
        .group_by(group)
        .agg(
            values
                .iter()
                .map(|v| col(*v).cast(DataType::Float64).median())
                .collect::<Vec<_>>(),
        )
        .sort(sort.clone(), SortMultipleOptions::default())
        .collect()?;
    let key_cols: Vec<Vec<String>> = sort.iter().map(|k| strs(&df, k)).collect::<Result<_>>()?;
    let value_cols: Vec<Vec<f64>> = values.iter().map(|v| f64s(&df, v)).collect::<Result<_>>()?;
    Ok(Some(
        (0..df.height())
            .map(|i| {
                (
                    key_cols.iter().map(|c| c[i].clone()).collect(),
                    value_cols.iter().map(|c| c[i]).collect(),
                )
            })
            .collect(),
    ))
}

/// Encoded sizes of one profile and subset on one host (medians over runs).
#[derive(Clone, Debug)]
pub struct Sizes {
    /// Host id.
    pub host: String,
    /// Profile id.
    pub profile: String,
    /// Corpus subset.
    pub subset: String,
    /// Events in the subset.
    pub events: f64,
    /// Bytes: raw, framed, zstd per event, zstd stream, zstd with dictionary.
    pub bytes: [f64; 5],
    /// Permessage-deflate bytes: each framed event alone, and one context
    /// over them; `None` in campaigns whose `sizes.csv` predates them.
    pub deflate: Option<[f64; 2]>,
}

/// Per-event latency percentiles of one workload and profile on one host.
#[derive(Clone, Debug)]
pub struct Latency {
    /// Host id.
    pub host: String,
    /// Workload.
    pub workload: String,
    /// Profile id.
    pub profile: String,
    /// p50, p90, p99, p99.9 and max in ns.
    pub ns: [f64; 5],
}

/// Allocations per event of one workload and profile on one host.
#[derive(Clone, Debug)]
pub struct Alloc {
    /// Host id.
    pub host: String,
    /// Workload.
    pub workload: String,
    /// Profile id.
    pub profile: String,
    /// Allocations per event.
    pub allocs_per_event: f64,
    /// Allocated bytes per event.
    pub bytes_per_event: f64,
}

/// Peak resident set growth of one workload and profile on one host.
#[derive(Clone, Debug)]
pub struct Rss {
    /// Host id.
    pub host: String,
    /// Workload.
    pub workload: String,
    /// Profile id.
    pub profile: String,
    /// `peak_kib - baseline_kib`.
    pub growth_kib: f64,
}

/// All side measurements of a campaign (empty where no run has the file).
#[derive(Clone, Debug, Default)]
pub struct Side {
    /// `sizes.csv`.
    pub sizes: Vec<Sizes>,
    /// `latency.csv`.
    pub latency: Vec<Latency>,
    /// `alloc.csv`.
    pub alloc: Vec<Alloc>,
    /// `rss.csv`.
    pub rss: Vec<Rss>,
    /// `transport.csv`.
    pub transport: Vec<crate::read::transport::Transport>,
}

impl Side {
    /// Reads and aggregates the side measurements of `runs`.
    pub fn read(runs: &[Run]) -> Result<Self> {
        let sizes = read_sizes(runs)?;
        let latency = medians(
            &records::LATENCY,
            runs,
            &["workload", "profile"],
            &["p50_ns", "p90_ns", "p99_ns", "p999_ns", "max_ns"],
        )?
        .unwrap_or_default()
        .into_iter()
        .map(|(k, v)| Latency {
            host: k[0].clone(),
            workload: k[1].clone(),
            profile: k[2].clone(),
            ns: [v[0], v[1], v[2], v[3], v[4]],
        })
        .collect();
        let alloc = medians(
            &records::ALLOC,
            runs,
            &["workload", "profile"],
            &["events", "allocs", "alloc_bytes"],
        )?
        .unwrap_or_default()
        .into_iter()
        .map(|(k, v)| Alloc {
            host: k[0].clone(),
            workload: k[1].clone(),
            profile: k[2].clone(),
            allocs_per_event: v[1] / v[0],
            bytes_per_event: v[2] / v[0],
        })
        .collect();
        let rss = medians(
            &records::RSS,
            runs,
            &["workload", "profile"],
            &["baseline_kib", "peak_kib"],
        )?
        .unwrap_or_default()
        .into_iter()
        .map(|(k, v)| Rss {
            host: k[0].clone(),
            workload: k[1].clone(),
            profile: k[2].clone(),
            growth_kib: v[1] - v[0],
        })
        .collect();
        Ok(Side {
            sizes,
            latency,
            alloc,
            rss,
            transport: crate::read::transport::read(runs)?,
        })
    }
}

/// The value columns of `sizes.csv`.
pub const SIZE_COLUMNS: [&str; 8] = [
    "events",
    "raw_bytes",
    "framed_bytes",
    "zstd_event_bytes",
    "zstd_stream_bytes",
    "zstd_dict_bytes",
    "deflate_event_bytes",
    "deflate_stream_bytes",
];

/// `sizes.csv` of `runs` as medians over runs.
pub fn read_sizes(runs: &[Run]) -> Result<Vec<Sizes>> {
    Ok(
        medians(&records::SIZES, runs, &["profile", "subset"], &SIZE_COLUMNS)?
            .unwrap_or_default()
            .into_iter()
            .map(|(k, v)| Sizes {
                host: k[0].clone(),
                profile: k[1].clone(),
                subset: k[2].clone(),
                events: v[0],
                bytes: [v[1], v[2], v[3], v[4], v[5]],
                deflate: (v[6].is_finite() && v[7].is_finite()).then_some([v[6], v[7]]),
            })
            .collect(),
    )
}

/// Outcomes that count as failures (the rule of `Outcome::is_failure` in
/// `src/torture/run.rs`), besides cases over the memory bound.
pub const FAILING_OUTCOMES: [&str; 5] = ["panic", "stack-overflow", "signal", "timeout", "oom"];

/// `results/robustness/robustness.json`, the parts the paper uses.
#[derive(Clone, Debug, Deserialize)]
pub struct Robustness {
    /// Per subject (our profiles, then library subjects) in report order.
    pub subjects: Vec<Subject>,
}

/// One robustness subject.
#[derive(Clone, Debug, Deserialize)]
pub struct Subject {
    /// Profile id, or `lib:<name>` for an upstream library.
    pub subject: String,
    /// Ours (failures fail the run) or a library.
    pub ours: bool,
    /// Case counts per case class.
    pub classes: BTreeMap<String, ClassCounts>,
}

/// Outcome counts of one case class.
#[derive(Clone, Debug, Deserialize)]
pub struct ClassCounts {
    /// Cases per outcome name.
    pub outcomes: BTreeMap<String, u64>,
    /// Isolated cases over the memory bound (failures).
    #[serde(default)]
    pub over_memory_bound: u64,
}

impl ClassCounts {
    /// All cases of the class.
    pub fn cases(&self) -> u64 {
        self.outcomes.values().sum()
    }

    /// Cases that ended in a clean error.
    pub fn clean(&self) -> u64 {
        self.outcomes.get("clean-error").copied().unwrap_or(0)
    }

    /// Failing cases: failing outcomes plus cases over the memory bound.
    pub fn failures(&self) -> u64 {
        FAILING_OUTCOMES
            .iter()
            .filter_map(|o| self.outcomes.get(*o))
            .sum::<u64>()
            + self.over_memory_bound
    }
}

/// The case classes in the order the torture report lists them.
pub const CASE_CLASSES: [&str; 8] = [
    "truncation",
    "mutation",
    "length-inflation",
    "bad-utf8",
    "fields",
    "non-canonical",
    "length-bomb",
    "nesting-bomb",
];

impl Robustness {
    /// Reads `path`; `None` (with a warning) when it does not exist.
    pub fn read(path: &Path, warnings: &mut Vec<String>) -> Result<Option<Self>> {
        if !path.exists() {
            warnings.push(format!(
                "{} is missing: robustness.csv has only its header",
                path.display()
            ));
            return Ok(None);
        }
        let text =
            fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let r =
            serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
        Ok(Some(r))
    }

    /// The case classes present, known ones in report order, others after.
    pub fn classes(&self) -> Vec<String> {
        let mut out: Vec<String> = CASE_CLASSES.iter().map(|c| (*c).to_owned()).collect();
        for s in &self.subjects {
            for c in s.classes.keys() {
                if !out.contains(c) {
                    out.push(c.clone());
                }
            }
        }
        out.retain(|c| self.subjects.iter().any(|s| s.classes.contains_key(c)));
        out
    }
}

/// One interop timing (`results/interop/<language>.csv`).
#[derive(Clone, Debug)]
pub struct Interop {
    /// Language.
    pub language: String,
    /// Format.
    pub format: String,
    /// Library.
    pub library: String,
    /// Library version.
    pub version: String,
    /// Nanoseconds per event.
    pub ns_per_event: f64,
}

/// Every row of the per-language timing files `dir/<language>.csv` (the
/// `checks-*` and `torture-*` files beside them are not timings), sorted by
/// language, format, library, version; empty (with a warning) when there is
/// none.
pub fn read_interop(dir: &Path, warnings: &mut Vec<String>) -> Result<Vec<Interop>> {
    let mut files: Vec<_> = match fs::read_dir(dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "csv"))
            .filter(|p| {
                p.file_stem()
                    .and_then(|s| s.to_str())
                    .is_some_and(|s| !s.starts_with("checks-") && !s.starts_with("torture-"))
            })
            .collect(),
        Err(_) => Vec::new(),
    };
    if files.is_empty() {
        warnings.push(format!(
            "no interop results ({}/*.csv): interop.csv has only its header",
            dir.display()
        ));
        return Ok(Vec::new());
    }
    files.sort();
    let frames = files
        .iter()
        .map(|p| binostr_records::csv::INTEROP_TIMINGS.scan_file(p))
        .collect::<Result<Vec<_>>>()?;
    let df = concat(frames, UnionArgs::default())?
        .sort(
            ["language", "format", "library", "version"],
            SortMultipleOptions::default(),
        )
        .collect()?;
    let language = strs(&df, "language")?;
    let format = strs(&df, "format")?;
    let library = strs(&df, "library")?;
    let version = strs(&df, "version")?;
    let ns = f64s(&df, "ns_per_event")?;
    Ok((0..df.height())
        .map(|i| Interop {
            language: language[i].clone(),
            format: format[i].clone(),
            library: library[i].clone(),
            version: version[i].clone(),
            ns_per_event: ns[i],
        })
        .collect())
}

/// `results/speed/side-by-side.jsonl`: one row per comparison of our codec,
/// before and after the performance work, with another implementation, timed
/// side by side on the same events (`docs/performance.md`).
pub const REFERENCE_FILE: &str = "results/speed/side-by-side.jsonl";

/// One side-by-side comparison.
#[derive(Clone, Debug, Deserialize)]
pub struct Reference {
    /// `encode` or `decode`.
    pub mode: String,
    /// Our profile, or a benchmark-only variant (`protobuf/no-scan`).
    pub ours: String,
    /// The reference's pass as `MODE:PROFILE` (`decode+utf8:` adds the UTF-8
    /// check that our decoders make).
    #[serde(rename = "ref")]
    pub reference: String,
    /// Interleaved rounds of fresh processes.
    pub rounds: u32,
    /// Our median ns/event after the work.
    pub new_ns: f64,
    /// The reference's median ns/event.
    pub ref_ns: f64,
    /// Median over rounds of ours (after) over the reference.
    pub new_over_ref: f64,
    /// Its bootstrap 95 % CI over rounds.
    pub new_over_ref_ci: [f64; 2],
    /// The same before the work (absent for variants that did not exist).
    pub base_over_ref: Option<f64>,
}

/// Reads [`REFERENCE_FILE`] under `root`; empty (with a warning) when absent.
pub fn read_reference(root: &Path, warnings: &mut Vec<String>) -> Result<Vec<Reference>> {
    let path = root.join(REFERENCE_FILE);
    if !path.exists() {
        warnings.push(format!(
            "{} is missing: reference.csv has only its header",
            path.display()
        ));
        return Ok(Vec::new());
    }
    let text = fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l)
                .with_context(|| format!("parsing {} line {}", path.display(), i + 1))
        })
        .collect()
}

/// A per-profile table written by a `binostr` suite outside the campaign
/// (evolution, maintenance): its header and its rows as text, one per
/// profile, first column `profile`.
#[derive(Clone, Debug, Default)]
pub struct ProfileTable {
    /// Column names.
    pub header: Vec<String>,
    /// Rows, each as long as the header.
    pub rows: Vec<Vec<String>>,
}

impl ProfileTable {
    /// Reads `layout`'s file under `root`, requiring its columns (more may
    /// follow); empty (with a warning) when absent. Cells may be quoted (RFC
    /// 4180), not multi-line.
    pub fn read(root: &Path, layout: &Layout, warnings: &mut Vec<String>) -> Result<Self> {
        let path = root.join(layout.file);
        if !path.exists() {
            warnings.push(format!(
                "{} is missing: its paper table is empty",
                path.display()
            ));
            return Ok(Self::default());
        }
        let text =
            fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
        let mut lines = text.lines();
        let header: Vec<String> = lines
            .next()
            .unwrap_or_default()
            .split(',')
            .map(str::to_owned)
            .collect();
        if header.first().map(String::as_str) != Some("profile") {
            bail!(
                "{}: header at byte 0 does not start with `profile`",
                path.display()
            );
        }
        let mut columns = layout.columns.iter().map(|c| c.name);
        if let Some(missing) = columns.find(|c| !header.iter().any(|h| h == c)) {
            bail!(
                "{}: header at byte 0 has no column `{missing}`",
                path.display()
            );
        }
        let mut rows = Vec::new();
        let mut offset = text.find('\n').map_or(text.len(), |i| i + 1);
        for (i, line) in lines.enumerate() {
            let row = split_csv(line).filter(|r| r.len() == header.len());
            let Some(row) = row else {
                bail!(
                    "{}: line {} (byte {offset}) is not {} CSV cells",
                    path.display(),
                    i + 2,
                    header.len()
                );
            };
            offset += line.len() + 1;
            rows.push(row);
        }
        Ok(Self { header, rows })
    }

    /// The cell of `column` in `row`.
    pub fn cell<'a>(&self, row: &'a [String], column: &str) -> Option<&'a str> {
        let i = self.header.iter().position(|h| h == column)?;
        row.get(i).map(String::as_str)
    }
}

/// The cells of one CSV line (RFC 4180 quoting, `""` for a quote inside);
/// `None` when a quote is unbalanced or stray.
fn split_csv(line: &str) -> Option<Vec<String>> {
    let mut cells = Vec::new();
    let mut chars = line.chars().peekable();
    loop {
        let mut cell = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            loop {
                match chars.next()? {
                    '"' if chars.peek() == Some(&'"') => {
                        chars.next();
                        cell.push('"');
                    }
                    '"' => break,
                    c => cell.push(c),
                }
            }
            if !matches!(chars.peek(), None | Some(',')) {
                return None;
            }
        } else {
            while let Some(&c) = chars.peek() {
                match c {
                    ',' => break,
                    '"' => return None,
                    _ => cell.push(c),
                }
                chars.next();
            }
        }
        cells.push(cell);
        if chars.next().is_none() {
            return Some(cells);
        }
    }
}

/// The maintenance columns the paper's table shows, in order.
pub const MAINTENANCE_COLUMNS: [&str; 8] = [
    "profile",
    "module_lines",
    "generated_lines",
    "crates",
    "schema_compiler",
    "ecosystems",
    "spec_status",
    "spec_ref",
];

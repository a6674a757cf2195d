//! Side measurements (sizes, latency, allocations, RSS, transport) as medians over
//! runs, and the inputs from outside the campaign: the robustness report and
//! the interop timings.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result, bail};
use polars::prelude::*;
use serde::Deserialize;

use binostr_records::csv::Layout;
use binostr_records::robustness::{self, RunReport};

use crate::interval::Ci;
use crate::read::frame::{KeyedValues, f64s, medians, strs};
use crate::read::records::{self, Run, Scan as _};
use crate::read::sizes::{FollowList, Sizes, read_follow_lists, read_sizes};

/// Per-event latency percentiles of one workload and profile on one host.
#[derive(Clone, Debug)]
pub struct Latency {
    /// Host id.
    pub host: String,
    /// Workload.
    pub workload: String,
    /// Profile id.
    pub profile: String,
    /// The percentiles, ns.
    pub ns: LatencyNs,
}

/// Per-event latency percentiles, ns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LatencyNs {
    /// p50.
    pub p50: f64,
    /// p90.
    pub p90: f64,
    /// p99.
    pub p99: f64,
    /// p99.9.
    pub p999: f64,
    /// The greatest.
    pub max: f64,
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
    /// `follow-lists.csv`.
    pub follow_lists: Vec<FollowList>,
}

impl Side {
    /// Reads and aggregates the side measurements of `runs`.
    pub fn read(runs: &[Run]) -> Result<Self> {
        let sizes = read_sizes(runs)?;
        let per_workload = |table: &Layout, values: &[&str]| -> Result<Vec<KeyedValues>> {
            Ok(medians(table, runs, &["workload", "profile"], values)?.unwrap_or_default())
        };
        let latency = per_workload(
            &records::LATENCY,
            &["p50_ns", "p90_ns", "p99_ns", "p999_ns", "max_ns"],
        )?
        .into_iter()
        .map(|g| Latency {
            workload: g.key("workload"),
            profile: g.key("profile"),
            ns: LatencyNs {
                p50: g.value("p50_ns"),
                p90: g.value("p90_ns"),
                p99: g.value("p99_ns"),
                p999: g.value("p999_ns"),
                max: g.value("max_ns"),
            },
            host: g.host,
        })
        .collect();
        let alloc = per_workload(&records::ALLOC, &["events", "allocs", "alloc_bytes"])?
            .into_iter()
            .map(|g| Alloc {
                workload: g.key("workload"),
                profile: g.key("profile"),
                allocs_per_event: g.value("allocs") / g.value("events"),
                bytes_per_event: g.value("alloc_bytes") / g.value("events"),
                host: g.host,
            })
            .collect();
        let rss = per_workload(&records::RSS, &["baseline_kib", "peak_kib"])?
            .into_iter()
            .map(|g| Rss {
                workload: g.key("workload"),
                profile: g.key("profile"),
                growth_kib: g.value("peak_kib") - g.value("baseline_kib"),
                host: g.host,
            })
            .collect();
        Ok(Side {
            sizes,
            latency,
            alloc,
            rss,
            transport: crate::read::transport::read(runs)?,
            follow_lists: read_follow_lists(runs)?,
        })
    }
}

/// `results/robustness/robustness.json` under `root`, as `binostr torture
/// run` wrote it; `None` (with a warning) when it does not exist.
pub fn read_robustness(root: &Path, warnings: &mut Vec<String>) -> Result<Option<RunReport>> {
    let path = root.join(robustness::DIR).join(robustness::FILE);
    if !path.exists() {
        warnings.push(format!(
            "{} is missing: robustness.csv has only its header",
            path.display()
        ));
        return Ok(None);
    }
    let text = fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let report =
        serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    Ok(Some(report))
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
/// side by side on the same events (`docs/performance.md`). No program of
/// this repository writes it: the rows come from a harness kept outside it
/// (`results/speed/README.md`), so [`Reference`] is the only declaration of
/// the layout and reads it strictly (every field named, no other field).
pub const REFERENCE_FILE: &str = "results/speed/side-by-side.jsonl";

/// One side-by-side comparison.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
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
    #[serde(deserialize_with = "ci")]
    pub new_over_ref_ci: Ci,
    /// Our median ns/event before the work; this and the other `base` and
    /// `new_over_base` fields are absent for variants that did not exist
    /// before.
    pub base_ns: Option<f64>,
    /// Median over rounds of ours (before) over the reference.
    pub base_over_ref: Option<f64>,
    /// Its bootstrap 95 % CI over rounds.
    #[serde(default, deserialize_with = "opt_ci")]
    pub base_over_ref_ci: Option<Ci>,
    /// Median over rounds of ours after over ours before.
    pub new_over_base: Option<f64>,
    /// Its bootstrap 95 % CI over rounds.
    #[serde(default, deserialize_with = "opt_ci")]
    pub new_over_base_ci: Option<Ci>,
}

/// A CI written `[lo, hi]`.
fn ci<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Ci, D::Error> {
    let [lo, hi] = <[f64; 2]>::deserialize(d)?;
    Ok(Ci { lo, hi })
}

/// An optional CI written `[lo, hi]` or `null`.
fn opt_ci<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Ci>, D::Error> {
    Ok(Option::<[f64; 2]>::deserialize(d)?.map(|[lo, hi]| Ci { lo, hi }))
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

    /// The profile of `row`: its first cell (the header starts with
    /// `profile`, as [`ProfileTable::read`] requires).
    pub fn profile(row: &[String]) -> &str {
        row.first().map_or("", String::as_str)
    }

    /// The cell of `column` in `row`.
    pub fn cell<'a>(&self, row: &'a [String], column: &str) -> Option<&'a str> {
        let i = self.header.iter().position(|h| h == column)?;
        row.get(i).map(String::as_str)
    }
}

/// The cells of one CSV line (RFC 4180 quoting, `""` for a quote inside);
/// `None` when a quote is unbalanced or stray.
pub fn split_csv(line: &str) -> Option<Vec<String>> {
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

/// `results/evolution/evolution.json`: what each range-growth case encodes
/// (the `what` of the first profile's `range`; every profile runs the same
/// cases); empty when the file is absent.
pub fn read_evolution_ranges(root: &Path) -> Result<Vec<String>> {
    let path = root.join("results/evolution/evolution.json");
    if !path.exists() {
        return Ok(Vec::new());
    }
    let text = fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let doc: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    Ok(doc["profiles"][0]["range"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r["what"].as_str().map(str::to_owned))
        .collect())
}

/// `results/valid/`: how many awkward but valid events there are, and each
/// profile's refusals of them (`binostr corpus valid`).
#[derive(Clone, Debug, Default)]
pub struct Valid {
    /// Events in `cases.csv`.
    pub cases: usize,
    /// `refusals.csv`, in file order.
    pub refusals: Vec<Refusal>,
}

/// One row of `refusals.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    /// Profile id.
    pub profile: String,
    /// The case refused.
    pub case: String,
    /// The encoder's reason.
    pub reason: String,
}

impl Valid {
    /// The cases `profile` refuses, in file order.
    pub fn refused_by(&self, profile: &str) -> Vec<&str> {
        self.refusals
            .iter()
            .filter(|r| r.profile == profile)
            .map(|r| r.case.as_str())
            .collect()
    }
}

/// Reads `results/valid/` under `root`; `None` (with a warning) when
/// `cases.csv` is absent.
pub fn read_valid(root: &Path, warnings: &mut Vec<String>) -> Result<Option<Valid>> {
    use binostr_records::csv::{VALID_CASES, VALID_REFUSALS};
    let path = root.join(VALID_CASES.file);
    if !path.exists() {
        warnings.push(format!(
            "{} is missing: no profile passes the valid-event gate",
            path.display()
        ));
        return Ok(None);
    }
    let text = fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let mut lines = text.lines();
    if lines.next() != Some(VALID_CASES.header().as_str()) {
        bail!(
            "{}: header at byte 0 is not `{}`",
            path.display(),
            VALID_CASES.header()
        );
    }
    let cases = lines.count();
    let table = ProfileTable::read(root, &VALID_REFUSALS, warnings)?;
    let refusals = table
        .rows
        .iter()
        .map(|r| {
            let cell = |c: &str| table.cell(r, c).unwrap_or_default().to_owned();
            Refusal {
                profile: cell("profile"),
                case: cell("case"),
                reason: cell("reason"),
            }
        })
        .collect();
    Ok(Some(Valid { cases, refusals }))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_side_by_side_rows_read_strictly() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut warnings = Vec::new();
        let rows = read_reference(&root, &mut warnings).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert!(rows.iter().any(|r| r.base_over_ref.is_some()));
        assert!(rows.iter().any(|r| r.base_ns.is_none()));
    }

    #[test]
    fn an_unknown_side_by_side_field_is_refused() {
        let row = r#"{"mode": "decode", "ours": "json", "ref": "decode:json", "rounds": 2,
            "new_ns": 1.0, "ref_ns": 2.0, "new_over_ref": 0.5, "new_over_ref_ci": [0.4, 0.6]"#;
        assert!(serde_json::from_str::<Reference>(&format!("{row}}}")).is_ok());
        let e = serde_json::from_str::<Reference>(&format!("{row}, \"new_over_rfe\": 1}}"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown field `new_over_rfe`"), "{e}");
    }
}

//! Aggregation of Binostr campaign run records into the summary, the paper's
//! generated inputs, the plots and the results page. `docs/RESULTS.md` is
//! the contract for every file read and written here.
//!
//! The crate is three layers, and imports only point down them:
//!
//! - [`read`]: the records of a campaign (`run-K/*.csv`, `contract.json`,
//!   `campaign.json`, `registry.json`) and the side inputs beside them
//!   (interop, robustness, evolution, maintenance), as typed rows;
//! - [`model`]: the campaign as loaded ([`Campaign`]): summary rows, paired
//!   ratios and their statistics, the invariant checks and the claims;
//! - [`render`]: every file written: `summary/` (csv, json, md), the
//!   paper's macros and tables, the plots and the results page.
//!
//! `render` may use `model` and `read`, `model` may use `read`, `read` uses
//! neither; [`fmt`] (fixed-decimal numbers, shared by the model's sentences
//! and every writer) and [`interval`] (an estimate and its 95% interval)
//! use none of them. No module imports one that imports
//! it back. `tests/layering.rs` keeps this true. The functions below and
//! `main.rs` (the CLI) sit on top.
#![forbid(unsafe_code)]

pub mod fmt;
pub mod interval;
pub mod model;
pub mod read;
pub mod render;

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use model::analysis::Analysis;
pub use model::campaign::Campaign;
use read::records;
use render::{paper, plots};

/// Reads every complete run of `labels` under `root` and writes
/// `results/campaigns/<labels[0]>/summary/` (with plots when `plots`) and
/// `paper/generated/`. Returns the files written, sorted.
pub fn aggregate(root: &Path, labels: &[String], plots: bool) -> Result<Vec<PathBuf>> {
    aggregate_holding(root, labels, plots, None)
}

/// [`aggregate`], marking each claim with whether it also holds on the
/// label `holds_on` (typically the campaign on the other corpus).
pub fn aggregate_holding(
    root: &Path,
    labels: &[String],
    plots: bool,
    holds_on: Option<&str>,
) -> Result<Vec<PathBuf>> {
    let c = load(root, labels, holds_on)?;
    for w in &c.warnings {
        eprintln!("binostr-report: warning: {w}");
    }
    for v in &c.violations {
        eprintln!(
            "binostr-report: invariant violated on {}: {}",
            v.host, v.text
        );
    }
    let summary = records::campaign_dir(root, &labels[0]).join("summary");
    let paper = root.join("paper").join("generated");
    let a = Analysis::new(&c);
    let mut files = Vec::new();
    let mut put = |path: PathBuf, text: String| -> Result<()> {
        fs::create_dir_all(path.parent().expect("a file has a parent"))?;
        fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
        files.push(path);
        Ok(())
    };
    put(
        summary.join("summary.csv"),
        render::summary::summary_csv(&c),
    )?;
    put(
        summary.join("summary.json"),
        render::summary::summary_json(&c)?,
    )?;
    put(summary.join("summary.md"), render::summary::summary_md(&a))?;
    put(summary.join("ratios.csv"), render::summary::ratios_csv(&c))?;
    put(summary.join("cost.csv"), render::summary::cost_csv(&a))?;
    put(
        summary.join("scorecard.csv"),
        render::paper::recommend::scorecard_csv(&a.decisions),
    )?;
    for (name, text) in paper::render(&a)? {
        put(paper.join(name), text)?;
    }
    if plots {
        files.extend(plots::write_all(&a, &summary.join("plots"))?);
    }
    files.sort();
    Ok(files)
}

/// Writes the results page of `label` (`results/campaigns/<label>/site/index.html`,
/// or `out/index.html`); see [the module](module@render::page).
pub fn page(root: &Path, label: &str, out: Option<&Path>) -> Result<PathBuf> {
    page_holding(root, label, out, None)
}

/// [`page`], its claims marked against the label `holds_on`, or, when
/// `None`, against the label that `summary.json` records (`aggregate
/// --holds-on`), so that the committed page is rebuilt as it was made.
pub fn page_holding(
    root: &Path,
    label: &str,
    out: Option<&Path>,
    holds_on: Option<&str>,
) -> Result<PathBuf> {
    let recorded = match holds_on {
        Some(_) => None,
        None => recorded_holds_on(root, label)?,
    };
    let c = load(root, &[label.to_owned()], holds_on.or(recorded.as_deref()))?;
    render::page::write(root, &Analysis::new(&c), label, out)
}

/// The `holds_on` label of `label`'s `summary/summary.json`, if any.
fn recorded_holds_on(root: &Path, label: &str) -> Result<Option<String>> {
    let path = records::campaign_dir(root, label).join("summary/summary.json");
    let Ok(text) = fs::read_to_string(&path) else {
        return Ok(None);
    };
    let doc: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("reading {}", path.display()))?;
    Ok(doc["holds_on"].as_str().map(str::to_owned))
}

fn load(root: &Path, labels: &[String], holds_on: Option<&str>) -> Result<Campaign> {
    let c = Campaign::load(root, labels)?;
    match holds_on {
        Some(other) => c.with_holds_on(root, other),
        None => Ok(c),
    }
}

/// Draws the plots of `labels` into `results/campaigns/<labels[0]>/summary/plots/`.
pub fn plots_only(root: &Path, labels: &[String]) -> Result<Vec<PathBuf>> {
    let c = Campaign::load(root, labels)?;
    let dir = records::campaign_dir(root, &labels[0]).join("summary/plots");
    plots::write_all(&Analysis::new(&c), &dir)
}

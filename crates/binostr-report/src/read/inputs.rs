//! What the page reads besides the campaign's records: the registry table, the
//! interop checks, the plots, the signing key, and the SHA-256 of every file
//! the page is built from.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use binostr_records::SignedEvent;
use binostr_records::csv::INTEROP_CHECKS as CHECKS;
use sha2::{Digest, Sha256};

use crate::read::frame::strs;
use crate::read::records::{self, Run, Scan as _};
use crate::read::registry::{REGISTRY, RegistryEntry, read_registry};

/// One row of `results/interop/checks-<language>.csv`.
#[derive(Clone, Debug)]
pub struct InteropCheck {
    /// The file's language part (`python`, `js`, `js-corpus`, `go`).
    pub language: String,
    /// Profile id.
    pub profile: String,
    /// Library and version.
    pub library: String,
    /// A status word of `scripts/interop/coverage.json`: `ok`,
    /// `known-divergence`, `fail`, `not-supported`, `not-covered`.
    pub status: String,
    /// Why, when not plainly ok.
    pub reason: String,
    /// Vectors checked.
    pub vectors: String,
    /// Vectors written back byte for byte: a count, or `N/N identical`.
    pub reencode: String,
}

impl InteropCheck {
    /// The library reads the vectors and writes every one back byte for
    /// byte: status `ok`, and `reencode` all vectors.
    pub fn holds(&self) -> bool {
        let n = &self.vectors;
        self.status == "ok"
            && (self.reencode == *n || self.reencode == format!("{n}/{n} identical"))
    }
}

/// Plots in reading order (by name prefix); others follow by name.
const PLOT_ORDER: [&str; 11] = [
    "sizes",
    "ratios",
    "decode",
    "validate",
    "select",
    "filter",
    "transport",
    "links",
    "cost-map",
    "latency",
    "robustness",
];

/// One input file and its hash.
#[derive(Clone, Debug)]
pub struct Source {
    /// Path relative to the repository root.
    pub path: String,
    /// Size in bytes.
    pub bytes: u64,
    /// SHA-256, lowercase hex.
    pub sha256: String,
}

/// One plot of `summary/plots/`.
pub struct Plot {
    /// Its file stem.
    pub name: String,
    /// Its SVG text.
    pub svg: String,
}

/// One run's `observed` object.
pub struct Observed {
    /// The run id.
    pub run: String,
    /// Its `observed` object.
    pub observed: serde_json::Value,
}

/// Everything the page reads besides the campaign.
pub struct Inputs {
    /// The registry, in registry order.
    pub registry: Vec<RegistryEntry>,
    /// Interop checks, by file then row.
    pub checks: Vec<InteropCheck>,
    /// `summary/plots/*.svg`, in reading order.
    pub plots: Vec<Plot>,
    /// The key that signed `manifest.event.json`, when it exists.
    pub signer: Option<String>,
    /// The run contract of the first run (JSON), and each run's `observed`.
    pub contract: serde_json::Value,
    /// Per run, its `observed` object.
    pub observed: Vec<Observed>,
    /// `campaign.json`'s `corpus`.
    pub corpus: serde_json::Value,
    /// Every file read, sorted by path.
    pub sources: Vec<Source>,
}

fn read_text(path: &Path) -> Result<String> {
    fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))
}

fn json(path: &Path) -> Result<serde_json::Value> {
    serde_json::from_str(&read_text(path)?).with_context(|| format!("parsing {}", path.display()))
}

impl Inputs {
    /// Reads the inputs of the page of `label` under `root`.
    pub fn read(root: &Path, label: &str, runs: &[Run]) -> Result<Self> {
        let dir = records::campaign_dir(root, label);
        let mut read = record_files(runs);
        let campaign_json = dir.join(binostr_records::files::CAMPAIGN);
        let corpus = json(&campaign_json)?
            .get("corpus")
            .cloned()
            .unwrap_or(serde_json::Value::Null);
        read.push(campaign_json);
        let robustness = root
            .join(binostr_records::robustness::DIR)
            .join(binostr_records::robustness::FILE);
        if robustness.exists() {
            read.push(robustness);
        }

        let suites = [
            crate::read::side::REFERENCE_FILE,
            binostr_records::csv::EVOLUTION.file,
            binostr_records::csv::MAINTENANCE.file,
            binostr_records::csv::LINKS.file,
            binostr_records::csv::VALID_CASES.file,
            binostr_records::csv::VALID_REFUSALS.file,
        ];
        read.extend(
            suites
                .map(|f| root.join(f))
                .into_iter()
                .filter(|p| p.exists()),
        );

        let registry_path = dir.join(REGISTRY);
        let registry = read_registry(&registry_path)?;
        read.push(registry_path);
        let (interop_files, checks) = interop_checks(root)?;
        read.extend(interop_files);
        let (svgs, plots) = plots(&dir, label)?;
        read.extend(svgs);
        let signer = signer(&dir)?;
        let (contract, observed) = contract_and_observed(runs)?;
        let sources = sources(root, read)?;
        Ok(Inputs {
            registry,
            checks,
            plots,
            signer,
            contract,
            observed,
            corpus,
            sources,
        })
    }

    /// The registry entry of `id`.
    pub fn profile(&self, id: &str) -> Option<&RegistryEntry> {
        self.registry.iter().find(|p| p.id == id)
    }
}

/// The run records of `runs` the page is built from, where they exist.
fn record_files(runs: &[Run]) -> Vec<PathBuf> {
    let mut read: Vec<PathBuf> = Vec::new();
    for run in runs {
        for f in [
            binostr_records::files::CONTRACT,
            records::SAMPLES.file,
            records::RATIOS.file,
            records::ROUNDS.file,
            records::INSTRUCTIONS.file,
            records::SIZES.file,
            records::LATENCY.file,
            records::ALLOC.file,
            records::RSS.file,
        ] {
            let p = run.dir.join(f);
            if p.exists() {
                read.push(p);
            }
        }
    }
    read
}

/// `results/interop/*.csv` under `root` (no torture files), and the rows
/// of its `checks-<language>.csv` files.
pub fn interop_checks(root: &Path) -> Result<(Vec<PathBuf>, Vec<InteropCheck>)> {
    let interop = root.join("results/interop");
    let mut interop_files: Vec<PathBuf> = fs::read_dir(&interop)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "csv"))
                .filter(|p| {
                    p.file_stem()
                        .and_then(|s| s.to_str())
                        .is_some_and(|s| !s.starts_with("torture-"))
                })
                .collect()
        })
        .unwrap_or_default();
    interop_files.sort();
    let mut checks = Vec::new();
    for p in &interop_files {
        let stem = p.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
        if let Some(language) = stem.strip_prefix("checks-") {
            checks.extend(read_checks(p, language)?);
        }
    }
    Ok((interop_files, checks))
}

/// `summary/plots/*.svg` of the campaign in `dir`, and their stems and text
/// in reading order; an error when aggregate has not drawn them.
fn plots(dir: &Path, label: &str) -> Result<(Vec<PathBuf>, Vec<Plot>)> {
    let plot_dir = dir.join("summary/plots");
    if !plot_dir.is_dir() {
        bail!(
            "{} is missing: run `binostr-report aggregate {label}` first (the page embeds its plots)",
            plot_dir.display()
        );
    }
    let mut svgs: Vec<PathBuf> = fs::read_dir(&plot_dir)
        .with_context(|| format!("reading {}", plot_dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "svg"))
        .collect();
    svgs.sort();
    let mut plots = Vec::new();
    for p in &svgs {
        let stem = p.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
        plots.push(Plot {
            name: stem.to_owned(),
            svg: read_text(p)?,
        });
    }
    plots.sort_by_key(|plot| {
        let rank = PLOT_ORDER.iter().position(|p| plot.name.starts_with(p));
        (rank.unwrap_or(PLOT_ORDER.len()), plot.name.clone())
    });
    Ok((svgs, plots))
}

/// The key that signed `manifest.event.json` in `dir` (the
/// [`SignedEvent`] `binostr manifest create` writes), when it exists.
fn signer(dir: &Path) -> Result<Option<String>> {
    let event = dir.join(binostr_records::files::MANIFEST_EVENT);
    Ok(if event.exists() {
        let e: SignedEvent = serde_json::from_str(&read_text(&event)?)
            .with_context(|| format!("parsing {}", event.display()))?;
        Some(e.pubkey)
    } else {
        None
    })
}

/// The first run's contract, and each run's id and `observed` object.
fn contract_and_observed(runs: &[Run]) -> Result<(serde_json::Value, Vec<Observed>)> {
    let first = runs.first().context("no complete run")?;
    let contract = json(&first.dir.join(binostr_records::files::CONTRACT))?
        .get("contract")
        .cloned()
        .unwrap_or(serde_json::Value::Null);
    let mut observed = Vec::new();
    for run in runs {
        let o = json(&run.dir.join(binostr_records::files::CONTRACT))?
            .get("observed")
            .cloned()
            .unwrap_or(serde_json::Value::Null);
        observed.push(Observed {
            run: run.id(),
            observed: o,
        });
    }
    Ok((contract, observed))
}

/// Path (relative to `root`), size and SHA-256 of every file in `read`,
/// sorted by path, each once.
fn sources(root: &Path, read: Vec<PathBuf>) -> Result<Vec<Source>> {
    let mut sources = Vec::new();
    for p in read {
        let data = fs::read(&p).with_context(|| format!("reading {}", p.display()))?;
        let rel = p.strip_prefix(root).unwrap_or(&p);
        sources.push(Source {
            path: rel.to_string_lossy().replace('\\', "/"),
            bytes: data.len() as u64,
            sha256: hex(&Sha256::digest(&data)),
        });
    }
    sources.sort_by(|a, b| a.path.cmp(&b.path));
    sources.dedup_by(|a, b| a.path == b.path);
    Ok(sources)
}

/// Lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(char::from(DIGITS[usize::from(b >> 4)]));
        s.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    s
}

fn read_checks(path: &Path, language: &str) -> Result<Vec<InteropCheck>> {
    let df = CHECKS.scan_file(path)?.collect()?;
    let profile = strs(&df, "profile")?;
    let library = strs(&df, "library")?;
    let version = strs(&df, "version")?;
    let vectors = strs(&df, "vectors")?;
    let status = strs(&df, "status")?;
    let reason = strs(&df, "reason")?;
    let reencode = strs(&df, "reencode")?;
    Ok((0..df.height())
        .map(|i| InteropCheck {
            language: language.to_owned(),
            profile: profile[i].clone(),
            library: format!("{} {}", library[i], version[i]),
            status: status[i].clone(),
            reason: reason[i].clone(),
            vectors: vectors[i].clone(),
            reencode: reencode[i].clone(),
        })
        .collect())
}

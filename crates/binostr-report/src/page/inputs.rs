//! What the page reads besides the [`Campaign`]: the registry table, the
//! interop checks, the plots, the signing key, and the SHA-256 of every file
//! the page is built from.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use binostr_records::csv::INTEROP_CHECKS as CHECKS;
use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::campaign::Campaign;
use crate::frame::strs;
use crate::records::{self, Scan as _};

/// The campaign's `registry.json`: the registry as the campaign measured it
/// (`binostr profiles --json`, written by `binostr campaign`), so a profile
/// added to a later checkout does not change an earlier campaign's page.
pub use binostr_records::files::REGISTRY;

/// One registry entry.
pub use binostr_records::RegistryEntry;

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
}

/// Plots in reading order (by name prefix); others follow by name.
const PLOT_ORDER: [&str; 9] = [
    "sizes",
    "ratios",
    "decode",
    "validate",
    "select",
    "filter",
    "transport",
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

/// Everything the page reads besides the campaign.
pub struct Inputs {
    /// The registry, in registry order.
    pub registry: Vec<RegistryEntry>,
    /// Interop checks, by file then row.
    pub checks: Vec<InteropCheck>,
    /// `summary/plots/*.svg`: file stem and SVG text, by name.
    pub plots: Vec<(String, String)>,
    /// The key that signed `manifest.event.json`, when it exists.
    pub signer: Option<String>,
    /// The run contract of the first run (JSON), and each run's `observed`.
    pub contract: serde_json::Value,
    /// Per run: id and its `observed` object.
    pub observed: Vec<(String, serde_json::Value)>,
    /// `campaign.json`'s `corpus`.
    pub corpus: serde_json::Value,
    /// Every file read, sorted by path.
    pub sources: Vec<Source>,
}

#[derive(Deserialize)]
struct SignedEvent {
    pubkey: String,
}

fn read_text(path: &Path) -> Result<String> {
    fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))
}

fn json(path: &Path) -> Result<serde_json::Value> {
    serde_json::from_str(&read_text(path)?).with_context(|| format!("parsing {}", path.display()))
}

impl Inputs {
    /// Reads the inputs of the page of `label` under `root`.
    pub fn read(root: &Path, label: &str, c: &Campaign) -> Result<Self> {
        let dir = records::campaign_dir(root, label);
        let mut read: Vec<PathBuf> = Vec::new();
        for run in &c.runs {
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
        let campaign_json = dir.join(binostr_records::files::CAMPAIGN);
        let corpus = json(&campaign_json)?
            .get("corpus")
            .cloned()
            .unwrap_or(serde_json::Value::Null);
        read.push(campaign_json);
        let robustness = root.join("results/robustness/robustness.json");
        if robustness.exists() {
            read.push(robustness);
        }

        let reference = root.join(crate::side::REFERENCE_FILE);
        if reference.exists() {
            read.push(reference);
        }

        let registry_path = dir.join(REGISTRY);
        let registry = read_registry(&registry_path)?;
        read.push(registry_path);

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
        read.extend(interop_files);

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
            plots.push((stem.to_owned(), read_text(p)?));
        }
        plots.sort_by_key(|(name, _)| {
            let rank = PLOT_ORDER.iter().position(|p| name.starts_with(p));
            (rank.unwrap_or(PLOT_ORDER.len()), name.clone())
        });
        read.extend(svgs);

        let event = dir.join("manifest.event.json");
        let signer = if event.exists() {
            let e: SignedEvent = serde_json::from_str(&read_text(&event)?)
                .with_context(|| format!("parsing {}", event.display()))?;
            Some(e.pubkey)
        } else {
            None
        };

        let first = c.runs.first().context("no complete run")?;
        let contract = json(&first.dir.join("contract.json"))?
            .get("contract")
            .cloned()
            .unwrap_or(serde_json::Value::Null);
        let mut observed = Vec::new();
        for run in &c.runs {
            let o = json(&run.dir.join("contract.json"))?
                .get("observed")
                .cloned()
                .unwrap_or(serde_json::Value::Null);
            observed.push((run.id(), o));
        }

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

pub(crate) fn read_registry(path: &Path) -> Result<Vec<RegistryEntry>> {
    if !path.exists() {
        bail!(
            "{} is missing: it is the registry as the campaign measured it; \
             `binostr campaign` with the campaign's label writes it (measuring nothing when every run is present)",
            path.display()
        );
    }
    let text = read_text(path)?;
    let out: Vec<RegistryEntry> = serde_json::from_str(&text).map_err(|e| {
        anyhow::anyhow!(
            "{}: line {} column {}: {e}",
            path.display(),
            e.line(),
            e.column()
        )
    })?;
    if out.is_empty() {
        bail!("{}: the registry is empty", path.display());
    }
    Ok(out)
}

fn read_checks(path: &Path, language: &str) -> Result<Vec<InteropCheck>> {
    let df = CHECKS.scan_file(path)?.collect()?;
    let profile = strs(&df, "profile")?;
    let library = strs(&df, "library")?;
    let version = strs(&df, "version")?;
    let vectors = strs(&df, "vectors")?;
    let status = strs(&df, "status")?;
    let reason = strs(&df, "reason")?;
    Ok((0..df.height())
        .map(|i| InteropCheck {
            language: language.to_owned(),
            profile: profile[i].clone(),
            library: format!("{} {}", library[i], version[i]),
            status: status[i].clone(),
            reason: reason[i].clone(),
            vectors: vectors[i].clone(),
        })
        .collect())
}

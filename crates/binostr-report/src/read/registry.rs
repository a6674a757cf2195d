//! The campaign's `registry.json`: which profiles it measured, their
//! families, and which are enabled.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result, bail};

pub use binostr_records::RegistryEntry;
/// The campaign's `registry.json`: the registry as the campaign measured it
/// (`binostr profiles --json`, written by `binostr campaign`), so a profile
/// added to a later checkout does not change an earlier campaign's page.
pub use binostr_records::files::REGISTRY;

/// `registry.json` at `path`: an error when it is missing or empty.
pub fn read_registry(path: &Path) -> Result<Vec<RegistryEntry>> {
    if !path.exists() {
        bail!(
            "{} is missing: it is the registry as the campaign measured it; \
             `binostr campaign` with the campaign's label writes it (measuring nothing when every run is present)",
            path.display()
        );
    }
    let text = fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
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

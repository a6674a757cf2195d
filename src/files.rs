//! Atomic file writes: results are written beside their final name and
//! renamed over it, so a reader never sees a half-written file.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::corpus::generate;
use crate::model::Event;

/// Writes `events` as JSON Lines with [`write_atomically`].
pub fn write_jsonl_atomically(path: &Path, events: &[Event]) -> Result<()> {
    let mut buf = Vec::new();
    generate::write_jsonl(events, &mut buf)?;
    write_atomically(path, &buf)
}

/// Writes `data` to a temporary file beside `path`, then renames it over.
pub fn write_atomically(path: &Path, data: impl AsRef<[u8]>) -> Result<()> {
    let data = data.as_ref();
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let mut tmp = path.as_os_str().to_os_string();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let mut file =
        BufWriter::new(File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?);
    file.write_all(data)?;
    file.into_inner()
        .map_err(|e| e.into_error())?
        .sync_all()
        .with_context(|| format!("writing {}", tmp.display()))?;
    fs::rename(&tmp, path).with_context(|| format!("renaming to {}", path.display()))?;
    Ok(())
}

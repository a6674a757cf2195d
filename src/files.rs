//! Writing files: events as JSON Lines, and atomic writes (results are
//! written beside their final name and renamed over it, so a reader never
//! sees a half-written file).

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::model::Event;

/// A step of an atomic write that failed, with the path it was on.
#[derive(Debug, thiserror::Error)]
#[error("{action} {}", path.display())]
pub struct WriteError {
    /// `creating`, `writing` or `renaming to`.
    pub action: &'static str,
    /// The directory or file.
    pub path: PathBuf,
    /// The I/O error.
    pub source: io::Error,
}

/// Writes one compact event per line ([`Event::write_json`], NIP-01 field
/// order), each terminated by `\n`.
pub fn write_jsonl(events: &[Event], out: &mut impl Write) -> std::io::Result<()> {
    let mut buf = Vec::with_capacity(64 * 1024);
    for e in events {
        buf.clear();
        e.write_json(&mut buf);
        buf.push(b'\n');
        out.write_all(&buf)?;
    }
    Ok(())
}

/// Writes `events` as JSON Lines with [`write_atomically`].
pub fn write_jsonl_atomically(path: &Path, events: &[Event]) -> Result<(), WriteError> {
    let mut buf = Vec::new();
    write_jsonl(events, &mut buf).expect("writing to a Vec cannot fail");
    write_atomically(path, &buf)
}

/// Writes `data` to a temporary file beside `path`, then renames it over.
pub fn write_atomically(path: &Path, data: impl AsRef<[u8]>) -> Result<(), WriteError> {
    write_atomically_with(path, |w| w.write_all(data.as_ref()))
}

/// Streams `fill`'s output to a temporary file beside `path`, then renames
/// it over.
pub fn write_atomically_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), WriteError> {
    let failed = |action: &'static str, path: &Path| {
        let path = path.to_path_buf();
        move |source| WriteError {
            action,
            path,
            source,
        }
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(failed("creating", dir))?;
    }
    let mut tmp = path.as_os_str().to_os_string();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let mut file = BufWriter::new(File::create(&tmp).map_err(failed("creating", &tmp))?);
    fill(&mut file)
        .and_then(|()| file.into_inner().map_err(io::IntoInnerError::into_error))
        .and_then(|file| file.sync_all())
        .map_err(failed("writing", &tmp))?;
    fs::rename(&tmp, path).map_err(failed("renaming to", path))?;
    Ok(())
}

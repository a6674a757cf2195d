//! The files a manifest covers: the campaign directory and, when the paper
//! was built from the campaign, `paper/generated/` and the side inputs the
//! paper reads ([`PAPER_SIDE_INPUTS`]).

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::{CreateError, EVENT_FILE, MANIFEST_FILE, PAPER_GENERATED};
use crate::model::hex;
use binostr_records::files::PAPER_SIDE_INPUTS;

/// The directories a manifest covers, relative to the root: the campaign's,
/// and `paper/generated/` with the side inputs when the paper inputs there
/// were built from it.
pub(super) fn covered_dirs(label: &str, paper: bool) -> Vec<String> {
    let mut dirs = vec![format!("results/campaigns/{label}")];
    if paper {
        dirs.push(PAPER_GENERATED.into());
        dirs.extend(PAPER_SIDE_INPUTS.iter().map(|d| (*d).to_owned()));
    }
    dirs
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum EntryKind {
    File,
    Tmp,
    Symlink,
    Other,
}

pub(super) struct Found {
    pub(super) rel: String,
    pub(super) abs: PathBuf,
    pub(super) kind: EntryKind,
    pub(super) utf8: bool,
}

/// Every entry under the covered directories except the manifest and its
/// event, sorted by path; `.tmp` directories are one entry, not descended.
pub(super) fn walk(root: &Path, label: &str, paper: bool) -> Result<Vec<Found>, CreateError> {
    let mut out = Vec::new();
    for (i, rel) in covered_dirs(label, paper).iter().enumerate() {
        let abs = root.join(rel);
        if i == 0 && !abs.is_dir() {
            return Err(CreateError::Io {
                path: abs.display().to_string(),
                source: std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "no such campaign directory",
                ),
            });
        }
        if abs.is_dir() {
            walk_dir(&abs, rel, i == 0, &mut out)?;
        }
    }
    out.sort_by(|a, b| a.rel.as_bytes().cmp(b.rel.as_bytes()));
    Ok(out)
}

fn walk_dir(abs: &Path, rel: &str, top: bool, out: &mut Vec<Found>) -> Result<(), CreateError> {
    let io = |source| CreateError::Io {
        path: abs.display().to_string(),
        source,
    };
    for entry in fs::read_dir(abs).map_err(io)? {
        let entry = entry.map_err(io)?;
        let name = entry.file_name();
        let utf8 = name.to_str().is_some();
        let name = name.to_string_lossy();
        if top && (name == MANIFEST_FILE || name == EVENT_FILE) {
            continue;
        }
        let child_rel = format!("{rel}/{name}");
        let child_abs = entry.path();
        let file_type = entry.file_type().map_err(io)?;
        let kind = if name.ends_with(".tmp") {
            EntryKind::Tmp
        } else if file_type.is_symlink() {
            EntryKind::Symlink
        } else if file_type.is_dir() {
            walk_dir(&child_abs, &child_rel, false, out)?;
            continue;
        } else if file_type.is_file() {
            EntryKind::File
        } else {
            EntryKind::Other
        };
        out.push(Found {
            rel: child_rel,
            abs: child_abs,
            kind,
            utf8,
        });
    }
    Ok(())
}

/// SHA-256 (lowercase hex) and size of a file, read in blocks.
pub(super) fn hash_file(path: &Path) -> std::io::Result<(String, u64)> {
    let mut file = fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut total = 0u64;
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        total += n as u64;
    }
    Ok((hex::encode(&hasher.finalize()), total))
}

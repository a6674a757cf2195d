//! `release sign`: a NIP-94 event (kind 1063) pinning a release's
//! `SHA256SUMS`.
//!
//! A release directory holds the archives, `SHA256SUMS` over them (the
//! `sha256sum` format: `<64 hex>  <name>` per line, names of files beside
//! it) and `release.event.json`, whose `x` and `size` tags pin
//! `SHA256SUMS` and whose `version` and `commit` tags name what was
//! released. It is written and signed as `manifest.event.json` is
//! ([`super::event_file_bytes`]); `scripts/release/verify.py` checks it
//! with the standard library alone.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::covered::hash_file;
use super::{SigningKey, event_file_bytes, key, sign_event};
use crate::files::{WriteError, write_atomically};
use crate::model::{Event, hex};

/// The checksum file a release event pins.
pub const SUMS_FILE: &str = "SHA256SUMS";
/// File name of the release event inside the release directory.
pub const RELEASE_EVENT_FILE: &str = "release.event.json";

/// Why a release could not be signed.
#[derive(Debug, thiserror::Error)]
pub enum ReleaseError {
    /// Not `v` followed by a semantic version.
    #[error("bad version `{0}`: expected v<semver>, e.g. v0.1.0 or v1.0.0-rc.1")]
    Version(String),
    /// Not a full lowercase commit id.
    #[error("bad commit `{0}`: expected 40 lowercase hex characters")]
    Commit(String),
    /// A file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// A malformed line of `SHA256SUMS`.
    #[error("{path}:{line}: {detail}")]
    Sums {
        /// `SHA256SUMS`.
        path: String,
        /// Its 1-based line.
        line: usize,
        /// What is wrong.
        detail: String,
    },
    /// `SHA256SUMS` lists nothing.
    #[error("{0}: lists no file")]
    Empty(String),
    /// A listed file's bytes differ from its sum.
    #[error("{path}: sha256 is {found}, {SUMS_FILE} says {expected}")]
    Modified {
        /// The file.
        path: String,
        /// The listed sum.
        expected: String,
        /// The file's sum.
        found: String,
    },
    /// The signing key.
    #[error(transparent)]
    Key(#[from] key::KeyError),
    /// Writing the event failed.
    #[error(transparent)]
    Write(#[from] WriteError),
}

/// One line of `SHA256SUMS`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SumsEntry {
    /// SHA-256, lowercase hex.
    pub sha256: String,
    /// A file name beside `SHA256SUMS`.
    pub name: String,
}

/// A written release event.
#[derive(Debug)]
pub struct SignedRelease {
    /// `DIR/release.event.json`.
    pub path: PathBuf,
    /// The signed event.
    pub event: Event,
    /// The files `SHA256SUMS` lists.
    pub files: Vec<SumsEntry>,
}

/// Checks that `version` is `v` followed by a SemVer 2.0.0 version.
pub fn check_version(version: &str) -> Result<(), ReleaseError> {
    let bad = || ReleaseError::Version(version.to_owned());
    let rest = version.strip_prefix('v').ok_or_else(bad)?;
    let (rest, build) = match rest.split_once('+') {
        Some((r, b)) => (r, Some(b)),
        None => (rest, None),
    };
    let (core, pre) = match rest.split_once('-') {
        Some((c, p)) => (c, Some(p)),
        None => (rest, None),
    };
    let numeric = |s: &str| {
        !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'))
    };
    let ident = |s: &str| {
        !s.is_empty()
            && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            && (!s.bytes().all(|b| b.is_ascii_digit()) || numeric(s))
    };
    let parts: Vec<&str> = core.split('.').collect();
    let ok = parts.len() == 3
        && parts.iter().all(|p| numeric(p))
        && pre.is_none_or(|p| p.split('.').all(ident))
        && build.is_none_or(|b| {
            b.split('.')
                .all(|s| !s.is_empty() && s.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-'))
        });
    if ok { Ok(()) } else { Err(bad()) }
}

fn check_commit(commit: &str) -> Result<(), ReleaseError> {
    if commit.len() == 40 && hex::is_lower_hex(commit) {
        Ok(())
    } else {
        Err(ReleaseError::Commit(commit.to_owned()))
    }
}

/// Parses `DIR/SHA256SUMS` and rehashes every file it lists; returns its
/// bytes and entries.
pub fn check_sums(dir: &Path) -> Result<(Vec<u8>, Vec<SumsEntry>), ReleaseError> {
    let path = dir.join(SUMS_FILE);
    let shown = path.display().to_string();
    let bytes = fs::read(&path).map_err(|source| ReleaseError::Io {
        path: shown.clone(),
        source,
    })?;
    let sums_err = |line: usize, detail: &str| ReleaseError::Sums {
        path: shown.clone(),
        line,
        detail: detail.to_owned(),
    };
    let text = std::str::from_utf8(&bytes).map_err(|_| sums_err(1, "not UTF-8"))?;
    if text.trim().is_empty() {
        return Err(ReleaseError::Empty(shown));
    }
    let body = text
        .strip_suffix('\n')
        .ok_or_else(|| sums_err(text.lines().count(), "no final newline"))?;
    let mut entries = Vec::new();
    let mut seen = BTreeSet::new();
    for (i, line) in body.split('\n').enumerate() {
        let n = i + 1;
        let (sha256, name) = line
            .split_once("  ")
            .ok_or_else(|| sums_err(n, "expected `<64 hex>  <name>`"))?;
        if sha256.len() != 64 || !hex::is_lower_hex(sha256) {
            return Err(sums_err(n, "the sum is not 64 lowercase hex characters"));
        }
        if name.is_empty()
            || name == "."
            || name == ".."
            || name.contains(['/', '\\', '\r'])
            || name.starts_with(['*', ' '])
        {
            return Err(sums_err(n, "the name is not a plain file name"));
        }
        if name == SUMS_FILE || name == RELEASE_EVENT_FILE {
            return Err(sums_err(n, "lists itself or the release event"));
        }
        if !seen.insert(name) {
            return Err(sums_err(n, "the name is listed twice"));
        }
        let file = dir.join(name);
        let (found, _) = hash_file(&file).map_err(|source| ReleaseError::Io {
            path: file.display().to_string(),
            source,
        })?;
        if found != sha256 {
            return Err(ReleaseError::Modified {
                path: file.display().to_string(),
                expected: sha256.to_owned(),
                found,
            });
        }
        entries.push(SumsEntry {
            sha256: sha256.to_owned(),
            name: name.to_owned(),
        });
    }
    Ok((bytes, entries))
}

/// Checks `dir`'s `SHA256SUMS` and every file it lists, then signs it as
/// release `version` of `commit` and writes `dir/release.event.json`.
/// `created_at` is the event's Unix time.
pub fn sign_release(
    dir: &Path,
    version: &str,
    commit: &str,
    key: &SigningKey,
    created_at: u64,
) -> Result<SignedRelease, ReleaseError> {
    check_version(version)?;
    check_commit(commit)?;
    let (bytes, files) = check_sums(dir)?;
    let tag = |k: &str, v: String| vec![k.to_owned(), v];
    let event = sign_event(
        key,
        created_at,
        vec![
            tag("x", hex::encode(&Sha256::digest(&bytes))),
            tag("m", "text/plain".into()),
            tag("size", bytes.len().to_string()),
            tag("version", version.to_owned()),
            tag("commit", commit.to_owned()),
            tag("alt", format!("Binostr release {version}")),
        ],
        format!(
            "Binostr release {version} at commit {commit}: {SUMS_FILE} of {} files",
            files.len()
        ),
    )?;
    let path = dir.join(RELEASE_EVENT_FILE);
    write_atomically(&path, event_file_bytes(&event))?;
    Ok(SignedRelease { path, event, files })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::{KeySource, event_record};
    use crate::validate;

    const COMMIT: &str = "0123456789abcdef0123456789abcdef01234567";

    fn test_key() -> SigningKey {
        let text = "67dea2ed018072d675f5415ecfaed7d2597555e202d85b3d65ea4e58d2d92ffa";
        key::load(&KeySource::Text(text.into()), Path::new(".")).unwrap()
    }

    fn release_dir() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let mut sums = String::new();
        for (name, data) in [("a.tar.gz", &b"alpha"[..]), ("b.tar.gz", b"beta")] {
            fs::write(dir.path().join(name), data).unwrap();
            sums.push_str(&format!("{}  {name}\n", hex::encode(&Sha256::digest(data))));
        }
        fs::write(dir.path().join(SUMS_FILE), sums).unwrap();
        dir
    }

    #[test]
    fn versions() {
        for good in [
            "v0.1.0",
            "v1.0.0-rc.1",
            "v10.20.30",
            "v1.0.0-alpha.0a+build.5",
        ] {
            check_version(good).unwrap_or_else(|e| panic!("{good}: {e}"));
        }
        for bad in [
            "0.1.0",
            "v0.1",
            "v0.1.0.0",
            "v01.1.0",
            "v1.0.0-",
            "v1.0.0-01",
            "v1.0.0-a..b",
            "V1.0.0",
            "v1.0.0+",
            "v1.0.0 ",
            "",
        ] {
            assert!(
                matches!(check_version(bad), Err(ReleaseError::Version(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn signs_a_verifiable_event_pinning_the_sums() {
        let dir = release_dir();
        let key = test_key();
        let signed = sign_release(dir.path(), "v0.1.0", COMMIT, &key, 1_700_000_000).unwrap();
        assert_eq!(signed.files.len(), 2);
        let written = fs::read(dir.path().join(RELEASE_EVENT_FILE)).unwrap();
        assert_eq!(written, event_file_bytes(&signed.event));
        let record: binostr_records::SignedEvent = serde_json::from_slice(&written).unwrap();
        assert_eq!(record, event_record(&signed.event));

        let e = &signed.event;
        validate::verify_event(e).unwrap();
        assert_eq!(e.pubkey, key.pubkey());
        assert_eq!(e.kind, 1063);
        let sums = fs::read(dir.path().join(SUMS_FILE)).unwrap();
        let tags: Vec<(&str, &str)> = e
            .tags
            .iter()
            .map(|t| (t[0].as_str(), t[1].as_str()))
            .collect();
        assert_eq!(
            tags,
            [
                ("x", hex::encode(&Sha256::digest(&sums)).as_str()),
                ("m", "text/plain"),
                ("size", sums.len().to_string().as_str()),
                ("version", "v0.1.0"),
                ("commit", COMMIT),
                ("alt", "Binostr release v0.1.0"),
            ]
        );
    }

    #[test]
    fn refuses_bad_version_and_commit_before_writing() {
        let dir = release_dir();
        let key = test_key();
        let e = sign_release(dir.path(), "0.1.0", COMMIT, &key, 1).unwrap_err();
        assert!(matches!(e, ReleaseError::Version(_)), "{e}");
        for commit in [&COMMIT[..39], &COMMIT.to_uppercase(), "HEAD"] {
            let e = sign_release(dir.path(), "v0.1.0", commit, &key, 1).unwrap_err();
            assert!(matches!(e, ReleaseError::Commit(_)), "{e}");
        }
        assert!(!dir.path().join(RELEASE_EVENT_FILE).exists());
    }

    #[test]
    fn refuses_a_modified_or_missing_file() {
        let dir = release_dir();
        fs::write(dir.path().join("b.tar.gz"), b"betA").unwrap();
        let e = sign_release(dir.path(), "v0.1.0", COMMIT, &test_key(), 1).unwrap_err();
        assert!(
            matches!(&e, ReleaseError::Modified { path, .. } if path.ends_with("b.tar.gz")),
            "{e}"
        );
        fs::remove_file(dir.path().join("b.tar.gz")).unwrap();
        let e = check_sums(dir.path()).unwrap_err();
        assert!(matches!(e, ReleaseError::Io { .. }), "{e}");
        assert!(!dir.path().join(RELEASE_EVENT_FILE).exists());
    }

    #[test]
    fn refuses_malformed_sums() {
        let sum = hex::encode(&Sha256::digest(b"alpha"));
        for (text, line) in [
            (format!("{sum} a.tar.gz\n"), 1),
            (format!("{sum}  a.tar.gz\n{}  b\n", &sum[1..]), 2),
            (format!("{}  a.tar.gz\n", sum.to_uppercase()), 1),
            (format!("{sum}  ../a.tar.gz\n"), 1),
            (format!("{sum}  a.tar.gz\n{sum}  a.tar.gz\n"), 2),
            (format!("{sum}  SHA256SUMS\n"), 1),
            (format!("{sum}  a.tar.gz"), 1),
        ] {
            let dir = release_dir();
            fs::write(dir.path().join(SUMS_FILE), &text).unwrap();
            let e = check_sums(dir.path()).unwrap_err();
            assert!(
                matches!(&e, ReleaseError::Sums { line: l, .. } if *l == line),
                "{text:?}: {e}"
            );
        }
        let dir = release_dir();
        fs::write(dir.path().join(SUMS_FILE), "").unwrap();
        assert!(matches!(
            check_sums(dir.path()),
            Err(ReleaseError::Empty(_))
        ));
        fs::remove_file(dir.path().join(SUMS_FILE)).unwrap();
        assert!(matches!(
            check_sums(dir.path()),
            Err(ReleaseError::Io { .. })
        ));
    }
}

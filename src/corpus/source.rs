//! Provenance of the real corpus and where its bytes are found.
//!
//! `provenance/*.toml` records each upstream file: repository, commit, path,
//! raw URL at that commit, SHA-256, size, licence and shape. The files are
//! embedded at build time. The bytes themselves are never part of the
//! project: they are read from a local mirror laid out as
//! `OWNER/REPO/COMMIT/PATH` (by default `../shared/corpus/upstream`), and any
//! file whose SHA-256 differs from the record is refused.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::model::hex;

/// The provenance records, one TOML file per upstream repository.
const PROVENANCE: [(&str, &str); 11] = [
    (
        "soapbox-pub-nostrify.toml",
        include_str!("../../provenance/soapbox-pub-nostrify.toml"),
    ),
    (
        "vitorpamplona-amethyst.toml",
        include_str!("../../provenance/vitorpamplona-amethyst.toml"),
    ),
    (
        "damus-io-nostrdb.toml",
        include_str!("../../provenance/damus-io-nostrdb.toml"),
    ),
    (
        "Cameri-nostream.toml",
        include_str!("../../provenance/Cameri-nostream.toml"),
    ),
    (
        "sandwichfarm-cassette.toml",
        include_str!("../../provenance/sandwichfarm-cassette.toml"),
    ),
    (
        "PrimalHQ-primal-android-app.toml",
        include_str!("../../provenance/PrimalHQ-primal-android-app.toml"),
    ),
    (
        "irislib-iris-messenger.toml",
        include_str!("../../provenance/irislib-iris-messenger.toml"),
    ),
    (
        "hzrd149-nostr-bucket.toml",
        include_str!("../../provenance/hzrd149-nostr-bucket.toml"),
    ),
    (
        "dhalsim-nostr-static.toml",
        include_str!("../../provenance/dhalsim-nostr-static.toml"),
    ),
    (
        "SnowCait-nostr-japanese-users.toml",
        include_str!("../../provenance/SnowCait-nostr-japanese-users.toml"),
    ),
    (
        "NicolaLS-nostr-kmp.toml",
        include_str!("../../provenance/NicolaLS-nostr-kmp.toml"),
    ),
];

/// Environment variable naming the corpus directory (the one holding `upstream/`).
pub const CORPUS_DIR_ENV: &str = "BINOSTR_CORPUS_DIR";

/// How to get the corpus when it is missing, for error messages.
pub const FETCH_HINT: &str = "the real corpus lives in ../shared/corpus beside the checkout; \
     point BINOSTR_CORPUS_DIR (or --from) at a directory holding upstream/OWNER/REPO/COMMIT/PATH, \
     fetched from each `url` in provenance/*.toml";

/// One upstream repository as recorded in `provenance/`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Repository {
    repository: String,
    commit: String,
    license: String,
    file: Vec<FileRecord>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileRecord {
    path: String,
    url: String,
    sha256: String,
    bytes: u64,
    shape: String,
    description: String,
}

/// One real corpus file with its provenance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Source {
    /// `OWNER/REPO` on GitHub.
    pub repository: String,
    /// The commit the file was taken at.
    pub commit: String,
    /// Path of the file inside the repository.
    pub path: String,
    /// Raw download URL at that commit.
    pub url: String,
    /// Lowercase hex SHA-256 of the file.
    pub sha256: String,
    /// File size in bytes.
    pub bytes: u64,
    /// SPDX licence identifier of the repository.
    pub license: String,
    /// Shape as the importer detects it ([`Shape::name`](super::import::Shape::name):
    /// `json-array`, `jsonl`, `document`, `object-of-arrays`, `object-of-events`).
    pub shape: String,
    /// What the file holds.
    pub description: String,
}

impl Source {
    /// Path relative to a mirror root: `OWNER/REPO/COMMIT/PATH`.
    pub fn mirror_path(&self) -> PathBuf {
        Path::new(&self.repository)
            .join(&self.commit)
            .join(&self.path)
    }

    /// A short label: `OWNER/REPO:PATH`.
    pub fn label(&self) -> String {
        format!("{}:{}", self.repository, self.path)
    }
}

/// Every recorded real corpus file, in provenance order.
pub fn real_sources() -> Vec<Source> {
    PROVENANCE
        .iter()
        .flat_map(|(name, text)| {
            let repo: Repository = toml::from_str(text)
                .unwrap_or_else(|e| panic!("provenance/{name} is malformed: {e}"));
            repo.file.into_iter().map(move |f| Source {
                repository: repo.repository.clone(),
                commit: repo.commit.clone(),
                path: f.path,
                url: f.url,
                sha256: f.sha256,
                bytes: f.bytes,
                license: repo.license.clone(),
                shape: f.shape,
                description: f.description,
            })
        })
        .collect()
}

/// Why a real source could not be used.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    /// No corpus directory was found.
    #[error("real corpus not found (looked in {looked}); {FETCH_HINT}")]
    NoCorpus {
        /// The places searched.
        looked: String,
    },
    /// The file is missing from the mirror.
    #[error("{path}: missing from the corpus mirror; {FETCH_HINT}")]
    Missing {
        /// Where it was expected.
        path: PathBuf,
    },
    /// The bytes differ from the recorded SHA-256.
    #[error("{path}: SHA-256 {actual} differs from the recorded {expected}; refusing it")]
    HashMismatch {
        /// The file.
        path: PathBuf,
        /// Recorded hash.
        expected: String,
        /// Hash of the bytes found.
        actual: String,
    },
    /// Reading failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

/// Finds the corpus directory (the one holding `upstream/`): `explicit` if
/// given, else `$BINOSTR_CORPUS_DIR`, else `../shared/corpus` from the current
/// directory, else `../shared/corpus` beside this crate's source tree.
pub fn corpus_dir(explicit: Option<&Path>) -> Result<PathBuf, SourceError> {
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(dir) = explicit {
        candidates.push(dir.to_path_buf());
    } else {
        if let Some(dir) = std::env::var_os(CORPUS_DIR_ENV) {
            candidates.push(dir.into());
        }
        candidates.push(PathBuf::from("../shared/corpus"));
        candidates.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    }
    candidates
        .iter()
        .find(|d| d.join("upstream").is_dir())
        .cloned()
        .ok_or_else(|| SourceError::NoCorpus {
            looked: candidates
                .iter()
                .map(|c| c.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// For tests that need the real corpus: its directory, or `None` after saying
/// plainly on stderr that `test` did not run and how to fetch the corpus.
/// Under `CI=true` a missing corpus is a failure, so it panics instead.
pub fn corpus_dir_or_skip(test: &str) -> Option<PathBuf> {
    match corpus_dir(None) {
        Ok(dir) => Some(dir),
        Err(e) if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("{test}: CI=true and {e}")
        }
        Err(e) => {
            eprintln!("NOT RUN: {test}: {e}");
            None
        }
    }
}

/// Locates `source` under `corpus_dir/upstream` and checks size and SHA-256.
pub fn resolve(source: &Source, corpus_dir: &Path) -> Result<PathBuf, SourceError> {
    let path = corpus_dir.join("upstream").join(source.mirror_path());
    let data = std::fs::read(&path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => SourceError::Missing { path: path.clone() },
        _ => SourceError::Io {
            path: path.clone(),
            source: e,
        },
    })?;
    let actual = hex::encode(&Sha256::digest(&data));
    if actual != source.sha256 {
        return Err(SourceError::HashMismatch {
            path,
            expected: source.sha256.clone(),
            actual,
        });
    }
    Ok(path)
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} @ {} ({})",
            self.label(),
            &self.commit[..12],
            self.license
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::import::Shape;

    #[test]
    fn provenance_is_complete_and_consistent() {
        let sources = real_sources();
        assert_eq!(sources.len(), 30);
        let shapes = [
            Shape::JsonArray,
            Shape::Jsonl,
            Shape::Document,
            Shape::ObjectOfArrays,
            Shape::ObjectOfEvents,
        ]
        .map(Shape::name);
        for s in &sources {
            assert_eq!(s.sha256.len(), 64, "{s}");
            assert!(hex::is_lower_hex(&s.sha256), "{s}");
            assert_eq!(s.commit.len(), 40, "{s}");
            assert_eq!(
                s.url,
                format!(
                    "https://raw.githubusercontent.com/{}/{}/{}",
                    s.repository, s.commit, s.path
                )
            );
            assert!(shapes.contains(&s.shape.as_str()), "{s}");
            assert!(["MIT", "CC0-1.0"].contains(&s.license.as_str()));
        }
    }

    #[test]
    fn tampered_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let source = real_sources().remove(0);
        let path = dir.path().join("upstream").join(source.mirror_path());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        assert!(matches!(
            resolve(&source, dir.path()),
            Err(SourceError::Missing { .. })
        ));
        std::fs::write(&path, b"[]").unwrap();
        let err = resolve(&source, dir.path()).unwrap_err();
        assert!(matches!(err, SourceError::HashMismatch { .. }), "{err}");
        assert!(err.to_string().contains("refusing"), "{err}");
    }
}

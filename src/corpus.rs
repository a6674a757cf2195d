//! Corpus sources, import and audit, generation, calibration and selection,
//! and the awkward but valid events every profile is checked on.
//!
//! Every input record is accounted for: accepted, duplicate, or rejected with
//! a reason and its position in its source.

use std::io;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::model::{Event, hex};

pub mod audit;
pub mod calibrate;
pub mod generate;
pub mod histogram;
pub mod import;
pub mod seen;
pub mod select;
pub mod source;
pub mod valid;

/// Why a corpus could not be generated or read.
#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    /// Writing the generated corpus failed.
    #[error(transparent)]
    Write(#[from] crate::files::WriteError),
    /// A recorded real source is missing or differs.
    #[error(transparent)]
    Source(#[from] source::SourceError),
    /// A source file could not be opened.
    #[error("{}", path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
    /// Reading during the audit failed.
    #[error(transparent)]
    Read(#[from] io::Error),
    /// Generated events the audit rejected.
    #[error("the generator produced {rejected} events that failed the audit of {}", path.display())]
    Rejected {
        /// Events rejected.
        rejected: u64,
        /// The generated file.
        path: PathBuf,
    },
}

/// Generates `count` events from `seed`, writes them to `path` as JSON Lines
/// and audits that file; returns the accepted events and the report. Every
/// generated event must pass the audit.
pub fn generate_audited(
    seed: u64,
    count: usize,
    path: &Path,
    options: &audit::AuditOptions,
) -> Result<(Vec<Event>, audit::AuditReport), CorpusError> {
    let events = generate::generate(seed, count);
    crate::files::write_jsonl_atomically(path, &events)?;
    let mut accepted = Vec::with_capacity(count);
    let report = audit::audit_paths(&[path.to_path_buf()], options, |e| accepted.push(e))?;
    if report.accepted != count as u64 {
        return Err(CorpusError::Rejected {
            rejected: count as u64 - report.accepted,
            path: path.to_path_buf(),
        });
    }
    Ok((accepted, report))
}

/// Audits every recorded real source (`provenance/`) from the corpus
/// directory (`from`, else `$BINOSTR_CORPUS_DIR`, else `../shared/corpus`),
/// refusing files whose SHA-256 differs.
pub fn audit_real(
    from: Option<&Path>,
    options: &audit::AuditOptions,
    accept: impl FnMut(Event),
) -> Result<audit::AuditReport, CorpusError> {
    let dir = source::corpus_dir(from)?;
    let inputs = source::real_sources()
        .iter()
        .map(|s| {
            let path = source::resolve(s, &dir)?;
            let mut input = audit::Input::open(&path).map_err(|source| CorpusError::Open {
                path: path.clone(),
                source,
            })?;
            input.label = s.label();
            Ok(input)
        })
        .collect::<Result<Vec<_>, CorpusError>>()?;
    Ok(audit::audit(inputs, options, accept)?)
}

/// SHA-256 over the sorted, concatenated 32-byte ids, as lowercase hex.
///
/// Order-independent, so it names a set of events whatever file order or
/// thread count produced it.
pub fn fingerprint<'a>(ids: impl IntoIterator<Item = &'a [u8; 32]>) -> String {
    let mut sorted: Vec<&[u8; 32]> = ids.into_iter().collect();
    sorted.sort_unstable();
    let mut hasher = Fingerprint::default();
    hasher.update(sorted.into_iter().copied());
    hasher.finish()
}

/// SHA-256 over ids fed in ascending order, as [`fingerprint`] hashes them.
#[derive(Default)]
pub struct Fingerprint(Sha256);

impl Fingerprint {
    /// Adds the next ids, in ascending order.
    pub fn update(&mut self, ids: impl IntoIterator<Item = [u8; 32]>) {
        for id in ids {
            self.0.update(id);
        }
    }

    /// The hex digest.
    pub fn finish(self) -> String {
        hex::encode(&self.0.finalize())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn fingerprint_is_order_independent() {
        let a = [1u8; 32];
        let b = [2u8; 32];
        assert_eq!(super::fingerprint([&a, &b]), super::fingerprint([&b, &a]));
        assert_ne!(super::fingerprint([&a]), super::fingerprint([&a, &b]));
        // SHA-256 of the empty string.
        assert_eq!(
            super::fingerprint([]),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}

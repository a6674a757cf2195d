//! The signed results manifest: SHA-256 of every file a campaign published,
//! signed as a Nostr event.
//!
//! `results/campaigns/<label>/manifest.json` lists, in [`canonical`] JSON,
//! the repository state at signing (git commit, dirty flag, Cargo.lock
//! SHA-256, `rustc -vV`), what the campaign recorded (its rustc, Cargo.lock
//! hash, corpus fingerprint, count, seed and audit-report hash), and
//! `{path, sha256, bytes}` for every file under the campaign directory
//! (except the manifest and its event) and, when the paper inputs were built
//! from this campaign (`\CampaignLabel` in `paper/generated/macros.tex`),
//! under `paper/generated/`, sorted by path. A verifier covers
//! `paper/generated/` exactly when the signed manifest lists files there, so
//! rebuilding the paper from another campaign leaves this one verifiable.
//! Paths are relative to the repository root with `/` separators.
//!
//! `manifest.event.json` is a NIP-94 file-metadata event (kind 1063) whose
//! `x` and `size` tags pin `manifest.json`, with `commit` and `fingerprint`
//! tags for readers. Its id follows NIP-01 ([`crate::validate`]) and it is
//! BIP-340 signed with the key described in [`key`].
//!
//! [`verify()`] needs no network and no git: it checks the event (structure,
//! id, signature, kind, an optional pinned key), its binding to the
//! manifest's bytes, the manifest's canonical form, and every file: changed,
//! missing, or present but not listed.
//!
//! The manifest reads the campaign's records through the campaign's own
//! types ([`crate::campaign::CampaignRecord`], [`crate::campaign::RunRecord`]).
//!
//! [`sign_release`] signs a release's `SHA256SUMS` the same way: one event
//! kind, one event file layout ([`event_file_bytes`]), one key.

use binostr_records::SignedEvent;
use serde::{Deserialize, Serialize};

use crate::model::{Event, hex};

pub mod canonical;
mod covered;
mod create;
pub mod key;
mod release;
mod verify;

pub use create::{CreateError, Signed, create};
pub use key::{KeySource, SigningKey};
pub use release::{
    RELEASE_EVENT_FILE, ReleaseError, SUMS_FILE, SignedRelease, SumsEntry, check_sums,
    check_version, sign_release,
};
pub use verify::{Failure, FailureClass, Verification, verify};

/// Git state; `dirty` is outside the directories the manifest covers.
pub use crate::campaign::host::Git;

/// Version of the manifest layout.
pub const SCHEMA: u64 = 1;
/// NIP-94 file metadata.
pub const KIND: u16 = 1063;
/// File name of the manifest inside the campaign directory.
pub const MANIFEST_FILE: &str = binostr_records::files::MANIFEST;
/// File name of the signature event inside the campaign directory.
pub const EVENT_FILE: &str = binostr_records::files::MANIFEST_EVENT;
/// The paper's generated inputs, covered by every manifest.
pub const PAPER_GENERATED: &str = "paper/generated";

/// `manifest.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Version of this layout; written as [`SCHEMA`].
    pub schema: u64,
    /// Campaign label.
    pub label: String,
    /// The repository when the manifest was made.
    pub git: Git,
    /// SHA-256 of the repository's Cargo.lock when the manifest was made.
    pub cargo_lock_sha256: String,
    /// Toolchains.
    pub toolchain: Toolchain,
    /// What `campaign.json` and the runs' `contract.json` recorded.
    pub campaign: SignedCampaign,
    /// The campaign's corpus.
    pub corpus: SignedCorpus,
    /// Every covered file, sorted by path.
    pub files: Vec<FileEntry>,
}

/// Toolchain versions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Toolchain {
    /// `rustc -vV` in the repository when the manifest was made.
    pub rustc: String,
    /// `contract.rustc` of the campaign's runs.
    pub campaign_rustc: String,
}

/// The campaign as recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignedCampaign {
    /// `campaign.json` `settings` (`quick` or `publication`; `profile` in
    /// manifests made before the rename).
    #[serde(alias = "profile")]
    pub settings: String,
    /// Runs planned (`campaign.json` `runs`).
    pub runs_planned: u64,
    /// The completed runs present (`run-K` directories), sorted.
    pub runs: Vec<u64>,
    /// `contract.git.commit` of the runs.
    pub commit: String,
    /// `contract.cargo_lock_sha256` of the runs.
    pub cargo_lock_sha256: String,
}

/// The corpus as recorded in `campaign.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignedCorpus {
    /// SHA-256 over the sorted accepted ids.
    pub fingerprint: String,
    /// Events.
    pub count: u64,
    /// Generation and selection seed (`null` for a corpus read from files).
    pub seed: Option<u64>,
    /// SHA-256 of the audit report.
    pub audit_sha256: String,
}

/// One covered file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileEntry {
    /// Relative to the repository root, `/`-separated.
    pub path: String,
    /// SHA-256, lowercase hex.
    pub sha256: String,
    /// Size in bytes.
    pub bytes: u64,
}

/// The campaign directory of `label` under `root`.
pub use binostr_records::label::campaign_dir;

/// `event` as the record `manifest.event.json` holds (shared with
/// `binostr-report`); written compact, it is [`Event::write_json`]'s bytes.
pub fn event_record(event: &Event) -> SignedEvent {
    SignedEvent {
        id: hex::encode(&event.id),
        pubkey: hex::encode(&event.pubkey),
        created_at: event.created_at,
        kind: event.kind,
        tags: event.tags.clone(),
        content: event.content.clone(),
        sig: hex::encode(&event.sig),
    }
}

/// The bytes of an event file (`manifest.event.json`, `release.event.json`):
/// the event's record ([`event_record`]) as compact NIP-01 JSON, and a newline.
pub fn event_file_bytes(event: &Event) -> Vec<u8> {
    let mut out = serde_json::to_vec(&event_record(event))
        .expect("a record of strings and integers serializes");
    out.push(b'\n');
    out
}

/// A BIP-340 signed event of [`KIND`] with fresh auxiliary randomness.
fn sign_event(
    key: &SigningKey,
    created_at: u64,
    tags: Vec<Vec<String>>,
    content: String,
) -> Result<Event, key::KeyError> {
    let mut aux = [0u8; 32];
    getrandom::fill(&mut aux).map_err(|e| key::KeyError::Random(e.to_string()))?;
    Ok(crate::validate::signed_event(
        key.keypair(),
        &aux,
        (KIND, created_at),
        tags,
        content,
    ))
}

fn check_label(label: &str) -> Result<(), CreateError> {
    if binostr_records::label::is_valid(label) {
        Ok(())
    } else {
        Err(CreateError::Label(label.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_event_record_is_the_nip01_json_byte_for_byte() {
        let event = Event {
            id: [1; 32],
            pubkey: [0xab; 32],
            sig: [0xcd; 64],
            created_at: 1_796_322_421,
            kind: KIND,
            tags: vec![vec!["x".into(), "a\u{1}\"\\".into()], vec![]],
            content: "line\nbreak\t\u{2028} ☕ \u{7f}".into(),
        };
        let mut nip01 = Vec::new();
        event.write_json(&mut nip01);
        let record = event_record(&event);
        assert_eq!(serde_json::to_vec(&record).unwrap(), nip01);
        assert_eq!(
            serde_json::from_slice::<SignedEvent>(&nip01).unwrap(),
            record
        );
    }
}

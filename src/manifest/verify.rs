//! `manifest verify`: checks a campaign's manifest offline, collecting every
//! failure.

use std::fmt;
use std::fs;
use std::path::Path;

use sha2::{Digest, Sha256};

use super::covered::{EntryKind, covered_dirs, hash_file, walk};
use super::{EVENT_FILE, KIND, MANIFEST_FILE, Manifest, PAPER_GENERATED, SCHEMA};
use super::{campaign_dir, canonical, check_label, key};
use crate::model::hex;
use crate::validate::{self, Limits};

/// The class of a verification failure, in order of precedence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum FailureClass {
    /// A file could not be read at all.
    Unreadable,
    /// The event is malformed, or its id is not its NIP-01 hash.
    Event,
    /// The BIP-340 signature does not verify.
    Signature,
    /// Signed by another key than the pinned one.
    Key,
    /// The event does not pin `manifest.json` (kind, `x`, `size`, `m`).
    Binding,
    /// `manifest.json` is not canonical or not a valid manifest.
    Manifest,
    /// A listed file's bytes differ.
    Modified,
    /// A listed file is absent.
    Missing,
    /// A file in a covered directory is not listed.
    Extra,
}

impl FailureClass {
    /// A stable, lowercase name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Unreadable => "unreadable",
            Self::Event => "event",
            Self::Signature => "signature",
            Self::Key => "key",
            Self::Binding => "binding",
            Self::Manifest => "manifest",
            Self::Modified => "modified",
            Self::Missing => "missing",
            Self::Extra => "extra",
        }
    }
}

/// One verification failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// Which check failed: the event, its signature or key, the manifest, or
    /// a covered file (modified, missing, extra).
    pub class: FailureClass,
    /// What exactly (paths relative to the repository root).
    pub detail: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.class.name(), self.detail)
    }
}

/// The outcome of [`verify`].
#[derive(Debug, Default)]
pub struct Verification {
    /// Every failure found, sorted by class (stable within a class).
    pub failures: Vec<Failure>,
    /// The signer, when the event could be read.
    pub pubkey: Option<[u8; 32]>,
    /// The event id, when the event could be read.
    pub event_id: Option<[u8; 32]>,
    /// The event's `created_at`, when the event could be read.
    pub created_at: Option<u64>,
    /// Files listed in the manifest.
    pub files_listed: usize,
    /// Listed files whose bytes matched.
    pub files_ok: usize,
}

impl Verification {
    /// True when nothing failed.
    pub fn ok(&self) -> bool {
        self.failures.is_empty()
    }

    fn fail(&mut self, class: FailureClass, detail: impl Into<String>) {
        self.failures.push(Failure {
            class,
            detail: detail.into(),
        });
    }
}

/// Verifies campaign `label` under `root` offline; `pinned`, when given, is
/// the only acceptable signer. Collects every failure rather than stopping
/// at the first.
pub fn verify(root: &Path, label: &str, pinned: Option<&[u8; 32]>) -> Verification {
    let mut report = Verification::default();
    if let Err(e) = check_label(label) {
        report.fail(FailureClass::Unreadable, e.to_string());
        return report;
    }
    let dir = campaign_dir(root, label);
    let rel_dir = &covered_dirs(label, false)[0];
    let read = |name: &str, report: &mut Verification| match fs::read(dir.join(name)) {
        Ok(b) => Some(b),
        Err(e) => {
            report.fail(FailureClass::Unreadable, format!("{rel_dir}/{name}: {e}"));
            None
        }
    };
    let manifest_bytes = read(MANIFEST_FILE, &mut report);
    let event_bytes = read(EVENT_FILE, &mut report);

    if let Some(event_bytes) = &event_bytes {
        verify_event(event_bytes, manifest_bytes.as_deref(), pinned, &mut report);
    }
    if let Some(bytes) = &manifest_bytes {
        if let Err(e) = canonical::check(bytes) {
            report.fail(FailureClass::Manifest, format!("{MANIFEST_FILE}: {e}"));
        }
        match serde_json::from_slice::<Manifest>(bytes) {
            Err(e) => report.fail(
                FailureClass::Manifest,
                format!("{MANIFEST_FILE}: not a valid manifest: {e}"),
            ),
            Ok(m) => verify_files(root, label, &m, &mut report),
        }
    }
    report.failures.sort_by_key(|f| f.class);
    report
}

fn verify_event(
    bytes: &[u8],
    manifest: Option<&[u8]>,
    pinned: Option<&[u8; 32]>,
    report: &mut Verification,
) {
    let event = match validate::parse_event_json_at(bytes, &Limits::default()) {
        Ok(e) => e,
        Err((e, at)) => {
            report.fail(
                FailureClass::Event,
                format!("{EVENT_FILE}: {e} at byte {at}"),
            );
            return;
        }
    };
    report.pubkey = Some(event.pubkey);
    report.event_id = Some(event.id);
    report.created_at = Some(event.created_at);
    let computed = validate::compute_id(&event);
    if computed != event.id {
        report.fail(
            FailureClass::Event,
            format!(
                "{EVENT_FILE}: id {} is not the NIP-01 id {} of the event's content",
                hex::encode(&event.id),
                hex::encode(&computed)
            ),
        );
    }
    if validate::verify_signature(&event).is_err() {
        report.fail(
            FailureClass::Signature,
            format!(
                "{EVENT_FILE}: BIP-340 signature over id {} does not verify under pubkey {}",
                hex::encode(&event.id),
                hex::encode(&event.pubkey)
            ),
        );
    }
    if let Some(pin) = pinned
        && *pin != event.pubkey
    {
        report.fail(
            FailureClass::Key,
            format!(
                "signed by {} ({}), but the pinned key is {} ({})",
                hex::encode(&event.pubkey),
                key::npub(&event.pubkey),
                hex::encode(pin),
                key::npub(pin)
            ),
        );
    }
    if event.kind != KIND {
        report.fail(
            FailureClass::Binding,
            format!("{EVENT_FILE}: kind {} is not {KIND}", event.kind),
        );
    }
    let tag = |name: &str| -> Result<&str, Failure> {
        let mut values = event
            .tags
            .iter()
            .filter(|t| t.first().map(String::as_str) == Some(name));
        let detail = match (values.next(), values.next()) {
            (Some(t), None) if t.len() == 2 => return Ok(&t[1]),
            (None, _) => format!("{EVENT_FILE}: no `{name}` tag"),
            _ => format!("{EVENT_FILE}: `{name}` must be one tag with one value"),
        };
        Err(Failure {
            class: FailureClass::Binding,
            detail,
        })
    };
    let mut check_tag = |name: &str, expected: Option<String>| match (tag(name), expected) {
        (Err(e), _) => report.failures.push(e),
        (Ok(found), Some(expected)) if found != expected => report.fail(
            FailureClass::Binding,
            format!("{EVENT_FILE}: tag `{name}` is {found}, but {MANIFEST_FILE} gives {expected}"),
        ),
        _ => {}
    };
    check_tag("m", Some("application/json".into()));
    check_tag("x", manifest.map(|m| hex::encode(&Sha256::digest(m))));
    check_tag("size", manifest.map(|m| m.len().to_string()));
}

fn verify_files(root: &Path, label: &str, manifest: &Manifest, report: &mut Verification) {
    if manifest.schema != SCHEMA {
        report.fail(
            FailureClass::Manifest,
            format!(
                "{MANIFEST_FILE}: schema {} is not {SCHEMA}",
                manifest.schema
            ),
        );
    }
    if manifest.label != label {
        report.fail(
            FailureClass::Manifest,
            format!(
                "{MANIFEST_FILE}: label is `{}`, not `{label}`",
                manifest.label
            ),
        );
    }
    let paper = manifest
        .files
        .iter()
        .any(|f| f.path.starts_with(&format!("{PAPER_GENERATED}/")));
    let covered = covered_dirs(label, paper);
    let mut listed = std::collections::BTreeSet::new();
    report.files_listed = manifest.files.len();
    for (i, entry) in manifest.files.iter().enumerate() {
        let path = &entry.path;
        if i > 0 && manifest.files[i - 1].path.as_bytes() >= path.as_bytes() {
            report.fail(
                FailureClass::Manifest,
                format!("{MANIFEST_FILE}: files not sorted or duplicated at `{path}`"),
            );
        }
        let inside = covered.iter().any(|c| {
            path.strip_prefix(c.as_str())
                .and_then(|r| r.strip_prefix('/'))
                .is_some_and(|r| r.split('/').all(|p| !p.is_empty() && p != "." && p != ".."))
        });
        if !inside || path.contains('\\') {
            report.fail(
                FailureClass::Manifest,
                format!("{MANIFEST_FILE}: `{path}` is outside the covered directories"),
            );
            continue;
        }
        listed.insert(path.as_str());
        let abs = root.join(path);
        match fs::symlink_metadata(&abs) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                report.fail(FailureClass::Missing, path.clone());
                continue;
            }
            Ok(m) if !m.is_file() => {
                report.fail(
                    FailureClass::Modified,
                    format!("{path}: not a regular file"),
                );
                continue;
            }
            _ => {}
        }
        match hash_file(&abs) {
            Err(e) => report.fail(FailureClass::Unreadable, format!("{path}: {e}")),
            Ok((sha256, bytes)) if sha256 != entry.sha256 || bytes != entry.bytes => report.fail(
                FailureClass::Modified,
                format!(
                    "{path}: sha256 {sha256} ({bytes} bytes), manifest lists {} ({} bytes)",
                    entry.sha256, entry.bytes
                ),
            ),
            Ok(_) => report.files_ok += 1,
        }
    }
    match walk(root, label, paper) {
        Err(e) => report.fail(FailureClass::Unreadable, e.to_string()),
        Ok(found) => {
            for f in found {
                if !listed.contains(f.rel.as_str()) {
                    let what = match f.kind {
                        EntryKind::File => "",
                        EntryKind::Tmp => " (unfinished .tmp entry)",
                        EntryKind::Symlink => " (symbolic link)",
                        EntryKind::Other => " (not a regular file)",
                    };
                    report.fail(FailureClass::Extra, format!("{}{what}", f.rel));
                }
            }
        }
    }
}

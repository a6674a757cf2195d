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
//! rebuilding the paper from another campaign leaves this one verifiable. Paths are relative to the repository root with `/` separators.
//!
//! `manifest.event.json` is a NIP-94 file-metadata event (kind 1063) whose
//! `x` and `size` tags pin `manifest.json`, with `commit` and `fingerprint`
//! tags for readers. Its id follows NIP-01 ([`crate::validate`]) and it is
//! BIP-340 signed with the key described in [`key`].
//!
//! [`verify`] needs no network and no git: it checks the event (structure,
//! id, signature, kind, an optional pinned key), its binding to the
//! manifest's bytes, the manifest's canonical form, and every file: changed,
//! missing, or present but not listed.

use std::fmt;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::model::{Event, hex};
use crate::validate::{self, Limits};

pub mod canonical;
pub mod key;

pub use key::{KeySource, SigningKey};

/// Version of the manifest layout.
pub const SCHEMA: u64 = 1;
/// NIP-94 file metadata.
pub const KIND: u16 = 1063;
/// File name of the manifest inside the campaign directory.
pub const MANIFEST_FILE: &str = "manifest.json";
/// File name of the signature event inside the campaign directory.
pub const EVENT_FILE: &str = "manifest.event.json";
/// The paper's generated inputs, covered by every manifest.
pub const PAPER_GENERATED: &str = "paper/generated";

/// `manifest.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// [`SCHEMA`].
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

/// Git state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Git {
    /// `HEAD` commit, 40 hex.
    pub commit: String,
    /// Whether tracked files outside the covered directories differ from `HEAD`.
    pub dirty: bool,
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
    /// `campaign_profile` (`quick` or `publication`).
    pub profile: String,
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

/// Why a manifest could not be made.
#[derive(Debug, thiserror::Error)]
pub enum CreateError {
    /// A file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// The campaign record is incomplete or inconsistent.
    #[error("{path}: {detail}")]
    Campaign {
        /// The record.
        path: String,
        /// What is wrong.
        detail: String,
    },
    /// Something in a covered directory that cannot be signed.
    #[error("{path}: {detail}; refusing to sign")]
    Refused {
        /// The entry.
        path: String,
        /// Why.
        detail: String,
    },
    /// A tool (git, rustc) failed.
    #[error("`{command}`: {detail}")]
    Tool {
        /// The command line.
        command: String,
        /// Its error output.
        detail: String,
    },
    /// The label cannot name a directory.
    #[error("bad campaign label `{0}`: use letters, digits, `.`, `_` and `-`")]
    Label(String),
    /// The signing key.
    #[error(transparent)]
    Key(#[from] key::KeyError),
}

/// A manifest and its signature, ready to be written.
#[derive(Debug)]
pub struct Signed {
    /// Where `manifest.json` goes.
    pub manifest_path: PathBuf,
    /// Its canonical bytes.
    pub manifest_bytes: Vec<u8>,
    /// Where `manifest.event.json` goes.
    pub event_path: PathBuf,
    /// The signed event.
    pub event: Event,
    /// The manifest as data.
    pub manifest: Manifest,
    /// Things a reader should know (e.g. the repository is dirty).
    pub warnings: Vec<String>,
}

impl Signed {
    /// The bytes of `manifest.event.json`: compact NIP-01 JSON and a newline.
    pub fn event_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.event.write_json(&mut out);
        out.push(b'\n');
        out
    }
}

/// The campaign directory of `label` under `root`.
pub fn campaign_dir(root: &Path, label: &str) -> PathBuf {
    root.join("results").join("campaigns").join(label)
}

fn check_label(label: &str) -> Result<(), CreateError> {
    let ok = !label.is_empty()
        && label != "."
        && label != ".."
        && label
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b));
    if ok {
        Ok(())
    } else {
        Err(CreateError::Label(label.into()))
    }
}

/// Builds and signs the manifest of campaign `label` in the repository at
/// `root`; writes nothing. `created_at` is the event's Unix time.
pub fn create(
    root: &Path,
    label: &str,
    key: &SigningKey,
    created_at: u64,
) -> Result<Signed, CreateError> {
    check_label(label)?;
    let dir = campaign_dir(root, label);
    let campaign_json = dir.join("campaign.json");
    let campaign: crate::campaign::CampaignRecord = read_json(&campaign_json)?;
    if campaign.label != label {
        return Err(CreateError::Campaign {
            path: campaign_json.display().to_string(),
            detail: format!("label is `{}`, not `{label}`", campaign.label),
        });
    }
    let corpus = SignedCorpus {
        fingerprint: hex_field(
            &campaign.corpus.fingerprint,
            &campaign_json,
            "corpus.fingerprint",
        )?,
        count: campaign.corpus.count as u64,
        seed: campaign.corpus.seed,
        audit_sha256: hex_field(
            &campaign.corpus.audit_sha256,
            &campaign_json,
            "corpus.audit_sha256",
        )?,
    };
    let profile = campaign.campaign_profile.name().to_owned();
    let runs_planned = campaign.runs as u64;

    let found = walk(root, label, paper_built_from(root, label))?;
    if let Some(f) = found.iter().find(|f| f.kind != EntryKind::File || !f.utf8) {
        return Err(CreateError::Refused {
            path: f.abs.display().to_string(),
            detail: match f.kind {
                EntryKind::Tmp => "an unfinished `.tmp` entry is present".into(),
                EntryKind::Symlink => "symbolic links are not signed".into(),
                EntryKind::Other => "not a regular file".into(),
                EntryKind::File => "file name is not UTF-8".into(),
            },
        });
    }
    let (runs, contract) = run_contracts(&dir)?;

    let mut files = Vec::with_capacity(found.len());
    for f in &found {
        let (sha256, bytes) = hash_file(&f.abs).map_err(|source| CreateError::Io {
            path: f.abs.display().to_string(),
            source,
        })?;
        files.push(FileEntry {
            path: f.rel.clone(),
            sha256,
            bytes,
        });
    }

    // Changes to either directory never make the tree dirty.
    let covered = covered_dirs(label, true);
    let mut status = vec![
        "status".to_owned(),
        "--porcelain".into(),
        "--untracked-files=no".into(),
        "--".into(),
        ".".into(),
    ];
    status.extend(covered.iter().map(|c| format!(":(exclude){c}")));
    let git = Git {
        commit: tool(root, "git", &["rev-parse", "--verify", "HEAD"])?
            .trim()
            .to_owned(),
        dirty: !tool(
            root,
            "git",
            &status.iter().map(String::as_str).collect::<Vec<_>>(),
        )?
        .trim()
        .is_empty(),
    };
    let lock = root.join("Cargo.lock");
    let cargo_lock_sha256 = hash_file(&lock)
        .map_err(|source| CreateError::Io {
            path: lock.display().to_string(),
            source,
        })?
        .0;
    let rustc = tool(root, "rustc", &["-vV"])?;

    let mut warnings = Vec::new();
    if git.dirty {
        warnings.push("the repository has uncommitted changes to tracked files".into());
    }
    if git.commit != contract.commit {
        warnings.push(format!(
            "HEAD is {}, the campaign ran at {}",
            git.commit, contract.commit
        ));
    }
    if cargo_lock_sha256 != contract.cargo_lock_sha256 {
        warnings.push("Cargo.lock differs from the one the campaign recorded".into());
    }
    if rustc.trim_end() != contract.rustc.trim_end() {
        warnings.push("rustc differs from the one the campaign recorded".into());
    }
    if runs.len() as u64 != runs_planned {
        warnings.push(format!(
            "{} of {runs_planned} planned runs are present",
            runs.len()
        ));
    }

    let manifest = Manifest {
        schema: SCHEMA,
        label: label.to_owned(),
        git,
        cargo_lock_sha256,
        toolchain: Toolchain {
            rustc,
            campaign_rustc: contract.rustc,
        },
        campaign: SignedCampaign {
            profile,
            runs_planned,
            runs,
            commit: contract.commit,
            cargo_lock_sha256: contract.cargo_lock_sha256,
        },
        corpus,
        files,
    };
    let manifest_bytes =
        canonical::to_vec(&serde_json::to_value(&manifest).expect("the manifest serialises"))
            .expect("the manifest holds only strings, integers and booleans");
    let event = sign_manifest(&manifest, &manifest_bytes, key, created_at)?;
    Ok(Signed {
        manifest_path: dir.join(MANIFEST_FILE),
        manifest_bytes,
        event_path: dir.join(EVENT_FILE),
        event,
        manifest,
        warnings,
    })
}

fn sign_manifest(
    manifest: &Manifest,
    bytes: &[u8],
    key: &SigningKey,
    created_at: u64,
) -> Result<Event, CreateError> {
    let short = &manifest.git.commit[..manifest.git.commit.len().min(12)];
    let dirty = if manifest.git.dirty { " (dirty)" } else { "" };
    let tag = |k: &str, v: String| vec![k.to_owned(), v];
    let mut aux = [0u8; 32];
    getrandom::fill(&mut aux).map_err(|e| key::KeyError::Random(e.to_string()))?;
    let event = validate::signed_event(
        key.keypair(),
        &aux,
        (KIND, created_at),
        vec![
            tag("x", hex::encode(&Sha256::digest(bytes))),
            tag("m", "application/json".into()),
            tag("size", bytes.len().to_string()),
            tag("commit", manifest.git.commit.clone()),
            tag("fingerprint", manifest.corpus.fingerprint.clone()),
            tag(
                "alt",
                format!(
                    "SHA-256 manifest of the Binostr benchmark campaign {}",
                    manifest.label
                ),
            ),
        ],
        format!(
            "Binostr results manifest: campaign {} at commit {short}{dirty}, {} files",
            manifest.label,
            manifest.files.len()
        ),
    );
    Ok(event)
}

/// The directories a manifest covers, relative to the root: the campaign's,
/// and `paper/generated/` when the paper inputs there were built from it.
fn covered_dirs(label: &str, paper: bool) -> Vec<String> {
    let mut dirs = vec![format!("results/campaigns/{label}")];
    if paper {
        dirs.push(PAPER_GENERATED.into());
    }
    dirs
}

/// Whether `paper/generated/macros.tex` was written from campaign `label`
/// (its `\CampaignLabel`).
fn paper_built_from(root: &Path, label: &str) -> bool {
    let Ok(macros) = fs::read_to_string(root.join(PAPER_GENERATED).join("macros.tex")) else {
        return false;
    };
    macros.lines().any(|l| {
        l.strip_prefix("\\newcommand{\\CampaignLabel}{")
            .and_then(|r| r.strip_suffix('}'))
            .is_some_and(|v| v.replace("\\_", "_") == label)
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EntryKind {
    File,
    Tmp,
    Symlink,
    Other,
}

struct Found {
    rel: String,
    abs: PathBuf,
    kind: EntryKind,
    utf8: bool,
}

/// Every entry under the covered directories except the manifest and its
/// event, sorted by path; `.tmp` directories are one entry, not descended.
fn walk(root: &Path, label: &str, paper: bool) -> Result<Vec<Found>, CreateError> {
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

struct Contract {
    rustc: String,
    commit: String,
    cargo_lock_sha256: String,
}

/// The `run-K` directories and the contract fields they all share.
fn run_contracts(dir: &Path) -> Result<(Vec<u64>, Contract), CreateError> {
    let io = |source| CreateError::Io {
        path: dir.display().to_string(),
        source,
    };
    let mut runs = Vec::new();
    for entry in fs::read_dir(dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        let name = entry.file_name();
        if let Some(k) = name
            .to_str()
            .and_then(|n| n.strip_prefix("run-"))
            .and_then(|k| k.parse::<u64>().ok())
            && entry.file_type().map_err(io)?.is_dir()
        {
            runs.push(k);
        }
    }
    runs.sort_unstable();
    let mut agreed: Option<(u64, Contract)> = None;
    for &k in &runs {
        let path = dir.join(format!("run-{k}")).join("contract.json");
        let record: crate::campaign::RunRecord = read_json(&path)?;
        let this = Contract {
            rustc: record.contract.rustc,
            commit: record.contract.git.commit,
            cargo_lock_sha256: record.contract.cargo_lock_sha256,
        };
        if let Some((first, c)) = &agreed {
            for (name, a, b) in [
                ("contract.rustc", &c.rustc, &this.rustc),
                ("contract.git.commit", &c.commit, &this.commit),
                (
                    "contract.cargo_lock_sha256",
                    &c.cargo_lock_sha256,
                    &this.cargo_lock_sha256,
                ),
            ] {
                if a != b {
                    return Err(CreateError::Campaign {
                        path: path.display().to_string(),
                        detail: format!("{name} differs from run-{first}'s"),
                    });
                }
            }
        } else {
            agreed = Some((k, this));
        }
    }
    agreed.map(|(_, c)| (runs, c)).ok_or(CreateError::Campaign {
        path: dir.display().to_string(),
        detail: "no completed run-K directory: nothing to sign".into(),
    })
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, CreateError> {
    let bytes = fs::read(path).map_err(|source| CreateError::Io {
        path: path.display().to_string(),
        source,
    })?;
    serde_json::from_slice(&bytes).map_err(|e| CreateError::Campaign {
        path: path.display().to_string(),
        detail: format!("not a valid record: {e}"),
    })
}

fn hex_field(v: &str, path: &Path, dotted: &str) -> Result<String, CreateError> {
    if v.len() == 64 && crate::model::hex::is_lower_hex(v) {
        Ok(v.to_owned())
    } else {
        Err(CreateError::Campaign {
            path: path.display().to_string(),
            detail: format!("field `{dotted}` must be 64 lowercase hex characters"),
        })
    }
}

fn tool(root: &Path, program: &str, args: &[&str]) -> Result<String, CreateError> {
    let command = format!("{program} {}", args.join(" "));
    let out = Command::new(program)
        .args(args)
        .current_dir(root)
        .output()
        .map_err(|e| CreateError::Tool {
            command: command.clone(),
            detail: e.to_string(),
        })?;
    if !out.status.success() {
        return Err(CreateError::Tool {
            command,
            detail: String::from_utf8_lossy(&out.stderr).trim().to_owned(),
        });
    }
    String::from_utf8(out.stdout).map_err(|_| CreateError::Tool {
        command,
        detail: "output is not UTF-8".into(),
    })
}

/// SHA-256 (lowercase hex) and size of a file, read in blocks.
fn hash_file(path: &Path) -> std::io::Result<(String, u64)> {
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
    /// Its class.
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
pub struct Report {
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

impl Report {
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
pub fn verify(root: &Path, label: &str, pinned: Option<&[u8; 32]>) -> Report {
    let mut report = Report::default();
    if let Err(e) = check_label(label) {
        report.fail(FailureClass::Unreadable, e.to_string());
        return report;
    }
    let dir = campaign_dir(root, label);
    let rel_dir = &covered_dirs(label, false)[0];
    let read = |name: &str, report: &mut Report| match fs::read(dir.join(name)) {
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
    report: &mut Report,
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
    let tag = |name: &str| -> Result<&str, String> {
        let mut values = event
            .tags
            .iter()
            .filter(|t| t.first().map(String::as_str) == Some(name));
        match (values.next(), values.next()) {
            (Some(t), None) if t.len() == 2 => Ok(&t[1]),
            (None, _) => Err(format!("{EVENT_FILE}: no `{name}` tag")),
            _ => Err(format!(
                "{EVENT_FILE}: `{name}` must be one tag with one value"
            )),
        }
    };
    let mut check_tag = |name: &str, expected: Option<String>| match (tag(name), expected) {
        (Err(e), _) => report.fail(FailureClass::Binding, e),
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

fn verify_files(root: &Path, label: &str, manifest: &Manifest, report: &mut Report) {
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

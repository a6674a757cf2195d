//! `manifest create`: hashes the covered files, records what the campaign
//! recorded, and signs the canonical manifest as a NIP-94 event.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

use super::covered::{EntryKind, covered_dirs, hash_file, walk};
use super::{
    EVENT_FILE, FileEntry, Git, MANIFEST_FILE, Manifest, PAPER_GENERATED, SCHEMA, SignedCampaign,
    SignedCorpus, SigningKey, Toolchain, campaign_dir, canonical, check_label, key,
};
use crate::campaign::{CampaignRecord, Contract, RunRecord};
use crate::model::{Event, hex};

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
    /// A tool (git) failed.
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
    /// The bytes of `manifest.event.json`: the event's record
    /// ([`super::event_record`]) as compact NIP-01 JSON, and a newline.
    pub fn event_bytes(&self) -> Vec<u8> {
        super::event_file_bytes(&self.event)
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
    let campaign: CampaignRecord = read_json(&campaign_json)?;
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
        count: campaign.corpus.count,
        seed: campaign.corpus.seed,
        audit_sha256: hex_field(
            &campaign.corpus.audit_sha256,
            &campaign_json,
            "corpus.audit_sha256",
        )?,
    };
    let settings = campaign.settings.clone();
    if <crate::campaign::CampaignSettings as clap::ValueEnum>::from_str(&settings, false).is_err() {
        return Err(CreateError::Campaign {
            path: campaign_json.display().to_string(),
            detail: format!("settings `{settings}` are not a campaign's settings"),
        });
    }
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
    // The compiler that built this binary: no rustc need be on PATH.
    let rustc = crate::campaign::host::rustc_version();

    let mut warnings = Vec::new();
    if git.dirty {
        warnings.push("the repository has uncommitted changes to tracked files".into());
    }
    if git.commit != contract.git.commit {
        warnings.push(format!(
            "HEAD is {}, the campaign ran at {}",
            git.commit, contract.git.commit
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
            settings,
            runs_planned,
            runs,
            commit: contract.git.commit,
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
    let event = super::sign_event(
        key,
        created_at,
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
    )?;
    Ok(event)
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

/// The `run-K` directories and the first run's contract, whose rustc,
/// commit and Cargo.lock hash every run shares.
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
        let this = read_json::<RunRecord>(&path)?.contract;
        if let Some((first, c)) = &agreed {
            for (name, a, b) in [
                ("contract.rustc", &c.rustc, &this.rustc),
                ("contract.git.commit", &c.git.commit, &this.git.commit),
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

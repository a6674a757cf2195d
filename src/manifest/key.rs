//! The signing key: where it comes from, how it is stored, NIP-19 encodings.
//!
//! The key comes from `BINOSTR_SIGNING_KEY` (64 hex characters or a NIP-19
//! `nsec`) or from a key file: `$XDG_CONFIG_HOME/binostr/signing-key`, else
//! `~/.config/binostr/signing-key`, holding 64 hex characters on one line.
//! A missing key file is created with fresh OS randomness, mode 0600, in a
//! directory of mode 0700. A key file that group or others may access, or
//! one inside the repository, is refused: the private key never enters the
//! repository.

use std::fmt;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use bech32::primitives::decode::CheckedHrpstring;
use bech32::{Bech32, Hrp};
use secp256k1::Keypair;

use crate::model::hex;

/// Environment variable holding a signing key (hex or `nsec`).
pub const KEY_ENV: &str = "BINOSTR_SIGNING_KEY";

/// Why no signing key could be had.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// The key text is neither 64 lowercase hex characters nor an `nsec`.
    #[error("{origin}: {detail}")]
    Malformed {
        /// Where the key came from.
        origin: String,
        /// What is wrong (never the key itself).
        detail: String,
    },
    /// A key file others may read.
    #[error(
        "{path}: mode {mode:04o} lets group or others access the signing key; run `chmod 600 {path}`"
    )]
    Permissions {
        /// The key file.
        path: String,
        /// Its permission bits.
        mode: u32,
    },
    /// A key path inside the repository.
    #[error(
        "{path}: the signing key must not live inside the repository {root}; set XDG_CONFIG_HOME or {KEY_ENV}"
    )]
    InsideRepo {
        /// The key file.
        path: String,
        /// The repository root.
        root: String,
    },
    /// Neither XDG_CONFIG_HOME nor HOME is set.
    #[error("no key location: set {KEY_ENV}, XDG_CONFIG_HOME or HOME")]
    NoLocation,
    /// Reading or creating the key file failed.
    #[error("{path}: {source}")]
    Io {
        /// The key file or its directory.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// The OS random source failed.
    #[error("no OS randomness: {0}")]
    Random(String),
}

/// Where the signing key comes from.
pub enum KeySource {
    /// Key text (64 hex or `nsec`), as from [`KEY_ENV`].
    Text(String),
    /// A key file; created when missing.
    File(PathBuf),
}

impl fmt::Debug for KeySource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Text(_) => f.write_str("Text(<redacted>)"),
            Self::File(p) => f.debug_tuple("File").field(p).finish(),
        }
    }
}

impl KeySource {
    /// The source the environment selects: [`KEY_ENV`] if set, else the
    /// default key file.
    pub fn from_env() -> Result<Self, KeyError> {
        if let Some(text) = std::env::var_os(KEY_ENV) {
            return Ok(Self::Text(text.to_string_lossy().into_owned()));
        }
        let config = std::env::var_os("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .or_else(|| {
                std::env::var_os("HOME")
                    .filter(|h| !h.is_empty())
                    .map(|h| PathBuf::from(h).join(".config"))
            })
            .ok_or(KeyError::NoLocation)?;
        Ok(Self::File(config.join("binostr").join("signing-key")))
    }
}

/// A loaded signing key. `Debug` shows only the public key.
pub struct SigningKey {
    keypair: Keypair,
    /// Set when the key file was created by this load.
    pub created: Option<PathBuf>,
}

impl fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SigningKey")
            .field("pubkey", &hex::encode(&self.pubkey()))
            .finish_non_exhaustive()
    }
}

impl SigningKey {
    /// The BIP-340 x-only public key.
    pub fn pubkey(&self) -> [u8; 32] {
        self.keypair.x_only_public_key().0.to_byte_array()
    }

    pub(crate) fn keypair(&self) -> &Keypair {
        &self.keypair
    }
}

/// Loads the key from `source`, creating a missing key file. `repo` is the
/// repository root; a key file under it is refused.
pub fn load(source: &KeySource, repo: &Path) -> Result<SigningKey, KeyError> {
    match source {
        KeySource::Text(text) => Ok(SigningKey {
            keypair: parse_secret(text.trim(), KEY_ENV)?,
            created: None,
        }),
        KeySource::File(path) => load_file(path, repo),
    }
}

fn load_file(path: &Path, repo: &Path) -> Result<SigningKey, KeyError> {
    let shown = path.display().to_string();
    let io = |source| KeyError::Io {
        path: shown.clone(),
        source,
    };
    let root = fs::canonicalize(repo).map_err(|source| KeyError::Io {
        path: repo.display().to_string(),
        source,
    })?;
    if resolve(path).map_err(io)?.starts_with(&root) {
        return Err(KeyError::InsideRepo {
            path: shown,
            root: root.display().to_string(),
        });
    }
    let mut created = None;
    if !path.exists() {
        create_key_file(path)?;
        created = Some(path.to_path_buf());
    }
    check_private(path)?;
    let text = fs::read_to_string(path).map_err(io)?;
    let line = text.strip_suffix('\n').unwrap_or(&text);
    if line.len() != 64 || !hex::is_lower_hex(line) {
        return Err(KeyError::Malformed {
            origin: shown,
            detail: "a key file holds 64 lowercase hex characters on one line".into(),
        });
    }
    Ok(SigningKey {
        keypair: parse_secret(line, &shown)?,
        created,
    })
}

/// `path` made absolute with symlinks resolved, for the parts that exist.
fn resolve(path: &Path) -> std::io::Result<PathBuf> {
    let absolute = std::path::absolute(path)?;
    let mut existing = absolute.as_path();
    let mut rest = Vec::new();
    while !existing.exists() {
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_owned());
                existing = parent;
            }
            _ => break,
        }
    }
    let mut out = fs::canonicalize(existing)?;
    out.extend(rest.iter().rev());
    Ok(out)
}

#[cfg(unix)]
fn check_private(path: &Path) -> Result<(), KeyError> {
    use std::os::unix::fs::PermissionsExt;
    let mode = fs::metadata(path)
        .map_err(|source| KeyError::Io {
            path: path.display().to_string(),
            source,
        })?
        .permissions()
        .mode()
        & 0o7777;
    if mode & 0o077 != 0 {
        return Err(KeyError::Permissions {
            path: path.display().to_string(),
            mode,
        });
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_private(path: &Path) -> Result<(), KeyError> {
    Err(KeyError::Io {
        path: path.display().to_string(),
        source: std::io::Error::other(format!(
            "key file permissions cannot be checked on this platform; use {KEY_ENV}"
        )),
    })
}

#[cfg(unix)]
fn create_key_file(path: &Path) -> Result<(), KeyError> {
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
    let io = |p: &Path| {
        let p = p.display().to_string();
        move |source| KeyError::Io { path: p, source }
    };
    if let Some(dir) = path.parent() {
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(io(dir))?;
    }
    let mut secret = [0u8; 32];
    loop {
        getrandom::fill(&mut secret).map_err(|e| KeyError::Random(e.to_string()))?;
        if Keypair::from_secret_bytes(secret).is_ok() {
            break;
        }
    }
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .map_err(io(path))?;
    let mut line = hex::encode(&secret);
    line.push('\n');
    file.write_all(line.as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(io(path))
}

#[cfg(not(unix))]
fn create_key_file(path: &Path) -> Result<(), KeyError> {
    check_private(path)
}

fn parse_secret(text: &str, origin: &str) -> Result<Keypair, KeyError> {
    let malformed = |detail: &str| KeyError::Malformed {
        origin: origin.to_owned(),
        detail: detail.to_owned(),
    };
    let bytes: [u8; 32] = if text.starts_with("nsec1") {
        decode_nip19("nsec", text).map_err(|e| malformed(&e.to_string()))?
    } else {
        hex::decode_array(text)
            .ok_or_else(|| malformed("expected 64 lowercase hex characters or an nsec"))?
    };
    Keypair::from_secret_bytes(bytes).map_err(|_| malformed("not a valid secp256k1 secret key"))
}

/// Why a text is not a public key.
#[derive(Debug, thiserror::Error)]
pub enum PubkeyError {
    /// Neither 64 lowercase hex characters nor an `npub`.
    #[error("`{0}`: expected 64 lowercase hex characters or an npub")]
    NotHex(String),
    /// A malformed `npub`.
    #[error(transparent)]
    Nip19(#[from] Nip19Error),
    /// 32 bytes that are no point on the curve.
    #[error("`{0}`: not a valid x-only public key")]
    NotOnCurve(String),
}

/// Why a NIP-19 string does not hold 32 bytes under the expected prefix.
#[derive(Debug, thiserror::Error)]
pub enum Nip19Error {
    /// Not bech32, or a bad checksum.
    #[error("bad {hrp} bech32: {detail}")]
    Bech32 {
        /// The expected prefix.
        hrp: &'static str,
        /// The decoder's reason.
        detail: String,
    },
    /// Another prefix than the expected one.
    #[error("expected prefix {expected}, found {found}")]
    Prefix {
        /// The expected prefix.
        expected: &'static str,
        /// The prefix found.
        found: String,
    },
    /// Not 32 bytes.
    #[error("{hrp} holds {len} bytes, expected 32")]
    Length {
        /// The prefix.
        hrp: &'static str,
        /// The bytes found.
        len: usize,
    },
}

/// Parses a public key given as 64 lowercase hex characters or a NIP-19 `npub`.
pub fn parse_pubkey(text: &str) -> Result<[u8; 32], PubkeyError> {
    let bytes = if text.starts_with("npub1") {
        decode_nip19("npub", text)?
    } else {
        hex::decode_array(text).ok_or_else(|| PubkeyError::NotHex(text.to_owned()))?
    };
    secp256k1::XOnlyPublicKey::from_byte_array(bytes)
        .map_err(|_| PubkeyError::NotOnCurve(text.to_owned()))?;
    Ok(bytes)
}

/// The NIP-19 `npub` of an x-only public key.
pub fn npub(pubkey: &[u8; 32]) -> String {
    bech32::encode::<Bech32>(Hrp::parse_unchecked("npub"), pubkey)
        .expect("32 bytes fit a bech32 string")
}

/// Decodes a NIP-19 bech32 (not bech32m) string with prefix `hrp` holding 32 bytes.
fn decode_nip19(hrp: &'static str, text: &str) -> Result<[u8; 32], Nip19Error> {
    let checked = CheckedHrpstring::new::<Bech32>(text).map_err(|e| Nip19Error::Bech32 {
        hrp,
        detail: e.to_string(),
    })?;
    if checked.hrp().as_str() != hrp {
        return Err(Nip19Error::Prefix {
            expected: hrp,
            found: checked.hrp().to_string(),
        });
    }
    let bytes: Vec<u8> = checked.byte_iter().collect();
    bytes
        .try_into()
        .map_err(|b: Vec<u8>| Nip19Error::Length { hrp, len: b.len() })
}

#[cfg(test)]
mod tests {
    use super::*;

    // NIP-19's own examples.
    const NSEC: &str = "nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5";
    const NSEC_HEX: &str = "67dea2ed018072d675f5415ecfaed7d2597555e202d85b3d65ea4e58d2d92ffa";
    const NPUB: &str = "npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg";
    const NPUB_HEX: &str = "7e7e9c42a91bfef19fa929e5fda1b72e0ebc1a4c1141673e2794234d86addf4e";

    #[test]
    fn nip19_vectors() {
        assert_eq!(hex::encode(&decode_nip19("nsec", NSEC).unwrap()), NSEC_HEX);
        assert_eq!(hex::encode(&parse_pubkey(NPUB).unwrap()), NPUB_HEX);
        assert_eq!(npub(&hex::decode_array(NPUB_HEX).unwrap()), NPUB);
        assert!(matches!(
            decode_nip19("npub", NSEC),
            Err(Nip19Error::Prefix { found, .. }) if found == "nsec"
        ));
        let mut broken = NPUB.to_owned();
        broken.replace_range(10..11, "q");
        let e = parse_pubkey(&broken).unwrap_err();
        assert!(matches!(e, PubkeyError::Nip19(Nip19Error::Bech32 { .. })));
        assert!(e.to_string().starts_with("bad npub bech32"), "{e}");
    }

    #[test]
    fn hex_and_nsec_give_one_key() {
        let a = parse_secret(NSEC, "t").unwrap();
        let b = parse_secret(NSEC_HEX, "t").unwrap();
        assert_eq!(a.x_only_public_key(), b.x_only_public_key());
        assert!(parse_secret(&NSEC_HEX.to_uppercase(), "t").is_err());
        assert!(parse_secret(&"00".repeat(32), "t").is_err());
    }
}

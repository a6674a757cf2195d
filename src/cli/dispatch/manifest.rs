//! `binostr manifest create|verify`.

use std::path::Path;

use anyhow::{Context, Result, bail};

use crate::cli::args::ManifestCommand;
use crate::files::write_atomically;
use crate::model::hex;

/// The signing key (from the environment or the key file; a key file
/// under `root` is refused) and the current Unix time.
pub(super) fn signing_key_now(root: &Path) -> Result<(crate::manifest::SigningKey, u64)> {
    use crate::manifest::{KeySource, key};
    let signing_key = key::load(&KeySource::from_env()?, root)?;
    if let Some(path) = &signing_key.created {
        eprintln!(
            "created a new signing key at {} (mode 0600)",
            path.display()
        );
    }
    let created_at = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .context("system clock before 1970")?
        .as_secs();
    Ok((signing_key, created_at))
}

pub(super) fn run_manifest(command: ManifestCommand) -> Result<()> {
    use crate::manifest::{self, key};
    match command {
        ManifestCommand::Create { root, label } => {
            let (signing_key, created_at) = signing_key_now(&root)?;
            let signed = manifest::create(&root, &label, &signing_key, created_at)?;
            for w in &signed.warnings {
                eprintln!("warning: {w}");
            }
            write_atomically(&signed.manifest_path, &signed.manifest_bytes)?;
            write_atomically(&signed.event_path, signed.event_bytes())?;
            let pubkey = signing_key.pubkey();
            println!(
                "manifest {} ({} files)",
                signed.manifest_path.display(),
                signed.manifest.files.len()
            );
            println!("event    {}", signed.event_path.display());
            println!("event id {}", hex::encode(&signed.event.id));
            println!("pubkey   {}", hex::encode(&pubkey));
            println!("npub     {}", key::npub(&pubkey));
            Ok(())
        }
        ManifestCommand::Verify {
            pubkey,
            root,
            label,
        } => {
            let pinned = pubkey
                .as_deref()
                .map(key::parse_pubkey)
                .transpose()
                .map_err(anyhow::Error::msg)?;
            let report = manifest::verify(&root, &label, pinned.as_ref());
            if let Some(first) = report.failures.first() {
                let all: Vec<String> = report.failures.iter().map(|f| format!("  {f}")).collect();
                bail!(
                    "manifest of `{label}` does not verify: {first}\n{} failure(s):\n{}",
                    report.failures.len(),
                    all.join("\n")
                );
            }
            let signer = report.pubkey.expect("a verified event has a pubkey");
            println!(
                "ok: {label}: {} files match; event {} signed at {} by {} ({}){}",
                report.files_ok,
                hex::encode(&report.event_id.expect("a verified event has an id")),
                report.created_at.unwrap_or_default(),
                hex::encode(&signer),
                key::npub(&signer),
                if pinned.is_some() {
                    ", the pinned key"
                } else {
                    "; no --pubkey given, so the signer is not pinned"
                }
            );
            Ok(())
        }
    }
}

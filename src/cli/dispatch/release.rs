//! `binostr release sign`.

use std::path::Path;

use anyhow::Result;

use super::manifest::signing_key_now;
use crate::cli::args::ReleaseCommand;
use crate::model::hex;

pub(super) fn run_release(command: ReleaseCommand) -> Result<()> {
    use crate::manifest::{self, key};
    match command {
        ReleaseCommand::Sign {
            version,
            commit,
            dir,
        } => {
            manifest::check_version(&version)?;
            let (signing_key, created_at) = signing_key_now(Path::new("."))?;
            let signed = manifest::sign_release(&dir, &version, &commit, &signing_key, created_at)?;
            let pubkey = signing_key.pubkey();
            println!(
                "release  {version} at {commit} ({} files in {})",
                signed.files.len(),
                manifest::SUMS_FILE
            );
            println!("event    {}", signed.path.display());
            println!("event id {}", hex::encode(&signed.event.id));
            println!("pubkey   {}", hex::encode(&pubkey));
            println!("npub     {}", key::npub(&pubkey));
            Ok(())
        }
    }
}

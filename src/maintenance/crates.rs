//! External crates in a dependency subtree, from `cargo tree`.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use super::MaintenanceError;

/// The platform whose dependencies are counted (the one the campaigns run
/// on), so that the count does not depend on the host.
pub const TARGET: &str = "x86_64-unknown-linux-gnu";

/// The dependency edges followed for a codec's crates.
pub const RUNTIME: &str = "normal";

/// The edges followed for a `build.rs` schema compiler's build-dependencies
/// (which are reached from the workspace through a build edge).
pub const BUILD: &str = "normal,build";

/// The `cargo tree` arguments for the subtrees of `crates` along `edges`.
pub fn tree_args(edges: &str, crates: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "tree", "--locked", "-e", edges, "--prefix", "none", "--target", TARGET,
    ]
    .map(String::from)
    .into();
    for c in crates {
        args.push("-p".into());
        args.push((*c).into());
    }
    args
}

/// The distinct external packages (`name vVERSION`, sorted) in the
/// dependency subtrees of `crates` along `edges`, the crates themselves
/// included; workspace (path) packages are left out. Empty for no crates.
pub fn subtree(root: &Path, edges: &str, crates: &[&str]) -> Result<Vec<String>, MaintenanceError> {
    if crates.is_empty() {
        return Ok(Vec::new());
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let args = tree_args(edges, crates);
    let shown = || format!("cargo {}", args.join(" "));
    let out = Command::new(&cargo)
        .args(&args)
        .current_dir(root)
        .output()
        .map_err(|e| MaintenanceError::Cargo {
            command: shown(),
            detail: e.to_string(),
        })?;
    if !out.status.success() {
        return Err(MaintenanceError::Cargo {
            command: shown(),
            detail: String::from_utf8_lossy(&out.stderr).trim().to_owned(),
        });
    }
    Ok(parse(&String::from_utf8_lossy(&out.stdout)))
}

/// The packages of `cargo tree --prefix none` output.
pub fn parse(text: &str) -> Vec<String> {
    let mut set = BTreeSet::new();
    for line in text.lines() {
        let mut words = line.split_whitespace();
        let (Some(name), Some(version)) = (words.next(), words.next()) else {
            continue;
        };
        if line.contains(" (/") || line.contains(" (\\") || line.contains(":\\") {
            continue;
        }
        set.insert(format!("{name} {version}"));
    }
    set.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_tree_lines() {
        let text = "capnp v0.27.3\nembedded-io v0.6.1\n\nserde v1.0.229\nserde_derive v1.0.229 (proc-macro)\n\
                    binostr-generated v0.1.0 (/w/crates/binostr-generated)\nserde v1.0.229 (*)\n";
        assert_eq!(
            parse(text),
            [
                "capnp v0.27.3",
                "embedded-io v0.6.1",
                "serde v1.0.229",
                "serde_derive v1.0.229"
            ]
        );
    }
}

//! What a run records about the build and the machine it ran on.

use std::path::Path;
use std::process::Command;

use sha2::{Digest, Sha256};

use crate::model::hex;

pub use binostr_records::{Git, Host};

/// Reading this machine into its [`Host`] record.
pub trait DetectHost {
    /// Reads `/proc` and `/sys`; whatever is missing is `unknown`.
    fn detect() -> Host;
}

/// Reading a git tree into its [`Git`] record.
pub trait DetectGit {
    /// Asks `git` in `dir`: `unknown` and dirty outside a git checkout.
    fn detect(dir: &Path) -> Git;
}

fn read_trimmed(path: &str) -> Option<String> {
    std::fs::read_to_string(path)
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

impl DetectHost for Host {
    fn detect() -> Host {
        let unknown = || "unknown".to_string();
        let cpu_model = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split_once(':'))
                    .map(|(_, v)| v.trim().to_string())
            })
            .unwrap_or_else(unknown);
        let boost = match (
            read_trimmed("/sys/devices/system/cpu/cpufreq/boost"),
            read_trimmed("/sys/devices/system/cpu/intel_pstate/no_turbo"),
        ) {
            (Some(b), _) => if b == "1" { "on" } else { "off" }.to_string(),
            (None, Some(n)) => if n == "1" { "off" } else { "on" }.to_string(),
            (None, None) => unknown(),
        };
        let hostname = read_trimmed("/proc/sys/kernel/hostname").unwrap_or_else(unknown);
        Host {
            id: format!("{hostname}/{cpu_model}"),
            hostname,
            cpu_model,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            governor: read_trimmed("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")
                .unwrap_or_else(unknown),
            boost,
            kernel: read_trimmed("/proc/sys/kernel/osrelease").unwrap_or_else(unknown),
        }
    }
}

/// The 1, 5 and 15 minute load averages, where `/proc` has them.
pub fn load_average() -> Vec<f64> {
    read_trimmed("/proc/loadavg")
        .map(|s| {
            s.split_whitespace()
                .take(3)
                .filter_map(|v| v.parse().ok())
                .collect()
        })
        .unwrap_or_default()
}

impl DetectGit for Git {
    fn detect(dir: &Path) -> Git {
        let git = |args: &[&str]| {
            Command::new("git")
                .args(args)
                .current_dir(dir)
                .output()
                .ok()
                .filter(|o| o.status.success())
                .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        };
        match git(&["rev-parse", "HEAD"]) {
            Some(commit) => Git {
                commit,
                dirty: git(&[
                    "status",
                    "--porcelain",
                    "--untracked-files=no",
                    "--",
                    ".",
                    ":(exclude)results",
                ])
                .is_none_or(|s| !s.is_empty()),
            },
            None => Git {
                commit: "unknown".into(),
                dirty: true,
            },
        }
    }
}

/// `rustc -vV` of the compiler that built this binary.
pub fn rustc_version() -> String {
    env!("BINOSTR_RUSTC_VV").replace("; ", "\n")
}

/// Cargo profile and RUSTFLAGS this binary was built with.
pub fn build_flags() -> (String, String) {
    (
        env!("BINOSTR_BUILD_PROFILE").to_string(),
        env!("BINOSTR_RUSTFLAGS").to_string(),
    )
}

/// SHA-256 of the Cargo.lock this binary was built from.
pub fn cargo_lock_sha256() -> String {
    hex::encode(&Sha256::digest(include_bytes!("../../Cargo.lock")))
}

/// SHA-256 of a file, hex.
pub fn file_sha256(path: &Path) -> std::io::Result<String> {
    Ok(hex::encode(&Sha256::digest(std::fs::read(path)?)))
}

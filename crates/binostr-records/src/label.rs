//! Campaign labels: the directory name under `results/campaigns/`.
//!
//! A label is ASCII letters, digits, `.`, `_` and `-`, and neither `.` nor
//! `..` ([`is_valid`]; a manifest refuses any other). A label the user does
//! not give is `local-SETTINGS`; `local-*` labels are scratch campaigns that
//! git ignores (`.gitignore`), while committed campaigns carry their own.

use std::path::{Path, PathBuf};

/// Whether `label` is a valid campaign label.
pub fn is_valid(label: &str) -> bool {
    !label.is_empty()
        && label != "."
        && label != ".."
        && label
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
}

/// `results/campaigns/<label>` under the repository root `root`.
pub fn campaign_dir(root: &Path, label: &str) -> PathBuf {
    root.join("results").join("campaigns").join(label)
}

/// Prefix of the labels git ignores.
pub const LOCAL_PREFIX: &str = "local-";

/// The default label of a campaign run with settings `settings`.
pub fn default_label(settings: &str) -> String {
    format!("{LOCAL_PREFIX}{settings}")
}

/// Whether `label` is a local (git-ignored) campaign.
pub fn is_local(label: &str) -> bool {
    label.starts_with(LOCAL_PREFIX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_labels_are_local() {
        assert_eq!(default_label("smoke"), "local-smoke");
        assert!(is_local(&default_label("quick")));
        assert!(!is_local("publication-default"));
        assert!(is_valid("publication-default") && is_valid("local-rec.1"));
        for bad in ["", ".", "..", "a/b", "a b", "é"] {
            assert!(!is_valid(bad), "{bad:?}");
        }
    }
}

//! Line counts of Rust sources: every line is blank, comment, test or code.
//!
//! A comment line starts (after indentation) with `//` or lies in a `/* */`
//! block that starts a line. Test lines are the non-blank lines of a
//! top-level item under `#[cfg(test)]` (an inline `mod tests { … }` up to its
//! closing `}` in column 0, as rustfmt writes it) and of the files of a
//! `#[cfg(test)] mod name;`. Code is every other line.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::MaintenanceError;

/// Line counts of one file or a sum of files.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Lines {
    /// Physical lines.
    pub lines: usize,
    /// Empty or whitespace-only lines.
    pub blank: usize,
    /// Comment lines (doc comments included).
    pub comment: usize,
    /// Non-blank lines of `#[cfg(test)]` items.
    pub test: usize,
    /// The rest: non-blank, non-comment, non-test lines.
    pub code: usize,
}

impl std::ops::AddAssign for Lines {
    fn add_assign(&mut self, o: Self) {
        self.lines += o.lines;
        self.blank += o.blank;
        self.comment += o.comment;
        self.test += o.test;
        self.code += o.code;
    }
}

/// One counted file, its path relative to the repository root.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FileLines {
    /// Path relative to the root, with `/` separators.
    pub path: String,
    /// Its counts.
    #[serde(flatten)]
    pub lines: Lines,
}

/// Counts `text`; returns the counts and the names of `#[cfg(test)] mod
/// name;` declarations, whose files are test code. With `all_test`, every
/// non-blank line is a test line.
pub fn count(text: &str, all_test: bool) -> (Lines, Vec<String>) {
    let mut n = Lines::default();
    let mut test_mods = Vec::new();
    let (mut in_comment, mut in_test, mut pending) = (false, false, false);
    for line in text.lines() {
        n.lines += 1;
        let t = line.trim();
        if t.is_empty() {
            n.blank += 1;
            continue;
        }
        if all_test || in_test {
            n.test += 1;
            in_test &= line != "}";
            continue;
        }
        if in_comment || t.starts_with("/*") {
            n.comment += 1;
            in_comment = !t.contains("*/");
            continue;
        }
        if t.starts_with("//") {
            n.comment += 1;
            continue;
        }
        if line.starts_with("#[cfg(test)]") {
            n.test += 1;
            pending = true;
            continue;
        }
        if pending {
            n.test += 1;
            if line.starts_with("#[") {
                continue;
            }
            pending = false;
            if let Some(name) = declared_mod(t) {
                test_mods.push(name.to_owned());
            } else {
                in_test = t.ends_with('{');
            }
            continue;
        }
        n.code += 1;
    }
    (n, test_mods)
}

/// `name` of `mod name;` or `pub(…) mod name;`.
fn declared_mod(t: &str) -> Option<&str> {
    let rest = t.strip_suffix(';')?;
    let at = rest.find("mod ")?;
    Some(rest[at + 4..].trim())
}

/// Submodules of a profile that serve a measuring suite, not the codec
/// (the evolution adapter): neither their lines nor their crates are the
/// format's maintenance cost.
pub const SUITE_MODULES: [&str; 1] = ["evolution"];

/// Counts a profile's module: `file` and, recursively, the `.rs` files of
/// the directory of the same stem (`src/profiles/x.rs` and `src/profiles/x/`),
/// in path order, except [`SUITE_MODULES`]. Files of `#[cfg(test)] mod
/// name;` count as test lines.
pub fn count_module(root: &Path, file: &str) -> Result<Vec<FileLines>, MaintenanceError> {
    let path = root.join(file);
    let text = read(&path)?;
    let (lines, test_mods) = count(&text, false);
    let mut out = vec![FileLines {
        path: file.to_owned(),
        lines,
    }];
    let dir = match file.strip_suffix("/mod.rs") {
        Some(parent) => PathBuf::from(parent),
        None => PathBuf::from(file.strip_suffix(".rs").unwrap_or(file)),
    };
    let mut tests: Vec<PathBuf> = test_mods
        .iter()
        .flat_map(|m| [dir.join(format!("{m}.rs")), dir.join(m)])
        .collect();
    let mut files = Vec::new();
    if root.join(&dir).is_dir() {
        walk(root, &dir, &mut files)?;
    }
    files.sort();
    for rel in files {
        let name = rel.to_string_lossy().replace('\\', "/");
        let suite = SUITE_MODULES
            .iter()
            .any(|m| rel.with_extension("") == dir.join(m) || rel.starts_with(dir.join(m)));
        if name == file || suite {
            continue;
        }
        let all_test = tests.iter().any(|t| rel.starts_with(t));
        let (lines, more) = count(&read(&root.join(&rel))?, all_test);
        let sub = rel.with_extension("");
        tests.extend(more.iter().flat_map(|m| {
            let base = if rel.ends_with("mod.rs") {
                rel.parent().unwrap_or(&rel).to_path_buf()
            } else {
                sub.clone()
            };
            [base.join(format!("{m}.rs")), base.join(m)]
        }));
        out.push(FileLines { path: name, lines });
    }
    Ok(out)
}

/// Counts a generated file (no test items).
pub fn count_file(root: &Path, file: &str) -> Result<FileLines, MaintenanceError> {
    let (lines, _) = count(&read(&root.join(file))?, false);
    Ok(FileLines {
        path: file.to_owned(),
        lines,
    })
}

/// The sum of `files`.
pub fn total(files: &[FileLines]) -> Lines {
    let mut sum = Lines::default();
    for f in files {
        sum += f.lines;
    }
    sum
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), MaintenanceError> {
    let abs = root.join(dir);
    let entries = std::fs::read_dir(&abs).map_err(|e| MaintenanceError::io(&abs, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| MaintenanceError::io(&abs, e))?;
        let rel = dir.join(entry.file_name());
        if entry.path().is_dir() {
            walk(root, &rel, out)?;
        } else if rel.extension().is_some_and(|e| e == "rs") {
            out.push(rel);
        }
    }
    Ok(())
}

pub(super) fn read(path: &Path) -> Result<String, MaintenanceError> {
    if !path.exists() {
        return Err(MaintenanceError::Missing(path.to_path_buf()));
    }
    std::fs::read_to_string(path).map_err(|e| MaintenanceError::io(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_each_line_once() {
        let text = "//! Module doc.\n\nuse x;\n/* a\n   b */\nfn f() {\n    // why\n    g();\n}\n\n\
                    #[cfg(test)]\nmod tests {\n    #[test]\n\n    fn t() {}\n}\nconst C: u8 = 1;\n\
                    #[cfg(test)]\n#[path = \"t.rs\"]\nmod other;\n";
        let (n, mods) = count(text, false);
        assert_eq!(
            n,
            Lines {
                lines: 20,
                blank: 3,
                comment: 4,
                test: 8,
                code: 5,
            }
        );
        assert_eq!(mods, ["other"]);
        let (all, _) = count(text, true);
        assert_eq!((all.test, all.code, all.blank), (17, 0, 3));
    }
}

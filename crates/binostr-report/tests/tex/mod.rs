//! The paper's `.tex` files, for the tests that read its prose.

use std::fs;
use std::path::{Path, PathBuf};

/// Every `.tex` file under `dir` (not under a `build/` directory), sorted.
pub fn tex_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "build") {
                    walk(&path, out);
                }
            } else if path.extension().is_some_and(|e| e == "tex") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}

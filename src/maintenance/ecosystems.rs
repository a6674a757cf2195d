//! Working libraries per language, from the interop results
//! (`results/interop/checks-LANG[-SUFFIX].csv`).
//!
//! A library works for a profile when its row's status is `ok` or
//! `known-divergence`. Files of one language (`checks-js.csv`,
//! `checks-js-corpus.csv`) are one ecosystem: their libraries are merged.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::MaintenanceError;

/// The statuses that count as a working library.
pub const WORKING: [&str; 2] = ["ok", "known-divergence"];

/// profile → language → working libraries.
pub type Libraries = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

/// Reads every `checks-*.csv` of `dir`; returns the libraries and the files
/// read (relative to `root`), sorted.
pub fn read(root: &Path, dir: &str) -> Result<(Libraries, Vec<String>), MaintenanceError> {
    let abs = root.join(dir);
    if !abs.is_dir() {
        return Err(MaintenanceError::Missing(abs));
    }
    let mut names = Vec::new();
    for entry in std::fs::read_dir(&abs).map_err(|e| MaintenanceError::io(&abs, e))? {
        let entry = entry.map_err(|e| MaintenanceError::io(&abs, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with("checks-") && name.ends_with(".csv") {
            names.push(name);
        }
    }
    names.sort();
    if names.is_empty() {
        return Err(MaintenanceError::Missing(abs.join("checks-*.csv")));
    }
    let mut libs = Libraries::new();
    for name in &names {
        let lang = language(name);
        let path = abs.join(name);
        let rows = parse_csv(&super::lines::read(&path)?);
        let bad = |why: String| MaintenanceError::Interop {
            path: path.clone(),
            why,
        };
        let header = rows.first().ok_or_else(|| bad("empty file".into()))?;
        let col = |c: &str| {
            header
                .iter()
                .position(|h| h == c)
                .ok_or_else(|| bad(format!("no `{c}` column")))
        };
        let (p, l, s) = (col("profile")?, col("library")?, col("status")?);
        for (i, row) in rows.iter().enumerate().skip(1) {
            let field = |k: usize| {
                row.get(k)
                    .ok_or_else(|| bad(format!("row {}: {} fields", i + 1, row.len())))
            };
            if WORKING.contains(&field(s)?.as_str()) {
                libs.entry(field(p)?.clone())
                    .or_default()
                    .entry(lang.to_owned())
                    .or_default()
                    .insert(field(l)?.clone());
            }
        }
    }
    Ok((libs, names.iter().map(|n| format!("{dir}/{n}")).collect()))
}

/// `js` of `checks-js.csv` and of `checks-js-corpus.csv`.
pub fn language(file: &str) -> &str {
    let stem = file
        .strip_prefix("checks-")
        .unwrap_or(file)
        .trim_end_matches(".csv");
    stem.split('-').next().unwrap_or(stem)
}

/// RFC 4180 records: quoted fields may hold commas, `""` and newlines.
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let (mut rows, mut row, mut field) = (Vec::new(), Vec::new(), String::new());
    let (mut quoted, mut chars) = (false, text.chars().peekable());
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\r') => {}
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => field.push(c),
        }
    }
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        rows.push(row);
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges_files_of_one_language() {
        assert_eq!(language("checks-js-corpus.csv"), "js");
        assert_eq!(language("checks-kotlin.csv"), "kotlin");
        let rows = parse_csv("a,b,c\nx,\"1, \"\"2\"\"\n3\",z\r\n");
        assert_eq!(rows, [vec!["a", "b", "c"], vec!["x", "1, \"2\"\n3", "z"]]);
    }
}

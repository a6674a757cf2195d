//! The layering `src/lib.rs` documents: each module uses only the modules
//! listed below it in the table of its doc comment. Every `crate::MODULE`
//! in `src/**/*.rs` outside comments and test code (`#[cfg(test)]` items and
//! the files of `#[cfg(test)] mod name;`, which may reach up for fixtures)
//! must name the file's own module or one listed below it.

use std::fs;
use std::path::{Path, PathBuf};

/// The modules of the table, top to bottom (`[`cli`]`, `[`mod@bench`]`).
fn table(lib: &str) -> Vec<String> {
    lib.lines()
        .filter_map(|l| l.strip_prefix("//! | [`"))
        .filter_map(|l| l.split('`').next())
        .map(|m| m.trim_start_matches("mod@").to_owned())
        .collect()
}

/// `.rs` files under `dir`, sorted.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The numbered lines of `text` outside `#[cfg(test)]` items (an item runs
/// to its line ending in `;`, or to the `}` at the attribute's indentation
/// when its first line opens a block), and the names of `#[cfg(test)] mod
/// name;` declarations.
fn non_test_lines(text: &str) -> (Vec<(usize, &str)>, Vec<String>) {
    let lines: Vec<&str> = text.lines().collect();
    let (mut kept, mut test_mods, mut i) = (Vec::new(), Vec::new(), 0);
    while i < lines.len() {
        let line = lines[i];
        if line.trim() != "#[cfg(test)]" {
            kept.push((i + 1, line));
            i += 1;
            continue;
        }
        let indent = &line[..line.len() - line.trim_start().len()];
        i += 1;
        while lines.get(i).is_some_and(|l| l.trim().starts_with("#[")) {
            i += 1;
        }
        let item = lines.get(i).map_or("", |l| l.trim());
        if let Some(name) = item.strip_suffix(';').and_then(|t| t.split("mod ").nth(1)) {
            test_mods.push(name.trim().to_owned());
        } else if item.ends_with('{') {
            while lines
                .get(i)
                .is_some_and(|l| l.strip_prefix(indent) != Some("}"))
            {
                i += 1;
            }
        } else {
            while lines.get(i).is_some_and(|l| !l.trim_end().ends_with(';')) {
                i += 1;
            }
        }
        i += 1;
    }
    (kept, test_mods)
}

/// The modules a line names as `crate::MODULE` or in `crate::{MODULE, …}`;
/// `depth` carries the braces of a `crate::{` group open at the line's end.
fn referenced(line: &str, depth: &mut usize) -> Vec<String> {
    let code = line.trim_start();
    if code.starts_with("//") {
        return Vec::new();
    }
    let first = |s: &str| {
        let s = s.trim_start();
        let end = s
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(s.len());
        s[..end].to_owned()
    };
    let braces = |s: &str, depth: usize| {
        (depth + s.matches('{').count()).saturating_sub(s.matches('}').count())
    };
    let mut out = Vec::new();
    if *depth > 0 {
        out.extend(code.split(',').map(first));
        *depth = braces(code, *depth);
    }
    for (at, _) in code.match_indices("crate::") {
        if code[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
        {
            continue;
        }
        let rest = &code[at + "crate::".len()..];
        match rest.strip_prefix('{') {
            Some(items) => {
                out.extend(items.split(',').map(first));
                *depth = braces(items, 1);
            }
            None => out.push(first(rest)),
        }
    }
    out
}

#[test]
fn every_module_uses_only_those_below_it() {
    let lib = fs::read_to_string("src/lib.rs").unwrap();
    let order = table(&lib);
    let declared: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(';'))
        .collect();
    for m in &declared {
        assert!(
            order.iter().any(|o| o == m),
            "src/lib.rs: `{m}` is missing from the table"
        );
    }
    for m in &order {
        assert!(
            declared.contains(&m.as_str()),
            "src/lib.rs: `{m}` is in the table but not a module"
        );
    }
    let level = |m: &str| order.iter().position(|o| o == m);

    let mut files = Vec::new();
    sources(Path::new("src"), &mut files);
    let texts: Vec<(PathBuf, String)> = files
        .into_iter()
        .map(|p| {
            let text = fs::read_to_string(&p).unwrap();
            (p, text)
        })
        .collect();
    let mut test_files = Vec::new();
    for (path, text) in &texts {
        let dir = path.with_extension("");
        test_files.extend(
            non_test_lines(text)
                .1
                .iter()
                .map(|m| dir.join(format!("{m}.rs"))),
        );
    }

    let mut wrong = Vec::new();
    for (path, text) in &texts {
        let rel = path.strip_prefix("src").unwrap();
        let own = rel
            .iter()
            .next()
            .unwrap()
            .to_str()
            .unwrap()
            .trim_end_matches(".rs");
        let Some(own_level) = level(own) else {
            continue; // lib.rs, main.rs, bin/: above every module
        };
        if test_files.contains(path) {
            continue;
        }
        let mut depth = 0;
        for (n, line) in non_test_lines(text).0 {
            for used in referenced(line, &mut depth) {
                if used != own && level(&used).is_some_and(|l| l <= own_level) {
                    wrong.push(format!(
                        "{}:{n}: `{own}` uses `crate::{used}`, which src/lib.rs lists above it",
                        path.display()
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "layering broken:\n{}", wrong.join("\n"));
}

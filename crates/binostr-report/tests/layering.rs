//! The crate's layers stay layers: `read` -> `model` -> `render` (see the
//! crate's doc). A file under `read/` never names `model` or `render`, one
//! under `model/` never names `render`, a root helper module (`fmt`) names
//! no other module, and no module imports one that imports it back.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A module path inside the crate: `["render", "page", "calc"]`.
type Module = Vec<String>;

fn source_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            source_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `src/render/page/mod.rs` -> `render::page`; `src/lib.rs` -> the root.
fn module_of(src: &Path, file: &Path) -> Module {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Module = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// Where a module sits: a root helper (0), `read` (1), `model` (2),
/// `render` (3), the crate root (4).
fn layer(m: &[String]) -> u8 {
    match m.first().map(String::as_str) {
        None => 4,
        Some("read") => 1,
        Some("model") => 2,
        Some("render") => 3,
        Some(_) => 0,
    }
}

fn layer_name(m: &[String]) -> String {
    match layer(m) {
        4 => "the crate root".to_owned(),
        _ => m[0].clone(),
    }
}

/// The code of a line without its comment (doc links name modules freely).
fn code(line: &str) -> &str {
    line.find("//").map_or(line, |i| &line[..i])
}

/// Every `crate::a::b` and `super::a` path of `line`, as absolute module
/// paths (identifiers only; the caller resolves them to modules). `inline`
/// is true inside a file's `mod tests`, whose `super` is the file itself.
fn paths(line: &str, here: &Module, inline: bool) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes = line.as_bytes();
    for start in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(i) = line[from..].find(start).map(|i| i + from) {
            from = i + start.len();
            if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_') {
                continue;
            }
            let mut base: Module = match (start, inline) {
                ("crate::", _) => Vec::new(),
                (_, true) => here.clone(),
                _ => here[..here.len().saturating_sub(1)].to_vec(),
            };
            let mut rest = &line[from..];
            while let Some(r) = rest.strip_prefix("super::") {
                base.pop();
                rest = r;
            }
            for ident in rest.split("::") {
                let ident: String = ident
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if ident.is_empty() {
                    break;
                }
                base.push(ident);
            }
            out.push(base);
        }
    }
    out
}

/// The longest prefix of `path` that is a module of the crate.
fn resolve(path: &[String], modules: &BTreeSet<Module>) -> Module {
    (0..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|p| modules.contains(p))
        .unwrap_or_default()
}

fn may_use(from: &Module, to: &Module) -> bool {
    match (layer(from), layer(to)) {
        (0, _) => to.first() == from.first(),
        (a, b) => b < a || (a == b && a != 4),
    }
}

/// A cycle of `graph`, when there is one.
fn find_cycle(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Option<Vec<Module>> {
    fn visit(
        m: &Module,
        graph: &BTreeMap<Module, BTreeSet<Module>>,
        state: &mut BTreeMap<Module, u8>,
        stack: &mut Vec<Module>,
    ) -> Option<Vec<Module>> {
        state.insert(m.clone(), 1);
        stack.push(m.clone());
        for next in graph.get(m).into_iter().flatten() {
            match state.get(next).copied().unwrap_or(0) {
                0 => {
                    if let Some(c) = visit(next, graph, state, stack) {
                        return Some(c);
                    }
                }
                1 => {
                    let at = stack.iter().position(|x| x == next).unwrap();
                    let mut cycle = stack[at..].to_vec();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(m.clone(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for m in graph.keys() {
        if state.get(m).copied().unwrap_or(0) == 0
            && let Some(c) = visit(m, graph, &mut state, &mut Vec::new())
        {
            return Some(c);
        }
    }
    None
}

fn show(m: &Module) -> String {
    if m.is_empty() {
        "crate".to_owned()
    } else {
        m.join("::")
    }
}

#[test]
fn imports_point_down_the_layers_and_never_in_a_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    source_files(&src, &mut files);
    files.sort();
    files.retain(|f| f.file_name().is_some_and(|n| n != "main.rs"));
    let modules: BTreeSet<Module> = files.iter().map(|f| module_of(&src, f)).collect();
    assert!(
        modules.contains(&vec!["read".to_owned()])
            && modules.contains(&vec!["model".to_owned()])
            && modules.contains(&vec!["render".to_owned()]),
        "the crate has read/, model/ and render/"
    );
    let mut wrong = Vec::new();
    let mut graph: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for file in &files {
        let here = module_of(&src, file);
        let text = fs::read_to_string(file).unwrap();
        let tests = text
            .lines()
            .position(|l| l.trim_start().starts_with("mod tests"))
            .unwrap_or(usize::MAX);
        for (n, line) in text.lines().enumerate() {
            for path in paths(code(line), &here, n > tests) {
                let to = resolve(&path, &modules);
                if to == here {
                    continue;
                }
                if !may_use(&here, &to) {
                    wrong.push(format!(
                        "{}:{}: {} uses {} (crate::{})",
                        file.strip_prefix(&src).unwrap().display(),
                        n + 1,
                        layer_name(&here),
                        layer_name(&to),
                        path.join("::")
                    ));
                }
                graph.entry(here.clone()).or_default().insert(to);
            }
        }
    }
    if let Some(cycle) = find_cycle(&graph) {
        let names: Vec<String> = cycle.iter().map(show).collect();
        wrong.push(format!("modules import each other: {}", names.join(" -> ")));
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers (read -> model -> render), or in a circle:\n{}",
        wrong.join("\n")
    );
}

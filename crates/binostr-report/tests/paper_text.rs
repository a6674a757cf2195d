//! Commands in the paper copy as typed: LaTeX sets `--` as an en dash, so
//! inside `\texttt{}` every double hyphen must be written `-{}-`.

mod tex;

use std::fs;
use std::path::Path;

use tex::tex_files;

/// The `\texttt{...}` arguments in `text` that contain `--`, with their line.
fn dashed_texttt(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut rest = text;
    let mut offset = 0;
    while let Some(at) = rest.find("\\texttt{") {
        let start = at + "\\texttt{".len();
        let mut depth = 1;
        let mut end = rest.len();
        for (i, c) in rest[start..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                end = start + i;
                break;
            }
        }
        let arg = &rest[start..end];
        if arg.contains("--") {
            let line = text[..offset + at].matches('\n').count() + 1;
            found.push((line, arg.to_string()));
        }
        offset += end.min(rest.len());
        rest = &rest[end.min(rest.len())..];
    }
    found
}

#[test]
fn scanner_finds_a_dashed_command() {
    let text = "ok \\texttt{a -{}-b}\nbad \\texttt{cargo run --release}\n";
    assert_eq!(
        dashed_texttt(text),
        vec![(2, "cargo run --release".to_string())]
    );
    assert!(dashed_texttt("range 1--2, \\texttt{x{y}z}").is_empty());
}

#[test]
fn paper_commands_keep_their_double_hyphens() {
    let paper = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../paper");
    let files = tex_files(&paper);
    assert!(
        files.len() > 5,
        "no paper sources under {}",
        paper.display()
    );
    let mut bad = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        for (line, arg) in dashed_texttt(&text) {
            bad.push(format!("{}:{line}: \\texttt{{{arg}}}", file.display()));
        }
    }
    assert!(
        bad.is_empty(),
        "write -{{}}- for -- inside \\texttt:\n{}",
        bad.join("\n")
    );
}

//! `binostr maintenance`: what each registry profile costs to keep, computed
//! from the checkout and the registry's [`Maintenance`] metadata rather than
//! typed (issue 16).
//!
//! | column | how |
//! |---|---|
//! | module lines | code lines ([`lines`]) of the profile's own files, unit tests apart |
//! | shared lines | code lines of the other profiles' or helper modules it builds on |
//! | generated lines | code lines of the code generated from its schema |
//! | crates | distinct external packages in the `cargo tree` subtrees of the crates its codec calls |
//! | build crates | the same for the build-dependencies of a `build.rs` schema compiler |
//! | schema compiler | read from the generated files' headers, or `build.rs`'s build-dependencies |
//! | ecosystems | Rust, plus each language with a working library in `results/interop/checks-*.csv` |
//! | spec | the registry's [`Spec`] |
//!
//! The codec layer every profile shares (`src/codec/`, `src/model/`) is not
//! charged to any profile.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::codec::{Maintenance, Profile, Schema, Spec};

pub mod crates;
pub mod ecosystems;
pub mod lines;

pub use lines::{FileLines, Lines};

/// The interop results read for the ecosystem column.
pub const INTEROP_DIR: &str = "results/interop";

/// Where `binostr maintenance` writes by default, under the root.
pub const OUT_DIR: &str = "results/maintenance";

/// The prost code `build.rs` generated into `OUT_DIR` for this build.
const PROST_OUT: (&str, &str) = (
    "binostr.rs",
    include_str!(concat!(env!("OUT_DIR"), "/binostr.rs")),
);

/// Why the maintenance table could not be computed.
#[derive(Debug, thiserror::Error)]
pub enum MaintenanceError {
    /// A file or directory the table is computed from is absent.
    #[error("{}: not found (run from a binostr checkout, or pass --root)", .0.display())]
    Missing(PathBuf),
    /// Reading a file failed.
    #[error("reading {}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
    /// `cargo tree` could not run or failed.
    #[error("`{command}` failed: {detail}")]
    Cargo {
        /// The command line.
        command: String,
        /// Its stderr, or why it did not start.
        detail: String,
    },
    /// An interop results file is malformed.
    #[error("{}: {why}", path.display())]
    Interop {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// A profile's metadata does not match the checkout.
    #[error("{profile}: {why}")]
    Metadata {
        /// The profile id.
        profile: &'static str,
        /// What is wrong.
        why: String,
    },
}

impl MaintenanceError {
    fn io(path: &Path, source: io::Error) -> Self {
        Self::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// The whole table, as `maintenance.json` holds it.
#[derive(Debug, Serialize)]
pub struct Report {
    /// How each column was computed.
    pub method: Method,
    /// One row per registry profile, in registry order.
    pub profiles: Vec<Row>,
}

/// How the columns were computed.
#[derive(Debug, Serialize)]
pub struct Method {
    /// The line classes.
    pub lines: &'static str,
    /// The `cargo tree` command, `-p` once per crate.
    pub crates: String,
    /// The same for a `build.rs` schema compiler.
    pub build_crates: String,
    /// The statuses counted as a working library.
    pub working_statuses: [&'static str; 2],
    /// The interop files read.
    pub interop_files: Vec<String>,
}

/// One profile's maintenance cost.
#[derive(Debug, Serialize)]
pub struct Row {
    /// Profile id.
    pub profile: &'static str,
    /// Measured by default.
    pub enabled: bool,
    /// Its own files, summed.
    pub module: Lines,
    /// Its own files.
    pub module_files: Vec<FileLines>,
    /// The modules it builds on, summed.
    pub shared: Lines,
    /// The modules it builds on.
    pub shared_files: Vec<FileLines>,
    /// Its generated code, summed.
    pub generated: Lines,
    /// Its generated code (`$OUT_DIR/…` for `build.rs` output).
    pub generated_files: Vec<FileLines>,
    /// The schema file, if any.
    pub schema: Option<&'static str>,
    /// `flatc`, `capnp`, `thrift`, `CRATES (build.rs)` or `none`.
    pub schema_compiler: String,
    /// The generated file's header line that names its compiler.
    pub generator: Option<String>,
    /// The crates its codec calls.
    pub direct_crates: &'static [&'static str],
    /// External packages in their normal subtrees (`name vVERSION`).
    pub crates: Vec<String>,
    /// External packages in the subtrees of a `build.rs` schema compiler.
    pub build_crates: Vec<String>,
    /// Rust and every language with a working library.
    pub ecosystems: Vec<Ecosystem>,
    /// The specification.
    pub spec: Spec,
}

/// A language with a working library for a profile.
#[derive(Debug, Serialize)]
pub struct Ecosystem {
    /// `rust`, or the `LANG` of `checks-LANG.csv`.
    pub language: String,
    /// The libraries (for Rust: this profile's module).
    pub libraries: Vec<String>,
}

/// Computes the table over the checkout at `root`; `progress` gets one line
/// per step.
pub fn compute(
    root: &Path,
    profiles: &[Profile],
    mut progress: impl FnMut(&str),
) -> Result<Report, MaintenanceError> {
    for need in ["Cargo.toml", "src/profiles.rs", "crates/binostr-generated"] {
        if !root.join(need).exists() {
            return Err(MaintenanceError::Missing(root.join(need)));
        }
    }
    let (libs, interop_files) = ecosystems::read(root, INTEROP_DIR)?;
    let mut trees: BTreeMap<Vec<String>, Vec<String>> = BTreeMap::new();
    let mut tree = |edges: &str, crates: &[&str], progress: &mut dyn FnMut(&str)| {
        let key: Vec<String> = std::iter::once(edges)
            .chain(crates.iter().copied())
            .map(str::to_owned)
            .collect();
        if let Some(t) = trees.get(&key) {
            return Ok(t.clone());
        }
        if !crates.is_empty() {
            progress(&format!(
                "cargo {}",
                crates::tree_args(edges, crates).join(" ")
            ));
        }
        let t = crates::subtree(root, edges, crates)?;
        trees.insert(key, t.clone());
        Ok::<_, MaintenanceError>(t)
    };
    let build_deps = build_dependencies(root)?;
    let mut rows = Vec::new();
    for (i, p) in profiles.iter().enumerate() {
        progress(&format!("{}/{} {}", i + 1, profiles.len(), p.id));
        let m: &Maintenance = &p.maintenance;
        let mut module_files = Vec::new();
        for s in m.sources {
            module_files.extend(lines::count_module(root, s)?);
        }
        let mut shared_files = Vec::new();
        for s in m.shared {
            shared_files.extend(lines::count_module(root, s)?);
        }
        if let Some(path) = m.schema.path()
            && !root.join(path).is_file()
        {
            return Err(MaintenanceError::Missing(root.join(path)));
        }
        let (generated_files, schema_compiler, generator, build_crates) = match m.schema {
            Schema::None | Schema::Document { .. } => (Vec::new(), "none".to_owned(), None, vec![]),
            Schema::Committed { generated, .. } => {
                let files = generated
                    .iter()
                    .map(|g| lines::count_file(root, g))
                    .collect::<Result<Vec<_>, _>>()?;
                let (tool, line) = compiler_of(root, p.id, generated)?;
                (files, tool.to_owned(), Some(line), vec![])
            }
            Schema::BuildScript { out, .. } => {
                if out != PROST_OUT.0 {
                    return Err(MaintenanceError::Metadata {
                        profile: p.id,
                        why: format!("no generated `{out}` is known to this build"),
                    });
                }
                let (lines, _) = lines::count(PROST_OUT.1, false);
                let file = FileLines {
                    path: format!("$OUT_DIR/{out}"),
                    lines,
                };
                let names: Vec<&str> = build_deps.iter().map(String::as_str).collect();
                let tool = format!("{} (build.rs)", names.join("+"));
                (
                    vec![file],
                    tool,
                    None,
                    tree(crates::BUILD, &names, &mut progress)?,
                )
            }
        };
        let mut ecos = vec![Ecosystem {
            language: "rust".into(),
            libraries: vec![format!("binostr ({})", m.sources.join(", "))],
        }];
        for (lang, found) in libs.get(p.id).into_iter().flatten() {
            ecos.push(Ecosystem {
                language: lang.clone(),
                libraries: found.iter().cloned().collect(),
            });
        }
        rows.push(Row {
            profile: p.id,
            enabled: p.enabled,
            module: lines::total(&module_files),
            module_files,
            shared: lines::total(&shared_files),
            shared_files,
            generated: lines::total(&generated_files),
            generated_files,
            schema: m.schema.path(),
            schema_compiler,
            generator,
            direct_crates: m.crates,
            crates: tree(crates::RUNTIME, m.crates, &mut progress)?,
            build_crates,
            ecosystems: ecos,
            spec: m.spec,
        });
    }
    Ok(Report {
        method: Method {
            lines: "code = lines that are not blank, not comments (`//`, `/* */` starting a line) \
                    and not in `#[cfg(test)]` items; unit tests are counted as test",
            crates: format!(
                "cargo {} (union over the crates)",
                crates::tree_args(crates::RUNTIME, &["CRATE"]).join(" ")
            ),
            build_crates: format!(
                "cargo {} (union over the build-dependencies)",
                crates::tree_args(crates::BUILD, &["CRATE"]).join(" ")
            ),
            working_statuses: ecosystems::WORKING,
            interop_files,
        },
        profiles: rows,
    })
}

/// The `[build-dependencies]` of the root `Cargo.toml`, sorted.
fn build_dependencies(root: &Path) -> Result<Vec<String>, MaintenanceError> {
    let path = root.join("Cargo.toml");
    let text = lines::read(&path)?;
    let manifest: toml::Table = toml::from_str(&text).map_err(|e| MaintenanceError::Interop {
        path: path.clone(),
        why: e.to_string(),
    })?;
    Ok(manifest
        .get("build-dependencies")
        .and_then(|t| t.as_table())
        .map(|t| t.keys().cloned().collect())
        .unwrap_or_default())
}

/// The compiler that wrote `generated`, from the first lines of each file.
fn compiler_of(
    root: &Path,
    profile: &'static str,
    generated: &[&str],
) -> Result<(&'static str, String), MaintenanceError> {
    const MARKS: [(&str, &str); 3] = [
        ("FlatBuffers compiler", "flatc"),
        ("Cap'n Proto schema compiler", "capnp"),
        ("Thrift Compiler", "thrift"),
    ];
    let mut found = None;
    for g in generated {
        let text = lines::read(&root.join(g))?;
        let hit = text.lines().take(5).find_map(|l| {
            MARKS
                .iter()
                .find(|(mark, _)| l.contains(mark))
                .map(|(_, tool)| (*tool, l.trim().to_owned()))
        });
        match (hit, &found) {
            (None, _) => {
                return Err(MaintenanceError::Metadata {
                    profile,
                    why: format!("{g}: no known compiler in its header"),
                });
            }
            (Some(h), None) => found = Some(h),
            (Some((tool, _)), Some((other, _))) if tool != *other => {
                return Err(MaintenanceError::Metadata {
                    profile,
                    why: format!("generated by both {other} and {tool}"),
                });
            }
            _ => {}
        }
    }
    found.ok_or(MaintenanceError::Metadata {
        profile,
        why: "committed schema without generated files".into(),
    })
}

/// `maintenance.json`.
pub fn render_json(report: &Report) -> String {
    serde_json::to_string_pretty(report).expect("the report serializes") + "\n"
}

fn languages(r: &Row) -> String {
    let l: Vec<&str> = r.ecosystems.iter().map(|e| e.language.as_str()).collect();
    l.join(" ")
}

/// `maintenance.csv`: one row per profile
/// ([`binostr_records::csv::MAINTENANCE`]).
pub fn render_csv(report: &Report) -> String {
    let quote = |s: &str| {
        if s.contains([',', '"', '\n']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_owned()
        }
    };
    let mut out = binostr_records::csv::MAINTENANCE.header_line();
    for r in &report.profiles {
        let cells = [
            r.profile.to_owned(),
            r.module.code.to_string(),
            r.generated.code.to_string(),
            r.crates.len().to_string(),
            r.schema_compiler.clone(),
            r.ecosystems.len().to_string(),
            r.spec.status().to_owned(),
            r.spec.reference(),
            if r.enabled { "yes" } else { "no" }.to_owned(),
            languages(r),
            r.module.test.to_string(),
            r.shared.code.to_string(),
            r.build_crates.len().to_string(),
        ];
        let cells: Vec<String> = cells.iter().map(|c| quote(c)).collect();
        out += &(cells.join(",") + "\n");
    }
    out
}

/// `README.md`: the columns, the method and the table.
pub fn render_readme(report: &Report) -> String {
    let mut s = String::from(README_HEAD);
    let _ = writeln!(
        s,
        "| profile | module | tests | shared | generated | crates | build crates | schema compiler | ecosystems | spec |"
    );
    let _ = writeln!(s, "|---|--:|--:|--:|--:|--:|--:|---|---|---|");
    for r in &report.profiles {
        let spec = match r.spec {
            Spec::IetfRfc { number, .. } => format!("RFC {number}"),
            _ => r.spec.status().to_owned(),
        };
        let _ = writeln!(
            s,
            "| `{}`{} | {} | {} | {} | {} | {} | {} | {} | {} ({}) | {} |",
            r.profile,
            if r.enabled { "" } else { " (disabled)" },
            r.module.code,
            r.module.test,
            r.shared.code,
            r.generated.code,
            r.crates.len(),
            r.build_crates.len(),
            r.schema_compiler,
            r.ecosystems.len(),
            languages(r),
            spec
        );
    }
    let _ = writeln!(
        s,
        "\nInterop files read: {}.",
        report.method.interop_files.join(", ")
    );
    s
}

const README_HEAD: &str = "# Maintenance cost per profile

Written by `binostr maintenance` (`just maintenance`) from the registry's
metadata (`Profile::maintenance`: source files by `file!()`, shared modules,
schema and generated files, the crates each codec calls, the specification
with its citation) and the checkout; do not edit. `binostr maintenance
--check` (run by `cargo test --test maintenance`) fails when these files
differ from what the checkout computes.

| file | content |
|---|---|
| `maintenance.csv` | one row per profile (columns below) |
| `maintenance.json` | the same with every file's line counts, the crate lists, the libraries per language and the spec's title and URLs |

| column | meaning and method |
|---|---|
| `module_lines` | code lines of the profile's own module (`file!()` of its registry entry, plus a directory of the same stem, except its `evolution` adapter, which is suite code): not blank, not a comment line (`//`, `//!`, `///`, or a `/* */` block starting a line), not in a `#[cfg(test)]` item |
| `test_lines` | non-blank lines of those `#[cfg(test)]` items (inline `mod tests`, or the files of `#[cfg(test)] mod name;`) |
| `shared_lines` | code lines of other modules the codec is built on (`positional.rs` for the serde-positional profiles, `cbor_packed.rs` for the CBOR variants, `validate/json.rs` for the JSON rows, …); the codec layer all profiles share (`src/codec/`, `src/model/`) is charged to none |
| `generated_lines` | code lines of the generated code: committed files under `crates/binostr-generated/`, or for protobuf the prost code `build.rs` writes to `OUT_DIR` (counted as built) |
| `crates` | distinct external packages (name and version) in the union of `cargo tree --locked -e normal --prefix none --target x86_64-unknown-linux-gnu -p CRATE` over the crates the codec calls, the crates themselves included, workspace crates excluded; 0 for hand-written codecs |
| `build_crates` | the same with `-e normal,build` for the build-dependencies of a `build.rs` schema compiler (protox, prost-build), which an ordinary build compiles |
| `schema_compiler` | `flatc`, `capnp` or `thrift`, read from the header of the committed generated files; the build-dependencies and `(build.rs)` when `build.rs` compiles the schema (pure Rust, no external tool); `none` otherwise, including the hand-written codecs whose layout a schema under `schemas/` documents (Avro, CDDL) |
| `ecosystems` | 1 (Rust, this module) plus each language with a working library: a row of `results/interop/checks-LANG*.csv` with status `ok` or `known-divergence` (several files of one language count once); disabled variants have no interop vectors, so they count Rust only |
| `languages` | those languages |
| `spec_status`, `spec_ref` | `ietf-rfc` (with its number), `vendor` (published by the format's maintainers), `informal` (a README, `SPEC.md` or web page) or `none` (only an implementation defines it, cited) |
| `enabled` | measured by default |

";

#[cfg(test)]
mod tests;

//! The language x format decode matrix: per format, the fastest library
//! of each language decoding to the event (this campaign's `decode` for
//! Rust, `results/interop/<language>.csv` for the others).

use std::collections::BTreeMap;

use binostr_records::Workload;

use crate::model::campaign::Campaign;

/// A language of the interop matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Language {
    /// Its id (the interop harnesses' `language` column).
    pub id: &'static str,
    /// Its name as the paper prints it.
    pub name: &'static str,
}

/// The language this campaign's own `decode` rows time.
pub const RUST: &str = "rust";

/// Languages of the interop matrix, Rust first (from the campaign's
/// `decode` rows), then the interop harnesses'.
pub const LANGUAGES: [Language; 5] = [
    Language {
        id: RUST,
        name: "Rust",
    },
    Language {
        id: "python",
        name: "Python",
    },
    Language {
        id: "js",
        name: "JavaScript",
    },
    Language {
        id: "go",
        name: "Go",
    },
    Language {
        id: "kotlin",
        name: "Kotlin",
    },
];

/// The printed names of Rust (this campaign) and of every language with an
/// interop timing, in [`LANGUAGES`] order.
pub fn measured(c: &Campaign) -> Vec<&'static str> {
    LANGUAGES
        .iter()
        .filter(|l| l.id == RUST || c.interop.iter().any(|r| r.language == l.id))
        .map(|l| l.name)
        .collect()
}

/// An SDK language the matrix names but nothing here measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unmeasured {
    /// Its id.
    pub language: &'static str,
    /// Why: a column of "not measured here", not a missing library.
    pub why: &'static str,
}

/// SDK languages the matrix names but nothing here measures.
pub const NOT_MEASURED: [Unmeasured; 1] = [Unmeasured {
    language: "swift",
    why: "Swift: no toolchain in this machine's Debian",
}];

/// The matrix cell of a language in [`NOT_MEASURED`].
pub const NOT_MEASURED_CELL: &str = "not measured here";

/// The fastest library of one language decoding to the semantic event.
#[derive(Clone, Debug, PartialEq)]
pub struct Fastest {
    /// The library (`binostr` for Rust).
    pub library: String,
    /// ns per event.
    pub ns: f64,
}

/// One language's cell of a matrix row.
#[derive(Clone, Debug, PartialEq)]
pub struct LanguageCell {
    /// The language's id.
    pub language: &'static str,
    /// Its fastest library, when measured.
    pub fastest: Option<Fastest>,
}

/// One format's row of the language matrix.
#[derive(Clone, Debug, PartialEq)]
pub struct MatrixRow {
    /// The format (profile id).
    pub format: String,
    /// One cell per language, in [`LANGUAGES`] order.
    pub cells: Vec<LanguageCell>,
}

impl MatrixRow {
    /// An empty row of `format`.
    fn new(format: String) -> Self {
        MatrixRow {
            format,
            cells: LANGUAGES
                .iter()
                .map(|l| LanguageCell {
                    language: l.id,
                    fastest: None,
                })
                .collect(),
        }
    }

    /// The cell of `language`.
    pub fn cell(&self, language: &str) -> Option<&Fastest> {
        self.cells
            .iter()
            .find(|c| c.language == language)?
            .fastest
            .as_ref()
    }

    fn cell_mut(&mut self, language: &str) -> Option<&mut Option<Fastest>> {
        self.cells
            .iter_mut()
            .find(|c| c.language == language)
            .map(|c| &mut c.fastest)
    }
}

/// The language x format decode matrix, sorted by the Rust time (formats
/// Rust does not measure last, by name). Rows timing a library's own
/// objects instead of the event ("native objects") are left out, because
/// they skip the conversion every other row pays.
pub fn language_matrix(c: &Campaign) -> Vec<MatrixRow> {
    let host = c.primary_host();
    let mut formats: BTreeMap<String, MatrixRow> = BTreeMap::new();
    for r in &c.interop {
        if !LANGUAGES.iter().any(|l| l.id == r.language) {
            continue;
        }
        if r.library.contains("native objects") || !r.ns_per_event.is_finite() {
            continue;
        }
        let row = formats
            .entry(r.format.clone())
            .or_insert_with(|| MatrixRow::new(r.format.clone()));
        let cell = row.cell_mut(&r.language).expect("a language of the matrix");
        if cell.as_ref().is_none_or(|f| r.ns_per_event < f.ns) {
            *cell = Some(Fastest {
                library: r.library.clone(),
                ns: r.ns_per_event,
            });
        }
    }
    let names: Vec<String> = formats.keys().cloned().collect();
    for f in names {
        if let Some(row) = c.row(host, Workload::Decode.name(), &f, "all", 1) {
            let rust = formats.get_mut(&f).expect("listed").cell_mut(RUST);
            *rust.expect("Rust is a language of the matrix") = Some(Fastest {
                library: "binostr".into(),
                ns: row.median_ns,
            });
        }
    }
    let mut rows: Vec<MatrixRow> = formats.into_values().collect();
    rows.sort_by(|a, b| {
        let ns = |r: &MatrixRow| r.cell(RUST).map_or(f64::INFINITY, |f| f.ns);
        ns(a)
            .total_cmp(&ns(b))
            .then_with(|| a.format.cmp(&b.format))
    });
    rows
}

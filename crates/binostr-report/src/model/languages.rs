//! The language x format decode matrix: per format, the fastest library
//! of each language decoding to the event (this campaign's `decode` for
//! Rust, `results/interop/<language>.csv` for the others).

use std::collections::BTreeMap;

use binostr_records::Workload;

use crate::model::campaign::Campaign;

/// Languages of the interop matrix, Rust first (from the campaign's
/// `decode` rows), then the interop harnesses' `language` column.
pub const LANGUAGES: [&str; 5] = ["rust", "python", "js", "go", "kotlin"];

/// The name of each of [`LANGUAGES`] as the paper prints it.
pub const LANGUAGE_NAMES: [&str; LANGUAGES.len()] =
    ["Rust", "Python", "JavaScript", "Go", "Kotlin"];

/// The printed names of Rust (this campaign) and of every language with an
/// interop timing, in [`LANGUAGES`] order.
pub fn measured(c: &Campaign) -> Vec<&'static str> {
    LANGUAGES
        .iter()
        .zip(LANGUAGE_NAMES)
        .enumerate()
        .filter(|(i, (l, _))| *i == 0 || c.interop.iter().any(|r| r.language == **l))
        .map(|(_, (_, name))| name)
        .collect()
}

/// SDK languages the matrix names but nothing here measures, and why: a
/// column of "not measured here", not a missing library.
pub const NOT_MEASURED: [(&str, &str); 1] =
    [("swift", "Swift: no toolchain in this machine's Debian")];

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

/// One format's row of the language matrix.
#[derive(Clone, Debug, PartialEq)]
pub struct MatrixRow {
    /// The format (profile id).
    pub format: String,
    /// Per language of [`LANGUAGES`], its fastest library.
    pub cells: [Option<Fastest>; LANGUAGES.len()],
}

/// The language x format decode matrix, sorted by the Rust time (formats
/// Rust does not measure last, by name). Rows timing a library's own
/// objects instead of the event ("native objects") are left out, because
/// they skip the conversion every other row pays.
pub fn language_matrix(c: &Campaign) -> Vec<MatrixRow> {
    let host = c.primary_host();
    let mut formats: BTreeMap<String, [Option<Fastest>; LANGUAGES.len()]> = BTreeMap::new();
    for r in &c.interop {
        let Some(lang) = LANGUAGES.iter().position(|l| *l == r.language) else {
            continue;
        };
        if r.library.contains("native objects") || !r.ns_per_event.is_finite() {
            continue;
        }
        let cell = &mut formats.entry(r.format.clone()).or_default()[lang];
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
            formats.get_mut(&f).expect("listed")[0] = Some(Fastest {
                library: "binostr".into(),
                ns: row.median_ns,
            });
        }
    }
    let mut rows: Vec<MatrixRow> = formats
        .into_iter()
        .map(|(format, cells)| MatrixRow { format, cells })
        .collect();
    rows.sort_by(|a, b| {
        let ns = |r: &MatrixRow| r.cells[0].as_ref().map_or(f64::INFINITY, |f| f.ns);
        ns(a)
            .total_cmp(&ns(b))
            .then_with(|| a.format.cmp(&b.format))
    });
    rows
}

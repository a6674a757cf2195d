//! Percentages compare within one compression mode, and table columns say
//! the unit of their cells.

use std::fs;

use super::root;
use super::tex::tex_files;

/// Compression modes as macro names write them; longer names first, so
/// that `DeflateCtx` is not read as `Deflate`.
const MODES: [&str; 8] = [
    "DeflateCtx",
    "Deflate",
    "ZstdEvent",
    "ZstdStream",
    "Zstd",
    "Plain",
    "Raw",
    "Framed",
];

/// `(name, value)` of every `\newcommand{\NAME}{VALUE}` line.
fn macros(text: &str) -> Vec<(&str, &str)> {
    text.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("\\newcommand{\\")?;
            let (name, value) = rest.split_once("}{")?;
            Some((name, value.strip_suffix('}')?))
        })
        .collect()
}

/// The mode a name ends with.
fn trailing_mode(name: &str) -> Option<&'static str> {
    MODES.into_iter().find(|m| name.ends_with(m))
}

/// Percentage macros that compare a profile in one mode with json in
/// another: `XModePctOfJsonOther` with `Mode != Other`, and a family
/// `XPct<Profile>` whose json member is not 100 (json against itself in
/// the same mode).
fn cross_mode(text: &str) -> Vec<String> {
    let all = macros(text);
    let mut bad = Vec::new();
    for (name, value) in &all {
        if let Some((left, right)) = name.split_once("PctOfJson")
            && (trailing_mode(left) != Some(right) || !MODES.contains(&right))
        {
            bad.push(format!("\\{name}: {left} against json {right}"));
        }
        if let Some(family) = name.strip_suffix("PctJson") {
            let v: f64 = value.parse().unwrap_or(f64::NAN);
            if (v - 100.0).abs() > 0.05 {
                bad.push(format!(
                    "\\{name} = {value}: the {family}Pct family is not over json's {family}"
                ));
            }
        }
    }
    bad
}

#[test]
fn cross_mode_percentages_are_caught() {
    let good = "\\newcommand{\\SizeZstdPctJson}{100.0}\n\
                \\newcommand{\\TransportBestDeflateCtxPctOfJsonDeflateCtx}{84.9}\n";
    assert!(cross_mode(good).is_empty());
    let bad = "\\newcommand{\\SizeZstdPctJson}{57.6}\n\
               \\newcommand{\\TransportBestDeflateCtxPctOfJsonDeflate}{71.2}\n\
               \\newcommand{\\TransportBestPlainPctOfJsonDeflate}{109.5}\n";
    assert_eq!(cross_mode(bad).len(), 3, "{:?}", cross_mode(bad));
}

/// Every percentage macro of the paper compares within one mode.
#[test]
fn percentages_compare_within_one_mode() {
    let text = super::macros();
    let bad = cross_mode(&text);
    assert!(bad.is_empty(), "paper/generated/macros.tex: {bad:?}");
}

/// One column of a typeset table.
#[derive(Debug)]
struct Column {
    /// The CSV column.
    name: String,
    /// Its style (`pct`, `ns`, ...).
    style: String,
    /// The header it shows.
    header: String,
}

/// One `\pgfplotstabletypeset[...]{generated/X.csv}`.
#[derive(Debug)]
struct Table {
    csv: String,
    columns: Vec<Column>,
}

/// The typeset tables of `tex`.
fn tables(tex: &str) -> Vec<Table> {
    let mut out = Vec::new();
    for (at, _) in tex.match_indices("\\pgfplotstabletypeset[") {
        let body = &tex[at..];
        let Some(end) = body.find("]{generated/") else {
            continue;
        };
        let csv = body[end + 2..].split('}').next().unwrap().to_owned();
        let columns = body[..end]
            .lines()
            .filter_map(|l| {
                let rest = l.trim().strip_prefix("columns/")?;
                let (name, rest) = rest.split_once("/.style={")?;
                let style = rest.split([',', '}']).next()?.trim().to_owned();
                let header = rest
                    .split_once("column name={")
                    .or_else(|| rest.split_once("column name="))
                    .map_or(String::new(), |(_, h)| {
                        h.split(['}', ',']).next().unwrap().to_owned()
                    });
                Some(Column {
                    name: name.to_owned(),
                    style,
                    header,
                })
            })
            .collect();
        out.push(Table { csv, columns });
    }
    out
}

/// The style a column's cells need, from its CSV name.
fn unit_style(name: &str) -> Option<&'static str> {
    let has = |s: &str| name == s || name.ends_with(&format!("_{s}"));
    if name.contains("ratio") {
        Some("ratio")
    } else if has("pct") {
        Some("pct")
    } else if has("ns") {
        Some("ns")
    } else if has("ms") {
        Some("ms")
    } else if name.contains("bytes") {
        Some("bytes")
    } else if name.contains("instr") || has("events") || has("refused") {
        Some("count")
    } else {
        None
    }
}

/// The unit a header names, if it names one.
fn header_unit(header: &str) -> Option<&'static str> {
    let words: Vec<&str> = header.split([' ', '/']).collect();
    if header.contains("\\%") {
        Some("pct")
    } else if words.contains(&"B") {
        Some("bytes")
    } else if words.contains(&"ns") {
        Some("ns")
    } else if words.contains(&"ms") {
        Some("ms")
    } else {
        None
    }
}

/// A column whose cells are a spread in %, not a share of json.
fn spread(name: &str) -> bool {
    name.ends_with("range_pct") || name.ends_with("dev_pct")
}

/// Columns whose style or header does not match their cells: the style
/// against the CSV name's unit, the header's unit against both, and a
/// `_pct` column's json row, which is 100 when the cells are % of json in
/// the same mode (`csv` gives a table's CSV text by name).
fn unit_mismatches(tex: &str, csv: impl Fn(&str) -> Option<String>) -> Vec<String> {
    let mut bad = Vec::new();
    for t in tables(tex) {
        let text = csv(&t.csv);
        let mut lines = text.as_deref().unwrap_or("").lines();
        let head: Vec<&str> = lines.next().unwrap_or("").split(',').collect();
        let json: Option<Vec<&str>> = lines
            .map(|l| l.split(',').collect::<Vec<_>>())
            .find(|cells| cells.first() == Some(&"json"));
        for c in &t.columns {
            let want = unit_style(&c.name);
            if let Some(w) = want
                && c.style != w
            {
                bad.push(format!(
                    "{}: {} is styled {}, its cells are {w}",
                    t.csv, c.name, c.style
                ));
            }
            if let (Some(h), Some(w)) = (header_unit(&c.header), want)
                && h != w
            {
                bad.push(format!(
                    "{}: {}'s header `{}` says {h}, its cells are {w}",
                    t.csv, c.name, c.header
                ));
            }
            let cell = head
                .iter()
                .position(|h| *h == c.name)
                .and_then(|i| json.as_ref()?.get(i).copied());
            if want == Some("pct")
                && !spread(&c.name)
                && let Some(v) = cell.and_then(|v| v.parse::<f64>().ok())
                && (v - 100.0).abs() > 0.05
            {
                bad.push(format!(
                    "{}: {} is {v} for json, so its cells are not % of json in the same mode",
                    t.csv, c.name
                ));
            }
        }
    }
    bad
}

#[test]
fn unit_mismatches_are_caught() {
    let tex = "\\pgfplotstabletypeset[\n  columns={profile,raw_pct,zstd_event_pct,raw_bytes},\n  \
               columns/raw_pct/.style={pct, column name=raw},\n  \
               columns/zstd_event_pct/.style={pct, column name={zstd}},\n  \
               columns/raw_bytes/.style={ns, column name={ns}},\n]{generated/t.csv}\n";
    let csv = |_: &str| {
        Some("profile,raw_pct,zstd_event_pct,raw_bytes\njson,100.0,57.6,1113\n".to_owned())
    };
    let bad = unit_mismatches(tex, csv);
    assert_eq!(bad.len(), 3, "{bad:?}");
    assert!(bad[0].contains("zstd_event_pct is 57.6 for json"));
    assert!(bad[1].contains("raw_bytes is styled ns"));
    assert!(bad[2].contains("header `ns` says ns"));
}

/// Every table of the paper styles and heads each column in its cells' unit.
#[test]
fn table_columns_state_their_units() {
    let generated = root().join("paper/generated");
    let mut bad = Vec::new();
    for f in tex_files(&root().join("paper/sections")) {
        let tex = fs::read_to_string(&f).unwrap();
        for b in unit_mismatches(&tex, |name| fs::read_to_string(generated.join(name)).ok()) {
            bad.push(format!("{}: {b}", f.display()));
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

//! `results/links/links.csv` (`binostr links`): the transport loop on
//! shaped links, one row per profile, mode, deflater, link and round-trip
//! time. Read strictly through [`LINKS`]: the header must be the layout's,
//! and every cell must parse as its column's type.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result, bail};
use binostr_records::csv::{ColumnType, LINKS, Layout};

use crate::interval::Interval;
use crate::read::side::ProfileTable;
use crate::read::transport::Mode;

/// The directory of the links results, relative to the repository root.
pub const DIR: &str = "results/links";

/// One row of `links.csv` (columns: [`LINKS`]).
#[derive(Clone, Debug, PartialEq)]
pub struct LinkRow {
    /// Line in the file (the header is line 1).
    pub line: usize,
    /// Profile id.
    pub profile: String,
    /// The compression mode.
    pub mode: Mode,
    /// The deflater (`zlib-1`, `zlib-rs-1`); empty for `none`.
    pub deflate_impl: String,
    /// Link name (`unshaped`, `10mbit`).
    pub link: String,
    /// Rate in Mbit/s; `None` when unshaped.
    pub rate_mbit: Option<f64>,
    /// Round-trip time, ms.
    pub rtt_ms: f64,
    /// Whether the round trip is modelled (else measured, nothing added).
    pub modelled: bool,
    /// Events per REQ → EOSE exchange.
    pub events: i64,
    /// Timed rounds.
    pub rounds: i64,
    /// Socket bytes relay → client of one exchange.
    pub s2c_bytes: i64,
    /// Socket bytes client → relay of one exchange.
    pub c2s_bytes: i64,
    /// REQ → EOSE seconds.
    pub req_eose_s: Interval,
    /// Per-round time ratio to json in the same mode (`None` for json).
    pub time_vs_json: Option<Interval>,
    /// Per-round time ratio to json with deflate (`None` for it).
    pub time_vs_json_deflate: Option<Interval>,
    /// Relay CPU ns per event of the exchange.
    pub relay_cpu_ns: Interval,
    /// Client CPU ns per event of the exchange.
    pub client_cpu_ns: Interval,
    /// Events published one at a time per round (EVENT → OK).
    pub published: i64,
    /// EVENT → OK seconds per event.
    pub event_ok_s: Option<Interval>,
    /// Mean socket bytes of one EVENT (client → relay).
    pub event_c2s_bytes: f64,
    /// Mean socket bytes of its OK (relay → client).
    pub ok_s2c_bytes: f64,
    /// Relay CPU ns per published event.
    pub event_relay_cpu_ns: Interval,
    /// Client CPU ns per published event.
    pub event_client_cpu_ns: Interval,
}

/// `links.csv` under `root`; empty (with a warning) when absent. A header
/// other than [`LINKS`]'s, a row of the wrong width, a cell that is not
/// its column's type or an unknown mode is an error naming the line.
pub fn read(root: &Path, warnings: &mut Vec<String>) -> Result<Vec<LinkRow>> {
    let path = root.join(LINKS.file);
    if !path.exists() {
        warnings.push(format!(
            "{} is missing: no Links section, table or plot",
            path.display()
        ));
        return Ok(Vec::new());
    }
    let text = fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let header = text.lines().next().unwrap_or_default();
    if header != LINKS.header() {
        bail!(
            "{}: header at line 1 is {header:?}, expected {:?} (written by an older `binostr \
             links`? rerun it)",
            path.display(),
            LINKS.header()
        );
    }
    let table = ProfileTable::read(root, &LINKS, warnings)?;
    let rows = table
        .rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            parse_row(&Cells {
                path: &path,
                line: i + 2,
                table: &table,
                row,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    no_duplicates(&path, &rows)?;
    Ok(rows)
}

impl LinkRow {
    /// Whether the deflater is the deployed default: `zlib-1`, or empty
    /// (`none` rows).
    pub fn default_deflater(&self) -> bool {
        matches!(self.deflate_impl.as_str(), "" | DEFAULT_DEFLATER)
    }
}

/// The deflater measured by default (C zlib, level 1).
pub const DEFAULT_DEFLATER: &str = "zlib-1";

/// Two rows of one profile, mode, deflater, link and round-trip time are
/// an error (`""` and `zlib-1` are one deflater).
fn no_duplicates(path: &Path, rows: &[LinkRow]) -> Result<()> {
    let mut seen = std::collections::BTreeMap::new();
    for r in rows {
        let deflater = if r.default_deflater() {
            DEFAULT_DEFLATER
        } else {
            r.deflate_impl.as_str()
        };
        let key = (&r.profile, r.mode, deflater, &r.link, r.rtt_ms.to_bits());
        if let Some(first) = seen.insert(key, r.line) {
            bail!(
                "{}: line {} repeats line {first} ({} {} {deflater} {} rtt {} ms)",
                path.display(),
                r.line,
                r.profile,
                r.mode.name(),
                r.link,
                r.rtt_ms
            );
        }
    }
    Ok(())
}

/// One row's cells, typed on access.
struct Cells<'a> {
    path: &'a Path,
    line: usize,
    table: &'a ProfileTable,
    row: &'a [String],
}

impl Cells<'_> {
    fn raw(&self, name: &str) -> &str {
        self.table.cell(self.row, name).unwrap_or_default()
    }

    /// The cell of `name`, checked against `layout`'s type for it.
    fn typed(&self, name: &str, want: ColumnType) -> Result<&str> {
        let ty = column_type(&LINKS, name);
        debug_assert_eq!(ty, Some(want), "{name}");
        let s = self.raw(name);
        let ok = match want {
            ColumnType::Str => true,
            ColumnType::Int => s.parse::<i64>().is_ok(),
            ColumnType::Real => s.is_empty() || s.parse::<f64>().is_ok_and(f64::is_finite),
        };
        if !ok {
            bail!(
                "{}: line {}: column `{name}` is {s:?}, not {}",
                self.path.display(),
                self.line,
                match want {
                    ColumnType::Int => "an integer",
                    _ => "a number",
                }
            );
        }
        Ok(s)
    }

    fn text(&self, name: &str) -> Result<String> {
        self.typed(name, ColumnType::Str).map(str::to_owned)
    }

    fn int(&self, name: &str) -> Result<i64> {
        Ok(self.typed(name, ColumnType::Int)?.parse()?)
    }

    /// A real cell; `None` when empty.
    fn opt(&self, name: &str) -> Result<Option<f64>> {
        let s = self.typed(name, ColumnType::Real)?;
        Ok((!s.is_empty()).then(|| s.parse().expect("checked")))
    }

    /// A real cell that must be present.
    fn real(&self, name: &str) -> Result<f64> {
        match self.opt(name)? {
            Some(x) => Ok(x),
            None => self.fail(&format!("column `{name}` is empty")),
        }
    }

    /// `name`, `name_lo`, `name_hi`: all empty or all present.
    fn triple(&self, name: &str) -> Result<Option<Interval>> {
        let (lo, hi) = (format!("{name}_lo"), format!("{name}_hi"));
        match (self.opt(name)?, self.opt(&lo)?, self.opt(&hi)?) {
            (Some(est), Some(lo), Some(hi)) => Ok(Some(Interval { est, lo, hi })),
            (None, None, None) => Ok(None),
            _ => self.fail(&format!("`{name}` and its interval are partly empty")),
        }
    }

    /// [`Self::triple`], which must not be empty.
    fn required(&self, name: &str) -> Result<Interval> {
        match self.triple(name)? {
            Some(i) => Ok(i),
            None => self.fail(&format!("`{name}` is empty")),
        }
    }

    fn fail<T>(&self, what: &str) -> Result<T> {
        bail!("{}: line {}: {what}", self.path.display(), self.line)
    }
}

fn column_type(layout: &Layout, name: &str) -> Option<ColumnType> {
    layout.columns.iter().find(|c| c.name == name).map(|c| c.ty)
}

fn parse_row(c: &Cells) -> Result<LinkRow> {
    let name = c.text("mode")?;
    let Some(mode) = Mode::from_name(&name) else {
        let names: Vec<&str> = Mode::ALL.iter().map(|m| m.name()).collect();
        return c.fail(&format!("mode {name:?} is none of {}", names.join(", ")));
    };
    let modelled = match c.text("rtt_source")?.as_str() {
        "measured" => false,
        "modelled" => true,
        other => return c.fail(&format!("rtt_source {other:?} is not measured or modelled")),
    };
    let Some(req_eose_s) = c.triple("req_eose_s")? else {
        return c.fail("req_eose_s is empty");
    };
    Ok(LinkRow {
        line: c.line,
        profile: c.text("profile")?,
        mode,
        deflate_impl: c.text("deflate_impl")?,
        link: c.text("link")?,
        rate_mbit: c.opt("rate_mbit")?,
        rtt_ms: c.real("rtt_ms")?,
        modelled,
        events: c.int("events")?,
        rounds: c.int("rounds")?,
        s2c_bytes: c.int("s2c_bytes")?,
        c2s_bytes: c.int("c2s_bytes")?,
        req_eose_s,
        time_vs_json: c.triple("time_vs_json")?,
        time_vs_json_deflate: c.triple("time_vs_json_deflate")?,
        relay_cpu_ns: c.required("relay_cpu_ns_per_event")?,
        client_cpu_ns: c.required("client_cpu_ns_per_event")?,
        published: c.int("published")?,
        event_ok_s: c.triple("event_ok_s")?,
        event_c2s_bytes: c.real("event_c2s_bytes")?,
        ok_s2c_bytes: c.real("ok_s2c_bytes")?,
        event_relay_cpu_ns: c.required("event_relay_cpu_ns")?,
        event_client_cpu_ns: c.required("event_client_cpu_ns")?,
    })
}

/// A `links.csv` line for tests: `profile,mode,impl,link,rtt` and the
/// REQ → EOSE median `t` (interval ±1 %), its ratio to json with deflate
/// (`None`: empty), and the EVENT bytes.
#[cfg(test)]
pub(crate) fn test_line(
    key: (&str, &str, &str, &str, f64),
    t: f64,
    vs_deflate: Option<f64>,
    event_bytes: f64,
) -> String {
    let (profile, mode, deflater, link, rtt) = key;
    let rate = link.strip_suffix("mbit").unwrap_or("");
    let source = if rtt > 0.0 { "modelled" } else { "measured" };
    let ci = |x: f64| format!("{x},{},{}", x * 0.99, x * 1.01);
    let ratio = vs_deflate.map_or(",,".to_owned(), ci);
    format!(
        "{profile},{mode},{deflater},{link},{rate},{rtt},{source},60,3,1000,20,{},,,,{ratio},\
         {},{},5,{},{event_bytes},100,{},{}\n",
        ci(t),
        ci(2000.0),
        ci(3000.0),
        ci(0.001),
        ci(40000.0),
        ci(5000.0)
    )
}

/// Reads `lines` as `links.csv` under a temporary root.
#[cfg(test)]
pub(crate) fn test_rows(lines: &[String]) -> Vec<LinkRow> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(LINKS.file);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, LINKS.header_line() + &lines.concat()).unwrap();
    read(dir.path(), &mut Vec::new()).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(text: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(DIR)).unwrap();
        std::fs::write(dir.path().join(LINKS.file), text).unwrap();
        dir
    }

    #[test]
    fn rows_read_typed() {
        let text = LINKS.header_line()
            + &test_line(("json", "none", "", "10mbit", 0.0), 0.04, Some(1.8), 800.0)
            + &test_line(
                ("json", "deflate", "zlib-1", "unshaped", 50.0),
                0.002,
                None,
                500.0,
            );
        let dir = write(&text);
        let mut warnings = Vec::new();
        let rows = read(dir.path(), &mut warnings).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].line, 2);
        assert_eq!(rows[0].rate_mbit, Some(10.0));
        assert!(!rows[0].modelled && rows[1].modelled);
        assert_eq!(rows[0].time_vs_json, None);
        assert_eq!(rows[0].time_vs_json_deflate.map(|r| r.est), Some(1.8));
        assert_eq!(rows[1].rate_mbit, None);
        assert!(rows[0].default_deflater() && rows[1].default_deflater());
    }

    #[test]
    fn a_missing_file_is_a_warning() {
        let dir = tempfile::tempdir().unwrap();
        let mut warnings = Vec::new();
        assert!(read(dir.path(), &mut warnings).unwrap().is_empty());
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains("links.csv is missing"), "{warnings:?}");
    }

    #[test]
    fn a_malformed_line_is_an_error_with_its_number() {
        let good = test_line(("json", "none", "", "1mbit", 0.0), 0.4, Some(1.8), 800.0);
        let bad_int = good.replacen(",60,3,", ",60,three,", 1);
        let dir = write(&(LINKS.header_line() + &good + &bad_int));
        let e = read(dir.path(), &mut Vec::new()).unwrap_err().to_string();
        assert!(e.contains("line 3") && e.contains("`rounds`"), "{e}");
        let short = good.replacen("json,none,", "json,", 1);
        let dir = write(&(LINKS.header_line() + &short));
        let e = read(dir.path(), &mut Vec::new()).unwrap_err().to_string();
        assert!(e.contains("line 2"), "{e}");
        let mode = good.replacen(",none,", ",brotli,", 1);
        let dir = write(&(LINKS.header_line() + &good + &good.replace("1mbit", "10mbit") + &mode));
        let e = read(dir.path(), &mut Vec::new()).unwrap_err().to_string();
        assert!(e.contains("line 4") && e.contains("brotli"), "{e}");
    }

    #[test]
    fn another_header_or_a_repeated_row_is_an_error() {
        let good = test_line(("json", "none", "", "1mbit", 0.0), 0.4, Some(1.8), 800.0);
        let old = LINKS.header().replace(",event_client_cpu_ns_hi", "") + "\n";
        let dir = write(&(old + &good));
        let e = read(dir.path(), &mut Vec::new()).unwrap_err().to_string();
        assert!(e.contains("header at line 1"), "{e}");
        let dir = write(&(LINKS.header_line() + &good + &good));
        let e = read(dir.path(), &mut Vec::new()).unwrap_err().to_string();
        assert!(e.contains("line 3 repeats line 2"), "{e}");
    }
}

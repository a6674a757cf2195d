//! HTML text: escaping, and the sortable table every section uses.
//!
//! A table is plain HTML (readable without scripts); `assets/page.js` sorts
//! it by a header click, using each cell's `data-sort` value, and filters
//! rows by their `data-subset`.

use std::fmt::Write as _;

use binostr_records::Subset;

use crate::fmt::{RATIO, fixed};
use crate::interval::Interval;

/// `s` with `& < > " '` escaped, for text and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// Text with `` `code` `` spans (as in the summary's sentences) as `<code>`.
pub fn code_spans(s: &str) -> String {
    let mut out = String::new();
    for (i, part) in s.split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<code>{}</code>", esc(part));
        } else {
            out.push_str(&esc(part));
        }
    }
    out
}

/// How a column sorts.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Sort {
    /// By text.
    Text,
    /// By number (empty cells last).
    Num,
}

/// One table cell: its HTML and the value it sorts by.
pub struct Cell {
    html: String,
    sort: String,
    class: &'static str,
}

impl Cell {
    /// Escaped text, sorting by itself.
    pub fn text(s: &str) -> Self {
        Cell {
            html: esc(s),
            sort: s.to_owned(),
            class: "",
        }
    }

    /// Raw HTML sorting by `sort`.
    pub fn html(html: String, sort: &str) -> Self {
        Cell {
            html,
            sort: sort.to_owned(),
            class: "",
        }
    }

    /// A number with `decimals` places; `–` when missing.
    pub fn num(x: Option<f64>, decimals: usize) -> Self {
        match x.filter(|v| v.is_finite()) {
            Some(v) => Cell {
                html: group_digits(&fixed(v, decimals)),
                sort: fixed(v, decimals.max(RATIO)),
                class: "n",
            },
            None => Cell::missing(),
        }
    }

    /// An estimate with its interval, `x [lo, hi]`, sorting by `x`.
    pub fn with_ci(x: Option<Interval>, decimals: usize) -> Self {
        match x.filter(|v| v.est.is_finite()) {
            Some(Interval { est: v, lo, hi }) => Cell {
                html: format!(
                    "{} <span class=\"ci\">[{}, {}]</span>",
                    group_digits(&fixed(v, decimals)),
                    group_digits(&fixed(lo, decimals)),
                    group_digits(&fixed(hi, decimals))
                ),
                sort: fixed(v, decimals.max(RATIO)),
                class: "n",
            },
            None => Cell::missing(),
        }
    }

    /// An empty cell (sorts last).
    pub fn missing() -> Self {
        Cell {
            html: "<span class=\"na\">–</span>".to_owned(),
            sort: String::new(),
            class: "n",
        }
    }

    /// The same cell with a CSS class.
    pub fn class(mut self, class: &'static str) -> Self {
        self.class = class;
        self
    }
}

/// `12345.67` as `12 345.67` (thin spaces between thousands).
pub fn group_digits(s: &str) -> String {
    let (sign, rest) = s.strip_prefix('-').map_or(("", s), |r| ("-", r));
    let (int, frac) = rest.split_once('.').map_or((rest, ""), |(i, f)| (i, f));
    if int.len() <= 4 || !int.bytes().all(|b| b.is_ascii_digit()) {
        return s.to_owned();
    }
    let mut out = String::from(sign);
    for (i, ch) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push('\u{202f}');
        }
        out.push(ch);
    }
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    out
}

/// A table column's header.
pub struct Column {
    /// Its title.
    pub title: String,
    /// How it sorts.
    pub sort: Sort,
    /// Its tooltip (none when empty).
    pub tip: String,
}

impl Column {
    /// A column of `title`, sorting by `sort`, with tooltip `tip`.
    pub fn new(title: impl Into<String>, sort: Sort, tip: impl Into<String>) -> Self {
        Column {
            title: title.into(),
            sort,
            tip: tip.into(),
        }
    }

    /// A column sorting by text.
    pub fn text(title: impl Into<String>, tip: impl Into<String>) -> Self {
        Column::new(title, Sort::Text, tip)
    }

    /// A column sorting by number.
    pub fn num(title: impl Into<String>, tip: impl Into<String>) -> Self {
        Column::new(title, Sort::Num, tip)
    }
}

/// One table row.
pub struct TableRow {
    /// Its `data-subset` (`None` for tables without a subset filter).
    pub subset: Option<String>,
    /// Its `data-profile`.
    pub profile: String,
    /// Its cells, one per column.
    pub cells: Vec<Cell>,
}

/// A sortable table: column headers and rows of cells.
pub struct Table {
    /// The `id` attribute.
    pub id: String,
    /// Column headers.
    pub columns: Vec<Column>,
    /// Rows.
    pub rows: Vec<TableRow>,
}

impl Table {
    /// A table with `columns` and no rows.
    pub fn new(id: &str, columns: Vec<Column>) -> Self {
        Table {
            id: id.to_owned(),
            columns,
            rows: Vec::new(),
        }
    }

    /// Adds a row for `profile` (its `data-profile`), in `subset` when the
    /// table filters by subset.
    pub fn row(&mut self, subset: Option<&str>, profile: &str, cells: Vec<Cell>) {
        debug_assert_eq!(cells.len(), self.columns.len(), "table {}", self.id);
        self.rows.push(TableRow {
            subset: subset.map(str::to_owned),
            profile: profile.to_owned(),
            cells,
        });
    }

    /// The table's HTML, with a subset filter above it when rows have
    /// subsets (`default` selected).
    pub fn render(&self, default: &str) -> String {
        let mut out = String::new();
        let mut subsets: Vec<&str> = self
            .rows
            .iter()
            .filter_map(|r| r.subset.as_deref())
            .collect();
        subsets.sort_by_key(|s| (subset_order(s), s.to_string()));
        subsets.dedup();
        if !subsets.is_empty() {
            let _ = write!(
                out,
                "<p class=\"filter\"><label>subset <select data-filter-for=\"{}\">",
                esc(&self.id)
            );
            for s in &subsets {
                let sel = if *s == default { " selected" } else { "" };
                let _ = write!(out, "<option{sel}>{}</option>", esc(s));
            }
            out.push_str("</select></label></p>\n");
        }
        let _ = writeln!(
            out,
            "<div class=\"scroll\"><table class=\"sortable\" id=\"{}\">",
            esc(&self.id)
        );
        out.push_str("<thead><tr>");
        for Column { title, sort, tip } in &self.columns {
            let kind = match sort {
                Sort::Text => "text",
                Sort::Num => "num",
            };
            let title_attr = if tip.is_empty() {
                String::new()
            } else {
                format!(" title=\"{}\"", esc(tip))
            };
            let _ = write!(
                out,
                "<th scope=\"col\" data-type=\"{kind}\"{title_attr}><button type=\"button\">{}</button></th>",
                esc(title)
            );
        }
        out.push_str("</tr></thead>\n<tbody>\n");
        for TableRow {
            subset,
            profile,
            cells,
        } in &self.rows
        {
            let sub = subset
                .as_ref()
                .map_or(String::new(), |s| format!(" data-subset=\"{}\"", esc(s)));
            let _ = write!(out, "<tr data-profile=\"{}\"{sub}>", esc(profile));
            for c in cells {
                let class = if c.class.is_empty() {
                    String::new()
                } else {
                    format!(" class=\"{}\"", c.class)
                };
                let _ = write!(
                    out,
                    "<td{class} data-sort=\"{}\">{}</td>",
                    esc(&c.sort),
                    c.html
                );
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody></table></div>\n");
        out
    }
}

/// Subsets in reading order ([`Subset::ALL`]: all, mix, kinds, the
/// sub-strata of kind-other, then sizes); unknown names last.
pub fn subset_order(s: &str) -> usize {
    Subset::from_name(s)
        .and_then(|x| Subset::ALL.iter().position(|y| *y == x))
        .unwrap_or(Subset::ALL.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_code() {
        assert_eq!(esc("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
        assert_eq!(code_spans("`a<b` is x"), "<code>a&lt;b</code> is x");
    }

    #[test]
    fn subsets_read_kinds_then_kind_other_s_sub_strata_then_sizes() {
        let order: Vec<&str> = ["all", "mix"]
            .into_iter()
            .chain(binostr_records::STRATA)
            .chain(["kind-4", "kind-1984", "kind-other-rest"])
            .chain(["size-lt512", "size-512-4k", "size-gt4k", "kind-2"])
            .collect();
        let keys: Vec<usize> = order.iter().map(|s| subset_order(s)).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "{keys:?}");
    }

    #[test]
    fn digit_groups() {
        assert_eq!(group_digits("1234.5"), "1234.5");
        assert_eq!(group_digits("12345.67"), "12\u{202f}345.67");
        assert_eq!(group_digits("-1234567"), "-1\u{202f}234\u{202f}567");
    }
}

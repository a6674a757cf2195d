//! The page's sections from the suites run outside the campaign:
//! robustness, evolution, and maintenance with each format's specification.

use std::fmt::Write as _;

use anyhow::{Result, bail};
use binostr_records::robustness::{Outcome, SubjectResult};

use super::html::{Cell, Column, Table, esc};
use crate::model::campaign::Campaign;
use crate::model::maintenance::{crates, spec};
use crate::read::inputs::Inputs;
use crate::read::side::ProfileTable;

fn code_cell(s: &str) -> Cell {
    Cell::html(format!("<code>{}</code>", esc(s)), s)
}

/// Whether this campaign measured `p`: with the others, apart, or not.
fn in_campaign(c: &Campaign, p: &str) -> Cell {
    if c.profiles(c.primary_host()).iter().any(|m| m == p) {
        Cell::text("measured")
    } else if c.apart.iter().any(|a| a.profile == p) {
        Cell::text("apart")
    } else {
        Cell::text("not measured").class("muted")
    }
}

/// Per outcome of `shown`, the cases of `s` that ended with it; an error
/// when they do not add up to its cases (an outcome the table lacks).
pub fn outcome_counts(s: &SubjectResult, shown: &[Outcome]) -> Result<Vec<u64>> {
    let cases: u64 = s.classes.values().map(|x| x.cases()).sum();
    let counts: Vec<u64> = shown
        .iter()
        .map(|o| s.classes.values().map(|x| x.count(*o)).sum())
        .collect();
    let sum: u64 = counts.iter().sum();
    if sum != cases {
        let mut missing: Vec<&str> = s
            .classes
            .values()
            .flat_map(|x| x.outcomes.keys())
            .filter(|o| !shown.contains(o))
            .map(|o| o.name())
            .collect();
        missing.sort_unstable();
        missing.dedup();
        bail!(
            "robustness table: the outcome columns of {} add up to {sum} of its {cases} cases \
             (outcomes the table does not show: {})",
            s.subject,
            missing.join(", ")
        );
    }
    Ok(counts)
}

/// The robustness matrix: cases per outcome, failures per case class.
/// Fails when a subject's outcome columns do not add up to its cases.
pub fn robustness(c: &Campaign) -> Result<String> {
    let mut out = String::from("<section id=\"robustness\"><h2>Robustness</h2>\n");
    let Some(r) = &c.robustness else {
        out.push_str(
            "<p>No robustness records (<code>results/robustness/robustness.json</code>; \
             <code>just torture</code> writes them).</p></section>\n",
        );
        return Ok(out);
    };
    let (shown, absent): (Vec<Outcome>, Vec<Outcome>) = Outcome::ALL.into_iter().partition(|o| {
        r.subjects
            .iter()
            .any(|s| s.classes.values().any(|x| x.count(*o) > 0))
    });
    let _ = writeln!(
        out,
        "<p>Hostile inputs (<code>results/robustness/</code>): a clean error passes; a panic, \
         crash, timeout or allocation over the bound fails. The outcome columns add up to \
         <em>cases</em>{}. <em>failures</em> counts by the suite's rule (failing outcomes, \
         invalid UTF-8 accepted by our profiles, isolated cases over the memory bound), so it \
         overlaps them. Per case class, cells are failures / cases; library subjects are \
         upstream decoders as users call them (findings, not run failures).</p>",
        if absent.is_empty() {
            String::new()
        } else {
            format!(
                "; no subject has {}",
                absent
                    .iter()
                    .map(|o| format!("<code>{}</code>", o.name()))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    );
    let classes = r.classes();
    let mut cols: Vec<Column> = vec![
        Column::text("subject", ""),
        Column::text("ours", ""),
        Column::num("cases", ""),
    ];
    cols.extend(shown.iter().map(|o| Column::num(o.name(), "cases")));
    cols.push(Column::num("failures", "by the suite's rule"));
    cols.extend(
        classes
            .iter()
            .map(|k| Column::num(k.name(), "failures / cases")),
    );
    let mut t = Table::new("t-robustness", cols);
    for s in &r.subjects {
        let counts = outcome_counts(s, &shown)?;
        let cases: u64 = counts.iter().sum();
        let failures: u64 = s.classes.iter().map(|(&k, x)| x.failures(k, s.ours)).sum();
        let mut cells = vec![
            code_cell(&s.subject),
            Cell::text(if s.ours { "ours" } else { "library" }),
            Cell::num(Some(cases as f64), 0),
        ];
        cells.extend(counts.iter().map(|n| Cell::num(Some(*n as f64), 0)));
        cells.push(Cell::num(Some(failures as f64), 0).class(if failures == 0 {
            "good"
        } else {
            "bad"
        }));
        for k in &classes {
            cells.push(s.classes.get(k).map_or_else(Cell::missing, |x| {
                let f = x.failures(*k, s.ours);
                Cell::html(format!("{f} / {}", x.cases()), &f.to_string()).class(if f == 0 {
                    "n"
                } else {
                    "n bad"
                })
            }));
        }
        t.row(None, &s.subject, cells);
    }
    out.push_str(&t.render("all"));
    out.push_str("</section>\n");
    Ok(out)
}

/// Why a suite's table has no rows: its file is missing, or holds only a
/// header. `None` when it has rows.
fn absent(table: &ProfileTable, file: &str, command: &str) -> Option<String> {
    if table.header.is_empty() {
        Some(format!(
            "<p>No records: <code>{file}</code> is missing (<code>{command}</code> writes it).</p>\n"
        ))
    } else if table.rows.is_empty() {
        Some(format!(
            "<p>No records: <code>{file}</code> has a header and no rows.</p>\n"
        ))
    } else {
        None
    }
}

/// Evolution: every row of `results/evolution/evolution.csv`, every column.
pub fn evolution(c: &Campaign) -> String {
    let t = &c.evolution;
    let file = binostr_records::csv::EVOLUTION.file;
    let mut out = String::from(
        "<section id=\"evolution\"><h2>Evolution</h2>\n<p>Readers and writers of different \
         versions: a newer writer's extra field or element read by our decoder \
         (<code>forward_*</code>), a newer reader on our bytes (<code>backward</code>), the \
         version on the wire, and values past each layout's range (<code>range_*</code>). \
         <code>results/evolution/README.md</code> defines every outcome.</p>\n",
    );
    if let Some(p) = absent(t, file, "just evolution") {
        out.push_str(&p);
        out.push_str("</section>\n");
        return out;
    }
    let measured = t
        .rows
        .iter()
        .filter(|r| {
            let p = ProfileTable::profile(r);
            c.profiles(c.primary_host()).iter().any(|x| x == p)
        })
        .count();
    let _ = writeln!(
        out,
        "<p class=\"what\"><code>{file}</code>: {} profiles, {measured} of them measured with \
         the others in this campaign.</p>",
        t.rows.len()
    );
    let mut cols: Vec<Column> = vec![Column::text("profile", ""), Column::text("campaign", "")];
    cols.extend(t.header.iter().skip(1).map(|h| Column::text(h.clone(), "")));
    let mut table = Table::new("t-evolution", cols);
    for r in &t.rows {
        let profile = ProfileTable::profile(r);
        let mut cells = vec![code_cell(profile), in_campaign(c, profile)];
        cells.extend(r.iter().skip(1).map(|v| {
            // The README's failures: a misread, a silent change, no adapter.
            let bad = matches!(v.as_str(), "misread" | "changed" | "not-covered");
            let cell = Cell::text(v);
            if bad { cell.class("bad") } else { cell }
        }));
        table.row(None, profile, cells);
    }
    out.push_str(&table.render("all"));
    out.push_str("</section>\n");
    out
}

/// The spec status and citation cells of `row`: the registry's (a status
/// that `maintenance.csv` contradicts is flagged), else `maintenance.csv`'s.
fn spec_cells(inputs: &Inputs, t: &ProfileTable, row: &[String]) -> [Cell; 2] {
    let csv_status = t.cell(row, "spec_status").unwrap_or_default();
    let csv_ref = t.cell(row, "spec_ref").unwrap_or_default();
    match inputs.profile(ProfileTable::profile(row)).and_then(spec) {
        Some(s) => {
            let status = Cell::text(&s.status);
            let status = if s.status == csv_status {
                status
            } else {
                Cell::html(
                    format!(
                        "<span title=\"maintenance.csv: {}\">{} ⚠</span>",
                        esc(csv_status),
                        esc(&s.status)
                    ),
                    &s.status,
                )
                .class("warn")
            };
            let text = match &s.title {
                Some(title) => format!("{} <code>{}</code>", esc(title), esc(&s.citation)),
                None => format!("no document; defined by <code>{}</code>", esc(&s.citation)),
            };
            [status, Cell::html(text, &s.citation)]
        }
        None => [
            Cell::text(csv_status),
            Cell::html(
                format!(
                    "<code>{}</code> <span class=\"ci\">(maintenance.csv)</span>",
                    esc(csv_ref)
                ),
                csv_ref,
            ),
        ],
    }
}

/// Maintenance: every row of `results/maintenance/maintenance.csv`, with
/// the registry's specification and crate names.
pub fn maintenance(c: &Campaign, inputs: &Inputs) -> String {
    let t = &c.maintenance;
    let file = binostr_records::csv::MAINTENANCE.file;
    let mut out = String::from(
        "<section id=\"maintenance\"><h2>Maintenance &amp; specifications</h2>\n<p>What each \
         profile costs to keep: its own lines, generated code, tests, shared modules, the \
         external crates its codec calls (names from this campaign's <code>registry.json</code>) \
         and the languages with a working library; the specification status and citation are \
         the registry's.</p>\n",
    );
    if let Some(p) = absent(t, file, "just maintenance") {
        out.push_str(&p);
        out.push_str("</section>\n");
        return out;
    }
    let statuses = {
        let mut by: Vec<(String, usize)> = Vec::new();
        for r in &t.rows {
            let s = inputs
                .profile(ProfileTable::profile(r))
                .and_then(spec)
                .map(|s| s.status)
                .or_else(|| t.cell(r, "spec_status").map(str::to_owned))
                .unwrap_or_default();
            match by.iter_mut().find(|(k, _)| *k == s) {
                Some((_, n)) => *n += 1,
                None => by.push((s, 1)),
            }
        }
        by.iter()
            .map(|(s, n)| format!("{n} <code>{}</code>", esc(s)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(
        out,
        "<p class=\"what\"><code>{file}</code>: {} profiles; specification status: \
         {statuses}.</p>",
        t.rows.len()
    );
    let mut table = Table::new(
        "t-maintenance",
        vec![
            Column::text("profile", ""),
            Column::text("campaign", ""),
            Column::num("module lines", "code lines of the profile's own module"),
            Column::num("generated lines", "code lines generated from its schema"),
            Column::num("test lines", ""),
            Column::num("shared lines", "code lines of other modules it is built on"),
            Column::num(
                "crates",
                "external packages in the cargo tree of the crates it calls",
            ),
            Column::text("crate names", "registry"),
            Column::num("build crates", "the same for a build.rs schema compiler"),
            Column::text("schema compiler", ""),
            Column::num(
                "ecosystems",
                "Rust and each language with a working library",
            ),
            Column::text("languages", ""),
            Column::text("spec status", "registry"),
            Column::text("specification", "registry"),
        ],
    );
    for r in &t.rows {
        let cell = |col: &str| t.cell(r, col).unwrap_or_default();
        let n = |col: &str| Cell::num(cell(col).parse::<f64>().ok(), 0);
        let profile = ProfileTable::profile(r);
        let names = inputs.profile(profile).map(crates).unwrap_or_default();
        let [status, cited] = spec_cells(inputs, t, r);
        table.row(
            None,
            profile,
            vec![
                code_cell(profile),
                in_campaign(c, profile),
                n("module_lines"),
                n("generated_lines"),
                n("test_lines"),
                n("shared_lines"),
                n("crates"),
                if names.is_empty() {
                    Cell::missing()
                } else {
                    Cell::html(
                        names
                            .iter()
                            .map(|k| format!("<code>{}</code>", esc(k)))
                            .collect::<Vec<_>>()
                            .join(" "),
                        &names.join(" "),
                    )
                },
                n("build_crates"),
                Cell::text(cell("schema_compiler")),
                n("ecosystems"),
                Cell::text(cell("languages")),
                status,
                cited,
            ],
        );
    }
    out.push_str(&table.render("all"));
    out.push_str("</section>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use binostr_records::robustness::{Class, ClassCounts};

    fn subject(outcomes: &[(Outcome, u64)]) -> SubjectResult {
        let counts = ClassCounts {
            outcomes: outcomes.iter().copied().collect(),
            ..ClassCounts::default()
        };
        SubjectResult {
            subject: "json".into(),
            ours: true,
            cases_of: "json".into(),
            classes: [(Class::Mutation, counts)].into_iter().collect(),
            mutations: 0,
            mutation_seconds: 0.0,
        }
    }

    #[test]
    fn outcome_columns_must_add_up_to_the_cases() {
        let s = subject(&[
            (Outcome::CleanError, 5),
            (Outcome::Accepted, 3),
            (Outcome::AcceptedNonCanonical, 2),
        ]);
        assert_eq!(outcome_counts(&s, &Outcome::ALL).unwrap()[..3], [5, 3, 2]);
        let e = outcome_counts(&s, &[Outcome::CleanError, Outcome::Accepted])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("add up to 8 of its 10 cases") && e.contains("accepted-noncanonical"),
            "{e}"
        );
    }
}

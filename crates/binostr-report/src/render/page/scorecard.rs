//! The page's recommendation: per role the pick in words and the sortable
//! scorecard ([`crate::model::recommend`]), the same as the paper's.

use std::fmt::Write as _;

use crate::model::recommend::text::{role_text, rules, unit, value_text};
use crate::model::recommend::{Cmp, Decision, Kind, Measure};
use crate::model::summary::BASELINE;
use crate::render::page::html::{Cell, Column, Sort, Table, code_spans, esc};

fn mark(c: Option<Cmp>) -> &'static str {
    match c {
        Some(Cmp::Better) => " +",
        Some(Cmp::Worse) => " −",
        Some(Cmp::Equivalent) => " =",
        Some(Cmp::Undecided) => " ?",
        None => "",
    }
}

/// The section: the rules, then per role its paragraph and scorecard.
pub fn section(decisions: &[Decision]) -> String {
    let mut out = String::from("<section id=\"recommendation\"><h2>Recommendation per role</h2>\n");
    let _ = writeln!(
        out,
        "<p>{} The rules are <code>crates/binostr-report/src/model/recommend/mod.rs</code>. \
         Marks compare with <code>json</code>: + better, − worse, = equivalent, ? undecided; \
         bold rows are the Pareto set, ★ the pick.</p>",
        code_spans(&rules())
    );
    for d in decisions {
        let _ = writeln!(
            out,
            "<h3 id=\"role-{}\">{} <small>({})</small></h3>\n<p>{}</p>",
            esc(d.role.id),
            esc(d.role.name),
            esc(d.role.scope),
            code_spans(&role_text(d))
        );
        let mut columns: Vec<Column> = vec![Column::text("profile", "")];
        for k in d.role.criteria {
            let sort = if matches!(k.measure, Measure::Spec) {
                Sort::Text
            } else {
                Sort::Num
            };
            columns.push(Column::new(k.label, sort, unit(k.measure)));
        }
        columns.push(Column::text("gates", "gates failed"));
        let mut t = Table::new(&format!("scorecard-{}", d.role.id), columns);
        for cand in &d.candidates {
            let mut name = format!("<code>{}</code>", esc(&cand.profile));
            if cand.profile == d.pick {
                name.push_str(" ★");
            }
            if cand.pareto {
                name = format!("<strong>{name}</strong>");
            }
            let mut cells = vec![Cell::html(name, &cand.profile)];
            for (i, k) in d.role.criteria.iter().enumerate() {
                cells.push(match &cand.values[i] {
                    Some(v) => {
                        let m = if cand.profile == BASELINE {
                            ""
                        } else {
                            mark(cand.vs_json.get(i).copied().flatten())
                        };
                        let sort = if v.kind == Kind::Rank && !v.word.is_empty() {
                            v.word.clone()
                        } else {
                            crate::fmt::fixed(v.est, 6)
                        };
                        Cell::html(format!("{}{m}", esc(&value_text(v, k.measure))), &sort)
                            .class("n")
                    }
                    None => Cell::missing(),
                });
            }
            let gates = if cand.gated() {
                "pass".to_owned()
            } else {
                cand.failed.join("; ")
            };
            cells.push(Cell::text(&gates));
            t.row(None, &cand.profile, cells);
        }
        out.push_str(&t.render(""));
    }
    out.push_str("</section>\n");
    out
}

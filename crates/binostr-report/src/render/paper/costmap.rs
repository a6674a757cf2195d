//! The cost model's pick maps in the paper: per wire role a CSV of the grid
//! (`cost-map-<role>.csv`: link rate, egress price, the pick's class) and
//! `cost-maps.tex`, the figure that draws them with one legend per role.

use std::fmt::Write as _;

use crate::model::analysis::Analysis;
use crate::model::cost::{self, PickMap};
use crate::render::names::tex_escape;

/// Fills of the JSON-text picks ("keep JSON").
const GREYS: [&str; 3] = ["gray!35", "gray!65", "gray!85"];

/// Fills of the binary picks.
const COLOURS: [&str; 8] = [
    "blue!70!black",
    "orange!90!black",
    "green!50!black",
    "red!75!black",
    "violet",
    "cyan!60!black",
    "brown",
    "olive",
];

/// The picks of `map` in the role's unit: JSON-text ones first, then by label.
fn classes(map: &PickMap, json: &[String]) -> Vec<String> {
    let mut out = map.picks();
    out.sort_by_key(|l| (!json.contains(l), l.clone()));
    out
}

/// `cost-map-<role>.csv`: `link_mbit,egress_usd_per_gb,class` per cell,
/// `class` indexing [`classes`] as `c0`, `c1`, ...
fn grid_csv(map: &PickMap, classes: &[String]) -> String {
    let mut out = String::from("link_mbit,egress_usd_per_gb,class\n");
    for (e, row) in map.egress.iter().zip(&map.cells) {
        for (l, cell) in map.links.iter().zip(row) {
            let k = classes.iter().position(|c| *c == cell[0]).expect("a class");
            let _ = writeln!(out, "{l:.4},{e:.5},c{k}");
        }
    }
    out
}

/// The file name of `role`'s grid.
fn file(role: cost::Role) -> String {
    format!("cost-map-{}.csv", role.id())
}

/// The files: each role's grid and the figure (empty without links rows).
pub fn files(a: &Analysis) -> Vec<(String, String)> {
    let maps = a.pick_maps(cost::MAP_CELLS);
    let p = cost::Prices::default();
    let mut tex = String::new();
    let mut out = Vec::new();
    if !maps.is_empty() {
        tex.push_str(
            "On the wire the pick depends on the link and the prices; \
             Figure~\\ref{fig:cost-maps} draws it over both.\n\n\
             \\begin{figure}[tbp]\n\\centering\n",
        );
    }
    for (map, json) in &maps {
        let classes = classes(map, json);
        out.push((file(map.role), grid_csv(map, &classes)));
        let (mut greys, mut colours) = (GREYS.iter().cycle(), COLOURS.iter().cycle());
        let styles: Vec<String> = classes
            .iter()
            .enumerate()
            .map(|(k, label)| {
                let fill = if json.contains(label) {
                    greys.next()
                } else {
                    colours.next()
                };
                let fill = fill.expect("a cycle");
                format!("c{k}={{mark=square*,draw=none,fill={fill}}}")
            })
            .collect();
        let legend: Vec<String> = classes.iter().map(|l| tex_label(l)).collect();
        let (unit, _) = map.role.unit().words(&p);
        let _ = write!(
            tex,
            "\\begin{{tikzpicture}}\n\\begin{{axis}}[scale only axis, width=0.34\\linewidth, \
             height=0.34\\linewidth, scaled y ticks=false, \
             yticklabel style={{/pgf/number format/fixed, /pgf/number format/precision=2}}, \
             tick label style={{font=\\scriptsize}}, label style={{font=\\small}}, xmode=log, xmin=1, xmax=1000, ymin=0, ymax=0.12, xlabel={{link, Mbit/s}}, \
             ylabel={{egress, \\$/GB}}, title={{{}}}, title style={{font=\\scriptsize}}, \
             legend style={{font=\\scriptsize, at={{(0.5,-0.28)}}, anchor=north, \
             legend columns=1}}, scatter/classes={{{}}}]\n\
             \\addplot[scatter, only marks, mark size=1.7pt, scatter src=explicit symbolic] \
             table[x=link_mbit, y=egress_usd_per_gb, meta=class, col sep=comma] \
             {{generated/{}}};\n\\legend{{{}}}\n\\end{{axis}}\n\\end{{tikzpicture}}\\hfill\n",
            tex_escape(&format!(
                "{}: {}",
                map.role.name(),
                unit.split(" at ").next().unwrap_or("")
            )),
            styles.join(","),
            file(map.role),
            legend.join(",")
        );
    }
    if !maps.is_empty() {
        let _ = write!(
            tex,
            "\\caption{{The cost model's pick over link rate and egress price, CPU at {} \\$/core-hour: \
             relay to client decided in dollars, client to relay in seconds, over the candidates \
             that pass each role's gates (grey: keep JSON; \\texttt{{generated/cost-map-*.csv}}).}}\n\
             \\label{{fig:cost-maps}}\n\\end{{figure}}\n",
            p.cpu_usd_per_core_hour
        );
    }
    out.push(("cost-maps.tex".to_owned(), tex));
    out
}

/// A candidate label for a legend: the profile as `\prof`, braces around
/// the entry so its commas and parentheses stay in it.
fn tex_label(label: &str) -> String {
    let (profile, rest) = label.split_once(' ').unwrap_or((label, ""));
    format!("{{\\prof{{{profile}}} {}}}", tex_escape(rest))
}

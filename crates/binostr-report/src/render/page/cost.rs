//! The cost model's section: a form with every parameter and a table of
//! each role's answer, which `assets/cost.js` computes from the model's
//! export (`model::cost::export`), embedded as JSON. The formulas live in
//! `model::cost` and `cost.js` only.

use std::fmt::Write as _;

use super::calc::{Section, embed};
use super::html::esc;
use crate::model::analysis::Analysis;
use crate::model::cost::{self, PARAMS};

/// The section and its data; `None` without links rows.
pub fn section(a: &Analysis) -> Option<Section> {
    let c = a.campaign;
    if c.links.is_empty() {
        return None;
    }
    let data = cost::export(&c.links, &|id: &str| cost::is_json(c, id), &|role, id| {
        a.admits(role, id)
    });
    let mut out = String::from(
        "<section id=\"cost\"><h2>Cost model</h2>\n<p>Keep JSON or switch? Per role, the cost \
         of a million events in seconds on a link and in dollars at stated prices, for every \
         (profile, compression, deflater) the links workload measured (<code>results/links/\
         links.csv</code>, unshaped rows) whose profile passes the recommendation's gates for \
         the role (the scorecard says which). At the defaults its answer is the \
         recommendation's pick. Each role is decided in the unit of whoever pays: \
         the relay pays dollars for what it serves, a publishing client waits seconds for its \
         OK. The arithmetic is <code>cost.js</code>, embedded in this page, on the model's own \
         numbers; at the defaults it gives <code>summary/cost.csv</code>.</p>\n\
         <form id=\"cost-form\" autocomplete=\"off\">\n<fieldset><legend>Parameters</legend>\n",
    );
    for q in PARAMS {
        let _ = writeln!(
            out,
            "<label>{0} ({1}) <input type=\"number\" step=\"any\" id=\"cost-{0}\" value=\"{2}\"> \
             <span class=\"what\">default {2}, range {3} to {4}: {5}</span></label>",
            esc(q.id),
            esc(q.unit),
            q.default,
            q.low,
            q.high,
            esc(q.source)
        );
    }
    out.push_str(
        "<button type=\"button\" id=\"cost-reset\">the defaults</button>\n</fieldset>\n</form>\n\
         <p id=\"cost-summary\" class=\"summary\"></p>\n\
         <noscript><p class=\"warn\">The cost model needs JavaScript; <code>summary/cost.csv\
         </code> holds its answers at the defaults.</p></noscript>\n\
         <div class=\"scroll\"><table id=\"cost-table\"><thead><tr>\
         <th scope=\"col\">role</th><th scope=\"col\">decided in</th>\
         <th scope=\"col\">answer</th>\
         <th scope=\"col\">cheapest JSON</th><th scope=\"col\">s per million</th>\
         <th scope=\"col\">$ per million</th>\
         <th scope=\"col\">cheapest binary</th><th scope=\"col\">s per million</th>\
         <th scope=\"col\">$ per million</th>\
         <th scope=\"col\" title=\"decisive terms only, in % of JSON's cost in the role's unit\">saving</th>\
         <th scope=\"col\" title=\"the pick when decided in the other unit\">pick in the other unit</th>\
         <th scope=\"col\">break-even link</th><th scope=\"col\">break-even egress</th>\
         </tr></thead><tbody>",
    );
    for role in cost::Role::ALL {
        let _ = write!(
            out,
            "<tr data-role=\"{}\"><th scope=\"row\">{}</th></tr>",
            role.id(),
            esc(role.name())
        );
    }
    out.push_str(
        "</tbody></table></div>\n<details class=\"formulas\"><summary>How the cost model \
         computes</summary>\n<ul>\n\
         <li>Per event: link bytes <i>L</i>, egress bytes <i>E</i> (what the relay sends), \
         relay CPU <i>r</i> and client CPU <i>c</i> in ns, each CPU term a median with its 95 % \
         CI. Relay → client: <i>L</i> = <i>E</i> = relay → client bytes per event. Client → \
         relay: <i>L</i> = EVENT + OK bytes, <i>E</i> = OK bytes.</li>\n\
         <li>Seconds per million events: transfer <i>L</i> · 8 / (link · 10<sup>6</sup>) · \
         10<sup>6</sup>, relay CPU <i>r</i> · 10<sup>−3</sup>, client CPU <i>c</i> · \
         10<sup>−3</sup>. Dollars per million: egress <i>E</i> · 10<sup>6</sup> / \
         10<sup>9</sup> · $/GB, relay CPU <i>r</i> · 10<sup>−3</sup> / 3600 · \
         $/core-hour.</li>\n\
         <li>Per kind (JSON text or binary) the candidate with the lowest total in the role's \
         unit, ties broken by label.</li>\n\
         <li>Saving: per term, JSON's value minus the binary one's, counted only when it is at \
         least <code>decisive_pct</code> % of JSON's total and the two terms' 95 % CIs do not \
         overlap; saving % = their sum / JSON's total. Switch when saving % &gt; \
         <code>switch_pct</code>.</li>\n\
         <li>Break-even link: the rate where the two take the same time, (<i>L</i><sub>J</sub> − \
         <i>L</i><sub>B</sub>) · 8 / ((<i>r</i> + <i>c</i>)<sub>B</sub> − (<i>r</i> + \
         <i>c</i>)<sub>J</sub>) · 10<sup>3</sup> Mbit/s; break-even egress: the price where \
         they cost the same, ((<i>r</i><sub>B</sub> − <i>r</i><sub>J</sub>) · 10<sup>−3</sup> / \
         3600 · $/core-hour) / ((<i>E</i><sub>J</sub> − <i>E</i><sub>B</sub>) · 10<sup>−3</sup>); \
         none when it is not positive (one wins everywhere).</li>\n</ul></details>\n</section>\n",
    );
    Some(Section {
        html: out,
        data: embed(&data),
    })
}

//! `results/campaigns/<label>/site/index.html`: one self-contained results
//! page with sortable tables, the plots, provenance and a relay calculator.
//!
//! The page fetches nothing: its styles, scripts (`assets/page.js`,
//! `assets/calculator.js`), font (`assets/page-sans.ttf`, a subset of the
//! plots' DejaVu Sans) and plots are inline, and a Content-Security-Policy
//! forbids every network request. Tables are plain HTML, readable without
//! scripts. Rendering is deterministic: the same records give the same
//! bytes, so the page can sit in the signed manifest.

mod calc;
mod html;
mod provenance;
mod results;
mod strata;

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use base64::Engine as _;

use crate::read::inputs::Inputs;
pub use calc::{COMPRESSIONS, KIND_SHARES, MODES, SHARES_SOURCE};

use crate::model::apart::Apart;
use crate::model::campaign::Campaign;
use crate::read::records;
use html::esc;

/// The calculator's arithmetic (documented there), embedded in the page.
pub const CALCULATOR_JS: &str = include_str!("../../../assets/calculator.js");
/// Sorting, filtering and the calculator's form.
pub const PAGE_JS: &str = include_str!("../../../assets/page.js");
/// The page's styles.
pub const PAGE_CSS: &str = include_str!("../../../assets/page.css");
const FONT: &[u8] = include_bytes!("../../../assets/page-sans.ttf");

/// The only sources the page may load: inline styles and scripts, the
/// embedded font. Nothing from the network, not even from the same origin.
pub const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; \
    script-src 'unsafe-inline'; font-src data:; img-src data:";

/// Builds the page of `c` (the campaign `label` under `root`) into `out`
/// (default `results/campaigns/<label>/site/`); returns the file written.
pub fn write(root: &Path, c: &Campaign, label: &str, out: Option<&Path>) -> Result<PathBuf> {
    for w in &c.warnings {
        eprintln!("binostr-report: warning: {w}");
    }
    let inputs = Inputs::read(root, label, &c.runs)?;
    let text = render(c, &inputs, label);
    let dir = out.map_or_else(
        || records::campaign_dir(root, label).join("site"),
        Path::to_path_buf,
    );
    fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let path = dir.join("index.html");
    fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
    Ok(path)
}

/// The measured profiles of the primary host, in registry order (profiles
/// missing from the registry last, by id).
pub fn profiles(c: &Campaign, inputs: &Inputs) -> Vec<String> {
    let measured = c.profiles(c.primary_host());
    let mut out: Vec<String> = inputs
        .registry
        .iter()
        .filter(|p| measured.contains(&p.id))
        .map(|p| p.id.clone())
        .collect();
    out.extend(
        measured
            .iter()
            .filter(|p| inputs.profile(p).is_none())
            .cloned(),
    );
    out
}

/// The page's HTML.
pub fn render(c: &Campaign, inputs: &Inputs, label: &str) -> String {
    let profiles = profiles(c, inputs);
    let mut out = String::new();
    head_and_header(&mut out, c, label, &profiles);
    out.push_str(&calculator_section(c, &profiles));
    out.push_str(&results::claims(c));
    out.push_str(&strata::holds(c));
    out.push_str(&results::workloads(c));
    out.push_str(&results::sizes(c, inputs, &profiles));
    out.push_str(&strata::section(c, &profiles));
    out.push_str(&results::plots(inputs));
    out.push_str(&results::side(c));
    out.push_str(&results::robustness(c));
    out.push_str(&results::interop(c, inputs, &profiles));
    out.push_str(&provenance::section(c, inputs, label));
    footer(&mut out, inputs, label, &c.apart, &profiles);
    let _ = write!(
        out,
        "<script type=\"application/json\" id=\"binostr-data\">{}</script>\n\
         <script>\n{CALCULATOR_JS}</script>\n<script>\n{PAGE_JS}</script>\n</body>\n</html>\n",
        calc::embed(&calc::data(c, &profiles))
    );
    out
}

/// `<head>` (styles, font) and the page's header: what the campaign is.
fn head_and_header(out: &mut String, c: &Campaign, label: &str, profiles: &[String]) {
    let host = c.primary_host();
    let first = &c.runs[0];
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>Binostr results: {}</title>\n<style>\n@font-face {{ font-family: \"Page Sans\"; \
         src: url(data:font/ttf;base64,{}) format(\"truetype\"); }}\n{PAGE_CSS}</style>\n</head>\n<body>\n",
        esc(label),
        base64::engine::general_purpose::STANDARD.encode(FONT)
    );
    let _ = write!(
        out,
        "<header>\n<h1>Binostr results <span class=\"label\">{}</span></h1>\n\
         <p class=\"lead\">Which binary encoding should Nostr use for NIP-01 events? This page \
         holds every number of campaign <code>{}</code>: {} profiles, {} independent runs on host \
         <code>{}</code>, {} events of the {} corpus (fingerprint <code class=\"hash\">{}</code>). \
         It works offline and fetches nothing.</p>\n<nav>\
         <a href=\"#calculator\">Relay calculator</a> <a href=\"#claims\">Claims</a> \
         <a href=\"#holds\">Where claims hold</a> \
         <a href=\"#workloads\">Workloads</a> <a href=\"#sizes\">Sizes</a> \
         <a href=\"#strata\">Per kind &amp; mix</a> \
         <a href=\"#plots\">Plots</a> <a href=\"#side\">Latency &amp; memory</a> \
         <a href=\"#robustness\">Robustness</a> <a href=\"#interop\">Interop</a> \
         <a href=\"#provenance\">Provenance</a> <a href=\"#verify\">Verify</a></nav>\n</header>\n<main>\n",
        esc(label),
        esc(label),
        profiles.len(),
        c.runs_on(host).count(),
        esc(host),
        first.corpus.count,
        if first.corpus.seed.is_some() {
            "generated"
        } else {
            "recorded"
        },
        esc(&first.corpus.fingerprint),
    );
    if c.hosts().len() > 1 {
        let _ = writeln!(
            out,
            "<p class=\"warn\">This campaign merges {} hosts; the page shows the primary host \
             <code>{}</code> (<code>summary/</code> has them all).</p>",
            c.hosts().len(),
            esc(host)
        );
    }
}

/// The footer: the command and the registry's profiles, measured or not.
fn footer(out: &mut String, inputs: &Inputs, label: &str, apart: &[Apart], profiles: &[String]) {
    let apart: Vec<&str> = apart.iter().map(|a| a.profile.as_str()).collect();
    let not_measured: Vec<&str> = inputs
        .registry
        .iter()
        .filter(|p| p.enabled && !profiles.contains(&p.id) && !apart.contains(&p.id.as_str()))
        .map(|p| p.id.as_str())
        .collect();
    let apart_note = if apart.is_empty() {
        String::new()
    } else {
        format!(
            "; measured apart, on the events it represents beside json (summary.md): {}",
            esc(&apart.join(", "))
        )
    };
    let _ = writeln!(
        out,
        "</main>\n<footer><p>Generated by <code>binostr-report page {}</code> from the records \
         listed under Provenance. Registry: {} profiles, {} enabled{}{apart_note}.</p></footer>",
        esc(label),
        inputs.registry.len(),
        inputs.registry.iter().filter(|p| p.enabled).count(),
        if not_measured.is_empty() {
            ", all measured here".to_owned()
        } else {
            format!(
                "; enabled but not measured here: {}",
                esc(&not_measured.join(", "))
            )
        }
    );
}

fn calculator_section(c: &Campaign, profiles: &[String]) -> String {
    let mut out = String::new();
    calculator_form(&mut out);
    calculator_table(&mut out, c.primary_host(), profiles);
    out.push_str(
        "</tbody></table></div>\n<details class=\"formulas\"><summary>How the calculator \
         computes</summary>\n<p>With shares <i>s<sub>k</sub></i> renormalised to weights \
         <i>w<sub>k</sub></i> = <i>s<sub>k</sub></i> / Σ <i>s</i> over kinds 0, 1, 3, 7, events \
         received per second <i>R</i> and copies sent per event <i>F</i>, for each profile:</p>\n<ul>\n\
         <li>bytes per event <i>b</i> = Σ <i>w<sub>k</sub></i> · framed bytes<sub>k</sub> / \
         events<sub>k</sub> (<code>sizes.csv</code>; compressed: the chosen zstd column, per-event \
         columns plus the 4-byte length); wire bytes/s = <i>R</i> · (1 + <i>F</i>) · <i>b</i>; \
         $/month = wire bytes/s · 2 592 000 s / 10<sup>9</sup> · price. Sizes are exact, so \
         byte savings have no interval.</li>\n\
         <li>CPU seconds per event <i>t</i> = Σ <i>w<sub>k</sub></i> Σ<sub>workloads of the \
         mode</sub> ns<sub>k</sub> / 10<sup>9</sup>; cores = <i>R</i> · <i>t</i>. The CI adds \
         the endpoints of each term's bootstrap CI (as if the errors moved together, the \
         widest case). These absolute times belong to the host.</li>\n\
         <li>CPU saved vs json = 1 − ρ, with ρ = Σ ω<sub>k,W</sub> · r<sub>k,W</sub>: the paired \
         ratios to json r of each kind and workload, weighted by json's share ω of the mix's \
         time (w<sub>k</sub> · json ns<sub>k,W</sub>, normalised). Its CI weights the paired CI \
         endpoints the same way. Paired ratios cancel the host's drift; they are the numbers \
         to carry to another machine.</li>\n\
         <li>zstd cores = <i>R</i> · <i>F</i> · <code>compress</code> ns / 10<sup>9</sup>: \
         zstd over 64-event windows, once per copy sent. Decompression and per-event or \
         dictionary compression are not timed.</li>\n</ul></details>\n</section>\n",
    );
    out
}

/// The calculator's inputs: the kind mix, the traffic and the relay mode.
fn calculator_form(out: &mut String) {
    out.push_str(
        "<section id=\"calculator\"><h2>Relay calculator</h2>\n<p>What would switching your \
         relay from JSON to a binary profile cost or save? Set your kind mix, traffic and \
         bandwidth price. Every input number is a record of this campaign (kinds 0, 1, 3 and 7 \
         have subsets of their own); the arithmetic is the documented script \
         <code>calculator.js</code> embedded in this page.</p>\n\
         <form id=\"calc-form\" autocomplete=\"off\">\n<fieldset><legend>Kind mix (% of events)</legend>\n",
    );
    for (kind, name, share) in KIND_SHARES {
        let _ = writeln!(
            out,
            "<label>kind {kind} <span class=\"what\">{name}</span> \
             <input type=\"number\" min=\"0\" step=\"any\" name=\"share-{kind}\" id=\"share-{kind}\" value=\"{share}\"></label>"
        );
    }
    let total: f64 = KIND_SHARES.iter().map(|k| k.2).sum();
    let _ = writeln!(
        out,
        "<button type=\"button\" id=\"reset-mix\">published shares</button>\n\
         <p class=\"note\">Default: {}. These four kinds are {}&nbsp;% of that traffic; the \
         shares you set are renormalised over them.</p></fieldset>",
        esc(SHARES_SOURCE),
        crate::fmt::fixed(total, 2)
    );
    let d = calc::defaults();
    let num = |k: &str| d[k].to_string();
    let _ = writeln!(
        out,
        "<fieldset><legend>Traffic</legend>\n\
         <label>events received per second <input type=\"number\" min=\"0\" step=\"any\" id=\"rate\" value=\"{}\"></label>\n\
         <label>copies sent per event (subscribers) <input type=\"number\" min=\"0\" step=\"any\" id=\"fanout\" value=\"{}\"></label>\n\
         <label>bandwidth price, $ per GB <input type=\"number\" min=\"0\" step=\"any\" id=\"price\" value=\"{}\"></label>\n\
         <p class=\"note\">Defaults are examples, not measurements. GB = 10<sup>9</sup> bytes; a month is 30 days.</p></fieldset>",
        num("events_per_second"),
        num("fanout"),
        num("price_per_gb")
    );
    out.push_str("<fieldset><legend>The relay</legend>\n");
    for (id, workloads, what) in MODES {
        let checked = if d["mode"] == id { " checked" } else { "" };
        let _ = writeln!(
            out,
            "<label class=\"radio\"><input type=\"radio\" name=\"mode\" value=\"{id}\"{checked}> \
             <strong>{id}</strong>: {what} <span class=\"what\">(CPU: {})</span></label>",
            esc(&workloads.join(" + "))
        );
    }
    out.push_str("<label class=\"radio\">compressed columns use <select id=\"compression\">");
    for (id, what) in COMPRESSIONS {
        let sel = if d["compression"] == id {
            " selected"
        } else {
            ""
        };
        let _ = write!(out, "<option value=\"{id}\"{sel}>{}</option>", esc(what));
    }
    out.push_str("</select></label></fieldset>\n</form>\n");
}

/// The calculator's table, one row per profile (`calculator.js` fills it).
fn calculator_table(out: &mut String, host: &str, profiles: &[String]) {
    let _ = writeln!(
        out,
        "<p id=\"calc-summary\" class=\"summary\"></p>\n\
         <noscript><p class=\"warn\">The calculator needs JavaScript; every table below works \
         without it.</p></noscript>\n\
         <div class=\"scroll calc\"><table class=\"sortable\" id=\"calc\"><thead><tr>\
         <th scope=\"col\" data-type=\"text\"><button type=\"button\">profile</button></th>\
         <th scope=\"col\" data-type=\"num\" title=\"mix-weighted bytes per event, with the 4-byte length\"><button type=\"button\">B/event</button></th>\
         <th scope=\"col\" data-type=\"num\" title=\"bytes in and out per second, uncompressed\"><button type=\"button\">MB/s</button></th>\
         <th scope=\"col\" data-type=\"num\" title=\"bytes in and out per second, compressed as chosen above\"><button type=\"button\">MB/s zstd</button></th>\
         <th scope=\"col\" data-type=\"num\" title=\"bandwidth per 30 days, uncompressed\"><button type=\"button\">$/month</button></th>\
         <th scope=\"col\" data-type=\"num\" title=\"bandwidth per 30 days, compressed\"><button type=\"button\">$/month zstd</button></th>\
         <th scope=\"col\" data-type=\"num\" title=\"1 - bytes / json bytes, uncompressed (exact)\"><button type=\"button\">bytes saved</button></th>\
         <th scope=\"col\" data-type=\"num\" title=\"1 - bytes / json bytes, both compressed (exact)\"><button type=\"button\">bytes saved zstd</button></th>\
         <th scope=\"col\" data-type=\"num\" title=\"absolute ns of host {}, 95 % CI below\"><button type=\"button\">CPU cores</button></th>\
         <th scope=\"col\" data-type=\"num\" title=\"1 - paired ratio to json, 95 % CI below\"><button type=\"button\">CPU saved vs json</button></th>\
         <th scope=\"col\" data-type=\"num\" title=\"compress workload, once per copy sent\"><button type=\"button\">zstd cores</button></th>\
         </tr></thead><tbody>",
        esc(host)
    );
    for p in profiles {
        let _ = write!(
            out,
            "<tr data-profile=\"{0}\"><td data-sort=\"{0}\"><code>{0}</code></td></tr>",
            esc(p)
        );
    }
}

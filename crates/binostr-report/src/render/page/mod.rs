//! `results/campaigns/<label>/site/index.html`: one self-contained results
//! page with sortable tables, the plots, provenance, a relay calculator and
//! the cost model.
//!
//! The page fetches nothing: its styles, scripts (`assets/page.js`,
//! `assets/calculator.js`, `assets/cost.js`), font (`assets/page-sans.ttf`, a subset of the
//! plots' DejaVu Sans) and plots are inline, and a Content-Security-Policy
//! forbids every network request. Tables are plain HTML, readable without
//! scripts. Rendering is deterministic: the same records give the same
//! bytes, so the page can sit in the signed manifest.

mod calc;
mod cost;
mod html;
mod links;
mod provenance;
mod results;
mod scorecard;
mod strata;
mod suites;

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use base64::Engine as _;

use crate::read::inputs::Inputs;
pub use calc::{COMPRESSIONS, MODES};

use crate::model::analysis::Analysis;
use crate::model::apart::Apart;
use crate::model::campaign::Campaign;
use crate::read::records;
use html::esc;

/// The calculator's arithmetic (documented there), embedded in the page.
pub const CALCULATOR_JS: &str = include_str!("../../../assets/calculator.js");
/// The cost model's arithmetic (documented there), embedded in the page.
pub const COST_JS: &str = include_str!("../../../assets/cost.js");
/// Sorting, filtering and the calculator's and cost model's forms.
pub const PAGE_JS: &str = include_str!("../../../assets/page.js");
/// The page's styles.
pub const PAGE_CSS: &str = include_str!("../../../assets/page.css");
const FONT: &[u8] = include_bytes!("../../../assets/page-sans.ttf");

/// The only sources the page may load: inline styles and scripts, the
/// embedded font. Nothing from the network, not even from the same origin.
pub const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; \
    script-src 'unsafe-inline'; font-src data:; img-src data:";

/// Builds the page of `a` (the campaign `label` under `root`) into `out`
/// (default `results/campaigns/<label>/site/`); returns the file written.
pub fn write(root: &Path, a: &Analysis, label: &str, out: Option<&Path>) -> Result<PathBuf> {
    let c = a.campaign;
    for w in &c.warnings {
        eprintln!("binostr-report: warning: {w}");
    }
    let inputs = Inputs::read(root, label, &c.runs)?;
    let text = render(a, &inputs, label)?;
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
pub fn render(a: &Analysis, inputs: &Inputs, label: &str) -> Result<String> {
    let c = a.campaign;
    let profiles = profiles(c, inputs);
    let calculator = calc::section(c, &profiles)?;
    let cost = cost::section(a);
    let mut out = String::new();
    head_and_header(&mut out, c, label, &profiles);
    out.push_str(&calculator.html);
    if let Some(cost) = &cost {
        out.push_str(&cost.html);
    }
    out.push_str(&scorecard::section(&a.decisions));
    out.push_str(&results::claims(c));
    out.push_str(&strata::holds(c));
    out.push_str(&results::workloads(c));
    out.push_str(&results::sizes(c, inputs, &profiles));
    out.push_str(&strata::section(c, &profiles));
    out.push_str(&results::plots(inputs));
    out.push_str(&results::side(c));
    out.push_str(&links::section(c));
    out.push_str(&suites::robustness(c)?);
    out.push_str(&suites::evolution(c));
    out.push_str(&suites::maintenance(c, inputs));
    out.push_str(&results::interop(c, &a.languages, inputs, &profiles));
    out.push_str(&provenance::section(c, inputs, label));
    footer(&mut out, inputs, label, &c.apart, &profiles);
    let _ = write!(
        out,
        "<script type=\"application/json\" id=\"binostr-data\">{}</script>\n{}\
         <script>\n{CALCULATOR_JS}</script>\n<script>\n{COST_JS}</script>\n\
         <script>\n{PAGE_JS}</script>\n</body>\n</html>\n",
        calculator.data,
        cost.map_or(String::new(), |k| format!(
            "<script type=\"application/json\" id=\"binostr-cost\">{}</script>\n",
            k.data
        ))
    );
    Ok(out)
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
         <a href=\"#calculator\">Relay calculator</a> {}\
         <a href=\"#recommendation\">Recommendation</a> <a href=\"#claims\">Claims</a> \
         <a href=\"#holds\">Where claims hold</a> \
         <a href=\"#workloads\">Workloads</a> <a href=\"#sizes\">Sizes</a> \
         <a href=\"#strata\">Per kind &amp; mix</a> \
         <a href=\"#plots\">Plots</a> <a href=\"#side\">Latency &amp; memory</a> \
         {}<a href=\"#robustness\">Robustness</a> <a href=\"#evolution\">Evolution</a> \
         <a href=\"#maintenance\">Maintenance</a> <a href=\"#interop\">Interop</a> \
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
        if c.links.is_empty() {
            ""
        } else {
            "<a href=\"#cost\">Cost model</a> "
        },
        if crate::model::links::links(c).is_some() {
            "<a href=\"#links\">Links</a> "
        } else {
            ""
        },
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

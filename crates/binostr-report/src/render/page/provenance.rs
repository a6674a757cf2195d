//! The page's provenance section: the run contract and host, each run's
//! observations, the corpus, the manifest key and how to verify it, and the
//! SHA-256 of every file the page was built from.

use std::fmt::Write as _;

use serde_json::Value;

use super::html::{Cell, Column, Table, esc};
use crate::model::campaign::Campaign;
use crate::model::wall::RunWall;
use crate::read::inputs::{Inputs, Observed};

fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "null".to_owned(),
        other => other.to_string(),
    }
}

fn at<'a>(v: &'a Value, path: &[&str]) -> &'a Value {
    path.iter()
        .fold(v, |v, k| v.get(*k).unwrap_or(&Value::Null))
}

fn kv(out: &mut String, rows: &[(&str, String)]) {
    out.push_str("<dl class=\"kv\">\n");
    for (k, v) in rows {
        let v = if v.is_empty() { "(empty)" } else { v.as_str() };
        let _ = writeln!(out, "<dt>{}</dt><dd><code>{}</code></dd>", esc(k), esc(v));
    }
    out.push_str("</dl>\n");
}

/// The provenance section of the page of `label`.
pub fn section(c: &Campaign, inputs: &Inputs, label: &str) -> String {
    let mut out = String::from("<section id=\"provenance\"><h2>Provenance</h2>\n");
    contract_and_host(&mut out, c, inputs, label);
    runs(&mut out, c, inputs);
    verify(&mut out, inputs, label);
    files(&mut out, inputs);
    out.push_str("</section>\n");
    out
}

/// The run contract and the host it describes.
fn contract_and_host(out: &mut String, c: &Campaign, inputs: &Inputs, label: &str) {
    let k = &inputs.contract;
    out.push_str(
        "<h3>Campaign contract</h3>\n<p>Every run of a campaign has the same contract; a run whose \
         contract differs is refused.</p>\n",
    );
    let rustc = text(at(k, &["rustc"]));
    // The typed record, which reads the field under its old name too.
    let settings = c
        .runs
        .first()
        .map_or_else(String::new, |r| r.settings.clone());
    kv(
        out,
        &[
            ("label", label.to_owned()),
            ("settings", settings),
            ("git commit", text(at(k, &["git", "commit"]))),
            ("dirty", text(at(k, &["git", "dirty"]))),
            ("rustc", rustc.lines().next().unwrap_or_default().to_owned()),
            ("build profile", text(at(k, &["build_profile"]))),
            ("RUSTFLAGS", text(at(k, &["rustflags"]))),
            ("Cargo.lock SHA-256", text(at(k, &["cargo_lock_sha256"]))),
            ("criterion", text(at(k, &["criterion"]))),
            (
                "corpus fingerprint",
                text(at(k, &["corpus", "fingerprint"])),
            ),
            ("corpus events", text(at(k, &["corpus", "count"]))),
            ("corpus seed", text(at(k, &["corpus", "seed"]))),
            ("corpus source", text(at(&inputs.corpus, &["source"]))),
            ("audit SHA-256", text(at(&inputs.corpus, &["audit_sha256"]))),
        ],
    );
    out.push_str("<h3>Host</h3>\n<p>Absolute times belong to this host; ratios travel.</p>\n");
    kv(
        out,
        &[
            ("host id", text(at(k, &["host", "id"]))),
            ("CPU", text(at(k, &["host", "cpu_model"]))),
            ("cores", text(at(k, &["host", "cores"]))),
            ("governor", text(at(k, &["host", "governor"]))),
            ("boost", text(at(k, &["host", "boost"]))),
            ("kernel", text(at(k, &["host", "kernel"]))),
        ],
    );
}

/// Each run's observations and wall time.
fn runs(out: &mut String, c: &Campaign, inputs: &Inputs) {
    let mut t = Table::new(
        "t-runs",
        vec![
            Column::text("run", ""),
            Column::text("started", ""),
            Column::text("finished", ""),
            Column::num("minutes", ""),
            Column::text("load before", "1, 5, 15 minutes"),
            Column::text("load after", ""),
            Column::text("instructions", "valgrind version"),
            Column::text("order seed", ""),
        ],
    );
    let walls: Vec<&RunWall> = c.walls.iter().flat_map(|w| &w.runs).collect();
    for Observed {
        run: id,
        observed: o,
    } in &inputs.observed
    {
        let minutes = walls.iter().find(|r| r.id == *id).map(|r| r.minutes);
        t.row(
            None,
            id,
            vec![
                Cell::text(id),
                Cell::text(&text(at(o, &["started"]))),
                Cell::text(&text(at(o, &["finished"]))),
                Cell::num(minutes, 1),
                Cell::text(&text(at(o, &["load_before"]))),
                Cell::text(&text(at(o, &["load_after"]))),
                Cell::text(&text(at(o, &["instructions"]))),
                Cell::text(&text(at(o, &["order_seed"]))),
            ],
        );
    }
    out.push_str("<h3>Runs</h3>\n");
    out.push_str(&t.render("all"));
}

/// The manifest key and how to verify the campaign.
fn verify(out: &mut String, inputs: &Inputs, label: &str) {
    out.push_str("<h3 id=\"verify\">Verifying these results</h3>\n");
    let key = inputs.signer.as_deref();
    match key {
        Some(k) => {
            let _ = writeln!(
                out,
                "<p><code>manifest.json</code> lists the SHA-256 of every file of the campaign \
                 directory (this page and its screenshot included) and of <code>paper/generated/</code> \
                 when built from this campaign; <code>manifest.event.json</code> signs it as a \
                 NIP-94 event (kind 1063, BIP-340). Manifest key: <code class=\"key\">{}</code> \
                 (the project's published key is in the README and <code>CITATION.cff</code>; \
                 check that they match). Offline, from a checkout:</p>",
                esc(k)
            );
            let _ = writeln!(
                out,
                "<pre><code>binostr manifest verify --pubkey {0} {1}\njust verify {1}</code></pre>",
                esc(k),
                esc(label)
            );
        }
        None => {
            let _ = writeln!(
                out,
                "<p>This campaign is not signed yet (no <code>manifest.event.json</code>): \
                 <code>binostr manifest create {0}</code> signs it, then \
                 <code>binostr manifest verify --pubkey KEY {0}</code> checks it.</p>",
                esc(label)
            );
        }
    }
    out.push_str(
        "<p>Verification recomputes the event id, checks the signature and the pinned key, and \
         rehashes every listed file; it lists every failure and exits 1 on any.</p>\n",
    );
}

/// The SHA-256 of every file the page was built from.
fn files(out: &mut String, inputs: &Inputs) {
    out.push_str(
        "<h3>Files this page was built from</h3>\n<p>Recompute any of them with \
         <code>sha256sum PATH</code> from the repository root. Files under \
         <code>results/campaigns/</code> are also in the signed manifest; the others \
         (robustness, evolution, maintenance, interop, speed) are not. The signing key above is read from \
         <code>manifest.event.json</code>, which is not listed because signing rewrites it.</p>\n",
    );
    let mut t = Table::new(
        "t-files",
        vec![
            Column::text("path", ""),
            Column::num("bytes", ""),
            Column::text("SHA-256", ""),
        ],
    );
    for s in &inputs.sources {
        t.row(
            None,
            &s.path,
            vec![
                Cell::html(format!("<code>{}</code>", esc(&s.path)), &s.path),
                Cell::num(Some(s.bytes as f64), 0),
                Cell::html(
                    format!("<code class=\"hash\">{}</code>", s.sha256),
                    &s.sha256,
                ),
            ],
        );
    }
    out.push_str(&t.render("all"));
}

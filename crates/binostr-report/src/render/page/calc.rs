//! The relay calculator's data: per profile and kind subset, the campaign's
//! times (with their intervals), paired ratios to `json` and sizes, embedded
//! in the page as JSON for `assets/calculator.js`.
//!
//! Every number is a record of the campaign as `summary.csv` and
//! `sizes.csv` print it (ns with 2 decimals, ratios with 4, bytes exact), so
//! a reader can recompute the calculator from those files
//! (`scripts/page/calc_reference.py` does).

use serde_json::{Map, Value, json};

use crate::fmt::{NS, RATIO, json_number};
use crate::model::campaign::Campaign;
use crate::model::summary::BASELINE;

/// The kinds with a subset of their own in every campaign, and the default
/// mix: their published traffic shares in percent (BigBrotr/analysis, MIT,
/// 172.66 million events, Dec 2022 to Jul 2025; quoted in
/// `docs/CORPUS.md` and in the generator's `KIND_SHARES`,
/// `src/corpus/generate.rs`, which `scripts/page/browser_test.py` checks).
/// Together they are 67.12 % of that traffic; the calculator renormalises
/// the shares the reader sets over these four kinds.
pub const KIND_SHARES: [(u16, &str, f64); 4] = [
    (0, "profile metadata", 4.73),
    (1, "short text note", 38.96),
    (3, "follow list", 4.54),
    (7, "reaction", 18.89),
];

/// Where [`KIND_SHARES`] come from, as the page says it.
pub const SHARES_SOURCE: &str = "published traffic shares by kind, BigBrotr/analysis (MIT), \
    172.66 million events, Dec 2022 to Jul 2025, described in docs/CORPUS.md \
    and used by the default corpus generator (KIND_SHARES in src/corpus/generate.rs)";

/// The workloads a relay mode spends CPU on, per event received.
pub const MODES: [(&str, &[&str], &str); 3] = [
    (
        "forward",
        &["decode"],
        "decodes each event to match subscriptions; no id or signature check",
    ),
    (
        "validate",
        &["validate"],
        "bounded decode, structural checks, id and BIP-340 signature",
    ),
    (
        "store",
        &["validate", "encode"],
        "validates, then re-encodes the event into its stored form",
    ),
];

/// The compressed sizes the reader can choose, as `sizes.csv` columns.
pub const COMPRESSIONS: [(&str, &str); 3] = [
    (
        "zstd_stream",
        "zstd stream: the whole framed connection compressed",
    ),
    ("zstd_event", "zstd per event (each alone, + 4-byte length)"),
    (
        "zstd_dict",
        "zstd per event with a trained dictionary (+ 4-byte length)",
    ),
];

/// The calculator's default inputs (examples; the reader sets their own).
pub fn defaults() -> Value {
    json!({
        "events_per_second": 500,
        "fanout": 10,
        "price_per_gb": 0.05,
        "mode": "validate",
        "compression": "zstd_stream",
    })
}

fn triple(x: (f64, f64, f64), decimals: usize) -> Value {
    json!([
        json_number(x.0, decimals),
        json_number(x.1, decimals),
        json_number(x.2, decimals)
    ])
}

/// The calculator's data for `profiles` on the primary host.
pub fn data(c: &Campaign, profiles: &[String]) -> Value {
    let host = c.primary_host();
    let mut workloads: Vec<&str> = MODES.iter().flat_map(|m| m.1.iter().copied()).collect();
    workloads.push("compress");
    workloads.sort_unstable();
    workloads.dedup();
    let mut per_profile = Map::new();
    for p in profiles {
        let mut subsets = Map::new();
        for (kind, _, _) in KIND_SHARES {
            let subset = format!("kind-{kind}");
            let mut cell = Map::new();
            for w in &workloads {
                let Some(row) = c.row(host, w, p, &subset, 1) else {
                    continue;
                };
                let mut t = Map::new();
                t.insert(
                    "ns".into(),
                    triple((row.median_ns, row.ci_ns.0, row.ci_ns.1), NS),
                );
                if let Some(r) = row.ratio_json {
                    t.insert("ratio".into(), triple(r, RATIO));
                }
                cell.insert((*w).to_owned(), Value::Object(t));
            }
            if let Some(s) = c.sizes(host, p, &subset) {
                cell.insert(
                    "sizes".into(),
                    json!({
                        "events": json_number(s.events, 1),
                        "raw": json_number(s.bytes[0], 1),
                        "framed": json_number(s.bytes[1], 1),
                        "zstd_event": json_number(s.bytes[2], 1),
                        "zstd_stream": json_number(s.bytes[3], 1),
                        "zstd_dict": json_number(s.bytes[4], 1),
                    }),
                );
            }
            subsets.insert(subset, Value::Object(cell));
        }
        per_profile.insert(p.clone(), Value::Object(subsets));
    }
    json!({
        "baseline": BASELINE,
        "profiles": profiles,
        "kinds": KIND_SHARES.iter().map(|(k, name, share)| json!({
            "subset": format!("kind-{k}"), "kind": k, "name": name, "share": share,
        })).collect::<Vec<_>>(),
        "shares_source": SHARES_SOURCE,
        "modes": MODES.iter().map(|(id, w, what)| json!({
            "id": id, "workloads": w, "what": what,
        })).collect::<Vec<_>>(),
        "compressions": COMPRESSIONS.iter().map(|(id, what)| json!({"id": id, "what": what}))
            .collect::<Vec<_>>(),
        "defaults": defaults(),
        "data": per_profile,
    })
}

/// `data` as text safe inside `<script type="application/json">`.
pub fn embed(v: &Value) -> String {
    serde_json::to_string(v)
        .expect("a JSON value serialises")
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

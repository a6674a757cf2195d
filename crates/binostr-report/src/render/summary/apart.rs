//! The profiles measured apart, in `summary.md`.

use std::fmt::Write as _;

use binostr_records::Workload;

use super::table::{md_table, ratio_opt};
use crate::fmt::{NS, PCT, fixed, fixed_opt};
use crate::model::campaign::Campaign;
use crate::model::summary::BASELINE;
use crate::read::transport::Mode;

/// The workloads of the apart tables, in order.
const APART_WORKLOADS: [&str; 9] = [
    Workload::Encode.name(),
    Workload::Decode.name(),
    Workload::DecodeId.name(),
    Workload::Validate.name(),
    Workload::FilterChecked.name(),
    Workload::FilterPreverified.name(),
    Workload::TransportPlain.name(),
    Workload::TransportDeflate.name(),
    Workload::TransportDeflateCtx.name(),
];

pub(super) fn apart_section(out: &mut String, c: &Campaign, host: &str) {
    for a in &c.apart {
        let _ = writeln!(
            out,
            "### Measured apart: {}
",
            a.profile
        );
        if let Some(r) = &a.record {
            let first = r.refused.first().map_or("", |x| x.reason.as_str());
            let _ = writeln!(
                out,
                "{} cannot represent {} events of the corpus (first: {first}; `campaign.json` lists \
                 them). So that every other profile is measured on the whole corpus, it is measured \
                 on the other {} events (fingerprint {}), paired with json on those events in the \
                 same child processes of each run (`run-K/apart-{}/`). Its numbers compare with \
                 json's in this section only.\n",
                a.profile,
                r.refused.len(),
                r.count,
                r.fingerprint,
                a.profile
            );
        }
        let rows: Vec<Vec<String>> = APART_WORKLOADS
            .iter()
            .filter_map(|w| {
                let own = a.row(host, w, &a.profile)?;
                let json_w = if w.starts_with("filter-") {
                    Workload::FilterChecked.name()
                } else {
                    w
                };
                let json = a.row(host, json_w, BASELINE);
                Some(vec![
                    (*w).to_owned(),
                    fixed(own.median_ns, NS),
                    fixed_opt(json.map(|r| r.median_ns), NS),
                    ratio_opt(own.ratio_json),
                ])
            })
            .collect();
        md_table(
            out,
            &[
                "workload",
                &format!("{} ns/event", a.profile),
                "json ns/event (same events)",
                "/ json [95% CI]",
            ],
            &rows,
        );
        let mut cells = vec![fixed_opt(a.size_pct(host), PCT)];
        cells.extend(Mode::ALL.map(|m| fixed_opt(a.wire_pct(host, m), PCT)));
        md_table(
            out,
            &[
                "raw size % json",
                "wire none % json",
                "wire deflate % json",
                "wire deflate-ctx % json",
            ],
            &[cells],
        );
    }
}

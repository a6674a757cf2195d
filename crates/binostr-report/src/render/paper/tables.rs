//! The pgfplots tables of `paper/generated/` (`*.csv`, no quoted fields),
//! for the primary host.

use std::collections::BTreeMap;

use binostr_records::Workload;
use binostr_records::robustness::Outcome;

use crate::fmt::{NS, PCT, RATIO, fixed, fixed_opt};
use crate::interval::Interval;
use crate::model::campaign::Campaign;
use crate::model::languages::{
    LANGUAGES, LanguageCell, MatrixRow, NOT_MEASURED, NOT_MEASURED_CELL, RUST,
};
use crate::model::summary::{BASELINE, REFERENCE};
use crate::read::side::ProfileTable;
use crate::read::transport::Mode;

pub(super) fn matrix_csv(matrix: &[MatrixRow]) -> String {
    let mut header = vec!["format".to_owned()];
    header.extend(LANGUAGES.iter().map(|l| format!("{}_ns", l.id)));
    header.extend(NOT_MEASURED.iter().map(|u| u.language.to_owned()));
    // Rust's library is this crate: only the others name one.
    let others = LANGUAGES.iter().filter(|l| l.id != RUST);
    header.extend(others.map(|l| format!("{}_library", l.id)));
    csv(
        &header.join(","),
        matrix.iter().map(|m| {
            // pgfplotstable reads no quoted fields: commas become semicolons.
            let lib = |cell: &LanguageCell| {
                cell.fastest.as_ref().map_or(String::new(), |f| {
                    f.library.replace(',', ";").replace('"', "'")
                })
            };
            let mut row = vec![m.format.clone()];
            row.extend(
                m.cells
                    .iter()
                    .map(|cell| fixed_opt(cell.fastest.as_ref().map(|f| f.ns), NS)),
            );
            row.extend(NOT_MEASURED.iter().map(|_| NOT_MEASURED_CELL.to_owned()));
            row.extend(m.cells.iter().filter(|c| c.language != RUST).map(lib));
            row
        }),
    )
}

fn csv(header: &str, rows: impl IntoIterator<Item = Vec<String>>) -> String {
    let mut out = format!("{header}\n");
    for r in rows {
        out.push_str(&r.join(","));
        out.push('\n');
    }
    out
}

fn sorted_by<T>(mut items: Vec<(Option<f64>, String, T)>) -> Vec<T> {
    // Missing values last, ties by profile id.
    items.sort_by(|a, b| match (a.0, b.0) {
        (Some(x), Some(y)) => x.total_cmp(&y).then_with(|| a.1.cmp(&b.1)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => a.1.cmp(&b.1),
    });
    items.into_iter().map(|(_, _, t)| t).collect()
}

/// The profiles with sizes on subset all, on the primary host.
pub(super) fn size_profiles(c: &Campaign) -> Vec<String> {
    let host = c.primary_host();
    let mut p: Vec<String> = c
        .side
        .sizes
        .iter()
        .filter(|s| s.host == host && s.subset == "all")
        .map(|s| s.profile.clone())
        .collect();
    p.dedup();
    p
}

pub(super) fn sizes_csv(c: &Campaign) -> String {
    let host = c.primary_host();
    let rows = size_profiles(c)
        .into_iter()
        .map(|p| {
            let pct = c.size_pcts(&p, "all");
            let s = c.sizes(host, &p, "all").expect("listed");
            let mut row = vec![p.clone()];
            let columns = pct.map_or([None; 5], |v| v.columns().map(Some));
            row.extend(columns.map(|v| fixed_opt(v, PCT)));
            row.push(fixed(s.bytes.raw / s.events, PCT));
            row.push(fixed(s.bytes.zstd_event / s.events, PCT));
            (pct.map(|v| v.raw), p, row)
        })
        .collect();
    csv(
        "profile,raw_pct,framed_pct,zstd_event_pct,zstd_stream_pct,zstd_dict_pct,raw_bytes_per_event,\
         zstd_bytes_per_event",
        sorted_by(rows),
    )
}

pub(super) fn compress_csv(c: &Campaign) -> String {
    let rows = size_profiles(c)
        .into_iter()
        .map(|p| {
            let pct = c.size_pcts(&p, "all");
            let mut row = vec![p.clone()];
            row.extend(
                [
                    pct.map(|v| v.zstd_event),
                    pct.map(|v| v.zstd_stream),
                    pct.map(|v| v.zstd_dict),
                ]
                .map(|v| fixed_opt(v, PCT)),
            );
            (pct.map(|v| v.zstd_event), p, row)
        })
        .collect();
    csv(
        "profile,zstd_event_pct,zstd_stream_pct,zstd_dict_pct",
        sorted_by(rows),
    )
}

pub(super) fn speed_csv(c: &Campaign) -> String {
    let host = c.primary_host();
    let rows = c
        .profiles(host)
        .into_iter()
        .map(|p| {
            let ns = |w: &str| c.ns(host, w, &p);
            let paired = |w: &str| c.row(host, w, &p, "all", 1).and_then(|r| r.ratio_json);
            let ratio = |w: &str| paired(w).map(|r| r.est);
            let decode = c.row(host, Workload::Decode.name(), &p, "all", 1);
            let row = vec![
                p.clone(),
                fixed_opt(ns(Workload::Encode.name()), NS),
                fixed_opt(ns(Workload::Decode.name()), NS),
                fixed_opt(ns(Workload::DecodeId.name()), NS),
                fixed_opt(ns(Workload::Validate.name()), NS),
                fixed_opt(
                    ns(Workload::SelectChecked.name())
                        .or_else(|| ns(Workload::SelectPreverified.name())),
                    NS,
                ),
                fixed_opt(ns(Workload::Stream.name()), NS),
                fixed_opt(ratio(Workload::Decode.name()), RATIO),
                fixed_opt(ratio(Workload::Validate.name()), RATIO),
                fixed_opt(decode.map(|r| r.range_pct), PCT),
                fixed_opt(ratio(Workload::Encode.name()), RATIO),
                fixed_opt(paired(Workload::Decode.name()).map(|r| r.lo), RATIO),
                fixed_opt(paired(Workload::Decode.name()).map(|r| r.hi), RATIO),
                fixed_opt(paired(Workload::Validate.name()).map(|r| r.lo), RATIO),
                fixed_opt(paired(Workload::Validate.name()).map(|r| r.hi), RATIO),
                fixed_opt(decode.and_then(|r| r.ratio_range_pct), PCT),
            ];
            // Ordered by the paired ratio: absolute ns drift between runs.
            let key = ratio(Workload::Decode.name()).or_else(|| (p == BASELINE).then_some(1.0));
            (key, p, row)
        })
        .collect();
    csv(
        "profile,encode_ns,decode_ns,decode_id_ns,validate_ns,select_ns,stream_ns,decode_ratio,validate_ratio,range_pct,encode_ratio,decode_ratio_lo,decode_ratio_hi,validate_ratio_lo,validate_ratio_hi,decode_ratio_range_pct",
        sorted_by(rows),
    )
}

/// A paired floor ratio of `floors.csv`.
#[derive(Clone, Copy, Debug)]
pub struct Floor {
    /// Its column prefix.
    pub name: &'static str,
    /// The numerator's workload.
    pub workload: Workload,
    /// The floor it is taken against.
    pub against: Workload,
}

const fn floor(name: &'static str, workload: Workload, against: Workload) -> Floor {
    Floor {
        name,
        workload,
        against,
    }
}

/// The paired floor ratios of `floors.csv`, in column order.
pub const FLOORS: [Floor; 5] = [
    floor("encode_copy", Workload::Encode, Workload::Copy),
    floor("decode_clone", Workload::Decode, Workload::Clone),
    floor("decode_id_decode", Workload::DecodeId, Workload::Decode),
    floor("validate_id_verify", Workload::Validate, Workload::IdVerify),
    floor(
        "select_raw_offset",
        Workload::SelectChecked,
        Workload::SelectRawOffset,
    ),
];

pub(super) fn floors_csv(c: &Campaign) -> String {
    let host = c.primary_host();
    let mut header = vec!["profile".to_owned()];
    for Floor { name, .. } in FLOORS {
        header.extend([name.to_owned(), format!("{name}_lo"), format!("{name}_hi")]);
    }
    let rows = c
        .profiles(host)
        .into_iter()
        .filter_map(|p| {
            let ratio = |f: &Floor| c.ratio(host, f.workload.name(), &p, f.against.name());
            let cells: Vec<Option<Interval>> = FLOORS.iter().map(ratio).collect();
            if cells.iter().all(Option::is_none) {
                return None;
            }
            let mut row = vec![p.clone()];
            for x in &cells {
                row.push(fixed_opt(x.map(|x| x.est), RATIO));
                row.push(fixed_opt(x.map(|x| x.lo), RATIO));
                row.push(fixed_opt(x.map(|x| x.hi), RATIO));
            }
            // By decode / clone.
            let key = c.ratio(host, Workload::Decode.name(), &p, Workload::Clone.name());
            Some((key.map(|x| x.est), p, row))
        })
        .collect();
    csv(&header.join(","), sorted_by(rows))
}

pub(super) fn instructions_csv(c: &Campaign) -> String {
    let host = c.primary_host();
    let workloads = crate::model::instr::INSTRUCTION_WORKLOADS;
    let rows = c
        .profiles(host)
        .into_iter()
        .filter_map(|p| {
            let instr: Vec<_> = workloads
                .iter()
                .chain(&[Workload::Copy.name()])
                .map(|w| c.instructions(host, w, &p))
                .collect();
            if instr.iter().all(Option::is_none) {
                return None;
            }
            let dev = instr
                .iter()
                .flatten()
                .map(|i| i.dev_pct)
                .fold(0.0, f64::max);
            let mut row = vec![p.clone()];
            row.extend(instr.iter().map(|i| fixed_opt(i.map(|i| i.per_event), 0)));
            row.extend(workloads.iter().map(|w| fixed_opt(c.ns(host, w, &p), NS)));
            row.push(fixed(dev, 4));
            let decode = c.instructions(host, Workload::Decode.name(), &p);
            Some((decode.map(|i| i.per_event), p, row))
        })
        .collect();
    csv(
        "profile,encode_instr,decode_instr,decode_id_instr,validate_instr,copy_instr,encode_ns,decode_ns,decode_id_ns,validate_ns,max_dev_pct",
        sorted_by(rows),
    )
}

pub(super) fn latency_csv(c: &Campaign) -> String {
    let host = c.primary_host();
    let mut rows: Vec<&crate::read::side::Latency> =
        c.side.latency.iter().filter(|l| l.host == host).collect();
    rows.sort_by(|a, b| (&a.profile, &a.workload).cmp(&(&b.profile, &b.workload)));
    csv(
        "profile,workload,p50_ns,p90_ns,p99_ns,p999_ns",
        rows.into_iter().map(|l| {
            let mut row = vec![l.profile.clone(), l.workload.clone()];
            let n = l.ns;
            row.extend([n.p50, n.p90, n.p99, n.p999].map(|v| fixed(v, NS)));
            row
        }),
    )
}

pub(super) fn filter_csv(c: &Campaign) -> String {
    let host = c.primary_host();
    let part = |r: Option<Interval>, i: usize| {
        fixed_opt(
            r.map(|r| match i {
                0 => r.est,
                1 => r.lo,
                _ => r.hi,
            }),
            RATIO,
        )
    };
    csv(
        "profile,contract,ns,json_ratio,json_ratio_lo,json_ratio_hi,event_ratio,instr",
        crate::model::relay::filter_rows(c, host)
            .into_iter()
            .map(|r| {
                vec![
                    r.profile.clone(),
                    r.contract().to_owned(),
                    fixed(r.ns, NS),
                    part(r.vs_json, 0),
                    part(r.vs_json, 1),
                    part(r.vs_json, 2),
                    part(r.vs_event, 0),
                    fixed_opt(r.instr, 0),
                ]
            }),
    )
}

pub(super) fn transport_csv(c: &Campaign) -> String {
    let host = c.primary_host();
    csv(
        "profile,none_bytes,deflate_bytes,ctx_bytes,none_pct,deflate_pct,ctx_pct,none_ratio,deflate_ratio,ctx_ratio,deflate_ratio_lo,deflate_ratio_hi",
        crate::model::relay::transport_rows(c, host)
            .into_iter()
            .map(|r| {
                let mut row = vec![r.profile.clone()];
                row.extend(r.bytes.iter().map(|(_, v)| fixed_opt(*v, 1)));
                row.extend(r.pct_json.iter().map(|(_, v)| fixed_opt(*v, 1)));
                row.extend(
                    r.vs_json
                        .iter()
                        .map(|(_, v)| fixed_opt(v.map(|x| x.est), RATIO)),
                );
                row.push(fixed_opt(r.vs_json.deflate.map(|x| x.lo), RATIO));
                row.push(fixed_opt(r.vs_json.deflate.map(|x| x.hi), RATIO));
                row
            }),
    )
}

pub(super) fn apart_csv(c: &Campaign) -> String {
    let host = c.primary_host();
    csv(
        "profile,events,refused,decode_ratio,validate_ratio,filter_ratio,size_pct,wire_none_pct,wire_deflate_pct",
        c.apart.iter().map(|a| {
            let ratio = |w: &str| {
                a.row(host, w, &a.profile)
                    .and_then(|r| r.ratio_json)
                    .map(|r| r.est)
            };
            let filter = ratio(Workload::FilterChecked.name())
                .or_else(|| ratio(Workload::FilterPreverified.name()));
            vec![
                a.profile.clone(),
                a.record
                    .as_ref()
                    .map_or(String::new(), |r| r.count.to_string()),
                a.record
                    .as_ref()
                    .map_or(String::new(), |r| r.refused.len().to_string()),
                fixed_opt(ratio(Workload::Decode.name()), RATIO),
                fixed_opt(ratio(Workload::Validate.name()), RATIO),
                fixed_opt(filter, RATIO),
                fixed_opt(a.size_pct(host), 1),
                fixed_opt(a.wire_pct(host, Mode::None), 1),
                fixed_opt(a.wire_pct(host, Mode::Deflate), 1),
            ]
        }),
    )
}

pub(super) fn kinds_csv(c: &Campaign) -> String {
    let host = c.primary_host();
    let mut keys: Vec<(String, String)> = c
        .rows
        .iter()
        .filter(|r| {
            r.host == host
                && r.threads == 1
                && r.profile != REFERENCE
                && (r.workload == Workload::Decode.name()
                    || r.workload == Workload::Validate.name())
        })
        .map(|r| (r.profile.clone(), r.subset.clone()))
        .collect();
    keys.sort();
    keys.dedup();
    csv(
        "profile,subset,decode_ns,validate_ns",
        keys.into_iter().map(|(p, s)| {
            let ns = |w: &str| c.row(host, w, &p, &s, 1).map(|r| r.median_ns);
            vec![
                p.clone(),
                s.clone(),
                fixed_opt(ns(Workload::Decode.name()), NS),
                fixed_opt(ns(Workload::Validate.name()), NS),
            ]
        }),
    )
}

/// The campaign's `registry.json` as the paper's profile table.
pub(super) fn profiles_csv(c: &Campaign) -> String {
    let yes = |b: bool| if b { "yes" } else { "no" }.to_owned();
    csv(
        "profile,family,enabled,deterministic,self_describing,borrowed_view",
        c.registry.iter().map(|e| {
            vec![
                e.id.clone(),
                e.family.clone(),
                yes(e.enabled),
                yes(e.deterministic),
                yes(e.self_describing),
                yes(e.borrowed_view),
            ]
        }),
    )
}

pub(super) fn robustness_csv(c: &Campaign) -> String {
    let rows = c.robustness.iter().flat_map(|r| &r.subjects).map(|s| {
        let (cases, clean, failures) = s.classes.iter().fold((0, 0, 0), |acc, (&k, x)| {
            (
                acc.0 + x.cases(),
                acc.1 + x.count(Outcome::CleanError),
                acc.2 + x.failures(k, s.ours),
            )
        });
        vec![
            s.subject.clone(),
            cases.to_string(),
            clean.to_string(),
            failures.to_string(),
        ]
    });
    csv("profile,cases,clean,failures", rows)
}

pub(super) fn interop_csv(c: &Campaign) -> String {
    csv(
        "language,format,library,version,ns_per_event",
        c.interop.iter().map(|r| {
            vec![
                r.language.clone(),
                r.format.clone(),
                r.library.clone(),
                r.version.clone(),
                fixed(r.ns_per_event, NS),
            ]
        }),
    )
}

/// Side-by-side rows: ours before and after over the reference, with the
/// reference's pass named (`+ UTF-8 check` where it adds our check).
pub(super) fn reference_csv(c: &Campaign) -> String {
    csv(
        "workload,ours,reference,rounds,before,after,after_lo,after_hi,ours_ns,reference_ns",
        c.reference.iter().map(|r| {
            let (pass, profile) = r.reference.split_once(':').unwrap_or(("", &r.reference));
            let reference = if pass.ends_with("+utf8") {
                format!("{profile} + UTF-8 check")
            } else {
                profile.to_owned()
            };
            vec![
                r.mode.clone(),
                r.ours.clone(),
                reference,
                r.rounds.to_string(),
                fixed_opt(r.base_over_ref, RATIO),
                fixed(r.new_over_ref, RATIO),
                fixed(r.new_over_ref_ci.lo, RATIO),
                fixed(r.new_over_ref_ci.hi, RATIO),
                fixed(r.new_ns, 1),
                fixed(r.ref_ns, 1),
            ]
        }),
    )
}

/// The rows of a suite's per-profile table for the profiles this campaign
/// measured, in the table's order.
fn measured_rows<'a>(c: &Campaign, table: &'a ProfileTable) -> Vec<&'a Vec<String>> {
    let measured = c.profiles(c.primary_host());
    table
        .rows
        .iter()
        .filter(|r| measured.iter().any(|p| *p == ProfileTable::profile(r)))
        .collect()
}

/// Short names of the evolution table's range cases (`range_<case>`), for
/// the paper's narrow column; other cases keep their own name.
const RANGE_CASES: [(&str, &str); 5] = [
    ("created_at_2e32", "created_at"),
    ("kind_65535", "kind"),
    ("tag_300_values", "values"),
    ("content_70000", "content"),
    ("tags_70000", "tags"),
];

/// The range-growth cases of the evolution table in one cell: `exact` when
/// every case round-trips, else each other outcome with its cases' short
/// names, e.g. `refused: created_at values`.
pub fn range_summary(table: &ProfileTable, row: &[String]) -> String {
    let mut by: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (h, v) in table.header.iter().zip(row) {
        if let Some(case) = h.strip_prefix("range_")
            && v != "exact"
        {
            let short = RANGE_CASES
                .iter()
                .find(|(long, _)| *long == case)
                .map_or(case, |(_, short)| short);
            by.entry(v.as_str()).or_default().push(short);
        }
    }
    if by.is_empty() {
        return "exact".into();
    }
    by.into_iter()
        .map(|(outcome, cases)| format!("{outcome}: {}", cases.join(" ")))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Evolution per measured profile: forward (a newer writer's extra field
/// and element), backward, the version on the wire and range growth.
pub(super) fn evolution_csv(c: &Campaign) -> String {
    let t = &c.evolution;
    csv(
        "profile,forward_field,forward_element,backward,version,unknown_version,range",
        measured_rows(c, t).into_iter().map(|r| {
            let cell = |col: &str| t.cell(r, col).unwrap_or_default().replace(',', ";");
            vec![
                ProfileTable::profile(r).to_owned(),
                cell("forward_field"),
                cell("forward_element"),
                cell("backward"),
                cell("version"),
                cell("unknown_version"),
                range_summary(t, r),
            ]
        }),
    )
}

/// Maintenance cost per measured profile, as `binostr maintenance` computed it.
pub(super) fn maintenance_csv(c: &Campaign) -> String {
    let t = &c.maintenance;
    csv(
        "profile,module_lines,generated_lines,crates,schema_compiler,ecosystems,spec_status,spec_ref",
        measured_rows(c, t).into_iter().map(|r| {
            // pgfplotstable reads no quoted fields: commas become semicolons.
            crate::read::side::MAINTENANCE_COLUMNS
                .iter()
                .map(|col| t.cell(r, col).unwrap_or_default().replace(',', ";"))
                .collect()
        }),
    )
}

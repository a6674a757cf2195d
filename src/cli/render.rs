//! Tables and summaries printed for people (JSON goes out through serde).

use std::path::Path;

use anyhow::Result;

use crate::corpus::audit::AuditReport;
use crate::corpus::select;

pub(super) fn print_profiles(json: bool) -> Result<()> {
    let rows = crate::profiles::table();
    if json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(());
    }
    println!(
        "{:<22} {:<18} {:<8} {:<13} {:<15} borrowed",
        "id", "family", "enabled", "deterministic", "self-describing"
    );
    for p in crate::profiles::PROFILES {
        let yes = |b: bool| if b { "yes" } else { "no" };
        println!(
            "{:<22} {:<18} {:<8} {:<13} {:<15} {}",
            p.id,
            serde_json::to_value(p.family)?.as_str().unwrap_or_default(),
            yes(p.enabled),
            yes(p.capabilities.deterministic),
            yes(p.capabilities.self_describing),
            yes(p.codec.borrowed().is_some())
        );
    }
    Ok(())
}

pub(super) fn print_selection(record: &select::SelectionRecord, output: &Path) {
    println!(
        "selected {} of {} events (seed {}, fingerprint {}) -> {}",
        record.count,
        record.available,
        record.seed,
        record.fingerprint,
        output.display()
    );
    println!(
        "selection record -> {}",
        select::record_path(output).display()
    );
}

pub(super) fn render_audit(report: &AuditReport) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "read {}  accepted {}  duplicates {}  rejected {}",
        report.read,
        report.accepted,
        report.duplicates,
        report.rejected.len()
    );
    let _ = writeln!(s, "fingerprint {}", report.fingerprint);
    let _ = writeln!(
        s,
        "compact JSON bytes: p50 {}  p90 {}  p99 {}  max {}",
        report.sizes.p50, report.sizes.p90, report.sizes.p99, report.sizes.max
    );
    let kinds: Vec<String> = report
        .kinds
        .iter()
        .map(|(k, n)| format!("{k}:{n}"))
        .collect();
    let _ = writeln!(s, "kinds {}", kinds.join(" "));
    for input in &report.inputs {
        let _ = writeln!(
            s,
            "  {:<16} read {:>6}  accepted {:>6}  duplicates {:>5}  rejected {:>5}  {}",
            input.shape.name(),
            input.read,
            input.accepted,
            input.duplicates,
            input.rejected,
            input.source
        );
    }
    for (reason, n) in report.reasons() {
        let _ = writeln!(s, "rejected {reason}: {n}");
    }
    const SHOWN: usize = 20;
    for r in report.rejected.iter().take(SHOWN) {
        let _ = writeln!(s, "  {}: {}: {}", r.source, r.position, r.detail);
    }
    if report.rejected.len() > SHOWN {
        let _ = writeln!(
            s,
            "  … {} more (use --json for all)",
            report.rejected.len() - SHOWN
        );
    }
    s
}

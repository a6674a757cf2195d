//! Per-kind comparison of a generated corpus against the real one.
//!
//! For every kind present in either corpus, [`calibrate`] reports the count,
//! the count share, the median and 90th-percentile compact JSON size
//! ([`Event::to_json`], NIP-01 field order) and the median tag count of both
//! corpora side by side; [`render_table`] prints the rows as an aligned
//! Markdown table. Percentiles use the nearest-rank method ([`percentile`]),
//! so every reported value is one that actually occurs in the data.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use crate::model::Event;

/// Nearest-rank percentile of an ascending slice: the smallest value such that
/// at least `p` percent of the values are less than or equal to it.
///
/// `p` is in percent (`50.0` is the median, which for an even count is the
/// lower of the two middle values). `p` outside `0..=100` is clamped, `p = 0`
/// gives the minimum, and an empty slice gives 0.
pub fn percentile(sorted: &[usize], p: f64) -> usize {
    if sorted.is_empty() {
        return 0;
    }
    let n = sorted.len();
    let p = if p.is_nan() { 0.0 } else { p.clamp(0.0, 100.0) };
    // p * n first keeps integral products exact (90 * 10 / 100 == 9, not 9.000...2).
    let rank = ((p * n as f64) / 100.0).ceil() as usize;
    sorted[rank.clamp(1, n) - 1]
}

/// One corpus's figures for one kind.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KindStats {
    /// Events of this kind.
    pub count: usize,
    /// `count` as a percentage of all events in the corpus (0 for an empty corpus).
    pub share_pct: f64,
    /// Median compact JSON size in bytes; `None` when `count` is 0.
    pub size_p50: Option<usize>,
    /// 90th-percentile compact JSON size in bytes; `None` when `count` is 0.
    pub size_p90: Option<usize>,
    /// Median number of tags; `None` when `count` is 0.
    pub tags_p50: Option<usize>,
}

/// The generated and real figures for one kind.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KindRow {
    /// Event kind.
    pub kind: u16,
    /// Figures for the generated corpus.
    pub generated: KindStats,
    /// Figures for the real corpus.
    pub real: KindStats,
}

/// Sizes and tag counts of one kind, before percentiles.
#[derive(Default)]
struct Samples {
    sizes: Vec<usize>,
    tags: Vec<usize>,
}

fn by_kind(events: &[Event]) -> BTreeMap<u16, Samples> {
    let mut map: BTreeMap<u16, Samples> = BTreeMap::new();
    let mut json = Vec::with_capacity(4096);
    for e in events {
        json.clear();
        e.write_json(&mut json);
        let s = map.entry(e.kind).or_default();
        s.sizes.push(json.len());
        s.tags.push(e.tags.len());
    }
    for s in map.values_mut() {
        s.sizes.sort_unstable();
        s.tags.sort_unstable();
    }
    map
}

fn stats(samples: Option<&Samples>, total: usize) -> KindStats {
    let count = samples.map_or(0, |s| s.sizes.len());
    let share_pct = if total == 0 {
        0.0
    } else {
        count as f64 * 100.0 / total as f64
    };
    let nonempty = samples.filter(|s| !s.sizes.is_empty());
    KindStats {
        count,
        share_pct,
        size_p50: nonempty.map(|s| percentile(&s.sizes, 50.0)),
        size_p90: nonempty.map(|s| percentile(&s.sizes, 90.0)),
        tags_p50: nonempty.map(|s| percentile(&s.tags, 50.0)),
    }
}

/// Compares `generated` with `real`, one row per kind present in either,
/// sorted by real count share (descending), then by kind.
pub fn calibrate(generated: &[Event], real: &[Event]) -> Vec<KindRow> {
    let gen_map = by_kind(generated);
    let real_map = by_kind(real);
    let mut kinds: Vec<u16> = gen_map.keys().chain(real_map.keys()).copied().collect();
    kinds.sort_unstable();
    kinds.dedup();
    let mut rows: Vec<KindRow> = kinds
        .into_iter()
        .map(|kind| KindRow {
            kind,
            generated: stats(gen_map.get(&kind), generated.len()),
            real: stats(real_map.get(&kind), real.len()),
        })
        .collect();
    // Same denominator for every row, so ordering by count orders by share exactly.
    rows.sort_by(|a, b| b.real.count.cmp(&a.real.count).then(a.kind.cmp(&b.kind)));
    rows
}

/// Renders rows as an aligned Markdown table, real figures beside generated
/// ones. Figures that do not exist (a kind absent from one corpus) print as `-`.
pub fn render_table(rows: &[KindRow]) -> String {
    const HEADER: [&str; 11] = [
        "kind",
        "real n",
        "gen n",
        "real %",
        "gen %",
        "real p50 B",
        "gen p50 B",
        "real p90 B",
        "gen p90 B",
        "real tags",
        "gen tags",
    ];
    let opt = |v: Option<usize>| v.map_or_else(|| "-".to_string(), |v| v.to_string());
    let cells: Vec<[String; 11]> = rows
        .iter()
        .map(|r| {
            [
                r.kind.to_string(),
                r.real.count.to_string(),
                r.generated.count.to_string(),
                format!("{:.2}", r.real.share_pct),
                format!("{:.2}", r.generated.share_pct),
                opt(r.real.size_p50),
                opt(r.generated.size_p50),
                opt(r.real.size_p90),
                opt(r.generated.size_p90),
                opt(r.real.tags_p50),
                opt(r.generated.tags_p50),
            ]
        })
        .collect();
    let mut widths = HEADER.map(str::len);
    for row in &cells {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.len());
        }
    }
    let mut out = String::new();
    let line = |out: &mut String, row: &[String]| {
        out.push('|');
        for (c, w) in row.iter().zip(widths) {
            let _ = write!(out, " {c:>w$} |");
        }
        out.push('\n');
    };
    line(&mut out, &HEADER.map(String::from));
    out.push('|');
    for w in widths {
        let _ = write!(out, " {}: |", "-".repeat(w - 1));
    }
    out.push('\n');
    for row in &cells {
        line(&mut out, row);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(kind: u16, content_len: usize, tags: usize) -> Event {
        Event {
            id: [0; 32],
            pubkey: [0; 32],
            sig: [0; 64],
            created_at: 1_700_000_000,
            kind,
            tags: vec![vec!["t".into(), "x".into()]; tags],
            content: "a".repeat(content_len),
        }
    }

    /// JSON size of `event(kind, 0, tags)` plus `content_len`.
    fn size(kind: u16, content_len: usize, tags: usize) -> usize {
        event(kind, 0, tags).to_json().len() + content_len
    }

    #[test]
    fn nearest_rank_percentiles() {
        let v: Vec<usize> = (1..=10).collect();
        assert_eq!(percentile(&v, 50.0), 5);
        assert_eq!(percentile(&v, 90.0), 9);
        assert_eq!(percentile(&v, 91.0), 10);
        assert_eq!(percentile(&v, 100.0), 10);
        assert_eq!(percentile(&v, 0.0), 1);
        assert_eq!(percentile(&v, 10.0), 1);
        assert_eq!(percentile(&v, 10.5), 2);
        assert_eq!(percentile(&v, 250.0), 10);
        assert_eq!(percentile(&[7], 50.0), 7);
        assert_eq!(percentile(&[], 50.0), 0);
        let odd = [1, 2, 3, 4, 100];
        assert_eq!(percentile(&odd, 50.0), 3);
        assert_eq!(percentile(&odd, 90.0), 100);
    }

    #[test]
    fn exact_rows_on_hand_made_corpora() {
        let real = vec![
            event(1, 10, 0),
            event(1, 30, 2),
            event(1, 20, 1),
            event(7, 1, 2),
        ];
        let generated = vec![
            event(1, 5, 3),
            event(3, 100, 9),
            event(3, 300, 7),
            event(3, 200, 8),
            event(3, 400, 6),
        ];
        let rows = calibrate(&generated, &real);
        let kinds: Vec<u16> = rows.iter().map(|r| r.kind).collect();
        assert_eq!(kinds, [1, 7, 3], "real share desc, then kind");

        let k1 = &rows[0];
        assert_eq!(k1.real.count, 3);
        assert_eq!(k1.real.share_pct, 75.0);
        assert_eq!(k1.real.size_p50, Some(size(1, 20, 1)));
        assert_eq!(k1.real.size_p90, Some(size(1, 30, 2)));
        assert_eq!(k1.real.tags_p50, Some(1));
        assert_eq!(k1.generated.count, 1);
        assert_eq!(k1.generated.share_pct, 20.0);
        assert_eq!(k1.generated.size_p50, Some(size(1, 5, 3)));
        assert_eq!(k1.generated.tags_p50, Some(3));

        let k7 = &rows[1];
        assert_eq!(k7.real.share_pct, 25.0);
        assert_eq!(k7.generated.count, 0);
        assert_eq!(k7.generated.share_pct, 0.0);
        assert_eq!(k7.generated.size_p50, None);

        let k3 = &rows[2];
        assert_eq!(k3.real.count, 0);
        assert_eq!(k3.generated.share_pct, 80.0);
        // Four values: the nearest-rank median is the 2nd smallest, p90 the
        // 4th. Sizes rank (100,9) < (200,8) < (300,7) < (400,6); tag counts
        // rank 6 < 7 < 8 < 9 independently of the sizes.
        assert_eq!(k3.generated.size_p50, Some(size(3, 200, 8)));
        assert_eq!(k3.generated.size_p90, Some(size(3, 400, 6)));
        assert_eq!(k3.generated.tags_p50, Some(7));
        assert_eq!(size(3, 200, 8), event(3, 200, 8).to_json().len());
    }

    #[test]
    fn ties_in_real_share_sort_by_kind() {
        let real = vec![event(9, 0, 0), event(2, 0, 0)];
        let rows = calibrate(&[], &real);
        assert_eq!(rows.iter().map(|r| r.kind).collect::<Vec<_>>(), [2, 9]);
        assert_eq!(
            rows[0].generated.share_pct, 0.0,
            "empty corpus has no shares"
        );
    }

    #[test]
    fn table_is_aligned_and_marks_missing_figures() {
        let rows = calibrate(&[event(3, 0, 1)], &[event(1, 0, 0), event(1, 1, 0)]);
        let table = render_table(&rows);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 4, "{table}");
        let widths: Vec<usize> = lines.iter().map(|l| l.chars().count()).collect();
        assert!(widths.windows(2).all(|w| w[0] == w[1]), "{table}");
        assert!(lines[0].starts_with("| kind |"), "{table}");
        let k1: Vec<&str> = lines[2].split('|').map(str::trim).collect();
        assert_eq!(&k1[1..6], ["1", "2", "0", "100.00", "0.00"], "{table}");
        assert_eq!(k1[7], "-", "{table}");
        let k3: Vec<&str> = lines[3].split('|').map(str::trim).collect();
        assert_eq!(&k3[1..4], ["3", "0", "1"], "{table}");
        assert_eq!(k3[6], "-", "{table}");
    }
}

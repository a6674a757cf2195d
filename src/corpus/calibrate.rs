//! Per-kind comparison of a generated corpus against the real one, and the
//! bound the generator is held to.
//!
//! For every kind present in either corpus, [`calibrate`] reports the count,
//! the count share, the median and 90th-percentile compact JSON size
//! ([`Event::to_json`], NIP-01 field order), the median tag count and two
//! compression ratios (each event compressed alone, compressed bytes summed
//! over the kind / its JSON bytes; the caller supplies the compressor) of
//! both corpora side by side; [`render_table`] prints the rows as an aligned
//! Markdown table. Percentiles use the nearest-rank method ([`percentile`]),
//! so every reported value is one that actually occurs in the data.
//!
//! The bound: every kind with at least [`BOUND_MIN_REAL`] real events has
//! each [`Figure`] within [`BOUND_PCT`] percent of the real one, or a reason
//! in [`EXPLAINED`]. Count shares are not bounded: the real corpus mixes its
//! source files, not relay traffic.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use binostr_records::CRAWL_FOLLOW_MEDIAN;
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
    sorted[nearest_rank(sorted.len() as u64, p) as usize - 1]
}

/// The 1-based rank of the `p`th percentile among `n > 0` values, as
/// [`percentile`] picks it.
pub fn nearest_rank(n: u64, p: f64) -> u64 {
    let p = if p.is_nan() { 0.0 } else { p.clamp(0.0, 100.0) };
    // p * n first keeps integral products exact (90 * 10 / 100 == 9, not 9.000...2).
    let rank = ((p * n as f64) / 100.0).ceil() as u64;
    rank.clamp(1, n)
}

/// Compressed sizes of one record, compressed alone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Compressed {
    /// zstd bytes.
    pub zstd: usize,
    /// Deflate bytes.
    pub deflate: usize,
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
    /// zstd bytes / JSON bytes, summed over the kind; `None` when `count` is 0.
    pub zstd_ratio: Option<f64>,
    /// Deflate bytes / JSON bytes, summed over the kind; `None` when `count` is 0.
    pub deflate_ratio: Option<f64>,
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
    /// Where the kind stands against the bound.
    pub bound: Verdict,
}

/// Kinds with at least this many real events are bounded.
pub const BOUND_MIN_REAL: usize = 30;
/// Largest distance of a generated figure from the real one, in percent of
/// the real one.
pub const BOUND_PCT: u32 = 10;

/// Why a bounded kind may miss the bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Kind 3 follows the published crawl, not the few real follow lists.
    FollowCrawl,
    /// The kind is outside the generated traffic mix.
    NotGenerated,
}

impl Reason {
    /// The reason as a sentence, with the real corpus's figures for the kind.
    pub fn sentence(self, real: &KindStats) -> String {
        match self {
            Reason::FollowCrawl => format!(
                "follows the published follow-list crawl (median {CRAWL_FOLLOW_MEDIAN} p tags); \
                 the real corpus holds only {} follow lists",
                real.count
            ),
            Reason::NotGenerated => {
                "not generated: outside the published top-20 traffic mix".to_owned()
            }
        }
    }
}

/// Bounded kinds allowed to miss the bound, and why.
pub const EXPLAINED: [(u16, Reason); 4] = [
    (3, Reason::FollowCrawl),
    (30000, Reason::NotGenerated),
    (10063, Reason::NotGenerated),
    (1985, Reason::NotGenerated),
];

/// A bounded figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Figure {
    /// Median JSON size.
    SizeP50,
    /// 90th-percentile JSON size.
    SizeP90,
    /// Median tag count.
    TagsP50,
    /// zstd ratio.
    ZstdRatio,
    /// Deflate ratio.
    DeflateRatio,
}

impl Figure {
    /// Every bounded figure, in table order.
    pub const ALL: [Figure; 5] = [
        Figure::SizeP50,
        Figure::SizeP90,
        Figure::TagsP50,
        Figure::ZstdRatio,
        Figure::DeflateRatio,
    ];

    /// Short name.
    pub fn name(self) -> &'static str {
        match self {
            Figure::SizeP50 => "p50 B",
            Figure::SizeP90 => "p90 B",
            Figure::TagsP50 => "tags",
            Figure::ZstdRatio => "zstd",
            Figure::DeflateRatio => "deflate",
        }
    }

    /// This figure of `stats`, formatted, or `-` when absent.
    pub fn show(self, stats: &KindStats) -> String {
        let int = |v: Option<usize>| v.map_or_else(|| "-".to_string(), |v| v.to_string());
        let ratio = |v: Option<f64>| v.map_or_else(|| "-".to_string(), |v| format!("{v:.3}"));
        match self {
            Figure::SizeP50 => int(stats.size_p50),
            Figure::SizeP90 => int(stats.size_p90),
            Figure::TagsP50 => int(stats.tags_p50),
            Figure::ZstdRatio => ratio(stats.zstd_ratio),
            Figure::DeflateRatio => ratio(stats.deflate_ratio),
        }
    }

    /// Whether `generated` is within [`BOUND_PCT`] percent of `real`; an
    /// absent figure on either side is not.
    pub fn within(self, generated: &KindStats, real: &KindStats) -> bool {
        let pct = f64::from(BOUND_PCT);
        let int = |g: Option<usize>, r: Option<usize>| match (g, r) {
            (Some(g), Some(r)) => 100 * g.abs_diff(r) <= BOUND_PCT as usize * r,
            _ => false,
        };
        let ratio = |g: Option<f64>, r: Option<f64>| match (g, r) {
            (Some(g), Some(r)) => 100.0 * (g - r).abs() <= pct * r,
            _ => false,
        };
        match self {
            Figure::SizeP50 => int(generated.size_p50, real.size_p50),
            Figure::SizeP90 => int(generated.size_p90, real.size_p90),
            Figure::TagsP50 => int(generated.tags_p50, real.tags_p50),
            Figure::ZstdRatio => ratio(generated.zstd_ratio, real.zstd_ratio),
            Figure::DeflateRatio => ratio(generated.deflate_ratio, real.deflate_ratio),
        }
    }
}

/// One kind against the bound.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// Fewer than [`BOUND_MIN_REAL`] real events.
    Unbounded,
    /// Every figure within the bound.
    Pass,
    /// Figures outside the bound, for the reason given in [`EXPLAINED`].
    Explained {
        /// The figures outside the bound.
        missed: Vec<Figure>,
        /// Why.
        reason: String,
    },
    /// Figures outside the bound, with no stated reason.
    Miss {
        /// The figures outside the bound.
        missed: Vec<Figure>,
    },
}

impl Verdict {
    /// The verdict for `kind` with these figures.
    pub fn of(kind: u16, generated: &KindStats, real: &KindStats) -> Self {
        if real.count < BOUND_MIN_REAL {
            return Verdict::Unbounded;
        }
        let missed: Vec<Figure> = Figure::ALL
            .into_iter()
            .filter(|f| !f.within(generated, real))
            .collect();
        if missed.is_empty() {
            return Verdict::Pass;
        }
        match EXPLAINED.iter().find(|(k, _)| *k == kind) {
            Some(&(_, reason)) => Verdict::Explained {
                missed,
                reason: reason.sentence(real),
            },
            None => Verdict::Miss { missed },
        }
    }

    /// One word for the table.
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Unbounded => "-",
            Verdict::Pass => "PASS",
            Verdict::Explained { .. } => "explained",
            Verdict::Miss { .. } => "MISS",
        }
    }
}

/// Sizes, tag counts and compressed bytes of one kind, before percentiles.
#[derive(Default)]
struct Samples {
    sizes: Vec<usize>,
    tags: Vec<usize>,
    json_bytes: usize,
    compressed: Compressed,
}

fn by_kind(
    events: &[Event],
    compress: &mut impl FnMut(&[u8]) -> std::io::Result<Compressed>,
) -> std::io::Result<BTreeMap<u16, Samples>> {
    let mut map: BTreeMap<u16, Samples> = BTreeMap::new();
    let mut json = Vec::with_capacity(4096);
    for e in events {
        json.clear();
        e.write_json(&mut json);
        let c = compress(&json)?;
        let s = map.entry(e.kind).or_default();
        s.sizes.push(json.len());
        s.tags.push(e.tags.len());
        s.json_bytes += json.len();
        s.compressed.zstd += c.zstd;
        s.compressed.deflate += c.deflate;
    }
    for s in map.values_mut() {
        s.sizes.sort_unstable();
        s.tags.sort_unstable();
    }
    Ok(map)
}

fn stats(samples: Option<&Samples>, total: usize) -> KindStats {
    let count = samples.map_or(0, |s| s.sizes.len());
    let share_pct = if total == 0 {
        0.0
    } else {
        count as f64 * 100.0 / total as f64
    };
    let nonempty = samples.filter(|s| !s.sizes.is_empty());
    let ratio =
        |bytes: fn(&Samples) -> usize| nonempty.map(|s| bytes(s) as f64 / s.json_bytes as f64);
    KindStats {
        count,
        share_pct,
        size_p50: nonempty.map(|s| percentile(&s.sizes, 50.0)),
        size_p90: nonempty.map(|s| percentile(&s.sizes, 90.0)),
        tags_p50: nonempty.map(|s| percentile(&s.tags, 50.0)),
        zstd_ratio: ratio(|s| s.compressed.zstd),
        deflate_ratio: ratio(|s| s.compressed.deflate),
    }
}

/// Compares `generated` with `real`, one row per kind present in either,
/// sorted by real count share (descending), then by kind. `compress` gives
/// the compressed sizes of one event's compact JSON.
pub fn calibrate(
    generated: &[Event],
    real: &[Event],
    mut compress: impl FnMut(&[u8]) -> std::io::Result<Compressed>,
) -> std::io::Result<Vec<KindRow>> {
    let gen_map = by_kind(generated, &mut compress)?;
    let real_map = by_kind(real, &mut compress)?;
    let mut kinds: Vec<u16> = gen_map.keys().chain(real_map.keys()).copied().collect();
    kinds.sort_unstable();
    kinds.dedup();
    let mut rows: Vec<KindRow> = kinds
        .into_iter()
        .map(|kind| {
            let generated = stats(gen_map.get(&kind), generated.len());
            let real = stats(real_map.get(&kind), real.len());
            KindRow {
                kind,
                bound: Verdict::of(kind, &generated, &real),
                generated,
                real,
            }
        })
        .collect();
    // Same denominator for every row, so ordering by count orders by share exactly.
    rows.sort_by(|a, b| b.real.count.cmp(&a.real.count).then(a.kind.cmp(&b.kind)));
    Ok(rows)
}

/// Kinds that miss the bound with no stated reason.
pub fn unexplained(rows: &[KindRow]) -> Vec<u16> {
    rows.iter()
        .filter(|r| matches!(r.bound, Verdict::Miss { .. }))
        .map(|r| r.kind)
        .collect()
}

/// Renders rows as an aligned Markdown table, real figures beside generated
/// ones, with each kind's verdict. Figures that do not exist (a kind absent
/// from one corpus) print as `-`.
pub fn render_table(rows: &[KindRow]) -> String {
    const HEADER: [&str; 16] = [
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
        "real zstd",
        "gen zstd",
        "real deflate",
        "gen deflate",
        "bound",
    ];
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let mut row = vec![
                r.kind.to_string(),
                r.real.count.to_string(),
                r.generated.count.to_string(),
                format!("{:.2}", r.real.share_pct),
                format!("{:.2}", r.generated.share_pct),
            ];
            for f in Figure::ALL {
                row.push(f.show(&r.real));
                row.push(f.show(&r.generated));
            }
            row.push(r.bound.word().to_string());
            row
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

/// One line per bounded kind: `PASS`, or the figures outside the bound
/// (generated vs real) with `MISS` or the stated reason; then a count.
pub fn render_bound(rows: &[KindRow]) -> String {
    let mut out = format!(
        "bound: kinds with >= {BOUND_MIN_REAL} real events, each figure within {BOUND_PCT} % of the real one\n"
    );
    let (mut pass, mut explained, mut miss) = (0, 0, 0);
    for r in rows {
        let figures = |missed: &[Figure]| {
            missed
                .iter()
                .map(|f| {
                    format!(
                        "{} {} vs {}",
                        f.name(),
                        f.show(&r.generated),
                        f.show(&r.real)
                    )
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = match &r.bound {
            Verdict::Unbounded => continue,
            Verdict::Pass => {
                pass += 1;
                writeln!(out, "kind {}: PASS", r.kind)
            }
            Verdict::Explained { missed, reason } => {
                explained += 1;
                writeln!(
                    out,
                    "kind {}: explained ({}): {reason}",
                    r.kind,
                    figures(missed)
                )
            }
            Verdict::Miss { missed } => {
                miss += 1;
                writeln!(out, "kind {}: MISS ({})", r.kind, figures(missed))
            }
        };
    }
    let _ = writeln!(out, "{pass} pass, {explained} explained, {miss} miss");
    out
}

#[cfg(test)]
mod tests;

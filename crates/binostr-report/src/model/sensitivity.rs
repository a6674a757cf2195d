//! How the composed size ratios move with the kind-3 share (0 to 10 %) and
//! the follow lists' median p-tag count (`follow-lists.csv`), and which
//! conclusions hold over the whole grid.

use std::collections::BTreeMap;

use crate::fmt::fixed;
use crate::model::claims::ProfileRatio;
use crate::model::mix::{KIND3, Mix, SizeMeasure, SizeSource, weights};
use crate::model::other::OtherKinds;

/// The kind-3 shares of the grid besides the mix's own.
pub const KIND3_OTHER_SHARES: [f64; 5] = [0.0, 0.02, 0.06, 0.08, 0.10];

/// The kind-3 shares of the grid: [`KIND3_OTHER_SHARES`] and the mix's,
/// ascending.
pub fn kind3_shares(mix: &Mix) -> Vec<f64> {
    let mut shares = KIND3_OTHER_SHARES.to_vec();
    shares.push(mix.share(KIND3));
    shares.sort_by(f64::total_cmp);
    shares.dedup();
    shares
}

/// The measures of the grid: raw and zstd per event.
pub const MEASURES: [SizeMeasure; 2] = [SizeMeasure::Raw, SizeMeasure::ZstdEvent];

/// One grid cell: every profile's composed ratio to json, ascending.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// Kind-3 share of all traffic.
    pub share: f64,
    /// Follow-list median p tags.
    pub median_tags: i64,
    /// Each profile's ratio to json, smallest first.
    pub ratios: Vec<ProfileRatio>,
}

impl Cell {
    /// The ratio of `profile` in this cell.
    pub fn ratio(&self, profile: &str) -> Option<f64> {
        self.ratios
            .iter()
            .find(|r| r.profile == profile)
            .map(|r| r.ratio)
    }

    /// The 1-based rank of `profile` (1 = smallest).
    pub fn rank(&self, profile: &str) -> Option<usize> {
        self.ratios
            .iter()
            .position(|r| r.profile == profile)
            .map(|i| i + 1)
    }
}

/// A profile's span over a grid.
#[derive(Clone, Debug, PartialEq)]
pub struct Span {
    /// Profile id.
    pub profile: String,
    /// Lowest ratio to json over the cells.
    pub lo: f64,
    /// Highest ratio to json.
    pub hi: f64,
    /// Best rank (1 = smallest).
    pub best: usize,
    /// Worst rank.
    pub worst: usize,
}

/// The grid of one measure.
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    /// The measure (one of [`MEASURES`]).
    pub measure: SizeMeasure,
    /// Kind-3 shares (rows), ascending.
    pub shares: Vec<f64>,
    /// The mix's own kind-3 share, one of `shares`.
    pub mix_share: f64,
    /// Follow-list medians (columns).
    pub medians: Vec<i64>,
    /// Cells, share-major.
    pub cells: Vec<Cell>,
}

/// The grid of `measure` for every profile that has every stratum and every
/// follow-list median, `kind-other` composed as `other` says; `None`
/// without follow lists or strata.
pub fn grid(
    src: &SizeSource,
    mix: &Mix,
    other: &OtherKinds,
    profiles: &[String],
    measure: SizeMeasure,
) -> Option<Grid> {
    let medians = src.follow_medians();
    if medians.is_empty() {
        return None;
    }
    let shares = kind3_shares(mix);
    let mut cells = Vec::new();
    for &share in &shares {
        let w = other.sized(&weights(mix, Some(share)));
        for &t in &medians {
            let mut ratios: Vec<ProfileRatio> = profiles
                .iter()
                .filter_map(|p| {
                    Some(ProfileRatio {
                        profile: p.clone(),
                        ratio: src.ratio(&w, p, measure, Some(t)).ok()?,
                    })
                })
                .collect();
            ratios.sort_by(|a, b| {
                a.ratio
                    .total_cmp(&b.ratio)
                    .then_with(|| a.profile.cmp(&b.profile))
            });
            cells.push(Cell {
                share,
                median_tags: t,
                ratios,
            });
        }
    }
    let n = cells[0].ratios.len();
    (n > 0 && cells.iter().all(|c| c.ratios.len() == n)).then_some(Grid {
        measure,
        shares,
        mix_share: mix.share(KIND3),
        medians,
        cells,
    })
}

impl Grid {
    /// Per profile: lowest and highest ratio, best and worst rank.
    pub fn spans(&self) -> Vec<Span> {
        let mut out = Vec::new();
        for ProfileRatio { profile: p, .. } in &self.cells[0].ratios {
            let r: Vec<f64> = self.cells.iter().filter_map(|c| c.ratio(p)).collect();
            let k: Vec<usize> = self.cells.iter().filter_map(|c| c.rank(p)).collect();
            let lo = r.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = r.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let best = *k.iter().min().expect("a cell");
            let worst = *k.iter().max().expect("a cell");
            out.push(Span {
                profile: p.clone(),
                lo,
                hi,
                best,
                worst,
            });
        }
        out
    }

    /// The conclusions that survive the whole grid, and where the order
    /// changes, as sentences (profile ids in backticks).
    pub fn conclusions(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut leaders: BTreeMap<&str, usize> = BTreeMap::new();
        for c in &self.cells {
            // The smallest of the cell (ratios are sorted).
            *leaders.entry(c.ratios[0].profile.as_str()).or_default() += 1;
        }
        let n = self.cells.len();
        if leaders.len() == 1 {
            let p = leaders.keys().next().expect("one");
            out.push(format!("`{p}` is the smallest in every cell ({n} of {n})."));
        } else {
            let parts: Vec<String> = leaders
                .iter()
                .map(|(p, k)| format!("`{p}` in {k}"))
                .collect();
            out.push(format!(
                "No profile is the smallest everywhere: smallest is {} of {n} cells.",
                parts.join(", ")
            ));
        }
        let spans = self.spans();
        let below: Vec<String> = spans
            .iter()
            .filter(|s| s.hi < 1.0)
            .map(|s| format!("`{}`", s.profile))
            .collect();
        if !below.is_empty() {
            out.push(format!(
                "Smaller than json in every cell: {}.",
                below.join(", ")
            ));
        }
        for Span {
            profile: p, lo, hi, ..
        } in spans.iter().filter(|s| s.lo < 1.0 && s.hi >= 1.0)
        {
            out.push(format!(
                "`{p}` is smaller than json only in part of the grid ({} to {} of json).",
                fixed(lo * 100.0, 1) + " %",
                fixed(hi * 100.0, 1) + " %"
            ));
        }
        out.push(self.order_sentence());
        out
    }

    fn order_sentence(&self) -> String {
        let first: Vec<&str> = self.cells[0]
            .ratios
            .iter()
            .map(|r| r.profile.as_str())
            .collect();
        let mut swaps = Vec::new();
        for (i, a) in first.iter().enumerate() {
            for b in &first[i + 1..] {
                let flips = self
                    .cells
                    .iter()
                    .any(|c| c.rank(a).unwrap_or(0) > c.rank(b).unwrap_or(0));
                if flips {
                    swaps.push(format!("`{a}`/`{b}`"));
                }
            }
        }
        if swaps.is_empty() {
            "The whole size order is the same in every cell.".to_owned()
        } else {
            format!(
                "The order changes within the grid for {} pair(s): {}.",
                swaps.len(),
                swaps.join(", ")
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(share: f64, ratios: &[(&str, f64)]) -> Cell {
        Cell {
            share,
            median_tags: 100,
            ratios: ratios
                .iter()
                .map(|(p, r)| ProfileRatio {
                    profile: (*p).to_owned(),
                    ratio: *r,
                })
                .collect(),
        }
    }

    #[test]
    fn a_stable_leader_survives_and_a_swap_is_named() {
        let g = Grid {
            measure: SizeMeasure::Raw,
            shares: vec![0.0, 0.1],
            mix_share: 0.1,
            medians: vec![100],
            cells: vec![
                cell(0.0, &[("a", 0.5), ("b", 0.9), ("c", 1.1)]),
                cell(0.1, &[("a", 0.6), ("c", 0.95), ("b", 0.97)]),
            ],
        };
        let c = g.conclusions();
        assert_eq!(c[0], "`a` is the smallest in every cell (2 of 2).");
        assert_eq!(c[1], "Smaller than json in every cell: `a`, `b`.");
        assert!(
            c[2].starts_with("`c` is smaller than json only in part"),
            "{c:?}"
        );
        assert_eq!(
            c[3],
            "The order changes within the grid for 1 pair(s): `b`/`c`."
        );
        assert_eq!(
            g.spans()[2],
            Span {
                profile: "c".to_owned(),
                lo: 0.95,
                hi: 1.1,
                best: 2,
                worst: 3
            }
        );
    }

    #[test]
    fn the_mix_share_joins_the_grid_once() {
        let mix = Mix::bigbrotr();
        let shares = kind3_shares(&mix);
        assert_eq!(shares.len(), KIND3_OTHER_SHARES.len() + 1);
        assert!(shares.contains(&mix.share(KIND3)));
        assert!(shares.is_sorted());
        let mut at_two = mix.clone();
        at_two.strata.iter_mut().for_each(|s| s.share = 0.02);
        assert_eq!(kind3_shares(&at_two), KIND3_OTHER_SHARES);
    }

    #[test]
    fn a_changing_leader_is_reported() {
        let g = Grid {
            measure: SizeMeasure::ZstdEvent,
            shares: vec![0.0, 0.1],
            mix_share: 0.1,
            medians: vec![100],
            cells: vec![
                cell(0.0, &[("a", 0.5), ("b", 0.6)]),
                cell(0.1, &[("b", 0.4), ("a", 0.5)]),
                cell(0.1, &[("b", 0.4), ("a", 0.5)]),
            ],
        };
        assert_eq!(
            g.conclusions()[0],
            "No profile is the smallest everywhere: smallest is `a` in 1, `b` in 2 of 3 cells."
        );
    }
}

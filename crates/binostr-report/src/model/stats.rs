//! Medians, percentiles and the two-level bootstrap behind every interval
//! in the summary.
//!
//! The bootstrap resamples runs with replacement, then the samples within
//! each drawn run, takes each drawn run's median and then the median of those:
//! the same statistic as the point estimate (`median_ns`), so run-to-run
//! variation and within-run noise both widen the interval.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use crate::interval::Ci;

/// Bootstrap resamples per benchmark key.
pub const RESAMPLES: usize = 2000;

/// The fixed seed all bootstrap streams derive from (ASCII "binostr").
pub const SEED: u64 = 0x0062_696e_6f73_7472;

/// The least and the greatest of some values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MinMax<T> {
    /// The least.
    pub min: T,
    /// The greatest.
    pub max: T,
}

impl<T: Copy + Ord> MinMax<T> {
    /// The least and greatest of `values`; `None` without any.
    pub fn of(values: impl IntoIterator<Item = T>) -> Option<Self> {
        values.into_iter().fold(None, |m, v| {
            Some(match m {
                None => MinMax { min: v, max: v },
                Some(MinMax { min, max }) => MinMax {
                    min: min.min(v),
                    max: max.max(v),
                },
            })
        })
    }
}

impl<T: PartialEq + std::fmt::Display> MinMax<T> {
    /// `min`, or `min to max` when they differ.
    pub fn text(&self) -> String {
        if self.min == self.max {
            self.min.to_string()
        } else {
            format!("{} to {}", self.min, self.max)
        }
    }
}

/// The median of `xs` (mean of the two middle values for an even count);
/// `NaN` when `xs` is empty.
pub fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    median_in_place(&mut v)
}

fn median_in_place(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let n = v.len();
    let (below, mid, _) = v.select_nth_unstable_by(n / 2, f64::total_cmp);
    let mid = *mid;
    if n % 2 == 1 {
        mid
    } else {
        let lower = below
            .iter()
            .copied()
            .max_by(f64::total_cmp)
            .expect("n >= 2");
        (lower + mid) / 2.0
    }
}

/// (max - min) / `center` * 100: the cross-run range of `xs` in percent of
/// `center`; `NaN` when `xs` is empty.
pub fn range_pct(xs: &[f64], center: f64) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    let max = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min = xs.iter().copied().fold(f64::INFINITY, f64::min);
    (max - min) / center * 100.0
}

/// A median-of-run-medians estimate with its bootstrap interval and the
/// cross-run range of the run medians.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Each run's median, in the order of the runs given.
    pub run_medians: Vec<f64>,
    /// The median of `run_medians`.
    pub median: f64,
    /// Bootstrap 95% interval of `median` (runs, then values within runs).
    pub ci: Ci,
    /// [`range_pct`] of `run_medians` around `median`.
    pub range_pct: f64,
}

/// The [`Estimate`] of `runs` (per run, its values), its bootstrap seeded
/// from `key`.
pub fn estimate(runs: &[Vec<f64>], key: &str) -> Estimate {
    let run_medians: Vec<f64> = runs.iter().map(|r| median(r)).collect();
    let m = median(&run_medians);
    let replicates = bootstrap_median_of_medians(runs, key_seed(key), RESAMPLES);
    Estimate {
        range_pct: range_pct(&run_medians, m),
        run_medians,
        median: m,
        ci: ci95(&replicates),
    }
}

/// The `q` quantile (0..=1) of sorted `xs`, interpolating linearly between
/// order statistics (Hyndman and Fan type 7); `NaN` when `xs` is empty.
pub fn quantile_sorted(xs: &[f64], q: f64) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    let h = (xs.len() - 1) as f64 * q.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(xs.len() - 1);
    xs[lo] + (h - lo as f64) * (xs[hi] - xs[lo])
}

/// The equivalence margin: two measurements are equivalent when the 95%
/// interval of their paired ratio lies within this fraction of 1 (a
/// difference smaller than it does not count).
pub const EQUIVALENCE_MARGIN: f64 = 0.05;

/// Whether an interval of a ratio lies within [`EQUIVALENCE_MARGIN`] of 1
/// (in either direction).
pub fn within_margin(ci: Ci) -> bool {
    ci.lo >= 1.0 / (1.0 + EQUIVALENCE_MARGIN) && ci.hi <= 1.0 + EQUIVALENCE_MARGIN
}

/// The percentile 95% interval of bootstrap replicates.
pub fn ci95(replicates: &[f64]) -> Ci {
    let mut v = replicates.to_vec();
    v.sort_unstable_by(f64::total_cmp);
    Ci {
        lo: quantile_sorted(&v, 0.025),
        hi: quantile_sorted(&v, 0.975),
    }
}

/// A stable 64-bit seed for one benchmark key: FNV-1a of `key` mixed with
/// [`SEED`], so a key's interval does not depend on which other keys exist.
pub fn key_seed(key: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in key.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h ^ SEED
}

/// `resamples` bootstrap replicates of the median of run medians. Each inner
/// vector holds one run's per-sample values; runs without samples are an
/// error of the caller and yield `NaN` replicates.
pub fn bootstrap_median_of_medians(runs: &[Vec<f64>], seed: u64, resamples: usize) -> Vec<f64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut medians = Vec::with_capacity(runs.len());
    let mut drawn = Vec::new();
    (0..resamples)
        .map(|_| {
            medians.clear();
            for _ in 0..runs.len() {
                let run = &runs[uniform(&mut rng, runs.len())];
                drawn.clear();
                drawn.extend((0..run.len()).map(|_| run[uniform(&mut rng, run.len())]));
                medians.push(median_in_place(&mut drawn));
            }
            median_in_place(&mut medians)
        })
        .collect()
}

/// `f` over `items` on every available core, in order. Each item's result
/// depends only on the item (every bootstrap seeds from its own key), so the
/// output does not depend on the thread count.
pub fn par_map<T: Sync, U: Send>(items: &[T], f: impl Fn(&T) -> U + Sync) -> Vec<U> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = items.len().div_ceil(threads).max(1);
    let f = &f;
    std::thread::scope(|s| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|c| s.spawn(move || c.iter().map(f).collect::<Vec<U>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a bootstrap thread panicked"))
            .collect()
    })
}

/// An unbiased draw from `0..n` (`n > 0`).
pub fn uniform(rng: &mut ChaCha8Rng, n: usize) -> usize {
    let n = n as u64;
    let zone = u64::MAX - (u64::MAX % n);
    loop {
        let x = rng.next_u64();
        if x < zone {
            return usize::try_from(x % n).expect("below n");
        }
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn equivalence_margin_is_symmetric() {
        let ci = |lo, hi| Ci { lo, hi };
        assert!(within_margin(ci(0.96, 1.04)));
        assert!(!within_margin(ci(0.94, 1.01)));
        assert!(!within_margin(ci(0.99, 1.06)));
    }

    use super::*;

    #[test]
    fn median_odd_even_empty() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert!(median(&[]).is_nan());
        assert_eq!(median(&[5.0, 1.0, 4.0, 2.0, 3.0, 9.0]), 3.5);
    }

    #[test]
    fn estimate_of_constant_runs() {
        let e = estimate(&[vec![2.0; 4], vec![2.03; 4], vec![2.0; 4]], "k");
        assert_eq!(e.median, 2.0);
        assert_eq!(e.run_medians, [2.0, 2.03, 2.0]);
        assert!((e.range_pct - 1.5).abs() < 1e-9, "{}", e.range_pct);
        assert!(e.ci.lo >= 2.0 && e.ci.hi <= 2.03, "{:?}", e.ci);
    }

    #[test]
    fn quantile_interpolates() {
        let xs = [10.0, 20.0, 30.0, 40.0, 50.0];
        assert_eq!(quantile_sorted(&xs, 0.0), 10.0);
        assert_eq!(quantile_sorted(&xs, 0.5), 30.0);
        assert_eq!(quantile_sorted(&xs, 0.875), 45.0);
        assert_eq!(quantile_sorted(&xs, 1.0), 50.0);
    }

    #[test]
    fn bootstrap_is_seeded_and_bounded() {
        let runs = vec![vec![99.0, 100.0, 101.0], vec![109.0, 110.0, 111.0]];
        let a = bootstrap_median_of_medians(&runs, 7, 500);
        assert_eq!(a, bootstrap_median_of_medians(&runs, 7, 500));
        assert_ne!(a, bootstrap_median_of_medians(&runs, 8, 500));
        assert!(a.iter().all(|&x| (99.0..=111.0).contains(&x)));
        let Ci { lo, hi } = ci95(&a);
        assert!(lo < 105.0 && 105.0 < hi, "{lo} {hi}");
    }

    #[test]
    fn key_seed_differs_per_key() {
        assert_ne!(key_seed("decode|json"), key_seed("decode|cbor"));
        assert_eq!(key_seed("x"), key_seed("x"));
    }
}

//! Seeded randomness and bit-reproducible arithmetic for the generator.
//!
//! Every draw goes through [`Gen`], a ChaCha20 stream, and every real-valued
//! computation uses only IEEE 754 basic operations (`+ - * /`, `sqrt`,
//! `floor`, `ceil`, `round`), which are correctly rounded everywhere. The
//! platform's `exp`/`ln` are not, so [`exp`] and [`ln`] are written out here:
//! the same seed gives the same bytes on every platform.

use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};

/// A deterministic random source: one ChaCha20 stream.
pub struct Gen(ChaCha20Rng);

impl Gen {
    /// Stream `stream` of the ChaCha20 generator keyed by `key`.
    pub fn new(key: [u8; 32], stream: u64) -> Self {
        let mut rng = ChaCha20Rng::from_seed(key);
        rng.set_stream(stream);
        Self(rng)
    }

    /// A uniform `u64`.
    pub fn u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n` (0 when `n` is 0), by widening multiplication.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.u64()) * n as u128) >> 64) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        debug_assert!(lo <= hi);
        lo + ((u128::from(self.u64()) * (u128::from(hi - lo) + 1)) >> 64) as u64
    }

    /// Uniform in `[0, 1)` with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// A uniformly chosen element of a non-empty slice.
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }

    /// An index in `0..n` skewed toward 0: index `i` has probability about
    /// `(i+1)^(2/3) - i^(2/3)` over `n^(2/3)`, a heavy head and a long tail.
    pub fn skewed(&mut self, n: usize) -> usize {
        let u = self.unit();
        ((n as f64 * u * u.sqrt()) as usize).min(n.saturating_sub(1))
    }

    /// `N` random bytes.
    pub fn bytes<const N: usize>(&mut self) -> [u8; N] {
        let mut b = [0u8; N];
        self.0.fill_bytes(&mut b);
        b
    }

    /// `n` random bytes.
    pub fn byte_vec(&mut self, n: usize) -> Vec<u8> {
        let mut b = vec![0u8; n];
        self.0.fill_bytes(&mut b);
        b
    }

    /// Shuffles `xs` in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, xs: &mut [T]) {
        for i in (1..xs.len()).rev() {
            xs.swap(i, self.below(i + 1));
        }
    }
}

const LN_2: f64 = std::f64::consts::LN_2;

/// `e^x` from basic operations only; relative error below 1e-15 for
/// `|x| < 700`.
pub fn exp(x: f64) -> f64 {
    let k = (x / LN_2).round();
    let r = x - k * LN_2;
    let (mut term, mut sum) = (1.0, 1.0);
    for i in 1..=24 {
        term *= r / f64::from(i);
        sum += term;
    }
    sum * pow2(k as i32)
}

/// `2^k` for `k` in the normal exponent range.
fn pow2(k: i32) -> f64 {
    let k = k.clamp(-1022, 1023);
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// Natural logarithm of a positive, normal `x` from basic operations only.
pub fn ln(x: f64) -> f64 {
    debug_assert!(x.is_normal() && x > 0.0);
    let bits = x.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i32 - 1023;
    let mut m = f64::from_bits((bits & ((1u64 << 52) - 1)) | (1023u64 << 52));
    let mut e = f64::from(e);
    if m > std::f64::consts::SQRT_2 {
        m /= 2.0;
        e += 1.0;
    }
    // ln m = 2 atanh s, |s| <= 0.172
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let (mut pow, mut sum) = (s, 0.0);
    for i in 0..30 {
        sum += pow / f64::from(2 * i + 1);
        pow *= s2;
    }
    2.0 * sum + e * LN_2
}

/// Inverse CDF through `(probability, value)` points, log-linear between
/// neighbours: the value at `u` in `[0, 1]`. Points are sorted by
/// probability, start at 0 and end at 1, and all values are positive; two
/// points at one probability make a step.
pub fn quantile_curve(points: &[(f64, f64)], u: f64) -> f64 {
    let u = u.clamp(0.0, 1.0);
    let i = points
        .windows(2)
        .position(|w| u <= w[1].0)
        .unwrap_or(points.len() - 2);
    let ((p0, v0), (p1, v1)) = (points[i], points[i + 1]);
    let t = if p1 > p0 { (u - p0) / (p1 - p0) } else { 1.0 };
    v0 * exp(t * ln(v1 / v0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exp_and_ln_match_std() {
        for &x in &[-20.0, -1.5, -0.3, 0.0, 1e-9, 0.5, 1.0, 2.5, 7.0, 30.0] {
            let (ours, std) = (exp(x), f64::exp(x));
            assert!(((ours - std) / std).abs() < 1e-14, "exp({x}) {ours} {std}");
        }
        for &x in &[
            1e-6, 0.1, 0.7, 1.0, 1.414, 1.5, 2.0, 98.0, 317.0, 5413.0, 1e9,
        ] {
            let (ours, std) = (ln(x), f64::ln(x));
            assert!((ours - std).abs() < 1e-13, "ln({x}) {ours} {std}");
        }
    }

    #[test]
    fn curve_hits_its_points_and_interpolates_geometrically() {
        let pts = [(0.0, 1.0), (0.5, 100.0), (1.0, 400.0)];
        assert!((quantile_curve(&pts, 0.0) - 1.0).abs() < 1e-9);
        assert!((quantile_curve(&pts, 0.5) - 100.0).abs() < 1e-9);
        assert!((quantile_curve(&pts, 1.0) - 400.0).abs() < 1e-9);
        assert!((quantile_curve(&pts, 0.25) - 10.0).abs() < 1e-9);
        assert!((quantile_curve(&pts, 0.75) - 200.0).abs() < 1e-9);
        // A repeated probability is a step.
        let step = [(0.0, 1.0), (0.5, 1.0), (0.5, 3.0), (1.0, 3.0)];
        assert_eq!(quantile_curve(&step, 0.5), 1.0);
        assert_eq!(quantile_curve(&step, 0.5000001), 3.0);
    }

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let a: Vec<u64> = (0..4)
            .map({
                let mut g = Gen::new([1; 32], 5);
                move |_| g.u64()
            })
            .collect();
        let b: Vec<u64> = (0..4)
            .map({
                let mut g = Gen::new([1; 32], 5);
                move |_| g.u64()
            })
            .collect();
        let c: Vec<u64> = (0..4)
            .map({
                let mut g = Gen::new([1; 32], 6);
                move |_| g.u64()
            })
            .collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
        let mut g = Gen::new([2; 32], 0);
        assert!((0..1000).all(|_| g.below(7) < 7));
        assert!((0..1000).all(|_| (3..=9).contains(&g.range(3, 9))));
        assert!((0..1000).all(|_| g.skewed(10) < 10));
    }
}

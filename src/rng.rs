//! The seeded random source every seeded draw uses (the generator, filter
//! drawing, benchmark orders, sequences, transport): one ChaCha20 stream,
//! so the same seed gives the same draws on every platform.

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

#[cfg(test)]
mod tests {
    use super::*;

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

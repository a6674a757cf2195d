//! Bit-reproducible arithmetic for the generator.
//!
//! Every draw goes through [`crate::rng::Gen`], a ChaCha20 stream, and every
//! real-valued computation uses only IEEE 754 basic operations (`+ - * /`, `sqrt`,
//! `floor`, `ceil`, `round`), which are correctly rounded everywhere. The
//! platform's `exp`/`ln` are not, so [`exp`] and [`ln`] are written out here:
//! the same seed gives the same bytes on every platform.

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
}

//! An estimate and its 95% interval, as every layer passes them around.

/// A 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ci {
    /// Lower bound.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
}

/// An estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// The point estimate.
    pub est: f64,
    /// Lower bound of the interval.
    pub lo: f64,
    /// Upper bound of the interval.
    pub hi: f64,
}

impl Interval {
    /// Exactly 1: a profile's ratio to itself.
    pub const ONE: Interval = Interval {
        est: 1.0,
        lo: 1.0,
        hi: 1.0,
    };

    /// `est` with the interval `ci`.
    pub fn new(est: f64, ci: Ci) -> Self {
        Interval {
            est,
            lo: ci.lo,
            hi: ci.hi,
        }
    }

    /// The interval alone.
    pub fn ci(self) -> Ci {
        Ci {
            lo: self.lo,
            hi: self.hi,
        }
    }

    /// Each of the three times `k`.
    pub fn scaled(self, k: f64) -> Self {
        Interval {
            est: self.est * k,
            lo: self.lo * k,
            hi: self.hi * k,
        }
    }

    /// The reciprocal ratio: `1 / est`, its bounds swapped.
    pub fn recip(self) -> Self {
        Interval {
            est: 1.0 / self.est,
            lo: 1.0 / self.hi,
            hi: 1.0 / self.lo,
        }
    }
}

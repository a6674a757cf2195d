//! Rule 2: how two values of one criterion compare, within a margin.

use super::criteria::Better;

/// Equivalence margin of measured ratios and exact sizes: a relative
/// difference within it does not count.
pub const MARGIN: f64 = crate::model::stats::EQUIVALENCE_MARGIN;

/// Equivalence margin of timings from one sitting without an interval
/// (the other languages' harnesses).
pub const SITTING_MARGIN: f64 = 0.25;

/// How a value was obtained, which sets its comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A paired ratio with its 95% CI.
    Interval,
    /// Exact (bytes, counts).
    Exact,
    /// One sitting, no interval.
    Sitting,
    /// An ordinal rank (languages, spec status): any difference counts.
    Rank,
}

/// One candidate's value of one criterion.
#[derive(Clone, Debug, PartialEq)]
pub struct Value {
    /// Estimate.
    pub est: f64,
    /// Interval (equal to `est` unless `kind` is [`Kind::Interval`]).
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
    /// How it was obtained.
    pub kind: Kind,
    /// A word for ranks (spec status), else empty.
    pub word: String,
    /// The events (subset or input) it was measured on: every value of a
    /// criterion must share json's, or the comparison is refused.
    pub on: String,
}

impl Value {
    pub(super) fn point(est: f64, kind: Kind) -> Self {
        Value {
            est,
            lo: est,
            hi: est,
            kind,
            word: String::new(),
            on: String::new(),
        }
    }

    pub(super) fn on(mut self, on: &str) -> Self {
        self.on = on.to_owned();
        self
    }
}

/// The outcome of comparing `a` with `b` on one criterion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    /// `a` is better, beyond the margin and (for intervals) resolved.
    Better,
    /// `a` is worse.
    Worse,
    /// The difference lies within the margin.
    Equivalent,
    /// Neither: the intervals overlap but do not fit within the margin.
    Undecided,
}

impl Cmp {
    /// The word tables print.
    pub fn word(self) -> &'static str {
        match self {
            Cmp::Better => "better",
            Cmp::Worse => "worse",
            Cmp::Equivalent => "equivalent",
            Cmp::Undecided => "undecided",
        }
    }

    fn flip(self) -> Self {
        match self {
            Cmp::Better => Cmp::Worse,
            Cmp::Worse => Cmp::Better,
            x => x,
        }
    }
}

/// Compares `a` with `b` (rule 2).
pub fn compare(a: &Value, b: &Value, better: Better) -> Cmp {
    let raw = match (a.kind, b.kind) {
        (Kind::Rank, _) | (_, Kind::Rank) => {
            if a.est == b.est {
                Cmp::Equivalent
            } else if a.est < b.est {
                Cmp::Better
            } else {
                Cmp::Worse
            }
        }
        (Kind::Interval, _) | (_, Kind::Interval) => {
            let span = a.hi.max(b.hi) / a.lo.min(b.lo);
            if a.hi < b.lo && b.est / a.est > 1.0 + MARGIN {
                Cmp::Better
            } else if b.hi < a.lo && a.est / b.est > 1.0 + MARGIN {
                Cmp::Worse
            } else if span <= 1.0 + MARGIN {
                Cmp::Equivalent
            } else {
                Cmp::Undecided
            }
        }
        _ => {
            let margin = if a.kind == Kind::Sitting || b.kind == Kind::Sitting {
                SITTING_MARGIN
            } else {
                MARGIN
            };
            let (x, y) = (a.est, b.est);
            if x == y || (x.min(y) > 0.0 && x.max(y) / x.min(y) <= 1.0 + margin) {
                Cmp::Equivalent
            } else if x < y {
                Cmp::Better
            } else {
                Cmp::Worse
            }
        }
    };
    match better {
        Better::Lower => raw,
        Better::Higher => raw.flip(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(est: f64, lo: f64, hi: f64) -> Value {
        Value {
            est,
            lo,
            hi,
            kind: Kind::Interval,
            word: String::new(),
            on: String::new(),
        }
    }

    #[test]
    fn intervals_resolve_only_beyond_the_margin() {
        let json = Value::point(1.0, Kind::Interval);
        assert_eq!(
            compare(&v(1.14, 1.13, 1.15), &json, Better::Lower),
            Cmp::Worse
        );
        assert_eq!(
            compare(&v(0.74, 0.73, 0.79), &json, Better::Lower),
            Cmp::Better
        );
        assert_eq!(
            compare(&v(1.02, 1.01, 1.03), &json, Better::Lower),
            Cmp::Equivalent
        );
        assert_eq!(
            compare(&v(1.03, 0.95, 1.10), &json, Better::Lower),
            Cmp::Undecided
        );
    }

    #[test]
    fn exact_sizes_and_ranks() {
        let a = Value::point(0.849, Kind::Exact);
        let b = Value::point(0.852, Kind::Exact);
        let json = Value::point(1.0, Kind::Exact);
        assert_eq!(compare(&a, &b, Better::Lower), Cmp::Equivalent);
        assert_eq!(compare(&a, &json, Better::Lower), Cmp::Better);
        assert_eq!(compare(&json, &a, Better::Lower), Cmp::Worse);
        let five = Value::point(5.0, Kind::Rank);
        let four = Value::point(4.0, Kind::Rank);
        assert_eq!(compare(&five, &four, Better::Higher), Cmp::Better);
        let s = Value::point(1.2, Kind::Sitting);
        let one = Value::point(1.0, Kind::Exact);
        assert_eq!(compare(&s, &one, Better::Lower), Cmp::Equivalent);
        let s = Value::point(1.6, Kind::Sitting);
        assert_eq!(compare(&s, &one, Better::Lower), Cmp::Worse);
    }
}

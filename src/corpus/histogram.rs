//! Exact size histograms: one count per distinct size, so memory is
//! bounded by the largest record allowed, never by the number of events.

use std::collections::BTreeMap;

use serde::Serialize;

use super::calibrate::nearest_rank;

/// Per-event size statistics in bytes.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Stats {
    /// Events measured.
    pub events: usize,
    /// Mean bytes per event.
    pub mean: f64,
    /// Median.
    pub p50: usize,
    /// 99th percentile.
    pub p99: usize,
}

impl Stats {
    #[cfg(test)]
    pub(crate) fn of(sizes: Vec<usize>) -> Self {
        let mut h = Histogram::default();
        sizes.into_iter().for_each(|s| h.add(s));
        h.stats()
    }
}

/// An exact histogram of sizes: one count per distinct size, so its memory
/// is bounded by the largest record allowed, never by the number of events.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Histogram {
    counts: BTreeMap<usize, u64>,
    events: u64,
    total: u64,
}

impl Histogram {
    /// Counts one size.
    pub fn add(&mut self, size: usize) {
        *self.counts.entry(size).or_default() += 1;
        self.events += 1;
        self.total += size as u64;
    }

    /// Nearest-rank percentile, as [`super::calibrate::percentile`]
    /// over the sorted sizes.
    pub fn percentile(&self, p: f64) -> usize {
        if self.events == 0 {
            return 0;
        }
        let rank = nearest_rank(self.events, p);
        let mut seen = 0;
        for (&size, &n) in &self.counts {
            seen += n;
            if seen >= rank {
                return size;
            }
        }
        0
    }

    /// Sizes counted.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// Their sum.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Largest size counted.
    pub fn max(&self) -> usize {
        self.counts.keys().next_back().copied().unwrap_or(0)
    }

    /// Count, mean, median and p99.
    pub fn stats(&self) -> Stats {
        Stats {
            events: self.events as usize,
            mean: if self.events == 0 {
                0.0
            } else {
                self.total as f64 / self.events as f64
            },
            p50: self.percentile(50.0),
            p99: self.percentile(99.0),
        }
    }
}

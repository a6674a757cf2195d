//! Criterion glue: runs each group through Criterion, one iteration = one
//! round of interleaved passes, and writes `samples.csv`, `rounds.csv` and
//! `ratios.csv` (see `docs/RESULTS.md`). Criterion stays the sampler (its
//! warm-up and flat sampling decide how many rounds); the per-pass times are
//! recorded here, and its `sample.json` is checked against them.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use binostr_records::CriterionSettings;
use binostr_records::csv::{RATIOS, ROUNDS, SAMPLES};
use criterion::{Criterion, SamplingMode};
use serde::Deserialize;

use crate::bench::fixture::Fixture;
use crate::bench::group::{Group, Sequence};
use crate::rng::Gen;

/// A [`Criterion`] configured from a campaign contract's
/// [`CriterionSettings`].
pub trait ToCriterion {
    /// A configured Criterion writing its files under `dir`.
    fn criterion(&self, dir: &Path) -> Criterion;
}

impl ToCriterion for CriterionSettings {
    fn criterion(&self, dir: &Path) -> Criterion {
        Criterion::default()
            .sample_size(self.sample_size)
            .warm_up_time(Duration::from_millis(self.warm_up_ms))
            .measurement_time(Duration::from_millis(self.measurement_ms))
            .nresamples(self.nresamples)
            .without_plots()
            .with_output_color(false)
            .output_directory(dir)
    }
}

/// One round: a pass of every member, in `order`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    /// Criterion sample the round belongs to.
    pub sample: usize,
    /// Member indices in the order they ran.
    pub order: Vec<usize>,
    /// Pass time of each member (by member index), ns.
    pub ns: Vec<u64>,
}

/// The measurement of one group.
#[derive(Clone, Debug)]
pub struct Measured {
    /// The group as planned: its members, workload and subset.
    pub group: Group,
    /// Its subset's sequence.
    pub sequence: Sequence,
    /// Events per pass of each member.
    pub events: Vec<u64>,
    /// The measured rounds (Criterion's warm-up rounds are not kept).
    pub rounds: Vec<Round>,
}

/// Most rounds of one Criterion sample written to `rounds.csv` and
/// `ratios.csv`. A group of few, fast members (a profile measured apart)
/// runs thousands of rounds per sample; those are thinned to an even stride,
/// keeping their round numbers. `samples.csv` totals every round.
pub const RECORDED_ROUNDS_PER_SAMPLE: usize = 100;

/// Indices of the rounds written to `rounds.csv` and `ratios.csv`: every
/// round of a sample with at most `cap`, otherwise `cap` of them at an even
/// stride from its first. `rounds` are in sample order.
pub fn recorded(rounds: &[Round], cap: usize) -> Vec<usize> {
    let mut kept = Vec::new();
    let mut start = 0;
    while start < rounds.len() {
        let sample = rounds[start].sample;
        let n = rounds[start..]
            .iter()
            .take_while(|r| r.sample == sample)
            .count();
        if n <= cap {
            kept.extend(start..start + n);
        } else {
            kept.extend((0..cap).map(|j| start + j * n / cap));
        }
        start += n;
    }
    kept
}

/// Why a group's measurement is unusable.
#[derive(Debug, thiserror::Error)]
pub enum TimingError {
    /// The group's subset has no sequence.
    #[error("{group}: no sequence")]
    NoSequence {
        /// The group's label.
        group: String,
    },
    /// Criterion's `sample.json` could not be read.
    #[error("{group}: reading {}", path.display())]
    Read {
        /// The group's label.
        group: String,
        /// Criterion's `sample.json` of the group.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Criterion's `sample.json` is not what it writes.
    #[error("{group}: parsing {}", path.display())]
    Parse {
        /// The group's label.
        group: String,
        /// Criterion's `sample.json` of the group.
        path: PathBuf,
        /// The JSON error.
        source: serde_json::Error,
    },
    /// Fewer routine calls than Criterion samples.
    #[error("{group}: Criterion ran {calls} calls for {samples} samples")]
    Calls {
        /// The group's label.
        group: String,
        /// Routine calls seen.
        calls: usize,
        /// Samples Criterion recorded.
        samples: usize,
    },
    /// A sample's rounds disagree with Criterion's iteration count.
    #[error(
        "{group}: sample {sample} has {rounds} rounds but Criterion recorded {iters} iterations"
    )]
    Rounds {
        /// The group's label.
        group: String,
        /// Index of the Criterion sample.
        sample: usize,
        /// Rounds seen.
        rounds: usize,
        /// Iterations Criterion recorded.
        iters: f64,
    },
}

#[derive(Deserialize)]
struct SavedSample {
    iters: Vec<f64>,
}

/// Times `groups` in order with Criterion, its files under `dir`. One
/// Criterion iteration is one round: one pass of every member, in an order
/// shuffled per round from `order_seed`. `progress` is called before each
/// group with its position.
pub fn run(
    fixture: &Fixture,
    groups: &[Group],
    sequences: &[Sequence],
    settings: &CriterionSettings,
    dir: &Path,
    order_seed: u64,
    mut progress: impl FnMut(usize, &Group),
) -> Result<Vec<Measured>, TimingError> {
    let mut c = settings.criterion(dir);
    let mut out = Vec::with_capacity(groups.len());
    for (gi, group) in groups.iter().enumerate() {
        progress(gi, group);
        let sequence = sequences
            .iter()
            .find(|s| s.subset == group.subset.name())
            .ok_or_else(|| TimingError::NoSequence {
                group: group.label(),
            })?;
        let mut passes: Vec<_> = group
            .members
            .iter()
            .map(|k| fixture.pass(k, &sequence.indices))
            .collect();
        let events: Vec<u64> = passes.iter().map(|p| p.events).collect();
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&order_seed.to_be_bytes());
        let mut rng = Gen::new(key, gi as u64 + 1);
        // Every call of the routine, each a list of rounds; Criterion's
        // measurement is the last `sample_size` calls.
        let mut calls: Vec<Vec<Round>> = Vec::new();
        let name = format!("g{gi:04}");
        let mut cg = c.benchmark_group(&name);
        cg.sampling_mode(SamplingMode::Flat);
        cg.bench_function("round", |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                let mut rounds = Vec::with_capacity(iters as usize);
                for _ in 0..iters {
                    let mut order: Vec<usize> = (0..passes.len()).collect();
                    rng.shuffle(&mut order);
                    let mut ns = vec![0u64; passes.len()];
                    for &m in &order {
                        let t = (passes[m].run)();
                        total += t;
                        ns[m] = t.as_nanos() as u64;
                    }
                    rounds.push(Round {
                        sample: 0,
                        order,
                        ns,
                    });
                }
                calls.push(rounds);
                total
            })
        });
        cg.finish();
        let sample_json = dir
            .join(&name)
            .join("round")
            .join("new")
            .join("sample.json");
        let bytes = std::fs::read(&sample_json).map_err(|source| TimingError::Read {
            group: group.label(),
            path: sample_json.clone(),
            source,
        })?;
        let saved: SavedSample =
            serde_json::from_slice(&bytes).map_err(|source| TimingError::Parse {
                group: group.label(),
                path: sample_json,
                source,
            })?;
        let n = saved.iters.len();
        if calls.len() < n {
            return Err(TimingError::Calls {
                group: group.label(),
                calls: calls.len(),
                samples: n,
            });
        }
        let measured: Vec<Vec<Round>> = calls.split_off(calls.len() - n);
        for (s, (rounds, &iters)) in measured.iter().zip(&saved.iters).enumerate() {
            if rounds.len() as f64 != iters {
                return Err(TimingError::Rounds {
                    group: group.label(),
                    sample: s,
                    rounds: rounds.len(),
                    iters,
                });
            }
        }
        let rounds = measured
            .into_iter()
            .enumerate()
            .flat_map(|(s, rounds)| {
                rounds.into_iter().map(move |mut r| {
                    r.sample = s;
                    r
                })
            })
            .collect();
        out.push(Measured {
            group: group.clone(),
            sequence: sequence.clone(),
            events,
            rounds,
        });
    }
    Ok(out)
}

/// `samples.csv` of `measured`: per member and Criterion sample, its passes
/// (`iters`), their total time and the events per pass, with the sequence id.
pub fn samples_csv(measured: &[Measured]) -> String {
    let mut rows = Vec::new();
    for m in measured {
        let samples = m.rounds.iter().map(|r| r.sample).max().map_or(0, |s| s + 1);
        for (i, key) in m.group.members.iter().enumerate() {
            for s in 0..samples {
                let passes: Vec<&Round> = m.rounds.iter().filter(|r| r.sample == s).collect();
                let total: u64 = passes.iter().map(|r| r.ns[i]).sum();
                rows.push((
                    key.clone(),
                    format!(
                        "{},{},{},{},{},{},{},{},{}\n",
                        key.workload,
                        key.profile,
                        key.subset.name(),
                        key.threads,
                        s,
                        passes.len(),
                        total,
                        m.events[i],
                        m.sequence.id
                    ),
                ));
            }
        }
    }
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    let mut s = SAMPLES.header_line();
    for (_, row) in rows {
        debug_assert!(SAMPLES.fits(&row), "{row}");
        s.push_str(&row);
    }
    s
}

/// `rounds.csv`: every pass of every recorded round, in the order it ran.
pub fn rounds_csv(measured: &[Measured]) -> String {
    let mut s = ROUNDS.header_line();
    for m in measured {
        for r in recorded(&m.rounds, RECORDED_ROUNDS_PER_SAMPLE) {
            let round = &m.rounds[r];
            for (pos, &i) in round.order.iter().enumerate() {
                let k = &m.group.members[i];
                let _ = writeln!(
                    s,
                    "{},{},{},{},{},{},{},{},{},{}",
                    m.group.kind.name(),
                    k.subset.name(),
                    r,
                    round.sample,
                    pos,
                    k.workload,
                    k.profile,
                    k.threads,
                    m.events[i],
                    round.ns[i]
                );
            }
        }
    }
    s
}

/// `ratios.csv`: every paired ratio of every recorded round (ns/event of the member
/// over ns/event of `against` in the same round), with its invariant bound.
pub fn ratios_csv(measured: &[Measured]) -> String {
    let mut s = RATIOS.header_line();
    for m in measured {
        let per_event = |r: &Round, i: usize| r.ns[i] as f64 / m.events[i] as f64;
        let recorded = recorded(&m.rounds, RECORDED_ROUNDS_PER_SAMPLE);
        for c in m.group.comparisons() {
            let k = &m.group.members[c.member];
            for &r in &recorded {
                let round = &m.rounds[r];
                let _ = writeln!(
                    s,
                    "{},{},{},{},{},{},{:.6},{}",
                    k.workload,
                    k.profile,
                    k.subset.name(),
                    k.threads,
                    c.name,
                    r,
                    per_event(round, c.member) / per_event(round, c.against),
                    c.min_ratio.map_or(String::new(), |b| format!("{b:.6}"))
                );
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rounds(per_sample: &[usize]) -> Vec<Round> {
        per_sample
            .iter()
            .enumerate()
            .flat_map(|(sample, &n)| {
                (0..n).map(move |_| Round {
                    sample,
                    order: vec![0],
                    ns: vec![1],
                })
            })
            .collect()
    }

    #[test]
    fn small_samples_keep_every_round() {
        assert_eq!(recorded(&rounds(&[3, 2]), 3), vec![0, 1, 2, 3, 4]);
    }

    #[test]
    fn large_samples_are_thinned_evenly_from_their_first_round() {
        let kept = recorded(&rounds(&[2, 10, 4]), 4);
        // sample 0: rounds 0-1; sample 1: rounds 2-11 at stride 2.5;
        // sample 2: rounds 12-15, all kept.
        assert_eq!(kept, vec![0, 1, 2, 4, 7, 9, 12, 13, 14, 15]);
    }
}

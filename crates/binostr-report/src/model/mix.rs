//! Headline figures composed from the kind strata under a stated traffic
//! mix (`docs/RESULTS.md`, "Strata and the traffic mix").
//!
//! Sizes: `composed(p) = sum over strata s of w_s * bytes_s(p) / events_s`,
//! over json's; the kind-3 stratum is the generated follow lists at the
//! crawl's median when the campaign has `follow-lists.csv`. Times: the same
//! sum over each stratum's median ns per event, with a bootstrap interval
//! that resamples each stratum's rounds on its own. Stream compression and
//! transport are not composed: they are measured on subset `mix`.

use std::fmt::Write as _;

use binostr_records::Workload;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

pub use binostr_records::{Mix, MixStratum};

use crate::fmt::fixed;
use crate::interval::Interval;
use crate::model::paired::{PassPair, Rounds};
use crate::model::stats;
use crate::read::side::Side;
use crate::read::sizes::{FollowList, Sizes};

/// The kind strata, in report order.
pub use binostr_records::STRATA;

/// The follow-list stratum.
pub const KIND3: &str = "kind-3";

/// The published crawl's median p-tag count of a follow list.
pub const CRAWL_MEDIAN_TAGS: i64 = binostr_records::CRAWL_FOLLOW_MEDIAN as i64;

/// A size measure of `sizes.csv`, per stratum and composed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SizeMeasure {
    /// Raw encoded bytes.
    Raw,
    /// zstd, each event alone.
    ZstdEvent,
    /// zstd over the stream.
    ZstdStream,
    /// deflate, each event alone.
    DeflateEvent,
    /// deflate over the stream (context takeover).
    DeflateStream,
}

impl SizeMeasure {
    /// Every measure, in the order the strata tables list them.
    pub const ALL: [SizeMeasure; 5] = [
        SizeMeasure::Raw,
        SizeMeasure::ZstdEvent,
        SizeMeasure::ZstdStream,
        SizeMeasure::DeflateEvent,
        SizeMeasure::DeflateStream,
    ];

    /// The measures composed under the mix (each event alone, so they add
    /// up over strata), in table order.
    pub const COMPOSED: [SizeMeasure; 3] = [
        SizeMeasure::Raw,
        SizeMeasure::ZstdEvent,
        SizeMeasure::DeflateEvent,
    ];

    /// Its name in tables.
    pub const fn name(self) -> &'static str {
        match self {
            SizeMeasure::Raw => "raw",
            SizeMeasure::ZstdEvent => "zstd per event",
            SizeMeasure::ZstdStream => "zstd stream",
            SizeMeasure::DeflateEvent => "deflate per event",
            SizeMeasure::DeflateStream => "deflate stream",
        }
    }

    /// Whether it is a deflate measure (absent from older `sizes.csv`).
    pub const fn is_deflate(self) -> bool {
        matches!(self, SizeMeasure::DeflateEvent | SizeMeasure::DeflateStream)
    }

    /// Its bytes in a `sizes.csv` row (`None`: deflate not measured).
    pub fn bytes(self, s: &Sizes) -> Option<f64> {
        match self {
            SizeMeasure::Raw => Some(s.bytes.raw),
            SizeMeasure::ZstdEvent => Some(s.bytes.zstd_event),
            SizeMeasure::ZstdStream => Some(s.bytes.zstd_stream),
            SizeMeasure::DeflateEvent => s.deflate.map(|d| d.event),
            SizeMeasure::DeflateStream => s.deflate.map(|d| d.stream),
        }
    }
}

/// The workloads whose times are composed.
pub const TIME_WORKLOADS: [Workload; 4] = [
    Workload::Decode,
    Workload::DecodeId,
    Workload::Validate,
    Workload::Encode,
];

/// What a figure the campaign did not measure says.
pub const NOT_MEASURED: &str = "not measured in this campaign";

/// How the stream measures and transport were measured, for the text of
/// every writer: on subset `mix` when the campaign has it.
pub fn stream_note(has_mix_subset: bool) -> String {
    if has_mix_subset {
        "Stream compression and transport are not composed: they are measured on subset `mix`, \
         a stream drawn from the corpus whose kinds follow the mix (per stratum a count \
         proportional to its share by largest remainder, size-stratified within the stratum, \
         then shuffled into one interleaved order); transport.csv is measured on that stream."
            .to_owned()
    } else {
        format!(
            "Stream compression and transport are not composed, and the `mix` stream is {NOT_MEASURED}: \
             its stream figures and transport.csv are over subset `all` (the corpus's own kinds)."
        )
    }
}

/// Where kind 3's composed sizes come from.
pub fn kind3_source(follow: Option<i64>) -> String {
    match follow {
        Some(t) => format!(
            "{KIND3} is the generated follow lists at the published crawl's median of {t} p tags \
             (follow-lists.csv)"
        ),
        None => {
            format!("{KIND3} is the corpus's own kind-3 events (follow-lists.csv: {NOT_MEASURED})")
        }
    }
}

/// The mix a campaign's composed figures use.
#[derive(Clone, Debug, PartialEq)]
pub struct StatedMix {
    /// The mix.
    pub mix: Mix,
    /// Whether `campaign.json` records it (else the default is used).
    pub recorded: bool,
}

impl StatedMix {
    /// The campaign's mix, or [`Mix::bigbrotr`] when it records none.
    pub fn of(recorded: Option<&Mix>) -> Self {
        match recorded {
            Some(m) => StatedMix {
                mix: m.clone(),
                recorded: true,
            },
            None => StatedMix {
                mix: Mix::bigbrotr(),
                recorded: false,
            },
        }
    }

    /// `name (kind-0 4.73 %, ...)`.
    pub fn shares(&self) -> String {
        let parts: Vec<String> = self
            .mix
            .strata
            .iter()
            .map(|s| format!("{} {} %", s.stratum, fixed(s.share * 100.0, 2)))
            .collect();
        format!("{} ({})", self.mix.name, parts.join(", "))
    }

    /// The sentence every composed headline carries.
    pub fn sentence(&self) -> String {
        let mut s = format!(
            "Mix: {}; source: {}.",
            self.shares(),
            self.mix.source.trim_end_matches('.')
        );
        if !self.recorded {
            let _ = write!(
                s,
                " This campaign's campaign.json records no mix: the default {} shares are used.",
                self.mix.name
            );
        }
        s
    }
}

/// One stratum's weight in a composed figure.
#[derive(Clone, Debug, PartialEq)]
pub struct Weight {
    /// The stratum (subset id).
    pub stratum: String,
    /// Its weight (the weights of a mix sum to 1).
    pub weight: f64,
}

/// The mix's weights with kind 3 at `kind3` (when given) and the other
/// strata rescaled to keep their relative shares, summing to 1.
pub fn weights(mix: &Mix, kind3: Option<f64>) -> Vec<Weight> {
    let total: f64 = mix.strata.iter().map(|s| s.share).sum();
    let k3 = mix
        .strata
        .iter()
        .find(|s| s.stratum == KIND3)
        .map_or(0.0, |s| s.share);
    let (k3_to, rest_scale) = match kind3 {
        Some(k) if total - k3 > 0.0 => (k, (1.0 - k) / (total - k3)),
        _ => (k3 / total, 1.0 / total),
    };
    mix.strata
        .iter()
        .map(|s| {
            let w = if s.stratum == KIND3 {
                k3_to
            } else {
                s.share * rest_scale
            };
            Weight {
                stratum: s.stratum.clone(),
                weight: w,
            }
        })
        .collect()
}

/// `sum of w_s * value(s)`; the strata without a value when any lacks one.
pub fn compose(
    weights: &[Weight],
    value: impl Fn(&str) -> Option<f64>,
) -> Result<f64, Vec<String>> {
    let mut sum = 0.0;
    let mut missing = Vec::new();
    for Weight { stratum, weight } in weights {
        match value(stratum) {
            Some(v) if v.is_finite() => sum += weight * v,
            _ => missing.push(stratum.clone()),
        }
    }
    if missing.is_empty() {
        Ok(sum)
    } else {
        Err(missing)
    }
}

/// Mean bytes per event of one size row under `m`.
pub fn mean_bytes(s: &Sizes, m: SizeMeasure) -> Option<f64> {
    let bytes = m.bytes(s)?;
    (s.events > 0.0).then(|| bytes / s.events)
}

/// Mean bytes per follow list under `m` (a [`SizeMeasure::COMPOSED`] one).
pub fn follow_mean(f: &FollowList, m: SizeMeasure) -> Option<f64> {
    let b = match m {
        SizeMeasure::Raw => f.raw,
        SizeMeasure::ZstdEvent => f.zstd_event,
        SizeMeasure::DeflateEvent => f.deflate_event,
        SizeMeasure::ZstdStream | SizeMeasure::DeflateStream => return None,
    };
    (f.events > 0.0 && b.is_finite()).then(|| b / f.events)
}

/// Where the sizes of one host come from.
pub struct SizeSource<'a> {
    /// The side measurements.
    pub side: &'a Side,
    /// Host.
    pub host: &'a str,
}

impl SizeSource<'_> {
    /// The size row of `profile` at `subset`.
    pub fn row(&self, profile: &str, subset: &str) -> Option<&Sizes> {
        self.side
            .sizes
            .iter()
            .find(|s| s.host == self.host && s.profile == profile && s.subset == subset)
    }

    /// The follow-list row of `profile` at `median_tags`.
    pub fn follow(&self, profile: &str, median_tags: i64) -> Option<&FollowList> {
        self.side
            .follow_lists
            .iter()
            .find(|f| f.host == self.host && f.profile == profile && f.median_tags == median_tags)
    }

    /// The follow-list medians json has, ascending.
    pub fn follow_medians(&self) -> Vec<i64> {
        let mut m: Vec<i64> = self
            .side
            .follow_lists
            .iter()
            .filter(|f| f.host == self.host && f.profile == crate::model::summary::BASELINE)
            .map(|f| f.median_tags)
            .collect();
        m.sort_unstable();
        m.dedup();
        m
    }

    /// Composed mean bytes of `profile` under `m`; kind 3 from the
    /// follow lists at `follow` when given. `Err`: the strata not measured.
    pub fn composed(
        &self,
        weights: &[Weight],
        profile: &str,
        m: SizeMeasure,
        follow: Option<i64>,
    ) -> Result<f64, Vec<String>> {
        compose(weights, |s| match follow {
            Some(t) if s == KIND3 => follow_mean(self.follow(profile, t)?, m),
            _ => mean_bytes(self.row(profile, s)?, m),
        })
    }

    /// [`Self::composed`] of `profile` over json's.
    pub fn ratio(
        &self,
        weights: &[Weight],
        profile: &str,
        m: SizeMeasure,
        follow: Option<i64>,
    ) -> Result<f64, Vec<String>> {
        let json = self.composed(weights, crate::model::summary::BASELINE, m, follow)?;
        Ok(self.composed(weights, profile, m, follow)? / json)
    }
}

/// One stratum of a composed time: its weight and, per run, each round's
/// ns per event of the profile (`a`) and of json (`b`).
#[derive(Clone, Debug, PartialEq)]
pub struct StratumPasses {
    /// The stratum's weight.
    pub weight: f64,
    /// Per run, its rounds.
    pub runs: Vec<Vec<PassPair>>,
}

/// The composed time ratio of a profile to json, with its interval. The
/// estimate composes each stratum's median of run medians; each bootstrap
/// replicate resamples every stratum's runs, then rounds within them, on
/// its own. `None` when a stratum has no round.
pub fn composed_time(strata: &[StratumPasses], seed: u64) -> Option<Interval> {
    if strata.iter().any(|s| s.runs.is_empty()) {
        return None;
    }
    let point = ratio_of(strata.iter().map(|s| {
        let (a, b): (Vec<f64>, Vec<f64>) = s
            .runs
            .iter()
            .map(|r| run_medians(r))
            .map(|m| (m.a, m.b))
            .unzip();
        Part {
            weight: s.weight,
            profile: stats::median(&a),
            json: stats::median(&b),
        }
    }));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let replicates: Vec<f64> = (0..stats::RESAMPLES)
        .map(|_| {
            let drawn: Vec<Part> = strata
                .iter()
                .map(|s| {
                    let m = resample(&s.runs, &mut rng);
                    Part {
                        weight: s.weight,
                        profile: m.a,
                        json: m.b,
                    }
                })
                .collect();
            ratio_of(drawn.into_iter())
        })
        .collect();
    Some(Interval::new(point, stats::ci95(&replicates)))
}

/// One stratum of a composed time: its weight, the profile's and json's ns.
struct Part {
    weight: f64,
    profile: f64,
    json: f64,
}

fn ratio_of(parts: impl Iterator<Item = Part>) -> f64 {
    let (a, b) = parts.fold((0.0, 0.0), |(a, b), p| {
        (a + p.weight * p.profile, b + p.weight * p.json)
    });
    a / b
}

/// The medians of `a` and of `b` over `rounds`.
fn run_medians(rounds: &[PassPair]) -> PassPair {
    let (a, b): (Vec<f64>, Vec<f64>) = rounds.iter().map(|p| (p.a, p.b)).unzip();
    PassPair {
        a: stats::median(&a),
        b: stats::median(&b),
    }
}

/// One two-level resample (runs, then rounds) of one stratum: the medians
/// of run medians of the profile and of json, from the same drawn rounds.
fn resample(runs: &[Vec<PassPair>], rng: &mut ChaCha8Rng) -> PassPair {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..runs.len() {
        let run = &runs[stats::uniform(rng, runs.len())];
        let drawn: Vec<PassPair> = (0..run.len())
            .map(|_| run[stats::uniform(rng, run.len())])
            .collect();
        let m = run_medians(&drawn);
        a.push(m.a);
        b.push(m.b);
    }
    PassPair {
        a: stats::median(&a),
        b: stats::median(&b),
    }
}

/// The composed figures of one host.
#[derive(Clone, Debug, PartialEq)]
pub struct Composed {
    /// The mix.
    pub mix: StatedMix,
    /// The follow-list median kind 3 is taken at, when `follow-lists.csv`
    /// has it (else kind 3 is the corpus's kind-3 stratum).
    pub follow: Option<i64>,
    /// The strata json lacks: nothing is composed when any is listed.
    pub missing: Vec<String>,
    /// Per profile and [`SizeMeasure::COMPOSED`] measure, where composed:
    /// its size ratio to json.
    pub sizes: Vec<ComposedSize>,
    /// Per [`TIME_WORKLOADS`] workload and profile, where composed: the
    /// time ratio to json.
    pub times: Vec<ComposedTime>,
}

/// One profile's composed size ratio to json under one measure.
#[derive(Clone, Debug, PartialEq)]
pub struct ComposedSize {
    /// Profile id.
    pub profile: String,
    /// The measure.
    pub measure: SizeMeasure,
    /// Composed bytes over json's.
    pub ratio: f64,
}

/// One profile's composed time ratio to json for one workload.
#[derive(Clone, Debug, PartialEq)]
pub struct ComposedTime {
    /// The workload.
    pub workload: Workload,
    /// Profile id.
    pub profile: String,
    /// The ratio with its interval.
    pub ratio: Interval,
}

impl Composed {
    /// Composes every profile's sizes and times on `host`; `split` turns
    /// the mix's weights into those of sizes and of times (`kind-other`
    /// into its sub-strata, `model/other.rs`).
    pub fn new(
        side: &Side,
        rounds: &Rounds,
        host: &str,
        profiles: &[String],
        mix: StatedMix,
        split: impl Fn(&[Weight]) -> (Vec<Weight>, Vec<Weight>),
    ) -> Self {
        let src = SizeSource { side, host };
        let follow = src
            .follow_medians()
            .contains(&CRAWL_MEDIAN_TAGS)
            .then_some(CRAWL_MEDIAN_TAGS);
        let (w, timed) = split(&weights(&mix.mix, None));
        let missing =
            match src.composed(&w, crate::model::summary::BASELINE, SizeMeasure::Raw, None) {
                Ok(_) => Vec::new(),
                Err(m) => m,
            };
        let sizes = profiles
            .iter()
            .flat_map(|p| {
                SizeMeasure::COMPOSED.into_iter().filter_map(|m| {
                    Some(ComposedSize {
                        profile: p.clone(),
                        measure: m,
                        ratio: src.ratio(&w, p, m, follow).ok()?,
                    })
                })
            })
            .collect();
        let times = if missing.is_empty() {
            composed_times(rounds, host, profiles, &timed)
        } else {
            Vec::new()
        };
        Composed {
            mix,
            follow,
            missing,
            sizes,
            times,
        }
    }

    /// The composed time ratio of `profile` for `workload`.
    pub fn time(&self, workload: Workload, profile: &str) -> Option<Interval> {
        self.times
            .iter()
            .find(|t| t.workload == workload && t.profile == profile)
            .map(|t| t.ratio)
    }

    /// The composed size ratio of `profile` under `measure`.
    pub fn size(&self, profile: &str, measure: SizeMeasure) -> Option<f64> {
        self.sizes
            .iter()
            .find(|s| s.profile == profile && s.measure == measure)
            .map(|s| s.ratio)
    }
}

fn composed_times(
    rounds: &Rounds,
    host: &str,
    profiles: &[String],
    w: &[Weight],
) -> Vec<ComposedTime> {
    let keys: Vec<(Workload, &String)> = TIME_WORKLOADS
        .iter()
        .flat_map(|wl| profiles.iter().map(move |p| (*wl, p)))
        .collect();
    stats::par_map(&keys, |&(workload, p)| {
        let wl = workload.name();
        let strata: Vec<StratumPasses> = w
            .iter()
            .map(|s| StratumPasses {
                weight: s.weight,
                runs: rounds.passes(host, wl, &s.stratum, p, "json"),
            })
            .collect();
        let seed = stats::key_seed(&format!("composed|{host}|{wl}|{p}"));
        composed_time(&strata, seed).map(|ratio| ComposedTime {
            workload,
            profile: p.clone(),
            ratio,
        })
    })
    .into_iter()
    .flatten()
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mix(shares: &[(&str, f64)]) -> Mix {
        Mix {
            name: "t".into(),
            source: "test".into(),
            strata: shares
                .iter()
                .map(|(s, w)| MixStratum {
                    stratum: (*s).into(),
                    share: *w,
                    within: Vec::new(),
                })
                .collect(),
        }
    }

    #[test]
    fn kind3_share_rescales_the_others() {
        let m = mix(&[("kind-1", 0.6), (KIND3, 0.2), ("kind-other", 0.2)]);
        let w = weights(&m, Some(0.6));
        let get = |s: &str| w.iter().find(|x| x.stratum == s).unwrap().weight;
        assert!((get(KIND3) - 0.6).abs() < 1e-12);
        assert!((get("kind-1") - 0.3).abs() < 1e-12);
        assert!((get("kind-other") - 0.1).abs() < 1e-12);
        assert_eq!(weights(&m, None)[0].weight, 0.6);
    }

    #[test]
    fn compose_by_hand_and_names_missing_strata() {
        let weight = |s: &str, weight| Weight {
            stratum: s.to_owned(),
            weight,
        };
        let w = vec![weight("a", 0.25), weight("b", 0.75)];
        let v = compose(&w, |s| Some(if s == "a" { 100.0 } else { 20.0 }));
        assert_eq!(v, Ok(40.0));
        let v = compose(&w, |s| (s == "a").then_some(1.0));
        assert_eq!(v, Err(vec!["b".to_owned()]));
    }

    fn stratum(weight: f64, runs: Vec<Vec<(f64, f64)>>) -> StratumPasses {
        StratumPasses {
            weight,
            runs: runs
                .into_iter()
                .map(|r| r.into_iter().map(|(a, b)| PassPair { a, b }).collect())
                .collect(),
        }
    }

    #[test]
    fn composed_time_by_hand_and_deterministic() {
        // Stratum a: profile 2 ns vs json 4 ns; stratum b: 30 vs 20.
        let a = vec![vec![(2.0, 4.0); 5], vec![(2.0, 4.0); 5]];
        let b = vec![vec![(30.0, 20.0); 5], vec![(30.0, 20.0); 5]];
        let strata = [stratum(0.5, a), stratum(0.5, b)];
        let Interval { est, lo, hi } = composed_time(&strata, 9).unwrap();
        assert!((est - 32.0 / 24.0).abs() < 1e-12);
        assert!((lo - est).abs() < 1e-12 && (hi - est).abs() < 1e-12);
        let noisy: Vec<Vec<(f64, f64)>> = (0..3)
            .map(|r| (0..9).map(|i| (10.0 + f64::from(i + r), 12.0)).collect())
            .collect();
        let s = [stratum(1.0, noisy)];
        assert_eq!(composed_time(&s, 4), composed_time(&s, 4));
        let Interval { est: e, lo, hi } = composed_time(&s, 4).unwrap();
        assert!(lo <= e && e <= hi && lo < hi);
        assert!(composed_time(&[stratum(1.0, Vec::new())], 4).is_none());
    }
}

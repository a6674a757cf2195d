//! The `filter` workloads: every drawn REQ filter scanned over a sequence's
//! stored records, through the cheapest access a profile's contract allows.
//!
//! A pass runs, for each filter of the set, over every record of the
//! sequence: view it ([`crate::codec::BorrowDecode::decode_ref`] where the
//! profile has a view, [`crate::codec::Codec::decode`] otherwise) and match.
//! Events per pass are records scanned (sequence length × filters), so a
//! result reads as time per stored event scanned. Before anything is timed,
//! every profile's match count per filter over the whole corpus must equal
//! the [`crate::filter::reference`] matcher's, evaluated on each event's
//! compact JSON; each timed pass asserts its total.

use std::hint::black_box;
use std::time::Instant;

use crate::bench::fixture::{FixtureError, Pass, ProfileRecords};
use crate::codec::{Codec, Limits};
use crate::filter::{self, Filter, reference};
use crate::model::Event;

/// A filter set with the reference matcher's verdicts.
pub struct Filters {
    /// The filters, in drawing order.
    pub filters: Vec<Filter>,
    /// `hits[f][i]`: whether event `i` matches filter `f` (reference matcher).
    hits: Vec<Vec<bool>>,
}

impl Filters {
    /// The default set ([`filter::draw::SEED`], [`filter::draw::COUNT`])
    /// drawn from `events`, judged by the reference matcher.
    pub fn drawn(events: &[Event]) -> Result<Self, FixtureError> {
        Self::judged(
            events,
            filter::draw(events, filter::draw::SEED, filter::draw::COUNT),
        )
    }

    /// `filters` judged over `events` by the reference matcher.
    pub fn judged(events: &[Event], filters: Vec<Filter>) -> Result<Self, FixtureError> {
        let json: Vec<Vec<u8>> = events.iter().map(|e| e.to_json().into_bytes()).collect();
        let hits = reference::hits(&filters, &json)
            .map_err(|e| FixtureError::FilterReference(e.to_string()))?;
        Ok(Self { filters, hits })
    }

    /// Matches of filter `f` over the whole corpus.
    pub fn count(&self, f: usize) -> u64 {
        self.hits[f].iter().filter(|&&m| m).count() as u64
    }

    /// Matches of every filter over the events `seq`, summed.
    pub fn expected(&self, seq: &[usize]) -> u64 {
        self.hits
            .iter()
            .map(|h| seq.iter().filter(|&&i| h[i]).count() as u64)
            .sum()
    }

    /// Refuses `p` unless its match count for every filter equals the
    /// reference matcher's.
    pub fn check(&self, p: &ProfileRecords, limits: &Limits) -> Result<(), FixtureError> {
        let codec = p.profile.codec;
        let mut got = vec![0u64; self.filters.len()];
        for (index, record) in p.records.iter().enumerate() {
            let mut count = |matched: &dyn Fn(&Filter) -> bool| {
                for (f, filter) in self.filters.iter().enumerate() {
                    got[f] += u64::from(matched(filter));
                }
            };
            let fail = |detail: String| FixtureError::RoundTrip {
                profile: p.profile.id,
                index,
                detail,
            };
            match codec.borrowed() {
                Some(b) => {
                    let view = b
                        .decode_ref(record, limits)
                        .map_err(|e| fail(e.to_string()))?;
                    count(&|f| f.matches(&view));
                }
                None => {
                    let e = codec
                        .decode(record, limits)
                        .map_err(|e| fail(e.to_string()))?;
                    count(&|f| f.matches_on(&e));
                }
            }
        }
        for (f, &got) in got.iter().enumerate() {
            let want = self.count(f);
            if got != want {
                return Err(FixtureError::FilterMismatch {
                    profile: p.profile.id,
                    filter: f,
                    got,
                    want,
                });
            }
        }
        Ok(())
    }
}

/// One `filter-checked`/`filter-preverified` pass of `codec` over `idx`.
pub fn pass<'a>(
    filters: &'a Filters,
    codec: &'a dyn Codec,
    records: &'a [Vec<u8>],
    idx: Vec<usize>,
    limits: Limits,
) -> Pass<'a> {
    let expected = filters.expected(&idx);
    let scanned = (idx.len() * filters.filters.len()) as u64;
    let view = codec.borrowed();
    Pass {
        events: scanned,
        run: Box::new(move || {
            let start = Instant::now();
            let mut n = 0u64;
            for f in &filters.filters {
                for &i in &idx {
                    let record = black_box(&records[i][..]);
                    let m = match view {
                        Some(b) => f.matches(&b.decode_ref(record, &limits).expect("prepared")),
                        None => f.matches_on(&codec.decode(record, &limits).expect("prepared")),
                    };
                    n += u64::from(m);
                }
            }
            let t = start.elapsed();
            assert_eq!(n, expected, "filter matches over the pass");
            t
        }),
    }
}

/// One `filter-event` pass: matching alone, over already decoded events.
pub fn reference_pass<'a>(filters: &'a Filters, events: &'a [Event], idx: Vec<usize>) -> Pass<'a> {
    let expected = filters.expected(&idx);
    let scanned = (idx.len() * filters.filters.len()) as u64;
    Pass {
        events: scanned,
        run: Box::new(move || {
            let start = Instant::now();
            let mut n = 0u64;
            for f in &filters.filters {
                for &i in &idx {
                    n += u64::from(f.matches_on(black_box(&events[i])));
                }
            }
            let t = start.elapsed();
            assert_eq!(n, expected, "filter matches over the pass");
            t
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::fixture::Fixture;
    use crate::bench::group::{GroupKind, plan};
    use crate::bench::workload::{Subset, Workload};
    use crate::profiles;

    fn fixture(n: usize) -> Fixture {
        let enabled: Vec<_> = profiles::enabled().collect();
        let (events, _) =
            crate::bench::fixture::representable(crate::corpus::generate::generate(3, n), &enabled);
        Fixture::prepare(events, &enabled, Limits::default(), None).unwrap()
    }

    #[test]
    fn every_profile_scans_the_drawn_filters() {
        let fx = fixture(300);
        assert_eq!(fx.filters.filters.len(), filter::draw::COUNT);
        let enabled: Vec<_> = profiles::enabled().collect();
        let groups = plan(&enabled, &[Subset::All], &[1]);
        let g = groups.iter().find(|g| g.kind == GroupKind::Filter).unwrap();
        let seq: Vec<usize> = (0..fx.events.len()).step_by(3).collect();
        let want = fx.filters.expected(&seq);
        assert!(want > 0, "the drawn filters match some of the sequence");
        for key in &g.members {
            let mut pass = fx.pass(key, &seq);
            assert_eq!(
                pass.events,
                (seq.len() * filter::draw::COUNT) as u64,
                "{key}"
            );
            (pass.run)();
            let p = profiles::find(key.profile);
            if let Some(p) = p {
                let view = p.codec.borrowed().map(|b| b.select_contract());
                assert_eq!(key.workload, crate::bench::workload::filter_workload(view));
            } else {
                assert_eq!(key.workload, Workload::FilterEvent);
            }
        }
    }

    #[test]
    fn a_wrong_count_refuses_the_fixture() {
        let fx = fixture(20);
        let id = crate::model::hex::encode(&fx.events[0].id);
        let f = Filter::from_json(&serde_json::json!({ "ids": [id] })).unwrap();
        let filters = Filters::judged(&fx.events, vec![f]).unwrap();
        assert_eq!(filters.count(0), 1);
        let json = fx.records("json").unwrap();
        assert!(filters.check(json, &fx.limits).is_ok());
        let mut swapped = json.records.clone();
        swapped[0] = swapped[1].clone();
        let bad = ProfileRecords {
            profile: json.profile,
            records: swapped,
        };
        let err = filters.check(&bad, &fx.limits).unwrap_err();
        assert_eq!(
            err.to_string(),
            "json: filter 0 matches 0 events, the json reference matcher 1"
        );
    }

    /// `cargo test --release -p binostr --lib filter_pass_timings -- --ignored --nocapture`
    #[test]
    #[ignore = "timing figures, run by hand in release"]
    fn filter_pass_timings() {
        let fx = fixture(2_000);
        let enabled: Vec<_> = profiles::enabled().collect();
        let groups = plan(&enabled, &[Subset::All], &[1]);
        let g = groups.iter().find(|g| g.kind == GroupKind::Filter).unwrap();
        let seq: Vec<usize> = (0..fx.events.len()).collect();
        println!(
            "{} filters x {} events, {} matches",
            fx.filters.filters.len(),
            seq.len(),
            fx.filters.expected(&seq)
        );
        for key in &g.members {
            let mut pass = fx.pass(key, &seq);
            (pass.run)();
            let best = (0..5).map(|_| (pass.run)()).min().unwrap();
            println!(
                "{key}: {:.1} ns/event scanned",
                best.as_nanos() as f64 / pass.events as f64
            );
        }
    }
}

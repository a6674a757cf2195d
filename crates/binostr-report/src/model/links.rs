//! The links results (`results/links/links.csv`) as the summary, the
//! paper and the page state them: per link and round-trip time, json with
//! deflate against json uncompressed, json with context takeover and the
//! fastest binary profile of each mode; per link, the EVENT → OK bytes and
//! relay CPU of json and of the smallest binary EVENT; and, when a second
//! deflater was measured, the relay CPU with each.

use std::collections::BTreeSet;

use crate::interval::Interval;
use crate::model::campaign::Campaign;
use crate::model::relay::is_json_text;
use crate::model::stats::MinMax;
use crate::model::summary::BASELINE;
use crate::read::links::LinkRow;
use crate::read::transport::{Mode, PerMode};

/// What a ratio's 95 % interval says about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The interval lies below 1.
    Faster,
    /// The interval lies above 1.
    Slower,
    /// The interval holds 1: no difference is stated.
    Unresolved,
}

/// The verdict of a time ratio.
pub fn verdict(r: Interval) -> Verdict {
    if r.hi < 1.0 {
        Verdict::Faster
    } else if r.lo > 1.0 {
        Verdict::Slower
    } else {
        Verdict::Unresolved
    }
}

/// One link setting.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    /// Name in the CSV (`unshaped`, `10mbit`).
    pub name: String,
    /// Rate, Mbit/s; `None` when unshaped.
    pub rate_mbit: Option<f64>,
    /// Timed rounds (fewest over its rows).
    pub rounds: i64,
}

impl Link {
    /// `10 Mbit/s` or `unshaped`.
    pub fn label(&self) -> String {
        self.rate_mbit
            .map_or_else(|| "unshaped".to_owned(), |r| format!("{r} Mbit/s"))
    }
}

/// The fastest binary profile of one mode.
#[derive(Clone, Debug, PartialEq)]
pub struct Best {
    /// Profile id.
    pub profile: String,
    /// REQ → EOSE seconds.
    pub time_s: Interval,
    /// Its per-round ratio to json with deflate.
    pub vs_json_deflate: Option<Interval>,
}

/// REQ → EOSE on one link at one round-trip time.
#[derive(Clone, Debug, PartialEq)]
pub struct Exchange {
    /// Index into [`Links::links`].
    pub link: usize,
    /// Round-trip time, ms.
    pub rtt_ms: f64,
    /// Whether the round trip is modelled.
    pub modelled: bool,
    /// json with deflate, seconds.
    pub json_deflate_s: Interval,
    /// json uncompressed over json with deflate.
    pub json_none: Option<Interval>,
    /// json with context takeover over json with deflate.
    pub json_ctx: Option<Interval>,
    /// Per mode, the binary profile with the lowest median time.
    pub best: PerMode<Option<Best>>,
}

/// One profile's EVENT → OK.
#[derive(Clone, Debug, PartialEq)]
pub struct Published {
    /// Profile id.
    pub profile: String,
    /// Mean socket bytes of one EVENT.
    pub event_bytes: f64,
    /// Relay CPU ns per EVENT.
    pub relay_cpu_ns: f64,
    /// EVENT → OK seconds.
    pub event_ok_s: Option<Interval>,
}

/// EVENT → OK on one link and mode (measured round trip).
#[derive(Clone, Debug, PartialEq)]
pub struct Publish {
    /// Index into [`Links::links`].
    pub link: usize,
    /// Mode.
    pub mode: Mode,
    /// json.
    pub json: Published,
    /// The binary profile with the fewest EVENT bytes.
    pub smallest: Published,
}

impl Publish {
    /// The smallest EVENT in % of json's.
    pub fn bytes_pct(&self) -> f64 {
        100.0 * self.smallest.event_bytes / self.json.event_bytes
    }
}

/// Relay CPU per event of REQ → EOSE with one deflater (measured round trip).
#[derive(Clone, Debug, PartialEq)]
pub struct DeflaterCpu {
    /// Index into [`Links::links`].
    pub link: usize,
    /// [`Mode::Deflate`] or [`Mode::DeflateCtx`].
    pub mode: Mode,
    /// `zlib-1`, `zlib-rs-1`.
    pub deflater: String,
    /// json's relay CPU ns per event.
    pub json_ns: f64,
    /// The fastest binary profile with this deflater.
    pub best: Option<ProfileCpu>,
}

/// A profile and its relay CPU per event.
#[derive(Clone, Debug, PartialEq)]
pub struct ProfileCpu {
    /// Profile id.
    pub profile: String,
    /// Relay CPU ns per event.
    pub relay_cpu_ns: f64,
}

/// The links results.
#[derive(Clone, Debug, PartialEq)]
pub struct Links {
    /// Events per exchange (fewest and most over rows).
    pub events: MinMax<i64>,
    /// Events published per member and round.
    pub published: i64,
    /// Link settings, unshaped first, then by falling rate.
    pub links: Vec<Link>,
    /// The modelled round-trip times, ms, ascending.
    pub modelled_rtts: Vec<f64>,
    /// Per link, then round-trip time.
    pub exchanges: Vec<Exchange>,
    /// Per link, then mode.
    pub publish: Vec<Publish>,
    /// Per link, mode and deflater; empty with one deflater.
    pub deflaters: Vec<DeflaterCpu>,
}

/// The links results of `c`; `None` without rows.
pub fn links(c: &Campaign) -> Option<Links> {
    let binary = |p: &str| p != BASELINE && !is_json_text(c, p);
    model(&c.links, &binary)
}

/// The model of `rows`, `binary` saying which profiles are binary (not
/// NIP-01 JSON text); `None` without rows of the default deflater.
pub fn model(rows: &[LinkRow], binary: &dyn Fn(&str) -> bool) -> Option<Links> {
    let default: Vec<&LinkRow> = rows.iter().filter(|r| r.default_deflater()).collect();
    if default.is_empty() {
        return None;
    }
    let links = link_settings(&default);
    let at = |l: &Link| -> Vec<&LinkRow> {
        let mut v: Vec<&LinkRow> = default
            .iter()
            .copied()
            .filter(|r| r.link == l.name)
            .collect();
        v.sort_by(|a, b| a.rtt_ms.total_cmp(&b.rtt_ms));
        v
    };
    let mut exchanges = Vec::new();
    let mut publish = Vec::new();
    for (i, l) in links.iter().enumerate() {
        let here = at(l);
        let rtts: BTreeSet<u64> = here.iter().map(|r| r.rtt_ms.to_bits()).collect();
        let mut rtts: Vec<f64> = rtts.into_iter().map(f64::from_bits).collect();
        rtts.sort_by(f64::total_cmp);
        for rtt in rtts {
            let rows: Vec<&LinkRow> = here.iter().copied().filter(|r| r.rtt_ms == rtt).collect();
            if let Some(e) = exchange(i, &rows, binary) {
                exchanges.push(e);
            }
        }
        let measured: Vec<&LinkRow> = here.iter().copied().filter(|r| !r.modelled).collect();
        publish.extend(
            Mode::ALL
                .into_iter()
                .filter_map(|m| publish_of(i, m, &measured, binary)),
        );
    }
    let mut modelled: Vec<f64> = default
        .iter()
        .filter(|r| r.modelled)
        .map(|r| r.rtt_ms)
        .collect();
    modelled.sort_by(f64::total_cmp);
    modelled.dedup();
    Some(Links {
        events: MinMax::of(default.iter().map(|r| r.events)).unwrap_or(MinMax { min: 0, max: 0 }),
        published: default.iter().map(|r| r.published).min().unwrap_or(0),
        deflaters: deflaters(rows, &links, binary),
        links,
        modelled_rtts: modelled,
        exchanges,
        publish,
    })
}

/// The link settings of `rows`: unshaped first, then by falling rate.
fn link_settings(rows: &[&LinkRow]) -> Vec<Link> {
    let mut out: Vec<Link> = Vec::new();
    for r in rows {
        match out.iter_mut().find(|l| l.name == r.link) {
            Some(l) => l.rounds = l.rounds.min(r.rounds),
            None => out.push(Link {
                name: r.link.clone(),
                rate_mbit: r.rate_mbit,
                rounds: r.rounds,
            }),
        }
    }
    let key = |l: &Link| -l.rate_mbit.unwrap_or(f64::INFINITY);
    out.sort_by(|a, b| key(a).total_cmp(&key(b)).then(a.name.cmp(&b.name)));
    out
}

/// The row of `profile` in `mode` among `rows`.
fn find<'a>(rows: &[&'a LinkRow], profile: &str, mode: Mode) -> Option<&'a LinkRow> {
    rows.iter()
        .copied()
        .find(|r| r.profile == profile && r.mode == mode)
}

/// Among `rows` of `mode`, the binary one with the least `key` (ties by id).
fn least<'a>(
    rows: &[&'a LinkRow],
    mode: Mode,
    binary: &dyn Fn(&str) -> bool,
    key: impl Fn(&LinkRow) -> f64,
) -> Option<&'a LinkRow> {
    rows.iter()
        .copied()
        .filter(|r| r.mode == mode && binary(&r.profile) && key(r).is_finite())
        .min_by(|a, b| key(a).total_cmp(&key(b)).then(a.profile.cmp(&b.profile)))
}

fn exchange(link: usize, rows: &[&LinkRow], binary: &dyn Fn(&str) -> bool) -> Option<Exchange> {
    let json_deflate = find(rows, BASELINE, Mode::Deflate)?;
    let best = PerMode::from_fn(|m| {
        least(rows, m, binary, |r| r.req_eose_s.est).map(|r| Best {
            profile: r.profile.clone(),
            time_s: r.req_eose_s,
            vs_json_deflate: r.time_vs_json_deflate,
        })
    });
    Some(Exchange {
        link,
        rtt_ms: json_deflate.rtt_ms,
        modelled: json_deflate.modelled,
        json_deflate_s: json_deflate.req_eose_s,
        json_none: find(rows, BASELINE, Mode::None).and_then(|r| r.time_vs_json_deflate),
        json_ctx: find(rows, BASELINE, Mode::DeflateCtx).and_then(|r| r.time_vs_json_deflate),
        best,
    })
}

fn published(r: &LinkRow) -> Published {
    Published {
        profile: r.profile.clone(),
        event_bytes: r.event_c2s_bytes,
        relay_cpu_ns: r.event_relay_cpu_ns.est,
        event_ok_s: r.event_ok_s,
    }
}

fn publish_of(
    link: usize,
    mode: Mode,
    rows: &[&LinkRow],
    binary: &dyn Fn(&str) -> bool,
) -> Option<Publish> {
    let json = find(rows, BASELINE, mode)?;
    let smallest = least(rows, mode, binary, |r| r.event_c2s_bytes)?;
    Some(Publish {
        link,
        mode,
        json: published(json),
        smallest: published(smallest),
    })
}

/// Relay CPU per event with each deflater, when rows of more than one
/// exist (measured round trip only).
fn deflaters(rows: &[LinkRow], links: &[Link], binary: &dyn Fn(&str) -> bool) -> Vec<DeflaterCpu> {
    let name = |r: &LinkRow| {
        if r.default_deflater() {
            crate::read::links::DEFAULT_DEFLATER.to_owned()
        } else {
            r.deflate_impl.clone()
        }
    };
    let compressed: Vec<&LinkRow> = rows
        .iter()
        .filter(|r| r.mode != Mode::None && !r.modelled)
        .collect();
    let names: BTreeSet<String> = compressed.iter().map(|r| name(r)).collect();
    if names.len() < 2 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (i, l) in links.iter().enumerate() {
        for mode in [Mode::Deflate, Mode::DeflateCtx] {
            for d in &names {
                let here: Vec<&LinkRow> = compressed
                    .iter()
                    .copied()
                    .filter(|r| r.link == l.name && name(r) == *d)
                    .collect();
                let Some(json) = find(&here, BASELINE, mode) else {
                    continue;
                };
                out.push(DeflaterCpu {
                    link: i,
                    mode,
                    deflater: d.clone(),
                    json_ns: json.relay_cpu_ns.est,
                    best: least(&here, mode, binary, |r| r.req_eose_s.est).map(|r| ProfileCpu {
                        profile: r.profile.clone(),
                        relay_cpu_ns: r.relay_cpu_ns.est,
                    }),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::links::{test_line as line, test_rows as rows};

    fn binary(p: &str) -> bool {
        !p.starts_with("json")
    }

    /// One link at RTT 0 (and json with deflate at RTT 50).
    fn one_link(link: &str, deflater: &str, b: f64) -> Vec<String> {
        vec![
            line(("json", "none", "", link, 0.0), 0.018, Some(1.8), 800.0),
            line(("json", "deflate", deflater, link, 0.0), 0.010, None, 530.0),
            line(
                ("json", "deflate-ctx", deflater, link, 0.0),
                0.009,
                Some(0.9),
                480.0,
            ),
            // The fastest deflate row is JSON text: never the best binary.
            line(
                ("json-simd", "deflate", deflater, link, 0.0),
                0.007,
                Some(0.7),
                530.0,
            ),
            line(
                ("a", "deflate", deflater, link, 0.0),
                0.0085,
                Some(0.85),
                460.0,
            ),
            line(("b", "deflate", deflater, link, 0.0), b, Some(1.02), 450.0),
            line(("a", "none", "", link, 0.0), 0.011, Some(1.1), 520.0),
            line(("json", "deflate", deflater, link, 50.0), 0.2, None, 530.0),
        ]
    }

    #[test]
    fn the_fastest_binary_profile_and_its_ratio_are_picked() {
        let mut lines = one_link("10mbit", "zlib-1", 0.008);
        lines.extend(one_link("unshaped", "zlib-1", 0.008));
        let l = model(&rows(&lines), &binary).unwrap();
        assert_eq!(l.links[0].name, "unshaped");
        assert_eq!(l.links[1].label(), "10 Mbit/s");
        assert_eq!(l.modelled_rtts, vec![50.0]);
        assert_eq!(l.events, MinMax { min: 60, max: 60 });
        let e = l
            .exchanges
            .iter()
            .find(|e| e.link == 1 && e.rtt_ms == 0.0)
            .unwrap();
        let best = e.best.deflate.as_ref().unwrap();
        assert_eq!(best.profile, "b");
        let r = best.vs_json_deflate.unwrap();
        assert_eq!(r.est, 1.02);
        // 1.02 [1.0098, 1.0302]: above 1.
        assert_eq!(verdict(r), Verdict::Slower);
        assert_eq!(e.best.none.as_ref().unwrap().profile, "a");
        assert!(e.best.deflate_ctx.is_none());
        assert_eq!(e.json_none.map(|r| r.est), Some(1.8));
        assert_eq!(e.json_ctx.map(|r| r.est), Some(0.9));
        assert!((e.json_deflate_s.est - 0.010).abs() < 1e-12);
        // RTT 50 has json with deflate alone: no best binary.
        let m = l.exchanges.iter().find(|e| e.rtt_ms == 50.0).unwrap();
        assert!(m.modelled && m.best.iter().all(|(_, b)| b.is_none()));
        // EVENT → OK: the fewest EVENT bytes, not the fastest.
        let p = l
            .publish
            .iter()
            .find(|p| p.link == 1 && p.mode == Mode::Deflate)
            .unwrap();
        assert_eq!(p.smallest.profile, "b");
        assert!((p.bytes_pct() - 100.0 * 450.0 / 530.0).abs() < 1e-9);
        assert!(l.deflaters.is_empty());
    }

    #[test]
    fn a_second_deflater_is_a_sensitivity_only() {
        // b is the fastest with both; with zlib-rs-1 it is faster still,
        // and the default rows do not see it.
        let mut lines = one_link("10mbit", "zlib-1", 0.008);
        let other = one_link("10mbit", "zlib-rs-1", 0.006);
        lines.extend(other.into_iter().filter(|l| !l.contains(",none,")));
        let l = model(&rows(&lines), &binary).unwrap();
        let e = &l.exchanges[0];
        assert_eq!(e.best.deflate.as_ref().unwrap().time_s.est, 0.008);
        let names: Vec<(&str, &str)> = l
            .deflaters
            .iter()
            .map(|d| (d.mode.name(), d.deflater.as_str()))
            .collect();
        assert_eq!(
            names,
            [
                ("deflate", "zlib-1"),
                ("deflate", "zlib-rs-1"),
                ("deflate-ctx", "zlib-1"),
                ("deflate-ctx", "zlib-rs-1")
            ]
        );
        assert_eq!(l.deflaters[1].best.as_ref().unwrap().profile, "b");
        assert_eq!(l.deflaters[2].best, None);
    }

    #[test]
    fn verdicts_need_an_interval_without_1() {
        let r = |est, lo, hi| Interval { est, lo, hi };
        assert_eq!(verdict(r(0.9, 0.8, 0.99)), Verdict::Faster);
        assert_eq!(verdict(r(1.1, 1.01, 1.2)), Verdict::Slower);
        assert_eq!(verdict(r(0.95, 0.8, 1.0)), Verdict::Unresolved);
        assert!(model(&[], &binary).is_none());
    }
}

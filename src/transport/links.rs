//! The `links` workload: the transport loop on shaped links
//! (`docs/TRANSPORT.md`, "Links").
//!
//! The relays listen in one network namespace and the client connects from
//! another, over a veth pair shaped with `tbf` ([`netns`]). For each link
//! setting in turn, every (profile × compression) member makes one checked
//! exchange (every event, both sockets and the flate2 model agree), then
//! timed rounds in an order shuffled per round, as many as the setting's
//! time budget allows between a floor and a ceiling. After each REQ → EOSE
//! the member publishes the first events one at a time on a fresh
//! connection (EVENT → OK; the relay decodes and verifies each, and refuses
//! it as `blocked:`). A token bucket passes a message smaller than its
//! bucket at line rate, so each EVENT waits for a full bucket (untimed) and
//! its serialisation and its OK's are modelled from their bytes
//! ([`rtt::serialise_s`]). Round-trip times are modelled from the measured
//! bytes ([`rtt`]).

pub mod netns;
pub mod rtt;

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::codec::Profile;
use crate::model::Event;
use crate::rng::Gen;
use crate::transport::client::Check;
use crate::transport::count::Bytes;
use crate::transport::deflater::Deflater;
use crate::transport::measure::{self, Estimate, check_sample, estimate};
use crate::transport::relay::{Config, Relay, Shared};
use crate::transport::{Compression, TransportError};
use netns::{Pair, Shape};

/// The deflater of the sensitivity members (the default is
/// [`Deflater::Zlib`], as relays deploy it).
pub const FASTER: Deflater = Deflater::ZlibRs;

/// Why the links workload failed.
#[derive(Debug, thiserror::Error)]
pub enum LinksError {
    /// The namespaces or the shaping.
    #[error(
        "network namespaces: {0} (the links workload needs root, iproute2 and a kernel with network namespaces, veth and tbf)"
    )]
    Netns(#[from] netns::NetnsError),
    /// An exchange.
    #[error("{link}, {member}: {source}")]
    Exchange {
        /// The link setting.
        link: String,
        /// The member.
        member: String,
        /// Why.
        source: TransportError,
    },
    /// Setting up relays or the client.
    #[error(transparent)]
    Transport(#[from] TransportError),
    /// Sockets and runtimes.
    #[error("socket: {0}")]
    Io(#[from] std::io::Error),
}

/// What to measure.
pub struct Plan {
    /// Profiles (each carries every event); must include the reference.
    pub profiles: Vec<&'static Profile>,
    /// The profile ratios divide by (`json`).
    pub reference: &'static str,
    /// Compression modes, each measured for every profile.
    pub modes: Vec<Compression>,
    /// Profiles also measured with [`FASTER`] in the deflate modes; the
    /// reference among them when not empty.
    pub sensitivity: Vec<&'static str>,
    /// Link settings, measured in this order.
    pub shapes: Vec<Shape>,
    /// Round-trip times to model beside the measured one (ms, each > 0).
    pub rtts_ms: Vec<f64>,
    /// What the client does per event.
    pub check: Check,
    /// Events published (EVENT → OK) per member and round: the first ones.
    pub publish: usize,
    /// Timed rounds per link setting: at least `min_rounds`, at most
    /// `max_rounds`, as many as `budget` allows after the checked pass.
    pub min_rounds: usize,
    /// See `min_rounds`.
    pub max_rounds: usize,
    /// Time for one link setting's timed rounds.
    pub budget: Duration,
    /// Seed of the round orders and the bootstrap.
    pub seed: u64,
}

/// One (link, profile, mode, round-trip time) result.
#[derive(Clone, Debug)]
pub struct Row {
    /// Profile id.
    pub profile: &'static str,
    /// Compression mode.
    pub mode: Compression,
    /// Its deflater (`None` without compression).
    pub deflater: Option<Deflater>,
    /// The link setting.
    pub shape: Shape,
    /// Round-trip time, ms (0: none added, measured).
    pub rtt_ms: f64,
    /// Events per REQ.
    pub events: usize,
    /// Timed rounds.
    pub rounds: usize,
    /// Exchange bytes at the client's socket (read: relay → client).
    pub wire: Bytes,
    /// REQ sent → EOSE received, s (the modelled delay added for rtt > 0).
    pub req_eose_s: Estimate,
    /// Per-round time ratio to the reference in the same mode and
    /// deflater.
    pub vs_json: Option<Estimate>,
    /// Per-round time ratio to the reference with `deflate` on zlib.
    pub vs_json_deflate: Option<Estimate>,
    /// Relay thread CPU per event over rounds, ns.
    pub relay_cpu_ns: Estimate,
    /// Client thread CPU per event over rounds, ns.
    pub client_cpu_ns: Estimate,
    /// EVENT → OK.
    pub publish: PublishRow,
}

/// EVENT → OK of one (link, profile, mode, round-trip time).
#[derive(Clone, Copy, Debug)]
pub struct PublishRow {
    /// Events published per round.
    pub events: usize,
    /// Per-round mean time per event, s (the modelled delay added).
    pub secs: Estimate,
    /// Mean socket bytes per event: EVENT written, OK read.
    pub c2s_bytes: f64,
    /// See `c2s_bytes`.
    pub s2c_bytes: f64,
    /// Relay thread CPU per event over rounds, ns.
    pub relay_cpu_ns: Estimate,
    /// Client thread CPU per event over rounds, ns.
    pub client_cpu_ns: Estimate,
}

/// One link setting as run.
#[derive(Clone, Debug)]
pub struct Setting {
    /// The shaping.
    pub shape: Shape,
    /// Timed rounds.
    pub rounds: usize,
    /// Seconds of the checked pass (one exchange per member).
    pub checked_s: f64,
    /// Seconds of the timed rounds.
    pub timed_s: f64,
    /// TCP segments retransmitted in both namespaces during the setting.
    pub retransmitted: u64,
}

/// Everything one run measured.
pub struct Measured {
    /// Rows, in link then member then round-trip order.
    pub rows: Vec<Row>,
    /// The settings as run.
    pub settings: Vec<Setting>,
}

#[derive(Clone, Copy)]
struct Member {
    profile: usize,
    mode: Compression,
    deflater: Deflater,
}

/// How long an exchange of `bytes` may take on `shape`: ten times its
/// serialisation, plus 30 s.
fn deadline(bytes: u64, shape: Shape) -> Duration {
    let wire = shape.bits_per_s().map_or(0.0, |r| bytes as f64 * 8.0 / r);
    Duration::from_secs_f64(30.0 + 10.0 * wire)
}

/// Per-round samples of one member on one link.
#[derive(Default)]
struct Samples {
    secs: Vec<f64>,
    relay_cpu: Vec<f64>,
    client_cpu: Vec<f64>,
    pub_secs: Vec<f64>,
    pub_relay_cpu: Vec<f64>,
    pub_client_cpu: Vec<f64>,
}

/// Socket bytes of each published event, from the checked pass.
type Wires = Vec<Bytes>;

/// Measures `plan` over `events` (every profile must represent them all);
/// `progress(link, done, total)` after every exchange.
pub fn run(
    events: &[Event],
    plan: &Plan,
    mut progress: impl FnMut(&str, usize, usize),
) -> Result<Measured, LinksError> {
    let reference = plan
        .profiles
        .iter()
        .position(|p| p.id == plan.reference)
        .ok_or_else(|| {
            TransportError::Mismatch(format!("the plan has no `{}` profile", plan.reference))
        })?;
    let unknown: Vec<&str> = plan
        .sensitivity
        .iter()
        .copied()
        .filter(|id| !plan.profiles.iter().any(|p| p.id == *id))
        .collect();
    if !unknown.is_empty()
        || !(plan.sensitivity.is_empty() || plan.sensitivity.contains(&plan.reference))
    {
        return Err(TransportError::Mismatch(format!(
            "sensitivity profiles must be measured profiles and include `{}`; not measured: {unknown:?}",
            plan.reference
        ))
        .into());
    }
    let mut pair = Pair::create()?;
    let stores = measure::stores(&plan.profiles, events)?;
    let default = Config::benchmark().deflater;
    let faster = |p: usize| plan.sensitivity.contains(&plan.profiles[p].id);
    let mut members: Vec<Member> = Vec::new();
    for profile in 0..plan.profiles.len() {
        for &mode in &plan.modes {
            let deflater = default;
            members.push(Member {
                profile,
                mode,
                deflater,
            });
            if mode != Compression::None && faster(profile) {
                members.push(Member {
                    profile,
                    mode,
                    deflater: FASTER,
                });
            }
        }
    }
    // One relay per (profile, deflater): the deflater is relay configuration.
    let mut relays: Vec<((usize, Deflater), Relay)> = Vec::new();
    for m in &members {
        if relays.iter().any(|(k, _)| *k == (m.profile, m.deflater)) {
            continue;
        }
        let listener = netns::within(&pair.relay, || {
            std::net::TcpListener::bind((netns::RELAY_ADDR, 0))
        })??;
        let config = Config {
            deflater: m.deflater,
            ..Config::benchmark()
        };
        let shared = Arc::new(Shared::of(vec![stores[m.profile].clone()], config));
        relays.push(((m.profile, m.deflater), Relay::start_on(shared, listener)?));
    }
    let relay_of = |m: &Member| {
        &relays
            .iter()
            .find(|(k, _)| *k == (m.profile, m.deflater))
            .expect("a relay per member's profile and deflater")
            .1
    };
    let filters = [serde_json::json!({})];
    let expected = members
        .iter()
        .map(|m| measure::expect(&stores[m.profile], &filters, m.mode, m.deflater))
        .collect::<Result<Vec<_>, _>>()?;
    let label = |m: &Member| {
        let p = plan.profiles[m.profile].id;
        match m.mode {
            Compression::None => format!("{p} none"),
            mode => format!("{p} {} {}", mode.name(), m.deflater.name()),
        }
    };
    if plan.publish == 0 || plan.publish > events.len() {
        return Err(TransportError::Mismatch(format!(
            "publish {} of {} events: give 1 to {}",
            plan.publish,
            events.len(),
            events.len()
        ))
        .into());
    }
    let published = &events[..plan.publish];
    // The deadline's size: JSON and its framing, both ways.
    let publish_bytes: u64 = published
        .iter()
        .map(|e| e.to_json().len() as u64 + 200)
        .sum();
    let client = pair.client.clone();
    let mut measured = Measured {
        rows: Vec::new(),
        settings: Vec::new(),
    };
    for (s, &shape) in plan.shapes.iter().enumerate() {
        pair.shape(shape)?;
        let link = shape.name();
        // Time for the bucket to fill again after an EVENT.
        let refill = shape.bits_per_s().map_or(Duration::ZERO, |r| {
            Duration::from_secs_f64(netns::burst_bytes(r / 1e6) as f64 * 8.0 / r)
        });
        let retrans0 = pair.retransmitted(&pair.relay)? + pair.retransmitted(&client)?;
        let (samples, setting, wires) = netns::within(&client, || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?;
            let one = |m: &Member, k: usize| {
                let (hits, bytes) = &expected[k];
                let store = &stores[m.profile];
                let err = |source| LinksError::Exchange {
                    link: link.clone(),
                    member: label(m),
                    source,
                };
                let sample = measure::exchange(
                    &rt,
                    relay_of(m),
                    plan.profiles[m.profile],
                    m.mode,
                    plan.check,
                    &filters,
                    deadline(bytes.read, shape),
                )
                .map_err(err)?;
                check_sample(&sample, &store.events, hits, *bytes, &label(m)).map_err(err)?;
                let (answers, report) = measure::publish(
                    &rt,
                    relay_of(m),
                    plan.profiles[m.profile],
                    m.mode,
                    published,
                    refill,
                    deadline(publish_bytes, shape) + refill * plan.publish as u32,
                )
                .map_err(err)?;
                check_published(&answers, &report).map_err(err)?;
                Ok::<_, LinksError>((sample, answers, report))
            };
            let total_guess = members.len() * (plan.max_rounds + 1);
            let checked = Instant::now();
            let mut wires: Vec<Wires> = Vec::with_capacity(members.len());
            for (k, m) in members.iter().enumerate() {
                let (_, answers, _) = one(m, k)?;
                wires.push(answers.iter().map(|a| a.wire).collect());
                progress(&link, k + 1, total_guess);
            }
            let checked_s = checked.elapsed().as_secs_f64();
            let rounds = ((plan.budget.as_secs_f64() / checked_s.max(1e-9)) as usize)
                .clamp(plan.min_rounds, plan.max_rounds);
            let total = members.len() * (rounds + 1);
            let mut key = [0u8; 32];
            key[..8].copy_from_slice(&plan.seed.to_le_bytes());
            key[8..13].copy_from_slice(b"links");
            key[13] = s as u8;
            let mut samples: Vec<Samples> = members.iter().map(|_| Samples::default()).collect();
            let timed = Instant::now();
            for round in 0..rounds {
                let mut order: Vec<usize> = (0..members.len()).collect();
                Gen::new(key, round as u64 + 1).shuffle(&mut order);
                for (i, &k) in order.iter().enumerate() {
                    let (sample, answers, report) = one(&members[k], k)?;
                    let got: Wires = answers.iter().map(|a| a.wire).collect();
                    if got != wires[k] {
                        return Err(LinksError::Exchange {
                            link: link.clone(),
                            member: label(&members[k]),
                            source: TransportError::Mismatch(
                                "published events took other socket bytes than in the checked pass"
                                    .into(),
                            ),
                        });
                    }
                    let n = expected[k].0.len().max(1) as f64;
                    let f = &sample.fetched;
                    let s = &mut samples[k];
                    s.secs.push((f.eose - f.req_sent).as_secs_f64());
                    s.relay_cpu.push(sample.served.cpu_ns as f64 / n);
                    s.client_cpu.push(f.cpu_ns as f64 / n);
                    let p = answers.len() as f64;
                    s.pub_secs
                        .push(answers.iter().map(|a| a.secs).sum::<f64>() / p);
                    s.pub_relay_cpu.push(report.publish_cpu_ns as f64 / p);
                    s.pub_client_cpu
                        .push(answers.iter().map(|a| a.cpu_ns as f64).sum::<f64>() / p);
                    progress(&link, members.len() * (round + 1) + i + 1, total);
                }
            }
            let setting = Setting {
                shape,
                rounds,
                checked_s,
                timed_s: timed.elapsed().as_secs_f64(),
                retransmitted: 0,
            };
            Ok::<_, LinksError>((samples, setting, wires))
        })??;
        let retrans1 = pair.retransmitted(&pair.relay)? + pair.retransmitted(&client)?;
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&plan.seed.to_le_bytes());
        key[8..17].copy_from_slice(b"bootstrap");
        let mut rng = Gen::new(key, s as u64);
        let find = |profile: usize, mode: Compression, deflater: Deflater| {
            members
                .iter()
                .position(|o| o.profile == profile && o.mode == mode && o.deflater == deflater)
        };
        for rtt_ms in std::iter::once(0.0).chain(plan.rtts_ms.iter().copied()) {
            let added =
                |k: usize| rtt::added_s(expected[k].1.read, shape.bits_per_s(), rtt_ms / 1000.0);
            let times =
                |k: usize| -> Vec<f64> { samples[k].secs.iter().map(|t| t + added(k)).collect() };
            // Each EVENT as its own transfer from the initial window: a
            // client publishes now and then, and Linux restarts slow start
            // after an idle connection.
            let pub_added = |k: usize| {
                let w = &wires[k];
                let rate = shape.bits_per_s();
                w.iter()
                    .map(|b| {
                        rtt::serialise_s(b.written, rate)
                            + rtt::serialise_s(b.read, rate)
                            + rtt::added_s(b.written, rate, rtt_ms / 1000.0)
                    })
                    .sum::<f64>()
                    / w.len() as f64
            };
            for (k, m) in members.iter().enumerate() {
                let ratio = |r: Option<usize>, rng: &mut Gen| {
                    let r = r.filter(|&r| r != k)?;
                    let (a, b) = (times(k), times(r));
                    let per_round: Vec<f64> = a.iter().zip(&b).map(|(a, b)| a / b).collect();
                    Some(estimate(&per_round, rng))
                };
                let vs_json = ratio(find(reference, m.mode, m.deflater), &mut rng);
                let vs_json_deflate =
                    ratio(find(reference, Compression::Deflate, default), &mut rng);
                measured.rows.push(Row {
                    profile: plan.profiles[m.profile].id,
                    mode: m.mode,
                    deflater: (m.mode != Compression::None).then_some(m.deflater),
                    shape,
                    rtt_ms,
                    events: expected[k].0.len(),
                    rounds: setting.rounds,
                    wire: expected[k].1,
                    req_eose_s: estimate(&times(k), &mut rng),
                    vs_json,
                    vs_json_deflate,
                    relay_cpu_ns: estimate(&samples[k].relay_cpu, &mut rng),
                    client_cpu_ns: estimate(&samples[k].client_cpu, &mut rng),
                    publish: {
                        let s = &samples[k];
                        let w = &wires[k];
                        let p = w.len() as f64;
                        let secs: Vec<f64> = s.pub_secs.iter().map(|t| t + pub_added(k)).collect();
                        PublishRow {
                            events: w.len(),
                            secs: estimate(&secs, &mut rng),
                            c2s_bytes: w.iter().map(|b| b.written as f64).sum::<f64>() / p,
                            s2c_bytes: w.iter().map(|b| b.read as f64).sum::<f64>() / p,
                            relay_cpu_ns: estimate(&s.pub_relay_cpu, &mut rng),
                            client_cpu_ns: estimate(&s.pub_client_cpu, &mut rng),
                        }
                    },
                });
            }
        }
        measured.settings.push(Setting {
            retransmitted: retrans1.saturating_sub(retrans0),
            ..setting
        });
    }
    drop(relays);
    drop(pair);
    Ok(measured)
}

/// Every published event was answered with an OK refusing it as
/// `blocked:` (so it decoded and verified), and the relay counted them.
fn check_published(
    answers: &[crate::transport::client::Published],
    report: &crate::transport::relay::ConnectionReport,
) -> Result<(), TransportError> {
    if let Some((i, a)) = answers
        .iter()
        .enumerate()
        .find(|(_, a)| a.accepted || !a.message.starts_with("blocked: "))
    {
        return Err(TransportError::Mismatch(format!(
            "published event {i} was answered accepted={} \"{}\", not a `blocked:` refusal of a valid event",
            a.accepted, a.message
        )));
    }
    if report.published != answers.len() {
        return Err(TransportError::Mismatch(format!(
            "the relay answered {} EVENTs, the client sent {}",
            report.published,
            answers.len()
        )));
    }
    Ok(())
}

fn est_cells(e: Option<Estimate>, digits: usize) -> String {
    e.map(|e| format!("{:.digits$},{:.digits$},{:.digits$}", e.median, e.lo, e.hi))
        .unwrap_or_else(|| ",,".into())
}

/// `links.csv` of `rows`, header included
/// ([`binostr_records::csv::LINKS`]).
pub fn csv(rows: &[Row]) -> String {
    use std::fmt::Write as _;
    let mut s = binostr_records::csv::LINKS.header_line();
    for r in rows {
        let deflate = r.deflater.map_or("", Deflater::name);
        let rate = r
            .shape
            .bits_per_s()
            .map(|b| format!("{}", b / 1e6))
            .unwrap_or_default();
        let _ = writeln!(
            s,
            "{},{},{deflate},{},{rate},{},{},{},{},{},{},{},{},{},{},{},{},{},{:.1},{:.1},{},{}",
            r.profile,
            r.mode.name(),
            r.shape.name(),
            r.rtt_ms,
            if r.rtt_ms > 0.0 {
                "modelled"
            } else {
                "measured"
            },
            r.events,
            r.rounds,
            r.wire.read,
            r.wire.written,
            est_cells(Some(r.req_eose_s), 6),
            est_cells(r.vs_json, 4),
            est_cells(r.vs_json_deflate, 4),
            est_cells(Some(r.relay_cpu_ns), 0),
            est_cells(Some(r.client_cpu_ns), 0),
            r.publish.events,
            est_cells(Some(r.publish.secs), 6),
            r.publish.c2s_bytes,
            r.publish.s2c_bytes,
            est_cells(Some(r.publish.relay_cpu_ns), 0),
            est_cells(Some(r.publish.client_cpu_ns), 0),
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_rows_fit_the_layout() {
        let e = Estimate {
            median: 1.0,
            lo: 0.9,
            hi: 1.1,
        };
        let row = Row {
            profile: "json",
            mode: Compression::Deflate,
            deflater: Some(Deflater::Zlib),
            shape: Shape::Rate(10.0),
            rtt_ms: 50.0,
            events: 3,
            rounds: 4,
            wire: Bytes {
                read: 100,
                written: 20,
            },
            req_eose_s: e,
            vs_json: None,
            vs_json_deflate: Some(e),
            relay_cpu_ns: e,
            client_cpu_ns: e,
            publish: PublishRow {
                events: 2,
                secs: e,
                c2s_bytes: 700.5,
                s2c_bytes: 90.0,
                relay_cpu_ns: e,
                client_cpu_ns: e,
            },
        };
        let text = csv(&[row]);
        let line = text.lines().nth(1).unwrap();
        assert!(binostr_records::csv::LINKS.fits(line), "{line}");
        assert!(line.starts_with("json,deflate,zlib-1,10mbit,10,50,modelled,3,4,100,20,"));
    }

    #[test]
    fn deadlines_grow_with_serialisation() {
        assert_eq!(deadline(1 << 20, Shape::Unshaped), Duration::from_secs(30));
        let d = deadline(125_000, Shape::Rate(1.0)).as_secs_f64();
        assert!((d - 40.0).abs() < 1e-9, "{d}");
    }
}

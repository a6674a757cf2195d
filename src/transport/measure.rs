//! Every (profile × compression × check) of the transport workload, timed
//! in interleaved rounds over the same events in one process
//! (`docs/METHOD.md`): one relay per profile, the client on the calling thread,
//! one fresh connection per exchange, members shuffled per round.
//!
//! Before timing, each member's first exchange is checked: every stored
//! event arrives, decodes to the stored event, and the bytes counted at both
//! sockets equal each other and the model ([`model`]). Every timed
//! exchange must repeat the same byte counts and events.

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Duration;

use crate::codec::Profile;
use crate::model::Event;
use crate::rng::Gen;
use crate::transport::client::{self, Check, Fetched, Published};
use crate::transport::count::Bytes;
use crate::transport::deflater::Deflater;
use crate::transport::relay::{Config, ConnectionReport, Relay, Served, Store};
use crate::transport::{Compression, TransportError, model};
use crate::validate::Limits;

/// How long one loopback exchange may take before the run fails.
const DEADLINE: Duration = Duration::from_secs(120);

/// One measured combination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Member {
    /// Index into the plan's profiles.
    pub profile: usize,
    /// Compression mode.
    pub mode: Compression,
    /// What the client does per event.
    pub check: Check,
}

/// What to measure.
pub struct Plan {
    /// Wire profiles the relay serves, in plan order.
    pub profiles: Vec<&'static Profile>,
    /// Profile id the speed ratios divide by (the campaign's baseline,
    /// `bench::group::BASELINE`; passed in so that bench may call this module).
    pub reference: &'static str,
    /// WebSocket compression modes, each measured for every profile.
    pub modes: Vec<Compression>,
    /// What the client does with each received event, per combination.
    pub checks: Vec<Check>,
    /// Timed rounds.
    pub rounds: usize,
    /// Seed of the per-round orders and the bootstrap.
    pub seed: u64,
}

/// A median with its bootstrap 95 % CI (resampling rounds).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Estimate {
    /// Median over rounds.
    pub median: f64,
    /// 2.5th percentile of the bootstrap medians.
    pub lo: f64,
    /// 97.5th percentile of the bootstrap medians.
    pub hi: f64,
}

/// The result of one member.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Row {
    /// Profile id.
    pub profile: &'static str,
    /// Compression mode name.
    pub mode: &'static str,
    /// Check name.
    pub check: &'static str,
    /// Events per exchange.
    pub events: usize,
    /// Exchange bytes counted at the client's socket (read = relay →
    /// client, written = client → relay), handshake excluded.
    pub wire: Bytes,
    /// Handshake bytes at the client's socket.
    pub handshake: Bytes,
    /// The flate2 model of `wire` (equal, or the run fails).
    pub model: Bytes,
    /// Events per second, REQ sent to EOSE received.
    pub events_per_s: Estimate,
    /// Per-round events/s ratio to the reference profile in the same mode
    /// and check (`None` for the reference itself or without one).
    pub speed_vs_reference: Option<Estimate>,
    /// Median send → receive time per event (relay takes the event to
    /// send → client has the whole message), ns. The relay streams the
    /// whole answer unpaced, so this is mostly waiting behind earlier events
    /// of the same REQ, not an unloaded delivery latency (docs/TRANSPORT.md,
    /// "What the latency columns measure").
    pub latency_p50_ns: u64,
    /// 99th percentile of the same send → receive time, ns.
    pub latency_p99_ns: u64,
    /// Relay CPU per event, median over rounds, ns.
    pub relay_cpu_ns: f64,
    /// Client CPU per event, median over rounds, ns.
    pub client_cpu_ns: f64,
}

/// One exchange as both ends saw it.
pub struct Sample {
    /// The client's side.
    pub fetched: Fetched,
    /// The relay's side.
    pub served: Served,
}

/// One fresh connection's REQ → EOSE with `relay`, both ends' views;
/// fails when the client has not seen EOSE within `deadline` (`rt` needs
/// its time driver).
pub fn exchange(
    rt: &tokio::runtime::Runtime,
    relay: &Relay,
    profile: &Profile,
    mode: Compression,
    check: Check,
    filters: &[serde_json::Value],
    deadline: Duration,
) -> Result<Sample, TransportError> {
    let limits = Limits::default();
    let fetch = client::fetch(relay.addr, profile, mode, check, filters, &limits);
    let fetched = rt
        .block_on(async { tokio::time::timeout(deadline, fetch).await })
        .map_err(|_| {
            TransportError::Mismatch(format!(
                "no EOSE within {} s of connecting",
                deadline.as_secs_f64()
            ))
        })??;
    let served = relay
        .served
        .recv_timeout(Duration::from_secs(60))
        .map_err(|e| TransportError::Mismatch(format!("relay did not report its REQ: {e}")))?;
    closed_by_client(relay)?;
    Ok(Sample { fetched, served })
}

/// One fresh connection publishing `events` in turn, each EVENT → OK after
/// `pause` (untimed); the client's views and the relay's report of the
/// connection. Fails when it takes longer than `deadline` or the connection
/// ends otherwise than by the client's close.
pub fn publish(
    rt: &tokio::runtime::Runtime,
    relay: &Relay,
    profile: &Profile,
    mode: Compression,
    events: &[Event],
    pause: Duration,
    deadline: Duration,
) -> Result<(Vec<Published>, ConnectionReport), TransportError> {
    let run = async {
        let mut conn = client::connect(relay.addr, mode).await?;
        let mut published = Vec::with_capacity(events.len());
        for event in events {
            tokio::time::sleep(pause).await;
            published.push(conn.publish(profile, event).await?);
        }
        conn.close().await?;
        Ok::<_, TransportError>(published)
    };
    let published = rt
        .block_on(async { tokio::time::timeout(deadline, run).await })
        .map_err(|_| {
            TransportError::Mismatch(format!(
                "{} EVENT → OK took over {} s",
                events.len(),
                deadline.as_secs_f64()
            ))
        })??;
    let report = closed_by_client(relay)?;
    Ok((published, report))
}

/// The relay's report of a connection the client closed.
fn closed_by_client(relay: &Relay) -> Result<ConnectionReport, TransportError> {
    match relay.closed.recv_timeout(Duration::from_secs(60)) {
        Ok(r) if r.end == crate::transport::relay::End::ClientClosed => Ok(r),
        Ok(r) => Err(TransportError::Mismatch(format!(
            "the relay saw the connection end {:?}: {}",
            r.end,
            r.error.unwrap_or_default()
        ))),
        Err(e) => Err(TransportError::Mismatch(format!(
            "relay did not report the connection: {e}"
        ))),
    }
}

/// Checks one exchange of a REQ whose stored hits are `hits`: every event
/// arrived and equals the stored one, the client socket counted `expected`
/// bytes for the exchange, and both sockets agree at EOSE.
pub fn check_sample(
    s: &Sample,
    events: &[Event],
    hits: &[usize],
    expected: Bytes,
    what: &str,
) -> Result<(), TransportError> {
    let f = &s.fetched;
    if f.events.len() != hits.len() || s.served.sent.len() != hits.len() {
        return Err(TransportError::Mismatch(format!(
            "{what}: {} events received, {} sent, {} stored",
            f.events.len(),
            s.served.sent.len(),
            hits.len()
        )));
    }
    if let Some(i) = (0..hits.len()).find(|&i| f.events[i] != events[hits[i]]) {
        return Err(TransportError::Mismatch(format!(
            "{what}: received event {i} differs from stored event {}",
            hits[i]
        )));
    }
    let wire = f.wire();
    if wire != expected {
        return Err(TransportError::Mismatch(format!(
            "{what}: client socket counted {wire:?} after the handshake, model {expected:?}"
        )));
    }
    if s.served.at_eose.written != f.at_eose.read || s.served.at_eose.read != f.at_eose.written {
        return Err(TransportError::Mismatch(format!(
            "{what}: relay socket {:?} vs client socket {:?} at EOSE",
            s.served.at_eose, f.at_eose
        )));
    }
    Ok(())
}

/// Median of `xs` (NaN when empty); sorts `xs`.
pub fn median(xs: &mut [f64]) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n == 0 {
        return f64::NAN;
    }
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

/// Median of `xs` with a seeded bootstrap 95 % CI (2000 resamples).
pub fn estimate(xs: &[f64], rng: &mut Gen) -> Estimate {
    const RESAMPLES: usize = 2000;
    let mut meds: Vec<f64> = (0..RESAMPLES)
        .map(|_| {
            let mut r: Vec<f64> = (0..xs.len()).map(|_| xs[rng.below(xs.len())]).collect();
            median(&mut r)
        })
        .collect();
    meds.sort_by(f64::total_cmp);
    let at = |q: f64| meds[((RESAMPLES - 1) as f64 * q).round() as usize];
    Estimate {
        median: median(&mut xs.to_vec()),
        lo: at(0.025),
        hi: at(0.975),
    }
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// One store per profile over `events`, newest first.
pub fn stores(
    profiles: &[&'static Profile],
    events: &[Event],
) -> Result<Vec<Arc<Store>>, TransportError> {
    let sorted = crate::transport::relay::newest_first(events);
    profiles
        .iter()
        .map(|p| Store::over(p, sorted.clone()).map(Arc::new))
        .collect()
}

/// The stored events `filters` returns from `store` and the model's bytes
/// of that exchange in `mode`, the relay compressing with `deflater`: what
/// every checked exchange must see.
pub fn expect(
    store: &Store,
    filters: &[serde_json::Value],
    mode: Compression,
    deflater: Deflater,
) -> Result<(Vec<usize>, Bytes), TransportError> {
    let hits = store
        .matching(filters)
        .map_err(|why| TransportError::Protocol(format!("benchmark REQ refused: {why}")))?;
    let bytes = model::exchange(store, &hits, filters, mode, deflater)?;
    Ok((hits, bytes))
}

/// Measures `plan` over `events`; `progress(done, total)` after every
/// exchange.
pub fn run(
    events: &[Event],
    plan: &Plan,
    mut progress: impl FnMut(usize, usize),
) -> Result<Vec<Row>, TransportError> {
    let filters = [serde_json::json!({})];
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let stores = stores(&plan.profiles, events)?;
    // `Relay::spawn`'s relays compress as `Config::benchmark` says.
    let deflater = Config::benchmark().deflater;
    let relays: Vec<Relay> = stores
        .iter()
        .map(|s| Relay::spawn(s.clone()))
        .collect::<Result<_, _>>()?;
    let mut members = Vec::new();
    for profile in 0..plan.profiles.len() {
        for &mode in &plan.modes {
            for &check in &plan.checks {
                members.push(Member {
                    profile,
                    mode,
                    check,
                });
            }
        }
    }
    let total = members.len() * (plan.rounds + 1);
    let mut done = 0;
    let label = |m: &Member| {
        format!(
            "{} {} {}",
            plan.profiles[m.profile].id,
            m.mode.name(),
            m.check.name()
        )
    };

    // Warm-up and correctness: model, both sockets, every event.
    let mut expected = Vec::new();
    let mut first = Vec::new();
    for m in &members {
        let store = &stores[m.profile];
        let (hits, model) = expect(store, &filters, m.mode, deflater)?;
        let s = exchange(
            &rt,
            &relays[m.profile],
            plan.profiles[m.profile],
            m.mode,
            m.check,
            &filters,
            DEADLINE,
        )?;
        check_sample(&s, &store.events, &hits, model, &label(m))?;
        expected.push((hits, model));
        first.push((
            s.fetched.handshake,
            s.fetched.at_eose.since(s.fetched.handshake),
        ));
        done += 1;
        progress(done, total);
    }

    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&plan.seed.to_le_bytes());
    key[8..17].copy_from_slice(b"transport");
    let mut rates = vec![Vec::new(); members.len()];
    let mut latencies = vec![Vec::new(); members.len()];
    let mut relay_cpu = vec![Vec::new(); members.len()];
    let mut client_cpu = vec![Vec::new(); members.len()];
    for round in 0..plan.rounds {
        let mut order: Vec<usize> = (0..members.len()).collect();
        Gen::new(key, round as u64 + 1).shuffle(&mut order);
        for &k in &order {
            let m = &members[k];
            let s = exchange(
                &rt,
                &relays[m.profile],
                plan.profiles[m.profile],
                m.mode,
                m.check,
                &filters,
                DEADLINE,
            )?;
            let (hits, model) = &expected[k];
            check_sample(&s, &stores[m.profile].events, hits, *model, &label(m))?;
            let n = hits.len().max(1) as f64;
            let secs = (s.fetched.eose - s.fetched.req_sent).as_secs_f64();
            rates[k].push(hits.len() as f64 / secs);
            relay_cpu[k].push(s.served.cpu_ns as f64 / n);
            client_cpu[k].push(s.fetched.cpu_ns as f64 / n);
            latencies[k].extend(
                s.served
                    .sent
                    .iter()
                    .zip(&s.fetched.received)
                    .map(|(a, b)| b.saturating_duration_since(*a).as_nanos() as u64),
            );
            done += 1;
            progress(done, total);
        }
    }

    let reference = plan.profiles.iter().position(|p| p.id == plan.reference);
    let mut rng = Gen::new(key, 0);
    let mut rows = Vec::new();
    for (k, m) in members.iter().enumerate() {
        let ref_k = reference.filter(|&r| r != m.profile).and_then(|r| {
            members
                .iter()
                .position(|o| o.profile == r && o.mode == m.mode && o.check == m.check)
        });
        let speed_vs_reference = ref_k.map(|r| {
            let ratios: Vec<f64> = rates[k].iter().zip(&rates[r]).map(|(a, b)| a / b).collect();
            estimate(&ratios, &mut rng)
        });
        latencies[k].sort_unstable();
        let (hits, model) = &expected[k];
        rows.push(Row {
            profile: plan.profiles[m.profile].id,
            mode: m.mode.name(),
            check: m.check.name(),
            events: hits.len(),
            wire: first[k].1,
            handshake: first[k].0,
            model: *model,
            events_per_s: estimate(&rates[k], &mut rng),
            speed_vs_reference,
            latency_p50_ns: percentile(&latencies[k], 0.5),
            latency_p99_ns: percentile(&latencies[k], 0.99),
            relay_cpu_ns: median(&mut relay_cpu[k]),
            client_cpu_ns: median(&mut client_cpu[k]),
        });
    }
    Ok(rows)
}

/// `transport.csv` of `rows`, header included (its columns:
/// [`binostr_records::csv::TRANSPORT`], written by `binostr transport` and
/// by each campaign run).
pub fn csv(rows: &[Row]) -> String {
    let mut s = binostr_records::csv::TRANSPORT.header_line();
    for r in rows {
        let n = r.events as f64;
        let (v, lo, hi) = r
            .speed_vs_reference
            .map(|e| {
                (
                    format!("{:.4}", e.median),
                    format!("{:.4}", e.lo),
                    format!("{:.4}", e.hi),
                )
            })
            .unwrap_or_default();
        let _ = writeln!(
            s,
            "{},{},{},{},{:.2},{:.4},{},{},{},{},{},{},{:.0},{:.0},{:.0},{v},{lo},{hi},{},{},{:.0},{:.0}",
            r.profile,
            r.mode,
            r.check,
            r.events,
            r.wire.read as f64 / n,
            r.wire.written as f64 / n,
            r.wire.read,
            r.wire.written,
            r.handshake.read,
            r.handshake.written,
            r.model.read,
            r.model.written,
            r.events_per_s.median,
            r.events_per_s.lo,
            r.events_per_s.hi,
            r.latency_p50_ns,
            r.latency_p99_ns,
            r.relay_cpu_ns,
            r.client_cpu_ns,
        );
    }
    s
}

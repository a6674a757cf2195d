//! What the transport workload's "latency" is made of (`docs/TRANSPORT.md`,
//! "What the latency columns measure").
//!
//! ```sh
//! cargo run --release --example transport_queueing -- [EVENTS] [ROUNDS] [PROFILE...]
//! ```
//!
//! Over EVENTS generated events (default 600, the campaigns' `mix` count),
//! for each PROFILE (default `json avro`), mode (`none`, `deflate`,
//! `deflate-ctx`) and check (`decode`, `validate`), ROUNDS (default 5)
//! exchanges of every stored event, each on a fresh connection, exactly as
//! `transport::measure` makes them, and prints per member:
//!
//! - `client us`: µs per event at the client, (EOSE received − REQ sent) /
//!   events, median over rounds (the inverse of `transport.csv`'s events/s);
//! - `relay us`: µs per event at the relay, (last event's send − first
//!   event's send) / (events − 1), median over rounds;
//! - `p50 us`: the median over every event of client receive − relay send,
//!   the figure `transport.csv` reports as `latency_p50_ns`;
//! - `queue us`: what a pure queue predicts for that median: the event in
//!   the middle of the answer waits for the client to work through the
//!   events before it, as much longer than the relay took to send them,
//!   (events / 2) × max(0, `client us` − `relay us`);
//! - `ahead`: how many earlier events of the same REQ the relay had sent
//!   and the client had not yet received when the relay sent each event,
//!   median over every event (the queue in the socket buffers and the
//!   client's reader);
//! - `one us`: the latency of a REQ asking for one event by id, ROUNDS × 20
//!   such REQs on one kept connection, median (an unloaded delivery
//!   latency).

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use binostr::codec::Profile;
use binostr::transport::Compression;
use binostr::transport::client::{self, Check};
use binostr::transport::relay::{Relay, Served, Store, newest_first};
use binostr::validate::Limits;

fn median(xs: &mut [f64]) -> f64 {
    xs.sort_by(f64::total_cmp);
    match xs.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => xs[n / 2],
        n => (xs[n / 2 - 1] + xs[n / 2]) / 2.0,
    }
}

fn micros(a: Instant, b: Instant) -> f64 {
    b.saturating_duration_since(a).as_secs_f64() * 1e6
}

fn served(relay: &Relay) -> Result<Served> {
    let s = relay
        .served
        .recv_timeout(Duration::from_secs(60))
        .context("relay did not report its REQ")?;
    relay
        .closed
        .recv_timeout(Duration::from_secs(60))
        .context("relay did not report the connection")?;
    Ok(s)
}

/// Per event of one exchange, how many earlier events were sent but not
/// yet received when it was sent.
fn ahead(sent: &[Instant], received: &[Instant]) -> Vec<f64> {
    let mut arrived = 0;
    sent.iter()
        .enumerate()
        .map(|(i, &s)| {
            while arrived < i && received[arrived] <= s {
                arrived += 1;
            }
            (i - arrived) as f64
        })
        .collect()
}

struct Line {
    client: Vec<f64>,
    relay: Vec<f64>,
    all: Vec<f64>,
    ahead: Vec<f64>,
    one: Vec<f64>,
}

fn member(
    rt: &tokio::runtime::Runtime,
    relay: &Relay,
    store: &Store,
    profile: &'static Profile,
    mode: Compression,
    check: Check,
    rounds: usize,
) -> Result<Line> {
    let limits = Limits::default();
    let all = [serde_json::json!({})];
    let mut line = Line {
        client: Vec::new(),
        relay: Vec::new(),
        all: Vec::new(),
        ahead: Vec::new(),
        one: Vec::new(),
    };
    // One warm-up exchange, then the timed rounds.
    for round in 0..=rounds {
        let f = rt.block_on(client::fetch(
            relay.addr, profile, mode, check, &all, &limits,
        ))?;
        let s = served(relay)?;
        if f.events.len() != store.events.len() || s.sent.len() != f.received.len() {
            bail!("{} {}: events lost", profile.id, mode.name());
        }
        if round == 0 {
            continue;
        }
        let n = s.sent.len();
        line.client.push(micros(f.req_sent, f.eose) / n as f64);
        line.relay
            .push(micros(s.sent[0], s.sent[n - 1]) / (n.max(2) - 1) as f64);
        line.all
            .extend(s.sent.iter().zip(&f.received).map(|(&a, &b)| micros(a, b)));
        line.ahead.extend(ahead(&s.sent, &f.received));
    }
    // One event per REQ, on one kept connection.
    let mut conn = rt.block_on(client::connect(relay.addr, mode))?;
    for k in 0..rounds * 20 {
        let e = &store.events[(k * 7919) % store.events.len()];
        let id: String = e.id.iter().map(|b| format!("{b:02x}")).collect();
        let filter = [serde_json::json!({ "ids": [id] })];
        let f = rt.block_on(conn.exchange(profile, check, &filter, &limits))?;
        let s = relay
            .served
            .recv_timeout(Duration::from_secs(60))
            .context("relay did not report its REQ")?;
        if f.received.len() != 1 || s.sent.len() != 1 {
            bail!(
                "{} {}: one-event REQ got {}",
                profile.id,
                mode.name(),
                f.received.len()
            );
        }
        line.one.push(micros(s.sent[0], f.received[0]));
    }
    rt.block_on(conn.close())?;
    relay
        .closed
        .recv_timeout(Duration::from_secs(60))
        .context("relay did not report the connection")?;
    Ok(line)
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let events: usize = args.first().map_or(Ok(600), |a| a.parse())?;
    let rounds: usize = args.get(1).map_or(Ok(5), |a| a.parse())?;
    let ids: Vec<&str> = if args.len() > 2 {
        args[2..].iter().map(String::as_str).collect()
    } else {
        vec!["json", "avro"]
    };
    let evs = binostr::corpus::generate::generate(1, events);
    let sorted = newest_first(&evs);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()?;
    println!(
        "{events} generated events, {rounds} rounds; times in µs, medians\n\
         {:<10} {:<12} {:<9} {:>9} {:>8} {:>9} {:>9} {:>6} {:>7}",
        "profile",
        "mode",
        "check",
        "client us",
        "relay us",
        "p50 us",
        "queue us",
        "ahead",
        "one us"
    );
    for id in ids {
        let profile =
            binostr::profiles::find(id).with_context(|| format!("unknown profile {id}"))?;
        let store = Arc::new(Store::over(profile, sorted.clone())?);
        let relay = Relay::spawn(store.clone())?;
        for mode in Compression::ALL {
            for check in Check::ALL {
                let mut l = member(&rt, &relay, &store, profile, mode, check, rounds)?;
                let (client, relay_us) = (median(&mut l.client), median(&mut l.relay));
                println!(
                    "{:<10} {:<12} {:<9} {:>9.1} {:>8.1} {:>9.0} {:>9.0} {:>6.0} {:>7.1}",
                    id,
                    mode.name(),
                    check.name(),
                    client,
                    relay_us,
                    median(&mut l.all),
                    sorted.len() as f64 / 2.0 * (client - relay_us).max(0.0),
                    median(&mut l.ahead),
                    median(&mut l.one),
                );
            }
        }
    }
    Ok(())
}

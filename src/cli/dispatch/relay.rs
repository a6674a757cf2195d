//! `binostr relay`: the relay alone, for any NIP-01 client.

use std::io::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use anyhow::{Context, Result, bail};

use super::transport::{load, profile};
use crate::cli::args::{EventsArgs, RelayLimitArgs};
use crate::codec::Profile;
use crate::model::Event;
use crate::transport::deflate;
use crate::transport::relay::{self, Config, Hooks, Shared};

/// Descriptors kept back from the connection limit (listener, stdio,
/// refusals in flight, the runtime's own).
const RESERVED_FDS: u64 = 128;

/// Lines to stdout from a thread of their own, through a bounded queue: a
/// reader that stops reading stdout costs dropped lines (counted in a
/// `{"dropped_lines":N}` line), never a stalled relay.
struct LineSink {
    tx: std::sync::mpsc::SyncSender<String>,
    dropped: Arc<AtomicU64>,
}

impl LineSink {
    fn stdout(capacity: usize) -> Self {
        let (tx, rx) = std::sync::mpsc::sync_channel::<String>(capacity);
        let dropped = Arc::new(AtomicU64::new(0));
        let seen = dropped.clone();
        std::thread::spawn(move || {
            let mut out = std::io::stdout().lock();
            let mut reported = 0;
            while let Ok(line) = rx.recv() {
                let mut ok = writeln!(out, "{line}").is_ok();
                while let Ok(line) = rx.try_recv() {
                    ok &= writeln!(out, "{line}").is_ok();
                }
                let d = seen.load(Ordering::Relaxed);
                if d > reported {
                    ok &= writeln!(out, "{}", serde_json::json!({ "dropped_lines": d })).is_ok();
                    reported = d;
                }
                if !(ok && out.flush().is_ok()) {
                    return; // stdout is gone; the relay goes on
                }
            }
        });
        Self { tx, dropped }
    }

    fn send(&self, line: String) {
        if self.tx.try_send(line).is_err() {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// The profiles asked for; `all` is json and every enabled profile that
/// represents every event. A named profile that cannot represent them all
/// is refused, naming the event.
fn profiles(ids: &[String], events: &[Event]) -> Result<Vec<&'static Profile>> {
    if ids.iter().any(|i| i == "all") {
        let enabled: Vec<_> = crate::profiles::PROFILES
            .iter()
            .filter(|p| p.enabled)
            .collect();
        let split = crate::bench::fixture::split_profiles(&enabled, events)?;
        for (p, refused) in &split.apart {
            eprintln!(
                "relay: {} not served: it cannot represent {} of {} events (first: {})",
                p.id,
                refused.len(),
                events.len(),
                refused[0].1
            );
        }
        let mut whole = split.whole;
        whole.sort_by_key(|p| p.id != crate::bench::fixture::BASELINE);
        return Ok(whole);
    }
    let chosen: Vec<_> = ids.iter().map(|id| profile(id)).collect::<Result<_>>()?;
    let split = crate::bench::fixture::split_profiles(&chosen, events)?;
    if let Some((p, refused)) = split.apart.first() {
        bail!(
            "{} cannot represent {} of the {} events (first: {}); serve it on events it represents, or leave it out",
            p.id,
            refused.len(),
            events.len(),
            refused[0].1
        );
    }
    Ok(chosen)
}

/// Connections the kernel queues before `accept` (the default of 128 drops
/// SYNs in bursts while the relay is busy).
const BACKLOG: u32 = 1024;

async fn bind(listen: &str) -> std::io::Result<tokio::net::TcpListener> {
    let addr = tokio::net::lookup_host(listen)
        .await?
        .next()
        .ok_or_else(|| std::io::Error::other("the address resolves to nothing"))?;
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(BACKLOG)
}

pub(super) fn run_relay(
    listen: &str,
    ids: &[String],
    events: &EventsArgs,
    seed: u64,
    limits: &RelayLimitArgs,
) -> Result<()> {
    let events = load(events, seed)?;
    let profiles = profiles(ids, &events)?;
    if profiles.is_empty() {
        bail!("no profile to serve");
    }
    let nofile = rlimit::increase_nofile_limit(u64::MAX).unwrap_or(1024);
    // One connection at least, even when the limit leaves none spare.
    let fit = usize::try_from(nofile.saturating_sub(RESERVED_FDS))
        .unwrap_or(usize::MAX)
        .max(1);
    if limits.max_connections > fit {
        eprintln!(
            "relay: --max-connections {} lowered to {fit}: the open-file limit is {nofile}",
            limits.max_connections
        );
    }
    let ms = Duration::from_millis;
    let config = Config {
        max_connections: limits.max_connections.clamp(1, fit),
        handshake_timeout: ms(limits.handshake_timeout_ms),
        idle_timeout: ms(limits.idle_timeout_ms.max(2)),
        max_message: limits.max_message,
        max_filters: limits.max_filters,
        max_subscriptions: limits.max_subscriptions,
        max_limit: limits.max_limit,
        max_events: limits.max_events,
        req_budget: Some(ms(limits.req_budget_ms)),
        send_buffer: (limits.send_buffer > 0).then_some(limits.send_buffer),
        deflater: crate::transport::deflater::Deflater::Zlib,
    };
    let max_connections = config.max_connections;
    let shared = Arc::new(Shared::new(&profiles, &events, config)?);
    let sink = LineSink::stdout(4096);
    let hooks = Hooks {
        served: None,
        closed: Arc::new(move |r| {
            sink.send(serde_json::to_string(&r).expect("a plain struct serialises"));
        }),
        log: Arc::new(|line| eprintln!("relay: {line}")),
    };
    let ids: Vec<&str> = profiles.iter().map(|p| p.id).collect();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let listener = bind(listen)
            .await
            .with_context(|| format!("listening on {listen}"))?;
        eprintln!(
            "relay: {} events, profiles {} (default {}), up to {max_connections} connections, on ws://{} (permessage-deflate accepted as offered, {}-bit window; NIP-11 on Accept: application/nostr+json)",
            events.len(),
            ids.join(","),
            ids[0],
            listener.local_addr()?,
            deflate::WINDOW_BITS,
        );
        relay::accept_loop(listener, shared, hooks, std::future::pending()).await;
        Ok(())
    })
}

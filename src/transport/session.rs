//! One relay and one open connection to it, for the campaign's
//! `transport-*` workloads (`crate::bench::workload`): every exchange is a
//! REQ → EOSE over the same connection.
//!
//! [`Session::open`] connects and runs the first exchange, checked in full
//! ([`measure::check_sample`]: every event equal to the stored one, bytes at
//! both sockets equal to the flate2 model of a fresh connection). Later
//! exchanges ([`Session::exchange`]) check the event counts: with context
//! takeover their bytes differ from the first exchange's by design.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::transport::client::{self, Check, Connection};
use crate::transport::count::Bytes;
use crate::transport::measure::{self, Sample};
use crate::transport::relay::{Relay, Served, Store};
use crate::transport::{Compression, TransportError, model};
use crate::validate::Limits;

/// What the first exchange of a session measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct First {
    /// Handshake bytes at the client's socket.
    pub handshake: Bytes,
    /// Exchange bytes at the client's socket, equal to the model.
    pub wire: Bytes,
}

/// A relay thread serving one store, and one client connection to it.
pub struct Session {
    // Dropped in this order: the connection (closed in `Drop`), the client
    // runtime, then the relay (its thread stops and is joined).
    conn: Option<Connection>,
    rt: tokio::runtime::Runtime,
    relay: Relay,
    store: Arc<Store>,
    filters: [serde_json::Value; 1],
    limits: Limits,
    /// The first exchange, made and checked in full when the session opened.
    pub first: First,
}

fn served(relay: &Relay) -> Result<Served, TransportError> {
    relay
        .served
        .recv_timeout(Duration::from_secs(60))
        .map_err(|e| TransportError::Mismatch(format!("relay did not report its REQ: {e}")))
}

impl Session {
    /// Starts a relay for `store`, connects with `mode` and runs the first
    /// exchange (`["REQ",SUB,{}]`: every stored event), checked in full.
    pub fn open(
        store: Arc<Store>,
        mode: Compression,
        limits: Limits,
    ) -> Result<Session, TransportError> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .build()?;
        let relay = Relay::spawn(store.clone())?;
        let filters = [serde_json::json!({})];
        let mut conn = rt.block_on(client::connect(relay.addr, mode))?;
        let hits: Vec<usize> = (0..store.events.len()).collect();
        // `Relay::spawn`'s relay compresses as `Config::benchmark` says.
        let deflater = crate::transport::relay::Config::benchmark().deflater;
        let expected = model::exchange(&store, &hits, &filters, mode, deflater)?;
        let fetched =
            rt.block_on(conn.exchange(store.profile, Check::Decode, &filters, &limits))?;
        let sample = Sample {
            fetched,
            served: served(&relay)?,
        };
        let what = format!("{} {} first exchange", store.profile.id, mode.name());
        measure::check_sample(&sample, &store.events, &hits, expected, &what)?;
        let first = First {
            handshake: sample.fetched.handshake,
            wire: sample.fetched.wire(),
        };
        Ok(Session {
            conn: Some(conn),
            rt,
            relay,
            store,
            filters,
            limits,
            first,
        })
    }

    /// Events per exchange.
    pub fn events(&self) -> usize {
        self.store.events.len()
    }

    /// One more exchange on the open connection; returns its wall time
    /// (REQ handed to the socket up to every event decoded and EOSE
    /// received) and its bytes at the client's socket. Refuses an exchange
    /// that did not deliver every stored event.
    pub fn exchange(&mut self) -> Result<(Duration, Bytes), TransportError> {
        let conn = self.conn.as_mut().expect("open until dropped");
        let start = Instant::now();
        let fetched = self.rt.block_on(conn.exchange(
            self.store.profile,
            Check::Decode,
            &self.filters,
            &self.limits,
        ))?;
        let t = start.elapsed();
        let sent = served(&self.relay)?.sent.len();
        let n = self.store.events.len();
        if fetched.events.len() != n || sent != n {
            return Err(TransportError::Mismatch(format!(
                "{} {}: {} events received, {sent} sent, {n} stored",
                self.store.profile.id,
                conn.mode.name(),
                fetched.events.len()
            )));
        }
        std::hint::black_box(&fetched.events);
        Ok((t, fetched.wire()))
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Some(conn) = self.conn.take() {
            let _ = self.rt.block_on(conn.close());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::deflater::Deflater;

    #[test]
    fn kept_context_shrinks_later_exchanges_only() {
        let events = crate::corpus::generate::generate(9, 30);
        let json = crate::profiles::find("json").unwrap();
        let store = Arc::new(Store::new(json, &events).unwrap());
        for mode in Compression::ALL {
            let mut s = Session::open(store.clone(), mode, Limits::default()).unwrap();
            assert_eq!(s.events(), 30);
            let first = s.first.wire;
            let hits: Vec<usize> = (0..30).collect();
            let filters = [serde_json::json!({})];
            let model = model::exchange(&store, &hits, &filters, mode, Deflater::Zlib).unwrap();
            assert_eq!(first, model, "{mode:?}");
            for _ in 0..2 {
                let (t, wire) = s.exchange().unwrap();
                assert!(t > Duration::ZERO);
                if mode.takeover() {
                    assert!(wire.read < first.read, "{mode:?}: {wire:?} vs {first:?}");
                } else {
                    assert_eq!(wire, first, "{mode:?}");
                }
            }
        }
    }
}

//! The relay: one profile's stored records served over WebSocket.
//!
//! Each connection handles any number of `REQ` (open or replace a
//! subscription: every matching stored event, then `EOSE`) and `CLOSE`.
//! permessage-deflate is accepted as the client offers it, with or without
//! context takeover. When a connection closes, its byte counts at the
//! socket (handshake included) are reported.

use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Instant;

use soketto::Data;
use soketto::handshake::server::Response;
use tokio::net::{TcpListener, TcpStream};
use tokio_util::compat::TokioAsyncReadCompatExt;

use crate::codec::Profile;
use crate::filter::Filter;
use crate::model::Event;
use crate::transport::count::{Bytes, Counted};
use crate::transport::deflate::{self, Agreed, PerMessageDeflate};
use crate::transport::envelope::{self, Framing, FromClient};
use crate::transport::{MAX_MESSAGE, TransportError, cpu};

/// One profile's encoded records of a set of events.
pub struct Store {
    /// The profile.
    pub profile: &'static Profile,
    /// How its messages travel.
    pub framing: Framing,
    /// One record per stored event, in input order.
    pub records: Vec<Vec<u8>>,
    /// The stored events, which REQ filters are matched against.
    pub events: Vec<Event>,
}

impl Store {
    /// Encodes every event; refuses the set if one is not representable.
    pub fn new(profile: &'static Profile, events: &[Event]) -> Result<Self, TransportError> {
        let records = events
            .iter()
            .enumerate()
            .map(|(index, e)| {
                let mut r = Vec::new();
                profile
                    .codec
                    .encode(e, &mut r)
                    .map_err(|source| TransportError::Encode { index, source })?;
                Ok(r)
            })
            .collect::<Result<_, TransportError>>()?;
        Ok(Self {
            profile,
            framing: Framing::of(profile),
            records,
            events: events.to_vec(),
        })
    }

    /// Indices of the stored events a REQ with `filters` returns, in stored
    /// order: those matching any filter (NIP-01, [`crate::filter`]). A
    /// filter's `limit` keeps its newest matches (created_at descending, then
    /// id ascending). A filter that does not parse refuses the REQ.
    pub fn matching(&self, filters: &[serde_json::Value]) -> Result<Vec<usize>, String> {
        let mut hit = vec![false; self.events.len()];
        for (n, value) in filters.iter().enumerate() {
            let f = Filter::from_json(value).map_err(|e| format!("filter {n}: {e}"))?;
            let mut found: Vec<usize> = (0..self.events.len())
                .filter(|&i| f.matches_on(&self.events[i]))
                .collect();
            if let Some(limit) = f.limit {
                found.sort_by(|&a, &b| {
                    let (a, b) = (&self.events[a], &self.events[b]);
                    b.created_at.cmp(&a.created_at).then(a.id.cmp(&b.id))
                });
                found.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
            }
            for i in found {
                hit[i] = true;
            }
        }
        Ok((0..hit.len()).filter(|&i| hit[i]).collect())
    }
}

/// One REQ answered, as the relay saw it.
#[derive(Debug)]
pub struct Served {
    /// Subscription id.
    pub sub: String,
    /// When each EVENT was handed to the socket.
    pub sent: Vec<Instant>,
    /// Relay thread CPU time from REQ received to EOSE flushed, ns.
    pub cpu_ns: u64,
    /// Socket counts of the connection once EOSE was flushed.
    pub at_eose: Bytes,
}

/// One closed connection.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ConnectionReport {
    /// The client's address.
    pub peer: String,
    /// Bytes read and written during the handshake.
    pub handshake: Bytes,
    /// Bytes read and written over the whole connection, handshake included.
    pub total: Bytes,
    /// `none`, `deflate`, `deflate-ctx` or `deflate-mixed`.
    pub compression: &'static str,
    /// REQs answered.
    pub requests: usize,
    /// EVENT messages sent.
    pub events: usize,
}

fn compression_name(agreed: Option<Agreed>) -> &'static str {
    match agreed.map(|a| a.mode()) {
        None => "none",
        Some(Some(m)) => m.name(),
        Some(None) => "deflate-mixed",
    }
}

async fn send(
    tx: &mut soketto::Sender<impl futures::AsyncRead + futures::AsyncWrite + Unpin>,
    framing: Framing,
    msg: &[u8],
) -> Result<(), TransportError> {
    match framing {
        Framing::Binary => tx.send_binary(msg).await?,
        Framing::Text => {
            let text = simdutf8::basic::from_utf8(msg)
                .map_err(|_| TransportError::Protocol("a text record is not UTF-8".into()))?;
            tx.send_text(text).await?
        }
    }
    Ok(())
}

/// Serves one connection until the client closes it; `served` is called
/// after every REQ's EOSE.
pub async fn serve(
    stream: TcpStream,
    store: &Store,
    mut served: impl FnMut(Served),
) -> Result<ConnectionReport, TransportError> {
    stream.set_nodelay(true)?;
    let peer = stream.peer_addr()?.to_string();
    let (socket, counters) = Counted::new(stream);
    let mut server = soketto::handshake::Server::new(socket.compat());
    server.add_extension(Box::new(PerMessageDeflate::server(MAX_MESSAGE)));
    let key = server.receive_request().await?.key();
    server
        .send_response(&Response::Accept {
            key,
            protocol: None,
        })
        .await?;
    let handshake = counters.get();
    let exts: Vec<_> = server
        .drain_extensions()
        .filter(|e| e.is_enabled())
        .collect();
    let agreed = exts.iter().find_map(|e| deflate::agreement(e.as_ref()));
    let mut builder = server.into_builder();
    builder.add_extensions(exts);
    builder.set_max_message_size(MAX_MESSAGE);
    let (mut tx, mut rx) = builder.finish();
    let framing = store.framing;
    let (mut msg, mut out) = (Vec::new(), Vec::new());
    let mut subs = BTreeSet::new();
    let (mut requests, mut events) = (0, 0);
    loop {
        msg.clear();
        match rx.receive_data(&mut msg).await {
            Ok(Data::Text(_) | Data::Binary(_)) => {}
            Err(soketto::connection::Error::Closed) => break,
            Err(soketto::connection::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::UnexpectedEof | std::io::ErrorKind::ConnectionReset
                ) =>
            {
                break;
            }
            Err(e) => return Err(e.into()),
        }
        let cpu0 = cpu::thread_ns()?;
        match envelope::parse_client(&msg) {
            Ok(FromClient::Req(sub, filters)) => {
                let hits = match store.matching(&filters) {
                    Ok(hits) => hits,
                    Err(why) => {
                        envelope::closed(framing, &sub, &format!("invalid: {why}"), &mut out)?;
                        send(&mut tx, framing, &out).await?;
                        tx.flush().await?;
                        continue;
                    }
                };
                let mut sent = Vec::with_capacity(hits.len());
                for &i in &hits {
                    envelope::event(framing, &sub, &store.records[i], &mut out)?;
                    sent.push(Instant::now());
                    send(&mut tx, framing, &out).await?;
                }
                envelope::eose(framing, &sub, &mut out)?;
                send(&mut tx, framing, &out).await?;
                tx.flush().await?;
                requests += 1;
                events += hits.len();
                subs.insert(sub.clone());
                served(Served {
                    sub,
                    sent,
                    cpu_ns: cpu::thread_ns()? - cpu0,
                    at_eose: counters.get(),
                });
            }
            Ok(FromClient::Close(sub)) => {
                subs.remove(&sub);
            }
            Err(e) => {
                envelope::notice(framing, &e.to_string(), &mut out);
                send(&mut tx, framing, &out).await?;
                tx.flush().await?;
            }
        }
    }
    Ok(ConnectionReport {
        peer,
        handshake,
        total: counters.get(),
        compression: compression_name(agreed),
        requests,
        events,
    })
}

/// Accepts connections on `listener` forever (or until `stop` fires),
/// serving each on its own task of the current runtime.
pub async fn accept_loop(
    listener: TcpListener,
    store: Arc<Store>,
    served: mpsc::Sender<Served>,
    closed: mpsc::Sender<Result<ConnectionReport, TransportError>>,
    mut stop: tokio::sync::oneshot::Receiver<()>,
) -> std::io::Result<()> {
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => accepted?.0,
            _ = &mut stop => return Ok(()),
        };
        let (store, served, closed) = (store.clone(), served.clone(), closed.clone());
        tokio::spawn(async move {
            let report = serve(stream, &store, |s| {
                let _ = served.send(s);
            })
            .await;
            let _ = closed.send(report);
        });
    }
}

/// A relay on its own OS thread (current-thread runtime) on 127.0.0.1.
pub struct Relay {
    /// Where it listens.
    pub addr: SocketAddr,
    /// One [`Served`] per answered REQ.
    pub served: mpsc::Receiver<Served>,
    /// One report per closed connection.
    pub closed: mpsc::Receiver<Result<ConnectionReport, TransportError>>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<std::io::Result<()>>>,
}

impl Relay {
    /// Starts a relay serving `store` on an ephemeral loopback port.
    pub fn spawn(store: Arc<Store>) -> std::io::Result<Relay> {
        let std_listener = std::net::TcpListener::bind("127.0.0.1:0")?;
        std_listener.set_nonblocking(true)?;
        let addr = std_listener.local_addr()?;
        let (served_tx, served) = mpsc::channel();
        let (closed_tx, closed) = mpsc::channel();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel();
        let thread = std::thread::Builder::new()
            .name(format!("relay-{}", store.profile.id))
            .spawn(move || {
                let rt = tokio::runtime::Builder::new_current_thread()
                    .enable_io()
                    .build()?;
                rt.block_on(async move {
                    let listener = TcpListener::from_std(std_listener)?;
                    accept_loop(listener, store, served_tx, closed_tx, stop_rx).await
                })
            })?;
        Ok(Relay {
            addr,
            served,
            closed,
            stop: Some(stop_tx),
            thread: Some(thread),
        })
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

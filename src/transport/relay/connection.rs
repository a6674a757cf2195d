//! One client connection, from its first byte to its close.
//!
//! The handshake (request head, encoding, permessage-deflate) runs under
//! the relay's handshake timeout; nothing compression-related is allocated
//! before it succeeds. Then a reader task turns frames into `Inbound`
//! items on a small bounded channel (so a client that floods messages waits
//! on its own socket), and the writer answers them in order. While a REQ
//! streams, the writer takes pending items between events: a `CLOSE` of
//! that subscription, or a REQ replacing it, stops the stream; pings are
//! answered at once. The reader pings after half the idle timeout without a
//! frame and the connection closes (1001) after the whole of it.

use std::collections::{BTreeSet, VecDeque};
use std::time::Instant;

use tokio::io::{AsyncWriteExt, ReadHalf, WriteHalf};
use tokio::net::TcpStream;
use tokio::sync::mpsc;

use super::http::{self, Request};
use super::{ConnectionReport, End, Served, Shared, Store, store};
use crate::transport::count::{Counted, Counters};
use crate::transport::cpu;
use crate::transport::deflate::{self, Agreed};
use crate::transport::envelope::{self, Framing, FromClient, MAX_SUB_ID};
use crate::transport::ws::{FrameReader, FrameWriter, Incoming, WsError, status};
use crate::validate::{self, Limits};

/// The codec of text EVENTs on binary connections: NIP-01 JSON.
static NIP01_JSON: std::sync::LazyLock<&'static crate::codec::Profile> =
    std::sync::LazyLock::new(|| crate::profiles::find("json").expect("the json profile"));

type Socket = Counted<TcpStream>;

/// What the reader hands the writer.
#[derive(Debug)]
enum Inbound {
    /// A parsed client message, or why it did not parse (for a NOTICE).
    Client(Result<FromClient, String>),
    /// A ping to answer.
    Ping(Vec<u8>),
    /// Half the idle timeout passed without a frame: ping the client.
    IdlePing,
    /// The whole idle timeout passed: close 1001.
    Idle,
    /// The client's close frame.
    Close(Option<u16>),
    /// The client broke the protocol: close with this status.
    Fail(u16, String),
    /// The socket ended or failed without a close frame.
    Gone(std::io::Error),
}

impl Inbound {
    fn ends(&self) -> bool {
        matches!(
            self,
            Inbound::Idle | Inbound::Close(_) | Inbound::Fail(..) | Inbound::Gone(_)
        )
    }

    /// Whether this stops the stream of subscription `sub`.
    fn stops(&self, sub: &str) -> bool {
        self.ends()
            || matches!(self, Inbound::Client(Ok(FromClient::Close(s) | FromClient::Req(s, _))) if s == sub)
    }
}

/// A connection past its handshake.
struct Opened {
    store: usize,
    protocol: Option<String>,
    agreed: Option<Agreed>,
    rest: Vec<u8>,
}

enum Handshake {
    Upgraded(Opened),
    /// Answered over HTTP (NIP-11, a page, an error) and done.
    Answered(End, Option<String>),
}

async fn handshake(socket: &mut Socket, shared: &Shared) -> std::io::Result<Handshake> {
    let (head, rest) = match http::read_head(socket).await {
        Ok(h) => h,
        Err(http::HeadError::Io(e)) => return Err(e),
        Err(http::HeadError::TooLarge) => {
            let refusal = http::Refusal {
                status: 431,
                reason: format!("request head over {} bytes", http::MAX_HEAD),
            };
            socket.write_all(&http::error(&refusal)).await?;
            return Ok(Handshake::Answered(End::Http, Some(refusal.reason)));
        }
    };
    let answer = match http::parse(&head) {
        Ok(Request::Upgrade(up)) => match shared.choose(&up) {
            Ok((store, protocol)) => {
                let negotiated = deflate::negotiate(up.extensions.iter().map(String::as_str));
                let response = http::switching(
                    &up.key,
                    protocol.as_deref(),
                    negotiated.as_ref().map(|(_, h)| h.as_str()),
                );
                socket.write_all(&response).await?;
                socket.flush().await?;
                return Ok(Handshake::Upgraded(Opened {
                    store,
                    protocol,
                    agreed: negotiated.map(|(a, _)| a),
                    rest,
                }));
            }
            Err(refusal) => Err(refusal),
        },
        Ok(Request::Info) => Ok(http::response(
            200,
            "application/nostr+json",
            "",
            &shared.info,
        )),
        Ok(Request::Preflight) => Ok(http::response(204, "text/plain", "", "")),
        Ok(Request::Page) => Ok(http::response(
            200,
            "text/plain; charset=utf-8",
            "",
            "binostr relay: a NIP-01 relay of stored events. Connect with a WebSocket; \
             the NIP-11 document answers `Accept: application/nostr+json`.\n",
        )),
        Err(refusal) => Err(refusal),
    };
    let (bytes, why) = match answer {
        Ok(bytes) => (bytes, None),
        Err(refusal) => (http::error(&refusal), Some(refusal.reason)),
    };
    socket.write_all(&bytes).await?;
    socket.flush().await?;
    let _ = socket.shutdown().await;
    Ok(Handshake::Answered(End::Http, why))
}

fn compression_name(agreed: Option<Agreed>) -> &'static str {
    match agreed.map(|a| a.mode()) {
        None => "none",
        Some(Some(m)) => m.name(),
        Some(None) => "deflate-mixed",
    }
}

fn peer_gone(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::*;
    matches!(
        e.kind(),
        UnexpectedEof | ConnectionReset | ConnectionAborted | BrokenPipe | NotConnected
    )
}

/// Serves one connection until it ends; `served` is called after every
/// REQ's EOSE. Never fails: how it ended is in the report.
pub async fn serve(
    stream: TcpStream,
    shared: &Shared,
    mut served: impl FnMut(Served),
) -> ConnectionReport {
    let peer = stream
        .peer_addr()
        .map(|a| a.to_string())
        .unwrap_or_default();
    let _ = stream.set_nodelay(true);
    if let Some(bytes) = shared.config.send_buffer {
        // A client that does not read holds this much in the kernel, not
        // the default autotuned megabytes, and the relay stops compressing
        // for it once the buffer is full.
        let _ = rustix::net::sockopt::set_socket_send_buffer_size(&stream, bytes);
    }
    let (mut socket, counters) = Counted::new(stream);
    let mut report = ConnectionReport::new(peer);
    let done = |mut report: ConnectionReport, end, error| {
        report.end = end;
        report.error = error;
        report.total = counters.get();
        report
    };
    let opened = match tokio::time::timeout(
        shared.config.handshake_timeout,
        handshake(&mut socket, shared),
    )
    .await
    {
        Err(_) => {
            let why = format!(
                "no handshake within {} ms",
                shared.config.handshake_timeout.as_millis()
            );
            return done(report, End::HandshakeTimeout, Some(why));
        }
        Ok(Err(e)) if peer_gone(&e) => return done(report, End::PeerGone, None),
        Ok(Err(e)) => return done(report, End::Error, Some(e.to_string())),
        Ok(Ok(Handshake::Answered(end, why))) => return done(report, end, why),
        Ok(Ok(Handshake::Upgraded(opened))) => opened,
    };
    let store = &shared.stores[opened.store];
    report.handshake = counters.get();
    report.profile = Some(store.profile.id);
    report.protocol = opened.protocol;
    report.compression = compression_name(opened.agreed);
    let (rd, wr) = tokio::io::split(socket);
    let frames = FrameReader::new(rd, opened.rest, opened.agreed, shared.config.max_message);
    let (tx, mut rx) = mpsc::channel(16);
    let mut conn = Connection {
        writer: FrameWriter::new(wr, opened.agreed, shared.config.deflater),
        store,
        shared,
        counters: counters.clone(),
        subs: BTreeSet::new(),
        pending: VecDeque::new(),
        out: Vec::new(),
        requests: 0,
        events: 0,
        published: 0,
        publish_cpu_ns: 0,
    };
    let idle = shared.config.idle_timeout;
    let (ended, ()) = tokio::join!(
        conn.run(&mut rx, &mut served),
        read_loop(store.framing, frames, tx, idle)
    );
    report.requests = conn.requests;
    report.events = conn.events;
    report.published = conn.published;
    report.publish_cpu_ns = conn.publish_cpu_ns;
    let (end, status, error) = match ended {
        Ok(e) => e,
        Err(e) if peer_gone(&e) => (End::PeerGone, None, None),
        Err(e) => (End::Error, None, Some(e.to_string())),
    };
    report.status = status;
    done(report, end, error)
}

async fn read_loop(
    framing: Framing,
    mut frames: FrameReader<ReadHalf<Socket>>,
    tx: mpsc::Sender<Inbound>,
    idle: std::time::Duration,
) {
    let mut msg = Vec::new();
    let mut pinged = false;
    loop {
        let next = tokio::select! {
            _ = tx.closed() => return,
            r = tokio::time::timeout(idle / 2, frames.next(&mut msg)) => r,
        };
        let inbound = match next {
            Err(_) if frames.mid_message() => Inbound::Idle,
            Err(_) if !pinged => {
                pinged = true;
                Inbound::IdlePing
            }
            Err(_) => Inbound::Idle,
            Ok(r) => {
                pinged = false;
                match r {
                    Ok(Incoming::Text) => Inbound::Client(
                        envelope::parse_client(&msg).map_err(|e| format!("invalid: {e}")),
                    ),
                    Ok(Incoming::Binary) if framing == Framing::Binary => Inbound::Client(
                        envelope::parse_client_binary(&msg).map_err(|e| format!("invalid: {e}")),
                    ),
                    Ok(Incoming::Binary) => Inbound::Fail(
                        status::UNSUPPORTED,
                        "client messages on a JSON connection are NIP-01 JSON text".into(),
                    ),
                    Ok(Incoming::Ping(p)) => Inbound::Ping(p),
                    Ok(Incoming::Pong) => continue,
                    Ok(Incoming::Close(code)) => Inbound::Close(code),
                    Err(WsError::Fail { status, reason }) => Inbound::Fail(status, reason),
                    Err(WsError::Io(e)) => Inbound::Gone(e),
                }
            }
        };
        let last = inbound.ends();
        if tx.send(inbound).await.is_err() || last {
            return;
        }
    }
}

/// Items the writer takes from the channel while a REQ streams.
const MAX_PENDING: usize = 64;

struct Connection<'a> {
    writer: FrameWriter<WriteHalf<Socket>>,
    store: &'a Store,
    shared: &'a Shared,
    counters: Counters,
    subs: BTreeSet<String>,
    pending: VecDeque<Inbound>,
    out: Vec<u8>,
    requests: usize,
    events: usize,
    published: usize,
    publish_cpu_ns: u64,
}

type Ended = (End, Option<u16>, Option<String>);

impl Connection<'_> {
    async fn send(&mut self) -> std::io::Result<()> {
        let binary = self.store.framing == Framing::Binary;
        self.writer.message(binary, &self.out).await
    }

    async fn notice(&mut self, message: &str) -> std::io::Result<()> {
        envelope::notice(self.store.framing, message, &mut self.out);
        self.send().await?;
        self.writer.flush().await
    }

    /// `CLOSED` for `sub`, or a NOTICE where the binary envelope cannot
    /// carry the id.
    async fn closed(&mut self, sub: &str, message: &str) -> std::io::Result<()> {
        self.subs.remove(sub);
        if envelope::closed(self.store.framing, sub, message, &mut self.out).is_err() {
            return self.notice(message).await;
        }
        self.send().await?;
        self.writer.flush().await
    }

    async fn run(
        &mut self,
        rx: &mut mpsc::Receiver<Inbound>,
        served: &mut impl FnMut(Served),
    ) -> std::io::Result<Ended> {
        loop {
            let inbound = match self.pending.pop_front() {
                Some(i) => i,
                None => match rx.recv().await {
                    Some(i) => i,
                    None => return Ok((End::PeerGone, None, None)),
                },
            };
            match inbound {
                Inbound::Client(Ok(FromClient::Req(sub, filters))) => {
                    self.req(sub, filters, rx, served).await?
                }
                Inbound::Client(Ok(FromClient::Close(sub))) => {
                    self.subs.remove(&sub);
                }
                Inbound::Client(Ok(FromClient::Event(framing, event))) => {
                    self.publish(framing, &event).await?
                }
                Inbound::Client(Err(why)) => self.notice(&why).await?,
                Inbound::Ping(p) => self.writer.pong(&p).await?,
                Inbound::IdlePing => self.writer.ping().await?,
                Inbound::Idle => {
                    let why = "idle timeout";
                    let _ = self.writer.close(status::GOING_AWAY, why).await;
                    return Ok((End::Idle, Some(status::GOING_AWAY), None));
                }
                Inbound::Close(code) => {
                    let code = code.unwrap_or(status::NORMAL);
                    let _ = self.writer.close(code, "").await;
                    return Ok((End::ClientClosed, Some(code), None));
                }
                Inbound::Fail(code, why) => {
                    let _ = self.writer.close(code, &why).await;
                    return Ok((End::RelayClosed, Some(code), Some(why)));
                }
                Inbound::Gone(e) if peer_gone(&e) => return Ok((End::PeerGone, None, None)),
                Inbound::Gone(e) => return Err(e),
            }
        }
    }

    /// Answers one REQ: refusal (CLOSED), or its events then EOSE, unless a
    /// CLOSE or a replacing REQ stops the stream first.
    async fn req(
        &mut self,
        sub: String,
        filters: Vec<serde_json::Value>,
        rx: &mut mpsc::Receiver<Inbound>,
        served: &mut impl FnMut(Served),
    ) -> std::io::Result<()> {
        let cpu0 = cpu::thread_ns()?;
        let config = &self.shared.config;
        if !envelope::valid_sub_id(&sub) {
            let why = format!(
                "invalid: a subscription id is 1 to {MAX_SUB_ID} bytes, not {}",
                sub.len()
            );
            return self.closed(&sub, &why).await;
        }
        if !self.subs.contains(&sub) && self.subs.len() >= config.max_subscriptions {
            let why = format!(
                "blocked: {} subscriptions open (NIP-11 max_subscriptions); CLOSE one first",
                self.subs.len()
            );
            return self.closed(&sub, &why).await;
        }
        let hits = match store::answer(&self.store.events, &filters, &config.budget()).await {
            Ok(hits) => hits,
            Err(why) => return self.closed(&sub, &why).await,
        };
        self.subs.insert(sub.clone());
        let framing = self.store.framing;
        let mut sent = Vec::with_capacity(hits.len());
        for &i in &hits {
            if !self.still_wanted(&sub, rx).await? {
                return self.writer.flush().await;
            }
            envelope::event(framing, &sub, &self.store.records[i], &mut self.out)
                .expect("a valid subscription id fits the envelope");
            sent.push(Instant::now());
            self.send().await?;
            self.events += 1;
        }
        envelope::eose(framing, &sub, &mut self.out)
            .expect("a valid subscription id fits the envelope");
        self.send().await?;
        self.writer.flush().await?;
        self.requests += 1;
        served(Served {
            sub,
            sent,
            cpu_ns: cpu::thread_ns()? - cpu0,
            at_eose: self.counters.get(),
        });
        Ok(())
    }

    /// Answers a published event: decoded (a text EVENT as NIP-01 JSON, or
    /// with this connection's profile), limits, id and signature checked,
    /// then refused, valid or not: `invalid:` with why, or `blocked:` (this
    /// relay's stored set is fixed). A NOTICE where no id can be read.
    async fn publish(&mut self, framing: Framing, event: &[u8]) -> std::io::Result<()> {
        let cpu0 = cpu::thread_ns()?;
        let profile = match (framing, self.store.framing) {
            (Framing::Text, Framing::Binary) => *NIP01_JSON,
            _ => self.store.profile,
        };
        let limits = Limits::default();
        let answer = match profile.codec.decode(event, &limits) {
            Err(e) => match framing {
                Framing::Text => {
                    envelope::json_event_id(event).map(|id| (id, format!("invalid: {e}")))
                }
                Framing::Binary => None,
            }
            .ok_or_else(|| format!("invalid: EVENT: {e}")),
            Ok(ev) => {
                let why = match validate::check_limits(&ev, &limits)
                    .and_then(|()| validate::verify_event(&ev))
                {
                    Err(e) => format!("invalid: {e}"),
                    Ok(()) => {
                        "blocked: this relay serves a fixed set of stored events and accepts none"
                            .to_owned()
                    }
                };
                Ok((crate::model::hex::encode(&ev.id), why))
            }
        };
        match answer {
            Ok((id, why)) => {
                envelope::ok(self.store.framing, &id, false, &why, &mut self.out);
                self.send().await?;
                self.writer.flush().await?;
            }
            Err(why) => self.notice(&why).await?,
        }
        self.published += 1;
        self.publish_cpu_ns += cpu::thread_ns()? - cpu0;
        Ok(())
    }

    /// Takes what the reader has queued (answering pings at once);
    /// `false` when `sub`'s stream must stop: closed, replaced, or the
    /// connection is ending.
    async fn still_wanted(
        &mut self,
        sub: &str,
        rx: &mut mpsc::Receiver<Inbound>,
    ) -> std::io::Result<bool> {
        while self.pending.len() < MAX_PENDING {
            match rx.try_recv() {
                Ok(Inbound::Ping(p)) => self.writer.pong(&p).await?,
                Ok(inbound) => self.pending.push_back(inbound),
                Err(_) => break,
            }
        }
        Ok(!self.pending.iter().any(|i| i.stops(sub)))
    }
}

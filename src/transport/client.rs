//! The client: a connection ([`connect`]) and any number of REQ → EOSE
//! exchanges on it ([`Connection::exchange`]); [`fetch`] is one of each.

use std::net::SocketAddr;
use std::time::Instant;

use soketto::Data;
use soketto::handshake::ServerResponse;
use tokio::net::TcpStream;
use tokio_util::compat::{Compat, TokioAsyncReadCompatExt};

use crate::codec::Profile;
use crate::model::Event;
use crate::transport::count::{Bytes, Counted, Counters};
use crate::transport::deflate::{self, PerMessageDeflate};
use crate::transport::envelope::{self, Framing, FromRelay};
use crate::transport::{Compression, MAX_MESSAGE, SUB, TransportError, cpu};
use crate::validate::{self, Limits};

/// What the client does with each received event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Check {
    /// Bounded decode to an owned event.
    Decode,
    /// Decode, structural checks, id and BIP-340 (`crate::validate`).
    Validate,
}

impl Check {
    /// Both, in report order.
    pub const ALL: [Check; 2] = [Check::Decode, Check::Validate];

    /// The name results use: `decode` or `validate`.
    pub fn name(self) -> &'static str {
        match self {
            Check::Decode => "decode",
            Check::Validate => "validate",
        }
    }
}

/// One REQ → EOSE exchange, as the client saw it.
#[derive(Debug)]
pub struct Fetched {
    /// The decoded events, in arrival order.
    pub events: Vec<Event>,
    /// When each event's message was received.
    pub received: Vec<Instant>,
    /// When the REQ was handed to the socket.
    pub req_sent: Instant,
    /// When EOSE was received.
    pub eose: Instant,
    /// Client thread CPU time from REQ to EOSE, ns.
    pub cpu_ns: u64,
    /// Socket counts once the handshake was done.
    pub handshake: Bytes,
    /// Socket counts before the REQ (equal to `handshake` on the first
    /// exchange of a connection).
    pub before: Bytes,
    /// Socket counts when EOSE was received.
    pub at_eose: Bytes,
}

impl Fetched {
    /// Bytes of this exchange (REQ to EOSE) at the client's socket.
    pub fn wire(&self) -> Bytes {
        self.at_eose.since(self.before)
    }
}

/// One EVENT → OK, as the client saw it.
#[derive(Debug)]
pub struct Published {
    /// Encode started → OK received, s.
    pub secs: f64,
    /// Client thread CPU over the same span, ns.
    pub cpu_ns: u64,
    /// Socket bytes of the EVENT (written) and the OK (read).
    pub wire: Bytes,
    /// The OK's `accepted`.
    pub accepted: bool,
    /// The OK's message.
    pub message: String,
}

type Socket = Compat<Counted<TcpStream>>;

/// An open client connection, handshake done, mode negotiated.
pub struct Connection {
    tx: soketto::connection::Sender<Socket>,
    rx: soketto::connection::Receiver<Socket>,
    counters: Counters,
    /// Socket counts once the handshake was done.
    pub handshake: Bytes,
    /// The negotiated mode.
    pub mode: Compression,
    msg: Vec<u8>,
}

/// Connects to `addr` and negotiates `mode`, refusing anything else.
pub async fn connect(addr: SocketAddr, mode: Compression) -> Result<Connection, TransportError> {
    let stream = TcpStream::connect(addr).await?;
    stream.set_nodelay(true)?;
    let (socket, counters) = Counted::new(stream);
    let host = addr.to_string();
    let mut client = soketto::handshake::Client::new(socket.compat(), &host, "/");
    if mode != Compression::None {
        client.add_extension(Box::new(PerMessageDeflate::client(mode, MAX_MESSAGE)));
    }
    match client.handshake().await? {
        ServerResponse::Accepted { .. } => {}
        other => return Err(TransportError::Protocol(format!("handshake: {other:?}"))),
    }
    let handshake = counters.get();
    let exts: Vec<_> = client
        .drain_extensions()
        .filter(|e| e.is_enabled())
        .collect();
    let agreed = exts.iter().find_map(|e| deflate::agreement(e.as_ref()));
    let got = agreed.map(|a| a.mode());
    if got.unwrap_or(Some(Compression::None)) != Some(mode) {
        return Err(TransportError::Negotiation {
            asked: mode.name(),
            got: format!("{agreed:?}"),
        });
    }
    let mut builder = client.into_builder();
    builder.add_extensions(exts);
    builder.set_max_message_size(MAX_MESSAGE);
    let (tx, rx) = builder.finish();
    Ok(Connection {
        tx,
        rx,
        counters,
        handshake,
        mode,
        msg: Vec::new(),
    })
}

impl Connection {
    /// Sends `["REQ",SUB,filters...]` and receives every event until EOSE,
    /// decoding each with `profile` (and validating it under
    /// [`Check::Validate`]). The connection stays open.
    pub async fn exchange(
        &mut self,
        profile: &Profile,
        check: Check,
        filters: &[serde_json::Value],
        limits: &Limits,
    ) -> Result<Fetched, TransportError> {
        let framing = Framing::of(profile);
        let req = envelope::req(SUB, filters);
        let before = self.counters.get();
        let cpu0 = cpu::thread_ns()?;
        let req_sent = Instant::now();
        self.tx.send_text(&req).await?;
        self.tx.flush().await?;
        let (mut events, mut received) = (Vec::new(), Vec::new());
        let msg = &mut self.msg;
        let eose = loop {
            msg.clear();
            let data = self.rx.receive_data(msg).await?;
            let at = Instant::now();
            if data.is_text() != (framing == Framing::Text) || matches!(data, Data::Binary(0)) {
                return Err(TransportError::Protocol(format!(
                    "a {data:?} frame on a {framing:?} connection"
                )));
            }
            match envelope::parse(framing, msg)? {
                FromRelay::Event { sub, record } if sub == SUB => {
                    let index = events.len();
                    let event = profile
                        .codec
                        .decode(record, limits)
                        .map_err(|source| TransportError::Decode { index, source })?;
                    if check == Check::Validate {
                        validate::check_limits(&event, limits)
                            .and_then(|()| validate::verify_event(&event))
                            .map_err(|source| TransportError::Invalid { index, source })?;
                    }
                    events.push(event);
                    received.push(at);
                }
                FromRelay::Eose(sub) if sub == SUB => break at,
                other => {
                    return Err(TransportError::Protocol(format!(
                        "unexpected relay message {other:?}"
                    )));
                }
            }
        };
        let cpu_ns = cpu::thread_ns()? - cpu0;
        Ok(Fetched {
            events,
            received,
            req_sent,
            eose,
            cpu_ns,
            handshake: self.handshake,
            before,
            at_eose: self.counters.get(),
        })
    }

    /// Publishes `event`: encodes it with `profile`, sends it as an EVENT
    /// in the profile's framing and waits for the relay's OK of its id.
    /// Other messages fail it (a NOTICE with its text).
    pub async fn publish(
        &mut self,
        profile: &Profile,
        event: &Event,
    ) -> Result<Published, TransportError> {
        let framing = Framing::of(profile);
        let id = crate::model::hex::encode(&event.id);
        let before = self.counters.get();
        let cpu0 = cpu::thread_ns()?;
        let start = Instant::now();
        let mut record = Vec::new();
        profile
            .codec
            .encode(event, &mut record)
            .map_err(|e| TransportError::Protocol(format!("encoding event {id}: {e}")))?;
        let mut out = Vec::with_capacity(record.len() + 10);
        envelope::publish(framing, &record, &mut out);
        match framing {
            Framing::Text => {
                let text = std::str::from_utf8(&out).map_err(|e| {
                    TransportError::Protocol(format!("{} wrote non-UTF-8 JSON: {e}", profile.id))
                })?;
                self.tx.send_text(text).await?
            }
            Framing::Binary => self.tx.send_binary(&out).await?,
        }
        self.tx.flush().await?;
        let msg = &mut self.msg;
        msg.clear();
        self.rx.receive_data(msg).await?;
        let ok = Instant::now();
        let (accepted, message) = match envelope::parse(framing, msg)? {
            FromRelay::Ok(got, accepted, message) if got == id => (accepted, message),
            other => {
                return Err(TransportError::Protocol(format!(
                    "expected OK for {id}, got {other:?}"
                )));
            }
        };
        Ok(Published {
            secs: (ok - start).as_secs_f64(),
            cpu_ns: cpu::thread_ns()? - cpu0,
            wire: self.counters.get().since(before),
            accepted,
            message,
        })
    }

    /// Sends a close frame.
    pub async fn close(mut self) -> Result<(), TransportError> {
        self.tx.close().await?;
        Ok(())
    }
}

/// Connects to `addr`, negotiates `mode`, runs one
/// [`Connection::exchange`] and closes the connection.
pub async fn fetch(
    addr: SocketAddr,
    profile: &Profile,
    mode: Compression,
    check: Check,
    filters: &[serde_json::Value],
    limits: &Limits,
) -> Result<Fetched, TransportError> {
    let mut conn = connect(addr, mode).await?;
    let fetched = conn.exchange(profile, check, filters, limits).await?;
    conn.close().await?;
    Ok(fetched)
}

//! The client: one connection, one REQ, every event until EOSE.

use std::net::SocketAddr;
use std::time::Instant;

use soketto::Data;
use soketto::handshake::ServerResponse;
use tokio::net::TcpStream;
use tokio_util::compat::TokioAsyncReadCompatExt;

use crate::codec::Profile;
use crate::model::Event;
use crate::transport::count::{Bytes, Counted};
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

    /// Stable name.
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
    /// Socket counts when EOSE was received.
    pub at_eose: Bytes,
}

/// Connects to `addr`, negotiates `mode` (refusing anything else), sends
/// `["REQ",SUB,filters...]` and receives every event until EOSE, decoding
/// each with `profile` (and validating it under [`Check::Validate`]). The
/// connection is closed afterwards.
pub async fn fetch(
    addr: SocketAddr,
    profile: &Profile,
    mode: Compression,
    check: Check,
    filters: &[serde_json::Value],
    limits: &Limits,
) -> Result<Fetched, TransportError> {
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
    let (mut tx, mut rx) = builder.finish();
    let framing = Framing::of(profile);
    let req = envelope::req(SUB, filters);

    let cpu0 = cpu::thread_ns()?;
    let req_sent = Instant::now();
    tx.send_text(&req).await?;
    tx.flush().await?;
    let (mut events, mut received) = (Vec::new(), Vec::new());
    let mut msg = Vec::new();
    let eose = loop {
        msg.clear();
        let data = rx.receive_data(&mut msg).await?;
        let at = Instant::now();
        if data.is_text() != (framing == Framing::Text) || matches!(data, Data::Binary(0)) {
            return Err(TransportError::Protocol(format!(
                "a {data:?} frame on a {framing:?} connection"
            )));
        }
        match envelope::parse(framing, &msg)? {
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
    let at_eose = counters.get();
    tx.close().await?;
    Ok(Fetched {
        events,
        received,
        req_sent,
        eose,
        cpu_ns,
        handshake,
        at_eose,
    })
}

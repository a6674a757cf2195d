//! The `transport` workload: a real WebSocket loop on loopback
//! (`docs/TRANSPORT.md`).
//!
//! A relay ([`relay`]) holds one or more profiles' records of a set of
//! events, newest first, and speaks RFC 6455 through its own frame layer
//! ([`ws`]);
//! a client ([`client`]) sends a NIP-01 `REQ`, receives every matching event
//! and `EOSE`, and decodes (or validates) each event. JSON profiles travel as
//! NIP-01 text frames, the others in one small binary envelope
//! ([`envelope`]). Three compression modes ([`Compression`]): none, and
//! permessage-deflate (RFC 7692, [`deflate`], compressed by a
//! [`deflater`]) without and with context takeover. Bytes are counted at the socket ([`count`]) and checked against
//! a pure flate2 model of the same messages ([`model`]); [`measure`] runs
//! every (profile × mode × check) in interleaved rounds; [`session`] keeps
//! one connection open for the campaign's `transport-*` workloads; [`links`]
//! runs the same loop between two network namespaces over shaped links.
//!
//! Relay and client each run a current-thread tokio runtime on their own OS
//! thread, so their CPU times ([`cpu`]) are separate.

pub mod client;
pub mod count;
pub mod cpu;
pub mod deflate;
pub mod deflater;
pub mod envelope;
pub mod links;
pub mod measure;
pub mod model;
pub mod relay;
pub mod session;
pub mod ws;

pub use deflate::Compression;

/// Largest inflated message either side accepts (16 MiB, above
/// [`crate::validate::Limits`]' default event size plus the envelope).
pub const MAX_MESSAGE: usize = 16 << 20;

/// The subscription id of the benchmark's REQ.
pub const SUB: &str = "binostr";

/// Why a transport exchange failed.
#[derive(Debug, thiserror::Error)]
pub enum TransportError {
    /// Socket I/O.
    #[error("socket: {0}")]
    Io(#[from] std::io::Error),
    /// The WebSocket handshake.
    #[error("websocket handshake: {0}")]
    Handshake(#[from] soketto::handshake::Error),
    /// A WebSocket connection error.
    #[error("websocket: {0}")]
    Connection(#[from] soketto::connection::Error),
    /// A message that is not what the protocol says.
    #[error("protocol: {0}")]
    Protocol(String),
    /// The mode asked for was not negotiated.
    #[error("asked for compression `{asked}`, negotiated {got}")]
    Negotiation {
        /// The mode asked for.
        asked: &'static str,
        /// What the handshake agreed.
        got: String,
    },
    /// A record the relay could not encode.
    #[error("event {index} is not representable: {source}")]
    Encode {
        /// Event index.
        index: usize,
        /// Why.
        source: crate::codec::EncodeError,
    },
    /// A received record that did not decode.
    #[error("received event {index}: {source}")]
    Decode {
        /// Position in the stream.
        index: usize,
        /// Why.
        source: crate::codec::DecodeError,
    },
    /// A received event that failed validation.
    #[error("received event {index}: {source}")]
    Invalid {
        /// Position in the stream.
        index: usize,
        /// Why.
        source: crate::validate::ValidationError,
    },
    /// The loop delivered something other than what the relay stored, or
    /// bytes disagree between the two ends or with the model.
    #[error("check failed: {0}")]
    Mismatch(String),
}

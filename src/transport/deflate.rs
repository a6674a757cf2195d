//! permessage-deflate (RFC 7692), with and without context takeover: the
//! relay's negotiation ([`negotiate`]), the receiving side of both ends
//! ([`Inflater`]: fragmented messages, a bound while inflating), the client's
//! soketto [`Extension`] ([`PerMessageDeflate`]) and the compression path
//! both ends use ([`deflate_message`]).
//!
//! The relay compresses with zlib (C, through flate2; the default) or with
//! zlib-rs (the pure Rust port of zlib-ng), both at level 1
//! ([`crate::transport::deflater`]). One framing path ([`deflate_message`])
//! serves both; only the raw compression call differs ([`RawDeflate`]). The
//! client and every decompressor are zlib.
//!
//! soketto 0.8.1's own `Deflate` always asks for (and, as a client, insists
//! on) `server_no_context_takeover` and starts a fresh compressor and
//! decompressor for every message, so it cannot measure the context-takeover
//! mode, and as a server it cannot read a client that keeps its context (the
//! default of browsers and Node's `ws`). Ours keeps soketto's compressor
//! settings (raw deflate, [`LEVEL`] = `Compression::fast()`, 15-bit window,
//! `FlushCompress::None` then `Sync`, trailing `00 00 ff ff` removed) and
//! adds the negotiated context handling.
//!
//! Negotiation: a client offers `permessage-deflate`, plus
//! `server_no_context_takeover; client_no_context_takeover` in
//! [`Compression::Deflate`]. The relay accepts the first offer whose
//! parameters it supports and echoes the no-context-takeover parameters it
//! was asked for.

use flate2::{Compress, Decompress, FlushDecompress, Status};
use soketto::base::{Header, OpCode};
use soketto::extension::{Extension, Param};
use soketto::{BoxedError, Storage};

use crate::transport::deflater::{RawDeflate, compressor};

/// Compression level, as soketto's `Deflate` (`Compression::fast()`).
pub const LEVEL: flate2::Compression = flate2::Compression::fast();
/// LZ77 window bits (both directions).
pub const WINDOW_BITS: u8 = 15;
/// The empty stored block a sync flush ends with (RFC 7692, 7.2.1).
pub const TAIL: [u8; 4] = [0, 0, 0xff, 0xff];

const NAME: &str = "permessage-deflate";
const SERVER_NCT: &str = "server_no_context_takeover";
const CLIENT_NCT: &str = "client_no_context_takeover";
const SERVER_MWB: &str = "server_max_window_bits";
const CLIENT_MWB: &str = "client_max_window_bits";

/// What a connection compresses with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum Compression {
    /// No extension offered.
    None,
    /// permessage-deflate, both sides reset their context per message.
    Deflate,
    /// permessage-deflate, both sides keep their context (32 KiB window).
    DeflateContext,
}

impl Compression {
    /// Every mode, in report order.
    pub const ALL: [Compression; 3] = [
        Compression::None,
        Compression::Deflate,
        Compression::DeflateContext,
    ];

    /// Stable name (CSV, CLI).
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Deflate => "deflate",
            Compression::DeflateContext => "deflate-ctx",
        }
    }

    /// Whether each side keeps its context across messages.
    pub fn takeover(self) -> bool {
        self == Compression::DeflateContext
    }
}

/// What was agreed in the handshake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Agreed {
    /// The server resets its compressor per message.
    pub server_no_context_takeover: bool,
    /// The client resets its compressor per message.
    pub client_no_context_takeover: bool,
}

impl Agreed {
    /// The mode this agreement is, if it is one of ours.
    pub fn mode(self) -> Option<Compression> {
        match (
            self.server_no_context_takeover,
            self.client_no_context_takeover,
        ) {
            (true, true) => Some(Compression::Deflate),
            (false, false) => Some(Compression::DeflateContext),
            _ => None,
        }
    }
}

/// Why an inflated message was refused.
#[derive(Debug, thiserror::Error)]
pub enum InflateError {
    /// The message inflates past the limit (a deflate bomb, or just too big).
    #[error("inflated message exceeds {max} bytes (at compressed byte {at})")]
    TooBig {
        /// The limit.
        max: usize,
        /// Compressed bytes consumed when the limit was passed.
        at: usize,
    },
    /// The compressed data is not a deflate stream.
    #[error("bad deflate data at compressed byte {at}: {why}")]
    Bad {
        /// Compressed byte where it failed.
        at: usize,
        /// zlib's words.
        why: String,
    },
}

/// The receiving side of permessage-deflate: one decompressor, kept or reset
/// per message as agreed. Shared by the relay's frame reader and the
/// client's soketto extension.
pub struct Inflater {
    decompress: Decompress,
    reset: bool,
    out: Vec<u8>,
}

impl Inflater {
    /// A decompressor for a peer that resets its context per message when
    /// `peer_resets`.
    pub fn new(peer_resets: bool) -> Self {
        Self {
            decompress: Decompress::new_with_window_bits(false, WINDOW_BITS),
            reset: peer_resets,
            out: Vec::new(),
        }
    }

    /// Inflates one whole message (every fragment's payload, concatenated)
    /// in place; refuses output over `max` bytes while inflating, so a bomb
    /// costs at most `max` plus one step of memory.
    pub fn message(&mut self, data: &mut Vec<u8>, max: usize) -> Result<(), InflateError> {
        if self.reset {
            self.decompress.reset(false);
        }
        data.extend_from_slice(&TAIL);
        self.out.clear();
        let start = self.decompress.total_in();
        let used = |d: &Decompress| (d.total_in() - start) as usize;
        loop {
            let at = used(&self.decompress);
            if at == data.len() {
                break;
            }
            self.out.reserve((data.len() * 4).clamp(4096, 1 << 20));
            let before = self.decompress.total_out();
            self.decompress
                .decompress_vec(&data[at..], &mut self.out, FlushDecompress::Sync)
                .map_err(|e| InflateError::Bad {
                    at,
                    why: e.to_string(),
                })?;
            if self.out.len() > max {
                return Err(InflateError::TooBig { max, at });
            }
            let progressed = self.decompress.total_out() != before || used(&self.decompress) != at;
            if !progressed && self.out.len() < self.out.capacity() {
                return Err(InflateError::Bad {
                    at,
                    why: "the stream stalls".into(),
                });
            }
        }
        std::mem::swap(data, &mut self.out);
        if self.out.capacity() > 4 * max.min(1 << 20) {
            self.out = Vec::new(); // a large message's buffer is not kept
        }
        Ok(())
    }
}

/// The relay's answer to a client's `Sec-WebSocket-Extensions` header
/// values: the first `permessage-deflate` offer whose parameters it
/// supports, and the response header value. Any client window fits the
/// 15-bit decompressor; a server window below 15 bits is declined (the
/// compressor, and the model of its bytes, use 15).
pub fn negotiate<'a>(headers: impl IntoIterator<Item = &'a str>) -> Option<(Agreed, String)> {
    'offer: for offer in headers.into_iter().flat_map(|h| h.split(',')) {
        let mut parts = offer.split(';').map(str::trim);
        if !parts.next().is_some_and(|n| n.eq_ignore_ascii_case(NAME)) {
            continue;
        }
        let mut agreed = Agreed {
            server_no_context_takeover: false,
            client_no_context_takeover: false,
        };
        let mut seen = Vec::new();
        for p in parts {
            let (name, value) = match p.split_once('=') {
                Some((n, v)) => (n.trim(), Some(v.trim().trim_matches('"'))),
                None => (p, None),
            };
            if seen.contains(&name) {
                continue 'offer; // RFC 7692, 7: a repeated parameter declines the offer
            }
            seen.push(name);
            match (name, value) {
                (SERVER_NCT, None) => agreed.server_no_context_takeover = true,
                (CLIENT_NCT, None) => agreed.client_no_context_takeover = true,
                (CLIENT_MWB, None) => {}
                (CLIENT_MWB | SERVER_MWB, Some(v))
                    if v.parse::<u8>().is_ok_and(|b| (8..=15).contains(&b))
                        && (name == CLIENT_MWB || v == "15") => {}
                _ => continue 'offer,
            }
        }
        let mut answer = NAME.to_owned();
        for (on, name) in [
            (agreed.server_no_context_takeover, SERVER_NCT),
            (agreed.client_no_context_takeover, CLIENT_NCT),
        ] {
            if on {
                answer.push_str("; ");
                answer.push_str(name);
            }
        }
        return Some((agreed, answer));
    }
    None
}

/// The client's permessage-deflate extension for soketto (the measurement
/// client, [`crate::transport::client`]).
pub struct PerMessageDeflate {
    enabled: Option<Agreed>,
    params: Vec<Param<'static>>,
    compress: Compress,
    inflater: Option<Inflater>,
    fragmented: bool,
    out: Vec<u8>,
    max_message: usize,
}

impl std::fmt::Debug for PerMessageDeflate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PerMessageDeflate")
            .field("enabled", &self.enabled)
            .finish_non_exhaustive()
    }
}

impl PerMessageDeflate {
    /// A client offering `mode` (which must compress); inflated messages
    /// over `max_message` bytes are refused.
    pub fn client(mode: Compression, max_message: usize) -> Self {
        let params = if mode.takeover() {
            Vec::new()
        } else {
            vec![Param::new(SERVER_NCT), Param::new(CLIENT_NCT)]
        };
        Self {
            enabled: None,
            params,
            compress: compressor(),
            inflater: None,
            fragmented: false,
            out: Vec::new(),
            max_message,
        }
    }

    /// The agreement, once the handshake enabled the extension.
    pub fn agreed(&self) -> Option<Agreed> {
        self.enabled
    }

    fn configure_client(&mut self, params: &[Param<'_>]) -> Option<Agreed> {
        let mut agreed = Agreed {
            server_no_context_takeover: false,
            client_no_context_takeover: false,
        };
        for p in params {
            match p.name() {
                SERVER_NCT => agreed.server_no_context_takeover = true,
                CLIENT_NCT => agreed.client_no_context_takeover = true,
                SERVER_MWB => {}
                CLIENT_MWB if p.value().is_none_or(|v| v == "15") => {}
                _ => return None,
            }
        }
        // From here on params() reports the server's answer.
        self.params = params
            .iter()
            .map(|p| {
                let mut q = Param::new(p.name().to_owned());
                q.set_value(p.value().map(str::to_owned));
                q
            })
            .collect();
        Some(agreed)
    }
}

/// The agreement of an extension after the handshake: `None` unless it is
/// an enabled permessage-deflate. Reads the parameters the server answered
/// with (a [`PerMessageDeflate`] client keeps them as its `params`).
pub fn agreement(ext: &dyn Extension) -> Option<Agreed> {
    if !ext.is_enabled() || !ext.name().eq_ignore_ascii_case(NAME) {
        return None;
    }
    let has = |n: &str| ext.params().iter().any(|p| p.name() == n);
    Some(Agreed {
        server_no_context_takeover: has(SERVER_NCT),
        client_no_context_takeover: has(CLIENT_NCT),
    })
}

impl Extension for PerMessageDeflate {
    fn is_enabled(&self) -> bool {
        self.enabled.is_some()
    }

    fn name(&self) -> &str {
        NAME
    }

    fn params(&self) -> &[Param<'_>] {
        &self.params
    }

    fn configure(&mut self, params: &[Param<'_>]) -> Result<(), BoxedError> {
        if self.enabled.is_some() {
            return Ok(());
        }
        let agreed = self
            .configure_client(params)
            .ok_or_else(|| format!("unsupported {NAME} response {params:?}"))?;
        self.inflater = Some(Inflater::new(agreed.server_no_context_takeover));
        self.enabled = Some(agreed);
        Ok(())
    }

    fn encode(&mut self, header: &mut Header, data: &mut Storage<'_>) -> Result<(), BoxedError> {
        let Some(agreed) = self.enabled else {
            return Ok(());
        };
        if data.as_ref().is_empty() || !matches!(header.opcode(), OpCode::Text | OpCode::Binary) {
            return Ok(());
        }
        if agreed.client_no_context_takeover {
            self.compress.reset();
        }
        self.out.clear();
        deflate_message(&mut self.compress, data.as_ref(), &mut self.out)?;
        *data = Storage::Owned(std::mem::take(&mut self.out));
        header.set_rsv1(true);
        header.set_payload_len(data.as_ref().len());
        Ok(())
    }

    /// soketto calls this on a fragmented message's first frame (RSV1 says
    /// whether it is compressed) and again on its last frame with every
    /// fragment's payload; an unfragmented message is one call.
    fn decode(&mut self, header: &mut Header, data: &mut Vec<u8>) -> Result<(), BoxedError> {
        let Some(inflater) = self.inflater.as_mut() else {
            return Ok(());
        };
        if !header.is_fin() {
            self.fragmented = header.is_rsv1();
            return Ok(());
        }
        let compressed = header.is_rsv1() || std::mem::take(&mut self.fragmented);
        if !compressed {
            return Ok(());
        }
        inflater.message(data, self.max_message)?;
        header.set_rsv1(false);
        header.set_payload_len(data.len());
        Ok(())
    }

    fn reserved_bits(&self) -> (bool, bool, bool) {
        (true, false, false)
    }
}

/// Payload bytes of `message` compressed alone, as [`Compression::Deflate`]
/// sends it: `compress` (from [`crate::transport::deflater::compressor`] or
/// [`crate::transport::deflater::Deflater::compressor`]) is
/// reset first, `out` is scratch.
pub fn deflated_alone(
    compress: &mut impl RawDeflate,
    message: &[u8],
    out: &mut Vec<u8>,
) -> Result<usize, std::io::Error> {
    compress.reset_stream();
    out.clear();
    deflate_message(compress, message, out)?;
    Ok(out.len())
}

/// Compresses one message as soketto's `Deflate` does: all input with no
/// flush, then a sync flush until the output ends in [`TAIL`], which is then
/// removed. `compress` is reset by the caller when the context is not taken
/// over. The same path for every [`RawDeflate`]: only the raw call differs.
pub fn deflate_message(
    compress: &mut impl RawDeflate,
    data: &[u8],
    out: &mut Vec<u8>,
) -> Result<(), std::io::Error> {
    let start_in = compress.total_in();
    let start = out.len();
    out.reserve(data.len() / 2 + 64);
    loop {
        let used =
            usize::try_from(compress.total_in() - start_in).map_err(std::io::Error::other)?;
        if used == data.len() {
            break;
        }
        match compress.step(&data[used..], out, false)? {
            Status::BufError => out.reserve(4096),
            Status::Ok | Status::StreamEnd => {
                if out.len() == out.capacity() {
                    out.reserve(4096);
                }
            }
        }
    }
    // Room for the whole flush at once: zlib repeats the flush (one more
    // empty stored block, 5 bytes) when a sync flush runs out of output space
    // and is called again, which soketto's 5-byte reserve provokes on large
    // messages. A deflate block never exceeds its input by more than ~0.1 %.
    out.reserve(data.len() + (data.len() >> 10) + 64);
    loop {
        out.reserve(64);
        compress.step(&[], out, true)?;
        if out[start..].ends_with(&TAIL) {
            break;
        }
    }
    out.truncate(out.len() - TAIL.len());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::deflater::Deflater;
    use std::io::Write;

    fn reference(data: &[u8]) -> Vec<u8> {
        let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), LEVEL);
        enc.write_all(data).unwrap();
        enc.flush().unwrap();
        let mut out = enc.get_ref().clone();
        assert!(out.ends_with(&TAIL));
        out.truncate(out.len() - TAIL.len());
        out
    }

    #[test]
    fn a_message_alone_ignores_the_previous_context() {
        let first = br#"["EVENT","sub",{"content":"hello hello hello"}]"#;
        let second = br#"["EVENT","sub",{"content":"hello hello again"}]"#;
        let (mut c, mut out) = (compressor(), Vec::new());
        assert_eq!(
            deflated_alone(&mut c, first, &mut out).unwrap(),
            reference(first).len()
        );
        assert_eq!(
            deflated_alone(&mut c, second, &mut out).unwrap(),
            reference(second).len()
        );
        assert_eq!(out, reference(second));
    }

    #[test]
    fn a_large_message_is_one_flush_like_the_model() {
        // Text with little repetition, large enough that a sync flush emits
        // far more than a small output reserve.
        let mut data = Vec::new();
        let mut x = 1u64;
        while data.len() < 300_000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            data.extend_from_slice(format!("{:x} ", x >> 20).as_bytes());
        }
        let mut c = compressor();
        let mut out = Vec::new();
        deflate_message(&mut c, &data, &mut out).unwrap();
        assert_eq!(out, reference(&data));
        let mut d = Decompress::new_with_window_bits(false, WINDOW_BITS);
        out.extend_from_slice(&TAIL);
        let mut back = Vec::with_capacity(data.len() + 1);
        d.decompress_vec(&out, &mut back, FlushDecompress::Sync)
            .unwrap();
        assert_eq!(back, data);
    }

    #[test]
    fn the_zlib_compressor_is_the_client_one() {
        // `Deflater::Zlib` through the shared path gives the reference bytes.
        let data = br#"["EVENT","sub",{"content":"hello hello hello"}]"#;
        let (mut c, mut out) = (Deflater::Zlib.compressor(), Vec::new());
        deflated_alone(&mut c, data, &mut out).unwrap();
        assert_eq!(out, reference(data));
    }

    #[test]
    fn zlib_rs_alone_resets_its_context() {
        let first = br#"["EVENT","sub",{"content":"hello hello hello"}]"#;
        let mut c = Deflater::ZlibRs.compressor();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        deflated_alone(&mut c, first, &mut a).unwrap();
        deflated_alone(&mut c, first, &mut b).unwrap();
        assert_eq!(a, b);
        // Kept context: the repeat is a back reference, shorter.
        let mut kept = Vec::new();
        deflate_message(&mut c, first, &mut kept).unwrap();
        assert!(kept.len() < a.len(), "{} vs {}", kept.len(), a.len());
    }
}

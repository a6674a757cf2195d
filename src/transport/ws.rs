//! The relay's side of an RFC 6455 connection after the handshake: frames
//! in ([`FrameReader`]) and out ([`FrameWriter`]), over soketto's frame
//! header codec (`soketto::base::Codec`).
//!
//! soketto's own connection is not used on the relay: it sends no close
//! status other than 1000, accepts unmasked client frames and cannot read a
//! compressed message split over several frames. Here every violation by
//! the peer becomes a [`WsError::Fail`] carrying the close status the relay
//! answers with (RFC 6455, 7.4.1): 1002 for a protocol error (unmasked or
//! reserved bits, a continuation out of place, a bad close frame, a
//! payload length not in its minimal form), 1007 for
//! invalid UTF-8 in a text message or deflate data that does not inflate,
//! 1009 for a message over the limit, compressed or inflated.
//!
//! Memory per connection is bounded: the read buffer grows with bytes that
//! have arrived, never with a length a header claims, and a message stops
//! at `max_message` bytes before and after inflating.

use soketto::Parsing;
use soketto::base::{Codec, Header, OpCode};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

use crate::transport::deflate::{self, Agreed, InflateError, Inflater};
use crate::transport::deflater::{Compressor, Deflater, RawDeflate};

/// Close statuses of RFC 6455, 7.4.1.
pub mod status {
    /// Normal closure.
    pub const NORMAL: u16 = 1000;
    /// The endpoint is going away (idle timeout, shutdown).
    pub const GOING_AWAY: u16 = 1001;
    /// A protocol error.
    pub const PROTOCOL: u16 = 1002;
    /// A data type the endpoint does not accept.
    pub const UNSUPPORTED: u16 = 1003;
    /// Data inconsistent with the message type (bad UTF-8, bad deflate).
    pub const INVALID_DATA: u16 = 1007;
    /// A message too big to process.
    pub const TOO_BIG: u16 = 1009;
}

/// A message or control frame from the peer.
#[derive(Debug, PartialEq, Eq)]
pub enum Incoming {
    /// A whole text message (UTF-8 checked), in the caller's buffer.
    Text,
    /// A whole binary message, in the caller's buffer.
    Binary,
    /// A ping with its payload.
    Ping(Vec<u8>),
    /// A pong; its payload is dropped.
    Pong,
    /// The peer's close frame: its status, if any.
    Close(Option<u16>),
}

/// Why reading stopped.
#[derive(Debug, thiserror::Error)]
pub enum WsError {
    /// The socket failed or ended.
    #[error("socket: {0}")]
    Io(#[from] std::io::Error),
    /// The peer broke the protocol; the relay closes with `status`.
    #[error("{reason} (close {status})")]
    Fail {
        /// Close status to answer with.
        status: u16,
        /// What was wrong, for the close frame and the log.
        reason: String,
    },
}

fn fail(status: u16, reason: impl Into<String>) -> WsError {
    WsError::Fail {
        status,
        reason: reason.into(),
    }
}

/// Reads client frames: masks, fragments, control frames, inflation.
pub struct FrameReader<R> {
    reader: R,
    buf: Vec<u8>,
    codec: Codec,
    inflater: Option<Inflater>,
    max_message: usize,
    in_message: bool,
    /// The opcode and RSV1 of a fragmented message in progress.
    fragment: Option<(OpCode, bool)>,
}

const READ_CHUNK: usize = 8 * 1024;

impl<R: AsyncRead + Unpin> FrameReader<R> {
    /// Reads from `reader`, starting with `pending` (bytes that arrived with
    /// the handshake); `agreed` enables RSV1 and inflation.
    pub fn new(reader: R, pending: Vec<u8>, agreed: Option<Agreed>, max_message: usize) -> Self {
        let mut codec = Codec::new();
        codec.set_max_data_size(max_message);
        if agreed.is_some() {
            codec.add_reserved_bits((true, false, false));
        }
        Self {
            reader,
            buf: pending,
            codec,
            inflater: agreed.map(|a| Inflater::new(a.client_no_context_takeover)),
            max_message,
            in_message: false,
            fragment: None,
        }
    }

    /// Whether part of a frame has arrived and the rest has not (a
    /// [`Self::next`] cancelled now would lose it).
    pub fn mid_message(&self) -> bool {
        self.in_message
    }

    async fn fill(&mut self) -> std::io::Result<()> {
        self.buf.reserve(READ_CHUNK);
        if self.reader.read_buf(&mut self.buf).await? == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        self.in_message = true;
        Ok(())
    }

    async fn header(&mut self) -> Result<Header, WsError> {
        loop {
            check_length(&self.buf)?;
            match self.codec.decode_header(&self.buf) {
                Ok(Parsing::Done { value, offset }) => {
                    self.buf.drain(..offset);
                    return Ok(value);
                }
                Ok(Parsing::NeedMore(_)) => self.fill().await?,
                Err(soketto::base::Error::PayloadTooLarge { actual, maximum }) => {
                    return Err(fail(
                        status::TOO_BIG,
                        format!("frame of {actual} bytes exceeds {maximum}"),
                    ));
                }
                Err(e) => return Err(fail(status::PROTOCOL, e.to_string())),
            }
        }
    }

    /// Appends `header`'s payload, unmasked, to `out`.
    async fn payload(&mut self, header: &Header, out: &mut Vec<u8>) -> std::io::Result<()> {
        let mut left = header.payload_len();
        let start = out.len();
        while left > 0 {
            if self.buf.is_empty() {
                self.fill().await?;
            }
            let n = left.min(self.buf.len());
            out.extend(self.buf.drain(..n));
            left -= n;
        }
        Codec::apply_mask(header, &mut out[start..]);
        Ok(())
    }

    /// The next message or control frame. A message lands in `msg`, which
    /// the caller passes again after a control frame: a control frame may
    /// arrive between the fragments of a message (RFC 6455, 5.4).
    pub async fn next(&mut self, msg: &mut Vec<u8>) -> Result<Incoming, WsError> {
        if self.fragment.is_none() {
            msg.clear();
        }
        self.in_message = !self.buf.is_empty();
        let r = self.message(msg).await;
        self.in_message = false;
        r
    }

    async fn message(&mut self, msg: &mut Vec<u8>) -> Result<Incoming, WsError> {
        loop {
            let header = self.header().await?;
            if !header.is_masked() {
                return Err(fail(status::PROTOCOL, "unmasked client frame"));
            }
            let op = header.opcode();
            if op.is_control() {
                let mut body = Vec::with_capacity(header.payload_len());
                self.payload(&header, &mut body).await?;
                if header.is_rsv1() {
                    return Err(fail(status::PROTOCOL, "RSV1 on a control frame"));
                }
                match op {
                    OpCode::Ping => return Ok(Incoming::Ping(body)),
                    OpCode::Pong => return Ok(Incoming::Pong),
                    _ => return close_frame(&body),
                }
            }
            match (op, self.fragment) {
                (OpCode::Continue, None) => {
                    return Err(fail(status::PROTOCOL, "continuation without a message"));
                }
                (OpCode::Continue, Some(_)) if header.is_rsv1() => {
                    return Err(fail(status::PROTOCOL, "RSV1 on a continuation frame"));
                }
                (OpCode::Continue, Some(_)) => {}
                (_, Some(_)) => {
                    return Err(fail(
                        status::PROTOCOL,
                        "new message inside a fragmented one",
                    ));
                }
                (op, None) => self.fragment = Some((op, header.is_rsv1())),
            }
            if msg.len() + header.payload_len() > self.max_message {
                return Err(fail(
                    status::TOO_BIG,
                    format!("message exceeds {} bytes", self.max_message),
                ));
            }
            self.payload(&header, msg).await?;
            if header.is_fin() {
                break;
            }
        }
        let (op, compressed) = self.fragment.take().expect("a data frame was read");
        if compressed {
            let inflater = self
                .inflater
                .as_mut()
                .expect("RSV1 passes only when agreed");
            inflater
                .message(msg, self.max_message)
                .map_err(|e| match e {
                    InflateError::TooBig { .. } => fail(status::TOO_BIG, e.to_string()),
                    InflateError::Bad { .. } => fail(status::INVALID_DATA, e.to_string()),
                })?;
        }
        if op == OpCode::Text {
            if let Err(e) = simdutf8::compat::from_utf8(msg) {
                return Err(fail(
                    status::INVALID_DATA,
                    format!("text message is not UTF-8 at byte {}", e.valid_up_to()),
                ));
            }
            Ok(Incoming::Text)
        } else {
            Ok(Incoming::Binary)
        }
    }
}

/// The extended payload length at the start of `buf`, once it has arrived,
/// must be minimal and a 64-bit one must have its top bit clear (RFC 6455,
/// 5.2); soketto checks neither.
fn check_length(buf: &[u8]) -> Result<(), WsError> {
    let why = match buf {
        [_, b, hi, lo, ..] if b & 0x7f == 126 => {
            let n = u16::from_be_bytes([*hi, *lo]);
            (n < 126).then(|| format!("non-minimal 16-bit length {n}"))
        }
        [_, b, ext @ ..] if b & 0x7f == 127 && ext.len() >= 8 => {
            let mut be = [0u8; 8];
            be.copy_from_slice(&ext[..8]);
            match u64::from_be_bytes(be) {
                n if n >> 63 != 0 => Some("64-bit length with its top bit set".to_owned()),
                n if n < 1 << 16 => Some(format!("non-minimal 64-bit length {n}")),
                _ => None,
            }
        }
        _ => None,
    };
    why.map_or(Ok(()), |why| Err(fail(status::PROTOCOL, why)))
}

fn close_frame(body: &[u8]) -> Result<Incoming, WsError> {
    match body {
        [] => Ok(Incoming::Close(None)),
        [_] => Err(fail(status::PROTOCOL, "close frame of one byte")),
        [a, b, reason @ ..] => {
            let code = u16::from_be_bytes([*a, *b]);
            let valid = matches!(code, 1000..=1003 | 1007..=1014 | 3000..=4999);
            if !valid {
                return Err(fail(status::PROTOCOL, format!("close status {code}")));
            }
            if std::str::from_utf8(reason).is_err() {
                return Err(fail(status::INVALID_DATA, "close reason is not UTF-8"));
            }
            Ok(Incoming::Close(Some(code)))
        }
    }
}

/// Writes relay frames (unmasked), compressing data messages when agreed.
pub struct FrameWriter<W> {
    writer: W,
    codec: Codec,
    compress: Option<(Compressor, bool)>,
    frame: Vec<u8>,
    deflated: Vec<u8>,
}

impl<W: AsyncWrite + Unpin> FrameWriter<W> {
    /// Writes to `writer`; `agreed` turns on compression with `deflater`.
    pub fn new(writer: W, agreed: Option<Agreed>, deflater: Deflater) -> Self {
        Self {
            writer,
            codec: Codec::new(),
            compress: agreed.map(|a| (deflater.compressor(), a.server_no_context_takeover)),
            frame: Vec::new(),
            deflated: Vec::new(),
        }
    }

    /// Writes one frame, header and payload in one write.
    async fn frame(&mut self, header: &Header, payload: &[u8]) -> std::io::Result<()> {
        write_frame(
            &mut self.writer,
            &mut self.codec,
            &mut self.frame,
            header,
            payload,
        )
        .await
    }

    /// One unfragmented text or binary message.
    pub async fn message(&mut self, binary: bool, payload: &[u8]) -> std::io::Result<()> {
        let mut header = Header::new(if binary { OpCode::Binary } else { OpCode::Text });
        let compressed = match self.compress.as_mut() {
            Some((compress, reset)) if !payload.is_empty() => {
                if *reset {
                    compress.reset_stream();
                }
                self.deflated.clear();
                deflate::deflate_message(compress, payload, &mut self.deflated)?;
                true
            }
            _ => false,
        };
        header.set_rsv1(compressed);
        let body = if compressed {
            &self.deflated[..]
        } else {
            payload
        };
        header.set_payload_len(body.len());
        write_frame(
            &mut self.writer,
            &mut self.codec,
            &mut self.frame,
            &header,
            body,
        )
        .await
    }

    /// A control frame (`payload` at most 125 bytes).
    async fn control(&mut self, op: OpCode, payload: &[u8]) -> std::io::Result<()> {
        let mut header = Header::new(op);
        let payload = &payload[..payload.len().min(125)];
        header.set_payload_len(payload.len());
        self.frame(&header, payload).await?;
        self.writer.flush().await
    }

    /// Answers a ping.
    pub async fn pong(&mut self, payload: &[u8]) -> std::io::Result<()> {
        self.control(OpCode::Pong, payload).await
    }

    /// Pings the peer.
    pub async fn ping(&mut self) -> std::io::Result<()> {
        self.control(OpCode::Ping, b"binostr").await
    }

    /// Sends a close frame with `status` and `reason` (cut to fit 123 bytes
    /// on a character boundary) and shuts the socket's write side.
    pub async fn close(&mut self, status: u16, reason: &str) -> std::io::Result<()> {
        let mut end = reason.len().min(123);
        while !reason.is_char_boundary(end) {
            end -= 1;
        }
        let mut body = status.to_be_bytes().to_vec();
        body.extend_from_slice(&reason.as_bytes()[..end]);
        self.control(OpCode::Close, &body).await?;
        self.writer.shutdown().await
    }

    /// Flushes buffered bytes.
    pub async fn flush(&mut self) -> std::io::Result<()> {
        self.writer.flush().await
    }
}

async fn write_frame<W: AsyncWrite + Unpin>(
    writer: &mut W,
    codec: &mut Codec,
    frame: &mut Vec<u8>,
    header: &Header,
    payload: &[u8],
) -> std::io::Result<()> {
    frame.clear();
    frame.extend_from_slice(codec.encode_header(header));
    frame.extend_from_slice(payload);
    let r = writer.write_all(frame).await;
    if frame.capacity() > 1 << 20 {
        *frame = Vec::new(); // a large message's buffer is not kept
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::Compression;

    /// EVENT messages of generated events, a repeat, a one-byte message,
    /// and a large one with little repetition.
    fn messages() -> Vec<Vec<u8>> {
        let mut msgs: Vec<Vec<u8>> = crate::corpus::generate::generate(11, 40)
            .iter()
            .map(|e| format!(r#"["EVENT","sub",{}]"#, e.to_json()).into_bytes())
            .collect();
        msgs.push(msgs[3].clone());
        msgs.push(b"x".to_vec());
        let mut big = Vec::new();
        let mut x = 7u64;
        while big.len() < 200_000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            big.extend_from_slice(format!("{:x} ", x >> 20).as_bytes());
        }
        msgs.push(big);
        msgs
    }

    fn agreed(mode: Compression) -> Agreed {
        Agreed {
            server_no_context_takeover: !mode.takeover(),
            client_no_context_takeover: !mode.takeover(),
        }
    }

    /// The payloads the relay's writer puts on the wire for `msgs`, each
    /// with its RSV1 bit.
    fn relay_payloads(
        deflater: Deflater,
        mode: Compression,
        msgs: &[Vec<u8>],
    ) -> Vec<(bool, Vec<u8>)> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let mut w = FrameWriter::new(Vec::new(), Some(agreed(mode)), deflater);
        rt.block_on(async {
            for m in msgs {
                w.message(false, m).await.unwrap();
            }
        });
        let wire = w.writer;
        let mut codec = Codec::new();
        codec.add_reserved_bits((true, false, false));
        codec.set_max_data_size(usize::MAX);
        let mut at = 0;
        let mut out = Vec::new();
        while at < wire.len() {
            let Parsing::Done { value, offset } = codec.decode_header(&wire[at..]).unwrap() else {
                panic!("a partial frame header at byte {at}");
            };
            assert!(value.is_fin() && !value.is_masked());
            at += offset;
            let end = at + value.payload_len();
            out.push((value.is_rsv1(), wire[at..end].to_vec()));
            at = end;
        }
        out
    }

    #[test]
    fn every_deflater_round_trips_in_both_modes() {
        let msgs = messages();
        for deflater in Deflater::ALL {
            for mode in [Compression::Deflate, Compression::DeflateContext] {
                let payloads = relay_payloads(deflater, mode, &msgs);
                assert_eq!(payloads.len(), msgs.len());
                let mut inflater = Inflater::new(!mode.takeover());
                for (i, ((rsv1, body), m)) in payloads.into_iter().zip(&msgs).enumerate() {
                    let what = format!("{deflater} {} message {i}", mode.name());
                    assert!(rsv1, "{what}");
                    assert!(!body.ends_with(&deflate::TAIL), "{what}: tail kept");
                    let mut data = body;
                    inflater.message(&mut data, usize::MAX).unwrap();
                    assert!(data == *m, "{what}: inflates to other bytes");
                }
            }
        }
    }

    #[test]
    fn zlib_rs_compresses_other_bytes_than_zlib() {
        let msgs = messages();
        for mode in [Compression::Deflate, Compression::DeflateContext] {
            let zlib = relay_payloads(Deflater::Zlib, mode, &msgs);
            let rs = relay_payloads(Deflater::ZlibRs, mode, &msgs);
            let differ = zlib.iter().zip(&rs).filter(|(a, b)| a != b).count();
            assert!(
                differ >= msgs.len() / 2,
                "{}: {differ} of {} messages differ",
                mode.name(),
                msgs.len()
            );
        }
    }

    #[test]
    fn without_agreement_nothing_is_compressed() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        for deflater in Deflater::ALL {
            let mut w = FrameWriter::new(Vec::new(), None, deflater);
            rt.block_on(w.message(false, b"hello hello hello")).unwrap();
            assert_eq!(w.writer, b"\x81\x11hello hello hello");
        }
    }
}

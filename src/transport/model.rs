//! A pure model of the bytes one exchange puts on the wire, to check the
//! socket counts against.
//!
//! Each message is compressed by the sender's implementation, sync-flushed,
//! and its trailing `00 00 ff ff` removed (RFC 7692, 7.2.1); one encoder per
//! message without context takeover, one per direction with it. The relay's
//! messages follow its [`Deflater`]: zlib through
//! `flate2::write::DeflateEncoder`, or zlib-rs's `Deflate` given all input
//! then one sync flush into room for the whole output (raw deflate, the
//! extension's [`LEVEL`], 15-bit window, either way); the client's REQ is
//! always zlib. Neither goes through the relay's [`deflate_message`]
//! loop. Frame headers (RFC 6455, 5.2): 2 bytes, plus 2 for a
//! 126..=65535-byte payload or 8 above, plus the 4-byte mask of client
//! frames.
//!
//! [`deflate_message`]: crate::transport::deflate::deflate_message

use std::io::Write;

use flate2::write::DeflateEncoder;

use crate::transport::deflate::{LEVEL, TAIL, WINDOW_BITS};
use crate::transport::deflater::Deflater;
use crate::transport::envelope;
use crate::transport::relay::Store;
use crate::transport::{Compression, SUB, TransportError};

/// Bytes of one RFC 6455 frame header.
pub fn frame_header(payload: usize, masked: bool) -> u64 {
    let len = match payload {
        0..=125 => 0,
        126..=65535 => 2,
        _ => 8,
    };
    2 + len + if masked { 4 } else { 0 }
}

enum Encoder {
    Zlib(DeflateEncoder<Vec<u8>>),
    ZlibRs(zlib_rs::Deflate),
}

impl Encoder {
    fn new(deflater: Deflater) -> Self {
        match deflater {
            Deflater::Zlib => Encoder::Zlib(DeflateEncoder::new(Vec::new(), LEVEL)),
            Deflater::ZlibRs => Encoder::ZlibRs(zlib_rs::Deflate::new(
                LEVEL.level() as i32,
                false,
                WINDOW_BITS,
            )),
        }
    }

    /// `msg` compressed and sync-flushed, `00 00 ff ff` included.
    fn flushed(&mut self, msg: &[u8]) -> std::io::Result<Vec<u8>> {
        match self {
            Encoder::Zlib(enc) => {
                enc.write_all(msg)?;
                enc.flush()?;
                Ok(std::mem::take(enc.get_mut()))
            }
            Encoder::ZlibRs(enc) => {
                use zlib_rs::DeflateFlush::{NoFlush, SyncFlush};
                let fail = |what: &str| std::io::Error::other(format!("zlib-rs model: {what}"));
                let mut out = vec![0; 2 * msg.len() + 256];
                let (in0, out0) = (enc.total_in(), enc.total_out());
                enc.compress(msg, &mut out, NoFlush)
                    .map_err(|e| fail(e.as_str()))?;
                let at = usize::try_from(enc.total_out() - out0).map_err(std::io::Error::other)?;
                enc.compress(&[], &mut out[at..], SyncFlush)
                    .map_err(|e| fail(e.as_str()))?;
                if enc.total_in() - in0 != msg.len() as u64 {
                    return Err(fail("input left over"));
                }
                let n = usize::try_from(enc.total_out() - out0).map_err(std::io::Error::other)?;
                if n == out.len() {
                    return Err(fail("output buffer full"));
                }
                out.truncate(n);
                Ok(out)
            }
        }
    }
}

struct Direction {
    mode: Compression,
    deflater: Deflater,
    masked: bool,
    encoder: Option<Encoder>,
    bytes: u64,
}

impl Direction {
    fn new(mode: Compression, deflater: Deflater, masked: bool) -> Self {
        Self {
            mode,
            deflater,
            masked,
            encoder: None,
            bytes: 0,
        }
    }

    fn message(&mut self, msg: &[u8]) -> std::io::Result<()> {
        let payload = if self.mode == Compression::None || msg.is_empty() {
            msg.len()
        } else {
            if !self.mode.takeover() {
                self.encoder = None;
            }
            let deflater = self.deflater;
            let out = self
                .encoder
                .get_or_insert_with(|| Encoder::new(deflater))
                .flushed(msg)?;
            if !out.ends_with(&TAIL) {
                return Err(std::io::Error::other("sync flush without 00 00 ff ff"));
            }
            out.len() - TAIL.len()
        };
        self.bytes += frame_header(payload, self.masked) + payload as u64;
        Ok(())
    }
}

/// Modelled bytes of one exchange after the handshake, up to EOSE: `read`
/// is relay → client (every EVENT of `hits`, then EOSE, compressed by
/// `deflater`), `written` client → relay (the REQ, compressed by zlib).
pub fn exchange(
    store: &Store,
    hits: &[usize],
    filters: &[serde_json::Value],
    mode: Compression,
    deflater: Deflater,
) -> Result<crate::transport::count::Bytes, TransportError> {
    let mut down = Direction::new(mode, deflater, false);
    let mut msg = Vec::new();
    for &i in hits {
        envelope::event(store.framing, SUB, &store.records[i], &mut msg)?;
        down.message(&msg)?;
    }
    envelope::eose(store.framing, SUB, &mut msg)?;
    down.message(&msg)?;
    let mut up = Direction::new(mode, Deflater::Zlib, true);
    up.message(envelope::req(SUB, filters).as_bytes())?;
    Ok(crate::transport::count::Bytes {
        read: down.bytes,
        written: up.bytes,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn header_sizes() {
        use super::frame_header;
        assert_eq!(frame_header(125, false), 2);
        assert_eq!(frame_header(126, false), 4);
        assert_eq!(frame_header(65535, true), 8);
        assert_eq!(frame_header(65536, false), 10);
        assert_eq!(frame_header(0, true), 6);
    }
}

//! A pure flate2 model of the bytes one exchange puts on the wire, to check
//! the socket counts against.
//!
//! Each message is compressed with `flate2::write::DeflateEncoder` (raw
//! deflate, the extension's [`LEVEL`], 15-bit window), sync-flushed, and its
//! trailing `00 00 ff ff` removed (RFC 7692, 7.2.1); one encoder per message
//! without context takeover, one per direction with it. Frame headers
//! (RFC 6455, 5.2): 2 bytes, plus 2 for a 126..=65535-byte payload or 8
//! above, plus the 4-byte mask of client frames.

use std::io::Write;

use flate2::write::DeflateEncoder;

use crate::transport::deflate::{LEVEL, TAIL};
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

struct Direction {
    mode: Compression,
    masked: bool,
    encoder: Option<DeflateEncoder<Vec<u8>>>,
    bytes: u64,
}

impl Direction {
    fn new(mode: Compression, masked: bool) -> Self {
        Self {
            mode,
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
            let enc = self
                .encoder
                .get_or_insert_with(|| DeflateEncoder::new(Vec::new(), LEVEL));
            enc.write_all(msg)?;
            enc.flush()?;
            let out = std::mem::take(enc.get_mut());
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
/// is relay → client (every EVENT of `hits`, then EOSE), `written` client →
/// relay (the REQ).
pub fn exchange(
    store: &Store,
    hits: &[usize],
    filters: &[serde_json::Value],
    mode: Compression,
) -> Result<crate::transport::count::Bytes, TransportError> {
    let mut down = Direction::new(mode, false);
    let mut msg = Vec::new();
    for &i in hits {
        envelope::event(store.framing, SUB, &store.records[i], &mut msg)?;
        down.message(&msg)?;
    }
    envelope::eose(store.framing, SUB, &mut msg)?;
    down.message(&msg)?;
    let mut up = Direction::new(mode, true);
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

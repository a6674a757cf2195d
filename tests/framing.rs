//! RFC 6455, section 5, against `binostr relay`: every frame a client must
//! not send fails the connection with 1002 (protocol error) unless noted.
//! One test per case; each checks the close status the client reads and
//! the relay's report of that connection (`End::RelayClosed`, the status,
//! the reason). Frames with a hand-made length field go through [`raw`].

use std::io::Write;
use std::time::Duration;

use binostr::transport::relay::{Config, ConnectionReport, End, Relay};

mod common;
use common::{Ws, events, relay};

const PROTOCOL: u16 = 1002;
const INVALID_DATA: u16 = 1007;
const TOO_BIG: u16 = 1009;

/// Whether permessage-deflate is negotiated.
const PLAIN: bool = false;
const DEFLATE: bool = true;

/// A relay, and its connection reports matched to clients by address.
struct Harness {
    r: Relay,
    early: Vec<ConnectionReport>,
}

impl Harness {
    fn new() -> Self {
        Self::with(Config::public())
    }

    fn with(config: Config) -> Self {
        Self {
            r: relay(config, &["json"], &events(5)),
            early: Vec::new(),
        }
    }

    fn connect(&self, deflate: bool) -> Ws {
        if deflate {
            Ws::deflated(self.r.addr, false)
        } else {
            Ws::connect(self.r.addr)
        }
    }

    /// The relay's report on the connection from `peer`.
    fn report(&mut self, peer: &str) -> ConnectionReport {
        if let Some(i) = self.early.iter().position(|r| r.peer == peer) {
            return self.early.swap_remove(i);
        }
        loop {
            let r = self
                .r
                .closed
                .recv_timeout(Duration::from_secs(10))
                .expect("a connection report");
            if r.peer == peer {
                return r;
            }
            self.early.push(r);
        }
    }

    /// Opens a connection, lets `send` write to it, then expects the relay
    /// to close it with `status` and a reason containing `reason`.
    fn fails(
        &mut self,
        what: &str,
        deflate: bool,
        status: u16,
        reason: &str,
        send: impl FnOnce(&mut Ws),
    ) {
        let mut ws = self.connect(deflate);
        let peer = ws.s.local_addr().unwrap().to_string();
        send(&mut ws);
        assert_eq!(ws.close_status(), Some(status), "{what}");
        let report = self.report(&peer);
        assert_eq!(report.end, End::RelayClosed, "{what}: {report:?}");
        assert_eq!(report.status, Some(status), "{what}: {report:?}");
        let why = report.error.unwrap_or_default();
        assert!(why.contains(reason), "{what}: {why:?}");
    }
}

const REQ: &[u8] = br#"["REQ","a",{}]"#;

/// A REQ padded with spaces to `n` bytes (at least `REQ.len()`).
fn req_of(n: usize) -> Vec<u8> {
    let mut m = REQ[..REQ.len() - 1].to_vec();
    m.resize(n - 1, b' ');
    m.push(b']');
    m
}

/// A 16-bit extended length field (byte 1's 126, then `n`).
fn len16(n: u16) -> Vec<u8> {
    [&[126][..], &n.to_be_bytes()].concat()
}

/// A 64-bit extended length field (byte 1's 127, then `n`).
fn len64(n: u64) -> Vec<u8> {
    [&[127][..], &n.to_be_bytes()].concat()
}

/// Sends a masked frame whose length field is `len` as given: byte 1's
/// low 7 bits, then any extended length bytes.
fn raw(ws: &mut Ws, first: u8, len: &[u8], payload: &[u8]) {
    let key = [7u8, 1, 9, 3];
    let mut f = vec![first, 0x80 | len[0]];
    f.extend_from_slice(&len[1..]);
    f.extend_from_slice(&key);
    f.extend(payload.iter().enumerate().map(|(i, b)| b ^ key[i % 4]));
    ws.s.write_all(&f).unwrap();
}

#[test]
fn unmasked_client_frame() {
    Harness::new().fails("unmasked", PLAIN, PROTOCOL, "unmasked", |ws| {
        ws.frame(0x81, REQ, false)
    });
}

#[test]
fn rsv2_set() {
    let mut h = Harness::new();
    for deflate in [PLAIN, DEFLATE] {
        let what = format!("RSV2, deflate {deflate}");
        h.fails(&what, deflate, PROTOCOL, "reserved bit: 2", |ws| {
            ws.frame(0xa1, REQ, true)
        });
    }
}

#[test]
fn rsv3_set() {
    let mut h = Harness::new();
    for deflate in [PLAIN, DEFLATE] {
        let what = format!("RSV3, deflate {deflate}");
        h.fails(&what, deflate, PROTOCOL, "reserved bit: 3", |ws| {
            ws.frame(0x91, REQ, true)
        });
    }
}

#[test]
fn rsv1_without_deflate() {
    Harness::new().fails("RSV1", PLAIN, PROTOCOL, "reserved bit: 1", |ws| {
        ws.frame(0xc1, REQ, true)
    });
}

#[test]
fn rsv1_on_a_control_frame_with_deflate() {
    let mut h = Harness::new();
    let close = 1000u16.to_be_bytes();
    for (op, payload) in [(0x9, &b"hi"[..]), (0xa, b"hi"), (0x8, &close)] {
        let what = format!("RSV1 on opcode {op:#x}");
        h.fails(&what, DEFLATE, PROTOCOL, "RSV1 on a control frame", |ws| {
            ws.frame(0xc0 | op, payload, true)
        });
    }
}

#[test]
fn rsv1_on_a_continuation_frame_with_deflate() {
    let mut h = Harness::new();
    for compressed in [true, false] {
        let what = format!("RSV1 on a continuation, first frame compressed {compressed}");
        h.fails(&what, DEFLATE, PROTOCOL, "RSV1 on a continuation", |ws| {
            let (first, body) = if compressed {
                let (_, body) = ws.body(std::str::from_utf8(REQ).unwrap());
                (0x41, body)
            } else {
                (0x01, REQ.to_vec())
            };
            let half = body.len() / 2;
            ws.frame(first, &body[..half], true);
            ws.frame(0xc0, &body[half..], true);
        });
    }
}

#[test]
fn reserved_non_control_opcodes() {
    let mut h = Harness::new();
    for op in 0x3..=0x7u8 {
        let what = format!("opcode {op:#x}");
        h.fails(&what, PLAIN, PROTOCOL, "reserved opcode", |ws| {
            ws.frame(0x80 | op, b"x", true)
        });
    }
}

#[test]
fn reserved_control_opcodes() {
    let mut h = Harness::new();
    for op in 0xb..=0xfu8 {
        let what = format!("opcode {op:#x}");
        h.fails(&what, PLAIN, PROTOCOL, "reserved opcode", |ws| {
            ws.frame(0x80 | op, b"x", true)
        });
    }
}

/// `ws.frame` writes 126 bytes with the 16-bit length form.
fn control_over_125(op: u8, payload: &[u8]) {
    assert_eq!(payload.len(), 126);
    let what = format!("opcode {op:#x} with 126 bytes");
    Harness::new().fails(
        &what,
        PLAIN,
        PROTOCOL,
        "invalid control frame length",
        |ws| ws.frame(0x80 | op, payload, true),
    );
}

#[test]
fn ping_over_125_bytes() {
    control_over_125(0x9, &[b'p'; 126]);
}

#[test]
fn pong_over_125_bytes() {
    control_over_125(0xa, &[b'p'; 126]);
}

#[test]
fn close_over_125_bytes() {
    let mut body = 1000u16.to_be_bytes().to_vec();
    body.resize(126, b'r');
    control_over_125(0x8, &body);
}

#[test]
fn fragmented_control_frames() {
    let mut h = Harness::new();
    let close = 1000u16.to_be_bytes();
    for (op, payload) in [(0x9, &b"hi"[..]), (0xa, b"hi"), (0x8, &close)] {
        let what = format!("FIN=0 on opcode {op:#x}");
        h.fails(&what, PLAIN, PROTOCOL, "fragmented control frame", |ws| {
            ws.frame(op, payload, true)
        });
    }
}

#[test]
fn continuation_without_a_message() {
    let mut h = Harness::new();
    for first in [0x80, 0x00] {
        let what = format!("continuation {first:#x} first");
        h.fails(
            &what,
            PLAIN,
            PROTOCOL,
            "continuation without a message",
            |ws| ws.frame(first, b"x", true),
        );
    }
}

#[test]
fn new_data_frame_inside_a_fragmented_message() {
    let mut h = Harness::new();
    for first in [0x81, 0x82, 0x01, 0x02] {
        let what = format!("{first:#x} after a first fragment");
        h.fails(&what, PLAIN, PROTOCOL, "new message inside", |ws| {
            ws.frame(0x01, &REQ[..5], true);
            ws.frame(first, REQ, true);
        });
    }
}

#[test]
fn non_minimal_16_bit_length() {
    let mut h = Harness::new();
    for n in [0, REQ.len(), 125] {
        let what = format!("16-bit length {n}");
        h.fails(&what, PLAIN, PROTOCOL, "non-minimal 16-bit length", |ws| {
            let payload = if n == 0 { Vec::new() } else { req_of(n) };
            raw(ws, 0x81, &len16(n as u16), &payload)
        });
    }
    // On a control frame too.
    h.fails(
        "16-bit ping",
        PLAIN,
        PROTOCOL,
        "non-minimal 16-bit length",
        |ws| raw(ws, 0x89, &len16(2), b"hi"),
    );
}

#[test]
fn non_minimal_64_bit_length() {
    let mut h = Harness::new();
    for n in [REQ.len(), 125, 126, 65535] {
        let what = format!("64-bit length {n}");
        h.fails(&what, PLAIN, PROTOCOL, "non-minimal 64-bit length", |ws| {
            raw(ws, 0x81, &len64(n as u64), &req_of(n))
        });
    }
}

#[test]
fn a_64_bit_length_with_its_top_bit_set() {
    let mut h = Harness::new();
    // Checked before the size limit: 1002, not 1009.
    for n in [1 << 63, (1 << 63) | REQ.len() as u64, u64::MAX] {
        let what = format!("64-bit length {n:#x}");
        h.fails(&what, PLAIN, PROTOCOL, "top bit set", |ws| {
            raw(ws, 0x81, &len64(n), b"")
        });
    }
}

#[test]
fn minimal_lengths_at_the_boundaries_are_accepted() {
    let h = Harness::new();
    let mut ws = h.connect(PLAIN);
    // `ws.frame` uses the 16-bit form from 126 and the 64-bit one from 65536.
    for n in [125, 126, 65535, 65536] {
        ws.frame(0x81, &req_of(n), true);
        assert_eq!(ws.until_eose("a").len(), 5, "{n} bytes");
    }
}

#[test]
fn close_frame_of_one_byte() {
    Harness::new().fails("1-byte close", PLAIN, PROTOCOL, "one byte", |ws| {
        ws.frame(0x88, &[0x03], true)
    });
}

#[test]
fn close_with_invalid_statuses() {
    let mut h = Harness::new();
    for code in [0u16, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000] {
        let what = format!("close {code}");
        h.fails(
            &what,
            PLAIN,
            PROTOCOL,
            &format!("close status {code}"),
            |ws| ws.frame(0x88, &code.to_be_bytes(), true),
        );
    }
}

#[test]
fn close_with_valid_statuses_is_echoed() {
    let mut h = Harness::new();
    for code in [1000u16, 1001, 1002, 1003, 1007, 1011, 3000, 4999] {
        let mut ws = h.connect(PLAIN);
        let peer = ws.s.local_addr().unwrap().to_string();
        ws.frame(0x88, &code.to_be_bytes(), true);
        assert_eq!(ws.close_status(), Some(code));
        let report = h.report(&peer);
        assert_eq!(report.end, End::ClientClosed, "{report:?}");
        assert_eq!(report.status, Some(code), "{report:?}");
    }
}

#[test]
fn close_reason_not_utf8() {
    // Not a framing error: invalid payload data, 1007 (RFC 6455, 8.1).
    let mut body = 1000u16.to_be_bytes().to_vec();
    body.extend_from_slice(b"bye \xff\xfe");
    Harness::new().fails(
        "close reason",
        PLAIN,
        INVALID_DATA,
        "close reason is not UTF-8",
        |ws| ws.frame(0x88, &body, true),
    );
}

#[test]
fn invalid_utf8_text() {
    Harness::new().fails("text", PLAIN, INVALID_DATA, "not UTF-8", |ws| {
        ws.frame(0x81, b"[\"REQ\",\"\xff\xfe\",{}]", true)
    });
}

#[test]
fn message_over_max_message() {
    let mut config = Config::public();
    config.max_message = 16 << 10;
    let mut h = Harness::with(config);
    h.fails("one frame", PLAIN, TOO_BIG, "exceeds", |ws| {
        ws.frame(0x81, &req_of(17 << 10), true)
    });
    h.fails("two frames", PLAIN, TOO_BIG, "message exceeds", |ws| {
        let m = req_of(17 << 10);
        ws.frame(0x01, &m[..10 << 10], true);
        ws.frame(0x80, &m[10 << 10..], true);
    });
}

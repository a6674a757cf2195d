//! The raw-frame WebSocket client and relay helpers shared by the relay
//! tests (tests/relay.rs, tests/framing.rs).
#![allow(dead_code)] // each test crate uses a part

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use binostr::transport::deflate::{self, Inflater};
use binostr::transport::relay::{Config, Relay, Shared};
use serde_json::Value;

pub const KEY: &str = "dGhlIHNhbXBsZSBub25jZQ==";

pub fn events(n: usize) -> Vec<binostr::Event> {
    binostr::corpus::generate::generate(11, n)
}

pub fn relay(config: Config, profiles: &[&str], events: &[binostr::Event]) -> Relay {
    let profiles: Vec<_> = profiles
        .iter()
        .map(|id| binostr::profiles::find(id).unwrap())
        .collect();
    Relay::start(Arc::new(Shared::new(&profiles, events, config).unwrap())).unwrap()
}

/// One received message.
#[derive(Debug, PartialEq)]
pub enum Msg {
    Text(String),
    Binary(Vec<u8>),
    Ping,
    Close(Option<u16>),
}

/// A WebSocket client made of raw frames.
pub struct Ws {
    pub s: TcpStream,
    pub compress: Option<(flate2::Compress, bool)>,
    pub inflate: Option<Inflater>,
    pub head: String,
    /// Whether the peer masks its frames (a client does, a relay must not).
    pub peer_masks: bool,
}

pub fn read_head(s: &mut TcpStream) -> String {
    let mut head = Vec::new();
    let mut b = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if s.read(&mut b).unwrap() == 0 {
            break;
        }
        head.push(b[0]);
    }
    String::from_utf8(head).unwrap()
}

impl Ws {
    /// Connects; `headers` are extra request header lines, `path` the target.
    pub fn open(addr: SocketAddr, path: &str, headers: &str) -> Ws {
        let mut s = TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: {KEY}\r\n{headers}\r\n"
        )
        .unwrap();
        let head = read_head(&mut s);
        let agreed = head.lines().find(|l| {
            l.to_ascii_lowercase()
                .starts_with("sec-websocket-extensions:")
        });
        let (compress, inflate) = match agreed {
            Some(l) => {
                let ctx = !l.contains("client_no_context_takeover");
                (
                    Some((
                        flate2::Compress::new_with_window_bits(deflate::LEVEL, false, 15),
                        !ctx,
                    )),
                    Some(Inflater::new(l.contains("server_no_context_takeover"))),
                )
            }
            None => (None, None),
        };
        Ws {
            s,
            compress,
            inflate,
            head,
            peer_masks: false,
        }
    }

    pub fn connect(addr: SocketAddr) -> Ws {
        Self::open(addr, "/", "")
    }

    pub fn deflated(addr: SocketAddr, ctx: bool) -> Ws {
        let offer = if ctx {
            "permessage-deflate"
        } else {
            "permessage-deflate; server_no_context_takeover; client_no_context_takeover"
        };
        let ws = Self::open(addr, "/", &format!("Sec-WebSocket-Extensions: {offer}\r\n"));
        assert!(ws.compress.is_some(), "{}", ws.head);
        ws
    }

    pub fn frame(&mut self, first: u8, payload: &[u8], masked: bool) {
        let mut f = vec![first];
        let m = if masked { 0x80 } else { 0 };
        match payload.len() {
            n @ 0..=125 => f.push(m | n as u8),
            n @ 126..=65535 => {
                f.push(m | 126);
                f.extend_from_slice(&(n as u16).to_be_bytes());
            }
            n => {
                f.push(m | 127);
                f.extend_from_slice(&(n as u64).to_be_bytes());
            }
        }
        let key = [7u8, 1, 9, 3];
        if masked {
            f.extend_from_slice(&key);
            f.extend(payload.iter().enumerate().map(|(i, b)| b ^ key[i % 4]));
        } else {
            f.extend_from_slice(payload);
        }
        self.s.write_all(&f).unwrap();
    }

    /// The payload of a text message as it goes on the wire (compressed
    /// when agreed).
    pub fn body(&mut self, text: &str) -> (bool, Vec<u8>) {
        match self.compress.as_mut() {
            Some((c, reset)) => {
                if *reset {
                    c.reset();
                }
                let mut out = Vec::new();
                deflate::deflate_message(c, text.as_bytes(), &mut out).unwrap();
                (true, out)
            }
            None => (false, text.as_bytes().to_vec()),
        }
    }

    pub fn text(&mut self, text: &str) {
        let (rsv1, body) = self.body(text);
        self.frame(0x81 | if rsv1 { 0x40 } else { 0 }, &body, true);
    }

    /// One text message split over `pieces` frames (RSV1 on the first only).
    pub fn fragmented(&mut self, text: &str, pieces: usize) {
        let (rsv1, body) = self.body(text);
        let step = body.len().div_ceil(pieces).max(1);
        let chunks: Vec<&[u8]> = body.chunks(step).collect();
        for (i, c) in chunks.iter().enumerate() {
            let op = if i == 0 { 0x1 } else { 0x0 };
            let fin = if i + 1 == chunks.len() { 0x80 } else { 0 };
            let rsv = if i == 0 && rsv1 { 0x40 } else { 0 };
            self.frame(fin | rsv | op, c, true);
        }
    }

    pub fn recv(&mut self) -> Msg {
        let mut data = Vec::new();
        let (mut op0, mut rsv0) = (0, false);
        loop {
            let mut h = [0u8; 2];
            self.s.read_exact(&mut h).unwrap();
            let masked = h[1] & 0x80 != 0;
            assert_eq!(masked, self.peer_masks, "masking");
            let mut len = u64::from(h[1] & 0x7f);
            if len == 126 {
                let mut b = [0u8; 2];
                self.s.read_exact(&mut b).unwrap();
                len = u64::from(u16::from_be_bytes(b));
            } else if len == 127 {
                let mut b = [0u8; 8];
                self.s.read_exact(&mut b).unwrap();
                len = u64::from_be_bytes(b);
            }
            let mut key = [0u8; 4];
            if masked {
                self.s.read_exact(&mut key).unwrap();
            }
            let mut p = vec![0u8; len as usize];
            self.s.read_exact(&mut p).unwrap();
            p.iter_mut().enumerate().for_each(|(i, b)| *b ^= key[i % 4]);
            let op = h[0] & 0x0f;
            match op {
                0x8 => {
                    return Msg::Close((p.len() >= 2).then(|| u16::from_be_bytes([p[0], p[1]])));
                }
                0x9 => return Msg::Ping,
                0xa => continue,
                0x0 => {}
                _ => (op0, rsv0) = (op, h[0] & 0x40 != 0),
            }
            data.extend_from_slice(&p);
            if h[0] & 0x80 != 0 {
                break;
            }
        }
        if rsv0 {
            self.inflate
                .as_mut()
                .unwrap()
                .message(&mut data, 1 << 26)
                .unwrap();
        }
        if op0 == 1 {
            Msg::Text(String::from_utf8(data).unwrap())
        } else {
            Msg::Binary(data)
        }
    }

    pub fn json(&mut self) -> Value {
        match self.recv() {
            Msg::Text(t) => serde_json::from_str(&t).unwrap(),
            other => panic!("expected a text message, got {other:?}"),
        }
    }

    /// The ids of `sub`'s events up to its EOSE.
    pub fn until_eose(&mut self, sub: &str) -> Vec<String> {
        let mut ids = Vec::new();
        loop {
            let m = self.json();
            match (m[0].as_str(), m[1].as_str()) {
                (Some("EVENT"), Some(s)) if s == sub => {
                    ids.push(m[2]["id"].as_str().unwrap().to_owned())
                }
                (Some("EOSE"), Some(s)) if s == sub => return ids,
                _ => panic!("unexpected {m}"),
            }
        }
    }

    /// Reads until the relay closes; its close status.
    pub fn close_status(&mut self) -> Option<u16> {
        loop {
            match self.recv() {
                Msg::Close(code) => return code,
                Msg::Ping => continue,
                other => panic!("expected close, got {other:?}"),
            }
        }
    }
}

//! `binostr relay` against hostile and unusual clients: one regression test
//! per defect found when real clients and hostile traffic met the relay
//! (RFC 6455 and RFC 7692 corners, NIP-01 answers, bounded work, timeouts,
//! descriptor exhaustion, a blocked stdout). The client (tests/common) is
//! raw frames over a blocking socket, so every byte it sends is chosen by
//! the test.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use binostr::transport::deflate::{self, Inflater};
use binostr::transport::relay::{Config, End};
use serde_json::{Value, json};

mod common;
use common::{Msg, Ws, events, read_head, relay};

/// Ids of `events` matching `filter`, newest first (the reference matcher).
fn expected(events: &[binostr::Event], filter: &Value) -> Vec<String> {
    let f = binostr::filter::Filter::from_json(filter).unwrap();
    let sorted = binostr::transport::relay::newest_first(events);
    let mut ids: Vec<String> = sorted
        .iter()
        .filter(|e| f.matches_on(*e))
        .map(|e| binostr::model::hex::encode(&e.id))
        .collect();
    if let Some(l) = f.limit {
        ids.truncate(l as usize);
    }
    ids
}

#[test]
fn fragmented_compressed_messages_are_read_with_and_without_context() {
    let evs = events(60);
    let r = relay(Config::public(), &["json"], &evs);
    let authors: Vec<String> = evs
        .iter()
        .take(20)
        .map(|e| binostr::model::hex::encode(&e.pubkey))
        .collect();
    let filter = json!({"authors": authors});
    let want = expected(&evs, &filter);
    assert!(!want.is_empty());
    for ctx in [false, true] {
        let mut ws = Ws::deflated(r.addr, ctx);
        for (n, pieces) in [1, 3, 7].into_iter().enumerate() {
            let sub = format!("s{n}");
            ws.fragmented(&json!(["REQ", sub, filter]).to_string(), pieces);
            assert_eq!(ws.until_eose(&sub), want, "ctx {ctx}, {pieces} frames");
        }
        // A ping between the fragments of one message (RFC 6455, 5.4).
        let (rsv1, body) = ws.body(&json!(["REQ", "p", {"limit": 2}]).to_string());
        let half = body.len() / 2;
        ws.frame(0x01 | if rsv1 { 0x40 } else { 0 }, &body[..half], true);
        ws.frame(0x89, b"hi", true);
        ws.frame(0x80, &body[half..], true);
        assert_eq!(ws.until_eose("p").len(), 2);
    }
}

#[test]
fn the_measurement_client_reads_fragmented_compressed_messages() {
    // A server that sends EVENT and EOSE compressed, each split over frames.
    let evs = events(3);
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let event = evs[0].clone();
    let server = std::thread::spawn(move || {
        let (mut s, _) = listener.accept().unwrap();
        let head = read_head(&mut s);
        let key = head
            .lines()
            .find_map(|l| l.strip_prefix("Sec-WebSocket-Key: "))
            .unwrap()
            .trim()
            .to_owned();
        let accept = binostr::transport::relay::http::accept_key(&key);
        write!(s, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: upgrade\r\nSec-WebSocket-Accept: {accept}\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n").unwrap();
        let mut ws = Ws {
            s,
            compress: Some((
                flate2::Compress::new_with_window_bits(deflate::LEVEL, false, 15),
                false,
            )),
            inflate: Some(Inflater::new(false)),
            head,
            peer_masks: true,
        };
        let _req = ws.recv();
        let msgs = [
            format!("[\"EVENT\",\"binostr\",{}]", event.to_json()),
            "[\"EOSE\",\"binostr\"]".to_owned(),
        ];
        for m in msgs {
            let (_, body) = ws.body(&m);
            let cut = body.len() / 3;
            ws.frame(0x41, &body[..cut], false);
            ws.frame(0x00, &body[cut..2 * cut], false);
            ws.frame(0x80, &body[2 * cut..], false);
        }
        ws.close_status()
    });
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let json = binostr::profiles::find("json").unwrap();
    let got = rt.block_on(async {
        let mut c = binostr::transport::client::connect(
            addr,
            binostr::transport::Compression::DeflateContext,
        )
        .await
        .unwrap();
        let f = c
            .exchange(
                json,
                binostr::transport::client::Check::Validate,
                &[json!({})],
                &Default::default(),
            )
            .await
            .unwrap();
        c.close().await.unwrap();
        f.events
    });
    assert_eq!(got, vec![evs[0].clone()]);
    assert_eq!(server.join().unwrap(), Some(1000));
}

#[test]
fn protocol_errors_close_with_rfc_6455_statuses() {
    let evs = events(5);
    let mut config = Config::public();
    config.max_message = 16 << 10;
    let r = relay(config, &["json"], &evs);
    // Unmasked client frame: 1002.
    let mut ws = Ws::connect(r.addr);
    ws.frame(0x81, br#"["REQ","a",{}]"#, false);
    assert_eq!(ws.close_status(), Some(1002));
    // Invalid UTF-8 in a text message: 1007.
    let mut ws = Ws::connect(r.addr);
    ws.frame(0x81, b"[\"REQ\",\"\xff\xfe\",{}]", true);
    assert_eq!(ws.close_status(), Some(1007));
    // Over max-message: 1009.
    let mut ws = Ws::connect(r.addr);
    ws.frame(0x81, &vec![b' '; 17 << 10], true);
    assert_eq!(ws.close_status(), Some(1009));
    // A continuation with nothing to continue: 1002.
    let mut ws = Ws::connect(r.addr);
    ws.frame(0x80, b"x", true);
    assert_eq!(ws.close_status(), Some(1002));
    // A deflate bomb: 1009 while inflating, not after.
    let mut ws = Ws::deflated(r.addr, true);
    let mut c = flate2::Compress::new_with_window_bits(flate2::Compression::best(), false, 15);
    let mut bomb = Vec::new();
    deflate::deflate_message(&mut c, &vec![b' '; 4 << 20], &mut bomb).unwrap();
    assert!(bomb.len() < 16 << 10, "{}", bomb.len());
    ws.frame(0xc1, &bomb, true);
    assert_eq!(ws.close_status(), Some(1009));
    // Bad deflate data: 1007.
    let mut ws = Ws::deflated(r.addr, false);
    ws.frame(0xc1, &[0xff; 40], true);
    assert_eq!(ws.close_status(), Some(1007));
    // A client close is echoed with its status.
    let mut ws = Ws::connect(r.addr);
    ws.frame(0x88, &3001u16.to_be_bytes(), true);
    assert_eq!(ws.close_status(), Some(3001));
    let ends: Vec<_> = (0..7)
        .map(|_| r.closed.recv_timeout(Duration::from_secs(10)).unwrap())
        .collect();
    assert_eq!(
        ends.iter().filter(|e| e.end == End::RelayClosed).count(),
        6,
        "{ends:?}"
    );
    assert!(
        ends.iter()
            .any(|e| e.end == End::ClientClosed && e.status == Some(3001))
    );
}

/// A published event is decoded and verified before its refusal: a valid
/// one is `blocked:`, a tampered one `invalid:`, in JSON text on any
/// connection and as a binary record on a binary one.
#[test]
fn published_events_are_verified_then_refused() {
    use binostr::transport::envelope;
    let evs = events(5);
    let r = relay(Config::public(), &["json", "notepack"], &evs);
    let id = binostr::model::hex::encode(&evs[1].id);
    let mut bad = evs[1].clone();
    bad.content.push('!');
    let ok_of = |ws: &mut Ws| ws.json();
    let mut ws = Ws::connect(r.addr);
    ws.text(&format!("[\"EVENT\",{}]", evs[1].to_json()));
    let ok = ok_of(&mut ws);
    assert_eq!((ok[1].as_str(), &ok[2]), (Some(id.as_str()), &json!(false)));
    assert!(ok[3].as_str().unwrap().starts_with("blocked: "), "{ok}");
    ws.text(&format!("[\"EVENT\",{}]", bad.to_json()));
    let ok = ok_of(&mut ws);
    assert_eq!(ok[1].as_str(), Some(id.as_str()));
    assert!(ok[3].as_str().unwrap().starts_with("invalid: "), "{ok}");
    ws.text(r#"["EVENT",{"kind":1}]"#);
    let notice = ws.json();
    assert_eq!(notice[0], "NOTICE", "{notice}");
    // Binary messages are for binary connections only.
    ws.frame(0x82, &[envelope::EVENT, 0], true);
    assert_eq!(ws.close_status(), Some(1003));
    let notepack = binostr::profiles::find("notepack").unwrap();
    let mut bin = Ws::open(r.addr, "/", "Sec-WebSocket-Protocol: binostr.notepack\r\n");
    let binary_ok = |bin: &mut Ws, event: &binostr::Event, text: bool| {
        if text {
            bin.text(&format!("[\"EVENT\",{}]", event.to_json()));
        } else {
            let mut record = Vec::new();
            notepack.codec.encode(event, &mut record).unwrap();
            let mut out = Vec::new();
            envelope::publish(envelope::Framing::Binary, &record, &mut out);
            bin.frame(0x82, &out, true);
        }
        let Msg::Binary(m) = bin.recv() else {
            panic!("binary frames expected")
        };
        envelope::parse(envelope::Framing::Binary, &m)
            .map(|r| format!("{r:?}"))
            .unwrap()
    };
    for text in [false, true] {
        let good = binary_ok(&mut bin, &evs[1], text);
        assert!(good.contains(&id) && good.contains("blocked: "), "{good}");
        let tampered = binary_ok(&mut bin, &bad, text);
        assert!(tampered.contains("invalid: "), "{tampered}");
    }
    bin.frame(0x82, &[envelope::EVENT, 0xc1], true);
    let Msg::Binary(m) = bin.recv() else { panic!() };
    assert_eq!(m[0], envelope::NOTICE, "an undecodable record has no id");
}

#[test]
fn nip01_answers_ok_closed_and_sub_ids() {
    let evs = events(20);
    let r = relay(Config::public(), &["json", "notepack"], &evs);
    let mut ws = Ws::connect(r.addr);
    let id = binostr::model::hex::encode(&evs[0].id);
    ws.text(&format!("[\"EVENT\",{}]", evs[0].to_json()));
    let ok = ws.json();
    assert_eq!(ok[0], "OK");
    assert_eq!(ok[1], id.as_str());
    assert_eq!(ok[2], false);
    assert!(ok[3].as_str().unwrap().starts_with("blocked: "), "{ok}");
    for (sub, msg) in [
        ("", r#"["REQ","",{}]"#.to_owned()),
        ("x", r#"["REQ","x",5]"#.to_owned()),
    ] {
        ws.text(&msg);
        let closed = ws.json();
        assert_eq!(closed[0], "CLOSED", "{closed}");
        assert_eq!(closed[1], sub);
        assert!(
            closed[2].as_str().unwrap().starts_with("invalid: "),
            "{closed}"
        );
    }
    let long = "y".repeat(65);
    ws.text(&json!(["REQ", long, {}]).to_string());
    assert_eq!(ws.json()[1], long.as_str());
    let max = "z".repeat(64);
    ws.text(&json!(["REQ", max, {"limit": 1}]).to_string());
    assert_eq!(ws.until_eose(&max).len(), 1);
    // A binary profile: an id too long for the envelope gets a NOTICE and
    // the connection stays open.
    let mut bin = Ws::open(r.addr, "/", "Sec-WebSocket-Protocol: binostr.notepack\r\n");
    assert!(
        bin.head
            .contains("Sec-WebSocket-Protocol: binostr.notepack"),
        "{}",
        bin.head
    );
    bin.text(&json!(["REQ", "w".repeat(300), {}]).to_string());
    let Msg::Binary(notice) = bin.recv() else {
        panic!("binary frames expected")
    };
    assert_eq!(notice[0], binostr::transport::envelope::NOTICE);
    bin.text(r#"["REQ","ok",{"limit":3}]"#);
    let mut n = 0;
    loop {
        let Msg::Binary(m) = bin.recv() else { panic!() };
        if m[0] == binostr::transport::envelope::EOSE {
            break;
        }
        n += 1;
    }
    assert_eq!(n, 3);
}

#[test]
fn limit_returns_the_newest_first_ties_by_lowest_id() {
    let mut evs = events(40);
    let t = evs[5].created_at;
    for e in evs.iter_mut().take(5) {
        e.created_at = t; // ids no longer match; the relay serves stored events as they are
    }
    let r = relay(Config::public(), &["json"], &evs);
    let mut ws = Ws::connect(r.addr);
    for filter in [
        json!({"limit": 4}),
        json!({"limit": 10, "kinds": [1]}),
        json!({}),
    ] {
        ws.text(&json!(["REQ", "l", filter]).to_string());
        assert_eq!(ws.until_eose("l"), expected(&evs, &filter), "{filter}");
    }
}

#[test]
fn close_stops_a_req_in_progress() {
    let evs = events(3000);
    let r = relay(Config::public(), &["json"], &evs);
    let mut ws = Ws::connect(r.addr);
    // All in one write: the relay reads the CLOSE while it streams.
    let mut burst = Vec::new();
    for m in [
        r#"["REQ","all",{}]"#,
        r#"["CLOSE","all"]"#,
        r#"["REQ","one",{"limit":1}]"#,
    ] {
        burst.extend_from_slice(&[0x81, 0x80 | m.len() as u8, 0, 0, 0, 0]);
        burst.extend_from_slice(m.as_bytes());
    }
    ws.s.write_all(&burst).unwrap();
    let (mut all, mut eose_all) = (0, false);
    loop {
        let m = ws.json();
        match (m[0].as_str().unwrap(), m[1].as_str().unwrap()) {
            ("EVENT", "all") => all += 1,
            ("EOSE", "all") => eose_all = true,
            ("EVENT", "one") => {}
            ("EOSE", "one") => break,
            _ => panic!("{m}"),
        }
    }
    assert!(
        all < evs.len() && !eose_all,
        "{all} of {} events after CLOSE",
        evs.len()
    );
}

#[test]
fn work_per_req_is_bounded() {
    let evs = events(200);
    let mut config = Config::public();
    config.max_filters = 3;
    config.max_events = 50;
    config.max_subscriptions = 2;
    let r = relay(config, &["json"], &evs);
    let mut ws = Ws::connect(r.addr);
    let closed = |ws: &mut Ws, sub: &str, prefix: &str| {
        let m = ws.json();
        assert_eq!(
            (m[0].as_str(), m[1].as_str()),
            (Some("CLOSED"), Some(sub)),
            "{m}"
        );
        assert!(m[2].as_str().unwrap().starts_with(prefix), "{m}");
    };
    ws.text(&json!(["REQ", "f", {}, {}, {}, {}]).to_string());
    closed(&mut ws, "f", "invalid: 4 filters");
    ws.text(&json!(["REQ", "e", {}]).to_string());
    closed(&mut ws, "e", "blocked: the REQ matches more than 50");
    ws.text(&json!(["REQ", "a", {"limit": 1}]).to_string());
    ws.until_eose("a");
    ws.text(&json!(["REQ", "b", {"limit": 1}]).to_string());
    ws.until_eose("b");
    ws.text(&json!(["REQ", "c", {"limit": 1}]).to_string());
    closed(&mut ws, "c", "blocked: 2 subscriptions open");
    ws.text(r#"["CLOSE","a"]"#);
    ws.text(&json!(["REQ", "c", {"limit": 1}]).to_string());
    assert_eq!(ws.until_eose("c").len(), 1);
}

#[test]
fn nip11_document_and_encoding_choice() {
    let evs = events(10);
    let r = relay(Config::public(), &["json", "cbor-packed"], &evs);
    let mut s = TcpStream::connect(r.addr).unwrap();
    s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nAccept: application/nostr+json\r\n\r\n")
        .unwrap();
    let mut resp = String::new();
    s.read_to_string(&mut resp).unwrap();
    assert!(resp.starts_with("HTTP/1.1 200 OK"), "{resp}");
    assert!(resp.contains("Access-Control-Allow-Origin: *"));
    let doc: Value = serde_json::from_str(resp.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    assert_eq!(doc["supported_nips"], json!([1, 11]));
    assert_eq!(doc["limitation"]["max_limit"], 5000);
    assert_eq!(doc["limitation"]["max_subid_length"], 64);
    assert_eq!(doc["binostr"]["encodings"], json!(["json", "cbor-packed"]));
    // ?encoding= picks the profile; an unknown one is refused with 400.
    let mut ws = Ws::open(r.addr, "/?encoding=cbor-packed", "");
    ws.text(r#"["REQ","q",{"limit":1}]"#);
    assert!(matches!(ws.recv(), Msg::Binary(m) if m[0] == binostr::transport::envelope::EVENT));
    let ws = Ws::open(r.addr, "/?encoding=nope", "");
    assert!(ws.head.starts_with("HTTP/1.1 400"), "{}", ws.head);
    // An unserved subprotocol falls back to json, without echoing one.
    let mut ws = Ws::open(
        r.addr,
        "/",
        "Sec-WebSocket-Protocol: binostr.avro, other\r\n",
    );
    assert!(!ws.head.contains("Sec-WebSocket-Protocol"), "{}", ws.head);
    ws.text(r#"["REQ","q",{"limit":1}]"#);
    assert_eq!(ws.until_eose("q").len(), 1);
}

#[test]
fn a_reset_peer_is_not_an_error() {
    let evs = events(500);
    let r = relay(Config::public(), &["json"], &evs);
    let mut ws = Ws::connect(r.addr);
    ws.text(r#"["REQ","x",{}]"#);
    let _ = ws.recv();
    let sock = socket2_linger_zero(ws.s);
    drop(sock);
    let report = r.closed.recv_timeout(Duration::from_secs(10)).unwrap();
    assert_eq!(report.end, End::PeerGone, "{report:?}");
    assert_eq!(report.error, None);
}

/// Closes with RST (SO_LINGER 0) through rustix, so the relay sees a reset.
fn socket2_linger_zero(s: TcpStream) -> TcpStream {
    rustix::net::sockopt::set_socket_linger(&s, Some(Duration::ZERO)).unwrap();
    s
}

// The rest run the binary, with its own flags and file descriptors.

struct Proc {
    child: Child,
    addr: SocketAddr,
    /// The relay's stderr after its listening line, as it comes.
    stderr: Arc<Mutex<String>>,
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn spawn(shell_prefix: &str, args: &str, stdout: Stdio) -> Proc {
    let bin = env!("CARGO_BIN_EXE_binostr");
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "{shell_prefix} exec {bin} relay --listen 127.0.0.1:0 --generated 50 {args}"
        ))
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    let addr = loop {
        line.clear();
        assert!(
            err.read_line(&mut line).unwrap() > 0,
            "relay exited before listening"
        );
        if let Some(at) = line.find("ws://") {
            let a = line[at + 5..].split_whitespace().next().unwrap();
            break a.parse().unwrap();
        }
    };
    let stderr = Arc::new(Mutex::new(String::new()));
    let sink = stderr.clone();
    std::thread::spawn(move || {
        let mut line = String::new();
        while err.read_line(&mut line).is_ok_and(|n| n > 0) {
            sink.lock().unwrap().push_str(&line);
            line.clear();
        }
    });
    Proc {
        child,
        addr,
        stderr,
    }
}

fn answers(addr: SocketAddr) -> bool {
    let mut ws = Ws::connect(addr);
    ws.text(r#"["REQ","alive",{"limit":2}]"#);
    ws.until_eose("alive").len() == 2
}

#[test]
fn handshake_and_idle_timeouts_and_the_connection_limit() {
    let p = spawn(
        "",
        "--handshake-timeout-ms 300 --idle-timeout-ms 600 --max-connections 3",
        Stdio::null(),
    );
    // A silent socket is closed at the handshake timeout.
    let mut silent = TcpStream::connect(p.addr).unwrap();
    silent
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let t = Instant::now();
    assert_eq!(silent.read(&mut [0u8; 16]).unwrap(), 0);
    assert!(t.elapsed() < Duration::from_secs(5));
    // An idle WebSocket is pinged, then closed with 1001.
    let mut ws = Ws::connect(p.addr);
    assert_eq!(ws.recv(), Msg::Ping);
    assert_eq!(ws.close_status(), Some(1001));
    // Over the limit: HTTP 503.
    let held: Vec<Ws> = (0..3).map(|_| Ws::connect(p.addr)).collect();
    let over = Ws::connect(p.addr);
    assert!(over.head.starts_with("HTTP/1.1 503"), "{}", over.head);
    drop(held);
    // The slots free as the relay sees the three sockets close.
    let deadline = Instant::now() + Duration::from_secs(10);
    while Ws::connect(p.addr).head.starts_with("HTTP/1.1 503") {
        assert!(Instant::now() < deadline, "slots never freed");
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(answers(p.addr));
}

#[test]
fn descriptor_exhaustion_does_not_stop_the_relay() {
    // 48 descriptors: the relay lowers its limit to one connection and
    // refuses more, up to 64 refusals in flight (each waits up to 1 s for a
    // request), so a burst of 400 silent sockets runs it out of descriptors.
    // (At 160 its 128 reserved descriptors covered the burst.)
    let p = spawn(
        "ulimit -n 48;",
        "--handshake-timeout-ms 2000",
        Stdio::null(),
    );
    let burst: Vec<TcpStream> = (0..400)
        .filter_map(|_| TcpStream::connect(p.addr).ok())
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    drop(burst);
    std::thread::sleep(Duration::from_millis(2500));
    // The burst did run the relay out of descriptors (EMFILE, logged as an
    // accept error), so what follows tests a relay that recovered.
    let log = p.stderr.lock().unwrap().clone();
    assert!(
        log.contains("accept failed") && log.contains("os error 24"),
        "the burst did not exhaust the relay's descriptors (no EMFILE accept error); stderr:\n{log}"
    );
    assert!(answers(p.addr));
}

#[test]
fn a_blocked_stdout_does_not_stop_the_relay() {
    // stdout is a pipe nobody reads: its 64 KiB fill after a few hundred
    // connection lines; the relay must go on and count what it dropped.
    let mut p = spawn("", "", Stdio::piped());
    for _ in 0..5000 {
        let mut s = TcpStream::connect(p.addr).unwrap();
        s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        let mut sink = Vec::new();
        s.read_to_end(&mut sink).unwrap();
    }
    assert!(answers(p.addr));
    let out = BufReader::new(p.child.stdout.take().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let d = out
            .lines()
            .map_while(Result::ok)
            .find_map(|l| serde_json::from_str::<Value>(&l).ok()?["dropped_lines"].as_u64());
        let _ = tx.send(d);
    });
    let dropped = rx
        .recv_timeout(Duration::from_secs(60))
        .unwrap()
        .expect("a dropped_lines line");
    assert!(dropped > 0 && dropped < 5000, "{dropped}");
}

//! The HTTP/1.1 request that opens every connection: a WebSocket upgrade
//! (RFC 6455, 4.2), a NIP-11 relay information request, or anything else,
//! which gets a short plain answer. The request head is read under a size
//! bound, and whatever arrived after it is handed to the frame reader.

use base64::Engine as _;
use sha1::{Digest, Sha1};
use tokio::io::{AsyncRead, AsyncReadExt};

/// Longest request head read (the same bound as soketto's server).
pub const MAX_HEAD: usize = 8 * 1024;

/// What the client asked for.
#[derive(Debug, PartialEq, Eq)]
pub enum Request {
    /// A WebSocket upgrade.
    Upgrade(Upgrade),
    /// A NIP-11 document (`Accept: application/nostr+json`).
    Info,
    /// A CORS preflight (`OPTIONS`), as NIP-11 asks relays to answer.
    Preflight,
    /// Any other GET: a page saying what this is.
    Page,
}

/// The parts of an upgrade request the relay uses.
#[derive(Debug, PartialEq, Eq)]
pub struct Upgrade {
    /// `Sec-WebSocket-Key`.
    pub key: String,
    /// `Sec-WebSocket-Protocol` values, in the client's order of preference.
    pub protocols: Vec<String>,
    /// `Sec-WebSocket-Extensions` header values.
    pub extensions: Vec<String>,
    /// The `encoding` query parameter.
    pub encoding: Option<String>,
}

/// A request the relay answers with an HTTP error.
#[derive(Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The HTTP status code of the response.
    pub status: u16,
    /// Why, for the body.
    pub reason: String,
}

fn refuse(status: u16, reason: impl Into<String>) -> Refusal {
    Refusal {
        status,
        reason: reason.into(),
    }
}

/// Why no request head could be read.
#[derive(Debug, thiserror::Error)]
pub enum HeadError {
    /// The socket ended or failed first.
    #[error("socket: {0}")]
    Io(#[from] std::io::Error),
    /// No end of head within [`MAX_HEAD`] bytes.
    #[error("request head exceeds {MAX_HEAD} bytes")]
    TooLarge,
}

/// Reads up to the end of the request head; returns the head and any bytes
/// after it.
pub async fn read_head<R: AsyncRead + Unpin>(
    reader: &mut R,
) -> Result<(Vec<u8>, Vec<u8>), HeadError> {
    let mut buf = Vec::with_capacity(1024);
    let mut searched: usize = 0;
    loop {
        if buf.len() >= MAX_HEAD {
            return Err(HeadError::TooLarge);
        }
        let mut chunk = [0u8; 1024];
        let want = chunk.len().min(MAX_HEAD - buf.len());
        let n = reader.read(&mut chunk[..want]).await?;
        if n == 0 {
            return Err(std::io::Error::from(std::io::ErrorKind::UnexpectedEof).into());
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(at) = buf[searched.saturating_sub(3)..]
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
        {
            let end = searched.saturating_sub(3) + at + 4;
            let rest = buf.split_off(end);
            return Ok((buf, rest));
        }
        searched = buf.len();
    }
}

fn has_token(value: &str, token: &str) -> bool {
    value
        .split(',')
        .any(|t| t.trim().eq_ignore_ascii_case(token))
}

/// Classifies a complete request head.
pub fn parse(head: &[u8]) -> Result<Request, Refusal> {
    let mut headers = [httparse::EMPTY_HEADER; 64];
    let mut req = httparse::Request::new(&mut headers);
    match req.parse(head) {
        Ok(httparse::Status::Complete(_)) => {}
        Ok(httparse::Status::Partial) => return Err(refuse(400, "incomplete request head")),
        Err(e) => return Err(refuse(400, format!("bad request head: {e}"))),
    }
    let get = |name: &str| -> Vec<&str> {
        req.headers
            .iter()
            .filter(|h| h.name.eq_ignore_ascii_case(name))
            .filter_map(|h| std::str::from_utf8(h.value).ok())
            .collect()
    };
    match req.method {
        Some("GET") => {}
        Some("OPTIONS") => return Ok(Request::Preflight),
        Some(m) => return Err(refuse(405, format!("method {m} not allowed; use GET"))),
        None => return Err(refuse(400, "no method")),
    }
    if !get("Upgrade").iter().any(|v| has_token(v, "websocket")) {
        let nip11 = get("Accept")
            .iter()
            .any(|v| v.to_ascii_lowercase().contains("application/nostr+json"));
        return Ok(if nip11 { Request::Info } else { Request::Page });
    }
    if req.version != Some(1) {
        return Err(refuse(400, "a WebSocket upgrade needs HTTP/1.1"));
    }
    if !get("Connection").iter().any(|v| has_token(v, "upgrade")) {
        return Err(refuse(400, "Connection header lacks `upgrade`"));
    }
    if get("Sec-WebSocket-Version") != ["13"] {
        return Err(refuse(426, "Sec-WebSocket-Version must be 13"));
    }
    let key = match get("Sec-WebSocket-Key").as_slice() {
        [k] if base64::engine::general_purpose::STANDARD
            .decode(k.trim())
            .is_ok_and(|b| b.len() == 16) =>
        {
            k.trim().to_owned()
        }
        _ => {
            return Err(refuse(
                400,
                "Sec-WebSocket-Key must be one base64 16-byte nonce",
            ));
        }
    };
    let protocols = get("Sec-WebSocket-Protocol")
        .iter()
        .flat_map(|v| v.split(','))
        .map(|p| p.trim().to_owned())
        .filter(|p| !p.is_empty())
        .collect();
    let extensions = get("Sec-WebSocket-Extensions")
        .iter()
        .map(|v| (*v).to_owned())
        .collect();
    let encoding = req.path.and_then(|p| p.split_once('?')).and_then(|(_, q)| {
        q.split('&')
            .filter_map(|kv| kv.split_once('='))
            .find(|(k, _)| *k == "encoding")
            .map(|(_, v)| v.to_owned())
    });
    Ok(Request::Upgrade(Upgrade {
        key,
        protocols,
        extensions,
        encoding,
    }))
}

/// `Sec-WebSocket-Accept` for `key` (RFC 6455, 4.2.2).
pub fn accept_key(key: &str) -> String {
    let mut h = Sha1::new();
    h.update(key.as_bytes());
    h.update(b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11");
    base64::engine::general_purpose::STANDARD.encode(h.finalize())
}

/// The `101 Switching Protocols` answer.
pub fn switching(key: &str, protocol: Option<&str>, extensions: Option<&str>) -> Vec<u8> {
    let mut s = format!(
        "HTTP/1.1 101 Switching Protocols\r\nServer: binostr/{}\r\nUpgrade: websocket\r\nConnection: upgrade\r\nSec-WebSocket-Accept: {}",
        env!("CARGO_PKG_VERSION"),
        accept_key(key)
    );
    if let Some(p) = protocol {
        s.push_str("\r\nSec-WebSocket-Protocol: ");
        s.push_str(p);
    }
    if let Some(e) = extensions {
        s.push_str("\r\nSec-WebSocket-Extensions: ");
        s.push_str(e);
    }
    s.push_str("\r\n\r\n");
    s.into_bytes()
}

fn reason_phrase(status: u16) -> &'static str {
    match status {
        200 => "OK",
        204 => "No Content",
        400 => "Bad Request",
        405 => "Method Not Allowed",
        426 => "Upgrade Required",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Error",
    }
}

/// A complete response that closes the connection; NIP-11's CORS headers
/// on every one.
pub fn response(status: u16, content_type: &str, extra: &str, body: &str) -> Vec<u8> {
    format!(
        "HTTP/1.1 {status} {}\r\nServer: binostr/{}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nAccess-Control-Allow-Origin: *\r\nAccess-Control-Allow-Headers: *\r\nAccess-Control-Allow-Methods: GET, OPTIONS\r\n{extra}Connection: close\r\n\r\n{body}",
        reason_phrase(status),
        env!("CARGO_PKG_VERSION"),
        body.len()
    )
    .into_bytes()
}

/// A plain-text error response.
pub fn error(refusal: &Refusal) -> Vec<u8> {
    let extra = if refusal.status == 426 {
        "Sec-WebSocket-Version: 13\r\n"
    } else if refusal.status == 503 {
        "Retry-After: 10\r\n"
    } else {
        ""
    };
    response(
        refusal.status,
        "text/plain; charset=utf-8",
        extra,
        &format!("binostr relay: {}\n", refusal.reason),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const UPGRADE: &str = "GET /?encoding=notepack HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: keep-alive, Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: binostr.cbor-packed, binostr.json\r\nSec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n";

    #[test]
    fn rfc_6455_accept_key() {
        // RFC 6455, 1.3.
        assert_eq!(
            accept_key("dGhlIHNhbXBsZSBub25jZQ=="),
            "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
        );
    }

    #[test]
    fn upgrade_parts() {
        let Request::Upgrade(u) = parse(UPGRADE.as_bytes()).unwrap() else {
            panic!("not an upgrade");
        };
        assert_eq!(u.protocols, ["binostr.cbor-packed", "binostr.json"]);
        assert_eq!(u.encoding.as_deref(), Some("notepack"));
        assert_eq!(u.extensions, ["permessage-deflate; client_max_window_bits"]);
    }

    #[test]
    fn other_requests() {
        let nip11 = "GET / HTTP/1.1\r\nHost: x\r\nAccept: application/nostr+json\r\n\r\n";
        assert_eq!(parse(nip11.as_bytes()).unwrap(), Request::Info);
        assert_eq!(
            parse(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n").unwrap(),
            Request::Page
        );
        assert_eq!(parse(b"POST / HTTP/1.1\r\n\r\n").unwrap_err().status, 405);
        let v8 = UPGRADE.replace("Version: 13", "Version: 8");
        assert_eq!(parse(v8.as_bytes()).unwrap_err().status, 426);
        let nokey = UPGRADE.replace("dGhlIHNhbXBsZSBub25jZQ==", "short");
        assert_eq!(parse(nokey.as_bytes()).unwrap_err().status, 400);
    }

    #[test]
    fn head_and_rest_split() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let mut input: &[u8] = b"GET / HTTP/1.1\r\n\r\n\x81\x80";
        let (head, rest) = rt.block_on(read_head(&mut input)).unwrap();
        assert!(head.ends_with(b"\r\n\r\n"));
        assert_eq!(rest, b"\x81\x80");
        let big = vec![b'a'; MAX_HEAD + 10];
        assert!(matches!(
            rt.block_on(read_head(&mut &big[..])),
            Err(HeadError::TooLarge)
        ));
    }
}

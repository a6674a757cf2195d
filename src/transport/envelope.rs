//! The messages of the loop: NIP-01 JSON text frames for the JSON profiles,
//! one small binary envelope for every other profile (`docs/TRANSPORT.md`).
//!
//! Binary envelope (relay to client):
//!
//! | byte | field |
//! |---|---|
//! | 0 | type: [`EVENT`], [`EOSE`], [`CLOSED`], [`NOTICE`] or [`OK`] |
//! | 1 | subscription id length `n` (0..=255; NOTICE and OK have none) |
//! | 2..2+n | subscription id, UTF-8 |
//! | 2+n.. | EVENT: the profile's record; CLOSED: a UTF-8 message |
//!
//! NOTICE is `[4]` and a UTF-8 message; OK is `[5]`, the 32-byte event id,
//! `1` (accepted) or `0`, and a UTF-8 message.
//!
//! Client to relay, REQ and CLOSE stay NIP-01 JSON text for every profile:
//! filters are not events. EVENT is `["EVENT",event]` text on any
//! connection, or, on a binary one, a binary message: [`EVENT`] and the
//! profile's record ([`publish`]).

use crate::transport::TransportError;

/// An event of a subscription.
pub const EVENT: u8 = 1;
/// End of stored events.
pub const EOSE: u8 = 2;
/// The relay ended a subscription.
pub const CLOSED: u8 = 3;
/// A human-readable notice.
pub const NOTICE: u8 = 4;
/// The answer to a client's EVENT.
pub const OK: u8 = 5;

/// Longest subscription id in bytes (NIP-01: "max length 64 chars"; counted
/// in bytes, as Rust and C relays do, so that every valid id fits the
/// binary envelope).
pub const MAX_SUB_ID: usize = 64;

/// Whether `sub` is a valid NIP-01 subscription id: 1 to [`MAX_SUB_ID`]
/// bytes.
pub fn valid_sub_id(sub: &str) -> bool {
    (1..=MAX_SUB_ID).contains(&sub.len())
}

/// How a profile's messages travel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framing {
    /// NIP-01 JSON arrays in text frames.
    Text,
    /// The binary envelope in binary frames.
    Binary,
}

impl Framing {
    /// JSON profiles (the Nostr baseline family) travel as text.
    pub fn of(profile: &crate::codec::Profile) -> Framing {
        if profile.family == crate::codec::Family::NostrBaseline {
            Framing::Text
        } else {
            Framing::Binary
        }
    }
}

/// Appends a JSON string literal for `s` (serde_json's escaping).
fn json_string(s: &str, out: &mut Vec<u8>) {
    serde_json::to_writer(&mut *out, s).expect("a string always serializes");
}

fn binary_head(kind: u8, sub: &str, out: &mut Vec<u8>) -> Result<(), TransportError> {
    let n = u8::try_from(sub.len()).map_err(|_| {
        TransportError::Protocol(format!(
            "subscription id of {} bytes exceeds the envelope's 255",
            sub.len()
        ))
    })?;
    out.push(kind);
    out.push(n);
    out.extend_from_slice(sub.as_bytes());
    Ok(())
}

/// `["EVENT",sub,RECORD]` or the binary EVENT envelope, into `out` (cleared).
pub fn event(
    framing: Framing,
    sub: &str,
    record: &[u8],
    out: &mut Vec<u8>,
) -> Result<(), TransportError> {
    out.clear();
    match framing {
        Framing::Text => {
            out.extend_from_slice(b"[\"EVENT\",");
            json_string(sub, out);
            out.push(b',');
            out.extend_from_slice(record);
            out.push(b']');
        }
        Framing::Binary => {
            binary_head(EVENT, sub, out)?;
            out.extend_from_slice(record);
        }
    }
    Ok(())
}

/// `["EOSE",sub]` or the binary EOSE envelope, into `out` (cleared).
pub fn eose(framing: Framing, sub: &str, out: &mut Vec<u8>) -> Result<(), TransportError> {
    out.clear();
    match framing {
        Framing::Text => {
            out.extend_from_slice(b"[\"EOSE\",");
            json_string(sub, out);
            out.push(b']');
        }
        Framing::Binary => binary_head(EOSE, sub, out)?,
    }
    Ok(())
}

/// `["CLOSED",sub,message]` or the binary CLOSED envelope.
pub fn closed(
    framing: Framing,
    sub: &str,
    message: &str,
    out: &mut Vec<u8>,
) -> Result<(), TransportError> {
    out.clear();
    match framing {
        Framing::Text => {
            out.extend_from_slice(b"[\"CLOSED\",");
            json_string(sub, out);
            out.push(b',');
            json_string(message, out);
            out.push(b']');
        }
        Framing::Binary => {
            binary_head(CLOSED, sub, out)?;
            out.extend_from_slice(message.as_bytes());
        }
    }
    Ok(())
}

/// `["NOTICE",message]` or the binary NOTICE envelope.
pub fn notice(framing: Framing, message: &str, out: &mut Vec<u8>) {
    out.clear();
    match framing {
        Framing::Text => {
            out.extend_from_slice(b"[\"NOTICE\",");
            json_string(message, out);
            out.push(b']');
        }
        Framing::Binary => {
            out.push(NOTICE);
            out.extend_from_slice(message.as_bytes());
        }
    }
}

/// `["OK",id,accepted,message]` or the binary OK envelope, into `out`
/// (cleared); `id` is 64 lowercase hex.
pub fn ok(framing: Framing, id: &str, accepted: bool, message: &str, out: &mut Vec<u8>) {
    out.clear();
    match framing {
        Framing::Text => {
            out.extend_from_slice(b"[\"OK\",");
            json_string(id, out);
            out.extend_from_slice(if accepted { b",true," } else { b",false," });
            json_string(message, out);
            out.push(b']');
        }
        Framing::Binary => {
            out.push(OK);
            let raw: [u8; 32] = crate::model::hex::decode_array(id).expect("a checked 64-hex id");
            out.extend_from_slice(&raw);
            out.push(u8::from(accepted));
            out.extend_from_slice(message.as_bytes());
        }
    }
}

/// `["EVENT",RECORD]` or the binary client EVENT (`[1]` and the record),
/// into `out` (cleared).
pub fn publish(framing: Framing, record: &[u8], out: &mut Vec<u8>) {
    out.clear();
    match framing {
        Framing::Text => {
            out.extend_from_slice(b"[\"EVENT\",");
            out.extend_from_slice(record);
            out.push(b']');
        }
        Framing::Binary => {
            out.push(EVENT);
            out.extend_from_slice(record);
        }
    }
}

/// The NIP-01 REQ text of one subscription.
pub fn req(sub: &str, filters: &[serde_json::Value]) -> String {
    let mut items = vec![serde_json::json!("REQ"), serde_json::json!(sub)];
    items.extend(filters.iter().cloned());
    serde_json::Value::Array(items).to_string()
}

/// A relay message as the client sees it.
#[derive(Debug, PartialEq, Eq)]
pub enum FromRelay<'a> {
    /// An event record of `sub`.
    Event {
        /// Subscription id.
        sub: std::borrow::Cow<'a, str>,
        /// The profile's record.
        record: &'a [u8],
    },
    /// End of stored events of `sub`.
    Eose(String),
    /// `sub` was closed by the relay.
    Closed(String, String),
    /// A `NOTICE`: the relay's message for people.
    Notice(String),
    /// The answer to an EVENT: id (hex), accepted, message.
    Ok(String, bool, String),
}

fn protocol(what: &str, at: usize) -> TransportError {
    TransportError::Protocol(format!("{what} at byte {at}"))
}

/// Parses one relay message.
pub fn parse(framing: Framing, msg: &[u8]) -> Result<FromRelay<'_>, TransportError> {
    match framing {
        Framing::Binary => {
            let (&kind, rest) = msg
                .split_first()
                .ok_or_else(|| protocol("empty message", 0))?;
            if kind == NOTICE {
                return Ok(FromRelay::Notice(
                    String::from_utf8_lossy(rest).into_owned(),
                ));
            }
            if kind == OK {
                if rest.len() < 33 {
                    return Err(protocol("truncated OK", msg.len()));
                }
                let (id, rest) = rest.split_at(32);
                return Ok(FromRelay::Ok(
                    crate::model::hex::encode(id),
                    rest[0] == 1,
                    String::from_utf8_lossy(&rest[1..]).into_owned(),
                ));
            }
            let (&n, rest) = rest
                .split_first()
                .ok_or_else(|| protocol("missing subscription id length", 1))?;
            let n = usize::from(n);
            if rest.len() < n {
                return Err(protocol("truncated subscription id", msg.len()));
            }
            let sub = std::str::from_utf8(&rest[..n])
                .map_err(|e| protocol("subscription id not UTF-8", 2 + e.valid_up_to()))?;
            let body = &rest[n..];
            match kind {
                EVENT => Ok(FromRelay::Event {
                    sub: sub.into(),
                    record: body,
                }),
                EOSE if body.is_empty() => Ok(FromRelay::Eose(sub.to_owned())),
                EOSE => Err(protocol("trailing bytes after EOSE", 2 + n)),
                CLOSED => Ok(FromRelay::Closed(
                    sub.to_owned(),
                    String::from_utf8_lossy(body).into_owned(),
                )),
                other => Err(protocol(&format!("unknown message type {other}"), 0)),
            }
        }
        Framing::Text => parse_text(msg),
    }
}

fn parse_text(msg: &[u8]) -> Result<FromRelay<'_>, TransportError> {
    const HEAD: &[u8] = b"[\"EVENT\",";
    if let Some(rest) = msg.strip_prefix(HEAD) {
        let mut plain = serde_json::Deserializer::from_slice(rest).into_iter::<&str>();
        let (sub, used) = match plain.next() {
            Some(Ok(s)) => (std::borrow::Cow::Borrowed(s), plain.byte_offset()),
            _ => {
                let mut owned = serde_json::Deserializer::from_slice(rest).into_iter::<String>();
                match owned.next() {
                    Some(Ok(s)) => (std::borrow::Cow::Owned(s), owned.byte_offset()),
                    _ => return Err(protocol("EVENT without a subscription id", HEAD.len())),
                }
            }
        };
        let after = HEAD.len() + used;
        let body = msg[after..].trim_ascii();
        let record = body
            .strip_prefix(b",")
            .and_then(|b| b.strip_suffix(b"]"))
            .ok_or_else(|| protocol("EVENT is not [\"EVENT\",sub,event]", after))?;
        return Ok(FromRelay::Event {
            sub,
            record: record.trim_ascii(),
        });
    }
    let value: Vec<serde_json::Value> = serde_json::from_slice(msg)
        .map_err(|e| protocol(&format!("relay message: {e}"), e.column()))?;
    let text = |i: usize| value.get(i).and_then(|v| v.as_str()).map(str::to_owned);
    match (text(0).as_deref(), text(1)) {
        (Some("EOSE"), Some(sub)) => Ok(FromRelay::Eose(sub)),
        (Some("CLOSED"), Some(sub)) => Ok(FromRelay::Closed(sub, text(2).unwrap_or_default())),
        (Some("NOTICE"), Some(m)) => Ok(FromRelay::Notice(m)),
        (Some("OK"), Some(id)) => Ok(FromRelay::Ok(
            id,
            value.get(2).and_then(|v| v.as_bool()).unwrap_or(false),
            text(3).unwrap_or_default(),
        )),
        _ => Err(protocol("unknown relay message", 0)),
    }
}

/// A client message as the relay sees it.
#[derive(Debug, PartialEq)]
pub enum FromClient {
    /// Open (or replace) subscription `sub` with `filters` (unchecked: the
    /// relay answers a bad one with CLOSED).
    Req(String, Vec<serde_json::Value>),
    /// Close subscription `sub`.
    Close(String),
    /// An event to publish, undecoded: the JSON object of a text EVENT, or
    /// the record of a binary one.
    Event(Framing, Vec<u8>),
}

/// Parses a NIP-01 REQ, CLOSE or EVENT (text).
pub fn parse_client(msg: &[u8]) -> Result<FromClient, TransportError> {
    let value: Vec<&serde_json::value::RawValue> = serde_json::from_slice(msg)
        .map_err(|e| protocol(&format!("client message: {e}"), e.column()))?;
    let text = |i: usize| {
        value
            .get(i)
            .and_then(|v| serde_json::from_str::<String>(v.get()).ok())
    };
    match (text(0).as_deref(), text(1)) {
        (Some("REQ"), Some(sub)) => {
            let filters = value[2..]
                .iter()
                .map(|f| serde_json::from_str(f.get()))
                .collect::<Result<_, _>>()
                .map_err(|e| protocol(&format!("REQ filter: {e}"), e.column()))?;
            Ok(FromClient::Req(sub, filters))
        }
        (Some("CLOSE"), Some(sub)) => Ok(FromClient::Close(sub)),
        (Some("EVENT"), _) if value.len() == 2 => Ok(FromClient::Event(
            Framing::Text,
            value[1].get().as_bytes().to_vec(),
        )),
        _ => Err(protocol(
            "expected [\"REQ\",sub,filter...], [\"CLOSE\",sub] or [\"EVENT\",event]",
            0,
        )),
    }
}

/// Parses a binary client message: [`EVENT`] and a record.
pub fn parse_client_binary(msg: &[u8]) -> Result<FromClient, TransportError> {
    match msg.split_first() {
        Some((&EVENT, record)) => Ok(FromClient::Event(Framing::Binary, record.to_vec())),
        Some((&kind, _)) => Err(protocol(
            &format!("binary client message of type {kind}; only EVENT ({EVENT}) is binary"),
            0,
        )),
        None => Err(protocol("empty binary client message", 0)),
    }
}

/// The `id` of a JSON event that did not decode, when it has a 64-hex one.
pub fn json_event_id(event: &[u8]) -> Option<String> {
    let value: serde_json::Value = serde_json::from_slice(event).ok()?;
    value
        .get("id")
        .and_then(|v| v.as_str())
        .filter(|id| id.len() == 64 && crate::model::hex::is_lower_hex(id))
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_event_bytes() {
        let mut out = Vec::new();
        event(Framing::Binary, "ab", &[9, 8], &mut out).unwrap();
        assert_eq!(out, [EVENT, 2, b'a', b'b', 9, 8]);
        assert_eq!(
            parse(Framing::Binary, &out).unwrap(),
            FromRelay::Event {
                sub: "ab".into(),
                record: &[9, 8]
            }
        );
        eose(Framing::Binary, "ab", &mut out).unwrap();
        assert_eq!(out, [EOSE, 2, b'a', b'b']);
        assert_eq!(
            parse(Framing::Binary, &out).unwrap(),
            FromRelay::Eose("ab".into())
        );
        assert!(parse(Framing::Binary, &[EVENT, 5, b'a']).is_err());
        assert!(binary_head(EVENT, &"x".repeat(256), &mut out).is_err());
    }

    #[test]
    fn text_event_round_trip() {
        let mut out = Vec::new();
        event(Framing::Text, "s\"1", br#"{"kind":1}"#, &mut out).unwrap();
        assert_eq!(out, br#"["EVENT","s\"1",{"kind":1}]"#);
        assert_eq!(
            parse(Framing::Text, &out).unwrap(),
            FromRelay::Event {
                sub: "s\"1".into(),
                record: br#"{"kind":1}"#
            }
        );
        eose(Framing::Text, "s", &mut out).unwrap();
        assert_eq!(
            parse(Framing::Text, &out).unwrap(),
            FromRelay::Eose("s".into())
        );
    }

    #[test]
    fn client_messages() {
        let r = req("x", &[serde_json::json!({})]);
        assert_eq!(r, r#"["REQ","x",{}]"#);
        assert_eq!(
            parse_client(r.as_bytes()).unwrap(),
            FromClient::Req("x".into(), vec![serde_json::json!({})])
        );
        assert_eq!(
            parse_client(br#"["CLOSE","x"]"#).unwrap(),
            FromClient::Close("x".into())
        );
        assert_eq!(
            parse_client(br#"["REQ","x",1]"#).unwrap(),
            FromClient::Req("x".into(), vec![serde_json::json!(1)])
        );
        let id = "ab".repeat(32);
        let ev = format!(r#"{{"id":"{id}"}}"#);
        assert_eq!(
            parse_client(format!(r#"["EVENT", {ev} ]"#).as_bytes()).unwrap(),
            FromClient::Event(Framing::Text, ev.clone().into_bytes())
        );
        assert_eq!(json_event_id(ev.as_bytes()), Some(id.clone()));
        assert_eq!(json_event_id(br#"{"id":"AB"}"#), None);
        assert!(parse_client(br#"["EVENT",{},{}]"#).is_err());
        let mut out = Vec::new();
        publish(Framing::Text, ev.as_bytes(), &mut out);
        assert_eq!(
            parse_client(&out).unwrap(),
            FromClient::Event(Framing::Text, ev.into_bytes())
        );
        publish(Framing::Binary, &[7, 7], &mut out);
        assert_eq!(out, [EVENT, 7, 7]);
        assert_eq!(
            parse_client_binary(&out).unwrap(),
            FromClient::Event(Framing::Binary, vec![7, 7])
        );
        assert!(parse_client_binary(&[EOSE]).is_err() && parse_client_binary(&[]).is_err());
        assert!(parse_client(br#"["COUNT","x",{}]"#).is_err());
        ok(Framing::Binary, &id, false, "blocked: x", &mut out);
        assert_eq!(out[0], OK);
        assert_eq!(out.len(), 1 + 32 + 1 + 10);
        assert_eq!(
            parse(Framing::Binary, &out).unwrap(),
            FromRelay::Ok(id.clone(), false, "blocked: x".into())
        );
        ok(Framing::Text, &id, false, "blocked: x", &mut out);
        assert_eq!(
            parse(Framing::Text, &out).unwrap(),
            FromRelay::Ok(id, false, "blocked: x".into())
        );
        assert!(
            valid_sub_id(&"x".repeat(64)) && !valid_sub_id("") && !valid_sub_id(&"x".repeat(65))
        );
    }
}

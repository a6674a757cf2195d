//! Evolution adapter of `nson` ([`crate::evolution`]): NSON is a JSON
//! object, so a newer writer adds a member; the only place that keeps the
//! fixed offsets and the header valid is after `tags`, before the final
//! `}` (go-nostr's `Unmarshal` stops reading after the last tag). The
//! newer reader is serde_json into the event with `nson` and an optional
//! `future` member, as any JSON reader of NSON would be.

use crate::evolution::{AdapterError, Backward, Evolution, Extension, NewRead, surgery};
use crate::model::{Event, hex};

/// The adapter.
pub(crate) struct Adapter;

/// `nson`.
pub(crate) const ADAPTER: Adapter = Adapter;

/// The NSON object with an optional `future` member.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct NewNson {
    id: String,
    pubkey: String,
    sig: String,
    created_at: u64,
    #[expect(dead_code, reason = "a JSON reader skips the header")]
    nson: String,
    kind: u16,
    content: String,
    tags: Vec<Vec<String>>,
    #[serde(default)]
    future: Option<u64>,
}

pub(super) fn read(bytes: &[u8]) -> Result<Box<NewRead>, String> {
    let n: NewNson = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
    let id = hex::decode_array(&n.id).ok_or("id: not lowercase hex")?;
    let pubkey = hex::decode_array(&n.pubkey).ok_or("pubkey: not lowercase hex")?;
    let sig = hex::decode_array(&n.sig).ok_or("sig: not lowercase hex")?;
    Ok(Box::new(NewRead {
        event: Event::new(id, pubkey, sig, n.created_at, n.kind, n.tags, n.content),
        future: n.future,
    }))
}

impl Evolution for Adapter {
    fn field_mechanism(&self) -> &'static str {
        "an extra member `\"future\":42` after `tags`, before the closing `}` (RFC 8259 §4; NSON fixes the order of the other members and its header describes only them, nips PR #515)"
    }

    fn with_field(&self, _: &Event, base: &[u8]) -> Result<Extension, AdapterError> {
        surgery::json_with_key(base)
    }

    fn backward(&self, _: &Event, base: &[u8]) -> Backward {
        Backward::Executed {
            reader: "serde_json into NewNson (nson: String, future: #[serde(default)] Option<u64>)",
            result: read(base),
        }
    }
}

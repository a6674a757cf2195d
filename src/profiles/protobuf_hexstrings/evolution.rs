//! Evolution adapter of `protobuf-hexstrings` ([`crate::evolution`]): a
//! newer writer adds field 8; the newer reader is a prost message with
//! `optional uint64 future = 8` over `HexEvent`.

use crate::codec::evolution::{NewRead, ReadError};
use crate::model::{Event, hex};

use super::super::protobuf::evolution::Adapter;

/// The adapter: `protobuf`'s, with the `HexEvent` reader.
pub(crate) const ADAPTER: Adapter = Adapter {
    element: "field 8 (`40 2a`) appended inside the first HexTag message, whose length grows by 2",
    reader: "prost NewHexEvent (optional uint64 future = 8)",
    read,
};

#[derive(Clone, PartialEq, prost::Message)]
struct NewHexEvent {
    #[prost(string, tag = "1")]
    id: String,
    #[prost(string, tag = "2")]
    pubkey: String,
    #[prost(uint64, tag = "3")]
    created_at: u64,
    #[prost(uint32, tag = "4")]
    kind: u32,
    #[prost(message, repeated, tag = "5")]
    tags: Vec<NewHexTag>,
    #[prost(string, tag = "6")]
    content: String,
    #[prost(string, tag = "7")]
    sig: String,
    #[prost(uint64, optional, tag = "8")]
    future: Option<u64>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct NewHexTag {
    #[prost(string, repeated, tag = "1")]
    values: Vec<String>,
}

fn read(base: &[u8]) -> Result<Box<NewRead>, ReadError> {
    let m = <NewHexEvent as prost::Message>::decode(base).map_err(ReadError::library)?;
    let bad = |field| ReadError::Field {
        field,
        problem: "not lowercase hex of the right length",
    };
    Ok(Box::new(NewRead {
        event: Event {
            id: hex::decode_array(&m.id).ok_or_else(|| bad("id"))?,
            pubkey: hex::decode_array(&m.pubkey).ok_or_else(|| bad("pubkey"))?,
            sig: hex::decode_array(&m.sig).ok_or_else(|| bad("sig"))?,
            created_at: m.created_at,
            kind: u16::try_from(m.kind).map_err(ReadError::library)?,
            tags: m.tags.into_iter().map(|t| t.values).collect(),
            content: m.content,
        },
        future: m.future,
    }))
}

//! Evolution adapter of `protobuf` ([`crate::evolution`]): a newer writer
//! adds field 8; the newer reader is a prost message with
//! `optional uint64 future = 8`.

use crate::codec::evolution::{
    AdapterError, Backward, Element, Evolution, Extension, NewRead, ReadError, surgery,
};
use crate::model::{Event, hex};

/// Field 8, varint 42: key `(8 << 3) | 0` = `40`, then `2a`.
pub(crate) const FIELD_8: [u8; 2] = [0x40, 0x2a];

/// The element case of both protobuf profiles: field 8 inside the first
/// tag message.
pub(crate) fn with_tag_field(e: &Event, base: &[u8]) -> Result<Extension, AdapterError> {
    if e.tags.is_empty() {
        return Err(AdapterError::NoTarget("the event has no tag"));
    }
    surgery::protobuf_nested_appended(base, 5, &FIELD_8)
}

/// The protobuf language guide, "Updating a message type": an old reader
/// parses new fields as unknown fields.
pub(crate) const FIELD: &str = "field 8 (`optional uint64 future = 8`, bytes `40 2a`) appended to the Event message (protobuf encoding guide: a message is a sequence of tagged fields; \"Updating a message type\": old parsers skip unknown fields)";

#[derive(Clone, PartialEq, prost::Message)]
struct NewEvent {
    #[prost(bytes = "vec", tag = "1")]
    id: Vec<u8>,
    #[prost(bytes = "vec", tag = "2")]
    pubkey: Vec<u8>,
    #[prost(uint64, tag = "3")]
    created_at: u64,
    #[prost(uint32, tag = "4")]
    kind: u32,
    #[prost(message, repeated, tag = "5")]
    tags: Vec<NewTag>,
    #[prost(string, tag = "6")]
    content: String,
    #[prost(bytes = "vec", tag = "7")]
    sig: Vec<u8>,
    #[prost(uint64, optional, tag = "8")]
    future: Option<u64>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct NewTag {
    #[prost(message, repeated, tag = "1")]
    values: Vec<NewTagValue>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct NewTagValue {
    #[prost(oneof = "Value", tags = "1, 2")]
    value: Option<Value>,
}

#[derive(Clone, PartialEq, prost::Oneof)]
enum Value {
    #[prost(bytes, tag = "1")]
    Hex(Vec<u8>),
    #[prost(string, tag = "2")]
    Text(String),
}

fn read(base: &[u8]) -> Result<Box<NewRead>, ReadError> {
    let m = <NewEvent as prost::Message>::decode(base).map_err(ReadError::library)?;
    Ok(Box::new(NewRead {
        event: Event {
            id: ReadError::fixed(m.id, "id")?,
            pubkey: ReadError::fixed(m.pubkey, "pubkey")?,
            sig: ReadError::fixed(m.sig, "sig")?,
            created_at: m.created_at,
            kind: u16::try_from(m.kind).map_err(ReadError::library)?,
            tags: m
                .tags
                .into_iter()
                .map(|t| {
                    t.values
                        .into_iter()
                        .map(|v| match v.value {
                            Some(Value::Hex(b)) => hex::encode(&b),
                            Some(Value::Text(s)) => s,
                            None => String::new(),
                        })
                        .collect()
                })
                .collect(),
            content: m.content,
        },
        future: m.future,
    }))
}

/// A protobuf adapter: field 8 at the top level or in the first tag
/// message, and a prost reader with `optional uint64 future = 8`.
pub(crate) struct Adapter {
    /// The tag message's name, for the element mechanism.
    pub(crate) element: &'static str,
    /// The newer reader's name.
    pub(crate) reader: &'static str,
    /// The newer reader.
    pub(crate) read: fn(&[u8]) -> Result<Box<NewRead>, ReadError>,
}

/// `protobuf`.
pub(crate) const ADAPTER: Adapter = Adapter {
    element: "field 8 (`40 2a`) appended inside the first Tag message, whose length grows by 2",
    reader: "prost NewEvent (optional uint64 future = 8)",
    read,
};

impl Evolution for Adapter {
    fn field_mechanism(&self) -> &'static str {
        FIELD
    }

    fn with_field(&self, _: &Event, base: &[u8]) -> Result<Extension, AdapterError> {
        Ok(surgery::appended(base, &FIELD_8))
    }

    fn element_mechanism(&self) -> Element {
        Element::Applies(self.element)
    }

    fn with_element(&self, e: &Event, base: &[u8]) -> Result<Extension, AdapterError> {
        with_tag_field(e, base)
    }

    fn backward(&self, _: &Event, base: &[u8]) -> Backward {
        Backward::Executed {
            reader: self.reader,
            result: (self.read)(base),
        }
    }
}

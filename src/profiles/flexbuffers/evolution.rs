//! Evolution adapter of `flexbuffers` ([`crate::evolution`]): a newer
//! writer's event vector has an eighth element, built with the
//! `flexbuffers` crate's own builder; the newer reader is the crate's serde
//! deserializer into the positional event with an optional eighth element.

use flexbuffers::{Blob, Builder};

use crate::codec::evolution::new_reader::{self, NewPositional, Untagged};
use crate::codec::evolution::{AdapterError, Backward, Evolution, Extension, FUTURE_VALUE};
use crate::model::{Event, hex};

pub(crate) struct Adapter;
pub(crate) const ADAPTER: Adapter = Adapter;

/// The event as an untyped vector, with `extra` elements after the seven.
pub(crate) fn build(e: &Event, extra: &[u64]) -> Vec<u8> {
    let mut b = Builder::default();
    let mut v = b.start_vector();
    v.push(Blob(&e.id[..]));
    v.push(Blob(&e.pubkey[..]));
    v.push(e.created_at);
    v.push(e.kind);
    let mut tags = v.start_vector();
    let mut packed = Vec::new();
    for tag in &e.tags {
        let mut t = tags.start_vector();
        for value in tag {
            packed.clear();
            if hex::decode_into(value, &mut packed) {
                t.push(Blob(&packed[..]));
            } else {
                t.push(value.as_str());
            }
        }
        t.end_vector();
    }
    tags.end_vector();
    v.push(e.content.as_str());
    v.push(Blob(&e.sig[..]));
    for &x in extra {
        v.push(x);
    }
    v.end_vector();
    b.view().to_vec()
}

impl Evolution for Adapter {
    fn field_mechanism(&self) -> &'static str {
        "an eighth element, uint 42, in the event's untyped vector, built with flexbuffers' Builder (FlexBuffers spec: a vector carries its length)"
    }

    fn with_field(&self, e: &Event, _: &[u8]) -> Result<Extension, AdapterError> {
        Ok(Extension {
            bytes: build(e, &[FUTURE_VALUE]),
        })
    }

    fn backward(&self, _: &Event, base: &[u8]) -> Backward {
        new_reader::positional(
            "flexbuffers into NewPositional (an optional eighth element)",
            flexbuffers::from_slice::<NewPositional<Untagged>>(base),
        )
    }
}

//! Evolution adapter of `cbor-stringmap` ([`crate::evolution`]): a newer
//! writer adds the key `"future"` to the event map, in RFC 8949 §4.2.1
//! order (before `"pubkey"`, the other six-byte key); the newer reader is
//! ciborium into the keyed event with an optional `future`.

use minicbor::Decoder;

use crate::codec::evolution::new_reader::NewObject;
use crate::codec::evolution::{AdapterError, Backward, Evolution, Extension, ReadError};
use crate::model::Event;

pub(crate) struct Adapter;
pub(crate) const ADAPTER: Adapter = Adapter;

impl Evolution for Adapter {
    fn field_mechanism(&self) -> &'static str {
        "an extra pair `\"future\": 42` (`66 667574757265 18 2a`) in the event map, at its RFC 8949 §4.2.1 place just before `\"pubkey\"`, the head grown from `a7` to `a8`"
    }

    fn with_field(&self, _: &Event, base: &[u8]) -> Result<Extension, AdapterError> {
        let bad = |e: minicbor::decode::Error| AdapterError::layout(e.to_string());
        if base.first() != Some(&0xa7) {
            return Err(AdapterError::layout("the event must be a map of 7"));
        }
        let mut d = Decoder::new(base);
        d.map().map_err(bad)?;
        let at = loop {
            let at = d.position();
            if d.str().map_err(bad)? == "pubkey" {
                break at;
            }
            d.skip().map_err(bad)?;
        };
        let mut bytes = vec![0xa8];
        bytes.extend_from_slice(&base[1..at]);
        bytes.extend_from_slice(b"\x66future\x18\x2a");
        bytes.extend_from_slice(&base[at..]);
        Ok(Extension { bytes })
    }

    fn backward(&self, _: &Event, base: &[u8]) -> Backward {
        Backward::Executed {
            reader: "ciborium into NewObject (future: #[serde(default)] Option<u64>)",
            result: ciborium::from_reader::<NewObject, _>(base)
                .map_err(ReadError::library)
                .and_then(NewObject::into_read),
        }
    }
}

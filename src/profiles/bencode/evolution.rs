//! Evolution adapter of `bencode` ([`crate::evolution`]): a newer writer
//! appends an eighth element to the event list.

use crate::codec::evolution::{AdapterError, Backward, Evolution, Extension};
use crate::model::Event;

pub(crate) struct Adapter;
pub(crate) const ADAPTER: Adapter = Adapter;

impl Evolution for Adapter {
    fn field_mechanism(&self) -> &'static str {
        "an eighth element `i42e` before the event list's closing `e` (BEP 3: a list is `l`, its elements, `e`)"
    }

    fn with_field(&self, _: &Event, base: &[u8]) -> Result<Extension, AdapterError> {
        match base.split_last() {
            Some((b'e', body)) if base.first() == Some(&b'l') => {
                let mut bytes = body.to_vec();
                bytes.extend_from_slice(b"i42ee");
                Ok(Extension { bytes })
            }
            _ => Err(AdapterError::layout("the event must be a list `l…e`")),
        }
    }

    fn backward(&self, _: &Event, _: &[u8]) -> Backward {
        Backward::ByConstruction(
            "BEP 3: the list's `e` ends it, so a newer reader finds the eighth element absent in an old list; not executed: our reader is hand-written for seven",
        )
    }
}

//! Evolution adapter of `json-sonic` ([`crate::evolution`]): the `json`
//! bytes; the newer reader is sonic-rs into the event with an optional
//! `future` member.

use crate::evolution::new_reader::NewObject;
use crate::evolution::{AdapterError, Backward, Evolution, Extension, surgery};
use crate::model::Event;

/// The adapter.
pub(crate) struct Adapter;
pub(crate) const ADAPTER: Adapter = Adapter;

impl Evolution for Adapter {
    fn field_mechanism(&self) -> &'static str {
        super::super::json::evolution::FIELD
    }

    fn with_field(&self, _: &Event, base: &[u8]) -> Result<Extension, AdapterError> {
        surgery::json_with_key(base)
    }

    fn backward(&self, _: &Event, base: &[u8]) -> Backward {
        Backward::Executed {
            reader: "sonic_rs into NewObject (future: #[serde(default)] Option<u64>)",
            result: sonic_rs::from_slice::<NewObject>(base)
                .map_err(|e| e.to_string())
                .and_then(NewObject::into_read),
        }
    }
}

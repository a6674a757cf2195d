//! Evolution adapter of `json-simd` ([`crate::evolution`]): the `json`
//! bytes; the newer reader is simd-json into the event with an optional
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
        let mut buf = base.to_vec();
        Backward::Executed {
            reader: "simd_json into NewObject (future: #[serde(default)] Option<u64>)",
            result: simd_json::serde::from_slice::<NewObject>(&mut buf)
                .map_err(|e| e.to_string())
                .and_then(NewObject::into_read),
        }
    }
}

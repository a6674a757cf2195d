//! Evolution adapter of `json` ([`crate::evolution`]): a newer writer adds a
//! member to the event object; the newer reader is serde_json into the event
//! with an optional `future` member.

use crate::evolution::new_reader::NewObject;
use crate::evolution::{AdapterError, Backward, Evolution, Extension, surgery};
use crate::model::Event;

/// The adapter.
pub(crate) struct Adapter;
pub(crate) const ADAPTER: Adapter = Adapter;

/// RFC 8259 §4: an object is an unordered set of members; NIP-01 names seven.
pub(crate) const FIELD: &str = "an extra member `\"future\":42` at the end of the event object (RFC 8259 §4: an object is a set of name/value members; NIP-01 names seven)";

impl Evolution for Adapter {
    fn field_mechanism(&self) -> &'static str {
        FIELD
    }

    fn with_field(&self, _: &Event, base: &[u8]) -> Result<Extension, AdapterError> {
        surgery::json_with_key(base)
    }

    fn backward(&self, _: &Event, base: &[u8]) -> Backward {
        Backward::Executed {
            reader: "serde_json into NewObject (future: #[serde(default)] Option<u64>)",
            result: serde_json::from_slice::<NewObject>(base)
                .map_err(|e| e.to_string())
                .and_then(NewObject::into_read),
        }
    }
}

//! Evolution adapter of `json` ([`crate::evolution`]): a newer writer adds a
//! member to the event object; the newer reader is serde_json into the event
//! with an optional `future` member.

use crate::codec::evolution::new_reader::NewObject;
use crate::codec::evolution::{AdapterError, Backward, Evolution, Extension, ReadError, surgery};
use crate::model::Event;

/// A JSON adapter: the member added by [`surgery::json_with_key`], and a
/// newer reader of the JSON library the profile uses.
pub(crate) struct Adapter {
    /// The newer reader's name.
    pub(crate) reader: &'static str,
    /// The newer reader.
    pub(crate) parse: fn(&[u8]) -> Result<NewObject, ReadError>,
}

/// `json`.
pub(crate) const ADAPTER: Adapter = Adapter {
    reader: "serde_json into NewObject (future: #[serde(default)] Option<u64>)",
    parse: |b| serde_json::from_slice(b).map_err(ReadError::library),
};

/// RFC 8259 §4: an object is an unordered set of members; NIP-01 names seven.
const FIELD: &str = "an extra member `\"future\":42` at the end of the event object (RFC 8259 §4: an object is a set of name/value members; NIP-01 names seven)";

impl Evolution for Adapter {
    fn field_mechanism(&self) -> &'static str {
        FIELD
    }

    fn with_field(&self, _: &Event, base: &[u8]) -> Result<Extension, AdapterError> {
        surgery::json_with_key(base)
    }

    fn backward(&self, _: &Event, base: &[u8]) -> Backward {
        Backward::Executed {
            reader: self.reader,
            result: (self.parse)(base).and_then(NewObject::into_read),
        }
    }
}

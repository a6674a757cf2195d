//! Evolution adapter of `gonostr-binary` ([`crate::evolution`]): the layout has no
//! version, field tags or extension point, so a newer writer can only append
//! its field after the last one.

use crate::evolution::{AdapterError, Backward, Evolution, Extension, FUTURE_VALUE, surgery};
use crate::model::Event;

/// The adapter.
pub(crate) struct Adapter;
pub(crate) const ADAPTER: Adapter = Adapter;

impl Evolution for Adapter {
    fn field_mechanism(&self) -> &'static str {
        "a varint 42 appended after the last tag item and its pad (go-nostr binary/hybrid.go v0.32.0: fixed header, content, tags; no version or record length; Go's Unmarshal ignores trailing bytes)"
    }

    fn with_field(&self, _: &Event, base: &[u8]) -> Result<Extension, AdapterError> {
        Ok(surgery::appended(base, &surgery::uvarint(FUTURE_VALUE)))
    }

    fn backward(&self, _: &Event, _: &[u8]) -> Backward {
        Backward::ByConstruction(
            "no version and no optional fields: a newer reader can take the end of the (framed) record as the absent appended field, but nothing in the bytes tells the layouts apart; not executed",
        )
    }
}

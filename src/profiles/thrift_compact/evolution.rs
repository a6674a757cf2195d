//! Evolution adapter of `thrift-compact` ([`crate::evolution`]): a newer
//! writer's IDL adds `8: optional i32 future`, written just before the
//! event struct's stop byte.

use crate::evolution::{AdapterError, Backward, Element, Evolution, Extension};
use crate::model::Event;

/// The adapter.
pub(crate) struct Adapter;
pub(crate) const ADAPTER: Adapter = Adapter;

impl Evolution for Adapter {
    fn field_mechanism(&self) -> &'static str {
        "field 8 (`8: optional i32 future`, compact header `15`: delta 1 from field 7, type i32; zig-zag 42 = `54`) inserted before the Event struct's stop byte (Thrift compact protocol spec, \"Struct encoding\"; Thrift IDL: readers skip unknown field ids)"
    }

    fn with_field(&self, _: &Event, base: &[u8]) -> Result<Extension, AdapterError> {
        let Some((&0, body)) = base.split_last() else {
            return Err(AdapterError::layout(
                "the event struct must end with stop `00`",
            ));
        };
        let mut bytes = body.to_vec();
        bytes.extend_from_slice(&[0x15, 0x54, 0x00]);
        Ok(Extension { bytes })
    }

    fn element_mechanism(&self) -> Element {
        Element::NotBuilt(
            "a new field in the Value union needs a walk of the compact list encoding to place it; not built yet",
        )
    }

    fn backward(&self, _: &Event, _: &[u8]) -> Backward {
        Backward::ByConstruction(
            "Thrift IDL: an `optional` field absent from the struct reads as unset (None in Rust's generated code); not executed: our decoder is hand-written for the current IDL",
        )
    }
}

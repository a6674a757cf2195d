//! Evolution adapter of `msgpack` ([`crate::evolution`]): a newer writer
//! appends an eighth element to the event array; the newer reader is
//! rmp-serde into the positional event with an optional eighth element.

use crate::codec::evolution::new_reader::{self, NewPositional, Untagged};
use crate::codec::evolution::{AdapterError, Backward, Evolution, Extension, surgery};
use crate::model::Event;

pub(crate) struct Adapter;
pub(crate) const ADAPTER: Adapter = Adapter;

impl Evolution for Adapter {
    fn field_mechanism(&self) -> &'static str {
        "an eighth element, positive fixint 42 (`2a`), appended to the event array, whose fixarray head grows from `97` to `98` (MessagePack spec, \"array format family\")"
    }

    fn with_field(&self, _: &Event, base: &[u8]) -> Result<Extension, AdapterError> {
        surgery::header_bumped(base, 0x97, 0x98, &[0x2a])
    }

    fn backward(&self, _: &Event, base: &[u8]) -> Backward {
        new_reader::positional(
            "rmp-serde into NewPositional (an optional eighth element)",
            rmp_serde::from_slice::<NewPositional<Untagged>>(base),
        )
    }
}

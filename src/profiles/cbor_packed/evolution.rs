//! Evolution adapter of `cbor-packed` ([`crate::evolution`]): a newer
//! writer appends an eighth element to the event array; the newer reader is
//! ciborium into the positional event with an optional eighth element.

use crate::codec::evolution::new_reader::{self, NewPositional, Untagged};
use crate::codec::evolution::{AdapterError, Backward, Evolution, Extension, surgery};
use crate::model::Event;

pub(crate) struct Adapter;
pub(crate) const ADAPTER: Adapter = Adapter;

impl Evolution for Adapter {
    fn field_mechanism(&self) -> &'static str {
        "an eighth element, unsigned 42 (`18 2a`), appended to the event array, whose head grows from `87` to `88` (RFC 8949 §3.1, major type 4: the head carries the element count)"
    }

    fn with_field(&self, _: &Event, base: &[u8]) -> Result<Extension, AdapterError> {
        surgery::header_bumped(base, 0x87, 0x88, &[0x18, 0x2a])
    }

    fn backward(&self, _: &Event, base: &[u8]) -> Backward {
        new_reader::positional(
            "ciborium into NewPositional (an optional eighth element)",
            ciborium::from_reader::<NewPositional<Untagged>, _>(base),
        )
    }
}

//! Evolution adapter of `beve` ([`crate::evolution`]): a newer writer
//! appends an eighth element to the event's generic array; the newer reader
//! is the `beve` crate into the positional event with an optional eighth
//! element.

use crate::codec::evolution::new_reader::{self, NewPositional, Untagged};
use crate::codec::evolution::{AdapterError, Backward, Evolution, Extension, FUTURE_VALUE};
use crate::model::Event;

pub(crate) struct Adapter;
pub(crate) const ADAPTER: Adapter = Adapter;

impl Evolution for Adapter {
    fn field_mechanism(&self) -> &'static str {
        "an eighth element, the `beve` crate's encoding of u64 42, appended to the event's generic array, whose compressed size grows from 7 (`1c`) to 8 (`20`) (BEVE spec, \"generic array\")"
    }

    fn with_field(&self, _: &Event, base: &[u8]) -> Result<Extension, AdapterError> {
        if base.get(..2) != Some(&[0x05, 0x1c][..]) {
            return Err(AdapterError::layout("event must start `05 1c`"));
        }
        let extra = beve::to_vec(&FUTURE_VALUE).map_err(|e| AdapterError::layout(e.to_string()))?;
        let mut bytes = base.to_vec();
        bytes[1] = 0x20;
        bytes.extend_from_slice(&extra);
        Ok(Extension { bytes })
    }

    fn backward(&self, _: &Event, base: &[u8]) -> Backward {
        new_reader::positional(
            "beve into NewPositional (an optional eighth element)",
            beve::from_slice::<NewPositional<Untagged>>(base),
        )
    }
}

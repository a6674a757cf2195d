//! Evolution adapter of `bincode` ([`crate::evolution`]): a newer writer's
//! struct has an eighth field, which bincode writes after the seventh with
//! nothing to mark it; the newer reader is bincode into the positional event
//! with an optional eighth element.

use crate::codec::evolution::new_reader::{self, NewPositional, Tagged};
use crate::codec::evolution::{
    AdapterError, Backward, Evolution, Extension, FUTURE_VALUE, surgery,
};
use crate::model::Event;

pub(crate) struct Adapter;
pub(crate) const ADAPTER: Adapter = Adapter;

impl Evolution for Adapter {
    fn field_mechanism(&self) -> &'static str {
        "an eighth struct field, `Option<u64>` = Some(42) encoded by bincode 2 standard config (`01 2a`), appended: a tuple/struct has no length or field tags in bincode (bincode spec, \"Structs and tuples\")"
    }

    fn with_field(&self, _: &Event, base: &[u8]) -> Result<Extension, AdapterError> {
        let tail = bincode::serde::encode_to_vec(Some(FUTURE_VALUE), bincode::config::standard())
            .map_err(|e| AdapterError::layout(e.to_string()))?;
        Ok(surgery::appended(base, &tail))
    }

    fn backward(&self, _: &Event, base: &[u8]) -> Backward {
        new_reader::positional(
            "bincode 2 into NewPositional (an optional eighth element)",
            bincode::serde::decode_from_slice::<NewPositional<Tagged>, _>(
                base,
                bincode::config::standard(),
            )
            .map(|(v, _)| v),
        )
    }
}

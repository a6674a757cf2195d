//! Evolution adapter of `postcard` ([`crate::evolution`]): a newer writer's
//! struct has an eighth field, which postcard writes after the seventh with
//! nothing to mark it; the newer reader is postcard into the positional
//! event with an optional eighth element.

use crate::codec::evolution::new_reader::{self, NewPositional, Tagged};
use crate::codec::evolution::{
    AdapterError, Backward, Evolution, Extension, FUTURE_VALUE, surgery,
};
use crate::model::Event;

pub(crate) struct Adapter;
pub(crate) const ADAPTER: Adapter = Adapter;

impl Evolution for Adapter {
    fn field_mechanism(&self) -> &'static str {
        "an eighth struct field, `Option<u64>` = Some(42) as postcard writes it (`01 2a`), appended: a struct is its fields in order with no length or tags (postcard wire spec, \"struct\")"
    }

    fn with_field(&self, _: &Event, base: &[u8]) -> Result<Extension, AdapterError> {
        let tail = postcard::to_stdvec(&Some(FUTURE_VALUE))
            .map_err(|e| AdapterError::layout(e.to_string()))?;
        Ok(surgery::appended(base, &tail))
    }

    fn backward(&self, _: &Event, base: &[u8]) -> Backward {
        new_reader::positional(
            "postcard into NewPositional (an optional eighth element)",
            postcard::from_bytes::<NewPositional<Tagged>>(base),
        )
    }
}

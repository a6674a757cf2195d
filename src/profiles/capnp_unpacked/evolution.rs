//! Evolution adapter of `capnp-unpacked` ([`crate::evolution`]): the
//! `capnp-packed` message grown by one data word, left unpacked.

use crate::codec::evolution::{AdapterError, Backward, Element, Evolution, Extension, surgery};
use crate::model::Event;
use crate::profiles::capnp_packed::evolution::{ELEMENT, FIELD, grown_values, newer_read};

pub(crate) struct Adapter;
pub(crate) const ADAPTER: Adapter = Adapter;

impl Evolution for Adapter {
    fn field_mechanism(&self) -> &'static str {
        FIELD
    }

    fn with_field(&self, _: &Event, base: &[u8]) -> Result<Extension, AdapterError> {
        Ok(Extension {
            bytes: surgery::capnp_with_data_word(base)?,
        })
    }

    fn element_mechanism(&self) -> Element {
        ELEMENT
    }

    fn with_element(&self, e: &Event, _: &[u8]) -> Result<Extension, AdapterError> {
        Ok(Extension {
            bytes: grown_values(e)?,
        })
    }

    fn backward(&self, _: &Event, base: &[u8]) -> Backward {
        newer_read(base, false)
    }
}

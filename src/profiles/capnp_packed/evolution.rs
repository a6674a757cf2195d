//! Evolution adapter of `capnp-packed` ([`crate::evolution`]): a newer
//! writer's schema adds `future @7 :UInt64`, which takes a third data word
//! of the `Event` struct ([`surgery::capnp_with_data_word`]); the grown
//! message is packed as the spec describes ([`surgery::capnp_pack`]).

use crate::evolution::{AdapterError, Backward, Element, Evolution, Extension, surgery};
use crate::model::Event;

/// The adapter.
pub(crate) struct Adapter;
pub(crate) const ADAPTER: Adapter = Adapter;

/// The mechanism, shared with `capnp-unpacked`.
pub(crate) const FIELD: &str = "a new field `future @7 :UInt64 = 42`: the Event struct grows from 2 to 3 data words (root pointer data size 3), everything after it moves one word (Cap'n Proto encoding spec, \"Structs\": new fields are added at the end of the data or pointer section; readers of a smaller schema ignore the rest)";

/// The element case, shared with `capnp-unpacked`.
pub(crate) const ELEMENT: Element = Element::NotBuilt(
    "a larger Value struct means growing every element of each inline-composite tag list and its tag word; not built yet",
);

/// The backward clause, shared with `capnp-unpacked`.
pub(crate) const BACKWARD: &str = "Cap'n Proto encoding spec, \"Structs\": a field beyond the struct's data section as written (an old writer's 2 words) reads as its default (0), so a newer reader sees future = 0; not executed: the reader of a newer schema needs generated code for it";

/// The unpacked message of `event` (our `capnp-unpacked` bytes).
pub(crate) fn unpacked(event: &Event) -> Result<Vec<u8>, AdapterError> {
    let mut out = Vec::new();
    super::encode(
        event,
        &mut out,
        false,
        crate::profiles::capnp_unpacked::PROFILE.id,
    )?;
    Ok(out)
}

impl Evolution for Adapter {
    fn field_mechanism(&self) -> &'static str {
        FIELD
    }

    fn with_field(&self, e: &Event, _: &[u8]) -> Result<Extension, AdapterError> {
        let grown = surgery::capnp_with_data_word(&unpacked(e)?)?;
        Ok(Extension {
            bytes: surgery::capnp_pack(&grown),
        })
    }

    fn element_mechanism(&self) -> Element {
        ELEMENT
    }

    fn backward(&self, _: &Event, _: &[u8]) -> Backward {
        Backward::ByConstruction(BACKWARD)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn our_packing_reproduces_the_encoder_on_the_golden() {
        let e = crate::torture::golden_event();
        let mut packed = Vec::new();
        super::super::encode(&e, &mut packed, true, super::super::PROFILE.id).unwrap();
        assert_eq!(surgery::capnp_pack(&unpacked(&e).unwrap()), packed);
    }
}

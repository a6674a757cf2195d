//! Evolution adapter of `cbor-intmap` ([`crate::evolution`]): a newer
//! writer adds key 8 to the event map.

use crate::codec::evolution::{AdapterError, Backward, Evolution, Extension, surgery};
use crate::model::Event;

pub(crate) struct Adapter;
pub(crate) const ADAPTER: Adapter = Adapter;

impl Evolution for Adapter {
    fn field_mechanism(&self) -> &'static str {
        "an extra pair `8: 42` (`08 18 2a`) after key 7, the map head grown from `a7` to `a8` (RFC 8949 §3.1 major type 5; §4.2.1 order keeps it last)"
    }

    fn with_field(&self, _: &Event, base: &[u8]) -> Result<Extension, AdapterError> {
        surgery::header_bumped(base, 0xa7, 0xa8, &[0x08, 0x18, 0x2a])
    }

    fn backward(&self, _: &Event, _: &[u8]) -> Backward {
        Backward::ByConstruction(
            "RFC 8949 §5.6 (maps as records): a newer reader looks key 8 up and finds it absent in an old map; not executed: serde's derive has no integer keys, and our reader is minicbor for the current keys",
        )
    }
}

//! Evolution adapter of `notepack` ([`crate::evolution`]): notepack's
//! SPEC.md has a leading version varint (1) and no other extension point,
//! so a newer writer appends its field after the tags, and a format change
//! bumps the version.

use crate::codec::evolution::{
    AdapterError, Backward, Evolution, Extension, FUTURE_VALUE, VersionSignal, surgery,
};
use crate::model::Event;

/// The adapter.
pub(crate) struct Adapter;
pub(crate) const ADAPTER: Adapter = Adapter;

impl Evolution for Adapter {
    fn field_mechanism(&self) -> &'static str {
        "a varint 42 appended after the tags, the last section (jb55/notepack SPEC.md: version, id, pubkey, sig, created_at, kind, content, tags; no field tags or record length)"
    }

    fn with_field(&self, _: &Event, base: &[u8]) -> Result<Extension, AdapterError> {
        Ok(surgery::appended(base, &surgery::uvarint(FUTURE_VALUE)))
    }

    fn backward(&self, _: &Event, _: &[u8]) -> Backward {
        Backward::ByConstruction(
            "notepack SPEC.md defines no optional field: a newer reader can read version-1 bytes as before and take the end of the (framed) record as the absent field, or key the new layout on version 2; not executed",
        )
    }

    fn version(&self) -> VersionSignal {
        VersionSignal {
            carrier: Some("leading version varint (1)"),
            note: "SPEC.md's first field; a reader can refuse versions it does not know",
        }
    }

    fn with_unknown_version(&self, base: &[u8]) -> Option<Result<Extension, AdapterError>> {
        Some(if base.first() == Some(&1) {
            let mut bytes = base.to_vec();
            bytes[0] = 2;
            Ok(Extension { bytes })
        } else {
            Err(AdapterError::layout("the record must start with version 1"))
        })
    }
}

//! Evolution adapter of `nostrdb-note` ([`crate::evolution`]): `struct
//! ndb_note` starts with a version byte (1, "v1") and has no other
//! extension point (`aux.flags` is a flag word, not a field), so a newer
//! writer appends its field after the padded strings table, and a layout
//! change bumps the version.

use crate::codec::evolution::{
    AdapterError, Backward, Evolution, Extension, FUTURE_VALUE, VersionSignal, surgery,
};
use crate::model::Event;

/// The adapter.
pub(crate) struct Adapter;
pub(crate) const ADAPTER: Adapter = Adapter;

impl Evolution for Adapter {
    fn field_mechanism(&self) -> &'static str {
        "a varint 42 appended after the padded strings table, the last section (damus-io/nostrdb src/nostrdb.c struct ndb_note: version, fixed fields, tags, strings; no field tags or record length)"
    }

    fn with_field(&self, _: &Event, base: &[u8]) -> Result<Extension, AdapterError> {
        Ok(surgery::appended(base, &surgery::uvarint(FUTURE_VALUE)))
    }

    fn backward(&self, _: &Event, _: &[u8]) -> Backward {
        Backward::ByConstruction(
            "struct ndb_note defines no optional field: a newer reader can read version-1 bytes as before and take the end of the record as the absent field, or key the new layout on version 2; not executed",
        )
    }

    fn version(&self) -> VersionSignal {
        VersionSignal {
            carrier: Some("leading version byte (1)"),
            note: "ndb_note's first byte, set by ndb_builder_init; a reader can refuse versions it does not know",
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

//! Evolution adapter of `avro` ([`crate::evolution`]): a newer writer's
//! schema appends `{"name": "future", "type": "long"}` to the record, so the
//! datum gains one zig-zag long after `sig`. Our reader has the old schema
//! and no writer schema (the profile carries no fingerprint), so it reads
//! the bytes as the old schema would.

use crate::codec::evolution::{AdapterError, Backward, Element, Evolution, Extension, surgery};
use crate::model::Event;

pub(crate) struct Adapter;
pub(crate) const ADAPTER: Adapter = Adapter;

impl Evolution for Adapter {
    fn field_mechanism(&self) -> &'static str {
        "a writer schema with a new last field `future: long` = 42 (zig-zag `54`) after `sig`; the reader has only the old schema (Avro 1.11 spec, \"Binary encoding\": a record is its fields in schema order, nothing marks them)"
    }

    fn with_field(&self, _: &Event, base: &[u8]) -> Result<Extension, AdapterError> {
        Ok(surgery::appended(base, &[0x54]))
    }

    fn element_mechanism(&self) -> Element {
        Element::NotApplicable(
            "a tag value is a union of bytes and string, not a record: there is no nested record to extend",
        )
    }

    fn backward(&self, _: &Event, _: &[u8]) -> Backward {
        Backward::ByConstruction(
            "Avro 1.11 spec, \"Schema Resolution\": a reader's field missing from the writer's schema takes the reader field's default, so a newer reader with `future` defaulting to null reads old data exactly, but only when it knows the writer's schema; this datum carries no schema id, so the two schemas must be agreed out of band; apache-avro runs this resolution on our bytes in tests/evolution.rs (`avro_schema_resolution_reads_old_data_with_the_default`)",
        )
    }

    fn version(&self) -> crate::codec::evolution::VersionSignal {
        crate::codec::evolution::VersionSignal {
            carrier: None,
            note: "a bare datum: no single-object header (`C3 01` + CRC-64-AVRO fingerprint) and no container header, so a reader cannot learn the writer's schema from the bytes",
        }
    }
}

//! Evolution adapter of `flatbuffers` ([`crate::evolution`]): a newer
//! writer's schema appends `future: ulong` to `Event` (slot 7, vtable
//! offset 18) or to `Value` (slot 2, vtable offset 8); the bytes are built
//! with the `flatbuffers` crate's builder exactly as flatc's generated
//! `create` would for that schema.

use binostr_generated::event_generated::binostr::fb;
use binostr_generated::flatbuffers::{FlatBufferBuilder, VOffsetT, WIPOffset};

use crate::evolution::{AdapterError, Backward, Element, Evolution, Extension, FUTURE_VALUE};
use crate::model::{Event, hex};

/// The adapter.
pub(crate) struct Adapter;
pub(crate) const ADAPTER: Adapter = Adapter;

/// The vtable offset of a field after `content` in `Event` (slot 7).
const EVENT_FUTURE: VOffsetT = 18;
/// The vtable offset of a field after `text` in `Value` (slot 2).
const VALUE_FUTURE: VOffsetT = 8;

fn build(e: &Event, event_future: bool, value_future: bool) -> Vec<u8> {
    let mut fbb = FlatBufferBuilder::new();
    let mut tags = Vec::new();
    let mut packed = Vec::new();
    for tag in &e.tags {
        let mut values = Vec::new();
        for value in tag {
            packed.clear();
            let hex_vec = hex::decode_into(value, &mut packed).then(|| fbb.create_vector(&packed));
            let text = hex_vec.is_none().then(|| fbb.create_string(value));
            let start = fbb.start_table();
            if value_future {
                fbb.push_slot::<u64>(VALUE_FUTURE, FUTURE_VALUE, 0);
            }
            if let Some(t) = text {
                fbb.push_slot_always(fb::Value::VT_TEXT, t);
            }
            if let Some(h) = hex_vec {
                fbb.push_slot_always(fb::Value::VT_HEX, h);
            }
            let o = fbb.end_table(start);
            values.push(WIPOffset::<fb::Value>::new(o.value()));
        }
        let values = fbb.create_vector(&values);
        tags.push(fb::Tag::create(
            &mut fbb,
            &fb::TagArgs {
                values: Some(values),
            },
        ));
    }
    let tags = fbb.create_vector(&tags);
    let content = fbb.create_string(&e.content);
    let start = fbb.start_table();
    if event_future {
        fbb.push_slot::<u64>(EVENT_FUTURE, FUTURE_VALUE, 0);
    }
    fbb.push_slot::<u64>(fb::Event::VT_CREATED_AT, e.created_at, 0);
    fbb.push_slot_always(fb::Event::VT_CONTENT, content);
    fbb.push_slot_always(fb::Event::VT_TAGS, tags);
    fbb.push_slot_always::<&fb::Bytes64>(fb::Event::VT_SIG, &fb::Bytes64(e.sig));
    fbb.push_slot_always::<&fb::Bytes32>(fb::Event::VT_PUBKEY, &fb::Bytes32(e.pubkey));
    fbb.push_slot_always::<&fb::Bytes32>(fb::Event::VT_ID, &fb::Bytes32(e.id));
    fbb.push_slot::<u16>(fb::Event::VT_KIND, e.kind, 0);
    let o = fbb.end_table(start);
    fb::finish_size_prefixed_event_buffer(&mut fbb, WIPOffset::new(o.value()));
    fbb.finished_data().to_vec()
}

impl Evolution for Adapter {
    fn field_mechanism(&self) -> &'static str {
        "a new last field `future: ulong = 42` in table Event: one more vtable slot (offset 18) and 8 more table bytes (FlatBuffers schema evolution: add fields only at the end of a table; old code ignores them)"
    }

    fn with_field(&self, e: &Event, _: &[u8]) -> Result<Extension, AdapterError> {
        Ok(Extension {
            bytes: build(e, true, false),
        })
    }

    fn element_mechanism(&self) -> Element {
        Element::Applies(
            "a new last field `future: ulong = 42` in every Value table (vtable slot at offset 8)",
        )
    }

    fn with_element(&self, e: &Event, _: &[u8]) -> Result<Extension, AdapterError> {
        if e.tags.iter().all(Vec::is_empty) {
            return Err(AdapterError::NoTarget("the event has no tag value"));
        }
        Ok(Extension {
            bytes: build(e, false, true),
        })
    }

    fn backward(&self, _: &Event, _: &[u8]) -> Backward {
        Backward::ByConstruction(
            "FlatBuffers: a field absent from the vtable (an old writer's shorter vtable) reads as its schema default, so a newer reader gets future = 0 (or None for an optional scalar); not executed: reading an unknown slot needs generated code for the newer schema, which the safe API does not offer without it",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::Codec;

    #[test]
    fn without_the_extra_slot_the_builder_decodes_to_the_event() {
        let e = crate::torture::golden_event();
        let d = super::super::FlatBuffers
            .decode(&build(&e, false, false), &crate::evolution::limits())
            .unwrap();
        assert_eq!(d, e);
    }
}

//! Evolution adapter of `flatbuffers` ([`crate::evolution`]): a newer
//! writer's schema appends `future: ulong` to `Event` (slot 7, vtable
//! offset 18) or to `Value` (slot 2, vtable offset 8); the bytes are built
//! with the `flatbuffers` crate's builder exactly as flatc's generated
//! `create` would for that schema.

use binostr_generated::event_generated::binostr::fb;
use binostr_generated::flatbuffers::{FlatBufferBuilder, VOffsetT, WIPOffset};

use crate::codec::evolution::{
    AdapterError, Backward, Element, Evolution, Extension, FUTURE_VALUE, NewRead, ReadError,
};
use crate::model::{Event, hex};

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

    fn backward(&self, _: &Event, base: &[u8]) -> Backward {
        Backward::Executed {
            reader: "our decoder for the seven fields, plus slot 18 looked up in the root table's vtable as flatc's generated accessor does (absent when the vtable is shorter or the slot is 0)",
            result: newer_read(base),
        }
    }
}

fn u16_at(b: &[u8], at: usize) -> Result<u16, ReadError> {
    b.get(at..at + 2)
        .map(|x| u16::from_le_bytes([x[0], x[1]]))
        .ok_or_else(|| ReadError::Layout(format!("u16 at {at} past the end")))
}

fn u32_at(b: &[u8], at: usize) -> Result<u32, ReadError> {
    b.get(at..at + 4)
        .map(|x| u32::from_le_bytes([x[0], x[1], x[2], x[3]]))
        .ok_or_else(|| ReadError::Layout(format!("u32 at {at} past the end")))
}

/// A newer reader of a size-prefixed buffer: `future` is slot 18 of the
/// root table (FlatBuffers internals: the root offset follows the size
/// prefix; a table starts with the signed offset back to its vtable; a
/// vtable is its length, the table length, then one `u16` per slot).
fn newer_read(base: &[u8]) -> Result<Box<NewRead>, ReadError> {
    use crate::codec::Codec;
    let event = super::FlatBuffers.decode(base, &crate::codec::evolution::limits())?;
    let table = 4 + u32_at(base, 4)? as usize;
    let soffset = u32_at(base, table)? as i32;
    let vtable = usize::try_from(table as i64 - i64::from(soffset))
        .map_err(|e| ReadError::Layout(e.to_string()))?;
    let vtable_len = u16_at(base, vtable)?;
    let slot = if EVENT_FUTURE + 2 <= vtable_len {
        u16_at(base, vtable + EVENT_FUTURE as usize)?
    } else {
        0
    };
    let future = match slot {
        0 => None,
        at => {
            let at = table + at as usize;
            Some(u64::from(u32_at(base, at)?) | u64::from(u32_at(base, at + 4)?) << 32)
        }
    };
    Ok(Box::new(NewRead { event, future }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::Codec;

    #[test]
    fn without_the_extra_slot_the_builder_decodes_to_the_event() {
        let e = crate::torture::golden_event();
        let d = super::super::FlatBuffers
            .decode(&build(&e, false, false), &crate::codec::evolution::limits())
            .unwrap();
        assert_eq!(d, e);
    }

    #[test]
    fn the_newer_reader_finds_the_new_slot_when_it_is_there() {
        let e = crate::torture::golden_event();
        let r = newer_read(&build(&e, true, false)).unwrap();
        assert_eq!((r.event, r.future), (e.clone(), Some(FUTURE_VALUE)));
        assert_eq!(newer_read(&build(&e, false, false)).unwrap().future, None);
    }
}

//! Evolution adapter of `thrift-compact` ([`crate::evolution`]): a newer
//! writer's IDL adds `8: optional i32 future`, written just before the
//! event struct's stop byte.

use crate::codec::evolution::{AdapterError, Backward, Element, Evolution, Extension, surgery};
use crate::model::Event;

pub(crate) struct Adapter;
pub(crate) const ADAPTER: Adapter = Adapter;

impl Evolution for Adapter {
    fn field_mechanism(&self) -> &'static str {
        "field 8 (`8: optional i32 future`, compact header `15`: delta 1 from field 7, type i32; zig-zag 42 = `54`) inserted before the Event struct's stop byte (Thrift compact protocol spec, \"Struct encoding\"; Thrift IDL: readers skip unknown field ids)"
    }

    fn with_field(&self, _: &Event, base: &[u8]) -> Result<Extension, AdapterError> {
        let Some((&0, body)) = base.split_last() else {
            return Err(AdapterError::layout(
                "the event struct must end with stop `00`",
            ));
        };
        let mut bytes = body.to_vec();
        bytes.extend_from_slice(&[0x15, 0x54, 0x00]);
        Ok(Extension { bytes })
    }

    fn element_mechanism(&self) -> Element {
        Element::Applies(
            "field 3 (`3: i32 future`, zig-zag 42 = `54`) inserted before the stop byte of the first Value struct (a union is a struct with one field set; an old reader skips unknown ids)",
        )
    }

    fn with_element(&self, e: &Event, base: &[u8]) -> Result<Extension, AdapterError> {
        if e.tags.iter().all(Vec::is_empty) {
            return Err(AdapterError::NoTarget("the event has no tag value"));
        }
        let at = first_value_stop(base, e)?;
        let (id, _) = first_value_field(e);
        let mut bytes = base[..at].to_vec();
        bytes.extend_from_slice(&[((3 - id) << 4) | 5, 0x54]);
        bytes.extend_from_slice(&base[at..]);
        Ok(Extension { bytes })
    }

    fn backward(&self, _: &Event, _: &[u8]) -> Backward {
        Backward::ByConstruction(
            "Thrift IDL: an `optional` field absent from the struct reads as unset (None in Rust's generated code); not executed: our decoder is hand-written for the current IDL",
        )
    }
}

/// The field id (1 hex, 2 text) and the index of the first tag value's tag.
fn first_value_field(e: &Event) -> (u8, usize) {
    let (t, v) = e
        .tags
        .iter()
        .enumerate()
        .find_map(|(i, t)| t.first().map(|v| (i, v)))
        .expect("a tag value");
    (
        if crate::model::hex::is_lower_hex(v) {
            1
        } else {
            2
        },
        t,
    )
}

fn list_len(b: &[u8], at: &mut usize) -> Result<u64, AdapterError> {
    let h = *b
        .get(*at)
        .ok_or_else(|| AdapterError::layout("list header past the end"))?;
    *at += 1;
    if h >> 4 == 0xf {
        surgery::read_uvarint(b, at)
    } else {
        Ok(u64::from(h >> 4))
    }
}

/// The offset of the stop byte of the first Value struct: fields 1 to 5
/// are skipped (three binaries, two varints), then field 6's list headers,
/// the empty tags before the first value, and the value's one field.
fn first_value_stop(b: &[u8], e: &Event) -> Result<usize, AdapterError> {
    let mut at = 0;
    for field in 1..=5 {
        if b.get(at).map(|h| h >> 4) != Some(1) {
            return Err(AdapterError::layout(format!(
                "field {field} must follow field {}",
                field - 1
            )));
        }
        at += 1;
        let n = surgery::read_uvarint(b, &mut at)?;
        if field <= 3 {
            at += n as usize;
        }
    }
    if b.get(at) != Some(&0x19) {
        return Err(AdapterError::layout("field 6 must be a list"));
    }
    at += 1;
    list_len(b, &mut at)?;
    let (id, tag) = first_value_field(e);
    for _ in 0..tag {
        if list_len(b, &mut at)? != 0 {
            return Err(AdapterError::layout(
                "tags before the first value must be empty",
            ));
        }
    }
    list_len(b, &mut at)?;
    if b.get(at) != Some(&((id << 4) | 8)) {
        return Err(AdapterError::layout(
            "the first value must hold one binary field",
        ));
    }
    at += 1;
    let n = surgery::read_uvarint(b, &mut at)? as usize;
    at += n;
    if b.get(at) != Some(&0) {
        return Err(AdapterError::layout(
            "the first value must end after its field",
        ));
    }
    Ok(at)
}

//! Evolution adapter of `capnp-packed` ([`crate::evolution`]): a newer
//! writer's schema adds `future @7 :UInt64`, which takes a third data word
//! of the `Event` struct ([`surgery::capnp_with_data_word`]); the grown
//! message is packed as the spec describes ([`surgery::capnp_pack`]).

use binostr_generated::capnp;

use crate::codec::evolution::{
    AdapterError, Backward, Element, Evolution, Extension, FUTURE_VALUE, NewRead, ReadError,
    surgery,
};
use crate::model::{Event, hex};

pub(crate) struct Adapter;
pub(crate) const ADAPTER: Adapter = Adapter;

/// The mechanism, shared with `capnp-unpacked`.
pub(crate) const FIELD: &str = "a new field `future @7 :UInt64 = 42`: the Event struct grows from 2 to 3 data words (root pointer data size 3), everything after it moves one word (Cap'n Proto encoding spec, \"Structs\": new fields are added at the end of the data or pointer section; readers of a smaller schema ignore the rest)";

/// The element case, shared with `capnp-unpacked`.
pub(crate) const ELEMENT: Element = Element::Applies(
    "a new field `future @2 :UInt64 = 42` in struct Value: every Value grows from 1 to 2 data words (each tag list's tag word says so), written word by word from the encoding spec",
);

/// Appends the words of `bytes` (plus a NUL for `Text`) and points the
/// list pointer at `ptr` to them (element size 2, one byte).
fn put_bytes(seg: &mut Vec<u64>, ptr: usize, bytes: &[u8], nul: bool) {
    let n = bytes.len() + usize::from(nul);
    let at = seg.len();
    seg.resize(at + n.div_ceil(8), 0);
    for (i, &b) in bytes.iter().enumerate() {
        seg[at + i / 8] |= u64::from(b) << (8 * (i % 8));
    }
    list_pointer(seg, ptr, at, 2, n as u64);
}

fn list_pointer(seg: &mut [u64], ptr: usize, target: usize, size: u64, count: u64) {
    let offset = (target - ptr - 1) as u64;
    seg[ptr] = (offset << 2) | 1 | (size << 32) | (count << 35);
}

/// The unpacked one-segment message of `e` laid out as our encoder lays it
/// out (pre-order: root, id, pubkey, sig, tags depth-first, content; see
/// the profile's module docs), written word by word from the Cap'n Proto
/// encoding spec so that `Event` can have `event_words` data words and
/// `Value` `value_words` (2 and 1 today; the tests check that this writes
/// exactly our encoder's bytes then).
pub(crate) fn message(e: &Event, event_words: usize, value_words: usize) -> Vec<u8> {
    let mut seg = vec![0u64; 1 + event_words + 5];
    seg[0] = ((event_words as u64) << 32) | (5 << 48);
    seg[1] = e.created_at;
    seg[2] = u64::from(e.kind);
    for w in &mut seg[3..1 + event_words] {
        *w = FUTURE_VALUE;
    }
    let p = 1 + event_words;
    put_bytes(&mut seg, p, &e.id, false);
    put_bytes(&mut seg, p + 1, &e.pubkey, false);
    put_bytes(&mut seg, p + 2, &e.sig, false);
    let outer = seg.len();
    seg.resize(outer + e.tags.len(), 0);
    list_pointer(&mut seg, p + 3, outer, 6, e.tags.len() as u64);
    let elem = value_words + 1;
    let mut packed = Vec::new();
    for (i, tag) in e.tags.iter().enumerate() {
        let list = seg.len();
        seg.resize(list + 1 + elem * tag.len(), 0);
        list_pointer(&mut seg, outer + i, list, 7, (elem * tag.len()) as u64);
        seg[list] = ((tag.len() as u64) << 2) | ((value_words as u64) << 32) | (1 << 48);
        for (j, v) in tag.iter().enumerate() {
            let at = list + 1 + j * elem;
            for w in &mut seg[at + 1..at + value_words] {
                *w = FUTURE_VALUE;
            }
            packed.clear();
            if hex::decode_into(v, &mut packed) {
                put_bytes(&mut seg, at + value_words, &packed, false);
            } else {
                seg[at] = 1;
                put_bytes(&mut seg, at + value_words, v.as_bytes(), true);
            }
        }
    }
    put_bytes(&mut seg, p + 4, e.content.as_bytes(), true);
    let mut out = Vec::with_capacity(8 + 8 * seg.len());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&(seg.len() as u32).to_le_bytes());
    for w in seg {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out
}

/// The newer reader, shared with `capnp-unpacked`.
pub(crate) const READER: &str = "our decoder for the seven fields, plus data word 2 of the root struct read as generated code reads it (Cap'n Proto encoding spec, \"Structs\": a field beyond the data section as written reads as its default; reported absent)";

/// A newer reader: our decoder, then `future` from the root struct's data
/// section when it has a third word.
pub(crate) fn newer_read(base: &[u8], packed: bool) -> Backward {
    use capnp::message::{ReaderOptions, ReaderSegments};
    let result = (|| {
        let event = super::decode(base, &crate::codec::evolution::limits(), packed)?;
        let mut rest = base;
        let message = if packed {
            capnp::serialize_packed::read_message(&mut rest, ReaderOptions::new())
        } else {
            capnp::serialize::read_message(&mut rest, ReaderOptions::new())
        }
        .map_err(ReadError::library)?;
        let segments = message.into_segments();
        let seg = segments
            .get_segment(0)
            .ok_or_else(|| ReadError::Layout("no segment".into()))?;
        let word = |i: usize| {
            seg.get(8 * i..8 * i + 8)
                .map(|w| u64::from_le_bytes(w.try_into().expect("8 bytes")))
                .ok_or_else(|| ReadError::Layout(format!("word {i} past the segment")))
        };
        let root = word(0)?;
        let start = 1 + (root as u32 >> 2) as usize;
        let future = ((root >> 32) as u16 > 2)
            .then(|| word(start + 2))
            .transpose()?;
        Ok(Box::new(NewRead { event, future }))
    })();
    Backward::Executed {
        reader: READER,
        result,
    }
}

/// The unpacked message with every Value one data word larger (the
/// element case of both capnp profiles).
pub(crate) fn grown_values(e: &Event) -> Result<Vec<u8>, AdapterError> {
    if e.tags.iter().all(Vec::is_empty) {
        return Err(AdapterError::NoTarget("the event has no tag value"));
    }
    Ok(message(e, 2, 2))
}

/// The unpacked message of `event` (our `capnp-unpacked` bytes).
pub(crate) fn unpacked(event: &Event) -> Result<Vec<u8>, AdapterError> {
    let mut out = Vec::new();
    super::encode(event, &mut out, false, super::PROFILE.id)?;
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

    fn with_element(&self, e: &Event, _: &[u8]) -> Result<Extension, AdapterError> {
        Ok(Extension {
            bytes: surgery::capnp_pack(&grown_values(e)?),
        })
    }

    fn backward(&self, _: &Event, base: &[u8]) -> Backward {
        newer_read(base, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_word_writer_reproduces_the_encoder() {
        let mut events = crate::corpus::generate::generate(1, 200);
        events.push(crate::torture::golden_event());
        let mut e = crate::torture::golden_event();
        e.tags = vec![vec![], vec![String::new()]];
        e.content.clear();
        events.push(e);
        for (i, e) in events.iter().enumerate() {
            assert_eq!(message(e, 2, 1), unpacked(e).unwrap(), "event {i}");
        }
    }

    #[test]
    fn the_newer_reader_finds_the_new_word_when_it_is_there() {
        let e = crate::torture::golden_event();
        let grown = message(&e, 3, 1);
        let Backward::Executed { result, .. } = newer_read(&grown, false) else {
            unreachable!()
        };
        let r = result.unwrap();
        assert_eq!((r.event, r.future), (e.clone(), Some(FUTURE_VALUE)));
        let Backward::Executed { result, .. } = newer_read(&surgery::capnp_pack(&grown), true)
        else {
            unreachable!()
        };
        assert_eq!(result.unwrap().future, Some(FUTURE_VALUE));
    }

    #[test]
    fn our_packing_reproduces_the_encoder_on_the_golden() {
        let e = crate::torture::golden_event();
        let mut packed = Vec::new();
        super::super::encode(&e, &mut packed, true, super::super::PROFILE.id).unwrap();
        assert_eq!(surgery::capnp_pack(&unpacked(&e).unwrap()), packed);
    }
}

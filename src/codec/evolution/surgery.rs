//! Byte-level helpers the adapters share: each takes a profile's current
//! bytes and returns what a newer writer of the same format would write,
//! checking the layout it expects first (an [`AdapterError`] otherwise).

use super::{
    AdapterError, Backward, Evolution, Extension, FUTURE_KEY, FUTURE_VALUE, VersionSignal,
};
use crate::model::Event;

/// A JSON object with `"future":42` added as its last member.
pub fn json_with_key(base: &[u8]) -> Result<Extension, AdapterError> {
    let Some((b'}', body)) = base.split_last() else {
        return Err(AdapterError::layout("JSON object must end with `}`"));
    };
    if body.first() != Some(&b'{') {
        return Err(AdapterError::layout("JSON object must start with `{`"));
    }
    let mut bytes = body.to_vec();
    bytes.extend_from_slice(format!(",\"{FUTURE_KEY}\":{FUTURE_VALUE}}}").as_bytes());
    Ok(Extension { bytes })
}

/// `base` with its first byte changed from `from` to `to` (an array or map
/// header one larger) and `element` appended.
pub fn header_bumped(
    base: &[u8],
    from: u8,
    to: u8,
    element: &[u8],
) -> Result<Extension, AdapterError> {
    if base.first() != Some(&from) {
        return Err(AdapterError::layout(format!(
            "first byte must be {from:#04x}, found {:?}",
            base.first()
        )));
    }
    let mut bytes = base.to_vec();
    bytes[0] = to;
    bytes.extend_from_slice(element);
    Ok(Extension { bytes })
}

/// `base` followed by `tail` (a field appended to a record without a
/// length or count).
pub fn appended(base: &[u8], tail: &[u8]) -> Extension {
    let mut bytes = base.to_vec();
    bytes.extend_from_slice(tail);
    Extension { bytes }
}

/// An unsigned LEB128 varint (protobuf, notepack, event2, dannypack).
pub fn uvarint(mut v: u64) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return out;
        }
        out.push(b | 0x80);
    }
}

/// Reads an unsigned LEB128 varint at `*at`, advancing it.
pub fn read_uvarint(b: &[u8], at: &mut usize) -> Result<u64, AdapterError> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *b
            .get(*at)
            .ok_or_else(|| AdapterError::layout("varint runs past the end"))?;
        *at += 1;
        v |= u64::from(byte & 0x7f) << shift;
        if byte < 0x80 {
            return Ok(v);
        }
    }
    Err(AdapterError::layout("varint too long"))
}

/// A protobuf message with one more field appended inside the first
/// length-delimited field numbered `field` (a nested message): `extra` is
/// appended to its payload and its length rewritten.
pub fn protobuf_nested_appended(
    base: &[u8],
    field: u64,
    extra: &[u8],
) -> Result<Extension, AdapterError> {
    let mut at = 0;
    while at < base.len() {
        let start = at;
        let key = read_uvarint(base, &mut at)?;
        match key & 7 {
            0 => {
                read_uvarint(base, &mut at)?;
            }
            2 => {
                let len_at = at;
                let len = read_uvarint(base, &mut at)? as usize;
                let end = at
                    .checked_add(len)
                    .filter(|&e| e <= base.len())
                    .ok_or_else(|| AdapterError::layout("length past the end"))?;
                if key >> 3 == field {
                    let mut bytes = base[..len_at].to_vec();
                    bytes.extend(uvarint((len + extra.len()) as u64));
                    bytes.extend_from_slice(&base[at..end]);
                    bytes.extend_from_slice(extra);
                    bytes.extend_from_slice(&base[end..]);
                    return Ok(Extension { bytes });
                }
                at = end;
            }
            w => {
                return Err(AdapterError::layout(format!(
                    "unexpected wire type {w} at byte {start}"
                )));
            }
        }
    }
    Err(AdapterError::layout(format!(
        "no field {field} in the message"
    )))
}

/// A one-segment, unpacked Cap'n Proto message whose root struct (right
/// after the root pointer, as our encoder allocates it) has one more data
/// word holding [`FUTURE_VALUE`], as a writer with one more `UInt64` field
/// lays it out (capnp encoding spec, "Structs": new fields extend the data
/// section). Every pointer in the struct and after it moves by one word
/// together with its target, so their offsets stay valid; only the root
/// pointer's data size and the segment's word count change.
pub fn capnp_with_data_word(unpacked: &[u8]) -> Result<Vec<u8>, AdapterError> {
    let word = |i: usize| -> Result<u64, AdapterError> {
        unpacked
            .get(i..i + 8)
            .map(|w| u64::from_le_bytes(w.try_into().expect("8 bytes")))
            .ok_or_else(|| AdapterError::layout("message shorter than its header"))
    };
    if unpacked.len() < 16 || unpacked[..4] != [0; 4] {
        return Err(AdapterError::layout("not a one-segment message"));
    }
    let words = u32::from_le_bytes(unpacked[4..8].try_into().expect("4 bytes")) as usize;
    if unpacked.len() != 8 + 8 * words {
        return Err(AdapterError::layout(
            "segment length differs from the table",
        ));
    }
    let root = word(8)?;
    let offset = (root as u32) >> 2;
    let data = (root >> 32) as u16;
    let pointers = (root >> 48) as u16;
    if root & 3 != 0 || offset != 0 {
        return Err(AdapterError::layout(
            "root struct must follow the root pointer",
        ));
    }
    let insert_at = 8 + 8 * (1 + data as usize);
    let mut out = Vec::with_capacity(unpacked.len() + 8);
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&(words as u32 + 1).to_le_bytes());
    let grown = (root & 0xffff_ffff) | (u64::from(data + 1) << 32) | (u64::from(pointers) << 48);
    out.extend_from_slice(&grown.to_le_bytes());
    out.extend_from_slice(&unpacked[16..insert_at]);
    out.extend_from_slice(&FUTURE_VALUE.to_le_bytes());
    out.extend_from_slice(&unpacked[insert_at..]);
    Ok(out)
}

/// Cap'n Proto packing (encoding spec, "Packing") of an unpacked message:
/// per word a tag byte of its non-zero bytes and those bytes; a zero word
/// is followed by the count of further zero words, an all-non-zero word by
/// the count of following words copied verbatim (those with fewer than two
/// zero bytes, as capnp-rust's packer chooses them).
pub fn capnp_pack(unpacked: &[u8]) -> Vec<u8> {
    let words: Vec<&[u8]> = unpacked.chunks(8).collect();
    let mut out = Vec::with_capacity(unpacked.len());
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        let tag = w
            .iter()
            .enumerate()
            .fold(0u8, |t, (j, &b)| if b != 0 { t | 1 << j } else { t });
        out.push(tag);
        out.extend(w.iter().copied().filter(|&b| b != 0));
        i += 1;
        if tag == 0 {
            let run = words[i..]
                .iter()
                .take(255)
                .take_while(|w| w.iter().all(|&b| b == 0))
                .count();
            out.push(run as u8);
            i += run;
        } else if tag == 0xff {
            let run = words[i..]
                .iter()
                .take(255)
                .take_while(|w| w.len() == 8 && w.iter().filter(|&&b| b == 0).count() < 2)
                .count();
            out.push(run as u8);
            for w in &words[i..i + run] {
                out.extend_from_slice(w);
            }
            i += run;
        }
    }
    out
}

/// The adapter of a fixed layout without version, field tags or extension
/// point (dannypack, go-nostr binary, event2): a newer writer can only
/// append its field, a varint 42, after the last one.
pub struct Appended {
    /// Where the field goes and why, citing the layout's source.
    pub mechanism: &'static str,
}

impl Evolution for Appended {
    fn field_mechanism(&self) -> &'static str {
        self.mechanism
    }

    fn with_field(&self, _: &Event, base: &[u8]) -> Result<Extension, AdapterError> {
        Ok(appended(base, &uvarint(FUTURE_VALUE)))
    }

    fn backward(&self, _: &Event, _: &[u8]) -> Backward {
        Backward::ByConstruction(
            "no version and no optional fields: a newer reader can take the end of the (framed) record as the absent appended field, but nothing in the bytes tells the layouts apart; not executed",
        )
    }
}

/// The adapter of a layout whose first byte is a version (1) and which has
/// no other extension point (notepack, nostrdb-note): a newer writer appends
/// its field, a varint 42, after the last section, and a layout change
/// bumps the version.
pub struct VersionedAppended {
    /// Where the field goes and why, citing the layout's source.
    pub mechanism: &'static str,
    /// Why a newer reader is decided by construction, citing the source.
    pub backward: &'static str,
    /// What carries the version and what a reader can do with it.
    pub version: VersionSignal,
}

impl Evolution for VersionedAppended {
    fn field_mechanism(&self) -> &'static str {
        self.mechanism
    }

    fn with_field(&self, _: &Event, base: &[u8]) -> Result<Extension, AdapterError> {
        Ok(appended(base, &uvarint(FUTURE_VALUE)))
    }

    fn backward(&self, _: &Event, _: &[u8]) -> Backward {
        Backward::ByConstruction(self.backward)
    }

    fn version(&self) -> VersionSignal {
        self.version
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_key_goes_last() {
        let e = json_with_key(br#"{"a":1}"#).unwrap();
        assert_eq!(e.bytes, br#"{"a":1,"future":42}"#);
        assert!(json_with_key(b"[1]").is_err());
    }

    #[test]
    fn header_bump_checks_the_header() {
        assert_eq!(
            header_bumped(&[0x87, 1], 0x87, 0x88, &[2]).unwrap().bytes,
            [0x88, 1, 2]
        );
        assert!(header_bumped(&[0x86], 0x87, 0x88, &[2]).is_err());
    }

    #[test]
    fn protobuf_nested_field_grows_its_length() {
        // field 1 varint 1, field 5 (len 2: 08 01), field 6 (len 0)
        let base = [0x08, 0x01, 0x2a, 0x02, 0x08, 0x01, 0x32, 0x00];
        let e = protobuf_nested_appended(&base, 5, &[0x40, 0x2a]).unwrap();
        assert_eq!(
            e.bytes,
            [0x08, 0x01, 0x2a, 0x04, 0x08, 0x01, 0x40, 0x2a, 0x32, 0x00]
        );
    }

    #[test]
    fn capnp_packing_matches_the_spec_example() {
        // The spec's example: 08 00 00 00 03 00 02 00 -> 51 08 03 02.
        assert_eq!(
            capnp_pack(&[8, 0, 0, 0, 3, 0, 2, 0]),
            [0x51, 0x08, 0x03, 0x02]
        );
        assert_eq!(capnp_pack(&[0; 24]), [0x00, 0x02]);
    }
}

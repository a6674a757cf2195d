//! Evolution adapters of `otnetstring` and `tnetstring`
//! ([`crate::evolution`]): a newer writer appends an eighth element, the
//! integer 42, to the event list, whose size prefix grows to match.

use crate::codec::evolution::{AdapterError, Backward, Evolution, Extension};
use crate::model::Event;

/// An adapter; `ot` selects OTNetstring (type before the data).
pub(crate) struct Adapter {
    ot: bool,
}

/// `otnetstring`.
pub(crate) const OT: Adapter = Adapter { ot: true };
/// `tnetstring`.
pub(crate) const T: Adapter = Adapter { ot: false };

impl Evolution for Adapter {
    fn field_mechanism(&self) -> &'static str {
        if self.ot {
            "an eighth element `2#42` appended to the event list's data, its size prefix grown by 4 (rkh/otnetstring README: `SIZE TYPE DATA`)"
        } else {
            "an eighth element `2:42#` appended to the event list's data, its size prefix grown by 5 (tnetstrings.org: `SIZE:DATA TYPE`)"
        }
    }

    fn with_field(&self, _: &Event, base: &[u8]) -> Result<Extension, AdapterError> {
        let digits = base.iter().take_while(|b| b.is_ascii_digit()).count();
        let size: usize = std::str::from_utf8(&base[..digits])
            .ok()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| AdapterError::layout("the event must start with its size"))?;
        let (sep, extra): (u8, &[u8]) = if self.ot {
            (b'[', b"2#42")
        } else {
            (b':', b"2:42#")
        };
        let data_start = digits + 1;
        let data_end = data_start + size;
        let tail: &[u8] = if self.ot { b"" } else { b"]" };
        if base.get(digits) != Some(&sep)
            || base.len() != data_end + tail.len()
            || !base.ends_with(tail)
        {
            return Err(AdapterError::layout("the event must be one list"));
        }
        let mut bytes = (size + extra.len()).to_string().into_bytes();
        bytes.push(sep);
        bytes.extend_from_slice(&base[data_start..data_end]);
        bytes.extend_from_slice(extra);
        bytes.extend_from_slice(tail);
        Ok(Extension { bytes })
    }

    fn backward(&self, _: &Event, _: &[u8]) -> Backward {
        Backward::ByConstruction(
            "the list's size prefix bounds it, so a newer reader finds the eighth element absent at the end of an old list; not executed: our reader is hand-written for seven",
        )
    }
}

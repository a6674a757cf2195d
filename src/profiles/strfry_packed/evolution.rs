//! Evolution adapter of `strfry-packed` ([`crate::evolution`]): the index
//! has no version or extension point, so a newer writer can only append its
//! field after the JSON ([`Appended`]).

use crate::codec::evolution::surgery::Appended;

pub(crate) const ADAPTER: Appended = Appended {
    mechanism: "a varint 42 appended after the JSON (hoytech/strfry src/PackedEvent.h: fixed 88-byte header and tags to the end of the value, no version or extension point)",
};

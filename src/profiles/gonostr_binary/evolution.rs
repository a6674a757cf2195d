//! Evolution adapter of `gonostr-binary` ([`crate::evolution`]): the layout has no
//! version, field tags or extension point, so a newer writer can only append
//! its field after the last one ([`Appended`]).

use crate::codec::evolution::surgery::Appended;

pub(crate) const ADAPTER: Appended = Appended {
    mechanism: "a varint 42 appended after the last tag item and its pad (go-nostr binary/hybrid.go v0.32.0: fixed header, content, tags; no version or record length; Go's Unmarshal ignores trailing bytes)",
};

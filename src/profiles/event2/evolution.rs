//! Evolution adapter of `event2` ([`crate::evolution`]): the layout has no
//! version, field tags or extension point, so a newer writer can only append
//! its field after the last one ([`Appended`]).

use crate::evolution::surgery::Appended;

/// The adapter.
pub(crate) const ADAPTER: Appended = Appended {
    mechanism: "a varint 42 appended after the signature, the last field (mleku/nostr codec/event binary layout, docs/FORMATS.md; no version or record length)",
};

//! Evolution adapter of `dannypack` ([`crate::evolution`]): the layout has no
//! version, field tags or extension point, so a newer writer can only append
//! its field after the last one ([`Appended`]).

use crate::evolution::surgery::Appended;

/// The adapter.
pub(crate) const ADAPTER: Appended = Appended {
    mechanism: "a varint 42 appended after the content, the last section (DannyPack layout, docs/FORMATS.md: fixed header, tag section, content; no version, magic or record length)",
};

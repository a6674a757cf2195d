//! Evolution adapter of `nostrdb-note` ([`crate::evolution`]): `struct
//! ndb_note` starts with a version byte (1, "v1") and has no other
//! extension point (`aux.flags` is a flag word, not a field), so a newer
//! writer appends its field after the padded strings table, and a layout
//! change bumps the version ([`VersionedAppended`]).

use crate::codec::evolution::VersionSignal;
use crate::codec::evolution::surgery::VersionedAppended;

pub(crate) const ADAPTER: VersionedAppended = VersionedAppended {
    mechanism: "a varint 42 appended after the padded strings table, the last section (damus-io/nostrdb src/nostrdb.c struct ndb_note: version, fixed fields, tags, strings; no field tags or record length)",
    backward: "struct ndb_note defines no optional field: a newer reader can read version-1 bytes as before and take the end of the record as the absent field, or key the new layout on version 2; not executed",
    version: VersionSignal {
        carrier: Some("leading version byte (1)"),
        note: "ndb_note's first byte, set by ndb_builder_init; a reader can refuse versions it does not know",
    },
};

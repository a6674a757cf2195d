//! Evolution adapter of `notepack` ([`crate::evolution`]): notepack's
//! SPEC.md has a leading version varint (1) and no other extension point,
//! so a newer writer appends its field after the tags, and a format change
//! bumps the version ([`VersionedAppended`]).

use crate::codec::evolution::VersionSignal;
use crate::codec::evolution::surgery::VersionedAppended;

pub(crate) const ADAPTER: VersionedAppended = VersionedAppended {
    mechanism: "a varint 42 appended after the tags, the last section (jb55/notepack SPEC.md: version, id, pubkey, sig, created_at, kind, content, tags; no field tags or record length)",
    backward: "notepack SPEC.md defines no optional field: a newer reader can read version-1 bytes as before and take the end of the (framed) record as the absent field, or key the new layout on version 2; not executed",
    version: VersionSignal {
        carrier: Some("leading version varint (1)"),
        note: "SPEC.md's first field; a reader can refuse versions it does not know",
    },
};

//! Evolution adapter of `nson` ([`crate::evolution`]): NSON is a JSON
//! object, so a newer writer adds a member; the only place that keeps the
//! fixed offsets and the header valid is after `tags`, before the final
//! `}` (go-nostr's `Unmarshal` stops reading after the last tag). The
//! newer reader is the NSON reader that also reads an optional `future`
//! member there.

use super::Nson;
use crate::codec::Codec;
use crate::codec::evolution::{
    AdapterError, Backward, Evolution, Extension, NewRead, ReadError, surgery,
};
use crate::model::Event;

pub(crate) struct Adapter;

/// `nson`.
pub(crate) const ADAPTER: Adapter = Adapter;

const FUTURE: &[u8] = b",\"future\":";

/// The newer reader: NSON's own, plus an optional `,"future":N` member
/// between the last `]` and the final `}`. (A plain JSON parser is no
/// newer reader of NSON: Go writes `\x01` for U+0001, which JSON has not.)
pub(super) fn read(bytes: &[u8]) -> Result<Box<NewRead>, ReadError> {
    let limits = crate::codec::evolution::limits();
    let (core, future) = match bytes.windows(FUTURE.len()).rposition(|w| w == FUTURE) {
        Some(at) if bytes[..at].ends_with(b"]") && bytes.ends_with(b"}") => {
            let digits = &bytes[at + FUTURE.len()..bytes.len() - 1];
            let n = std::str::from_utf8(digits)
                .ok()
                .filter(|d| d.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|d| d.parse::<u64>().ok())
                .ok_or(ReadError::Field {
                    field: "future",
                    problem: "not an unsigned integer",
                })?;
            ([&bytes[..at], b"}"].concat(), Some(n))
        }
        _ => (bytes.to_vec(), None),
    };
    let event = Nson.decode(&core, &limits)?;
    Ok(Box::new(NewRead { event, future }))
}

impl Evolution for Adapter {
    fn field_mechanism(&self) -> &'static str {
        "an extra member `\"future\":42` after `tags`, before the closing `}` (RFC 8259 §4; NSON fixes the order of the other members and its header describes only them, nips PR #515)"
    }

    fn with_field(&self, _: &Event, base: &[u8]) -> Result<Extension, AdapterError> {
        surgery::json_with_key(base)
    }

    fn backward(&self, _: &Event, base: &[u8]) -> Backward {
        Backward::Executed {
            reader: "binostr's NSON reader plus an optional `,\"future\":N` member after `tags`",
            result: read(base),
        }
    }
}

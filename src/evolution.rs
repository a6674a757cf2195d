//! The evolution suite (`binostr evolution`): what each registry profile does
//! when readers and writers of different versions meet, and whether its
//! ranges grow without silent truncation.
//!
//! Every outcome comes from running bytes through our real decoders:
//!
//! - **forward, field**: a newer writer adds one top-level field through the
//!   format's own extension mechanism (an extra JSON/BSON/CBOR key, an unknown
//!   protobuf field number or Thrift field id, an extra FlatBuffers vtable
//!   slot, a larger Cap'n Proto struct, an extra trailing element of a
//!   positional array, trailing bytes of a fixed layout); the bytes are built
//!   by the profile's [`Evolution`](crate::codec::evolution::Evolution) adapter and decoded by the profile's
//!   current decoder;
//! - **forward, element**: the same for a record nested below the top level
//!   (the tag value records of schema formats); not applicable where a tag is
//!   a plain list of strings, since an extra value there is data;
//! - **backward**: a newer reader (the old one plus one optional field) meets
//!   old bytes, executed where the format's library offers it cheaply, else
//!   recorded `by-construction` with the clause it rests on;
//! - **version**: whether the wire carries a version or schema id, and what
//!   our reader does with an unknown one (executed by changing it);
//! - **range**: [`range`] cases round-tripped through every profile.
//!
//! A forward read is [`Read::Rejected`] (a clean [`DecodeError`]),
//! [`Read::Ignored`] (the decoded event equals the original exactly) or
//! [`Read::Misread`] (it differs: a failure unless pinned with a reason in
//! `src/evolution/exceptions.toml`). A range case is exact, refused with a
//! clear error, or changed (a failure). Every registry profile names its
//! adapter ([`Profile::evolution`]), so none can go uncovered.

use serde::Serialize;

use crate::codec::{DecodeError, EncodeError, Profile};
use crate::model::Event;

pub mod range;
pub mod report;

/// What an old reader made of a newer writer's bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum Read {
    /// A clean decode error.
    Rejected {
        /// The error kind, as `Debug` prints it.
        kind: String,
        /// Its byte offset.
        offset: usize,
        /// The error's `Display` text.
        message: String,
    },
    /// The decoded event equals the original exactly.
    Ignored,
    /// The decoded event differs from the original.
    Misread {
        /// The first field that differs.
        difference: String,
        /// The pinned reason, when `exceptions.toml` explains it.
        exception: Option<String>,
    },
    /// The case does not apply to this format.
    NotApplicable {
        /// Why.
        reason: String,
    },
    /// The case applies but its bytes are not built by this suite yet.
    NotBuilt {
        /// What is missing.
        reason: String,
    },
    /// The input event is not representable in this profile.
    NotRepresentable {
        /// The encoder's reason.
        reason: String,
    },
    /// The adapter could not build its bytes.
    AdapterError {
        /// Why.
        reason: String,
    },
}

impl Read {
    /// The short label used in the CSV.
    pub fn label(&self) -> &'static str {
        match self {
            Read::Rejected { .. } => "rejected",
            Read::Ignored => "ignored",
            Read::Misread {
                exception: Some(_), ..
            } => "misread-pinned",
            Read::Misread { .. } => "misread",
            Read::NotApplicable { .. } => "n/a",
            Read::NotBuilt { .. } => "not-built",
            Read::NotRepresentable { .. } => "not-representable",
            Read::AdapterError { .. } => "adapter-error",
        }
    }

    /// A failure of the suite: an unexplained misread or a broken adapter.
    pub fn is_failure(&self) -> bool {
        matches!(
            self,
            Read::Misread {
                exception: None,
                ..
            } | Read::AdapterError { .. }
        )
    }
}

/// Classifies the old reader's result on bytes derived from `original`.
pub fn classify(original: &Event, decoded: Result<Event, DecodeError>) -> Read {
    match decoded {
        Err(e) => Read::Rejected {
            kind: format!("{:?}", e.kind),
            offset: e.offset,
            message: e.to_string(),
        },
        Ok(e) if e == *original => Read::Ignored,
        Ok(e) => Read::Misread {
            difference: difference(original, &e),
            exception: None,
        },
    }
}

/// The first field in which `b` differs from `a`, in words.
pub fn difference(a: &Event, b: &Event) -> String {
    if a.id != b.id {
        return "id".into();
    }
    if a.pubkey != b.pubkey {
        return "pubkey".into();
    }
    if a.sig != b.sig {
        return "sig".into();
    }
    if a.created_at != b.created_at {
        return format!("created_at {} became {}", a.created_at, b.created_at);
    }
    if a.kind != b.kind {
        return format!("kind {} became {}", a.kind, b.kind);
    }
    if a.tags.len() != b.tags.len() {
        return format!("{} tags became {}", a.tags.len(), b.tags.len());
    }
    for (i, (x, y)) in a.tags.iter().zip(&b.tags).enumerate() {
        if x.len() != y.len() {
            return format!("tag {i}: {} values became {}", x.len(), y.len());
        }
        if let Some(j) = x.iter().zip(y).position(|(v, w)| v != w) {
            return format!("tag {i} value {j} changed");
        }
    }
    if a.content != b.content {
        return format!(
            "content of {} bytes became {} bytes",
            a.content.len(),
            b.content.len()
        );
    }
    "no difference".into()
}

/// `event` encoded by `p` into a fresh buffer.
pub fn encode(p: &Profile, e: &Event) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::new();
    p.codec.encode(e, &mut out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::DecodeErrorKind;

    fn event() -> Event {
        crate::torture::golden_event()
    }

    #[test]
    fn a_clean_error_is_rejected_with_kind_and_offset() {
        let r = classify(
            &event(),
            Err(DecodeError::at(DecodeErrorKind::TrailingBytes, 17)),
        );
        assert_eq!(
            r,
            Read::Rejected {
                kind: "TrailingBytes".into(),
                offset: 17,
                message: "trailing bytes at byte 17".into()
            }
        );
        assert!(!r.is_failure());
    }

    #[test]
    fn an_equal_event_is_ignored() {
        assert_eq!(classify(&event(), Ok(event())), Read::Ignored);
    }

    #[test]
    fn any_difference_is_a_misread_and_a_failure() {
        let mut e = event();
        e.tags[2][1].push('x');
        let r = classify(&event(), Ok(e));
        assert_eq!(r.label(), "misread");
        assert!(r.is_failure());
        let Read::Misread { difference, .. } = r else {
            unreachable!()
        };
        assert_eq!(difference, "tag 2 value 1 changed");
        let mut e = event();
        e.created_at = 7;
        assert_eq!(
            difference_of(&e),
            "created_at 1700000000 became 7".to_string()
        );
    }

    fn difference_of(e: &Event) -> String {
        difference(&event(), e)
    }
}

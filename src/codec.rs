//! The codec layer: traits every wire profile implements, decode errors with
//! byte offsets, and length framing.
//!
//! Limits ([`Limits`]) apply *while* decoding: a decoder checks each declared
//! length or count against the limit and against the bytes that remain before
//! it allocates, and Nostr's fixed nesting depth means deeper input is an
//! early error, never recursion.

use crate::model::{Event, EventRef};
pub use crate::validate::{Limit, Limits};

/// What went wrong while decoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodeErrorKind {
    /// The input ended before the value did.
    Truncated,
    /// A variable-length integer is malformed or overflows.
    BadVarint,
    /// A valid but non-canonical encoding where the profile requires canonical form.
    NonCanonical,
    /// A [`Limits`] bound was exceeded.
    LimitExceeded(Limit),
    /// A string is not UTF-8.
    BadUtf8,
    /// Bytes remain after a complete event.
    TrailingBytes,
    /// The bytes do not form an event of this profile (named reason).
    Invalid(&'static str),
}

/// A decode failure: its kind and the byte offset where it was detected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{} at byte {offset}", describe(kind))]
pub struct DecodeError {
    /// What went wrong.
    pub kind: DecodeErrorKind,
    /// Byte offset into the input.
    pub offset: usize,
}

fn describe(kind: &DecodeErrorKind) -> String {
    match kind {
        DecodeErrorKind::Truncated => "unexpected end of input".into(),
        DecodeErrorKind::BadVarint => "malformed varint".into(),
        DecodeErrorKind::NonCanonical => "non-canonical encoding".into(),
        DecodeErrorKind::LimitExceeded(what) => format!("limit exceeded ({what})"),
        DecodeErrorKind::BadUtf8 => "invalid UTF-8".into(),
        DecodeErrorKind::TrailingBytes => "trailing bytes".into(),
        DecodeErrorKind::Invalid(why) => format!("invalid: {why}"),
    }
}

impl DecodeError {
    /// An error of `kind` at `offset`.
    pub fn at(kind: DecodeErrorKind, offset: usize) -> Self {
        Self { kind, offset }
    }
}

/// Fails with `LimitExceeded(EventBytes)` at offset 0 when `bytes` is
/// over `limits.max_event_bytes`: the first check of every decoder.
pub fn check_event_size(bytes: &[u8], limits: &Limits) -> Result<(), DecodeError> {
    if bytes.len() > limits.max_event_bytes {
        return Err(DecodeError::at(
            DecodeErrorKind::LimitExceeded(Limit::EventBytes),
            0,
        ));
    }
    Ok(())
}

/// An event this profile cannot represent losslessly; encoding refuses it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not representable in {profile}: {reason}")]
pub struct EncodeError {
    /// Id of the profile that refused the event.
    pub profile: &'static str,
    /// Why, as a short phrase.
    pub reason: String,
}

impl EncodeError {
    /// `profile`'s refusal to encode an event, for `reason`.
    pub fn new(profile: &'static str, reason: impl Into<String>) -> Self {
        Self {
            profile,
            reason: reason.into(),
        }
    }
}

/// Encode an event and decode it back to an owned [`Event`].
pub trait Codec: Sync {
    /// Appends the encoding of `event` to `out` (a reused buffer).
    fn encode(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError>;

    /// Decodes exactly one event from all of `bytes`, enforcing `limits`.
    fn decode(&self, bytes: &[u8], limits: &Limits) -> Result<Event, DecodeError>;

    /// The borrowed view, where the format allows one.
    fn borrowed(&self) -> Option<&dyn BorrowDecode> {
        None
    }

    /// The format's own batch container, where it defines one.
    fn batch(&self) -> Option<&dyn NativeBatch> {
        None
    }

    /// Hostile-input builders (nesting and length bombs, non-canonical
    /// variants) for self-describing formats; `None` for the rest, which the
    /// robustness suite covers with byte-level mutations only.
    fn hostile(&self) -> Option<&dyn HostileInputs> {
        None
    }
}

/// A format-defined container of many events (as opposed to our uniform
/// 4-byte framing, see [`framing`]).
pub trait NativeBatch: Sync {
    /// Appends one batch holding `events`; on error `out` is left as it was.
    fn encode_batch(&self, events: &[Event], out: &mut Vec<u8>) -> Result<(), EncodeError>;

    /// Decodes a whole batch. The event count is bounded by the input length
    /// before anything is reserved, and each event by `limits`.
    fn decode_batch(&self, bytes: &[u8], limits: &Limits) -> Result<Vec<Event>, DecodeError>;
}

/// A borrowed view of an encoded event.
pub trait BorrowDecode: Sync {
    /// Decodes a view borrowing from `bytes` where the layout allows.
    fn decode_ref<'a>(&self, bytes: &'a [u8], limits: &Limits)
    -> Result<EventRef<'a>, DecodeError>;

    /// What [`BorrowDecode::kind_and_pubkey`] checks before it answers.
    fn select_contract(&self) -> SelectContract;

    /// Reads kind and pubkey without materialising tags or content where
    /// the layout allows; by default through the whole view.
    fn kind_and_pubkey(
        &self,
        bytes: &[u8],
        limits: &Limits,
    ) -> Result<(u16, [u8; 32]), DecodeError> {
        let view = self.decode_ref(bytes, limits)?;
        Ok((view.kind, *view.pubkey))
    }
}

/// The safety contract of a selective read, shown in the workload name
/// (`select-checked`, `select-preverified`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelectContract {
    /// The whole record's structure is verified before the fields are read;
    /// safe on untrusted bytes.
    Checked,
    /// Only the prefix holding the fields is read; safe only on bytes that
    /// were validated when they were stored.
    Preverified,
}

pub mod ascii;
pub mod evolution;
pub mod framing;
pub mod hostile;
mod layout;
pub mod maintenance;
pub mod packing;
mod reader;
pub mod write;

pub use hostile::HostileInputs;
pub use layout::{DecodedParts, Layout, Parts, Text, fixed_prefix, hex_or_text, read_tags};
pub use maintenance::{Maintenance, Schema, Spec};
pub use packing::{HEX_64, HEX_TAG_ELEMENTS, Marker, Packing, Place, Shape};
pub use reader::{Reader, utf8};

/// The family a profile belongs to, as in the paper's tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// JSON as Nostr uses it today.
    NostrBaseline,
    /// Open, standardised serialisation formats.
    OpenStandard,
    /// Newer formats.
    Emerging,
    /// A standard envelope with Nostr-specific packing.
    StandardEnvelope,
    /// Formats only Rust speaks.
    RustOnly,
    /// Binary layouts designed for Nostr.
    NostrSpecific,
    /// The forms relays and clients ship today (nostrdb, strfry, NSON).
    NostrShipped,
    /// OTNetstring and relatives.
    Streaming,
}

/// What a profile can do, for reports and for choosing workloads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Capabilities {
    /// `decode(encode(e))` then `encode` gives identical bytes.
    pub deterministic: bool,
    /// The bytes carry their own structure (no schema needed to walk them).
    pub self_describing: bool,
}

/// One registry entry.
pub struct Profile {
    /// Stable id used in results and the paper.
    pub id: &'static str,
    /// The group of layouts it is reported with.
    pub family: Family,
    /// Determinism and self-description, for reports and for choosing
    /// workloads.
    pub capabilities: Capabilities,
    /// Measured by default (disabled variants are kept for comparison runs).
    pub enabled: bool,
    /// The implementation.
    pub codec: &'static dyn Codec,
    /// What the layout packs specially (empty: every value as written).
    pub packs: &'static [Packing],
    /// Sources, schema, crates and specification (`binostr maintenance`).
    pub maintenance: Maintenance,
    /// How a newer writer and a newer reader of the format behave
    /// (`binostr evolution`); it lives in the profile's `evolution.rs`.
    pub evolution: &'static dyn evolution::Evolution,
}

impl std::fmt::Debug for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Profile")
            .field("id", &self.id)
            .field("family", &self.family)
            .field("capabilities", &self.capabilities)
            .field("enabled", &self.enabled)
            .field("borrowed", &self.codec.borrowed().is_some())
            .finish()
    }
}

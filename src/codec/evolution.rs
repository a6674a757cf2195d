//! A profile's evolution adapter: what a newer writer and a newer reader of
//! its format would do. Every registry entry names one
//! ([`Profile::evolution`](super::Profile::evolution)); the suite that runs
//! them over the registry is [`crate::evolution`].

use crate::codec::{DecodeError, EncodeError, Limits};
use crate::model::Event;

pub mod new_reader;
pub mod surgery;

/// The value every hypothetical future field carries.
pub const FUTURE_VALUE: u64 = 42;
/// The name of the future field where the format names fields.
pub const FUTURE_KEY: &str = "future";

/// Bytes that a newer writer produced (or old bytes with their version changed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Extension {
    /// The bytes to hand to the old reader.
    pub bytes: Vec<u8>,
}

/// What a newer reader (ours plus one optional field) made of old bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewRead {
    /// The event it read.
    pub event: Event,
    /// The optional future field; `None` is what absence must read as.
    pub future: Option<u64>,
}

/// How a profile's newer reader is evaluated.
pub enum Backward {
    /// A reader was run: its name (library and type) and its result.
    Executed {
        /// Library and type, e.g. `serde_json NewEvent`.
        reader: &'static str,
        /// What it read, or why it refused the bytes.
        result: Result<Box<NewRead>, ReadError>,
    },
    /// Not executed; the specification clause that decides it.
    ByConstruction(&'static str),
}

/// Why a newer reader refused old bytes. Its text is the backward case's
/// message in `results/evolution/`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// Our own decoder refused the bytes.
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// The format's library (or a standard conversion) refused them; its
    /// message.
    #[error("{0}")]
    Library(String),
    /// A fixed-size field (id, pubkey, sig) of another length.
    #[error("{field}: {len} bytes, expected {expected}")]
    Length {
        /// `id`, `pubkey` or `sig`.
        field: &'static str,
        /// Its length in bytes.
        len: usize,
        /// The length the event needs.
        expected: usize,
    },
    /// A field the reader could not take, e.g. `not lowercase hex`.
    #[error("{field}: {problem}")]
    Field {
        /// The event field's name, or `future`.
        field: &'static str,
        /// What is wrong with it.
        problem: &'static str,
    },
    /// A layout walked by hand ends or points outside the bytes (where).
    #[error("{0}")]
    Layout(String),
}

impl ReadError {
    /// The message of a library's error.
    pub fn library(e: impl std::fmt::Display) -> Self {
        Self::Library(e.to_string())
    }

    /// `bytes` as a fixed-size field named `field`.
    pub fn fixed<const N: usize>(bytes: Vec<u8>, field: &'static str) -> Result<[u8; N], Self> {
        bytes.try_into().map_err(|v: Vec<u8>| Self::Length {
            field,
            len: v.len(),
            expected: N,
        })
    }
}

/// The nested-record case of a profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Element {
    /// It applies; how a newer writer extends the nested record.
    Applies(&'static str),
    /// The format has no nested record to extend; why.
    NotApplicable(&'static str),
    /// It would apply, but this suite does not build the bytes yet; what
    /// is missing (reported `not-built`, visibly).
    NotBuilt(&'static str),
}

/// Whether the wire carries a version or schema id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct VersionSignal {
    /// What carries it (`None`: nothing does).
    pub carrier: Option<&'static str>,
    /// What a reader of this format can do without one, or with one.
    pub note: &'static str,
}

/// Why an adapter could not build its bytes (its expectation of the
/// profile's layout no longer holds): a failure of the suite, never hidden.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AdapterError {
    /// The base encoding could not be produced.
    #[error(transparent)]
    Encode(#[from] EncodeError),
    /// This event has nothing the case could extend (no tag, say): the
    /// case is `n/a` for it.
    #[error("{0}")]
    NoTarget(&'static str),
    /// The base bytes do not have the layout the adapter expects.
    #[error("adapter expectation failed: {0}")]
    Layout(String),
}

impl AdapterError {
    /// A layout expectation that failed.
    pub fn layout(what: impl Into<String>) -> Self {
        Self::Layout(what.into())
    }
}

/// A profile's evolution adapter: it knows how a newer writer and a newer
/// reader of its format would behave. It lives beside its format, in
/// `src/profiles/<module>/evolution.rs`.
pub trait Evolution: Sync {
    /// How a newer writer adds a top-level field, naming the spec clause.
    fn field_mechanism(&self) -> &'static str;

    /// The bytes of `event` (whose current encoding is `base`) written by a
    /// newer writer with one extra top-level field holding [`FUTURE_VALUE`].
    fn with_field(&self, event: &Event, base: &[u8]) -> Result<Extension, AdapterError>;

    /// How a newer writer extends a nested record, or why the case is not
    /// run (the default: tags are lists of strings, nothing to extend).
    fn element_mechanism(&self) -> Element {
        Element::NotApplicable(
            "a tag is a list of strings: an extra value is data, not a schema change",
        )
    }

    /// The bytes with one extra element in a nested record; called only when
    /// [`Evolution::element_mechanism`] is [`Element::Applies`].
    fn with_element(&self, _event: &Event, _base: &[u8]) -> Result<Extension, AdapterError> {
        Err(AdapterError::layout("no nested record"))
    }

    /// A newer reader meeting `base`, the current bytes of `event`.
    fn backward(&self, event: &Event, base: &[u8]) -> Backward;

    /// What carries a version or schema id on the wire (the default: nothing).
    fn version(&self) -> VersionSignal {
        VersionSignal {
            carrier: None,
            note: "no version or schema id on the wire: a reader cannot tell writer versions apart",
        }
    }

    /// `base` with its version or schema id changed to one no reader knows;
    /// `None` where the wire carries none.
    fn with_unknown_version(&self, _base: &[u8]) -> Option<Result<Extension, AdapterError>> {
        None
    }
}

/// The limits every decode of the suite uses: large enough that the range
/// cases test the format, not our default [`Limits`] (which refuse 70,000
/// tags and a 70,000-byte value).
pub fn limits() -> Limits {
    Limits {
        max_event_bytes: 64 << 20,
        max_tags: 100_000,
        max_values_per_tag: 1_000,
        max_value_bytes: 1 << 20,
        max_depth: 3,
    }
}

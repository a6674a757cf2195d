//! What a layout packs specially ([`Profile::packs`](crate::codec::Profile)):
//! which field, which value shape, and how a reader tells a packed value
//! from a plain one. `corpus::valid` derives its near-miss events from
//! these rules, so a new profile's rules get their own cases.

/// One packing rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packing {
    /// Where the packed value sits.
    pub place: Place,
    /// The value shape that is packed.
    pub shape: Shape,
    /// How a reader tells the packed form from a plain value.
    pub marker: Marker,
}

/// Where a packed value sits in the event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Every element of every tag, the name included.
    AnyTagElement,
    /// Element `index` (1: the first value) of a tag named `name`.
    Tag {
        /// The tag name, exactly.
        name: &'static str,
        /// The element's position.
        index: usize,
    },
    /// Element `index` of a tag whose name is one byte.
    OneByteTag {
        /// The element's position.
        index: usize,
    },
    /// The content.
    Content,
}

/// A value shape a layout packs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Lowercase, even-length hex of `min..=max` characters, as its bytes.
    Hex {
        /// Fewest characters.
        min: usize,
        /// Most characters.
        max: usize,
    },
    /// `kind:pubkey:d` (NIP-01 `a`): a canonical decimal u16, 64 lowercase
    /// hex, and any `d`.
    Address,
    /// Any text of at most `max` bytes (stored inline, or indexed).
    Short {
        /// Most bytes.
        max: usize,
    },
    /// A canonical decimal u64 of at least `min`.
    Decimal {
        /// Smallest value.
        min: u64,
    },
}

/// How a reader tells a packed value from a plain one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    /// A flag bit or a type marks it; any other value stays plain text.
    Flag,
    /// Only its length: a plain value of a packed length cannot be carried.
    Length,
    /// It is copied into an index beside the full text, which keeps the value.
    Index,
}

/// 64 lowercase hex characters (an id or a pubkey), packed as 32 bytes.
pub const HEX_64: Shape = Shape::Hex { min: 64, max: 64 };

/// Every non-empty, even-length lowercase hex tag element as bytes, marked
/// by a type or flag: the general formats that carry the Nostr packing.
pub const HEX_TAG_ELEMENTS: &[Packing] = &[Packing {
    place: Place::AnyTagElement,
    shape: Shape::Hex {
        min: 2,
        max: usize::MAX,
    },
    marker: Marker::Flag,
}];

impl std::fmt::Display for Place {
    /// `e[1]`, `any[1]`, `1-byte[1]`, `content`: the prefix of a case name.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Place::AnyTagElement => f.write_str("any"),
            Place::Tag { name, index } => write!(f, "{name}[{index}]"),
            Place::OneByteTag { index } => write!(f, "1-byte[{index}]"),
            Place::Content => f.write_str("content"),
        }
    }
}

//! Hostile inputs for self-describing formats: nesting bombs, length bombs
//! and non-canonical forms.
//!
//! Each format's builder lives in its profile module and is returned from
//! [`Codec::hostile`](super::Codec::hostile); profiles that share a format
//! (the CBOR profiles, the JSON backends) share one. The robustness suite
//! (`crate::torture`) finds them through the registry, writes and runs what
//! they produce; nothing here decodes.
//!
//! Every builder is iterative and linear in its output, so a 10,000,000-deep
//! bomb is built in one pass (10 to 90 MB depending on the format).

/// The container a nesting bomb nests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Nest {
    /// Arrays (lists, vectors) inside arrays.
    Array,
    /// Maps (dicts, objects) whose only value is the next map.
    Map,
}

impl Nest {
    /// Both shapes, in report order.
    pub const ALL: [Nest; 2] = [Nest::Array, Nest::Map];

    /// The lowercase name used in case file names.
    pub fn name(self) -> &'static str {
        match self {
            Nest::Array => "array",
            Nest::Map => "map",
        }
    }
}

/// Hostile inputs a self-describing format admits beyond byte mutations.
pub trait HostileInputs: Sync {
    /// The format family's name, for reports (`"cbor"`, `"json"`, ...).
    fn format(&self) -> &'static str;

    /// Appends `depth` nested containers of `shape` around a null or zero.
    fn nesting_bomb(&self, shape: Nest, depth: usize, out: &mut Vec<u8>);

    /// A few bytes each that declare 2^32−1 or 2^64−1 bytes or elements
    /// (or the format's nearest equivalent), named.
    fn length_bombs(&self) -> Vec<(&'static str, Vec<u8>)>;

    /// Valid-looking but non-canonical, duplicate-field or unknown-field
    /// variants of `golden` (an encoding of the golden event), named.
    fn variants(&self, golden: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
        let _ = golden;
        Vec::new()
    }
}

/// Appends `unit` `n` times.
pub(crate) fn repeat(out: &mut Vec<u8>, unit: &[u8], n: usize) {
    out.reserve(unit.len().saturating_mul(n));
    for _ in 0..n {
        out.extend_from_slice(unit);
    }
}

/// Replaces the first occurrence of `from` in `bytes` with `to`.
pub(crate) fn replace_first(bytes: &[u8], from: &[u8], to: &[u8]) -> Option<Vec<u8>> {
    let at = bytes.windows(from.len()).position(|w| w == from)?;
    let mut out = bytes[..at].to_vec();
    out.extend_from_slice(to);
    out.extend_from_slice(&bytes[at + from.len()..]);
    Some(out)
}

/// The nesting bomb of `shape` and `depth`, alone.
#[cfg(test)]
pub(crate) fn bomb(h: &dyn HostileInputs, shape: Nest, depth: usize) -> Vec<u8> {
    let mut out = Vec::new();
    h.nesting_bomb(shape, depth, &mut out);
    out
}

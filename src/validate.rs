//! NIP-01 validation: canonical serialisation, event id, BIP-340 signature,
//! and structural checks on JSON input.
//!
//! The id is SHA-256 over `[0,<pubkey hex>,<created_at>,<kind>,<tags>,<content>]`
//! with no whitespace and exactly the escapes NIP-01 lists (`\n \" \\ \r \t \b
//! \f`); every other character, including other control characters, U+2028,
//! U+2029 and `/`, goes out verbatim as UTF-8. A general-purpose JSON
//! serializer escapes differently, so it is not the canonicaliser.

use secp256k1::{XOnlyPublicKey, schnorr};
use sha2::{Digest, Sha256};

use crate::model::{Event, hex};

mod json;

pub(crate) use json::check_size;
pub use json::{
    ParseRejection, Record, RecordKind, deserialize_event, parse_event_json, parse_event_json_at,
    parse_record,
};

/// Size and shape limits, enforced while input is read.
///
/// The defaults accept every event seen in the real corpus and follow the
/// largest caps of widely deployed relays (khatru: 512,000-byte messages).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest serialised event in bytes, as received.
    pub max_event_bytes: usize,
    /// Most tags per event.
    pub max_tags: usize,
    /// Most values in one tag.
    pub max_values_per_tag: usize,
    /// Longest tag value in bytes.
    pub max_value_bytes: usize,
    /// Deepest container nesting inside an event (event, tags, tag = 3).
    pub max_depth: usize,
}

/// One [`Limits`] field, as an error names it. A cap derived from a field
/// (a traversal or amplification budget, a frame length) is that field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// [`Limits::max_event_bytes`].
    EventBytes,
    /// [`Limits::max_tags`].
    Tags,
    /// [`Limits::max_values_per_tag`].
    ValuesPerTag,
    /// [`Limits::max_value_bytes`].
    ValueBytes,
    /// [`Limits::max_depth`].
    Depth,
}

impl Limit {
    /// Every field, in [`Limits`] order.
    pub const ALL: [Limit; 5] = [
        Limit::EventBytes,
        Limit::Tags,
        Limit::ValuesPerTag,
        Limit::ValueBytes,
        Limit::Depth,
    ];

    /// The fixed name in error messages.
    pub fn name(self) -> &'static str {
        match self {
            Limit::EventBytes => "event bytes",
            Limit::Tags => "tags",
            Limit::ValuesPerTag => "values per tag",
            Limit::ValueBytes => "tag value bytes",
            Limit::Depth => "depth",
        }
    }

    /// The limit with this [`Limit::name`].
    pub fn named(name: &str) -> Option<Limit> {
        Limit::ALL.into_iter().find(|l| l.name() == name)
    }

    /// This field's value in `limits`.
    #[inline]
    pub fn of(self, limits: &Limits) -> usize {
        match self {
            Limit::EventBytes => limits.max_event_bytes,
            Limit::Tags => limits.max_tags,
            Limit::ValuesPerTag => limits.max_values_per_tag,
            Limit::ValueBytes => limits.max_value_bytes,
            Limit::Depth => limits.max_depth,
        }
    }
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_event_bytes: 512_000,
            max_tags: 10_000,
            max_values_per_tag: 1_000,
            max_value_bytes: 65_536,
            max_depth: 3,
        }
    }
}

/// Why an event is malformed or invalid. [`ValidationError::code`] gives a
/// stable short name for reports.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ValidationError {
    /// Not parseable JSON (including invalid UTF-8 and lone surrogates).
    #[error("malformed json: {0}")]
    MalformedJson(String),
    /// Valid JSON that is neither an event object nor an `EVENT` envelope.
    #[error("not an event: {0}")]
    NotAnEvent(String),
    /// A required field is absent.
    #[error("missing field `{0}`")]
    MissingField(&'static str),
    /// A field has the wrong JSON type.
    #[error("field `{field}` must be {expected}")]
    WrongType {
        /// The NIP-01 field's name.
        field: &'static str,
        /// What was expected, as a phrase.
        expected: &'static str,
    },
    /// A field appears twice in one object.
    #[error("duplicate field `{0}`")]
    DuplicateField(String),
    /// A field NIP-01 does not define; it would be lost by every binary profile.
    #[error("unknown field `{0}`")]
    UnknownField(String),
    /// A hex field that is not lowercase hex of the required length.
    #[error("field `{field}` must be {len} lowercase hex characters")]
    BadHex {
        /// The NIP-01 field's name.
        field: &'static str,
        /// Required length in hex characters.
        len: usize,
    },
    /// A number outside its range.
    #[error("field `{field}` out of range: {detail}")]
    OutOfRange {
        /// The NIP-01 field's name.
        field: &'static str,
        /// The offending value, as written.
        detail: String,
    },
    /// A [`Limits`] bound was exceeded.
    #[error("limit exceeded: {what} {actual} > {limit}")]
    LimitExceeded {
        /// Which limit.
        what: &'static str,
        /// The bound, in the unit of `what`.
        limit: usize,
        /// The value seen (a lower bound when reading stopped early).
        actual: usize,
    },
    /// The id is not the SHA-256 of the canonical serialisation.
    #[error("id mismatch: computed {computed}")]
    IdMismatch {
        /// Lowercase hex of the computed id.
        computed: String,
    },
    /// The pubkey is not a valid BIP-340 x-only public key.
    #[error("pubkey is not a valid x-only public key")]
    BadPubkey,
    /// The BIP-340 signature does not verify.
    #[error("bad signature")]
    BadSignature,
}

impl ValidationError {
    /// A stable, kebab-case name for the class of error.
    pub fn code(&self) -> &'static str {
        match self {
            Self::MalformedJson(_) => "malformed-json",
            Self::NotAnEvent(_) => "not-an-event",
            Self::MissingField(_) => "missing-field",
            Self::WrongType { .. } => "wrong-type",
            Self::DuplicateField(_) => "duplicate-field",
            Self::UnknownField(_) => "unknown-field",
            Self::BadHex { .. } => "bad-hex",
            Self::OutOfRange { .. } => "out-of-range",
            Self::LimitExceeded { .. } => "limit-exceeded",
            Self::IdMismatch { .. } => "id-mismatch",
            Self::BadPubkey => "bad-pubkey",
            Self::BadSignature => "bad-signature",
        }
    }
}

/// Feeds the NIP-01 canonical serialisation of an event to `sink`, in pieces.
///
/// Generic over the tag representation so that owned and borrowed events
/// share one canonicaliser.
pub fn write_canonical<T, V>(
    pubkey: &[u8; 32],
    created_at: u64,
    kind: u16,
    tags: &[T],
    content: &str,
    sink: &mut impl FnMut(&[u8]),
) where
    T: AsRef<[V]>,
    V: AsRef<str>,
{
    let mut pk = [0u8; 64];
    for (i, b) in pubkey.iter().enumerate() {
        pk[2 * i] = b"0123456789abcdef"[usize::from(b >> 4)];
        pk[2 * i + 1] = b"0123456789abcdef"[usize::from(b & 0x0f)];
    }
    sink(b"[0,\"");
    sink(&pk);
    sink(b"\",");
    sink(created_at.to_string().as_bytes());
    sink(b",");
    sink(kind.to_string().as_bytes());
    sink(b",[");
    for (i, tag) in tags.iter().enumerate() {
        sink(if i == 0 { b"[" } else { b",[" });
        for (j, value) in tag.as_ref().iter().enumerate() {
            if j > 0 {
                sink(b",");
            }
            write_canonical_string(value.as_ref(), sink);
        }
        sink(b"]");
    }
    sink(b"],");
    write_canonical_string(content, sink);
    sink(b"]");
}

/// Writes a string literal with exactly NIP-01's seven escapes.
fn write_canonical_string(s: &str, sink: &mut impl FnMut(&[u8])) {
    sink(b"\"");
    let bytes = s.as_bytes();
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let escape: &[u8] = match b {
            b'\n' => b"\\n",
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0x08 => b"\\b",
            0x0c => b"\\f",
            _ => continue,
        };
        sink(&bytes[run..i]);
        sink(escape);
        run = i + 1;
    }
    sink(&bytes[run..]);
    sink(b"\"");
}

/// The canonical serialisation of `event` as bytes.
pub fn canonical_bytes(event: &Event) -> Vec<u8> {
    let mut out = Vec::with_capacity(256 + event.content.len());
    write_canonical(
        &event.pubkey,
        event.created_at,
        event.kind,
        &event.tags,
        &event.content,
        &mut |b| out.extend_from_slice(b),
    );
    out
}

/// SHA-256 of the canonical serialisation: the id the event must carry.
pub fn compute_id(event: &Event) -> [u8; 32] {
    let mut hasher = Sha256::new();
    write_canonical(
        &event.pubkey,
        event.created_at,
        event.kind,
        &event.tags,
        &event.content,
        &mut |b| hasher.update(b),
    );
    hasher.finalize().into()
}

/// Checks that `event.id` is the SHA-256 of its canonical serialisation.
pub fn verify_id(event: &Event) -> Result<(), ValidationError> {
    let computed = compute_id(event);
    if computed == event.id {
        Ok(())
    } else {
        Err(ValidationError::IdMismatch {
            computed: hex::encode(&computed),
        })
    }
}

/// Checks the BIP-340 signature of `event.id` under `event.pubkey`.
pub fn verify_signature(event: &Event) -> Result<(), ValidationError> {
    let pubkey =
        XOnlyPublicKey::from_byte_array(event.pubkey).map_err(|_| ValidationError::BadPubkey)?;
    let sig = schnorr::Signature::from_byte_array(event.sig);
    schnorr::verify(&sig, &event.id, &pubkey).map_err(|_| ValidationError::BadSignature)
}

/// Full NIP-01 check of a structurally valid event: id, then signature.
pub fn verify_event(event: &Event) -> Result<(), ValidationError> {
    verify_id(event)?;
    verify_signature(event)
}

/// Checks an event against `limits` (for events that did not come from JSON,
/// such as generated or decoded ones).
pub fn check_limits(event: &Event, limits: &Limits) -> Result<(), ValidationError> {
    let exceeded = |what, limit, actual| ValidationError::LimitExceeded {
        what,
        limit,
        actual,
    };
    if event.tags.len() > limits.max_tags {
        return Err(exceeded(
            Limit::Tags.name(),
            limits.max_tags,
            event.tags.len(),
        ));
    }
    for tag in &event.tags {
        if tag.len() > limits.max_values_per_tag {
            return Err(exceeded(
                Limit::ValuesPerTag.name(),
                limits.max_values_per_tag,
                tag.len(),
            ));
        }
        if let Some(v) = tag.iter().find(|v| v.len() > limits.max_value_bytes) {
            return Err(exceeded(
                Limit::ValueBytes.name(),
                limits.max_value_bytes,
                v.len(),
            ));
        }
    }
    Ok(())
}

/// Signs an event in place: sets `pubkey` from `keypair`, recomputes `id` and
/// writes a BIP-340 signature with the given auxiliary randomness.
pub fn sign(event: &mut Event, keypair: &secp256k1::Keypair, aux_rand: &[u8; 32]) {
    event.pubkey = keypair.x_only_public_key().0.to_byte_array();
    event.id = compute_id(event);
    event.sig = schnorr::sign_with_aux_rand(&event.id, keypair, aux_rand).to_byte_array();
}

/// A new event signed by `keypair` (see [`sign`]).
pub fn signed_event(
    keypair: &secp256k1::Keypair,
    aux_rand: &[u8; 32],
    (kind, created_at): (u16, u64),
    tags: Vec<Vec<String>>,
    content: String,
) -> Event {
    let mut event = Event {
        id: [0; 32],
        pubkey: [0; 32],
        sig: [0; 64],
        created_at,
        kind,
        tags,
        content,
    };
    sign(&mut event, keypair, aux_rand);
    event
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canonical_of(content: &str) -> String {
        let e = Event {
            id: [0; 32],
            pubkey: [0xab; 32],
            sig: [0; 64],
            created_at: 7,
            kind: 1,
            tags: vec![vec!["t".into(), content.into()]],
            content: content.into(),
        };
        String::from_utf8(canonical_bytes(&e)).unwrap()
    }

    #[test]
    fn canonical_layout() {
        let s = canonical_of("x");
        assert_eq!(
            s,
            format!("[0,\"{}\",7,1,[[\"t\",\"x\"]],\"x\"]", "ab".repeat(32))
        );
    }

    #[test]
    fn exactly_seven_escapes() {
        let cases = [
            ("\n", "\\n"),
            ("\"", "\\\""),
            ("\\", "\\\\"),
            ("\r", "\\r"),
            ("\t", "\\t"),
            ("\u{8}", "\\b"),
            ("\u{c}", "\\f"),
        ];
        for (raw, escaped) in cases {
            let s = canonical_of(&format!("a{raw}b"));
            assert!(s.ends_with(&format!("\"a{escaped}b\"]")), "{raw:?} -> {s}");
        }
    }

    #[test]
    fn everything_else_verbatim() {
        for raw in [
            "\u{0}", "\u{1}", "\u{1f}", "\u{7f}", "/", "\u{2028}", "\u{2029}", "é", "🦀", "<>&'",
        ] {
            let s = canonical_of(&format!("a{raw}b"));
            assert!(s.ends_with(&format!("\"a{raw}b\"]")), "{raw:?} -> {s:?}");
        }
    }

    #[test]
    fn sign_then_verify() {
        let kp = secp256k1::Keypair::from_secret_bytes([7u8; 32]).unwrap();
        let mut e = Event {
            id: [0; 32],
            pubkey: [0; 32],
            sig: [0; 64],
            created_at: 1,
            kind: 1,
            tags: vec![],
            content: "hello".into(),
        };
        sign(&mut e, &kp, &[0; 32]);
        assert_eq!(verify_event(&e), Ok(()));
        let mut forged = e.clone();
        forged.content.push('!');
        assert_eq!(verify_event(&forged).unwrap_err().code(), "id-mismatch");
        let mut resigned = e.clone();
        resigned.sig[0] ^= 1;
        assert_eq!(verify_event(&resigned), Err(ValidationError::BadSignature));
    }

    #[test]
    fn limits_reject() {
        let mut e = Event {
            id: [0; 32],
            pubkey: [0; 32],
            sig: [0; 64],
            created_at: 1,
            kind: 1,
            tags: vec![vec!["p".into()]; 3],
            content: String::new(),
        };
        let limits = Limits {
            max_tags: 2,
            ..Limits::default()
        };
        assert_eq!(
            check_limits(&e, &limits).unwrap_err().code(),
            "limit-exceeded"
        );
        e.tags.truncate(2);
        assert_eq!(check_limits(&e, &limits), Ok(()));
    }
}

//! A NIP-01 event as JSON: the shape of `manifest.event.json`, which
//! `binostr manifest create` writes and the results page reads for its
//! signer.

use serde::{Deserialize, Serialize};

/// One signed Nostr event, fields in NIP-01 order; written compact, it is
/// the event's canonical JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignedEvent {
    /// SHA-256 of the NIP-01 serialization, lowercase hex.
    pub id: String,
    /// The signer's x-only public key, lowercase hex.
    pub pubkey: String,
    /// Unix seconds.
    pub created_at: u64,
    /// Event kind.
    pub kind: u16,
    /// Tags, each a list of strings.
    pub tags: Vec<Vec<String>>,
    /// Free text.
    pub content: String,
    /// BIP-340 signature of `id`, lowercase hex.
    pub sig: String,
}

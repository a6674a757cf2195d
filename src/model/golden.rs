//! The golden event: one event that every profile must represent, and whose
//! encodings `tests/golden/<profile>.hex` pin byte for byte.
//!
//! Each part exercises something a profile must keep apart or get right:
//!
//! - `id` is the bytes `00 01 .. 1f` and `sig` the bytes `ff fe .. c0`: no
//!   two bytes alike, so a swapped, shifted or truncated field shows.
//! - `pubkey` is `0x22` x 32, `created_at` 1,700,000,000 (needs 31 bits),
//!   `kind` 1.
//! - Tag `e`: a 64-hex event id (packed into 32 bytes by profiles that pack
//!   hex), a relay URL and a marker (`root`): a NIP-10 reference.
//! - Tag `p`: a 64-hex pubkey (`cd` x 32), the other packable value.
//! - Tag `t`: hex that must not be packed: uppercase (`ABCDEF`), lowercase
//!   but not 64 digits (`abc`, odd; `00`, short), and an empty value.
//! - An empty tag (no name, no values).
//! - Content: ASCII, an emoji (4-byte UTF-8), quotes, newline and tab (JSON
//!   escapes), CJK and Hebrew (multi-byte and right-to-left), and U+0001 (a
//!   control character JSON writes as `\u0001`).

use super::Event;

/// The golden event (see the module docs for what each part exercises).
pub fn golden_event() -> Event {
    Event {
        id: core::array::from_fn(|i| i as u8),
        pubkey: [0x22; 32],
        sig: core::array::from_fn(|i| 0xff - i as u8),
        created_at: 1_700_000_000,
        kind: 1,
        tags: vec![
            vec![
                "e".into(),
                "ab".repeat(32),
                "wss://relay.example".into(),
                "root".into(),
            ],
            vec!["p".into(), "cd".repeat(32)],
            vec![
                "t".into(),
                "ABCDEF".into(),
                "abc".into(),
                "".into(),
                "00".into(),
            ],
            vec![],
        ],
        content: "gm 🌅 \"quoted\"\n\t日本語 עברית \u{1}".into(),
    }
}

//! Encrypted payloads: NIP-04 direct messages, NIP-59 gift wraps and
//! NIP-37 draft wraps.

use super::{finish, hex_value, tag};
use crate::corpus::generate::{
    Ctx,
    curve::quantile_curve,
    encode::{nip44_payload, nip44_payload_len, random_base64},
};
use crate::model::{Event, hex};
use crate::rng::Gen;

/// Kind 4 plaintext bytes, chosen so that the `base64?iv=base64` content
/// matches the real corpus (p10 52, p50 92, p90 180, p99 884).
const DM_PLAIN_LEN: [(f64, f64); 6] = [
    (0.0, 1.0),
    (0.10, 12.0),
    (0.50, 40.0),
    (0.90, 100.0),
    (0.99, 640.0),
    (1.0, 1300.0),
];

/// Kind 1059: bytes of the innermost NIP-17 message.
const GIFT_MSG_LEN: [(f64, f64); 5] = [
    (0.0, 2.0),
    (0.50, 60.0),
    (0.90, 300.0),
    (0.99, 1500.0),
    (1.0, 4000.0),
];

/// Kind 31234 draft plaintext bytes (real corpus content p50 688 base64).
const DRAFT_LEN: [(f64, f64); 4] = [(0.0, 150.0), (0.5, 450.0), (0.9, 1500.0), (1.0, 6000.0)];

pub(super) fn nip04_dm(ctx: &Ctx, g: &mut Gen, u: f64, at: u64) -> Event {
    let plain = quantile_curve(&DM_PLAIN_LEN, u) as usize;
    let ct = 16 * (plain / 16 + 1);
    let content = format!("{}?iv={}", random_base64(g, ct), random_base64(g, 16));
    let to = *ctx.pubkey(g);
    let mut tags = vec![tag(["p", &hex_value(g, &to)])];
    if g.chance(0.05) {
        let id = *ctx.note(g);
        tags.push(tag(["e", &hex::encode(&id)]));
    }
    let author = ctx.user(g);
    finish(g, author, 4, at, tags, content)
}

pub(super) fn gift_wrap(ctx: &Ctx, g: &mut Gen, u: f64, at: u64) -> Event {
    let msg = quantile_curve(&GIFT_MSG_LEN, u) as usize;
    // NIP-17 rumor (kind 14) -> seal (kind 13, NIP-44) -> wrap (NIP-44).
    let rumor_len = 277 + msg + g.below(200);
    let seal_len = 344 + nip44_payload_len(rumor_len);
    let content = nip44_payload(g, seal_len);
    let to = *ctx.pubkey(g);
    let tags = vec![tag(["p", &hex::encode(&to)])];
    let ephemeral = ctx.ephemeral_key(g);
    let at = at.saturating_sub(g.below(2 * 86_400) as u64);
    finish(g, &ephemeral, 1059, at, tags, content)
}

/// A NIP-37 draft wrap: NIP-44 ciphertext of a draft event.
pub(super) fn draft(ctx: &Ctx, g: &mut Gen, u: f64, at: u64) -> Event {
    let b: [u8; 16] = g.bytes();
    let h = hex::encode(&b);
    let uuid = format!(
        "{}-{}-{}-{}-{}",
        &h[..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..]
    );
    let mut tags = vec![
        tag(["d", &uuid]),
        tag(["k", if g.chance(0.9) { "1" } else { "30023" }]),
    ];
    if g.chance(0.6) {
        let root = *ctx.note(g);
        tags.push(tag(["e", &hex::encode(&root), "", "root"]));
        if g.chance(0.5) {
            let reply = *ctx.note(g);
            tags.push(tag(["e", &hex::encode(&reply), "", "reply"]));
        }
    }
    if g.chance(0.2) {
        tags.push(tag(["expiration", &(at + 90 * 86_400).to_string()]));
    }
    let content = nip44_payload(g, quantile_curve(&DRAFT_LEN, u) as usize);
    let author = ctx.user(g);
    finish(g, author, 31234, at, tags, content)
}

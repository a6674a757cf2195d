//! Lightning: NIP-75 zap goals and NIP-57 zap receipts.

use super::{finish, relay, relays_tag, tag, url_image, url_link};
use crate::corpus::generate::{
    Ctx,
    curve::quantile_curve,
    encode::{bech32, bolt11, sha256},
    text::{self, EMOJI, Lang},
};
use crate::model::{Event, hex};
use crate::rng::Gen;

pub(super) fn zap_goal(ctx: &Ctx, g: &mut Gen, at: u64) -> Event {
    let n = 2 + g.below(5);
    let mut tags = vec![
        relays_tag(g, n),
        tag(["amount", &(g.range(10, 10_000) * 1_000_000).to_string()]),
    ];
    if g.chance(0.5) {
        tags.push(tag([
            "closed_at",
            &(at + g.range(86_400, 90 * 86_400)).to_string(),
        ]));
    }
    if g.chance(0.4) {
        tags.push(tag(["image", &url_image(g)]));
    }
    if g.chance(0.4) {
        let mut s = String::new();
        text::sentence(g, Lang::En, &mut s);
        tags.push(tag(["summary", &s]));
    }
    if g.chance(0.2) {
        tags.push(tag(["r", &url_link(g)]));
    }
    if g.chance(0.2) {
        for _ in 0..2 {
            let pk = *ctx.pubkey(g);
            tags.push(tag([
                "zap",
                &hex::encode(&pk),
                relay(g),
                &g.range(1, 9).to_string(),
            ]));
        }
    }
    let mut content = String::new();
    let lang = Lang::pick(g);
    text::sentence(g, lang, &mut content);
    if g.chance(0.3) {
        content.push(' ');
        content.push_str(g.pick(EMOJI));
    }
    let author = ctx.user(g);
    finish(g, author, 9041, at, tags, content)
}

/// Relays in a zap request's `relays` tag (real corpus: p10 3, p50 7, p90
/// 14, p99 39; the tail is capped at the 27 relays of `RELAYS`).
const ZAP_RELAYS: [(f64, f64); 5] = [
    (0.0, 1.0),
    (0.10, 3.0),
    (0.50, 7.0),
    (0.90, 14.0),
    (1.0, 27.0),
];

/// A NIP-57 zap receipt (kind 9735) signed by an LNURL server, embedding the
/// sender's signed zap request (kind 9734) in its `description` tag.
pub(super) fn zap_receipt(ctx: &Ctx, g: &mut Gen, at: u64) -> Event {
    let sender = ctx.user(g);
    let sender_pk = sender.x_only_public_key().0.to_byte_array();
    let recipient = ctx.user_pk(g);
    // Shares of tags and sizes follow the real corpus's 720 receipts: `e`
    // 718, `P` 648, `preimage` 250; zap request relays p50 7, p90 14.
    let note = if g.chance(0.997) {
        Some(*ctx.note(g))
    } else {
        None
    };
    let sats = g.pick(&[
        21u64, 21, 50, 69, 100, 210, 420, 500, 1000, 1000, 2100, 5000, 10_000, 21_000,
    ]);
    let msat = sats * 1000;

    let mut req_tags = Vec::new();
    let n = quantile_curve(&ZAP_RELAYS, g.unit()).round() as usize;
    let relays = relays_tag(g, n);
    let relays_first = g.chance(0.5);
    if relays_first {
        req_tags.push(relays.clone());
    }
    if let Some(id) = &note {
        req_tags.push(tag(["e", &hex::encode(id)]));
    }
    req_tags.push(tag(["p", &hex::encode(&recipient)]));
    if !relays_first {
        req_tags.push(relays);
    }
    if g.chance(0.7) {
        req_tags.push(tag(["amount", &msat.to_string()]));
    }
    if g.chance(0.3) {
        let lnurl = bech32(
            "lnurl",
            format!("https://getalby.com/.well-known/lnurlp/{}", text::handle(g)).as_bytes(),
        );
        req_tags.push(tag(["lnurl", &lnurl]));
    }
    if g.chance(0.2) {
        req_tags.push(tag(["alt", "Zap request"]));
    }
    let req_content = match g.below(10) {
        0..=5 => String::new(),
        6..=7 => (g.pick(EMOJI)).to_string(),
        _ => {
            let mut s = String::new();
            let lang = Lang::pick(g);
            text::sentence(g, lang, &mut s);
            s
        }
    };
    let req_at = at.saturating_sub(g.range(1, 30));
    let request = finish(g, sender, 9734, req_at, req_tags, req_content);
    let description = request.to_json();

    let preimage: [u8; 32] = g.bytes();
    let invoice = bolt11(
        g,
        msat,
        req_at + 1,
        &sha256(&preimage),
        &sha256(description.as_bytes()),
    );
    let mut tags = vec![tag(["p", &hex::encode(&recipient)])];
    if let Some(id) = &note {
        tags.push(tag(["e", &hex::encode(id)]));
    }
    let big_p = g.chance(0.9);
    if big_p && g.chance(0.5) {
        tags.push(tag(["P", &hex::encode(&sender_pk)]));
    }
    tags.push(tag(["bolt11", &invoice]));
    tags.push(tag(["description", &description]));
    if big_p && tags.iter().all(|t| t[0] != "P") {
        tags.push(tag(["P", &hex::encode(&sender_pk)]));
    }
    if g.chance(0.35) {
        tags.push(tag(["preimage", &hex::encode(&preimage)]));
    }
    let zapper = ctx.zapper(g);
    finish(g, zapper, 9735, at, tags, String::new())
}

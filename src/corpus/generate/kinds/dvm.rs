//! NIP-90 data vending machines: requests (kind 5300) and results (kind
//! 6300).

use secp256k1::Keypair;

use super::{finish, relays_tag, tag};
use crate::corpus::generate::{Ctx, curve::quantile_curve};
use crate::model::{Event, hex};
use crate::rng::Gen;

/// Kind 6300 result entries (real corpus: about 50).
const DVM_RESULTS: [(f64, f64); 4] = [(0.0, 5.0), (0.5, 50.0), (0.9, 100.0), (1.0, 200.0)];

/// A NIP-90 content-discovery request (kind 5300) addressed to `dvm`.
pub(super) fn dvm_request(g: &mut Gen, at: u64, author: &Keypair, dvm: &Keypair) -> Event {
    let mut tags = Vec::new();
    if g.chance(0.8) {
        tags.push(tag([
            "p",
            &hex::encode(&dvm.x_only_public_key().0.to_byte_array()),
        ]));
    }
    tags.push(tag(["alt", "NIP90 Content Discovery Request"]));
    let n = 3 + g.below(6);
    tags.push(relays_tag(g, n));
    if g.chance(0.3) {
        tags.push(tag(["param", "max_results", "200"]));
    }
    if g.chance(0.2) {
        tags.push(tag([
            "param",
            "user",
            &hex::encode(&author.x_only_public_key().0.to_byte_array()),
        ]));
    }
    finish(g, author, 5300, at, tags, String::new())
}

pub(super) fn dvm_result(ctx: &Ctx, g: &mut Gen, u: f64, at: u64) -> Event {
    let dvm = ctx.dvm(g);
    let customer = ctx.user(g);
    let req_at = at.saturating_sub(g.range(1, 5));
    let request = dvm_request(g, req_at, customer, dvm);
    let mut tags = vec![
        tag(["e", &hex::encode(&request.id)]),
        tag(["p", &hex::encode(&request.pubkey)]),
        tag(["request", &request.to_json()]),
    ];
    if g.chance(0.8) {
        tags.push(tag(["status", "success"]));
    }
    if g.chance(0.3) {
        tags.push(tag(["alt", "NIP90 Content Discovery Reply"]));
    }
    let n = quantile_curve(&DVM_RESULTS, u) as usize;
    let mut content = String::from("[");
    for i in 0..n {
        if i > 0 {
            content.push(',');
        }
        content.push_str(&format!("[\"e\",\"{}\"]", hex::encode(ctx.note(g))));
    }
    content.push(']');
    finish(g, dvm, 6300, at, tags, content)
}

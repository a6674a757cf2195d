//! Kinds seen in real traffic without a published NIP.

use super::{finish, hex_value, json_str, tag};
use crate::corpus::generate::{
    Ctx,
    curve::quantile_curve,
    text::{self, Lang},
};
use crate::model::Event;
use crate::rng::Gen;

/// Kind 1000 second-array length (real corpus sizes 1.6-1.7 KB).
const K1000_LEN: [(f64, f64); 4] = [(0.0, 100.0), (0.5, 330.0), (0.9, 420.0), (1.0, 600.0)];

/// Kinds 321 and 1010 carry real traffic but have no published NIP: short
/// text or small JSON content with an `e` or `p` reference, sized like a
/// reply.
pub(super) fn unregistered(ctx: &Ctx, g: &mut Gen, kind: u16, at: u64) -> Event {
    let mut tags = Vec::new();
    if g.chance(0.7) {
        let id = *ctx.note(g);
        tags.push(tag(["e", &hex_value(g, &id)]));
    }
    if g.chance(0.6) {
        let pk = *ctx.pubkey(g);
        tags.push(tag(["p", &hex_value(g, &pk)]));
    }
    let content = if kind.is_multiple_of(2) {
        format!(
            "{{\"v\":{},\"ts\":{},\"state\":{},\"n\":{}}}",
            g.range(1, 3),
            at * 1000 + g.range(0, 999),
            json_str(g.pick(&["open", "closed", "pending", "ok"])),
            g.range(0, 10_000)
        )
    } else if g.chance(0.5) {
        String::new()
    } else {
        let mut s = String::new();
        let lang = Lang::pick(g);
        text::sentence(g, lang, &mut s);
        s
    };
    let author = ctx.user(g);
    finish(g, author, kind, at, tags, content)
}

/// Kind 1000 in the real corpus: no tags, content a JSON array of two byte
/// arrays (16 bytes, then a few hundred).
pub(super) fn byte_arrays(ctx: &Ctx, g: &mut Gen, u: f64, at: u64) -> Event {
    let n = quantile_curve(&K1000_LEN, u) as usize;
    let list = |bytes: Vec<u8>| {
        bytes
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join(",")
    };
    let content = format!("[[{}],[{}]]", list(g.byte_vec(16)), list(g.byte_vec(n)));
    let author = ctx.user(g);
    finish(g, author, 1000, at, Vec::new(), content)
}

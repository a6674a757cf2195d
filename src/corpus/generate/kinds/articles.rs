//! Long texts: NIP-23 long-form Markdown and NIP-54 wiki AsciiDoc.

use super::{client_tag, finish, relay, tag, url_image};
use crate::corpus::generate::{
    Ctx,
    curve::quantile_curve,
    encode::naddr,
    text::{self, HASHTAGS, Lang},
};
use crate::model::{Event, hex};
use crate::rng::Gen;

/// Kind 30023 Markdown bytes (real corpus: p10 1,058, p25 2,869, p50
/// 4,865, p75 8,190, p90 14,849, p95 18,844, p99 31,004, max 124,438).
const LONG_FORM_LEN: [(f64, f64); 9] = [
    (0.0, 44.0),
    (0.10, 1058.0),
    (0.25, 2869.0),
    (0.50, 4865.0),
    (0.75, 8190.0),
    (0.90, 14_849.0),
    (0.95, 18_844.0),
    (0.99, 31_004.0),
    (1.0, 124_438.0),
];

/// Kind 30023 `t` tags (real corpus: p10 2, p25 3, p50 5, p75 7, p90 9,
/// p99 31, max 38).
const LONG_FORM_TOPICS: [(f64, f64); 8] = [
    (0.0, 1.0),
    (0.10, 2.0),
    (0.25, 3.0),
    (0.50, 5.0),
    (0.75, 7.0),
    (0.90, 9.0),
    (0.99, 31.0),
    (1.0, 38.0),
];

/// Kind 30818 AsciiDoc bytes.
const WIKI_LEN: [(f64, f64); 4] = [(0.0, 200.0), (0.5, 1800.0), (0.9, 6000.0), (1.0, 20_000.0)];

/// A NIP-23 article. Tag shares follow the real corpus's 240 articles:
/// `summary` 0.94, `image` 0.81, `alt` 0.45, `client` 0.28, `p` on 47 and
/// `zap` splits on 39 of them.
pub(super) fn long_form(ctx: &Ctx, g: &mut Gen, u: f64, at: u64) -> Event {
    let author = ctx.user(g);
    let author_pk = author.x_only_public_key().0.to_byte_array();
    let title = text::title(g);
    let d = if g.chance(0.7) {
        text::slug(&title)
    } else {
        hex::encode(&g.bytes::<6>())
    };
    let published = at.saturating_sub(g.below(30 * 86_400) as u64);
    let mut tags = vec![tag(["d", &d]), tag(["title", &title])];
    if g.chance(0.94) {
        let mut s = String::new();
        text::sentence(g, Lang::En, &mut s);
        tags.push(tag(["summary", &s]));
    }
    tags.push(tag(["published_at", &published.to_string()]));
    if g.chance(0.81) {
        tags.push(tag(["image", &url_image(g)]));
    }
    let topics = quantile_curve(&LONG_FORM_TOPICS, g.unit()).round() as usize;
    for _ in 0..topics {
        tags.push(tag([
            "t",
            &HASHTAGS[g.skewed(HASHTAGS.len())].to_lowercase(),
        ]));
    }
    if g.chance(0.2) {
        for _ in 0..1 + g.skewed(3) {
            let pk = *ctx.pubkey(g);
            tags.push(if g.chance(0.5) {
                tag(["p", &hex::encode(&pk)])
            } else {
                tag(["p", &hex::encode(&pk), "", "mention"])
            });
        }
    }
    if g.chance(0.16) {
        for _ in 0..1 + g.skewed(3) {
            let pk = *ctx.pubkey(g);
            tags.push(tag([
                "zap",
                &hex::encode(&pk),
                "",
                &g.range(1, 100).to_string(),
            ]));
        }
    }
    if g.chance(0.45) {
        tags.push(tag([
            "alt",
            &format!(
                "This is a long form article, you can read it in https://habla.news/a/{}",
                naddr(&d, &author_pk, 30023)
            ),
        ]));
    }
    if g.chance(0.28) {
        tags.push(client_tag(g));
    }
    let content = text::markdown(g, &title, quantile_curve(&LONG_FORM_LEN, u) as usize);
    finish(g, author, 30023, at, tags, content)
}

pub(super) fn wiki(ctx: &Ctx, g: &mut Gen, u: f64, at: u64) -> Event {
    let title = text::title(g);
    let mut tags = vec![tag(["d", &text::slug(&title)]), tag(["title", &title])];
    if g.chance(0.4) {
        let mut s = String::new();
        text::sentence(g, Lang::En, &mut s);
        tags.push(tag(["summary", &s]));
    }
    if g.chance(0.05) {
        let pk = ctx.user_pk(g);
        tags.push(tag([
            "a",
            &format!("30818:{}:{}", hex::encode(&pk), text::slug(&title)),
            relay(g),
            "fork",
        ]));
    }
    let content = text::asciidoc(g, &title, quantile_curve(&WIKI_LEN, u) as usize);
    let author = ctx.user(g);
    finish(g, author, 30818, at, tags, content)
}

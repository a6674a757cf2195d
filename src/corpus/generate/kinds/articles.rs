//! Long texts: NIP-23 long-form Markdown and NIP-54 wiki AsciiDoc.

use super::{client_tag, finish, relay, tag, url_image};
use crate::corpus::generate::{
    Ctx,
    rng::{Gen, quantile_curve},
    text::{self, HASHTAGS, Lang},
};
use crate::model::{Event, hex};

/// Kind 30023 Markdown bytes.
const LONG_FORM_LEN: [(f64, f64); 4] = [
    (0.0, 500.0),
    (0.5, 4500.0),
    (0.9, 11_000.0),
    (1.0, 30_000.0),
];

/// Kind 30818 AsciiDoc bytes.
const WIKI_LEN: [(f64, f64); 4] = [(0.0, 200.0), (0.5, 1800.0), (0.9, 6000.0), (1.0, 20_000.0)];

pub(super) fn long_form(ctx: &Ctx, g: &mut Gen, u: f64, at: u64) -> Event {
    let title = text::title(g);
    let d = if g.chance(0.7) {
        text::slug(&title)
    } else {
        hex::encode(&g.bytes::<6>())
    };
    let published = at.saturating_sub(g.below(30 * 86_400) as u64);
    let mut tags = vec![tag(["d", &d]), tag(["title", &title])];
    if g.chance(0.7) {
        let mut s = String::new();
        text::sentence(g, Lang::En, &mut s);
        tags.push(tag(["summary", &s]));
    }
    tags.push(tag(["published_at", &published.to_string()]));
    if g.chance(0.6) {
        tags.push(tag(["image", &url_image(g)]));
    }
    for _ in 0..g.below(6) {
        tags.push(tag([
            "t",
            &HASHTAGS[g.skewed(HASHTAGS.len())].to_lowercase(),
        ]));
    }
    if g.chance(0.2) {
        tags.push(client_tag(g));
    }
    let content = text::markdown(g, &title, quantile_curve(&LONG_FORM_LEN, u) as usize);
    let author = ctx.user(g);
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

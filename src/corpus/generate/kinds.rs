//! One builder per kind, in one file per kind family (notes, replaceable
//! records, encrypted payloads, zaps, DVMs, articles, unregistered kinds);
//! this file dispatches on the kind and holds the tag helpers they share.
//! Each builder takes the shared [`Ctx`], the event's own random stream and
//! its stratified size quantile `u`, and returns a signed event.
//!
//! Size curves are `(probability, value)` points for
//! [`quantile_curve`](super::curve::quantile_curve).
//! Where a curve says "real corpus" its points are nearest-rank quantiles
//! measured on the events under `../shared/corpus/upstream` (see
//! `corpus::calibrate`); the others are estimates from the NIP that defines
//! the kind.

use secp256k1::Keypair;

use super::Ctx;
use super::encode::{base64, bech32};
use super::text::{self, CLIENTS, RELAYS};
use crate::model::{Event, hex};
use crate::rng::Gen;

mod articles;
mod dvm;
mod encrypted;
mod notes;
mod replaceable;
mod unregistered;
mod zaps;

pub use replaceable::FOLLOWS;

use articles::{long_form, wiki};
use dvm::{dvm_request, dvm_result};
use encrypted::{draft, gift_wrap, nip04_dm};
use notes::{channel_message, deletion, reaction, report, repost, text_note};
use replaceable::{follow_list, metadata, relay_list};
use unregistered::{byte_arrays, unregistered};
use zaps::{zap_goal, zap_receipt};

/// Builds and signs one event of `kind`.
pub fn build(ctx: &Ctx, g: &mut Gen, kind: u16, u: f64) -> Event {
    let at = ctx.timestamp(g);
    match kind {
        0 => metadata(ctx, g, u, at),
        1 => {
            let author = ctx.user(g);
            text_note(ctx, g, u, at, author)
        }
        3 => follow_list(ctx, g, u, at, 1.0),
        4 => nip04_dm(ctx, g, u, at),
        5 => deletion(ctx, g, at),
        6 => repost(ctx, g, u, at),
        7 => reaction(ctx, g, at),
        42 => channel_message(ctx, g, u, at),
        321 | 1010 => unregistered(ctx, g, kind, at),
        1000 => byte_arrays(ctx, g, u, at),
        1059 => gift_wrap(ctx, g, u, at),
        1984 => report(ctx, g, at),
        5300 => {
            let dvm = ctx.dvm(g);
            let author = ctx.user(g);
            dvm_request(g, at, author, dvm)
        }
        6300 => dvm_result(ctx, g, u, at),
        9041 => zap_goal(ctx, g, at),
        9735 => zap_receipt(ctx, g, at),
        10002 => relay_list(ctx, g, u, at),
        30023 => long_form(ctx, g, u, at),
        30818 => wiki(ctx, g, u, at),
        31234 => draft(ctx, g, u, at),
        other => unregistered(ctx, g, other, at),
    }
}

/// Builds and signs a follow list whose tag count is the crawl's quantile
/// `u` scaled by `scale`.
pub fn scaled_follow_list(ctx: &Ctx, g: &mut Gen, u: f64, scale: f64) -> Event {
    let at = ctx.timestamp(g);
    follow_list(ctx, g, u, at, scale)
}

/// Assembles and signs an event with auxiliary randomness from `g`.
fn finish(
    g: &mut Gen,
    author: &Keypair,
    kind: u16,
    created_at: u64,
    tags: Vec<Vec<String>>,
    content: String,
) -> Event {
    crate::validate::signed_event(author, &g.bytes(), (kind, created_at), tags, content)
}

fn tag<const N: usize>(values: [&str; N]) -> Vec<String> {
    values.iter().map(|v| (*v).to_string()).collect()
}

/// Hex of a 32-byte reference as a tag value. A small share is written
/// non-canonically (uppercase, mixed case, odd length, `0x` prefix), as some
/// clients do: codecs must keep those as strings.
pub fn hex_value(g: &mut Gen, bytes: &[u8; 32]) -> String {
    let s = hex::encode(bytes);
    let r = g.below(10_000);
    match r {
        0..=19 => s.to_uppercase(),
        20..=29 => s[..63].to_string(),
        30..=34 => s
            .char_indices()
            .map(|(i, c)| {
                if i % 2 == 0 {
                    c.to_ascii_uppercase()
                } else {
                    c
                }
            })
            .collect(),
        35..=37 => format!("0x{s}"),
        _ => s,
    }
}

fn relay(g: &mut Gen) -> &'static str {
    RELAYS[g.skewed(RELAYS.len())]
}

/// A relay hint: usually absent (empty) or a relay URL.
fn hint(g: &mut Gen) -> &'static str {
    if g.chance(0.5) { "" } else { relay(g) }
}

fn p_tag(g: &mut Gen, pk: &[u8; 32]) -> Vec<String> {
    let v = hex_value(g, pk);
    match g.below(10) {
        0..=6 => vec!["p".into(), v],
        7..=8 => vec!["p".into(), v, hint(g).into()],
        _ => vec!["p".into(), v, relay(g).into(), text::handle(g)],
    }
}

fn url_image(g: &mut Gen) -> String {
    url_image_hashed(g).0
}

/// An image URL and the SHA-256 its file would have; hosts that name files
/// by their hash (the first two) carry it in the URL.
fn url_image_hashed(g: &mut Gen) -> (String, [u8; 32]) {
    let hash = g.bytes::<32>();
    let h = hex::encode(&hash);
    let url = match g.below(4) {
        0 => format!("https://image.nostr.build/{h}.jpg"),
        1 => format!("https://blossom.primal.net/{h}.webp"),
        2 => format!(
            "https://i.nostr.build/{}.png",
            &base64(&g.byte_vec(9)).replace(['+', '/'], "x")
        ),
        _ => format!(
            "https://m.primal.net/{}.{}",
            &h[..8],
            g.pick(&["jpg", "png", "gif", "mp4"])
        ),
    };
    (url, hash)
}

fn url_link(g: &mut Gen) -> String {
    match g.below(5) {
        0 => format!(
            "https://www.youtube.com/watch?v={}",
            &base64(&g.byte_vec(8)).replace(['+', '/', '='], "_")[..11]
        ),
        1 => format!(
            "https://github.com/{}/{}",
            text::handle(g),
            text::slug(&text::title(g))
        ),
        2 => format!("https://stacker.news/items/{}", g.range(100_000, 999_999)),
        3 => format!(
            "https://en.wikipedia.org/wiki/{}",
            text::title(g).replace(' ', "_")
        ),
        _ => format!(
            "https://blog.{}.com/posts/{}",
            text::handle(g),
            text::slug(&text::title(g))
        ),
    }
}

fn npub(pk: &[u8; 32]) -> String {
    bech32("npub", pk)
}

fn json_str(s: &str) -> String {
    serde_json::to_string(s).expect("a string serialises")
}

fn client_tag(g: &mut Gen) -> Vec<String> {
    tag(["client", g.pick(CLIENTS)])
}

fn proxy_tag(g: &mut Gen) -> Vec<String> {
    let h = text::handle(g);
    tag([
        "proxy",
        &format!(
            "https://{}/users/{h}/statuses/{}",
            g.pick(&["mastodon.social", "fosstodon.org", "mstdn.jp"]),
            g.range(1 << 50, 1 << 56)
        ),
        "activitypub",
    ])
}

fn relays_tag(g: &mut Gen, n: usize) -> Vec<String> {
    let start = g.below(RELAYS.len());
    std::iter::once("relays".to_string())
        .chain((0..n).map(|i| RELAYS[(start + i) % RELAYS.len()].to_string()))
        .collect()
}

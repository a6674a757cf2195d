//! One builder per kind. Each takes the shared [`Ctx`], the event's own
//! random stream and its stratified size quantile `u`, and returns a signed
//! event.
//!
//! Size curves are `(probability, value)` points for [`quantile_curve`].
//! Where a curve says "real corpus" its points are nearest-rank quantiles
//! measured on the events under `../shared/corpus/upstream` (see
//! `corpus::calibrate`); the others are estimates from the NIP that defines
//! the kind.

use secp256k1::Keypair;

use super::Ctx;
use super::encode::{
    base64, bech32, bolt11, nevent, nip44_payload, nip44_payload_len, random_base64, sha256,
};
use super::rng::{Gen, quantile_curve};
use super::text::{self, CLIENTS, EMOJI, HASHTAGS, Lang, RELAYS};
use crate::model::{Event, hex};

/// Kind 3 `p`-tag counts: published quantiles of 272 crawled follow lists
/// (mmalmi/nostr-social-graph, Sept 2024), with a minimum of one follow.
pub const FOLLOWS: [(f64, f64); 7] = [
    (0.0, 1.0),
    (0.25, 98.0),
    (0.50, 317.0),
    (0.75, 618.0),
    (0.90, 984.0),
    (0.99, 2606.0),
    (1.0, 5413.0),
];

/// Kind 1 content bytes (real corpus: p10 20, p25 52, p50 114, p75 215,
/// p90 381, p99 1032, max 3006).
const NOTE_LEN: [(f64, f64); 8] = [
    (0.0, 2.0),
    (0.10, 20.0),
    (0.25, 52.0),
    (0.50, 114.0),
    (0.75, 215.0),
    (0.90, 381.0),
    (0.99, 1032.0),
    (1.0, 3006.0),
];

/// Kind 0 content bytes (real corpus: p10 20, p25 82, p50 285, p75 442,
/// p90 545, p99 914).
const META_LEN: [(f64, f64); 8] = [
    (0.0, 14.0),
    (0.10, 20.0),
    (0.25, 82.0),
    (0.50, 285.0),
    (0.75, 442.0),
    (0.90, 545.0),
    (0.99, 914.0),
    (1.0, 2400.0),
];

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

/// Kind 30023 Markdown bytes.
const LONG_FORM_LEN: [(f64, f64); 4] = [
    (0.0, 500.0),
    (0.5, 4500.0),
    (0.9, 11_000.0),
    (1.0, 30_000.0),
];

/// Kind 30818 AsciiDoc bytes.
const WIKI_LEN: [(f64, f64); 4] = [(0.0, 200.0), (0.5, 1800.0), (0.9, 6000.0), (1.0, 20_000.0)];

/// Kind 31234 draft plaintext bytes (real corpus content p50 688 base64).
const DRAFT_LEN: [(f64, f64); 4] = [(0.0, 150.0), (0.5, 450.0), (0.9, 1500.0), (1.0, 6000.0)];

/// Kind 6300 result entries (real corpus: about 50).
const DVM_RESULTS: [(f64, f64); 4] = [(0.0, 5.0), (0.5, 50.0), (0.9, 100.0), (1.0, 200.0)];

/// Kind 1000 second-array length (real corpus sizes 1.6-1.7 KB).
const K1000_LEN: [(f64, f64); 4] = [(0.0, 100.0), (0.5, 330.0), (0.9, 420.0), (1.0, 600.0)];

/// Kind 10002 `r`-tag count (real corpus p50 4).
const RELAY_LIST_LEN: [(f64, f64); 4] = [(0.0, 1.0), (0.5, 4.0), (0.9, 9.0), (1.0, 24.0)];

/// Builds and signs one event of `kind`.
pub fn build(ctx: &Ctx, g: &mut Gen, kind: u16, u: f64) -> Event {
    let at = ctx.timestamp(g);
    match kind {
        0 => metadata(ctx, g, u, at),
        1 => {
            let author = ctx.user(g);
            text_note(ctx, g, u, at, author)
        }
        3 => follow_list(ctx, g, u, at),
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
    let h = hex::encode(&g.bytes::<32>());
    match g.below(4) {
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
    }
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

/// A kind 1 note (NIP-10 threads, NIP-27 mentions, NIP-92 media).
pub fn text_note(ctx: &Ctx, g: &mut Gen, u: f64, at: u64, author: &Keypair) -> Event {
    let target = quantile_curve(&NOTE_LEN, u) as usize;
    let lang = Lang::pick(g);
    let mut tags: Vec<Vec<String>> = Vec::new();
    let mut head = String::new();
    let mut tail = String::new();

    if g.chance(0.6) {
        let root = *ctx.note(g);
        match g.below(10) {
            0..=1 => tags.push(tag(["e", &hex_value(g, &root)])),
            2..=5 => {
                tags.push(tag(["e", &hex_value(g, &root), hint(g), "root"]));
                let reply = *ctx.note(g);
                tags.push(tag(["e", &hex_value(g, &reply), hint(g), "reply"]));
            }
            _ => {
                let pk = *ctx.pubkey(g);
                tags.push(tag([
                    "e",
                    &hex_value(g, &root),
                    hint(g),
                    "root",
                    &hex::encode(&pk),
                ]));
            }
        }
        for _ in 0..1 + g.skewed(3) {
            let pk = *ctx.pubkey(g);
            tags.push(p_tag(g, &pk));
        }
    }
    if g.chance(0.08) {
        let pk = *ctx.pubkey(g);
        head.push_str(&format!("nostr:{} ", npub(&pk)));
        tags.push(p_tag(g, &pk));
    }
    if g.chance(0.05) {
        let id = *ctx.note(g);
        let mention = if g.chance(0.5) {
            bech32("note", &id)
        } else {
            let author = *ctx.pubkey(g);
            nevent(&id, Some(relay(g)), Some(&author))
        };
        tail.push_str(&format!("\n\nnostr:{mention}"));
        tags.push(tag(["q", &hex::encode(&id), hint(g)]));
    }
    if g.chance(0.3) {
        let sep = if g.chance(0.5) { "\n" } else { " " };
        if g.chance(0.6) {
            let url = url_image(g);
            tail.push_str(&format!("{sep}{url}"));
            if g.chance(0.5) {
                tags.push(vec![
                    "imeta".into(),
                    format!("url {url}"),
                    format!("m {}", g.pick(&["image/jpeg", "image/png", "image/webp"])),
                    format!("dim {}x{}", g.range(320, 4000), g.range(320, 4000)),
                    format!(
                        "blurhash {}",
                        &base64(&g.byte_vec(24)).replace(['+', '/', '='], "#")[..28]
                    ),
                    format!("x {}", hex::encode(&g.bytes::<32>())),
                ]);
            }
        } else {
            let url = url_link(g);
            tail.push_str(&format!("{sep}{url}"));
            if g.chance(0.4) {
                tags.push(tag(["r", &url]));
            }
        }
    }
    if g.chance(0.2) {
        tail.push_str(if g.chance(0.5) { "\n\n" } else { " " });
        for i in 0..1 + g.skewed(4) {
            let h = HASHTAGS[g.skewed(HASHTAGS.len())];
            if i > 0 {
                tail.push(' ');
            }
            tail.push('#');
            tail.push_str(h);
            let lower = h.to_lowercase();
            if !tags.iter().any(|t| t[0] == "t" && t[1] == lower) {
                tags.push(tag(["t", &lower]));
            }
        }
    }
    // Emoji and escapes below add about 15 % on average.
    let budget = (target * 17 / 20)
        .saturating_sub(head.len() + tail.len())
        .max(1);
    let mut body = text::paragraphs(g, lang, budget);
    if g.chance(0.3) {
        let emoji = (0..1 + g.skewed(3))
            .map(|_| g.pick(EMOJI))
            .collect::<String>();
        if g.chance(0.5) {
            body.push(' ');
            body.push_str(&emoji);
        } else {
            body.insert_str(0, &format!("{emoji} "));
        }
    }
    if g.chance(0.04) {
        body.push_str(if g.chance(0.5) { "\n" } else { " " });
        body.push_str(text::escape_heavy(g));
    }
    if g.chance(0.002) {
        body.push_str("\u{2028}…");
    }
    let content = format!("{head}{body}{tail}");

    if g.chance(0.12) {
        tags.push(client_tag(g));
    }
    if g.chance(0.06) {
        tags.push(proxy_tag(g));
    }
    if g.chance(0.03) {
        tags.push(tag([
            "nonce",
            &g.range(0, 1 << 32).to_string(),
            &g.range(8, 28).to_string(),
        ]));
    }
    if g.chance(0.01) {
        tags.push(tag(["content-warning", g.pick(&["nsfw", "spoilers", ""])]));
    }
    if g.chance(0.01) {
        tags.push(tag([
            "expiration",
            &(at + g.range(3600, 30 * 86_400)).to_string(),
        ]));
    }
    finish(g, author, 1, at, tags, content)
}

fn metadata(ctx: &Ctx, g: &mut Gen, u: f64, at: u64) -> Event {
    let target = quantile_curve(&META_LEN, u) as usize;
    let handle = text::handle(g);
    let img = |g: &mut Gen| -> String {
        match g.below(4) {
            0 => url_image(g),
            1 => format!(
                "https://avatars.githubusercontent.com/u/{}?v=4",
                g.range(1000, 99_999_999)
            ),
            2 => format!(
                "https://i.imgur.com/{}.png",
                &base64(&g.byte_vec(6)).replace(['+', '/'], "Q")[..7]
            ),
            _ => format!("https://robohash.org/{handle}"),
        }
    };
    let domain = g.pick(&[
        "nostrplebs.com",
        "iris.to",
        "primal.net",
        "nostr.band",
        "snort.social",
        "nostrcheck.me",
        "example.org",
    ]);
    let wallet = g.pick(&[
        "getalby.com",
        "walletofsatoshi.com",
        "primal.net",
        "stacker.news",
        "coinos.io",
        "npub.cash",
        "strike.me",
    ]);
    let mut extras: Vec<(&str, String)> = vec![
        (
            if g.chance(0.85) {
                "display_name"
            } else {
                "displayName"
            },
            json_str(&text::display_name(g, &handle)),
        ),
        ("picture", json_str(&img(g))),
        (
            "nip05",
            json_str(&if g.chance(0.2) {
                format!("_@{handle}.com")
            } else {
                format!("{handle}@{domain}")
            }),
        ),
        ("lud16", json_str(&format!("{handle}@{wallet}"))),
        (
            "website",
            json_str(&format!(
                "https://{handle}.{}",
                g.pick(&["com", "net", "io", "xyz", "blog"])
            )),
        ),
        ("banner", json_str(&img(g))),
        (
            "lud06",
            json_str(&bech32(
                "lnurl",
                format!("https://{wallet}/.well-known/lnurlp/{handle}").as_bytes(),
            )),
        ),
    ];
    if g.chance(0.05) {
        extras.push(("bot", "false".into()));
    }
    if g.chance(0.04) {
        extras.push(("pubkey", json_str(&hex::encode(&ctx.user_pk(g)))));
    }
    g.shuffle(&mut extras[2..]);
    let mut fields: Vec<(&str, String)> = vec![("name", json_str(&handle))];
    let size = |fields: &[(&str, String)]| -> usize {
        1 + fields
            .iter()
            .map(|(k, v)| k.len() + v.len() + 4)
            .sum::<usize>()
    };
    let mut rest = extras.into_iter();
    for (k, v) in rest.by_ref() {
        if size(&fields) + k.len() + v.len() + 4 > target * 2 / 3 {
            break;
        }
        fields.push((k, v));
    }
    let room = target.saturating_sub(size(&fields) + 12);
    if room >= 8 {
        let lang = Lang::pick(g);
        let mut about = text::paragraphs(g, lang, room * 3 / 4);
        if g.chance(0.25) {
            about.push_str(&format!("\n{}", g.pick(EMOJI)));
        }
        if g.chance(0.2) {
            about.push_str(&format!("\n\nnostr:{}", npub(ctx.pubkey(g))));
        }
        let at_pos = fields.len().min(1 + g.below(3));
        fields.insert(at_pos, ("about", json_str(&about)));
    }
    if g.chance(0.2) {
        g.shuffle(&mut fields);
    }
    let mut content = String::from("{");
    for (i, (k, v)) in fields.iter().enumerate() {
        if i > 0 {
            content.push(',');
        }
        content.push_str(&format!("\"{k}\":{v}"));
    }
    content.push('}');
    let mut tags = Vec::new();
    if g.chance(0.05) {
        tags.push(tag(["alt", "User profile"]));
    }
    if g.chance(0.04) {
        tags.push(proxy_tag(g));
    }
    if g.chance(0.03) {
        tags.push(tag(["emoji", "sats", &url_image(g)]));
    }
    let author = ctx.user(g);
    finish(g, author, 0, at, tags, content)
}

fn follow_list(ctx: &Ctx, g: &mut Gen, u: f64, at: u64) -> Event {
    let n = quantile_curve(&FOLLOWS, u).round() as usize;
    let mut seen = std::collections::HashSet::with_capacity(n * 2);
    let mut tags = Vec::with_capacity(n + 4);
    let mut tries = 0;
    while tags.len() < n {
        tries += 1;
        let pk = if tries < 20 * n.max(1) {
            let i = g.skewed(ctx.follow_universe());
            if !seen.insert(i) {
                continue;
            }
            *ctx.follow_target(i)
        } else {
            g.bytes()
        };
        let v = hex_value(g, &pk);
        tags.push(match g.below(1000) {
            0..=964 => vec!["p".into(), v],
            965..=984 => vec!["p".into(), v, relay(g).into()],
            _ => vec!["p".into(), v, hint(g).into(), text::handle(g)],
        });
    }
    if g.chance(0.05) {
        for _ in 0..1 + g.below(5) {
            tags.push(tag([
                "t",
                &HASHTAGS[g.below(HASHTAGS.len())].to_lowercase(),
            ]));
        }
    }
    let content = if g.chance(0.75) {
        let mut s = String::from("{");
        let k = 2 + g.below(10);
        let start = g.below(RELAYS.len());
        for i in 0..k {
            if i > 0 {
                s.push(',');
            }
            let (r, w) = match g.below(6) {
                0 => (true, false),
                1 => (false, true),
                _ => (true, true),
            };
            s.push_str(&format!(
                "{}:{{\"read\":{r},\"write\":{w}}}",
                json_str(RELAYS[(start + i) % RELAYS.len()])
            ));
        }
        s.push('}');
        s
    } else {
        String::new()
    };
    let author = ctx.user(g);
    finish(g, author, 3, at, tags, content)
}

fn nip04_dm(ctx: &Ctx, g: &mut Gen, u: f64, at: u64) -> Event {
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

fn gift_wrap(ctx: &Ctx, g: &mut Gen, u: f64, at: u64) -> Event {
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

fn deletion(ctx: &Ctx, g: &mut Gen, at: u64) -> Event {
    let n = match g.below(20) {
        0..=13 => 1,
        14..=18 => 2 + g.below(4),
        _ => 6 + g.below(25),
    };
    let mut tags = Vec::with_capacity(n + 1);
    for _ in 0..n {
        let id = *ctx.note(g);
        tags.push(tag(["e", &hex_value(g, &id)]));
    }
    if g.chance(0.4) {
        tags.push(tag(["k", g.pick(&["1", "1", "7", "6", "30023"])]));
    }
    let content = match g.below(10) {
        0..=7 => String::new(),
        8 => (g.pick(&[
            "deleted",
            "oops, typo",
            "posted to the wrong account",
            "削除",
        ]))
        .to_string(),
        _ => {
            let mut s = String::new();
            text::sentence(g, Lang::En, &mut s);
            s
        }
    };
    let author = ctx.user(g);
    finish(g, author, 5, at, tags, content)
}

fn repost(ctx: &Ctx, g: &mut Gen, u: f64, at: u64) -> Event {
    let original_author = ctx.user(g);
    let original_at = at.saturating_sub(g.below(3 * 86_400) as u64);
    let original = text_note(ctx, g, u, original_at, original_author);
    let mut tags = vec![
        tag(["e", &hex::encode(&original.id), hint(g)]),
        tag(["p", &hex::encode(&original.pubkey)]),
    ];
    if g.chance(0.05) {
        tags.push(proxy_tag(g));
    }
    let content = if g.chance(0.8) {
        original.to_json()
    } else {
        String::new()
    };
    let author = ctx.user(g);
    finish(g, author, 6, at, tags, content)
}

fn reaction(ctx: &Ctx, g: &mut Gen, at: u64) -> Event {
    let id = *ctx.note(g);
    let pk = *ctx.pubkey(g);
    let mut tags = vec![];
    match g.below(10) {
        0..=7 => tags.push(tag(["e", &hex_value(g, &id)])),
        8 => tags.push(tag(["e", &hex_value(g, &id), hint(g)])),
        _ => tags.push(tag(["e", &hex_value(g, &id), hint(g), &hex::encode(&pk)])),
    }
    tags.push(if g.chance(0.85) {
        tag(["p", &hex_value(g, &pk)])
    } else {
        p_tag(g, &pk)
    });
    if g.chance(0.15) {
        tags.push(tag(["k", "1"]));
    }
    if g.chance(0.05) {
        tags.push(proxy_tag(g));
    }
    let content = match g.below(100) {
        0..=40 => "+".to_string(),
        41..=62 => "🤙".to_string(),
        63..=64 => "-".to_string(),
        65..=66 => {
            let name = g.pick(&["shaka", "soapbox", "pepe_love", "sats"]);
            tags.push(tag(["emoji", name, &url_image(g)]));
            format!(":{name}:")
        }
        67 => String::new(),
        _ => (g.pick(EMOJI)).to_string(),
    };
    let author = ctx.user(g);
    finish(g, author, 7, at, tags, content)
}

fn channel_message(ctx: &Ctx, g: &mut Gen, u: f64, at: u64) -> Event {
    let channel = *ctx.note(g);
    let mut tags = vec![tag(["e", &hex::encode(&channel), relay(g), "root"])];
    if g.chance(0.3) {
        let reply = *ctx.note(g);
        let pk = *ctx.pubkey(g);
        tags.push(tag(["e", &hex::encode(&reply), relay(g), "reply"]));
        tags.push(tag(["p", &hex::encode(&pk), relay(g)]));
    }
    let lang = Lang::pick(g);
    let mut content = text::paragraphs(g, lang, quantile_curve(&NOTE_LEN, u * 0.9) as usize);
    if g.chance(0.2) {
        content.push(' ');
        content.push_str(g.pick(EMOJI));
    }
    let author = ctx.user(g);
    finish(g, author, 42, at, tags, content)
}

/// Kinds 321 and 1010 carry real traffic but have no published NIP: short
/// text or small JSON content with an `e` or `p` reference, sized like a
/// reply.
fn unregistered(ctx: &Ctx, g: &mut Gen, kind: u16, at: u64) -> Event {
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
fn byte_arrays(ctx: &Ctx, g: &mut Gen, u: f64, at: u64) -> Event {
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

fn report(ctx: &Ctx, g: &mut Gen, at: u64) -> Event {
    let reason = g.pick(&[
        "spam",
        "spam",
        "nudity",
        "impersonation",
        "illegal",
        "malware",
        "profanity",
        "other",
    ]);
    let pk = *ctx.pubkey(g);
    let mut tags = Vec::new();
    if g.chance(0.6) {
        let id = *ctx.note(g);
        tags.push(tag(["e", &hex_value(g, &id), reason]));
    }
    tags.push(tag(["p", &hex_value(g, &pk), reason]));
    let content = if g.chance(0.7) {
        String::new()
    } else {
        let mut s = String::new();
        text::sentence(g, Lang::En, &mut s);
        s
    };
    let author = ctx.user(g);
    finish(g, author, 1984, at, tags, content)
}

fn relays_tag(g: &mut Gen, n: usize) -> Vec<String> {
    let start = g.below(RELAYS.len());
    std::iter::once("relays".to_string())
        .chain((0..n).map(|i| RELAYS[(start + i) % RELAYS.len()].to_string()))
        .collect()
}

/// A NIP-90 content-discovery request (kind 5300) addressed to `dvm`.
fn dvm_request(g: &mut Gen, at: u64, author: &Keypair, dvm: &Keypair) -> Event {
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

fn dvm_result(ctx: &Ctx, g: &mut Gen, u: f64, at: u64) -> Event {
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

fn zap_goal(ctx: &Ctx, g: &mut Gen, at: u64) -> Event {
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

/// A NIP-57 zap receipt (kind 9735) signed by an LNURL server, embedding the
/// sender's signed zap request (kind 9734) in its `description` tag.
fn zap_receipt(ctx: &Ctx, g: &mut Gen, at: u64) -> Event {
    let sender = ctx.user(g);
    let sender_pk = sender.x_only_public_key().0.to_byte_array();
    let recipient = ctx.user_pk(g);
    let note = if g.chance(0.8) {
        Some(*ctx.note(g))
    } else {
        None
    };
    let sats = g.pick(&[
        21u64, 21, 50, 69, 100, 210, 420, 500, 1000, 1000, 2100, 5000, 10_000, 21_000,
    ]);
    let msat = sats * 1000;

    let mut req_tags = Vec::new();
    let n = 3 + g.below(8);
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
    let big_p = g.chance(0.6);
    if big_p && g.chance(0.5) {
        tags.push(tag(["P", &hex::encode(&sender_pk)]));
    }
    tags.push(tag(["bolt11", &invoice]));
    tags.push(tag(["description", &description]));
    if big_p && tags.iter().all(|t| t[0] != "P") {
        tags.push(tag(["P", &hex::encode(&sender_pk)]));
    }
    if g.chance(0.5) {
        tags.push(tag(["preimage", &hex::encode(&preimage)]));
    }
    let zapper = ctx.zapper(g);
    finish(g, zapper, 9735, at, tags, String::new())
}

fn relay_list(ctx: &Ctx, g: &mut Gen, u: f64, at: u64) -> Event {
    let n = (quantile_curve(&RELAY_LIST_LEN, u) as usize).min(RELAYS.len());
    let start = g.below(RELAYS.len());
    let mut tags = Vec::with_capacity(n + 1);
    for i in 0..n {
        let url = RELAYS[(start + i * 7) % RELAYS.len()];
        tags.push(match g.below(10) {
            0..=6 => tag(["r", url]),
            7..=8 => tag(["r", url, "read"]),
            _ => tag(["r", url, "write"]),
        });
    }
    if g.chance(0.1) {
        tags.push(proxy_tag(g));
    }
    if g.chance(0.1) {
        tags.push(client_tag(g));
    }
    let author = ctx.user(g);
    finish(g, author, 10002, at, tags, String::new())
}

fn long_form(ctx: &Ctx, g: &mut Gen, u: f64, at: u64) -> Event {
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

fn wiki(ctx: &Ctx, g: &mut Gen, u: f64, at: u64) -> Event {
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

/// A NIP-37 draft wrap: NIP-44 ciphertext of a draft event.
fn draft(ctx: &Ctx, g: &mut Gen, u: f64, at: u64) -> Event {
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

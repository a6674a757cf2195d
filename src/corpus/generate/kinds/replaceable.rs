//! The replaceable user records: metadata (kind 0), follow lists (kind 3,
//! NIP-02) and relay lists (kind 10002, NIP-65).

use super::{
    client_tag, finish, hex_value, hint, json_str, npub, proxy_tag, relay, tag, url_image,
};
use crate::corpus::generate::{
    Ctx,
    encode::{base64, bech32},
    rng::{Gen, quantile_curve},
    text::{self, EMOJI, HASHTAGS, Lang, RELAYS},
};
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

/// Kind 10002 `r`-tag count (real corpus p50 4).
const RELAY_LIST_LEN: [(f64, f64); 4] = [(0.0, 1.0), (0.5, 4.0), (0.9, 9.0), (1.0, 24.0)];

pub(super) fn metadata(ctx: &Ctx, g: &mut Gen, u: f64, at: u64) -> Event {
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

/// A follow list whose `p` tag count is the crawl's quantile `u` times
/// `scale` (1 for the crawl itself).
pub(super) fn follow_list(ctx: &Ctx, g: &mut Gen, u: f64, at: u64, scale: f64) -> Event {
    let n = (quantile_curve(&FOLLOWS, u) * scale).round().max(1.0) as usize;
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

pub(super) fn relay_list(ctx: &Ctx, g: &mut Gen, u: f64, at: u64) -> Event {
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

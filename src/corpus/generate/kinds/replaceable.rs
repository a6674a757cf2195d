//! The replaceable user records: metadata (kind 0), follow lists (kind 3,
//! NIP-02) and relay lists (kind 10002, NIP-65).

use super::{
    client_tag, finish, hex_value, hint, json_str, npub, proxy_tag, relay, tag, url_image,
};
use crate::corpus::generate::{
    Ctx,
    curve::quantile_curve,
    encode::{base64, bech32},
    text::{self, EMOJI, HASHTAGS, Lang, RELAYS},
};
use crate::model::{Event, hex};
use crate::rng::Gen;

/// Kind 3 `p`-tag counts: published quantiles of 272 crawled follow lists
/// (mmalmi/nostr-social-graph, Sept 2024), with a minimum of one follow.
pub const FOLLOWS: [(f64, f64); 7] = [
    (0.0, 1.0),
    (0.25, 98.0),
    (0.50, binostr_records::CRAWL_FOLLOW_MEDIAN as f64),
    (0.75, 618.0),
    (0.90, 984.0),
    (0.99, 2606.0),
    (1.0, 5413.0),
];

/// Kind 0 `about` bytes of full profiles (real corpus, the 1,015 non-empty
/// ones: p10 17, p25 32, p50 71, p75 141, p90 246, p99 683, max 2,072).
const ABOUT_LEN: [(f64, f64); 8] = [
    (0.0, 4.0),
    (0.10, 17.0),
    (0.25, 32.0),
    (0.50, 71.0),
    (0.75, 141.0),
    (0.90, 246.0),
    (0.99, 683.0),
    (1.0, 2072.0),
];

/// Share of sparse profiles (at most three fields; real corpus: 319 of 1,427).
const SPARSE_PROFILES: f64 = 0.224;

/// Kind 10002 `r`-tag count, a step curve (real corpus: 12 lists of 1, 18
/// of 3, 3 of 9 to 13).
const RELAY_LIST_LEN: [(f64, f64); 6] = [
    (0.0, 1.0),
    (0.364, 1.0),
    (0.364, 3.0),
    (0.909, 3.0),
    (0.909, 9.0),
    (1.0, 13.0),
];

/// Profile metadata. Below [`SPARSE_PROFILES`] a profile is a name with
/// perhaps an `about` (0.55) and a `picture` (0.38); above it, fields appear
/// at the real corpus's rates for its 1,108 full profiles, and the `about`
/// length follows [`ABOUT_LEN`] along `u`.
pub(super) fn metadata(ctx: &Ctx, g: &mut Gen, u: f64, at: u64) -> Event {
    let handle = text::handle(g);
    let img = |g: &mut Gen| -> String {
        // Mostly named by hash, as in the real corpus (median URL 92 bytes).
        match g.below(10) {
            0..=6 => format!(
                "https://{}/{}.{}",
                g.pick(&["image.nostr.build", "blossom.primal.net", "nostr.build/i"]),
                hex::encode(&g.bytes::<32>()),
                g.pick(&["jpg", "png", "webp", "jpeg"])
            ),
            7 => format!(
                "https://avatars.githubusercontent.com/u/{}?v=4",
                g.range(1000, 99_999_999)
            ),
            8 => format!(
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
    let sparse = u < SPARSE_PROFILES;
    let (about_chance, about_u) = if sparse {
        (0.55, u / SPARSE_PROFILES)
    } else {
        (0.92, (u - SPARSE_PROFILES) / (1.0 - SPARSE_PROFILES))
    };
    let about = g.chance(about_chance).then(|| {
        let lang = Lang::pick(g);
        // Emoji and mentions below add some 20 bytes on average.
        let target = quantile_curve(&ABOUT_LEN, about_u) as usize;
        let budget = target - (target / 4).min(20);
        let mut about = text::paragraphs(g, lang, budget.max(1));
        if g.chance(0.25) {
            about.push_str(&format!("\n{}", g.pick(EMOJI)));
        }
        if g.chance(0.2) {
            about.push_str(&format!("\n\nnostr:{}", npub(ctx.pubkey(g))));
        }
        json_str(&about)
    });
    let mut fields: Vec<(&str, String)> = vec![("name", json_str(&handle))];
    if let Some(about) = about {
        fields.push(("about", about));
    }
    if sparse {
        if g.chance(0.38) {
            fields.push(("picture", json_str(&img(g))));
        }
    } else {
        // Larger profiles fill in more fields (as the real ones do): each
        // field's rate scales from 0.7 to 1.3 times along `u`.
        let rich = |p: f64| (p * (0.7 + 0.6 * about_u)).min(1.0);
        let mut extras: Vec<(&str, String)> = Vec::new();
        if g.chance(rich(0.98)) {
            extras.push(("picture", json_str(&img(g))));
        }
        if g.chance(rich(0.87)) {
            extras.push(("display_name", json_str(&text::display_name(g, &handle))));
        }
        if g.chance(rich(0.2)) {
            extras.push(("displayName", json_str(&text::display_name(g, &handle))));
        }
        if g.chance(rich(0.84)) {
            extras.push((
                "nip05",
                json_str(&if g.chance(0.2) {
                    format!("_@{handle}.com")
                } else {
                    format!("{handle}@{domain}")
                }),
            ));
        }
        if g.chance(rich(0.83)) {
            extras.push(("lud16", json_str(&format!("{handle}@{wallet}"))));
        }
        if g.chance(rich(0.8)) {
            extras.push(("banner", json_str(&img(g))));
        }
        if g.chance(rich(0.77)) {
            extras.push((
                "website",
                json_str(&format!(
                    "https://{handle}.{}",
                    g.pick(&["com", "net", "io", "xyz", "blog"])
                )),
            ));
        }
        // Real corpus: 441 profiles have `lud06`, most of them empty.
        if g.chance(rich(0.4)) {
            let lnurl = if g.chance(0.6) {
                String::new()
            } else {
                bech32(
                    "lnurl",
                    format!("https://{wallet}/.well-known/lnurlp/{handle}").as_bytes(),
                )
            };
            extras.push(("lud06", json_str(&lnurl)));
        }
        if g.chance(rich(0.1)) {
            extras.push(("username", json_str(&handle)));
        }
        if g.chance(rich(0.07)) {
            extras.push(("reactions", "true".into()));
        }
        if g.chance(rich(0.05)) {
            extras.push(("bot", "false".into()));
        }
        if g.chance(rich(0.05)) {
            extras.push(("pubkey", json_str(&hex::encode(&ctx.user_pk(g)))));
        }
        g.shuffle(&mut extras);
        fields.extend(extras);
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
    let n = (quantile_curve(&RELAY_LIST_LEN, u).round() as usize).min(RELAYS.len());
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
    // Real corpus: 26 of 33 relay lists come through an ActivityPub bridge
    // (`proxy`), 8 name their client.
    if g.chance(0.79) {
        tags.push(proxy_tag(g));
    }
    if g.chance(0.24) {
        tags.push(client_tag(g));
    }
    let author = ctx.user(g);
    finish(g, author, 10002, at, tags, String::new())
}

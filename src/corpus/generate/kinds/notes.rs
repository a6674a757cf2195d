//! Notes and what refers to them: kind 1 text notes (NIP-10 threads,
//! NIP-27 mentions, NIP-92 media), deletions (NIP-09), reposts (NIP-18),
//! reactions (NIP-25), channel messages (NIP-28) and reports (NIP-56).

use secp256k1::Keypair;

use super::{
    client_tag, finish, hex_value, hint, npub, p_tag, proxy_tag, relay, tag, url_image,
    url_image_hashed, url_link,
};
use crate::corpus::generate::{
    Ctx,
    curve::quantile_curve,
    encode::{base64, bech32, nevent},
    text::{self, EMOJI, HASHTAGS, Lang},
};
use crate::model::{Event, hex};
use crate::rng::Gen;

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

/// A kind 1 note (NIP-10 threads, NIP-27 mentions, NIP-92 media).
pub fn text_note(ctx: &Ctx, g: &mut Gen, u: f64, at: u64, author: &Keypair) -> Event {
    let target = quantile_curve(&NOTE_LEN, u) as usize;
    let lang = Lang::pick(g);
    let mut tags: Vec<Vec<String>> = Vec::new();
    let mut head = String::new();
    let mut tail = String::new();

    if g.chance(0.6) {
        let root = *ctx.note(g);
        let mut thread: Vec<[u8; 32]> = Vec::with_capacity(4);
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
                thread.push(pk);
            }
        }
        // The thread's participants: the root's author first, and in 55 %
        // of replies the author itself (real corpus: 1,190 of 3,683 notes
        // p-tag their own author; 868 of 885 root authors are p-tagged).
        let n = 1 + g.skewed(3);
        while thread.len() < n {
            thread.push(*ctx.pubkey(g));
        }
        if g.chance(0.55) {
            let own = author.x_only_public_key().0.to_byte_array();
            let at = g.below(thread.len());
            thread[at] = own;
        }
        for pk in &thread {
            tags.push(p_tag(g, pk));
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
            let (url, hash) = url_image_hashed(g);
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
                    format!("x {}", hex::encode(&hash)),
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

pub(super) fn deletion(ctx: &Ctx, g: &mut Gen, at: u64) -> Event {
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

pub(super) fn repost(ctx: &Ctx, g: &mut Gen, u: f64, at: u64) -> Event {
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
    // Real corpus: 134 of 220 reposts leave content empty (NIP-18 allows it).
    let content = if g.chance(0.4) {
        original.to_json()
    } else {
        String::new()
    };
    let author = ctx.user(g);
    finish(g, author, 6, at, tags, content)
}

pub(super) fn reaction(ctx: &Ctx, g: &mut Gen, at: u64) -> Event {
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

pub(super) fn channel_message(ctx: &Ctx, g: &mut Gen, u: f64, at: u64) -> Event {
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

pub(super) fn report(ctx: &Ctx, g: &mut Gen, at: u64) -> Event {
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

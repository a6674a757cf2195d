//! Word pools and text builders: short notes in several scripts, profile
//! text, Markdown long-form and AsciiDoc wiki articles.
//!
//! All phrases here were written for this generator. Notes mix English
//! (most), other Latin-script languages, Japanese, Chinese, Korean, and
//! right-to-left Arabic, Hebrew and Persian, with emoji (including ZWJ
//! sequences, skin tones and flags) and the characters NIP-01 escapes.

use std::sync::LazyLock;

use crate::rng::Gen;

/// English words, roughly most frequent first (picked with a skew).
const EN: &str = "the a to and i of is it you that in for this on my be just so have \
not with are but was all me like what do we at your can if it's they get no one good \
up out day now gm about time today people more how new will some think from know \
here really see going make when there want would much need only love back still \
work nostr bitcoin world first right feel something got too very build relay client \
post zap zaps sats node wallet keys note notes thread reply friends life morning \
night coffee week weekend home music art photo picture walk city free freedom \
open source code app apps network protocol users follow followers feed timeline \
relays lightning channel payment fees block blocks mempool price market money \
value dollar energy mining miners hash rate privacy censorship resistant speech \
decentralized signal noise community plebs builders devs developer design better \
best great nice cool fun hard easy simple small big long short old young happy \
tired busy ready sure maybe probably definitely actually literally honestly \
anyone everyone someone nobody thing things stuff idea ideas question answer \
problem solution bug fix release version update feature test tests server \
phone laptop browser extension signer key backup seed words sunrise sunset rain \
snow mountain river ocean beach forest garden dog cat cats dogs bird food pizza \
bread cheese tea beer wine breakfast lunch dinner kitchen recipe book books read \
reading write writing podcast episode video stream live show movie game games \
play player team win lose learn learning teach school class kids family parents \
brother sister friend neighbour street train bus bike car road travel trip \
airport hotel weather summer winter spring autumn yesterday tomorrow tonight \
soon later already again always never sometimes often every each other another \
because though although while until since after before during between through \
over under around without within along across toward against among";

const ES: &str = "hola buenos días gracias amigos el la los las de que en un una \
por para con sin muy bien mal hoy mañana noche café libertad dinero red nodo \
comunidad nuevo viejo aquí allí siempre nunca también pero porque cuando donde \
feliz semana trabajo música vida mundo ciudad";

const PT: &str = "olá bom dia obrigado pessoal o a os as de que em um uma por \
para com sem muito bem hoje amanhã noite café liberdade dinheiro rede nó \
comunidade novo velho aqui sempre nunca também mas porque quando onde feliz \
semana trabalho música vida mundo cidade saudade";

const DE: &str = "hallo guten morgen danke leute der die das und ist nicht ein \
eine mit ohne sehr gut heute morgen abend kaffee freiheit geld netz knoten \
gemeinschaft neu alt hier immer nie auch aber weil wenn wo glücklich woche \
arbeit musik leben welt stadt straße grüße";

const JA: &[&str] = &[
    "今日はいい天気ですね",
    "おはようございます",
    "ノスターは思ったより楽しい",
    "コーヒーを飲みながら作業中",
    "新しいリレーを試してみた",
    "週末は山に行く予定です",
    "眠いけどもう少し頑張る",
    "このクライアント使いやすい",
    "ビットコインの値動きが気になる",
    "お疲れ様でした",
    "ラーメン食べたい",
    "猫がかわいすぎる",
    "電車が遅れている",
    "桜がきれいに咲いていた",
    "ザップありがとうございます！",
];

const ZH: &[&str] = &[
    "今天天气不错",
    "大家早上好",
    "刚刚换了一个新的中继",
    "比特币又涨了",
    "周末去爬山",
    "这个客户端很好用",
    "晚安，明天见",
    "学习一下去中心化协议",
    "咖啡是第一生产力",
    "分享一张照片",
    "言论自由很重要",
];

const KO: &[&str] = &[
    "안녕하세요",
    "오늘 날씨가 정말 좋네요",
    "노스터 재미있어요",
    "커피 한 잔 하실래요",
    "주말 잘 보내세요",
    "새 릴레이를 돌려 보는 중",
];

const AR: &[&str] = &[
    "صباح الخير يا أصدقاء",
    "هذا تطبيق رائع حقا",
    "حرية التواصل مهمة للجميع",
    "أتعلم البرمجة كل يوم",
    "شكرا لكم جميعا",
    "المفاتيح الخاصة مسؤوليتك",
    "نلتقي غدا إن شاء الله",
];

const HE: &[&str] = &[
    "בוקר טוב לכולם",
    "זה נראה מעניין מאוד",
    "תודה רבה על השיתוף",
    "אני לומד משהו חדש היום",
    "שבת שלום",
    "הממסר החדש עובד מהר",
];

const FA: &[&str] = &[
    "سلام دوستان",
    "امروز هوا خیلی خوب است",
    "آزادی بیان مهم است",
    "شب بخیر",
];

/// Emoji, including multi-codepoint sequences (ZWJ, skin tone, flags, VS16).
pub const EMOJI: &[&str] = &[
    "😂",
    "🔥",
    "🤙",
    "⚡",
    "🧡",
    "💜",
    "🚀",
    "👀",
    "🙏",
    "😅",
    "🎉",
    "☕",
    "🐈",
    "🤔",
    "💯",
    "😭",
    "🫂",
    "❤️",
    "👍🏽",
    "🌞",
    "🥩",
    "🍕",
    "🌧️",
    "👨‍💻",
    "🏳️‍🌈",
    "🇯🇵",
    "🇧🇷",
    "🫡",
    "✨",
    "🌱",
    "🐶",
    "🤣",
    "😎",
    "🥲",
];

/// Hashtags as written in text (the `t` tag carries the lowercase form).
pub const HASHTAGS: &[&str] = &[
    "nostr",
    "bitcoin",
    "grownostr",
    "plebchain",
    "coffeechain",
    "photography",
    "art",
    "music",
    "foodstr",
    "asknostr",
    "introductions",
    "catstr",
    "dogstr",
    "memes",
    "news",
    "tech",
    "privacy",
    "zapathon",
    "Bitcoin",
    "Nostr",
    "FOSS",
    "日本語",
    "ニュース",
    "travel",
    "books",
    "running",
];

/// Relay URLs: widely used public relays and plausible smaller ones.
pub const RELAYS: &[&str] = &[
    "wss://relay.damus.io",
    "wss://nos.lol",
    "wss://relay.primal.net",
    "wss://relay.nostr.band",
    "wss://nostr.wine",
    "wss://relay.snort.social",
    "wss://nostr.mom",
    "wss://purplepag.es",
    "wss://relay.nostr.bg",
    "wss://nostr.bitcoiner.social",
    "wss://offchain.pub",
    "wss://nostr-pub.wellorder.net",
    "wss://relay.current.fyi",
    "wss://eden.nostr.land",
    "wss://nostr.oxtr.dev",
    "wss://relay.nos.social",
    "wss://nostr.land",
    "wss://relay.mostr.pub",
    "wss://nostr21.com",
    "wss://relay.nostrplebs.com",
    "wss://nostr.fmt.wiz.biz",
    "wss://relay.damus.io/",
    "wss://nos.lol/",
    "wss://relay.example-commons.org",
    "wss://nostr.home-lab.lan:7777",
    "ws://umbrel.local:4848",
    "wss://relay.tiny-pleb.net/nostr",
    "wss://filter.nostr.wine/npub?broadcast=true",
];

/// Names of client applications seen in `client` tags.
pub const CLIENTS: &[&str] = &[
    "Damus",
    "Primal",
    "Amethyst",
    "Nostrudel",
    "Coracle",
    "Snort",
    "Iris",
    "Gossip",
    "YakiHonne",
    "Nostur",
];

const NAME_PARTS: &[&str] = &[
    "sat", "oshi", "pleb", "moon", "cat", "node", "zap", "orange", "pill", "byte", "nakamo",
    "lumen", "river", "stack", "hodl", "fox", "owl", "quiet", "north", "ruby", "kai", "mika",
    "yuki", "sol", "rio", "nova", "dev", "ops", "pixel",
];

/// The script a piece of text is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// English.
    En,
    /// Spanish.
    Es,
    /// Portuguese.
    Pt,
    /// German.
    De,
    /// Japanese.
    Ja,
    /// Chinese.
    Zh,
    /// Korean.
    Ko,
    /// Arabic (right to left).
    Ar,
    /// Hebrew (right to left).
    He,
    /// Persian (right to left).
    Fa,
}

impl Lang {
    /// A language with weights close to Nostr's mix: English first,
    /// Japanese second, then the rest.
    pub fn pick(g: &mut Gen) -> Self {
        let r = g.below(1000);
        match r {
            0..=679 => Self::En,
            680..=789 => Self::Ja,
            790..=829 => Self::Zh,
            830..=849 => Self::Ko,
            850..=889 => Self::Pt,
            890..=919 => Self::Es,
            920..=944 => Self::De,
            945..=969 => Self::Ar,
            970..=989 => Self::He,
            _ => Self::Fa,
        }
    }

    /// Index of the word pool in [`WORDS`] for Latin-script languages.
    fn word_pool(self) -> Option<usize> {
        match self {
            Self::En => Some(0),
            Self::Es => Some(1),
            Self::Pt => Some(2),
            Self::De => Some(3),
            _ => None,
        }
    }

    fn phrases(self) -> &'static [&'static str] {
        match self {
            Self::Ja => JA,
            Self::Zh => ZH,
            Self::Ko => KO,
            Self::Ar => AR,
            Self::He => HE,
            _ => FA,
        }
    }
}

/// The words of each Latin-script pool (English, Spanish, Portuguese,
/// German), split once.
static WORDS: LazyLock<[Vec<&'static str>; 4]> =
    LazyLock::new(|| [EN, ES, PT, DE].map(|pool| pool.split_ascii_whitespace().collect()));

/// One word of pool `pool` of [`WORDS`], skewed toward the frequent ones.
fn word(g: &mut Gen, pool: usize) -> &'static str {
    let words = &WORDS[pool];
    words[g.skewed(words.len())]
}

/// Appends one sentence in `lang` to `out`.
pub fn sentence(g: &mut Gen, lang: Lang, out: &mut String) {
    sentence_within(g, lang, out, usize::MAX);
}

/// Appends one sentence in `lang` to `out`, of at most `max_words` words
/// when the script has words.
fn sentence_within(g: &mut Gen, lang: Lang, out: &mut String, max_words: usize) {
    if let Some(pool) = lang.word_pool() {
        let n = (3 + g.below(12)).min(max_words.max(1));
        for i in 0..n {
            let w = word(g, pool);
            if i == 0 {
                let mut cs = w.chars();
                if let Some(c) = cs.next() {
                    out.extend(c.to_uppercase());
                    out.push_str(cs.as_str());
                }
            } else {
                out.push(' ');
                if g.chance(0.003) {
                    out.push('"');
                    out.push_str(w);
                    out.push('"');
                } else {
                    out.push_str(w);
                }
            }
            if i + 1 < n && g.chance(0.06) {
                out.push(',');
            }
        }
        out.push_str(g.pick(&[".", ".", ".", "!", "?", "...", "…", "!!"]));
    } else {
        let p = lang.phrases();
        out.push_str(g.pick(p));
        if g.chance(0.3) {
            out.push_str(match lang {
                Lang::Ja | Lang::Zh => "、",
                Lang::Ar | Lang::Fa => "، ",
                _ => ", ",
            });
            out.push_str(g.pick(p));
        }
        out.push_str(match lang {
            Lang::Ja | Lang::Zh => g.pick(&["。", "！", "？", "。", "w"]),
            Lang::Ar | Lang::Fa => g.pick(&[".", "!", "؟"]),
            _ => g.pick(&[".", "!", "?"]),
        });
    }
}

/// Text of about `target` bytes in `lang`, in paragraphs separated by blank
/// lines when it runs long (or by CRLF, rarely).
pub fn paragraphs(g: &mut Gen, lang: Lang, target: usize) -> String {
    let mut out = String::with_capacity(target + 64);
    let crlf = g.chance(0.01);
    let mut para_len = 0;
    while out.len() < target {
        if !out.is_empty() {
            if para_len > 120 && g.chance(0.4) {
                out.push_str(if crlf { "\r\n\r\n" } else { "\n\n" });
                para_len = 0;
            } else if g.chance(0.05) {
                out.push('\n');
            } else if !matches!(lang, Lang::Ja | Lang::Zh) {
                out.push(' ');
            }
        }
        let before = out.len();
        // About six bytes per word: end near the target rather than past it.
        let max_words = target.saturating_sub(out.len()).div_ceil(6);
        sentence_within(g, lang, &mut out, max_words);
        para_len += out.len() - before;
    }
    out
}

/// A lowercase handle such as `satnode21`.
pub fn handle(g: &mut Gen) -> String {
    let mut s = String::new();
    for _ in 0..1 + g.below(2) {
        s.push_str(g.pick(NAME_PARTS));
    }
    if g.chance(0.4) {
        s.push_str(&g.range(1, 999).to_string());
    }
    s
}

/// A display name: a capitalised handle, sometimes with emoji, CJK or RTL.
pub fn display_name(g: &mut Gen, handle: &str) -> String {
    let r = g.below(100);
    let mut cs = handle.chars();
    let cap: String = cs
        .next()
        .map(|c| c.to_uppercase().chain(cs).collect())
        .unwrap_or_default();
    match r {
        0..=59 => cap,
        60..=74 => format!("{cap} {}", g.pick(EMOJI)),
        75..=84 => format!("{} {}", g.pick(JA).chars().take(4).collect::<String>(), cap),
        85..=89 => g.pick(HE).split(' ').next().unwrap_or("").to_string(),
        90..=94 => g.pick(AR).split(' ').next().unwrap_or("").to_string(),
        _ => format!(
            "{cap} ⚡ {}",
            g.pick(&["Bitcoiner", "dev", "artist", "pleb"])
        ),
    }
}

/// Text with characters that exercise NIP-01 escaping: a kaomoji or path
/// with backslashes, a snippet with tabs and quotes, or quoted speech.
pub fn escape_heavy(g: &mut Gen) -> &'static str {
    g.pick(&[
        "¯\\_(ツ)_/¯",
        "\\o/",
        "saved it to C:\\Users\\Public\\notes.txt",
        "regex of the day: ^\\d{4}-\\d{2}$",
        "fn main() {\n\tprintln!(\"gm\");\n}",
        "name\tsats\nalice\t2100\nbob\t21",
        "she said \"don't trust, verify\" and left",
        "“curly quotes” and \"straight ones\"",
        "$$ \\frac{21}{1000000} $$",
        "path: /usr/local/bin\t(tab)",
    ])
}

/// A Markdown long-form article of about `target` bytes (NIP-23).
pub fn markdown(g: &mut Gen, title: &str, target: usize) -> String {
    let lang = if g.chance(0.85) {
        Lang::En
    } else {
        Lang::pick(g)
    };
    let mut out = format!("# {title}\n\n");
    let mut section = 1;
    while out.len() < target {
        match g.below(10) {
            0 => {
                out.push_str(&format!("## Part {section}: "));
                sentence(g, lang, &mut out);
                out.push_str("\n\n");
                section += 1;
            }
            1 => {
                for i in 0..2 + g.below(4) {
                    out.push_str(&if g.chance(0.5) {
                        "- ".to_string()
                    } else {
                        format!("{}. ", i + 1)
                    });
                    sentence(g, lang, &mut out);
                    out.push('\n');
                }
                out.push('\n');
            }
            2 => {
                out.push_str("> ");
                sentence(g, lang, &mut out);
                out.push_str("\n\n");
            }
            3 if g.chance(0.5) => {
                out.push_str("```");
                out.push_str(g.pick(&["rust", "js", "bash", ""]));
                out.push('\n');
                out.push_str(g.pick(&[
                    "let relay = Relay::connect(\"wss://nos.lol\").await?;\n",
                    "const sub = pool.subscribe([\"wss://relay.damus.io\"], { kinds: [1] });\n",
                    "echo '{\"kinds\":[0],\"limit\":1}' | nak req wss://nos.lol\n",
                    "if (!verifyEvent(ev)) {\n\tthrow new Error(\"bad sig\");\n}\n",
                ]));
                out.push_str("```\n\n");
            }
            4 => {
                out.push_str(&format!(
                    "![figure](https://image.nostr.build/{}.jpg)\n\n",
                    crate::model::hex::encode(&g.bytes::<32>())
                ));
            }
            _ => {
                let n = 2 + g.below(5);
                for _ in 0..n {
                    sentence(g, lang, &mut out);
                    out.push(' ');
                }
                if g.chance(0.3) {
                    out.push_str("See **this** and _that_ in [the docs](https://github.com/nostr-protocol/nips).");
                }
                out.truncate(out.trim_end_matches(' ').len());
                out.push_str("\n\n");
            }
        }
    }
    out
}

/// An AsciiDoc wiki article of about `target` bytes (NIP-54).
pub fn asciidoc(g: &mut Gen, title: &str, target: usize) -> String {
    let mut out = format!("= {title}\n\n");
    while out.len() < target {
        match g.below(6) {
            0 => {
                out.push_str("== ");
                sentence(g, Lang::En, &mut out);
                out.push_str("\n\n");
            }
            1 => {
                for _ in 0..2 + g.below(3) {
                    out.push_str("* ");
                    sentence(g, Lang::En, &mut out);
                    out.push('\n');
                }
                out.push('\n');
            }
            2 => {
                out.push_str(&format!(
                    "See [[{}]] and link:https://en.wikipedia.org/wiki/{}[the encyclopedia].\n\n",
                    word(g, 0),
                    word(g, 0)
                ));
            }
            _ => {
                for _ in 0..2 + g.below(4) {
                    sentence(g, Lang::En, &mut out);
                    out.push(' ');
                }
                out.truncate(out.trim_end_matches(' ').len());
                out.push_str("\n\n");
            }
        }
    }
    out
}

/// A short title of a few words.
pub fn title(g: &mut Gen) -> String {
    let mut s = String::new();
    let n = 2 + g.below(5);
    for i in 0..n {
        let w = word(g, 0);
        if i > 0 {
            s.push(' ');
        }
        let mut cs = w.chars();
        if let Some(c) = cs.next() {
            s.extend(c.to_uppercase());
            s.push_str(cs.as_str());
        }
    }
    s
}

/// A lowercase, dash-separated slug of `title` (NIP-23/NIP-54 `d` tags).
pub fn slug(title: &str) -> String {
    title
        .split_whitespace()
        .map(|w| {
            w.chars()
                .filter(|c| c.is_alphanumeric())
                .flat_map(char::to_lowercase)
                .collect::<String>()
        })
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("-")
}

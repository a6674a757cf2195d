//! Awkward but valid events: signed NIP-01 events that a corpus may happen
//! not to contain, on which a profile that claims to carry every valid event
//! is checked (`binostr corpus valid`, `vectors/valid-awkward.jsonl`).
//!
//! Two sources of cases, each one event:
//! - the near misses of every packing rule of the registry
//!   ([`Profile::packs`]): values a layout would pack but for one detail
//!   (case, length, a character, a colon), named `PLACE:WHAT` (`e[1]:text-32`),
//!   so a new profile's rules get cases of their own;
//! - a fixed list: empty and name-only tags, many tags, many values in a
//!   tag, long content and values, NUL, extreme timestamps, kinds 0 and
//!   65535.
//!
//! Keys come from [`generate::derive_keypair`] with a fixed key, and the
//! auxiliary randomness of each signature from the case name, so the file
//! is the same on every run. [`refusals`] encodes every case under every
//! profile: a refusal is an encode error with its reason, and an accepted
//! event must decode to itself.

use sha2::{Digest, Sha256};

use crate::codec::{Limits, Packing, Place, Profile, Shape};
use crate::corpus::generate;
use crate::model::{Event, hex};

/// One awkward event and its name.
#[derive(Clone, Debug)]
pub struct Case {
    /// `PLACE:WHAT` for a packing near miss, a kebab-case name otherwise.
    pub name: String,
    /// The signed event.
    pub event: Event,
}

/// `created_at` of the cases that do not test it: 2024-08-01T00:00:00Z.
const T: u64 = 1_722_470_400;

fn sha256(data: &[u8]) -> [u8; 32] {
    Sha256::digest(data).into()
}

/// Lowercase hex of SHA-256 of `label`: a stand-in id or pubkey.
fn ref_hex(label: &str) -> String {
    hex::encode(&sha256(label.as_bytes()))
}

/// `n` lowercase hex characters.
fn hex_chars(label: &str, n: usize) -> String {
    let mut s = String::new();
    let mut i = 0u32;
    while s.len() < n {
        s += &ref_hex(&format!("{label}{i}"));
        i += 1;
    }
    s.truncate(n);
    s
}

/// The near misses of one rule's shape: (what, value).
fn near_misses(shape: Shape) -> Vec<(String, String)> {
    match shape {
        Shape::Hex { min, max } => {
            // An unbounded rule is probed at an id's length.
            let top = if max == usize::MAX { 64 } else { max };
            let mut v = vec![
                (
                    format!("upper-hex-{top}"),
                    hex_chars("upper", top).to_uppercase(),
                ),
                (format!("mixed-hex-{top}"), {
                    let mut s = hex_chars("mixed", top);
                    s.replace_range(0..2, "Ab");
                    s
                }),
                (format!("odd-hex-{}", top - 1), hex_chars("odd", top - 1)),
                (
                    format!("0x-hex-{top}"),
                    format!("0x{}", hex_chars("0x", top - 2)),
                ),
                (
                    format!("text-{top}"),
                    format!("{}g", hex_chars("g", top - 1)),
                ),
                (format!("text-{}", top / 2), "z".repeat(top / 2)),
            ];
            if min >= 4 {
                v.push((
                    format!("short-hex-{}", min - 2),
                    hex_chars("short", min - 2),
                ));
                v.push((format!("text-{}", min / 2), "z".repeat(min / 2)));
            }
            if max != usize::MAX {
                v.push((format!("long-hex-{}", max + 2), hex_chars("long", max + 2)));
            }
            v
        }
        Shape::Address => {
            let pk = ref_hex("address");
            vec![
                (
                    "non-hex-pubkey".into(),
                    format!("30023:{}:d", "z".repeat(64)),
                ),
                (
                    "upper-pubkey".into(),
                    format!("30023:{}:d", pk.to_uppercase()),
                ),
                ("short-pubkey".into(), format!("30023:{}:d", &pk[..62])),
                ("kind-above-u16".into(), format!("70000:{pk}:d")),
                ("kind-leading-zero".into(), format!("030023:{pk}:d")),
                ("kind-not-decimal".into(), format!("x:{pk}:d")),
                ("colons-in-d".into(), format!("30023:{pk}:a:b::c:")),
                ("no-d".into(), format!("30023:{pk}")),
                ("empty-d".into(), format!("30023:{pk}:")),
                ("text-34".into(), "z".repeat(34)),
                ("text-33".into(), "z".repeat(33)),
            ]
        }
        Shape::Short { max } => vec![
            (format!("text-{max}"), "s".repeat(max)),
            (format!("text-{}", max + 1), "s".repeat(max + 1)),
        ],
        Shape::Decimal { min } => vec![
            (format!("below-{min}"), (min - 1).to_string()),
            ("leading-zero".into(), format!("0{min}")),
            ("not-decimal".into(), "soon".into()),
            ("empty".into(), String::new()),
            ("above-u64".into(), "18446744073709551616".into()),
        ],
    }
}

/// The tags holding `value` at `place`: (suffix of the case name, tags).
fn placed(place: Place, value: &str) -> Vec<(String, Vec<Vec<String>>, String)> {
    let s = |x: &str| x.to_owned();
    let at = |name: &str, index: usize| {
        let mut tag = vec![s(name)];
        tag.extend((1..index).map(|i| format!("v{i}")));
        tag.push(s(value));
        tag
    };
    match place {
        Place::AnyTagElement => vec![
            (s("any[1]"), vec![at("x", 1)], String::new()),
            (s("any[0]"), vec![vec![s(value), s("v")]], String::new()),
        ],
        Place::Tag { name, index } => {
            vec![(place.to_string(), vec![at(name, index)], String::new())]
        }
        Place::OneByteTag { index } => {
            vec![(place.to_string(), vec![at("t", index)], String::new())]
        }
        Place::Content => vec![(place.to_string(), Vec::new(), s(value))],
    }
}

/// The case names one rule yields, with their tags and content.
pub fn rule_cases(rule: &Packing) -> Vec<(String, Vec<Vec<String>>, String)> {
    let mut out = Vec::new();
    for (what, value) in near_misses(rule.shape) {
        for (place, tags, content) in placed(rule.place, &value) {
            out.push((format!("{place}:{what}"), tags, content));
        }
    }
    out
}

/// The fixed cases: (name, kind, created_at, tags, content).
type Fixed = (&'static str, u16, u64, Vec<Vec<String>>, String);

fn fixed() -> Vec<Fixed> {
    let t = |v: &[&str]| v.iter().map(|x| (*x).to_owned()).collect::<Vec<String>>();
    let limits = Limits::default();
    vec![
        (
            "name-only-tag",
            1,
            T,
            vec![t(&["t"])],
            "a tag that is only a name".into(),
        ),
        ("empty-tag", 1, T, vec![t(&[])], "an empty tag".into()),
        (
            "empty-tag-then-tag",
            1,
            T,
            vec![t(&[]), t(&["t", "x"])],
            String::new(),
        ),
        (
            "empty-values",
            1,
            T,
            vec![t(&["t", ""]), t(&["", ""]), t(&[""])],
            String::new(),
        ),
        (
            "many-tags",
            1,
            T,
            (0..3_000)
                .map(|i| vec!["t".into(), format!("{i}")])
                .collect(),
            String::new(),
        ),
        (
            "many-values",
            1,
            T,
            vec![
                (0..limits.max_values_per_tag)
                    .map(|i| format!("{i}"))
                    .collect(),
            ],
            String::new(),
        ),
        (
            "long-content",
            30023,
            T,
            Vec::new(),
            "long content. ".repeat(5_000),
        ),
        (
            "long-value",
            1,
            T,
            vec![vec!["alt".into(), "v".repeat(limits.max_value_bytes)]],
            String::new(),
        ),
        (
            "nul-content",
            1,
            T,
            Vec::new(),
            "nul \0 in \0\0 content".into(),
        ),
        (
            "nul-value",
            1,
            T,
            vec![t(&["t", "nul\0value"])],
            String::new(),
        ),
        ("created-at-0", 1, 0, Vec::new(), String::new()),
        (
            "created-at-u32-max",
            1,
            u64::from(u32::MAX),
            Vec::new(),
            String::new(),
        ),
        (
            "created-at-11-digits",
            1,
            10_000_000_000,
            Vec::new(),
            String::new(),
        ),
        (
            "created-at-i64-max",
            1,
            i64::MAX as u64,
            Vec::new(),
            String::new(),
        ),
        ("created-at-u64-max", 1, u64::MAX, Vec::new(), String::new()),
        ("kind-0", 0, T, Vec::new(), "{\"name\":\"awkward\"}".into()),
        ("kind-65535", 65535, T, Vec::new(), String::new()),
    ]
}

fn sign(
    name: &str,
    (kind, created_at): (u16, u64),
    tags: Vec<Vec<String>>,
    content: String,
) -> Case {
    let event = generate::signed_by_name(
        b"binostr/corpus/valid/v1",
        0,
        name,
        (kind, created_at),
        tags,
        content,
    );
    Case {
        name: name.to_owned(),
        event,
    }
}

/// Every case, in order: the registry's rules (each case once, at its
/// first rule), then the fixed list.
pub fn cases(profiles: &[Profile]) -> Vec<Case> {
    let mut out: Vec<Case> = Vec::new();
    for rule in profiles.iter().flat_map(|p| p.packs) {
        for (name, tags, content) in rule_cases(rule) {
            if !out.iter().any(|c| c.name == name) {
                out.push(sign(&name, (1, T), tags, content));
            }
        }
    }
    for (name, kind, created_at, tags, content) in fixed() {
        out.push(sign(name, (kind, created_at), tags, content));
    }
    out
}

/// One profile's refusal of one case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// Profile id.
    pub profile: &'static str,
    /// Case name.
    pub case: String,
    /// The event's id, lowercase hex.
    pub event_id: String,
    /// The encoder's error.
    pub reason: String,
}

/// An accepted case that did not decode to itself.
#[derive(Debug, thiserror::Error)]
#[error("{profile} changes case {case}: {what}")]
pub struct Changed {
    /// Profile id.
    pub profile: &'static str,
    /// Case name.
    pub case: String,
    /// The decode error, or "decodes to another event".
    pub what: String,
}

/// Every profile's refusals of `cases`, in registry then case order.
pub fn refusals(profiles: &[Profile], cases: &[Case]) -> Result<Vec<Refusal>, Changed> {
    let limits = Limits::default();
    let mut out = Vec::new();
    let mut buf = Vec::new();
    for p in profiles {
        for c in cases {
            buf.clear();
            let changed = |what: String| Changed {
                profile: p.id,
                case: c.name.clone(),
                what,
            };
            match p.codec.encode(&c.event, &mut buf) {
                Err(e) => out.push(Refusal {
                    profile: p.id,
                    case: c.name.clone(),
                    event_id: hex::encode(&c.event.id),
                    reason: e.reason,
                }),
                Ok(()) => match p.codec.decode(&buf, &limits) {
                    Ok(back) if back == c.event => {}
                    Ok(_) => return Err(changed("decodes to another event".into())),
                    Err(e) => return Err(changed(e.to_string())),
                },
            }
        }
    }
    Ok(out)
}

fn csv_cell(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

/// `cases.csv` ([`binostr_records::csv::VALID_CASES`]).
pub fn render_cases(cases: &[Case]) -> String {
    let mut out = binostr_records::csv::VALID_CASES.header_line();
    for c in cases {
        out += &format!("{},{}\n", csv_cell(&c.name), hex::encode(&c.event.id));
    }
    out
}

/// `refusals.csv` ([`binostr_records::csv::VALID_REFUSALS`]).
pub fn render_refusals(refusals: &[Refusal]) -> String {
    let mut out = binostr_records::csv::VALID_REFUSALS.header_line();
    for r in refusals {
        out += &format!(
            "{},{},{},{}\n",
            r.profile,
            csv_cell(&r.case),
            r.event_id,
            csv_cell(&r.reason)
        );
    }
    out
}

/// The fixture: one event per line, in case order.
pub fn render_fixture(cases: &[Case]) -> String {
    let mut out = Vec::new();
    let events: Vec<Event> = cases.iter().map(|c| c.event.clone()).collect();
    crate::files::write_jsonl(&events, &mut out).expect("writing to a Vec cannot fail");
    String::from_utf8(out).expect("events are UTF-8")
}

/// The fixture, relative to the repository root.
pub const FIXTURE: &str = "vectors/valid-awkward.jsonl";

/// Every file `binostr corpus valid` writes, as (path from the repository
/// root, text): the fixture, `cases.csv` and `refusals.csv`.
pub fn files(profiles: &[Profile]) -> Result<Vec<(&'static str, String)>, Changed> {
    let cases = cases(profiles);
    let refused = refusals(profiles, &cases)?;
    Ok(vec![
        (FIXTURE, render_fixture(&cases)),
        (binostr_records::csv::VALID_CASES.file, render_cases(&cases)),
        (
            binostr_records::csv::VALID_REFUSALS.file,
            render_refusals(&refused),
        ),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles::PROFILES;
    use crate::validate::{check_limits, parse_event_json, verify_event};

    #[test]
    fn every_case_is_signed_valid_and_within_the_limits() {
        let cases = cases(PROFILES);
        let limits = Limits::default();
        for c in &cases {
            verify_event(&c.event).unwrap_or_else(|e| panic!("{}: {e}", c.name));
            check_limits(&c.event, &limits).unwrap_or_else(|e| panic!("{}: {e}", c.name));
            let back = parse_event_json(c.event.to_json().as_bytes(), &limits)
                .unwrap_or_else(|e| panic!("{}: {e}", c.name));
            assert_eq!(back, c.event, "{}", c.name);
        }
        let mut names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
        names.sort_unstable();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n, "case names are unique");
    }

    #[test]
    fn every_packing_rule_of_the_registry_has_cases() {
        let names: Vec<String> = cases(PROFILES).into_iter().map(|c| c.name).collect();
        for p in PROFILES {
            for rule in p.packs {
                let own = rule_cases(rule);
                assert!(!own.is_empty(), "{}: {rule:?} has no case", p.id);
                assert!(own.iter().all(|(n, _, _)| names.contains(n)), "{}", p.id);
            }
        }
    }

    #[test]
    fn a_new_rule_gets_its_own_cases() {
        let rule = Packing {
            place: Place::Tag {
                name: "q",
                index: 1,
            },
            shape: crate::codec::HEX_64,
            marker: crate::codec::Marker::Length,
        };
        let names: Vec<String> = rule_cases(&rule).into_iter().map(|c| c.0).collect();
        assert!(names.contains(&"q[1]:text-32".to_owned()), "{names:?}");
        assert!(names.contains(&"q[1]:upper-hex-64".to_owned()), "{names:?}");
    }
}

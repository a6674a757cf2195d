//! Range growth: events beyond the ranges that today's events use, each
//! round-tripped through a profile with the suite's [`limits`](crate::codec::evolution::limits).
//! Each case is represented exactly or refused with a clear error; anything
//! else (truncation, a changed value) is a failure.

use serde::Serialize;

use crate::codec::Profile;
use crate::model::Event;

/// One range case: a name and how it changes the base event.
pub struct Case {
    /// Stable name (a CSV column suffix).
    pub name: &'static str,
    /// What it tests, in words.
    pub what: &'static str,
    /// Builds the case from the base event.
    pub build: fn(&Event) -> Event,
}

/// `created_at` = 2^32 + 1 (past 2106, beyond a `u32`).
pub const CREATED_AT: u64 = (1 << 32) + 1;
/// Values in the long tag.
pub const TAG_VALUES: usize = 300;
/// Bytes of the long content.
pub const CONTENT_BYTES: usize = 70_000;
/// Tags in the many-tags case.
pub const TAGS: usize = 70_000;

/// Every case, in report order.
pub const CASES: [Case; 5] = [
    Case {
        name: "created_at_2e32",
        what: "created_at = 2^32 + 1",
        build: |e| Event {
            created_at: CREATED_AT,
            ..e.clone()
        },
    },
    Case {
        name: "kind_65535",
        what: "kind = 65,535",
        build: |e| Event {
            kind: u16::MAX,
            ..e.clone()
        },
    },
    Case {
        name: "tag_300_values",
        what: "one more tag of 300 values (`t`, then `v0` … `v298`)",
        build: |e| {
            let mut e = e.clone();
            let mut tag = vec!["t".to_string()];
            tag.extend((0..TAG_VALUES - 1).map(|i| format!("v{i}")));
            e.tags.push(tag);
            e
        },
    },
    Case {
        name: "content_70000",
        what: "content of 70,000 bytes (ASCII and 4-byte UTF-8)",
        build: |e| {
            let unit = "nostr 🌅 ";
            let mut content = unit.repeat(CONTENT_BYTES / unit.len() + 1);
            while content.len() > CONTENT_BYTES {
                content.pop();
            }
            while content.len() < CONTENT_BYTES {
                content.push('x');
            }
            Event {
                content,
                ..e.clone()
            }
        },
    },
    Case {
        name: "tags_70000",
        what: "70,000 tags (`p` with a 64-hex key each)",
        build: |e| {
            let tags = (0..TAGS)
                .map(|i| vec!["p".to_string(), format!("{:064x}", i as u64 * 0x9e37_79b9)])
                .collect();
            Event { tags, ..e.clone() }
        },
    },
];

/// The outcome of one case.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum Outcome {
    /// `decode(encode(e)) == e`.
    Exact,
    /// The encoder or the decoder refused it with an error.
    Refused {
        /// `encode` or `decode`.
        stage: &'static str,
        /// The error message.
        message: String,
    },
    /// Decoded, but not to the same event: a failure.
    Changed {
        /// The first field that differs.
        difference: String,
    },
}

impl Outcome {
    /// The case's cell in `evolution.csv`: `exact`, `refused` or `changed`.
    pub fn label(&self) -> &'static str {
        match self {
            Outcome::Exact => "exact",
            Outcome::Refused { .. } => "refused",
            Outcome::Changed { .. } => "changed",
        }
    }
}

/// Round-trips `event` through `p`.
pub fn round_trip(p: &Profile, event: &Event) -> Outcome {
    let bytes = match super::encode(p, event) {
        Ok(b) => b,
        Err(e) => {
            return Outcome::Refused {
                stage: "encode",
                message: e.to_string(),
            };
        }
    };
    match p.codec.decode(&bytes, &crate::codec::evolution::limits()) {
        Err(e) => Outcome::Refused {
            stage: "decode",
            message: e.to_string(),
        },
        Ok(d) if d == *event => Outcome::Exact,
        Ok(d) => Outcome::Changed {
            difference: super::difference(event, &d),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_have_the_sizes_they_claim() {
        let base = crate::torture::golden_event();
        let [t, k, v, c, n] = &CASES;
        assert_eq!((t.build)(&base).created_at, CREATED_AT);
        assert_eq!((k.build)(&base).kind, 65_535);
        assert_eq!((v.build)(&base).tags.last().unwrap().len(), TAG_VALUES);
        assert_eq!((c.build)(&base).content.len(), CONTENT_BYTES);
        assert_eq!((n.build)(&base).tags.len(), TAGS);
    }

    #[test]
    fn exact_and_refused_are_told_apart() {
        let p = crate::profiles::find("json").unwrap();
        let e = crate::torture::golden_event();
        assert_eq!(round_trip(p, &e), Outcome::Exact);
        let gonostr = crate::profiles::find("gonostr-binary").unwrap();
        let big = (CASES[0].build)(&e);
        assert_eq!(round_trip(gonostr, &big).label(), "refused");
    }

    /// `json`, except that its decoder keeps only the low 32 bits of
    /// `created_at`: the silent truncation the suite must catch.
    struct Truncating;

    impl crate::codec::Codec for Truncating {
        fn encode(&self, e: &Event, out: &mut Vec<u8>) -> Result<(), crate::codec::EncodeError> {
            crate::profiles::json::PROFILE.codec.encode(e, out)
        }

        fn decode(
            &self,
            bytes: &[u8],
            limits: &crate::codec::Limits,
        ) -> Result<Event, crate::codec::DecodeError> {
            let mut e = crate::profiles::json::PROFILE.codec.decode(bytes, limits)?;
            e.created_at &= 0xffff_ffff;
            Ok(e)
        }
    }

    #[test]
    fn a_truncating_codec_is_changed_not_exact() {
        let p = Profile {
            id: "truncating",
            codec: &Truncating,
            ..crate::profiles::json::PROFILE
        };
        let e = (CASES[0].build)(&crate::torture::golden_event());
        assert_eq!(
            round_trip(&p, &e),
            Outcome::Changed {
                difference: "created_at 4294967297 became 1".into()
            }
        );
    }
}

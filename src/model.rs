//! The semantic NIP-01 event, owned ([`Event`]) and borrowed ([`EventRef`]).
//!
//! Two encodings of an event are equal exactly when they decode to the same
//! [`Event`]: same id, pubkey, sig, `created_at`, kind, tag strings and content.
//! Tags are kept exactly as written; a profile that packs hex into bytes must
//! restore the original string, so only lowercase even-length hex may be packed
//! (see [`hex`]).

use std::borrow::Cow;

pub mod golden;
pub mod hex;

/// A NIP-01 event with its fixed-size fields held as bytes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Event {
    /// SHA-256 of the canonical serialisation (NIP-01).
    pub id: [u8; 32],
    /// BIP-340 x-only public key of the author.
    pub pubkey: [u8; 32],
    /// BIP-340 Schnorr signature over `id`.
    pub sig: [u8; 64],
    /// Unix time in seconds.
    pub created_at: u64,
    /// Event kind, 0..=65535.
    pub kind: u16,
    /// Tags, each a list of strings, exactly as written.
    pub tags: Vec<Vec<String>>,
    /// Content, exactly as written.
    pub content: String,
}

/// A borrowed view of an event.
///
/// Fixed-size fields borrow from the source when it holds them as raw bytes
/// and are owned otherwise (for example when the source holds hex); strings
/// borrow when they need no unescaping or unpacking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventRef<'a> {
    /// See [`Event::id`].
    pub id: Cow<'a, [u8; 32]>,
    /// See [`Event::pubkey`].
    pub pubkey: Cow<'a, [u8; 32]>,
    /// See [`Event::sig`].
    pub sig: Cow<'a, [u8; 64]>,
    /// See [`Event::created_at`].
    pub created_at: u64,
    /// See [`Event::kind`].
    pub kind: u16,
    /// See [`Event::tags`].
    pub tags: Vec<Vec<Cow<'a, str>>>,
    /// See [`Event::content`].
    pub content: Cow<'a, str>,
}

impl Event {
    /// An event from its seven fields, in the order they are declared.
    #[inline]
    pub fn new(
        id: [u8; 32],
        pubkey: [u8; 32],
        sig: [u8; 64],
        created_at: u64,
        kind: u16,
        tags: Vec<Vec<String>>,
        content: String,
    ) -> Self {
        Self {
            id,
            pubkey,
            sig,
            created_at,
            kind,
            tags,
            content,
        }
    }

    /// Borrows this event as an [`EventRef`] without copying strings.
    pub fn as_ref(&self) -> EventRef<'_> {
        EventRef {
            id: Cow::Borrowed(&self.id),
            pubkey: Cow::Borrowed(&self.pubkey),
            sig: Cow::Borrowed(&self.sig),
            created_at: self.created_at,
            kind: self.kind,
            tags: self
                .tags
                .iter()
                .map(|t| t.iter().map(|v| Cow::Borrowed(v.as_str())).collect())
                .collect(),
            content: Cow::Borrowed(&self.content),
        }
    }

    /// Writes the event as compact JSON in NIP-01 field order
    /// (`id, pubkey, created_at, kind, tags, content, sig`), with standard JSON
    /// string escaping, so that any JSON parser reads it back.
    pub fn write_json(&self, out: &mut Vec<u8>) {
        self.write_json_with(out, write_json_string);
    }

    /// [`Event::write_json`] with another JSON string writer (the faster JSON
    /// profiles pass their library's escaper; it must escape exactly as
    /// serde_json does, which their tests check byte for byte).
    pub fn write_json_with(&self, out: &mut Vec<u8>, write_string: impl Fn(&str, &mut Vec<u8>)) {
        out.extend_from_slice(b"{\"id\":\"");
        hex::encode_into(&self.id, out);
        out.extend_from_slice(b"\",\"pubkey\":\"");
        hex::encode_into(&self.pubkey, out);
        out.extend_from_slice(b"\",\"created_at\":");
        out.extend_from_slice(self.created_at.to_string().as_bytes());
        out.extend_from_slice(b",\"kind\":");
        out.extend_from_slice(self.kind.to_string().as_bytes());
        out.extend_from_slice(b",\"tags\":[");
        for (i, tag) in self.tags.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.push(b'[');
            for (j, value) in tag.iter().enumerate() {
                if j > 0 {
                    out.push(b',');
                }
                write_string(value, out);
            }
            out.push(b']');
        }
        out.extend_from_slice(b"],\"content\":");
        write_string(&self.content, out);
        out.extend_from_slice(b",\"sig\":\"");
        hex::encode_into(&self.sig, out);
        out.extend_from_slice(b"\"}");
    }

    /// The compact JSON of [`Event::write_json`] as a `String`.
    pub fn to_json(&self) -> String {
        let mut out = Vec::with_capacity(512);
        self.write_json(&mut out);
        String::from_utf8(out).expect("write_json emits UTF-8")
    }
}

impl EventRef<'_> {
    /// Copies the view into an owned [`Event`].
    pub fn to_owned_event(&self) -> Event {
        Event {
            id: *self.id,
            pubkey: *self.pubkey,
            sig: *self.sig,
            created_at: self.created_at,
            kind: self.kind,
            tags: self
                .tags
                .iter()
                .map(|t| t.iter().map(|v| v.clone().into_owned()).collect())
                .collect(),
            content: self.content.clone().into_owned(),
        }
    }
}

impl From<Event> for EventRef<'_> {
    /// The view owning every field of `e` (no copy of its strings).
    fn from(e: Event) -> Self {
        EventRef {
            id: Cow::Owned(e.id),
            pubkey: Cow::Owned(e.pubkey),
            sig: Cow::Owned(e.sig),
            created_at: e.created_at,
            kind: e.kind,
            tags: e
                .tags
                .into_iter()
                .map(|t| t.into_iter().map(Cow::Owned).collect())
                .collect(),
            content: Cow::Owned(e.content),
        }
    }
}

/// Writes `s` as a JSON string literal with RFC 8259 escaping.
fn write_json_string(s: &str, out: &mut Vec<u8>) {
    serde_json::to_writer(&mut *out, s).expect("writing a str into a Vec cannot fail");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Event {
        Event {
            id: [1; 32],
            pubkey: [2; 32],
            sig: [3; 64],
            created_at: 1_700_000_000,
            kind: 1,
            tags: vec![vec!["e".into(), "ab".into()], vec![]],
            content: "a\u{1}\"\n\u{2028}".into(),
        }
    }

    #[test]
    fn json_is_field_ordered_and_parses_back() {
        let e = sample();
        let json = e.to_json();
        assert!(json.starts_with("{\"id\":\"0101"), "{json}");
        let keys: Vec<&str> = [
            "\"id\"",
            "\"pubkey\"",
            "\"created_at\"",
            "\"kind\"",
            "\"tags\"",
            "\"content\"",
            "\"sig\"",
        ]
        .into_iter()
        .collect();
        let positions: Vec<usize> = keys.iter().map(|k| json.find(k).unwrap()).collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{json}");
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["content"], "a\u{1}\"\n\u{2028}");
        assert_eq!(v["tags"][1], serde_json::json!([]));
    }

    #[test]
    fn borrowed_view_round_trips() {
        let e = sample();
        assert_eq!(e.as_ref().to_owned_event(), e);
    }
}

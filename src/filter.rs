//! NIP-01 REQ filters: the [`Filter`] model, its JSON form, and matching.
//!
//! A filter holds `ids`, `authors`, `kinds`, single-letter tag filters
//! (`#e`, `#p`, `#t`, ...), `since`, `until` and `limit`. An event matches
//! when every condition present holds (AND); a list condition holds when the
//! event's field equals one of its values (OR). A tag filter `#x` holds when
//! some tag named `x` has its first value in the list. `since <= created_at
//! <= until`. `ids` and `authors` are exact 64-character lowercase hex
//! (NIP-01 removed prefix matching). `limit` bounds the initial answer and
//! takes no part in matching.
//!
//! Parsing refuses anything NIP-01 does not define (unknown keys, empty
//! lists, uppercase or short hex, kinds above 65535) with a [`FilterError`]
//! naming the field. [`mod@reference`] evaluates filters on parsed JSON by an
//! independent path; [`draw()`] draws seeded client REQs from a corpus.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::model::{Event, EventRef, hex};

pub mod draw;
pub mod reference;
pub mod set;

pub use draw::draw;
pub use set::FilterSet;

/// A NIP-01 filter.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Event ids, any of which matches.
    pub ids: Option<Vec<[u8; 32]>>,
    /// Author pubkeys, any of which matches.
    pub authors: Option<Vec<[u8; 32]>>,
    /// Kinds, any of which matches.
    pub kinds: Option<Vec<u16>>,
    /// Tag filters by tag name (a single ASCII letter): values any of which
    /// matches a tag's first value.
    pub tags: BTreeMap<char, Vec<String>>,
    /// Smallest matching `created_at`.
    pub since: Option<u64>,
    /// Largest matching `created_at`.
    pub until: Option<u64>,
    /// Most events the initial answer returns (not a matching condition).
    pub limit: Option<u64>,
}

/// Why a filter's JSON was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FilterError {
    /// The filter is not a JSON object.
    #[error("a filter must be a json object")]
    NotObject,
    /// A key NIP-01 does not define.
    #[error("unknown filter field {0:?}")]
    UnknownField(String),
    /// A field of the wrong JSON type or value.
    #[error("{field}: {why}")]
    BadValue {
        /// The field (with an index for list elements, e.g. `ids[2]`).
        field: String,
        /// What was expected.
        why: &'static str,
    },
}

fn bad(field: impl Into<String>, why: &'static str) -> FilterError {
    FilterError::BadValue {
        field: field.into(),
        why,
    }
}

/// What [`Filter::matches_on`] reads from an event; implemented for
/// [`Event`] and [`EventRef`].
pub trait FilterTarget {
    /// The raw 32-byte id, matched against the filter's `ids`.
    fn id(&self) -> &[u8; 32];
    /// The raw 32-byte author key, matched against the filter's `authors`.
    fn pubkey(&self) -> &[u8; 32];
    /// Seconds since the Unix epoch, matched against `since` and `until`.
    fn created_at(&self) -> u64;
    /// Matched against the filter's `kinds`.
    fn kind(&self) -> u16;
    /// Whether some tag with at least two strings satisfies `f(name, first_value)`.
    fn any_tag(&self, f: impl FnMut(&str, &str) -> bool) -> bool;
}

impl FilterTarget for EventRef<'_> {
    fn id(&self) -> &[u8; 32] {
        &self.id
    }
    fn pubkey(&self) -> &[u8; 32] {
        &self.pubkey
    }
    fn created_at(&self) -> u64 {
        self.created_at
    }
    fn kind(&self) -> u16 {
        self.kind
    }
    fn any_tag(&self, mut f: impl FnMut(&str, &str) -> bool) -> bool {
        self.tags.iter().any(|t| match t.as_slice() {
            [name, value, ..] => f(name, value),
            _ => false,
        })
    }
}

impl FilterTarget for Event {
    fn id(&self) -> &[u8; 32] {
        &self.id
    }
    fn pubkey(&self) -> &[u8; 32] {
        &self.pubkey
    }
    fn created_at(&self) -> u64 {
        self.created_at
    }
    fn kind(&self) -> u16 {
        self.kind
    }
    fn any_tag(&self, mut f: impl FnMut(&str, &str) -> bool) -> bool {
        self.tags.iter().any(|t| match t.as_slice() {
            [name, value, ..] => f(name, value),
            _ => false,
        })
    }
}

impl Filter {
    /// Whether the borrowed view `view` matches (NIP-01 semantics).
    pub fn matches(&self, view: &EventRef) -> bool {
        self.matches_on(view)
    }

    /// Whether `event` matches, for any [`FilterTarget`].
    pub fn matches_on<T: FilterTarget + ?Sized>(&self, event: &T) -> bool {
        if self.since.is_some_and(|s| event.created_at() < s)
            || self.until.is_some_and(|u| event.created_at() > u)
        {
            return false;
        }
        if let Some(kinds) = &self.kinds
            && !kinds.contains(&event.kind())
        {
            return false;
        }
        if let Some(authors) = &self.authors
            && !authors.contains(event.pubkey())
        {
            return false;
        }
        if let Some(ids) = &self.ids
            && !ids.contains(event.id())
        {
            return false;
        }
        self.tags.iter().all(|(letter, values)| {
            let mut buf = [0; 4];
            let name: &str = letter.encode_utf8(&mut buf);
            event.any_tag(|n, v| n == name && values.iter().any(|x| x == v))
        })
    }

    /// Parses a filter from its NIP-01 JSON object.
    pub fn from_json(value: &Value) -> Result<Self, FilterError> {
        let Value::Object(map) = value else {
            return Err(FilterError::NotObject);
        };
        let mut f = Filter::default();
        for (key, v) in map {
            match key.as_str() {
                "ids" => f.ids = Some(hex_list(key, v)?),
                "authors" => f.authors = Some(hex_list(key, v)?),
                "kinds" => {
                    f.kinds = Some(
                        list(key, v)?
                            .iter()
                            .enumerate()
                            .map(|(i, k)| {
                                k.as_u64()
                                    .and_then(|k| u16::try_from(k).ok())
                                    .ok_or_else(|| {
                                        bad(format!("kinds[{i}]"), "expected an integer 0..=65535")
                                    })
                            })
                            .collect::<Result<_, _>>()?,
                    )
                }
                "since" => f.since = Some(timestamp(key, v)?),
                "until" => f.until = Some(timestamp(key, v)?),
                "limit" => f.limit = Some(timestamp(key, v)?),
                _ => {
                    let letter =
                        tag_letter(key).ok_or_else(|| FilterError::UnknownField(key.clone()))?;
                    let values = list(key, v)?
                        .iter()
                        .enumerate()
                        .map(|(i, x)| {
                            x.as_str()
                                .map(str::to_owned)
                                .ok_or_else(|| bad(format!("{key}[{i}]"), "expected a string"))
                        })
                        .collect::<Result<_, _>>()?;
                    f.tags.insert(letter, values);
                }
            }
        }
        Ok(f)
    }

    /// Parses a filter from JSON text.
    pub fn from_json_str(s: &str) -> Result<Self, FilterError> {
        let v: Value = serde_json::from_str(s).map_err(|_| bad("filter", "not valid json"))?;
        Self::from_json(&v)
    }

    /// The filter's NIP-01 JSON object.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).expect("a filter serialises to json")
    }
}

impl serde::Serialize for Filter {
    /// Writes the keys in the order `ids, authors, kinds, #A..#z, since,
    /// until, limit` (a [`Value`] object sorts its keys; this does not).
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let hexes = |xs: &[[u8; 32]]| xs.iter().map(|x| hex::encode(x)).collect::<Vec<_>>();
        let mut m = s.serialize_map(None)?;
        if let Some(ids) = &self.ids {
            m.serialize_entry("ids", &hexes(ids))?;
        }
        if let Some(authors) = &self.authors {
            m.serialize_entry("authors", &hexes(authors))?;
        }
        if let Some(kinds) = &self.kinds {
            m.serialize_entry("kinds", kinds)?;
        }
        for (letter, values) in &self.tags {
            m.serialize_entry(&format!("#{letter}"), values)?;
        }
        for (key, v) in [
            ("since", self.since),
            ("until", self.until),
            ("limit", self.limit),
        ] {
            if let Some(v) = v {
                m.serialize_entry(key, &v)?;
            }
        }
        m.end()
    }
}

impl<'de> serde::Deserialize<'de> for Filter {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        Filter::from_json(&v).map_err(serde::de::Error::custom)
    }
}

/// The letter of a `#x` key, `x` a single ASCII letter.
fn tag_letter(key: &str) -> Option<char> {
    let mut chars = key.strip_prefix('#')?.chars();
    let c = chars.next()?;
    (c.is_ascii_alphabetic() && chars.next().is_none()).then_some(c)
}

fn list<'v>(key: &str, v: &'v Value) -> Result<&'v Vec<Value>, FilterError> {
    match v {
        Value::Array(xs) if xs.is_empty() => Err(bad(key, "a list must hold at least one value")),
        Value::Array(xs) => Ok(xs),
        _ => Err(bad(key, "expected a list")),
    }
}

fn hex_list(key: &str, v: &Value) -> Result<Vec<[u8; 32]>, FilterError> {
    list(key, v)?
        .iter()
        .enumerate()
        .map(|(i, x)| {
            x.as_str()
                .filter(|s| s.len() == 64 && hex::is_lower_hex(s))
                .and_then(hex::decode_array::<32>)
                .ok_or_else(|| {
                    bad(
                        format!("{key}[{i}]"),
                        "expected 64 lowercase hex characters",
                    )
                })
        })
        .collect()
}

fn timestamp(key: &str, v: &Value) -> Result<u64, FilterError> {
    v.as_u64()
        .ok_or_else(|| bad(key, "expected a non-negative integer"))
}

#[cfg(test)]
mod tests;

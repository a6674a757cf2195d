//! The glue every hand-written profile shares: one parser, generic over
//! owned and borrowed strings, serves both [`Codec::decode`] and the
//! [`BorrowDecode`] view, so a profile writes its byte layout and nothing
//! else.

use std::borrow::Cow;

use super::{
    BorrowDecode, Codec, DecodeError, DecodeErrorKind, EncodeError, HostileInputs, Limit, Limits,
    NativeBatch, Reader, SelectContract, check_event_size,
};
use crate::model::hex::{self, is_lower_hex};
use crate::model::{Event, EventRef};

/// A tag value or the content as a [`Layout`] parser yields it: `String`
/// for owned decoding, `Cow<str>` borrowing from the input for the view.
pub trait Text<'a>: From<&'a str> + From<String> + AsRef<str> {}

impl Text<'_> for String {}

impl<'a> Text<'a> for Cow<'a, str> {}

/// The fields of an event as a [`Layout`] parser reads them: fixed-size
/// fields borrowed from the input, tag values and content as `S`.
pub struct Parts<'a, S> {
    /// See [`Event::id`].
    pub id: &'a [u8; 32],
    /// See [`Event::pubkey`].
    pub pubkey: &'a [u8; 32],
    /// See [`Event::sig`].
    pub sig: &'a [u8; 64],
    /// See [`Event::created_at`].
    pub created_at: u64,
    /// See [`Event::kind`].
    pub kind: u16,
    /// See [`Event::tags`].
    pub tags: Vec<Vec<S>>,
    /// See [`Event::content`].
    pub content: S,
}

impl<'a, S> Parts<'a, S> {
    /// The parts, in the order of [`Event`]'s fields.
    #[inline]
    pub fn new(
        id: &'a [u8; 32],
        pubkey: &'a [u8; 32],
        sig: &'a [u8; 64],
        created_at: u64,
        kind: u16,
        tags: Vec<Vec<S>>,
        content: S,
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
}

impl Parts<'_, String> {
    /// The owned event.
    #[inline]
    pub fn into_event(self) -> Event {
        Event::new(
            *self.id,
            *self.pubkey,
            *self.sig,
            self.created_at,
            self.kind,
            self.tags,
            self.content,
        )
    }
}

impl<'a> Parts<'a, Cow<'a, str>> {
    /// The borrowed view.
    #[inline]
    pub fn into_ref(self) -> EventRef<'a> {
        EventRef {
            id: Cow::Borrowed(self.id),
            pubkey: Cow::Borrowed(self.pubkey),
            sig: Cow::Borrowed(self.sig),
            created_at: self.created_at,
            kind: self.kind,
            tags: self.tags,
            content: self.content,
        }
    }
}

/// The fields of an event whose fixed-size fields were copied out of the
/// input (decoded from hex, or deserialized into arrays) rather than
/// borrowed; tag values and content as `S`, like [`Parts`].
pub struct DecodedParts<S> {
    /// See [`Event::id`].
    pub id: [u8; 32],
    /// See [`Event::pubkey`].
    pub pubkey: [u8; 32],
    /// See [`Event::sig`].
    pub sig: [u8; 64],
    /// See [`Event::created_at`].
    pub created_at: u64,
    /// See [`Event::kind`].
    pub kind: u16,
    /// See [`Event::tags`].
    pub tags: Vec<Vec<S>>,
    /// See [`Event::content`].
    pub content: S,
}

impl DecodedParts<String> {
    /// The owned event.
    #[inline]
    pub fn into_event(self) -> Event {
        Event::new(
            self.id,
            self.pubkey,
            self.sig,
            self.created_at,
            self.kind,
            self.tags,
            self.content,
        )
    }
}

impl<'a> DecodedParts<Cow<'a, str>> {
    /// The view: fixed-size fields owned, strings borrowed where they can be.
    #[inline]
    pub fn into_ref(self) -> EventRef<'a> {
        EventRef {
            id: Cow::Owned(self.id),
            pubkey: Cow::Owned(self.pubkey),
            sig: Cow::Owned(self.sig),
            created_at: self.created_at,
            kind: self.kind,
            tags: self.tags,
            content: self.content,
        }
    }
}

/// A byte layout written by hand. Implementing it makes the profile a
/// [`Codec`] with a [`BorrowDecode`] view whose selective read is
/// [`SelectContract::Preverified`]: [`Layout::prefix`] reads only the bytes
/// before kind and pubkey. The blanket impls run [`check_event_size`]
/// before [`Layout::parse`] and [`Layout::prefix`], so neither repeats it.
pub trait Layout: Sync {
    /// The profile id, named in encoding refusals.
    const ID: &'static str;

    /// Appends the encoding of `event` to `out`; on error `out` is left as
    /// it was.
    fn write(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError>;

    /// Parses exactly one event from all of `bytes` (already within
    /// `limits.max_event_bytes`), enforcing the other `limits`.
    fn parse<'a, S: Text<'a>>(
        bytes: &'a [u8],
        limits: &Limits,
    ) -> Result<Parts<'a, S>, DecodeError>;

    /// Kind and pubkey, from the prefix that holds them (`bytes` already
    /// within `limits.max_event_bytes`).
    fn prefix(bytes: &[u8], limits: &Limits) -> Result<(u16, [u8; 32]), DecodeError>;

    /// See [`Codec::batch`].
    fn native_batch(&self) -> Option<&dyn NativeBatch> {
        None
    }

    /// See [`Codec::hostile`].
    fn hostile_inputs(&self) -> Option<&dyn HostileInputs> {
        None
    }

    /// This profile's refusal to encode an event, for `reason`.
    fn refuse(reason: impl Into<String>) -> EncodeError {
        EncodeError::new(Self::ID, reason)
    }
}

impl<L: Layout> Codec for L {
    fn encode(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        self.write(event, out)
    }

    fn decode(&self, bytes: &[u8], limits: &Limits) -> Result<Event, DecodeError> {
        check_event_size(bytes, limits)?;
        Ok(L::parse::<String>(bytes, limits)?.into_event())
    }

    fn borrowed(&self) -> Option<&dyn BorrowDecode> {
        Some(self)
    }

    fn batch(&self) -> Option<&dyn NativeBatch> {
        self.native_batch()
    }

    fn hostile(&self) -> Option<&dyn HostileInputs> {
        self.hostile_inputs()
    }
}

impl<L: Layout> BorrowDecode for L {
    fn decode_ref<'a>(
        &self,
        bytes: &'a [u8],
        limits: &Limits,
    ) -> Result<EventRef<'a>, DecodeError> {
        check_event_size(bytes, limits)?;
        Ok(L::parse::<Cow<'a, str>>(bytes, limits)?.into_ref())
    }

    fn select_contract(&self) -> SelectContract {
        SelectContract::Preverified
    }

    fn kind_and_pubkey(
        &self,
        bytes: &[u8],
        limits: &Limits,
    ) -> Result<(u16, [u8; 32]), DecodeError> {
        check_event_size(bytes, limits)?;
        L::prefix(bytes, limits)
    }
}

/// [`Layout::prefix`] of a fixed-offset header: the pubkey at 32, the kind's
/// two bytes at `kind_at` (read by `kind`, e.g. `u16::from_le_bytes`).
/// Input shorter than `header` bytes is `Truncated` at its end; nothing else
/// is checked.
#[inline]
pub fn fixed_prefix(
    bytes: &[u8],
    header: usize,
    kind_at: usize,
    kind: impl FnOnce([u8; 2]) -> u16,
) -> Result<(u16, [u8; 32]), DecodeError> {
    debug_assert!(header >= 64 && header >= kind_at + 2);
    if bytes.len() < header {
        return Err(DecodeError::at(DecodeErrorKind::Truncated, bytes.len()));
    }
    let pubkey: [u8; 32] = bytes[32..64].try_into().expect("32 bytes");
    Ok((kind([bytes[kind_at], bytes[kind_at + 1]]), pubkey))
}

/// The read side of [`put_hex_or_text`](super::write::put_hex_or_text): a
/// value whose header at `at` declared `len` bytes, restored as lowercase
/// hex when `is_hex`, else read as UTF-8. Checked in this order, each error
/// at `at`: the restored length against `max_chars`, `len` against the
/// input, then the canonical form (hex restores to at least `min_chars`
/// characters; text is not hex that the encoder would have packed).
pub fn hex_or_text<'a, S: Text<'a>>(
    r: &mut Reader<'a>,
    at: usize,
    len: u64,
    is_hex: bool,
    min_chars: usize,
    max_chars: usize,
) -> Result<S, DecodeError> {
    let chars = if is_hex { len.saturating_mul(2) } else { len };
    if chars > max_chars as u64 {
        return Err(DecodeError::at(
            DecodeErrorKind::LimitExceeded(Limit::ValueBytes),
            at,
        ));
    }
    let len = r.fits(len, 1)?;
    if is_hex {
        if len * 2 < min_chars {
            return Err(DecodeError::at(DecodeErrorKind::NonCanonical, at));
        }
        Ok(S::from(hex::encode(r.take(len)?)))
    } else {
        let s = r.str(len)?;
        if s.len() >= min_chars && is_lower_hex(s) {
            return Err(DecodeError::at(DecodeErrorKind::NonCanonical, at));
        }
        Ok(S::from(s))
    }
}

/// The tag list of a count-prefixed layout: a tag count read by `tags` (at
/// most `max_tags`), then per tag a value count read by `values` (at most
/// `max_values_per_tag`, each value taking at least `min_value_bytes`) and
/// its values, each read by `value` given the tag's values before it.
/// Counts are checked before anything is reserved.
pub fn read_tags<'a, S>(
    r: &mut Reader<'a>,
    limits: &Limits,
    tags: impl Fn(&mut Reader<'a>) -> Result<u64, DecodeError>,
    values: impl Fn(&mut Reader<'a>) -> Result<u64, DecodeError>,
    min_value_bytes: usize,
    mut value: impl FnMut(&mut Reader<'a>, &[S]) -> Result<S, DecodeError>,
) -> Result<Vec<Vec<S>>, DecodeError> {
    let n_tags = tags(r)?;
    let n_tags = r.count(n_tags, 1, limits.max_tags, Limit::Tags)?;
    let mut out = Vec::with_capacity(n_tags);
    for _ in 0..n_tags {
        let n = values(r)?;
        let n = r.count(
            n,
            min_value_bytes,
            limits.max_values_per_tag,
            Limit::ValuesPerTag,
        )?;
        let mut tag = Vec::with_capacity(n);
        for _ in 0..n {
            let v = value(r, &tag)?;
            tag.push(v);
        }
        out.push(tag);
    }
    Ok(out)
}

//! `gonostr-binary`: the deprecated binary layout of go-nostr
//! (`binary/hybrid.go` `Marshal`/`Unmarshal`, `binary/limits.go`, v0.32.0),
//! reproduced byte for byte, including its cursor quirk.
//!
//! | offset | field | encoding |
//! |---|---|---|
//! | 0 | id | 32 raw bytes |
//! | 32 | pubkey | 32 raw bytes |
//! | 64 | sig | 64 raw bytes |
//! | 128 | created_at | u32 big-endian |
//! | 132 | kind | u16 big-endian |
//! | 134 | content length | u16 big-endian |
//! | 136 | content | UTF-8 bytes |
//! | … | n_tags | u16 big-endian |
//! | per tag | n_items | u8 |
//! | per item | len, bytes, pad | u16 big-endian, UTF-8 bytes, one `0x00` byte |
//!
//! The pad byte: `Marshal` advances its cursor with `curr++` *before* each
//! item while the previous item already left it one past its last byte, so
//! every item is followed by one unused byte, zero in Go's freshly
//! allocated buffer; the final `buf[0 : curr+1]` keeps the last one. An event
//! with no tags ends right after `n_tags`. The decoder requires every pad to
//! be `0x00` (canonical form) and the input to end exactly there.
//!
//! Hex policy: none; every tag item is carried as its UTF-8 string.
//!
//! Not representable (encoding fails, as `Marshal` does): content over
//! 65,535 bytes, more than 65,535 tags, more than 255 items in a tag, an item
//! over 65,535 bytes, `created_at` above `u32::MAX`.
//!
//! Differences from upstream: `Unmarshal` does no bounds checks of its own
//! (it recovers from the Go index panic), ignores trailing bytes and does
//! not validate UTF-8; ours is bounds-checked against [`Limits`] and the
//! remaining input, validates UTF-8 and rejects trailing or non-zero pad
//! bytes. `Marshal` allocates a fixed `136 + len(content) + 65536 +
//! 40·len(tags)` buffer, so a tag section larger than `65536 + 40·n_tags`
//! bytes (e.g. a follow list of over ~1,100 `p` tags with relay hints)
//! indexes past it and panics in Go; ours encodes it.

use crate::codec::{
    Capabilities, DecodeError, DecodeErrorKind, EncodeError, Family, Layout, Limit, Limits, Parts,
    Profile, Reader, Text, fixed_prefix, read_tags,
};
use crate::model::Event;

/// The registry entry.
pub const PROFILE: Profile = Profile {
    id: "gonostr-binary",
    family: Family::NostrSpecific,
    capabilities: Capabilities {
        deterministic: true,
        self_describing: false,
    },
    enabled: true,
    codec: &GoNostrBinary,
    packs: &[],
    evolution: &crate::codec::evolution::surgery::Appended {
        mechanism: "a varint 42 appended after the last tag item and its pad (go-nostr binary/hybrid.go v0.32.0: fixed header, content, tags; no version or record length; Go's Unmarshal ignores trailing bytes)",
    },
    maintenance: crate::codec::Maintenance::standalone(
        &[file!()],
        crate::codec::maintenance::GONOSTR_BINARY,
    ),
};

const HEADER: usize = 136;

/// go-nostr's `binary` package layout.
pub struct GoNostrBinary;

fn check(event: &Event) -> Result<(), EncodeError> {
    if event.created_at > u64::from(u32::MAX) {
        return Err(GoNostrBinary::refuse(format!(
            "created_at {} exceeds u32",
            event.created_at
        )));
    }
    if event.content.len() > usize::from(u16::MAX) {
        return Err(GoNostrBinary::refuse(format!(
            "content of {} bytes exceeds 65535",
            event.content.len()
        )));
    }
    if event.tags.len() > usize::from(u16::MAX) {
        return Err(GoNostrBinary::refuse(format!(
            "{} tags exceed 65535",
            event.tags.len()
        )));
    }
    for tag in &event.tags {
        if tag.len() > usize::from(u8::MAX) {
            return Err(GoNostrBinary::refuse(format!(
                "a tag of {} items exceeds 255",
                tag.len()
            )));
        }
        if let Some(v) = tag.iter().find(|v| v.len() > usize::from(u16::MAX)) {
            return Err(GoNostrBinary::refuse(format!(
                "a tag item of {} bytes exceeds 65535",
                v.len()
            )));
        }
    }
    Ok(())
}

impl Layout for GoNostrBinary {
    const ID: &'static str = PROFILE.id;

    fn write(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        check(event)?;
        out.extend_from_slice(&event.id);
        out.extend_from_slice(&event.pubkey);
        out.extend_from_slice(&event.sig);
        out.extend_from_slice(&(event.created_at as u32).to_be_bytes());
        out.extend_from_slice(&event.kind.to_be_bytes());
        out.extend_from_slice(&(event.content.len() as u16).to_be_bytes());
        out.extend_from_slice(event.content.as_bytes());
        out.extend_from_slice(&(event.tags.len() as u16).to_be_bytes());
        for tag in &event.tags {
            out.push(tag.len() as u8);
            for item in tag {
                out.extend_from_slice(&(item.len() as u16).to_be_bytes());
                out.extend_from_slice(item.as_bytes());
                out.push(0);
            }
        }
        Ok(())
    }

    fn parse<'a, S: Text<'a>>(
        bytes: &'a [u8],
        limits: &Limits,
    ) -> Result<Parts<'a, S>, DecodeError> {
        let mut r = Reader::new(bytes);
        let id = r.array::<32>()?;
        let pubkey = r.array::<32>()?;
        let sig = r.array::<64>()?;
        let created_at = u64::from(u32::from_be_bytes(*r.array::<4>()?));
        let kind = u16be(&mut r)?;
        let len = u16be(&mut r)?;
        let content = S::from(r.str(usize::from(len))?);
        let tags = read_tags(
            &mut r,
            limits,
            |r| Ok(u64::from(u16be(r)?)),
            |r| Ok(u64::from(r.u8()?)),
            3,
            |r, _| item(r, limits),
        )?;
        r.finish()?;
        Ok(Parts::new(id, pubkey, sig, created_at, kind, tags, content))
    }

    /// Fixed offsets: pubkey at 32, kind at 132. Only the header is checked.
    fn prefix(bytes: &[u8], _: &Limits) -> Result<(u16, [u8; 32]), DecodeError> {
        fixed_prefix(bytes, HEADER + 2, 132, u16::from_be_bytes)
    }
}

/// One tag item: `u16 BE len`, the bytes, a zero pad byte.
fn item<'a, S: Text<'a>>(r: &mut Reader<'a>, limits: &Limits) -> Result<S, DecodeError> {
    let at = r.offset();
    let len = usize::from(u16be(r)?);
    if len > limits.max_value_bytes {
        return Err(DecodeError::at(
            DecodeErrorKind::LimitExceeded(Limit::ValueBytes),
            at,
        ));
    }
    let s = S::from(r.str(len)?);
    if r.u8()? != 0 {
        return Err(DecodeError::at(
            DecodeErrorKind::NonCanonical,
            r.offset() - 1,
        ));
    }
    Ok(s)
}

fn u16be(r: &mut Reader<'_>) -> Result<u16, DecodeError> {
    Ok(u16::from_be_bytes(*r.array::<2>()?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::Codec;
    use crate::profiles::test_support::{self as support, golden_event, golden_hex};

    fn golden_bytes() -> Vec<u8> {
        golden_hex(
            "{id} {pubkey} {sig} 6553f100 0001 0028 {content} 0004 \
             04 0001 65 00 0040 {e-hex} 00 0013 {relay} 00 0004 726f6f74 00 \
             02 0001 70 00 0040 {p-hex} 00 \
             05 0001 74 00 0006 414243444546 00 0003 616263 00 0000 00 0002 3030 00 \
             00",
        )
    }

    #[test]
    fn conforms() {
        let (total, json) = support::conformance(&GoNostrBinary, &golden_bytes(), true);
        eprintln!("gonostr-binary: {total} bytes vs json {json}");
    }

    #[test]
    fn no_tags_and_empty_tag_have_no_pad() {
        let mut e = golden_event();
        e.tags = vec![vec![], vec!["x".into()]];
        let mut out = Vec::new();
        GoNostrBinary.encode(&e, &mut out).unwrap();
        let tags = HEADER + e.content.len();
        assert_eq!(
            support::hex(&out[tags..]),
            "0002".to_owned() + "00" + "01" + "000178" + "00"
        );
        e.tags.clear();
        out.clear();
        GoNostrBinary.encode(&e, &mut out).unwrap();
        assert_eq!(out.len(), HEADER + e.content.len() + 2);
    }

    #[test]
    fn limits() {
        let limits = Limits::default();
        let mut huge = golden_bytes()[..HEADER].to_vec();
        huge[134..136].copy_from_slice(&[0, 0]);
        huge.extend_from_slice(&[0xff, 0xff]);
        let err = GoNostrBinary.decode(&huge, &limits).unwrap_err();
        assert_eq!(
            err.kind,
            DecodeErrorKind::LimitExceeded(Limit::Tags),
            "{err}"
        );
        huge[136..138].copy_from_slice(&[0x00, 0x01]);
        huge.extend_from_slice(&[0xff]);
        let err = GoNostrBinary.decode(&huge, &limits).unwrap_err();
        assert!(support::is_bounded_failure(err.kind), "{err}");
        let mut pad = golden_bytes();
        // The last pad, before the empty tag's item count.
        let last = pad.len() - 2;
        pad[last] = 1;
        assert_eq!(
            GoNostrBinary.decode(&pad, &limits).unwrap_err(),
            DecodeError::at(DecodeErrorKind::NonCanonical, last)
        );
    }

    #[test]
    fn not_representable() {
        let mut out = Vec::new();
        type Mutation = fn(&mut Event);
        let cases: [(Mutation, &str); 5] = [
            (|e| e.content = "x".repeat(65_536), "content"),
            (|e| e.tags = vec![vec![]; 65_536], "tags"),
            (|e| e.tags = vec![vec!["v".into(); 256]], "items"),
            (|e| e.tags = vec![vec!["x".repeat(65_536)]], "tag item"),
            (|e| e.created_at = u64::from(u32::MAX) + 1, "created_at"),
        ];
        for (mutate, what) in cases {
            let mut e = golden_event();
            mutate(&mut e);
            let err = GoNostrBinary.encode(&e, &mut out).unwrap_err();
            assert!(err.reason.contains(what), "{err}");
            assert!(out.is_empty());
        }
        let mut edge = golden_event();
        edge.content = "x".repeat(65_535);
        edge.created_at = u64::from(u32::MAX);
        edge.tags = vec![vec!["v".into(); 255]];
        GoNostrBinary.encode(&edge, &mut out).unwrap();
        assert_eq!(
            GoNostrBinary.decode(&out, &Limits::default()).unwrap(),
            edge
        );
    }
}

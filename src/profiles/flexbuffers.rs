//! `flexbuffers`: FlexBuffers (the `flexbuffers` crate, serde mode) over the
//! shared positional model ([`super::positional`]), untagged variant.
//!
//! Layout (FlexBuffers: a schemaless FlatBuffers; values are written before
//! the vectors that point at them with backward offsets, and the root is
//! found from the END of the buffer):
//!
//! | part          | encoding                                             |
//! |---------------|------------------------------------------------------|
//! | `id`, `pubkey`, `sig` | Blob: width-sized length, then the bytes     |
//! | strings       | String: length, UTF-8 bytes, NUL terminator          |
//! | tag value     | Blob (packed lowercase hex) or String                |
//! | tag           | untyped vector: length, offsets/inline values, one type byte per element |
//! | `tags`        | untyped vector of tag vectors                        |
//! | event         | untyped vector of 7: blob, blob, uint, uint, vector, string, blob |
//! | root          | last 2 bytes: root type byte, root byte width        |
//!
//! Widths (8/16/32/64-bit) are chosen per vector by the builder from the
//! largest value or offset it holds. Canonical form: what the crate's builder
//! writes for this model (no string sharing); the decoder does not check
//! widths or layout, so only encoder output is canonical (see "Lenient, not
//! silent" below).
//!
//! Hex: non-empty, even-length lowercase hex tag values are Blobs and come
//! back as lowercase hex; everything else is a String.
//!
//! Limits and safety. The model's seed checks declared counts against
//! [`Limits`] and charges every decoded element and payload byte against the
//! input length, which refuses offset-sharing amplification (many vector
//! slots pointing at one large string). FINDING: the `flexbuffers` 25.12.19
//! reader is NOT safe against hostile input: `read_usize` slices
//! `&buffer[address..]` and indexes `cursor[0]` without a bounds check (an
//! element address computed from an unchecked vector length can reach past
//! the end), `get_str`/`get_blob` add an input-controlled length to an
//! address without overflow checks, `get_bool` slices
//! `buffer[address..address + width]` unchecked, and `deserialize_any` ends
//! in `unreachable!` for unhandled type/width pairs. The 3-byte input
//! `00 6b 01` (root: a 64-bit Bool) panics in `get_bool`; it is pinned in
//! the tests. The reader also changes values silently: `as_str` turns a
//! String that is not UTF-8 (or out of bounds) into `""`, `length` reads a
//! length slot before the start of the buffer as 0, and `as_u64` reads an
//! out-of-bounds integer as 0.
//!
//! Verifier. The Rust crate has none (the C++ library has one), so this
//! profile brings its own (`verify`) and runs it before the reader sees
//! the bytes. It walks exactly what the positional model will read: the
//! root (width byte 1/2/4/8), the event as an untyped Vector of 7 with
//! element types Blob, Blob, Int/UInt, Int/UInt, Vector, String, Blob, the
//! tags as an untyped Vector of untyped Vectors of Blob or String. For each
//! value it checks the slot, the backward offset (no underflow), the length
//! slot (not before the buffer), the data and, for vectors, the slots and
//! type bytes in bounds; a String must be UTF-8 and NUL-terminated; an
//! inline Int/UInt may not be wider than its slot, and when it is narrower
//! (flatbuffers' JS builder writes that) the slot's upper bytes must extend
//! its value (the Rust crate reads the type byte's width, the C++ reader the
//! slot's; otherwise the two would read different values). It
//! charges one unit per value and one per payload byte against the input
//! length, so shared offsets cannot make it longer than the input. Its
//! errors carry the offset of the offending byte: `Truncated`, `BadUtf8`,
//! `Invalid("flexbuffer type" | "flexbuffer offset" | "flexbuffer length" |
//! "flexbuffer string terminator" | ...)`. With the reader's paths covered
//! no input reaches a panic (the 1M-mutation robustness run and the
//! 200,000-mutation test here find none); the `catch_unwind` around the
//! reader stays as a backstop and reports `Invalid("flexbuffers reader
//! panicked")`, which the robustness run counts as `panic-contained`.
//!
//! What the verifier refuses that the crate would read: Keys, typed vectors
//! (`VectorKey`, `VectorString`, ...), maps, and other types in these
//! positions. Our encoder and the serde serializer never write them (serde
//! sequences are untyped Vectors, strings are Strings); a FlexBuffers
//! writer that stores an event's tag as a typed vector of keys is refused.
//!
//! Lenient, not silent: the verifier checks bounds, not layout. Bytes that
//! no value references (e.g. a whole second record before the one the root
//! points at), wider slots than needed, and offsets shared between values
//! decode to the event they reference; such input is not what the encoder
//! writes (the robustness report counts it `accepted-noncanonical`) but the
//! event decoded is the one the bytes describe.
//!
//! Borrowed view ([`BorrowDecode`], `select-checked`): `verify`, then the
//! same reader and seed as `decode` building an [`EventRef`]
//! ([`PositionalSeed::view`]); strings borrow from the input, packed hex and
//! the fixed fields are owned. `kind_and_pubkey` goes through the view.
//!
//! Differences from upstream: none in the bytes. Encoding goes through the
//! crate's own serializer buffer and is then copied into the caller's buffer
//! (the crate cannot append to a caller's `Vec`). Error offsets: the
//! verifier's point at the offending byte (or the input length for
//! truncation); errors the reader or the model raise after it (types and
//! values it accepts but the model refuses, limits) carry the end of the
//! last borrowed field, or 0 (the reader reports no positions).

use std::panic::{AssertUnwindSafe, catch_unwind};

use serde::Serialize;
use serde::de::DeserializeSeed;

use super::positional::{Positional, PositionalSeed};
use crate::codec::HostileInputs;
use crate::codec::{
    BorrowDecode, Capabilities, Codec, DecodeError, DecodeErrorKind, EncodeError, Family, Limit,
    Limits, Profile, SelectContract, check_event_size,
};
use crate::model::{Event, EventRef};

/// The registry entry.
pub const PROFILE: Profile = Profile {
    id: "flexbuffers",
    family: Family::OpenStandard,
    capabilities: Capabilities {
        deterministic: true,
        self_describing: true,
    },
    enabled: true,
    codec: &FlexBuffers,
    packs: crate::codec::HEX_TAG_ELEMENTS,
    evolution: &evolution::ADAPTER,
    maintenance: crate::codec::Maintenance {
        sources: &[file!()],
        shared: &["src/profiles/positional.rs"],
        schema: crate::codec::Schema::None,
        crates: &["flexbuffers", "serde"],
        spec: crate::codec::maintenance::FLEXBUFFERS,
    },
};

/// FlexBuffers via the `flexbuffers` crate.
pub struct FlexBuffers;

impl Codec for FlexBuffers {
    fn hostile(&self) -> Option<&dyn HostileInputs> {
        Some(self)
    }

    fn borrowed(&self) -> Option<&dyn BorrowDecode> {
        Some(self)
    }

    fn encode(&self, event: &Event, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let mut s = flexbuffers::FlexbufferSerializer::new();
        Positional::<false>(event)
            .serialize(&mut s)
            .map_err(|e| EncodeError::new(PROFILE.id, e.to_string()))?;
        out.extend_from_slice(s.view());
        Ok(())
    }

    fn decode(&self, bytes: &[u8], limits: &Limits) -> Result<Event, DecodeError> {
        read(bytes, limits, |seed, root| seed.deserialize(root))
    }
}

/// The borrowed view: `verify`, then flexbuffers' `Reader` through the same
/// seed as [`Codec::decode`] ([`PositionalSeed::view`]); strings borrow from
/// the input.
impl BorrowDecode for FlexBuffers {
    fn decode_ref<'a>(
        &self,
        bytes: &'a [u8],
        limits: &Limits,
    ) -> Result<EventRef<'a>, DecodeError> {
        read(bytes, limits, |seed, root| seed.view().deserialize(root))
    }

    /// Checked: the verifier walks the whole record first.
    fn select_contract(&self) -> SelectContract {
        SelectContract::Checked
    }
}

/// Size check, [`verify`], then `model` over flexbuffers' reader, with the
/// reader's panics contained.
fn read<'a, T>(
    bytes: &'a [u8],
    limits: &Limits,
    model: impl FnOnce(
        &PositionalSeed<'_, false>,
        flexbuffers::Reader<&'a [u8]>,
    ) -> Result<T, flexbuffers::DeserializationError>,
) -> Result<T, DecodeError> {
    check_event_size(bytes, limits)?;
    verify(bytes)?;
    let seed = PositionalSeed::<false>::new(bytes, limits);
    let result = catch_unwind(AssertUnwindSafe(|| {
        let root = flexbuffers::Reader::get_root(bytes)
            .map_err(flexbuffers::DeserializationError::Reader)?;
        model(&seed, root)
    }));
    match result {
        Ok(Ok(event)) => Ok(event),
        Ok(Err(e)) => Err(seed.error(classify(&e))),
        Err(_) => Err(DecodeError::at(
            DecodeErrorKind::Invalid("flexbuffers reader panicked"),
            0,
        )),
    }
}

/// FlexBuffers type codes the verifier knows (`FlexBufferType` numbering).
mod ty {
    pub const INT: u8 = 1;
    pub const UINT: u8 = 2;
    pub const STRING: u8 = 5;
    pub const INDIRECT_INT: u8 = 6;
    pub const INDIRECT_UINT: u8 = 7;
    pub const VECTOR: u8 = 10;
    pub const BLOB: u8 = 25;
}

/// A value as the crate's reader will see it: direct type code, byte width
/// and the address of its data (after following an offset).
#[derive(Clone, Copy, Debug)]
struct Val {
    ty: u8,
    width: usize,
    at: usize,
}

/// Walks `b` the way the `flexbuffers` reader will when the positional model
/// deserialises it, and checks every address, length, type and string before
/// the reader sees them (module doc, "Verifier"). Work is charged against
/// the input length, like the model's own budget, so shared offsets cannot
/// make the walk longer than the input.
fn verify(b: &[u8]) -> Result<(), DecodeError> {
    let mut v = Verifier { b, budget: b.len() };
    let n = b.len();
    if n < 3 {
        return Err(DecodeError::at(DecodeErrorKind::Truncated, n));
    }
    let root_width = width(b[n - 1]).ok_or(v.invalid("flexbuffer root width", n - 1))?;
    let slot = (n - 2)
        .checked_sub(root_width)
        .ok_or(DecodeError::at(DecodeErrorKind::Truncated, n))?;
    let root = v.resolve(slot, root_width, b[n - 2], n - 2)?;
    let event = v.vector(root, n - 2)?;
    if event.1 != 7 {
        return Err(v.invalid("event array length", root.at));
    }
    const BYTES: &[u8] = &[ty::BLOB];
    const INT: &[u8] = &[ty::INT, ty::UINT];
    const VECTOR: &[u8] = &[ty::VECTOR];
    const TEXT: &[u8] = &[ty::STRING];
    const VALUE: &[u8] = &[ty::BLOB, ty::STRING];
    for (i, want) in [BYTES, BYTES, INT, INT, VECTOR, TEXT, BYTES]
        .into_iter()
        .enumerate()
    {
        let field = v.element(event, i, want)?;
        if i == 4 {
            let tags = v.vector(field, field.at)?;
            for t in 0..tags.1 {
                let tag = v.element(tags, t, VECTOR)?;
                let tag = v.vector(tag, tag.at)?;
                for e in 0..tag.1 {
                    v.element(tag, e, VALUE)?;
                }
            }
        }
    }
    Ok(())
}

/// The byte width of a root width byte.
fn width(byte: u8) -> Option<usize> {
    matches!(byte, 1 | 2 | 4 | 8).then_some(usize::from(byte))
}

struct Verifier<'a> {
    b: &'a [u8],
    budget: usize,
}

impl Verifier<'_> {
    fn invalid(&self, why: &'static str, at: usize) -> DecodeError {
        DecodeError::at(DecodeErrorKind::Invalid(why), at)
    }

    fn truncated(&self) -> DecodeError {
        DecodeError::at(DecodeErrorKind::Truncated, self.b.len())
    }

    fn charge(&mut self, n: usize, at: usize) -> Result<(), DecodeError> {
        self.budget = self
            .budget
            .checked_sub(n.saturating_add(1))
            .ok_or(DecodeError::at(
                DecodeErrorKind::LimitExceeded(Limit::EventBytes),
                at,
            ))?;
        Ok(())
    }

    /// A little-endian unsigned of `width` bytes at `at`, entirely in bounds.
    fn read(&self, at: usize, width: usize) -> Result<usize, DecodeError> {
        let end = at.checked_add(width).ok_or(self.truncated())?;
        let bytes = self.b.get(at..end).ok_or(self.truncated())?;
        let v = bytes
            .iter()
            .rev()
            .fold(0u64, |v, &x| (v << 8) | u64::from(x));
        usize::try_from(v).map_err(|_| self.invalid("flexbuffer offset", at))
    }

    /// Whether the `slot_width`-byte slot of inline scalar `v` holds its
    /// `v.width`-byte value zero- (UInt) or sign-extended (Int).
    fn extends(&self, v: Val, slot_width: usize) -> Result<bool, DecodeError> {
        let end = v.at.checked_add(slot_width).ok_or(self.truncated())?;
        let bytes = self.b.get(v.at..end).ok_or(self.truncated())?;
        let fill = if v.ty == ty::INT && bytes[v.width - 1] & 0x80 != 0 {
            0xff
        } else {
            0
        };
        Ok(bytes[v.width..].iter().all(|&b| b == fill))
    }

    /// The value in the slot at `slot` (of `slot_width` bytes) whose packed
    /// type byte is `packed` (at `type_at`): inline scalars stay at the
    /// slot, everything else follows the backward offset in the slot.
    fn resolve(
        &mut self,
        slot: usize,
        slot_width: usize,
        packed: u8,
        type_at: usize,
    ) -> Result<Val, DecodeError> {
        let width = 1usize << (packed & 3);
        let code = packed >> 2;
        self.charge(0, slot)?;
        let (ty, reference) = match code {
            ty::INT | ty::UINT => (code, false),
            ty::INDIRECT_INT => (ty::INT, true),
            ty::INDIRECT_UINT => (ty::UINT, true),
            ty::STRING | ty::VECTOR | ty::BLOB => (code, true),
            _ => return Err(self.invalid("flexbuffer type", type_at)),
        };
        let at = if reference {
            let off = self.read(slot, slot_width)?;
            slot.checked_sub(off)
                .ok_or(self.invalid("flexbuffer offset", slot))?
        } else {
            slot
        };
        let v = Val { ty, width, at };
        match ty {
            // The crate reads an inline scalar at its type byte's width, the
            // C++ reader at the slot's. Builders may declare a narrower
            // width than the slot (flatbuffers' JS builder does); both read
            // the same value only when the slot's upper bytes extend the
            // narrower value (zero for UInt, sign for Int).
            ty::INT | ty::UINT
                if !reference && (width > slot_width || !self.extends(v, slot_width)?) =>
            {
                return Err(self.invalid("flexbuffer scalar width", type_at));
            }
            ty::INT | ty::UINT => {
                self.read(at, width)?;
            }
            ty::STRING => {
                let len = self.length(v)?;
                self.charge(len, at)?;
                let end = at.checked_add(len).ok_or(self.truncated())?;
                if self.b.get(end) != Some(&0) {
                    return Err(if end >= self.b.len() {
                        self.truncated()
                    } else {
                        self.invalid("flexbuffer string terminator", end)
                    });
                }
                if let Err(e) = std::str::from_utf8(&self.b[at..end]) {
                    return Err(DecodeError::at(
                        DecodeErrorKind::BadUtf8,
                        at + e.valid_up_to(),
                    ));
                }
            }
            ty::BLOB => {
                let len = self.length(v)?;
                self.charge(len, at)?;
                let end = at.checked_add(len).ok_or(self.truncated())?;
                if end > self.b.len() {
                    return Err(self.truncated());
                }
            }
            _ => {}
        }
        Ok(v)
    }

    /// The length slot just before a String, Blob or Vector.
    fn length(&self, v: Val) -> Result<usize, DecodeError> {
        let at =
            v.at.checked_sub(v.width)
                .ok_or(self.invalid("flexbuffer length", v.at))?;
        self.read(at, v.width)
    }

    /// An untyped vector: its value and its length, with every slot and type
    /// byte in bounds.
    fn vector(&mut self, v: Val, type_at: usize) -> Result<(Val, usize), DecodeError> {
        if v.ty != ty::VECTOR {
            return Err(self.invalid("flexbuffer type", type_at));
        }
        let len = self.length(v)?;
        let end = len
            .checked_mul(v.width + 1)
            .and_then(|n| n.checked_add(v.at))
            .ok_or(self.truncated())?;
        if end > self.b.len() {
            return Err(self.truncated());
        }
        Ok((v, len))
    }

    /// Element `i` of untyped vector `vec`, resolved, of one of the types in
    /// `want`.
    fn element(
        &mut self,
        (vec, len): (Val, usize),
        i: usize,
        want: &[u8],
    ) -> Result<Val, DecodeError> {
        let slot = vec.at + i * vec.width;
        let type_at = vec.at + len * vec.width + i;
        let v = self.resolve(slot, vec.width, self.b[type_at], type_at)?;
        if !want.contains(&v.ty) {
            return Err(self.invalid("flexbuffer type", type_at));
        }
        Ok(v)
    }
}

fn classify(e: &flexbuffers::DeserializationError) -> DecodeErrorKind {
    use flexbuffers::ReaderError as R;
    match e {
        flexbuffers::DeserializationError::Reader(
            R::FlexbufferOutOfBounds | R::IndexOutOfBounds | R::ReadUsizeOverflowed,
        ) => DecodeErrorKind::Truncated,
        flexbuffers::DeserializationError::Reader(R::Utf8Error(_)) => DecodeErrorKind::BadUtf8,
        _ => DecodeErrorKind::Invalid("malformed flexbuffer"),
    }
}

pub(crate) mod evolution;
mod hostile;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles::test_support::{conformance, golden_hex, xorshift};

    /// Checked by hand: type byte = type << 2 | width (String 5 → `14`,
    /// UInt 2 w32 → `0a`, Vector 10 → `28`/`2a`, Blob 25 → `64`); offsets
    /// count back from the slot that holds them (`@x` = absolute offset).
    fn golden() -> Vec<u8> {
        golden_hex(GOLDEN)
    }

    const GOLDEN: &str = concat!(
        "20 {id}",                    // @00 blob, length 32 (id @01)
        "20 {pubkey}",                // @21 pubkey @22
        "01 65 00",                   // @42 "e" @43
        "20 {e}",                     // @45 blob(32) @46
        "13 {relay} 00",              // @66 "wss://relay.example" @67
        "04 726f6f74 00",             // @7b "root" @7c
        "04 3f3d1d09 14641414",       // @81 tag @82: len 4, offsets -> @43 @46 @67 @7c, types
        "01 70 00",                   // @8a "p" @8b
        "20 {p}",                     // @8d blob(32) @8e
        "02 2422 1464",               // @ae tag @af: len 2, offsets -> @8b @8e, types
        "01 74 00",                   // @b3 "t" @b4
        "06 414243444546 00",         // @b6 "ABCDEF" @b7
        "03 616263 00",               // @be "abc" @bf
        "00 00",                      // @c3 "" @c4
        "01 00",                      // @c5 blob(1) @c6: the byte 00
        "05 14120b0706 1414141464",   // @c7 tag @c8: len 5, offsets -> @b4 @b7 @bf @c4 @c6, types
        "00",                         // @d2 empty tag @d3: len 0
        "04 52260e04 28282828",       // @d3 tags @d4: len 4, offsets -> @82 @af @c8 @d3, types
        "28 {content} 00",            // @dc content @dd, length 40
        "40 {sig}",                   // @106 sig blob @107, length 64
        "00",                         // @147 padding to the 32-bit vector
        "07000000",                   // @148 event vector @14c: length 7, 32-bit slots
        "4b010000 2e010000",          // offsets to id, pubkey
        "00f15365 01000000",          // created_at, kind inline
        "88000000 83000000 5d000000", // offsets to tags, content, sig
        "64640a0a281464",             // slot types
        "232a01",                     // root: offset -> @14c, type vector w32, width 1
    );

    #[test]
    fn conforms() {
        let (total, json) = conformance(&FlexBuffers, &golden(), false);
        println!("flexbuffers: {total} bytes vs json {json}");
    }

    #[test]
    fn view_borrows_and_errs_where_decode_errs() {
        use std::borrow::Cow;
        let l = Limits::default();
        let g = golden();
        let view = FlexBuffers.decode_ref(&g, &l).unwrap();
        assert_eq!(view.to_owned_event(), FlexBuffers.decode(&g, &l).unwrap());
        assert!(matches!(view.content, Cow::Borrowed(_)), "content borrows");
        assert_eq!(FlexBuffers.kind_and_pubkey(&g, &l), Ok((1, [0x22; 32])));
        for at in 0..g.len() {
            for x in [0x00, 0xff, 0x01, 0x28, 0x64] {
                let mut m = g.clone();
                m[at] = x;
                let owned = FlexBuffers.decode(&m, &l);
                let viewed = FlexBuffers.decode_ref(&m, &l).map(|r| r.to_owned_event());
                assert_eq!(viewed, owned, "byte {at} = {x:02x}");
            }
        }
        let err = FlexBuffers.decode_ref(&g[..g.len() - 3], &l).unwrap_err();
        assert_eq!(err, FlexBuffers.decode(&g[..g.len() - 3], &l).unwrap_err());
    }

    /// A hand-built event whose `tags` slots all point at ONE tag vector
    /// holding ONE 1,000-byte string: FlexBuffers offsets allow sharing, so
    /// the decoded size is not bounded by the input. (The crate's builder
    /// declares `SHARE_STRINGS` but does not implement it.)
    fn shared_tags(tags: usize) -> Vec<u8> {
        let mut b: Vec<u8> = Vec::new();
        let align = |b: &mut Vec<u8>, n: usize| b.resize(b.len().next_multiple_of(n), 0);
        let blob = |b: &mut Vec<u8>, byte: u8, n: usize| {
            b.push(u8::try_from(n).unwrap());
            let at = b.len();
            b.resize(at + n, byte);
            at
        };
        let id = blob(&mut b, 0x11, 32);
        let pubkey = blob(&mut b, 0x22, 32);
        align(&mut b, 2);
        b.extend(1_000u16.to_le_bytes());
        let big = b.len();
        b.resize(big + 1_000, b'x');
        b.push(0);
        align(&mut b, 2);
        b.extend(1u16.to_le_bytes());
        let tag = b.len();
        b.extend(u16::try_from(tag - big).unwrap().to_le_bytes());
        b.push(0x15); // String, 16-bit length
        align(&mut b, 2);
        b.extend(u16::try_from(tags).unwrap().to_le_bytes());
        let tags_at = b.len();
        for i in 0..tags {
            let slot = tags_at + 2 * i;
            b.extend(u16::try_from(slot - tag).unwrap().to_le_bytes());
        }
        b.resize(b.len() + tags, 0x29); // Vector, 16-bit slots
        b.push(0);
        let content = b.len();
        b.push(0);
        let sig = blob(&mut b, 0x33, 64);
        align(&mut b, 4);
        b.extend(7u32.to_le_bytes());
        let ev = b.len();
        let off = |b: &Vec<u8>, target: usize| u32::try_from(b.len() - target).unwrap();
        for target in [id, pubkey] {
            let o = off(&b, target);
            b.extend(o.to_le_bytes());
        }
        b.extend(1_700_000_000u32.to_le_bytes());
        b.extend(1u32.to_le_bytes());
        for target in [tags_at, content, sig] {
            let o = off(&b, target);
            b.extend(o.to_le_bytes());
        }
        b.extend([0x64, 0x64, 0x0a, 0x0a, 0x29, 0x14, 0x64]);
        let root = u8::try_from(b.len() - ev).unwrap();
        b.extend([root, 0x2a, 0x01]);
        b
    }

    #[test]
    fn shared_offsets_cannot_amplify() {
        let l = Limits::default();
        let one = FlexBuffers.decode(&shared_tags(1), &l).unwrap();
        assert_eq!(one.tags, vec![vec!["x".repeat(1_000)]]);
        assert_eq!(one.created_at, 1_700_000_000);
        let many = shared_tags(100);
        assert!(many.len() < 1_500, "{}", many.len());
        assert_eq!(
            FlexBuffers.decode(&many, &l).unwrap_err().kind,
            DecodeErrorKind::LimitExceeded(Limit::EventBytes)
        );
    }

    /// The golden with one byte at `at` replaced.
    fn with(at: usize, byte: u8) -> Vec<u8> {
        let mut m = golden();
        m[at] = byte;
        m
    }

    #[test]
    fn hostile_bytes_never_reach_a_panic() {
        let l = Limits::default();
        let g = golden();
        let panicked = |m: &[u8]| {
            FlexBuffers
                .decode(m, &l)
                .is_err_and(|e| e.kind == DecodeErrorKind::Invalid("flexbuffers reader panicked"))
        };
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        for round in 0..200_000 {
            let mut m = g.clone();
            for _ in 0..=next() % 3 {
                let i = usize::try_from(next() % m.len() as u64).unwrap();
                m[i] = next().to_le_bytes()[0];
            }
            assert!(!panicked(&m), "round {round}: {m:02x?}");
        }
        for i in 0..g.len() {
            for b in [0x00, 0x01, 0x7f, 0x80, 0xff] {
                assert!(!panicked(&with(i, b)), "byte {i} = {b:02x}");
            }
        }
        // a 3-byte root claiming a 64-bit Bool: the crate's `get_bool`
        // slices 8 bytes past the end and panics; the verifier refuses the
        // type first
        assert_eq!(
            FlexBuffers.decode(&[0x00, 0x6b, 0x01], &l).unwrap_err(),
            DecodeError::at(DecodeErrorKind::Invalid("flexbuffer type"), 1)
        );
        // the event vector's length slot changed from 7 to 64
        let len_at = g.len() - 3 - 7 - 28 - 4;
        assert_eq!(
            FlexBuffers
                .decode(&with(len_at, 0x40), &l)
                .unwrap_err()
                .kind,
            DecodeErrorKind::Truncated
        );
        // the tags offset points past the start (the crate would underflow)
        let tags_slot = g.len() - 3 - 7 - 12;
        let mut past = g.clone();
        let offset = u32::try_from(tags_slot + 1).unwrap();
        past[tags_slot..tags_slot + 4].copy_from_slice(&offset.to_le_bytes());
        assert_eq!(
            FlexBuffers.decode(&past, &l).unwrap_err(),
            DecodeError::at(DecodeErrorKind::Invalid("flexbuffer offset"), tags_slot)
        );
    }

    /// Inputs the crate reads without an error but with a changed value: an
    /// invalid string becomes "" (`as_str`), a length slot before the start
    /// becomes 0 (`length`). The verifier makes each an error.
    #[test]
    fn silent_changes_are_errors() {
        let l = Limits::default();
        let g = golden();
        // "ABCDEF" starts after id, pubkey, the "e" tag, the "p" tag and "t"
        let abc = 1 + 32 + 1 + 32 + (3 + 33 + 21 + 6 + 9) + (3 + 33 + 5) + 3 + 1;
        assert_eq!(&g[abc..abc + 3], b"ABC");
        for (bad, at) in [(0xff, abc), (0xc0, abc + 1)] {
            assert_eq!(
                FlexBuffers.decode(&with(at, bad), &l).unwrap_err(),
                DecodeError::at(DecodeErrorKind::BadUtf8, at),
                "{bad:02x} at {at}"
            );
        }
        // a surrogate in content (40 bytes and NUL before the sig blob)
        let content = g.len() - 3 - 7 - 28 - 4 - 1 - 64 - 1 - 1 - 40;
        assert_eq!(&g[content..content + 3], b"gm ");
        let mut m = g.clone();
        m[content..content + 3].copy_from_slice(&[0xed, 0xa0, 0x80]);
        assert_eq!(
            FlexBuffers.decode(&m, &l).unwrap_err(),
            DecodeError::at(DecodeErrorKind::BadUtf8, content)
        );
        // a missing NUL terminator
        assert_eq!(
            FlexBuffers
                .decode(&with(content + 40, b'!'), &l)
                .unwrap_err(),
            DecodeError::at(
                DecodeErrorKind::Invalid("flexbuffer string terminator"),
                content + 40
            )
        );
        // created_at's slot type UInt/W32 (0a) made UInt/W64 (0b): the crate
        // would read 8 bytes, into kind's slot
        let types = g.len() - 3 - 7;
        assert_eq!(g[types + 2], 0x0a);
        assert_eq!(
            FlexBuffers.decode(&with(types + 2, 0x0b), &l).unwrap_err(),
            DecodeError::at(
                DecodeErrorKind::Invalid("flexbuffer scalar width"),
                types + 2
            )
        );
        // a narrower declared width is read alike by both readers only
        // when the slot's upper bytes extend the value: kind (small) as
        // UInt/W8 decodes to the same event, created_at (> 255) does not
        assert_eq!(g[types + 3], 0x0a);
        assert_eq!(
            FlexBuffers.decode(&with(types + 3, 0x08), &l).unwrap(),
            FlexBuffers.decode(&g, &l).unwrap()
        );
        assert_eq!(
            FlexBuffers.decode(&with(types + 2, 0x08), &l).unwrap_err(),
            DecodeError::at(
                DecodeErrorKind::Invalid("flexbuffer scalar width"),
                types + 2
            )
        );
        // the id blob's offset pointing at byte 0: its length slot would be
        // before the buffer, which the crate reads as length 0
        let id_slot = g.len() - 3 - 7 - 28;
        let mut m = g.clone();
        m[id_slot..id_slot + 4].copy_from_slice(&u32::try_from(id_slot).unwrap().to_le_bytes());
        assert_eq!(
            FlexBuffers.decode(&m, &l).unwrap_err(),
            DecodeError::at(DecodeErrorKind::Invalid("flexbuffer length"), 0)
        );
    }
}

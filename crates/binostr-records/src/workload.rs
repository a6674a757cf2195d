//! The workloads and subsets a campaign measures, by the names its CSVs
//! use, and the parameters of the method that the names stand for.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::{OTHER_KINDS, STRATUM_KINDS};

/// Events per window of the window workloads (`batch`, `stream`,
/// `compress`).
pub const WINDOW: usize = 64;

/// Bytes per chunk fed to the `stream` workload (a TCP segment's payload).
pub const STREAM_CHUNK: usize = 1460;

/// zstd level of the `compress` workload and of the size records.
pub const ZSTD_LEVEL: i32 = 3;

/// A workload; [`Workload::name`] is the stable name used in results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Workload {
    /// Event to bytes, into a reused buffer.
    Encode,
    /// Bytes to an owned event.
    Decode,
    /// Decode, then recompute and compare the id.
    DecodeId,
    /// Bounded decode, structural checks, id and BIP-340.
    Validate,
    /// Borrowed kind and pubkey read, whole record checked first.
    SelectChecked,
    /// Borrowed kind and pubkey read from a prefix of stored bytes.
    SelectPreverified,
    /// Every drawn REQ filter over the stored records, through a view whose
    /// record is checked (or an owned decode).
    FilterChecked,
    /// Every drawn REQ filter over the stored records, through a view that
    /// trusts stored bytes.
    FilterPreverified,
    /// The format's native batch container.
    Batch,
    /// A framed stream fed in [`STREAM_CHUNK`]-byte chunks, with a trailing
    /// partial record.
    Stream,
    /// zstd over a framed window.
    Compress,
    /// Validated ingest on a thread pool.
    IngestMt,
    /// One REQ → EOSE exchange over an open WebSocket connection to a relay
    /// thread on loopback, every event decoded; no compression.
    TransportPlain,
    /// `transport-plain` with permessage-deflate, no context takeover.
    TransportDeflate,
    /// `transport-plain` with permessage-deflate and context takeover.
    TransportDeflateCtx,
    /// Reference: id and BIP-340 of an already decoded event.
    IdVerify,
    /// Reference: kind and pubkey read at known byte offsets.
    SelectRawOffset,
    /// Reference: the drawn filters matched over already decoded events.
    FilterEvent,
    /// Floor of `encode`: a copy of the profile's encoded bytes.
    Copy,
    /// Floor of `decode`: `Event::clone` of the decoded events.
    Clone,
}

impl Workload {
    /// Every workload, in report order.
    pub const ALL: [Workload; 20] = [
        Workload::Encode,
        Workload::Decode,
        Workload::DecodeId,
        Workload::Validate,
        Workload::SelectChecked,
        Workload::SelectPreverified,
        Workload::FilterChecked,
        Workload::FilterPreverified,
        Workload::Batch,
        Workload::Stream,
        Workload::Compress,
        Workload::IngestMt,
        Workload::TransportPlain,
        Workload::TransportDeflate,
        Workload::TransportDeflateCtx,
        Workload::IdVerify,
        Workload::SelectRawOffset,
        Workload::FilterEvent,
        Workload::Copy,
        Workload::Clone,
    ];

    /// The name results use, e.g. `decode+id`; [`Workload::from_name`] reads it
    /// back.
    pub const fn name(self) -> &'static str {
        match self {
            Workload::Encode => "encode",
            Workload::Decode => "decode",
            Workload::DecodeId => "decode+id",
            Workload::Validate => "validate",
            Workload::SelectChecked => "select-checked",
            Workload::SelectPreverified => "select-preverified",
            Workload::FilterChecked => "filter-checked",
            Workload::FilterPreverified => "filter-preverified",
            Workload::Batch => "batch",
            Workload::Stream => "stream",
            Workload::Compress => "compress",
            Workload::IngestMt => "ingest-mt",
            Workload::TransportPlain => "transport-plain",
            Workload::TransportDeflate => "transport-deflate",
            Workload::TransportDeflateCtx => "transport-deflate-ctx",
            Workload::IdVerify => "id+verify",
            Workload::SelectRawOffset => "select-raw-offset",
            Workload::FilterEvent => "filter-event",
            Workload::Copy => "copy",
            Workload::Clone => "clone",
        }
    }

    /// The workload with this name.
    pub fn from_name(name: &str) -> Option<Workload> {
        Workload::ALL.into_iter().find(|w| w.name() == name)
    }

    /// Reference rows are measured once, not per profile.
    pub fn is_reference(self) -> bool {
        matches!(
            self,
            Workload::IdVerify
                | Workload::SelectRawOffset
                | Workload::FilterEvent
                | Workload::Clone
        )
    }

    /// Floors: the least work a workload must do (measured, never a profile).
    pub fn is_floor(self) -> bool {
        matches!(self, Workload::Copy | Workload::Clone)
    }
}

/// A slice of the corpus by kind or by compact JSON size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Subset {
    /// Every event.
    All,
    /// Events of one kind.
    Kind(u16),
    /// Events of every kind without a stratum of its own
    /// ([`STRATUM_KINDS`]).
    KindOther,
    /// Events of `kind-other` whose kind [`OTHER_KINDS`] does not list
    /// (the kinds the source does not publish).
    KindOtherRest,
    /// A stream whose kinds follow the campaign's traffic mix.
    Mix,
    /// Under 512 bytes of JSON.
    SizeLt512,
    /// 512 bytes to 4 KiB of JSON.
    Size512To4k,
    /// Over 4 KiB of JSON.
    SizeGt4k,
}

impl Subset {
    /// Every subset: `all`, `mix`, the kind strata, the sub-strata of
    /// `kind-other` ([`Subset::OTHER`]) and the size classes.
    pub const ALL: [Subset; 27] = every();

    /// The sub-strata of `kind-other`: one per kind of [`OTHER_KINDS`],
    /// then [`Subset::KindOtherRest`].
    pub const OTHER: [Subset; 16] = sub_strata();

    /// The name results use, e.g. `kind-1` or `size-lt512`;
    /// [`Subset::from_name`] reads it back.
    pub fn name(self) -> String {
        match self {
            Subset::All => "all".into(),
            Subset::Kind(k) => format!("kind-{k}"),
            Subset::KindOther => "kind-other".into(),
            Subset::KindOtherRest => "kind-other-rest".into(),
            Subset::Mix => "mix".into(),
            Subset::SizeLt512 => "size-lt512".into(),
            Subset::Size512To4k => "size-512-4k".into(),
            Subset::SizeGt4k => "size-gt4k".into(),
        }
    }

    /// The subset with this name.
    pub fn from_name(name: &str) -> Option<Subset> {
        Subset::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The kind stratum of an event of `kind`.
    pub fn stratum(kind: u16) -> Subset {
        if STRATUM_KINDS.contains(&kind) {
            Subset::Kind(kind)
        } else {
            Subset::KindOther
        }
    }

    /// Whether an event of `kind` and `json_len` compact JSON bytes belongs
    /// here (every event may be drawn into `mix`).
    pub fn contains(self, kind: u16, json_len: usize) -> bool {
        match self {
            Subset::All | Subset::Mix => true,
            Subset::Kind(k) => kind == k,
            Subset::KindOther => Subset::stratum(kind) == Subset::KindOther,
            Subset::KindOtherRest => {
                Subset::stratum(kind) == Subset::KindOther && !OTHER_KINDS.contains(&kind)
            }
            Subset::SizeLt512 => json_len < 512,
            Subset::Size512To4k => (512..=4096).contains(&json_len),
            Subset::SizeGt4k => json_len > 4096,
        }
    }

    /// Whether this is one of [`Subset::OTHER`].
    pub fn is_within_other(self) -> bool {
        Subset::OTHER.contains(&self)
    }
}

const fn sub_strata() -> [Subset; 16] {
    let mut out = [Subset::KindOtherRest; 16];
    let mut i = 0;
    while i < OTHER_KINDS.len() {
        out[i] = Subset::Kind(OTHER_KINDS[i]);
        i += 1;
    }
    out
}

const fn every() -> [Subset; 27] {
    use Subset::*;
    let head = [
        All,
        Mix,
        Kind(0),
        Kind(1),
        Kind(3),
        Kind(7),
        Kind(9735),
        KindOther,
    ];
    let tail = [SizeLt512, Size512To4k, SizeGt4k];
    let other = sub_strata();
    let mut out = [All; 27];
    let mut i = 0;
    while i < out.len() {
        out[i] = if i < head.len() {
            head[i]
        } else if i < head.len() + other.len() {
            other[i - head.len()]
        } else {
            tail[i - head.len() - other.len()]
        };
        i += 1;
    }
    out
}

/// A name that is not a [`Workload`]'s or a [`Subset`]'s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName(pub String);

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown name {:?}", self.0)
    }
}

impl std::error::Error for UnknownName {}

/// `Display`, `FromStr` and serde through the stable name.
macro_rules! by_name {
    ($t:ty) => {
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.name())
            }
        }

        impl FromStr for $t {
            type Err = UnknownName;

            fn from_str(s: &str) -> Result<Self, UnknownName> {
                <$t>::from_name(s).ok_or_else(|| UnknownName(s.to_owned()))
            }
        }

        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&self.name())
            }
        }

        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                String::deserialize(d)?
                    .parse()
                    .map_err(serde::de::Error::custom)
            }
        }
    };
}

by_name!(Workload);
by_name!(Subset);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for w in Workload::ALL {
            assert_eq!(w.name().parse(), Ok(w));
            let json = serde_json::to_string(&w).unwrap();
            assert_eq!(json, format!("\"{w}\""));
            assert_eq!(serde_json::from_str::<Workload>(&json).unwrap(), w);
        }
        for s in Subset::ALL {
            assert_eq!(s.name().parse(), Ok(s));
            let json = serde_json::to_string(&s).unwrap();
            assert_eq!(serde_json::from_str::<Subset>(&json).unwrap(), s);
        }
        assert!("decode-id".parse::<Workload>().is_err());
        assert!(serde_json::from_str::<Subset>("\"kind-2\"").is_err());
    }

    #[test]
    fn strata_are_subsets() {
        for name in crate::STRATA {
            let s = Subset::from_name(name).unwrap();
            assert!(matches!(s, Subset::Kind(_) | Subset::KindOther), "{name}");
        }
        assert_eq!(Subset::stratum(1), Subset::Kind(1));
        assert_eq!(Subset::stratum(2), Subset::KindOther);
    }

    #[test]
    fn the_sub_strata_split_kind_other() {
        assert_eq!(Subset::ALL[7], Subset::KindOther);
        assert_eq!(Subset::ALL[8], Subset::Kind(4));
        assert_eq!(Subset::ALL[23].name(), "kind-other-rest");
        assert_eq!(Subset::ALL[26], Subset::SizeGt4k);
        let names: std::collections::BTreeSet<String> =
            Subset::ALL.iter().map(|s| s.name()).collect();
        assert_eq!(names.len(), Subset::ALL.len(), "names are unique");
        // Every kind of kind-other falls in exactly one sub-stratum.
        for kind in [2, 4, 5, 1984, 30000, 30023, 65535] {
            let holding: Vec<Subset> = Subset::OTHER
                .into_iter()
                .filter(|s| s.contains(kind, 100))
                .collect();
            let want = if [2, 30000, 30023, 65535].contains(&kind) {
                Subset::KindOtherRest
            } else {
                Subset::Kind(kind)
            };
            assert_eq!(holding, [want], "kind {kind}");
        }
        for kind in crate::STRATUM_KINDS {
            assert!(!Subset::OTHER.iter().any(|s| s.contains(kind, 100)));
        }
        assert!(Subset::Kind(4).is_within_other() && !Subset::Kind(1).is_within_other());
        assert!(!Subset::KindOther.is_within_other());
    }
}

//! The roles a designer decides for and the criteria each weighs, every
//! criterion bound to a measured column ([`Measure`]).

use binostr_records::Workload;

use crate::model::cost::Role as WireRole;
use crate::model::mix::SizeMeasure;
use crate::read::transport::Mode;

/// Which way a criterion improves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Better {
    /// Smaller is better (bytes, time).
    Lower,
    /// Larger is better (languages, spec status).
    Higher,
}

/// Where a criterion's value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// A size of subset `all`, % of json's under the same measure (exact).
    SizePct(SizeMeasure),
    /// Relay → client socket bytes of the timed exchange (`transport.csv`)
    /// in one mode, % of json's (exact).
    SocketPct(Mode),
    /// The paired ratio to json of a workload (95% CI), one thread, subset
    /// `all` (or `mix`, where the workload ran only there). `filter` takes
    /// the profile's `filter-checked` or `filter-preverified` row.
    Paired(&'static str),
    /// The fastest library of a language decoding to the event over that
    /// language's json (`results/interop`, one sitting).
    LanguageDecode(&'static str),
    /// Languages with a decoder measured (Rust and the interop harnesses).
    Languages,
    /// Spec status (`results/maintenance`): ietf-rfc > vendor > informal > none.
    Spec,
    /// Robustness cases accepted in a non-canonical spelling, per million
    /// cases (`results/robustness`).
    NonCanonical,
    /// Range-growth cases the format refuses (`results/evolution`).
    RangeRefused,
}

/// One criterion of a role.
#[derive(Clone, Copy, Debug)]
pub struct Criterion {
    /// Short id (CSV column).
    pub id: &'static str,
    /// Column heading.
    pub label: &'static str,
    /// Its source.
    pub measure: Measure,
    /// Which way it improves.
    pub better: Better,
}

const fn lower(id: &'static str, label: &'static str, measure: Measure) -> Criterion {
    Criterion {
        id,
        label,
        measure,
        better: Better::Lower,
    }
}

const fn higher(id: &'static str, label: &'static str, measure: Measure) -> Criterion {
    Criterion {
        id,
        label,
        measure,
        better: Better::Higher,
    }
}

pub(super) const RAW: Criterion = lower("raw", "raw bytes", Measure::SizePct(SizeMeasure::Raw));
const ZSTD: Criterion = lower(
    "zstd",
    "zstd per event",
    Measure::SizePct(SizeMeasure::ZstdEvent),
);
const DEFLATE: Criterion = lower(
    "deflate",
    "deflate bytes",
    Measure::SizePct(SizeMeasure::DeflateEvent),
);
pub(super) const DECODE: Criterion =
    lower("decode", "decode", Measure::Paired(Workload::Decode.name()));
const JS: Criterion = lower("js", "decode in JS", Measure::LanguageDecode("js"));
const LANGUAGE_COUNT: Criterion = higher("languages", "languages", Measure::Languages);
const SPEC: Criterion = higher("spec", "spec", Measure::Spec);
const NON_CANONICAL: Criterion = lower("noncanonical", "non-canonical", Measure::NonCanonical);
const RANGE: Criterion = lower("range", "range refused", Measure::RangeRefused);

/// A role a designer decides for.
#[derive(Clone, Copy, Debug)]
pub struct Role {
    /// Short id (file and anchor names).
    pub id: &'static str,
    /// Name.
    pub name: &'static str,
    /// What the role carries.
    pub scope: &'static str,
    /// Gate: a reader in at least this many languages.
    pub min_languages: usize,
    /// Its criteria, the first deciding ties first.
    pub criteria: &'static [Criterion],
    /// The cost model's role when it is on the wire: its pick is then the
    /// cost model's over the gated candidates (rule 4).
    pub wire: Option<WireRole>,
}

/// Every role, in the order the paper discusses them.
pub const ROLES: [Role; 5] = [
    Role {
        id: "relay-client",
        name: "Relay to client",
        scope: "REQ responses, with permessage-deflate as deployed",
        min_languages: 3,
        wire: Some(WireRole::RelayToClient),
        criteria: &[
            lower(
                "socket",
                "socket bytes (deflate)",
                Measure::SocketPct(Mode::Deflate),
            ),
            lower(
                "socket-ctx",
                "socket bytes (deflate+ctx)",
                Measure::SocketPct(Mode::DeflateCtx),
            ),
            lower(
                "exchange",
                "exchange (deflate)",
                Measure::Paired(Workload::TransportDeflate.name()),
            ),
            lower(
                "exchange-ctx",
                "exchange (deflate+ctx)",
                Measure::Paired(Workload::TransportDeflateCtx.name()),
            ),
            JS,
            LANGUAGE_COUNT,
            SPEC,
        ],
    },
    Role {
        id: "client-relay",
        name: "Client to relay",
        scope: "publishing: one EVENT, validated by the relay",
        min_languages: 3,
        wire: Some(WireRole::ClientToRelay),
        criteria: &[
            RAW,
            DEFLATE,
            lower("encode", "encode", Measure::Paired(Workload::Encode.name())),
            lower(
                "validate",
                "validate",
                Measure::Paired(Workload::Validate.name()),
            ),
            NON_CANONICAL,
            LANGUAGE_COUNT,
            SPEC,
        ],
    },
    Role {
        id: "storage",
        name: "Relay storage",
        scope: "stored events, REQ filters matched on them",
        min_languages: 1,
        wire: None,
        criteria: &[
            RAW,
            ZSTD,
            lower("filter", "filter", Measure::Paired("filter")),
            DECODE,
            RANGE,
        ],
    },
    Role {
        id: "cache",
        name: "Client cache",
        scope: "events a client keeps, read back in Rust or JavaScript",
        min_languages: 1,
        wire: None,
        criteria: &[RAW, DECODE, JS, RANGE],
    },
    Role {
        id: "sdk",
        name: "SDKs",
        scope: "libraries across languages",
        min_languages: 4,
        wire: None,
        criteria: &[
            LANGUAGE_COUNT,
            JS,
            lower("go", "decode in Go", Measure::LanguageDecode("go")),
            lower(
                "python",
                "decode in Python",
                Measure::LanguageDecode("python"),
            ),
            lower(
                "kotlin",
                "decode in Kotlin",
                Measure::LanguageDecode("kotlin"),
            ),
            SPEC,
        ],
    },
];

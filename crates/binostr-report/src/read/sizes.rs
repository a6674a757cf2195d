//! `sizes.csv` and `follow-lists.csv`: encoded sizes per profile and
//! subset, and of the generated follow lists, as medians over runs.

use anyhow::Result;
use polars::prelude::*;

use crate::read::frame::medians_of;
use crate::read::records::{self, Run, Scan as _};

/// Encoded sizes of one profile and subset on one host (medians over runs).
#[derive(Clone, Debug)]
pub struct Sizes {
    /// Host id.
    pub host: String,
    /// Profile id.
    pub profile: String,
    /// Corpus subset.
    pub subset: String,
    /// Events in the subset.
    pub events: f64,
    /// The byte columns every `sizes.csv` has.
    pub bytes: SizeBytes,
    /// Permessage-deflate bytes; `None` in campaigns whose `sizes.csv`
    /// predates them.
    pub deflate: Option<DeflateBytes>,
}

/// The byte columns of `sizes.csv` (or each as % of json's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SizeBytes {
    /// Raw encoded bytes.
    pub raw: f64,
    /// With a 4-byte length per record.
    pub framed: f64,
    /// Each record zstd-compressed alone.
    pub zstd_event: f64,
    /// The framed stream zstd-compressed as a whole.
    pub zstd_stream: f64,
    /// Each record zstd-compressed alone with a trained dictionary.
    pub zstd_dict: f64,
}

impl SizeBytes {
    /// Every column, in `sizes.csv` order (for table rows).
    pub fn columns(&self) -> [f64; 5] {
        [
            self.raw,
            self.framed,
            self.zstd_event,
            self.zstd_stream,
            self.zstd_dict,
        ]
    }

    /// `f` of every column.
    pub fn map(self, f: impl Fn(f64) -> f64) -> Self {
        SizeBytes {
            raw: f(self.raw),
            framed: f(self.framed),
            zstd_event: f(self.zstd_event),
            zstd_stream: f(self.zstd_stream),
            zstd_dict: f(self.zstd_dict),
        }
    }

    /// Each column in % of `base`'s same column.
    pub fn pct_of(&self, base: &SizeBytes) -> Self {
        SizeBytes {
            raw: self.raw / base.raw * 100.0,
            framed: self.framed / base.framed * 100.0,
            zstd_event: self.zstd_event / base.zstd_event * 100.0,
            zstd_stream: self.zstd_stream / base.zstd_stream * 100.0,
            zstd_dict: self.zstd_dict / base.zstd_dict * 100.0,
        }
    }
}

/// Permessage-deflate bytes of `sizes.csv`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DeflateBytes {
    /// Each framed event deflated alone.
    pub event: f64,
    /// One deflate context over them, sync-flushed after each.
    pub stream: f64,
}

/// The value columns of `sizes.csv`.
pub const SIZE_COLUMNS: [&str; 8] = [
    "events",
    "raw_bytes",
    "framed_bytes",
    "zstd_event_bytes",
    "zstd_stream_bytes",
    "zstd_dict_bytes",
    "deflate_event_bytes",
    "deflate_stream_bytes",
];

/// `sizes.csv` of `runs` as medians over runs; files without the deflate
/// columns are read with `deflate: None`.
pub fn read_sizes(runs: &[Run]) -> Result<Vec<Sizes>> {
    let lf = records::SIZES.scan(runs)?;
    Ok(medians_of(lf, &["profile", "subset"], &SIZE_COLUMNS)?
        .unwrap_or_default()
        .into_iter()
        .map(|g| {
            let (event, stream) = (
                g.value("deflate_event_bytes"),
                g.value("deflate_stream_bytes"),
            );
            Sizes {
                profile: g.key("profile"),
                subset: g.key("subset"),
                events: g.value("events"),
                bytes: SizeBytes {
                    raw: g.value("raw_bytes"),
                    framed: g.value("framed_bytes"),
                    zstd_event: g.value("zstd_event_bytes"),
                    zstd_stream: g.value("zstd_stream_bytes"),
                    zstd_dict: g.value("zstd_dict_bytes"),
                },
                deflate: (event.is_finite() && stream.is_finite())
                    .then_some(DeflateBytes { event, stream }),
                host: g.host,
            }
        })
        .collect())
}

/// One profile's generated follow lists at one p-tag median (medians over
/// runs of `follow-lists.csv`).
#[derive(Clone, Debug)]
pub struct FollowList {
    /// Host id.
    pub host: String,
    /// Profile id.
    pub profile: String,
    /// The follow lists' median p-tag count.
    pub median_tags: i64,
    /// Follow lists.
    pub events: f64,
    /// Raw bytes.
    pub raw: f64,
    /// Each list zstd-compressed alone.
    pub zstd_event: f64,
    /// Each list deflated alone.
    pub deflate_event: f64,
}

/// `follow-lists.csv` of `runs` (empty when no run has it).
pub fn read_follow_lists(runs: &[Run]) -> Result<Vec<FollowList>> {
    let values = [
        "events",
        "raw_bytes",
        "zstd_event_bytes",
        "deflate_event_bytes",
    ];
    let lf = records::FOLLOW_LISTS.scan_optional(runs)?;
    let lf = lf.map(|l| l.with_column(col("median_tags").cast(DataType::String)));
    medians_of(lf, &["profile", "median_tags"], &values)?
        .unwrap_or_default()
        .into_iter()
        .map(|g| {
            Ok(FollowList {
                profile: g.key("profile"),
                median_tags: g.key("median_tags").parse()?,
                events: g.value("events"),
                raw: g.value("raw_bytes"),
                zstd_event: g.value("zstd_event_bytes"),
                deflate_event: g.value("deflate_event_bytes"),
                host: g.host,
            })
        })
        .collect()
}

//! The workloads, defined once over the registry and used by `cargo bench`
//! and by the campaign: their names ([`Workload`], [`Subset`], from
//! `binostr-records`), the key of one benchmark ([`BenchKey`]) and the
//! workload a profile's view or transport mode runs. What a workload times
//! is [`crate::bench::pass`]'s; the corpus it runs over is
//! [`crate::bench::fixture`]'s.

use std::fmt;

use binostr_records::Mix;
pub use binostr_records::{Subset, Workload};

use crate::codec::SelectContract;
use crate::model::Event;
use crate::transport::Compression;

/// One benchmark: the key of a row in `samples.csv`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BenchKey {
    /// What one pass does; [`Workload::name`] in the CSV.
    pub workload: Workload,
    /// Profile id, or [`REFERENCE`](crate::bench::fixture::REFERENCE).
    pub profile: &'static str,
    /// The slice of the corpus the pass covers; [`Subset::name`] in the CSV.
    pub subset: Subset,
    /// Threads (1 except for `ingest-mt`).
    pub threads: usize,
}

impl fmt::Display for BenchKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{}/{}/{}t",
            self.workload,
            self.profile,
            self.subset.name(),
            self.threads
        )
    }
}

/// `subsets` split into those with events in `events` and the empty ones.
pub fn split_subsets(
    events: &[Event],
    subsets: &[Subset],
    mix: &Mix,
) -> (Vec<Subset>, Vec<Subset>) {
    let lens: Vec<usize> = events.iter().map(|e| e.to_json().len()).collect();
    let has = |s: Subset| {
        events
            .iter()
            .zip(&lens)
            .any(|(e, &len)| s.contains(e.kind, len))
    };
    // `mix` needs an event of every stratum it gives a share.
    let mix_full = || {
        mix.strata.iter().filter(|s| s.share > 0.0).all(|s| {
            events
                .iter()
                .any(|e| Subset::stratum(e.kind).name() == s.stratum)
        })
    };
    subsets.iter().partition(|&&s| match s {
        Subset::Mix => mix_full(),
        _ => has(s),
    })
}

/// The select workload named by a contract.
pub fn select_workload(contract: SelectContract) -> Workload {
    match contract {
        SelectContract::Checked => Workload::SelectChecked,
        SelectContract::Preverified => Workload::SelectPreverified,
    }
}

/// The filter workload of a profile: named after its view's contract, or
/// `filter-checked` for a decode-only profile (an owned decode checks the
/// whole record).
pub fn filter_workload(contract: Option<SelectContract>) -> Workload {
    match contract {
        Some(SelectContract::Preverified) => Workload::FilterPreverified,
        Some(SelectContract::Checked) | None => Workload::FilterChecked,
    }
}

/// The compression mode of a `transport-*` workload.
pub fn transport_mode(workload: Workload) -> Option<Compression> {
    match workload {
        Workload::TransportPlain => Some(Compression::None),
        Workload::TransportDeflate => Some(Compression::Deflate),
        Workload::TransportDeflateCtx => Some(Compression::DeflateContext),
        _ => None,
    }
}

/// The `transport-*` workload of `mode`.
pub fn transport_workload(mode: Compression) -> Workload {
    match mode {
        Compression::None => Workload::TransportPlain,
        Compression::Deflate => Workload::TransportDeflate,
        Compression::DeflateContext => Workload::TransportDeflateCtx,
    }
}

//! The records a Binostr campaign writes (`binostr campaign`) and
//! `binostr-report` reads, declared once (`docs/RESULTS.md`): the JSON
//! records ([`CampaignRecord`], [`RunRecord`], [`RegistryEntry`]), every CSV
//! layout ([`csv`]), the ids both sides compare with ([`BASELINE`],
//! [`REFERENCE`]) and the campaign directory's names ([`label`], [`files`]);
//! besides the campaign, the robustness report ([`robustness`], written by
//! `binostr torture run`) and the signed manifest's event ([`SignedEvent`]);
//! the workload and subset names ([`Workload`], [`Subset`]) and the method's
//! parameters ([`WINDOW`], [`STREAM_CHUNK`], [`ZSTD_LEVEL`]) and the cost
//! model's ([`cost`]).
//!
//! Data only: detecting the host or the git tree, and measuring, stay in
//! `binostr`; scanning with Polars stays in `binostr-report`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cost;
pub mod csv;
pub mod files;
pub mod label;
pub mod robustness;

mod campaign;
mod event;
mod registry;
mod run;
mod workload;

pub use campaign::{
    Apart, BIGBROTR_KINDS, CRAWL_FOLLOW_MEDIAN, CampaignRecord, CorpusRecord, KindShare, Mix,
    MixStratum, OTHER_KINDS, Refused, STRATA, STRATUM_KINDS, Sequence,
};
pub use event::SignedEvent;
pub use registry::RegistryEntry;
pub use run::{Contract, ContractCorpus, CriterionSettings, Git, Host, Observed, RunRecord, Stage};
pub use workload::{STREAM_CHUNK, Subset, UnknownName, WINDOW, Workload, ZSTD_LEVEL};

/// Schema version of `campaign.json` and `run-K/contract.json`.
pub const SCHEMA: u32 = 2;

/// The profile every other profile is compared with (`ratio_json`).
pub const BASELINE: &str = "json";

/// The profile column of the floor benchmarks, which no codec runs.
pub const REFERENCE: &str = "reference";

//! The model layer: the campaign as loaded ([`campaign::Campaign`]), its
//! statistics, the invariant checks and the claims they allow.
//!
//! - [`stats`], [`paired`], [`summary`], [`key`]: medians and the two-level
//!   bootstrap, paired ratios, summary rows, the benchmark key;
//! - [`instr`], [`wall`], [`apart`]: instruction counts, wall time, the
//!   profiles measured apart;
//! - [`checks`], [`claims`], [`holds`]: what cannot be true, what a
//!   "fastest" sentence may say, and on which corpus and kinds it holds;
//! - [`mix`], [`other`], [`sensitivity`]: figures composed from the kind
//!   strata under a stated traffic mix, `kind-other` from its sub-strata at
//!   the published shares, and how they move with the kind-3 share and the
//!   follow lists' size;
//! - [`resolution`], [`relay`], [`languages`]: views of the loaded
//!   campaign that several writers share;
//! - [`calculator`]: the relay calculator's strata, sizes and ties;
//! - [`facts`]: what the prose states about fuzzing, non-canonical input,
//!   the registry and the signed manifest;
//! - [`links`]: the transport loop on shaped links, per link and round trip;
//! - [`cost`]: a million events in seconds on a link and in dollars, per
//!   (profile, compression) candidate on the wire;
//! - [`maintenance`]: a registry entry's specification and crates;
//! - [`recommend`]: the roles, criteria and rules, and each role's pick;
//! - [`analysis`]: the language matrix and the recommendation, computed
//!   once for every writer.
//!
//! It reads through [`crate::read`] and never imports [`crate::render`].

pub mod analysis;
pub mod apart;
pub mod calculator;
pub mod campaign;
pub mod checks;
pub mod claims;
pub mod cost;
pub mod facts;
pub mod holds;
pub mod instr;
pub mod key;
pub mod languages;
pub mod links;
pub mod maintenance;
pub mod mix;
pub mod other;
pub mod paired;
pub mod recommend;
pub mod relay;
pub mod resolution;
pub mod sensitivity;
pub mod stats;
pub mod summary;
pub mod wall;

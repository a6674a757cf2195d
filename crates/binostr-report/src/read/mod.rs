//! The read layer: a campaign's run records and the side inputs beside them,
//! each file as typed rows (`docs/RESULTS.md` is the contract).
//!
//! - [`records`]: the complete `run-K/` directories, their `contract.json`,
//!   and every run-record CSV with its documented header;
//! - [`campaign_file`], [`registry`], [`apart`]: the campaign's
//!   `campaign.json`, `registry.json` and `apart-ID/` directories;
//! - [`side`], [`sizes`], [`transport`]: side measurements over runs, and the inputs
//!   from outside the campaign (robustness, interop, side-by-side,
//!   evolution, maintenance);
//! - [`fuzz`], [`signed`]: the fuzzing records, and what the campaign's
//!   signed manifest lists;
//! - [`links`]: the transport loop on shaped links (`results/links/`);
//! - [`inputs`]: what the results page reads besides the campaign;
//! - [`frame`]: Polars columns as plain vectors, and per-run medians.
//!
//! Nothing here imports [`crate::model`] or [`crate::render`].

pub mod apart;
pub mod campaign_file;
pub mod frame;
pub mod fuzz;
pub mod inputs;
pub mod links;
pub mod records;
pub mod registry;
pub mod side;
pub mod signed;
pub mod sizes;
pub mod transport;

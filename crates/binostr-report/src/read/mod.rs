//! The read layer: a campaign's run records and the side inputs beside them,
//! each file as typed rows (`docs/RESULTS.md` is the contract).
//!
//! Nothing here imports [`crate::model`] or [`crate::render`].

pub mod apart;
pub mod campaign_file;
pub mod frame;
pub mod inputs;
pub mod records;
pub mod registry;
pub mod side;
pub mod transport;

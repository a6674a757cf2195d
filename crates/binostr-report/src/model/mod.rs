//! The model layer: the campaign as loaded, its paired statistics, the
//! invariant checks and the claims they allow.
//!
//! It reads through [`crate::read`] and never imports [`crate::render`].

pub mod apart;
pub mod campaign;
pub mod checks;
pub mod claims;
pub mod instr;
pub mod key;
pub mod languages;
pub mod paired;
pub mod relay;
pub mod resolution;
pub mod stats;
pub mod summary;
pub mod wall;

//! The render layer: every file `binostr-report` writes, from the
//! [`crate::model`]: `summary/` (csv, json, md), `paper/generated/` (macros
//! and tables), the plots and the results page.

pub mod names;
pub mod page;
pub mod paper;
pub mod plots;
pub mod summary;

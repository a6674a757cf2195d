//! The render layer: every file `binostr-report` writes, from the
//! [`crate::model`]:
//!
//! - [`summary`] writes `summary/summary.{csv,json,md}` and
//!   `summary/ratios.csv`;
//! - [`paper`] writes `paper/generated/` (`macros.tex` and the pgfplots
//!   tables), with [`names`] for LaTeX;
//! - [`plots`] draws `summary/plots/*.{svg,png}`;
//! - [`page`] writes the self-contained results page.
//!
//! The four writers do not import each other.

pub mod names;
pub mod page;
pub mod paper;
pub mod plots;
pub mod summary;

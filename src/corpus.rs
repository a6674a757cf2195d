//! Corpus sources, import and audit, generation, calibration and selection.
//!
//! Every input record is accounted for: accepted, duplicate, or rejected with
//! a reason and its position in its source.

pub mod calibrate;
pub mod generate;

//! Corpus sources, import and audit, generation, calibration and selection.

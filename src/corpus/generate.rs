//! Deterministic default corpus: real keys, valid signatures, calibrated shapes.

//! Evolution adapter of `json-simd` ([`crate::evolution`]): the `json`
//! bytes; the newer reader is simd-json into the event with an optional
//! `future` member (simd-json parses in place, so it reads a copy).

use crate::codec::evolution::ReadError;
use crate::profiles::json::evolution::Adapter;

pub(crate) const ADAPTER: Adapter = Adapter {
    reader: "simd_json into NewObject (future: #[serde(default)] Option<u64>)",
    parse: |b| simd_json::serde::from_slice(&mut b.to_vec()).map_err(ReadError::library),
};

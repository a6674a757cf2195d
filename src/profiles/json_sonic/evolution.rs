//! Evolution adapter of `json-sonic` ([`crate::evolution`]): the `json`
//! bytes; the newer reader is sonic-rs into the event with an optional
//! `future` member.

use crate::codec::evolution::ReadError;
use crate::profiles::json::evolution::Adapter;

pub(crate) const ADAPTER: Adapter = Adapter {
    reader: "sonic_rs into NewObject (future: #[serde(default)] Option<u64>)",
    parse: |b| sonic_rs::from_slice(b).map_err(ReadError::library),
};

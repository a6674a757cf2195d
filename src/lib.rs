//! Binostr: which binary encoding should Nostr use for NIP-01 events?
//!
//! The crate is layered; each module depends only on the ones listed below it.
//!
//! | module | role |
//! |---|---|
//! | [`cli`] | the `binostr` command line |
//! | [`manifest`] | the signed results manifest: SHA-256 of every result file, a BIP-340-signed Nostr event, offline verification; the release signature |
//! | [`campaign`] | the measurement campaign: corpus, isolated child runs, samples, instruction counts, host record |
//! | [`vectors`] | interop vectors: signed events with their bytes under every profile |
//! | [`evolution`] | the evolution suite: readers and writers of different versions, range growth |
//! | [`torture`] | the robustness suite: hostile inputs, isolated runs, outcome tables |
//! | [`maintenance`] | the computed maintenance cost of every profile (lines, crates, schema compiler, ecosystems, spec) |
//! | [`mod@bench`] | measurements over the registry: workloads, fixtures, groups, sizes, probes |
//! | [`transport`] | the transport workload: a WebSocket relay and client on loopback, permessage-deflate, socket byte counts |
//! | [`filter`] | NIP-01 REQ filters: model, matching, a JSON reference matcher, seeded drawing |
//! | [`corpus`] | import, audit, generation, calibration and seeded selection of event corpora |
//! | [`profiles`] | every wire profile and the one registry ([`profiles::PROFILES`]) |
//! | [`codec`] | codec traits, decode errors with offsets, bounded readers, the evolution adapter trait |
//! | [`files`] | JSON Lines of events and atomic file writes |
//! | [`validate`] | NIP-01 canonical serialisation, id, BIP-340 and structural checks |
//! | [`model`] | the semantic event ([`Event`], [`EventRef`]) and lowercase-hex helpers |
//! | [`rng`] | the seeded ChaCha20 source of every seeded draw ([`rng::Gen`]) |
#![forbid(unsafe_code)]

pub mod bench;
pub mod campaign;
pub mod cli;
pub mod codec;
pub mod corpus;
pub mod evolution;
pub mod files;
pub mod filter;
pub mod maintenance;
pub mod manifest;
pub mod model;
pub mod profiles;
pub mod rng;
pub mod torture;
pub mod transport;
pub mod validate;
pub mod vectors;

pub use model::{Event, EventRef};

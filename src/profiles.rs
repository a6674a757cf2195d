//! Every wire profile, each in its own module, and the one registry.
//!
//! Benches, tests, reports and the CLI iterate [`PROFILES`]; nothing else
//! lists profiles. Adding a profile is one module, one line here and its
//! regenerated golden (`CONTRIBUTING.md`).

use crate::codec::Profile;

pub mod avro;
pub mod bencode;
pub mod beve;
pub mod bincode;
pub mod bson;
pub mod capnp_packed;
pub mod capnp_unpacked;
pub mod cbor_intmap;
pub mod cbor_packed;
pub mod cbor_stringmap;
pub mod dannypack;
pub mod event2;
pub mod flatbuffers;
pub mod flexbuffers;
pub mod gonostr_binary;
pub mod json;
pub mod json_simd;
pub mod json_sonic;
pub mod msgpack;
pub mod netstring;
pub mod nostrdb_note;
pub mod notepack;
pub mod nson;
pub mod positional;
pub mod postcard;
pub mod protobuf;
pub mod protobuf_hexstrings;
pub mod strfry_packed;
#[cfg(test)]
mod test_support;
pub mod thrift_compact;

/// The registry, in report order: baseline, open standards, emerging,
/// standard envelope, Rust-only, Nostr-specific, streaming family, then
/// disabled variants.
pub static PROFILES: &[Profile] = &[
    json::PROFILE,
    json_sonic::PROFILE,
    json_simd::PROFILE,
    cbor_packed::PROFILE,
    msgpack::PROFILE,
    protobuf::PROFILE,
    flatbuffers::PROFILE,
    flexbuffers::PROFILE,
    avro::PROFILE,
    bson::PROFILE,
    thrift_compact::PROFILE,
    beve::PROFILE,
    capnp_packed::PROFILE,
    bincode::PROFILE,
    postcard::PROFILE,
    notepack::PROFILE,
    dannypack::PROFILE,
    gonostr_binary::PROFILE,
    event2::PROFILE,
    nostrdb_note::PROFILE,
    strfry_packed::PROFILE,
    nson::PROFILE,
    netstring::OTNETSTRING,
    netstring::TNETSTRING,
    bencode::PROFILE,
    cbor_stringmap::PROFILE,
    cbor_intmap::PROFILE,
    protobuf_hexstrings::PROFILE,
    capnp_unpacked::PROFILE,
];

/// The profile with this id.
pub fn find(id: &str) -> Option<&'static Profile> {
    PROFILES.iter().find(|p| p.id == id)
}

/// Profiles measured by default.
pub fn enabled() -> impl Iterator<Item = &'static Profile> {
    PROFILES.iter().filter(|p| p.enabled)
}

/// The registry as `binostr profiles --json` prints it and a campaign
/// records it (`registry.json`): one object per profile, in registry order.
pub fn table() -> Vec<binostr_records::RegistryEntry> {
    PROFILES
        .iter()
        .map(|p| binostr_records::RegistryEntry {
            borrowed_view: p.codec.borrowed().is_some(),
            deterministic: p.capabilities.deterministic,
            enabled: p.enabled,
            family: serde_json::to_value(p.family)
                .expect("a family serializes")
                .as_str()
                .unwrap_or_default()
                .to_owned(),
            id: p.id.to_owned(),
            maintenance: serde_json::to_value(p.maintenance).expect("maintenance serializes"),
            native_batch: p.codec.batch().is_some(),
            self_describing: p.capabilities.self_describing,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_kebab_case() {
        let mut ids: Vec<&str> = PROFILES.iter().map(|p| p.id).collect();
        assert!(ids.iter().all(|id| {
            id.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        }));
        ids.sort_unstable();
        let n = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), n, "duplicate profile id");
        assert!(find("json").is_some());
    }

    #[test]
    fn self_describing_profiles_build_hostile_inputs() {
        for p in PROFILES {
            assert_eq!(
                p.codec.hostile().is_some(),
                p.capabilities.self_describing,
                "{}: hostile() must exist exactly for self-describing profiles",
                p.id
            );
        }
    }
}

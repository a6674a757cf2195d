//! Every wire profile, each in its own module, and the one registry.
//!
//! Benches, tests, reports and the CLI iterate [`PROFILES`]; nothing else
//! lists profiles. Adding a profile is one module plus one line here.

use crate::codec::Profile;

pub mod bencode;
pub mod beve;
pub mod dannypack;
pub mod event2;
pub mod gonostr_binary;
pub mod json;
pub mod json_simd;
pub mod json_sonic;
#[cfg(test)]
mod nostr_test_support;
pub mod notepack;
pub mod otnetstring;
pub mod tnetstring;

/// The registry, in report order.
pub static PROFILES: &[Profile] = &[
    json::PROFILE,
    json_sonic::PROFILE,
    json_simd::PROFILE,
    notepack::PROFILE,
    gonostr_binary::PROFILE,
    dannypack::PROFILE,
    event2::PROFILE,
    tnetstring::PROFILE,
    otnetstring::PROFILE,
    bencode::PROFILE,
    beve::PROFILE,
];

/// The profile with this id.
pub fn find(id: &str) -> Option<&'static Profile> {
    PROFILES.iter().find(|p| p.id == id)
}

/// Profiles measured by default.
pub fn enabled() -> impl Iterator<Item = &'static Profile> {
    PROFILES.iter().filter(|p| p.enabled)
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
}

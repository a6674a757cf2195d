//! One fuzz target for every profile decoder in the registry: the profile
//! id comes from `BINOSTR_FUZZ_PROFILE`, so the registry stays the only
//! list of profiles. Every input goes through each entry point the profile
//! has (`decode`, the borrowed view, the native batch), checked against each
//! other by `binostr::torture::agreement::check`.
//!
//! libFuzzer aborts on any panic, including one a profile catches itself,
//! so a contained panic shows up here as a crash, deliberately.
#![no_main]

use std::sync::OnceLock;

use binostr::codec::Profile;
use binostr::profiles::{PROFILES, find};
use binostr::torture::agreement;
use libfuzzer_sys::fuzz_target;

fn profile() -> &'static Profile {
    static P: OnceLock<&'static Profile> = OnceLock::new();
    P.get_or_init(|| {
        let id = std::env::var("BINOSTR_FUZZ_PROFILE").unwrap_or_default();
        find(&id).unwrap_or_else(|| {
            let ids: Vec<&str> = PROFILES.iter().map(|p| p.id).collect();
            panic!("set BINOSTR_FUZZ_PROFILE to one of: {}", ids.join(", "))
        })
    })
}

fuzz_target!(|data: &[u8]| {
    if let Err(d) = agreement::check(profile(), data) {
        panic!("{d}");
    }
});

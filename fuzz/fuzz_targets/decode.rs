//! One fuzz target for every profile decoder in the registry: the profile
//! id comes from `BINOSTR_FUZZ_PROFILE`, so the registry stays the only
//! list of profiles. Each input goes through `decode` (and, where the
//! profile has them, the borrowed view and the native batch); an accepted
//! event must re-encode and decode back to itself.
//!
//! libFuzzer aborts on any panic, including one a profile catches itself
//! (the flexbuffers profile contains panics of its upstream reader), so a
//! contained panic shows up here as a crash, deliberately.
#![no_main]

use std::sync::OnceLock;

use binostr::codec::{Limits, Profile};
use binostr::profiles::{PROFILES, find};
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
    let p = profile();
    let limits = Limits::default();
    if let Ok(event) = p.codec.decode(data, &limits) {
        let mut again = Vec::new();
        if p.codec.encode(&event, &mut again).is_ok() {
            let back = p.codec.decode(&again, &Limits::default());
            assert_eq!(back.as_ref(), Ok(&event), "{}: no round trip", p.id);
        }
    }
    if let Some(view) = p.codec.borrowed() {
        let _ = view.decode_ref(data, &limits);
        let _ = view.kind_and_pubkey(data, &limits);
    }
    if let Some(batch) = p.codec.batch() {
        let _ = batch.decode_batch(data, &limits);
    }
});

//! The committed interop vectors (`vectors/interop-v1.json`) against the code:
//! drift, validity, and decoding under every profile.

use binostr::model::hex;
use binostr::validate::{Limits, verify_event};
use binostr::vectors::{check, render, vectors};

const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/vectors/interop-v1.json");

#[test]
fn committed_file_matches_the_code() {
    let committed = std::fs::read_to_string(FILE).expect("vectors/interop-v1.json exists");
    if let Err(e) = check(&committed, &render(&vectors())) {
        panic!("{FILE}: {e}; regenerate with `binostr vectors -o vectors/interop-v1.json`");
    }
}

#[test]
fn every_vector_is_valid_and_decodes_under_every_profile() {
    let committed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(FILE).unwrap()).unwrap();
    let limits = Limits::default();
    let generated = vectors();
    assert!(generated.len() >= 10);
    for (v, file) in generated
        .iter()
        .zip(committed["vectors"].as_array().unwrap())
    {
        verify_event(&v.event).unwrap_or_else(|e| panic!("{}: {e}", v.name));
        assert_eq!(
            file["json"].as_str().unwrap(),
            v.event.to_json(),
            "{}",
            v.name
        );
        for p in binostr::profiles::enabled() {
            let encoded = &file["encodings"][p.id];
            if encoded.is_null() {
                let why = file["unrepresentable"][p.id].as_str();
                assert!(why.is_some(), "{}/{}: null without a reason", v.name, p.id);
                continue;
            }
            let mut bytes = Vec::new();
            assert!(
                hex::decode_into(encoded.as_str().unwrap(), &mut bytes),
                "{}/{}: not lowercase hex",
                v.name,
                p.id
            );
            let decoded = p
                .codec
                .decode(&bytes, &limits)
                .unwrap_or_else(|e| panic!("{}/{}: {e}", v.name, p.id));
            assert_eq!(decoded, v.event, "{}/{}", v.name, p.id);
        }
    }
}

#[test]
fn check_flag_names_the_first_difference() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v.json");
    let mut value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(FILE).unwrap()).unwrap();
    value["vectors"][2]["encodings"]["msgpack"] = serde_json::json!("00");
    std::fs::write(&path, serde_json::to_string_pretty(&value).unwrap() + "\n").unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_binostr"))
        .args(["vectors", "--check", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("vector 2 (line-separators): encodings.msgpack differs"),
        "{err}"
    );
}

//! The transport loop end to end: every mode, exact round trip, socket
//! counts equal to the flate2 model, negotiation refused loudly.

use binostr::transport::client::{self, Check};
use binostr::transport::deflater::Deflater;
use binostr::transport::measure::{self, Plan};
use binostr::transport::relay::{Config, Relay, Shared, Store};
use binostr::transport::{Compression, TransportError, model};
use binostr::validate::Limits;
use std::sync::Arc;
use std::time::Duration;

fn events() -> Vec<binostr::Event> {
    binostr::corpus::generate::generate(7, 24)
}

#[test]
fn every_mode_round_trips_and_matches_the_model() {
    let events = events();
    let profiles = ["json", "notepack", "cbor-packed"]
        .iter()
        .map(|id| binostr::profiles::find(id).unwrap())
        .collect();
    let plan = Plan {
        profiles,
        reference: "json",
        modes: Compression::ALL.to_vec(),
        checks: Check::ALL.to_vec(),
        rounds: 2,
        seed: 1,
    };
    let rows = measure::run(&events, &plan, |_, _| {}).unwrap();
    assert_eq!(rows.len(), 3 * 3 * 2);
    for r in &rows {
        assert_eq!(r.events, events.len(), "{r:?}");
        assert_eq!(r.wire, r.model, "{r:?}");
        assert!(r.events_per_s.median > 0.0 && r.events_per_s.lo <= r.events_per_s.hi);
        assert!(r.handshake.read > 100 && r.handshake.written > 100, "{r:?}");
        assert_eq!(r.speed_vs_reference.is_none(), r.profile == "json");
    }
    let wire = |p: &str, m: &str| {
        rows.iter()
            .find(|r| r.profile == p && r.mode == m && r.check == "decode")
            .unwrap()
            .wire
            .read
    };
    for p in ["json", "notepack", "cbor-packed"] {
        assert!(wire(p, "deflate") < wire(p, "none"), "{p}");
        assert!(wire(p, "deflate-ctx") < wire(p, "deflate"), "{p}");
    }
    assert!(wire("notepack", "none") < wire("json", "none"));
}

/// The relay compressing with each deflater: every event arrives intact
/// and both sockets count exactly the model of that deflater's bytes.
#[test]
fn every_deflater_matches_the_model_at_both_sockets() {
    let events = events();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let filters = [serde_json::json!({})];
    for id in ["json", "notepack"] {
        let profile = binostr::profiles::find(id).unwrap();
        let store = Arc::new(Store::new(profile, &events).unwrap());
        for deflater in Deflater::ALL {
            let config = Config {
                deflater,
                ..Config::benchmark()
            };
            let relay = Relay::start(Arc::new(Shared::of(vec![store.clone()], config))).unwrap();
            for mode in Compression::ALL {
                let what = format!("{id} {deflater} {}", mode.name());
                let (hits, model) = measure::expect(&store, &filters, mode, deflater).unwrap();
                assert_eq!(hits.len(), events.len(), "{what}");
                let s = measure::exchange(
                    &rt,
                    &relay,
                    profile,
                    mode,
                    Check::Decode,
                    &filters,
                    Duration::from_secs(60),
                )
                .unwrap();
                measure::check_sample(&s, &store.events, &hits, model, &what).unwrap();
                // The model follows the deflater: zlib-rs's bytes are not
                // zlib's once compressed (so a model ignoring it would fail).
                let (_, zlib) = measure::expect(&store, &filters, mode, Deflater::Zlib).unwrap();
                assert_eq!(
                    model.read == zlib.read,
                    mode == Compression::None || deflater == Deflater::Zlib,
                    "{what}: {model:?} vs zlib {zlib:?}"
                );
                assert_eq!(model.written, zlib.written, "{what}: the client is zlib");
            }
        }
    }
}

#[test]
fn model_counts_the_uncompressed_frames_exactly() {
    let events = events();
    let store = Store::new(binostr::profiles::find("json").unwrap(), &events).unwrap();
    let hits: Vec<usize> = (0..events.len()).collect();
    let filters = [serde_json::json!({})];
    let m = model::exchange(&store, &hits, &filters, Compression::None, Deflater::Zlib).unwrap();
    let frame = |n: usize, masked| model::frame_header(n, masked) + n as u64;
    let mut down = 0;
    for e in &events {
        down += frame(
            format!("[\"EVENT\",\"binostr\",{}]", e.to_json()).len(),
            false,
        );
    }
    down += frame(r#"["EOSE","binostr"]"#.len(), false);
    assert_eq!(m.read, down);
    assert_eq!(m.written, frame(r#"["REQ","binostr",{}]"#.len(), true));
}

#[test]
fn a_mode_that_is_not_negotiated_fails_loudly() {
    // A relay that offers nothing: a plain soketto server without extensions.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
        .unwrap();
    let err = rt.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = async {
            use tokio_util::compat::TokioAsyncReadCompatExt;
            let (s, _) = listener.accept().await.unwrap();
            let mut srv = soketto::handshake::Server::new(s.compat());
            let key = srv.receive_request().await.unwrap().key();
            srv.send_response(&soketto::handshake::server::Response::Accept {
                key,
                protocol: None,
            })
            .await
            .unwrap();
            srv
        };
        let profile = binostr::profiles::find("json").unwrap();
        let (filters, limits) = ([serde_json::json!({})], Limits::default());
        let client = client::fetch(
            addr,
            profile,
            Compression::DeflateContext,
            Check::Decode,
            &filters,
            &limits,
        );
        let (r, _srv) = tokio::join!(client, server);
        r.unwrap_err()
    });
    assert!(
        matches!(
            err,
            TransportError::Negotiation {
                asked: "deflate-ctx",
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn cli_writes_transport_csv() {
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_binostr"))
        .args([
            "transport",
            "--profiles",
            "json,notepack",
            "--generated",
            "12",
            "--rounds",
            "2",
            "--out",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = std::fs::read_to_string(dir.path().join("transport.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 2 * 3 * 2);
    for r in &rows {
        assert_eq!(r[col("events")], "12");
        assert_eq!(r[col("s2c_bytes")], r[col("model_s2c_bytes")]);
        assert_eq!(r[col("c2s_bytes")], r[col("model_c2s_bytes")]);
        assert_eq!(
            r[col("speed_vs_json")].is_empty(),
            r[col("profile")] == "json"
        );
    }
    assert!(dir.path().join("README.md").exists());
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_binostr"))
        .args(["transport", "--profiles", "nope", "--generated", "3"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown profile `nope`"));
}

/// A profile that cannot represent every event is measured apart, beside
/// json, on the others; the rest keep every event.
#[test]
fn cli_measures_a_partial_profile_apart() {
    let dir = tempfile::tempdir().unwrap();
    // One more event with 300 tags: nson's one-byte header cannot hold it.
    let mut events = events();
    let keypair = binostr::corpus::generate::derive_keypair(&[9; 32], "transport-test", 0);
    let tags = (0..300)
        .map(|i| vec!["p".to_string(), format!("{i:064x}")])
        .collect();
    events.push(binostr::validate::signed_event(
        &keypair,
        &[0; 32],
        (3, 1_700_000_000),
        tags,
        String::new(),
    ));
    let file = dir.path().join("events.jsonl");
    let text: String = events.iter().map(|e| e.to_json() + "\n").collect();
    std::fs::write(&file, text).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_binostr"))
        .args([
            "transport",
            "--profiles",
            "json,notepack,nson",
            "--rounds",
            "2",
        ])
        .arg("--events")
        .arg(&file)
        .arg("--out")
        .arg(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let nson = binostr::profiles::find("nson").unwrap();
    let refused = events
        .iter()
        .filter(|e| nson.codec.encode(e, &mut Vec::new()).is_err())
        .count();
    assert!(refused >= 1);
    let said = format!("nson cannot represent {refused} of {}", events.len());
    assert!(
        stderr.contains(&format!("measured apart: {said}")),
        "{stderr}"
    );
    let profiles = |file: &str, events: usize| {
        let csv = std::fs::read_to_string(dir.path().join(file)).unwrap();
        let mut seen = std::collections::BTreeSet::new();
        for l in csv.lines().skip(1) {
            let f: Vec<&str> = l.split(',').collect();
            assert_eq!(f[3], events.to_string(), "{file}: {l}");
            seen.insert(f[0].to_string());
        }
        seen.into_iter().collect::<Vec<_>>()
    };
    let n = events.len();
    assert_eq!(profiles("transport.csv", n), ["json", "notepack"]);
    assert_eq!(
        profiles("transport-apart-nson.csv", n - refused),
        ["json", "nson"]
    );
    let readme = std::fs::read_to_string(dir.path().join("README.md")).unwrap();
    assert!(
        readme.contains(&format!("Measured apart: {said}")),
        "{readme}"
    );
}

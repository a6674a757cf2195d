//! The evolution suite over every registry profile: full coverage, no
//! unexplained misread or silent truncation, and the committed
//! `results/evolution/` equal to a fresh run; then the CLI on events and
//! interop vectors that are not the built-in event.

use std::path::Path;
use std::process::Command;

use binostr::evolution::report;
use binostr::profiles::PROFILES;

const BIN: &str = env!("CARGO_BIN_EXE_binostr");

fn committed(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("results/evolution")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_profile_is_covered_without_unexplained_failures_and_results_are_current() {
    let events = [binostr::torture::golden_event()];
    let r = report::run(
        "the built-in golden event (torture::golden_event)",
        &events,
        true,
        false,
    );
    assert_eq!(r.failures, Vec::<String>::new());
    let ids: Vec<&str> = r.profiles.iter().map(|p| p.profile).collect();
    let registry: Vec<&str> = PROFILES.iter().map(|p| p.id).collect();
    assert_eq!(ids, registry);
    for p in &r.profiles {
        for (column, label) in &p.summary {
            assert!(
                !matches!(label.as_str(), "misread" | "changed" | "adapter-error"),
                "{}: {column} = {label}",
                p.profile
            );
        }
    }
    let regen = "regenerate with `just evolution`";
    assert_eq!(
        committed("evolution.csv"),
        report::render_csv(&r),
        "results/evolution/evolution.csv: {regen}"
    );
    assert_eq!(
        committed("README.md"),
        report::render_markdown(&r),
        "results/evolution/README.md: {regen}"
    );
    assert_eq!(
        committed("evolution.json"),
        serde_json::to_string_pretty(&r).unwrap() + "\n",
        "results/evolution/evolution.json: {regen}"
    );
}

#[test]
fn the_cli_takes_events_and_vectors_from_paths() {
    let tmp = tempfile::tempdir().unwrap();
    let events = tmp.path().join("events.jsonl");
    let g = Command::new(BIN)
        .args(["corpus", "generate", "--seed", "7", "--count", "3", "-o"])
        .arg(&events)
        .output()
        .unwrap();
    assert!(g.status.success(), "{}", String::from_utf8_lossy(&g.stderr));
    let vectors = Path::new(env!("CARGO_MANIFEST_DIR")).join("vectors/interop-v1.json");
    for (name, input) in [("events", &events), ("vectors", &vectors)] {
        let out = tmp.path().join(name);
        let r = Command::new(BIN)
            .args(["evolution", "--enabled-only", "--out"])
            .arg(&out)
            .arg(input)
            .output()
            .unwrap();
        assert!(
            r.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&r.stderr)
        );
        let csv = std::fs::read_to_string(out.join("evolution.csv")).unwrap();
        let rows: Vec<&str> = csv
            .lines()
            .skip(1)
            .map(|l| l.split(',').next().unwrap())
            .collect();
        let enabled: Vec<&str> = PROFILES
            .iter()
            .filter(|p| p.enabled)
            .map(|p| p.id)
            .collect();
        assert_eq!(rows, enabled, "{name}");
        let json: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out.join("evolution.json")).unwrap()).unwrap();
        assert!(json["events"].as_u64().unwrap() >= 3, "{name}");
        assert!(out.join("README.md").exists());
    }
}

/// The `avro` backward cell is `by-construction` in the report (the CLI has
/// no Avro schema resolver); here apache-avro executes the clause it cites:
/// a reader schema with `future` (default null) resolves our old datum to
/// the same fields with `future` null, given the writer's schema.
#[test]
fn avro_schema_resolution_reads_old_data_with_the_default() {
    use apache_avro::Schema;
    use apache_avro::reader::datum::GenericDatumReader;
    use apache_avro::types::Value;

    let avsc = include_str!("../schemas/event.avsc");
    let writer = Schema::parse_str(avsc).unwrap();
    let mut newer: serde_json::Value = serde_json::from_str(avsc).unwrap();
    newer["fields"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"name": "future", "type": ["null", "long"], "default": null}));
    let reader = Schema::parse_str(&newer.to_string()).unwrap();
    let avro = binostr::profiles::find("avro").unwrap();
    let mut events = binostr::corpus::generate::generate(3, 20);
    events.push(binostr::torture::golden_event());
    for e in &events {
        let mut bytes = Vec::new();
        avro.codec.encode(e, &mut bytes).unwrap();
        let old = GenericDatumReader::builder(&writer)
            .build()
            .unwrap()
            .read_value(&mut &bytes[..])
            .unwrap();
        let new = GenericDatumReader::builder(&writer)
            .reader_schema(&reader)
            .build()
            .unwrap()
            .read_value(&mut &bytes[..])
            .unwrap();
        let (Value::Record(old), Value::Record(mut new)) = (old, new) else {
            panic!("records expected");
        };
        let (name, future) = new.pop().unwrap();
        assert_eq!(name, "future");
        assert_eq!(future, Value::Union(0, Box::new(Value::Null)));
        assert_eq!(new, old);
    }
}

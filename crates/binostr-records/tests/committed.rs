//! The committed records read into these types and written back (as their
//! writers write them: pretty JSON and a newline, or compact for the
//! manifest's event) are the same bytes: the types are the files' layout,
//! field for field and in order.

use std::fs;
use std::path::{Path, PathBuf};

use binostr_records::robustness::{self, RunReport};
use binostr_records::{CampaignRecord, RegistryEntry, RunRecord, SignedEvent, csv, files};
use serde::Serialize;
use serde::de::DeserializeOwned;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn campaigns() -> PathBuf {
    root().join("results/campaigns")
}

/// The settings' field as records made before its rename name it.
const OLD_SETTINGS: &str = "\"campaign_profile\": ";

fn round_trip<T: Serialize + DeserializeOwned>(path: &Path) {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    // Read under the old name, the field is written back under the new one.
    let text = text.replacen(OLD_SETTINGS, "\"settings\": ", 1);
    let value: T =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let back = serde_json::to_string_pretty(&value).unwrap() + "\n";
    same(&back, &text, path);
}

/// Fails at the first byte where `back` leaves `text`.
fn same(back: &str, text: &str, path: &Path) {
    if let Some(at) = back.bytes().zip(text.bytes()).position(|(a, b)| a != b) {
        let near = |s: &str| {
            String::from_utf8_lossy(&s.as_bytes()[at.saturating_sub(40)..(at + 40).min(s.len())])
                .into_owned()
        };
        panic!(
            "{} changes when written back at byte {at}: {:?} becomes {:?}",
            path.display(),
            near(text),
            near(back)
        );
    }
    assert_eq!(
        back.len(),
        text.len(),
        "{} changes length when written back",
        path.display()
    );
}

#[test]
fn the_settings_read_under_their_old_name() {
    let path = campaigns().join("quick-real").join(files::CAMPAIGN);
    let text = fs::read_to_string(&path).unwrap();
    assert!(text.contains(OLD_SETTINGS), "{}", path.display());
    let old: CampaignRecord = serde_json::from_str(&text).unwrap();
    assert_eq!(old.settings, "quick");
}

#[test]
fn the_robustness_report_round_trips() {
    let path = root().join(robustness::DIR).join(robustness::FILE);
    round_trip::<RunReport>(&path);
}

#[test]
fn every_committed_manifest_event_round_trips() {
    let mut seen = 0;
    for label in fs::read_dir(campaigns()).unwrap() {
        let path = label.unwrap().path().join(files::MANIFEST_EVENT);
        let Ok(text) = fs::read_to_string(&path) else {
            continue;
        };
        let event: SignedEvent =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let back = serde_json::to_string(&event).unwrap() + "\n";
        same(&back, &text, &path);
        seen += 1;
    }
    assert!(seen > 0);
}

#[test]
fn the_publication_campaign_round_trips() {
    let dir = campaigns().join("publication-default");
    round_trip::<CampaignRecord>(&dir.join(files::CAMPAIGN));
    round_trip::<Vec<RegistryEntry>>(&dir.join(files::REGISTRY));
    for k in 1..=3 {
        round_trip::<RunRecord>(&dir.join(format!("run-{k}")).join(files::CONTRACT));
    }
}

#[test]
fn every_committed_campaign_record_round_trips() {
    let mut seen = 0;
    for label in fs::read_dir(campaigns()).unwrap() {
        let path = label.unwrap().path().join(files::CAMPAIGN);
        if path.exists() {
            round_trip::<CampaignRecord>(&path);
            seen += 1;
        }
    }
    assert!(seen >= 3);
    // Recorded before the shares inside `kind-other`: the field is absent.
    let path = campaigns().join("publication-real").join(files::CAMPAIGN);
    let record: CampaignRecord = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
    let mix = record.mix.expect("publication-real records its mix");
    assert!(mix.within("kind-other").is_empty());
    assert!((mix.share("kind-other") - 0.3007).abs() < 1e-12);
}

#[test]
fn every_committed_contract_round_trips_and_every_csv_has_its_header() {
    let mut seen = 0;
    for label in fs::read_dir(campaigns()).unwrap() {
        let label = label.unwrap().path();
        let name = label.file_name().unwrap().to_string_lossy().into_owned();
        if binostr_records::label::is_local(&name) || name.starts_with('.') {
            continue;
        }
        for run in fs::read_dir(&label).unwrap() {
            let run = run.unwrap().path();
            let name = run.file_name().unwrap().to_string_lossy().into_owned();
            if !name.starts_with("run-") || name.ends_with(".tmp") || !run.is_dir() {
                continue;
            }
            round_trip::<RunRecord>(&run.join(files::CONTRACT));
            for layout in csv::RUN {
                let path = run.join(layout.file);
                if let Ok(text) = fs::read_to_string(&path) {
                    let known = std::iter::once(layout)
                        .chain(csv::superseded(&layout))
                        .any(|l| text.starts_with(&l.header_line()));
                    assert!(known, "{}", path.display());
                    seen += 1;
                }
            }
        }
    }
    assert!(seen > 0);
}

#[test]
fn the_suites_tables_start_with_their_layouts() {
    let root = root();
    let maintenance = fs::read_to_string(root.join(csv::MAINTENANCE.file)).unwrap();
    assert!(maintenance.starts_with(&csv::MAINTENANCE.header_line()));
    let evolution = fs::read_to_string(root.join(csv::EVOLUTION.file)).unwrap();
    let header = evolution.lines().next().unwrap();
    let fixed = csv::EVOLUTION.header() + ",";
    assert!(header.starts_with(&fixed), "{header}");
    assert!(
        header[fixed.len()..]
            .split(',')
            .all(|c| c.starts_with("range_")),
        "{header}"
    );
}

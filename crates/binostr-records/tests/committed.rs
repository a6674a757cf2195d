//! The committed campaigns' records read into these types and written back
//! (as the campaign writes them: pretty JSON and a newline) are the same
//! bytes: the types are the files' layout, field for field and in order.

use std::fs;
use std::path::{Path, PathBuf};

use binostr_records::{CampaignRecord, RegistryEntry, RunRecord, csv, files};
use serde::Serialize;
use serde::de::DeserializeOwned;

fn campaigns() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results/campaigns")
}

fn round_trip<T: Serialize + DeserializeOwned>(path: &Path) {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let value: T =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let back = serde_json::to_string_pretty(&value).unwrap() + "\n";
    assert!(back == text, "{} changes when written back", path.display());
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
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
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

//! The registry's maintenance metadata matches the checkout.

use std::collections::BTreeSet;
use std::path::Path;

use super::*;
use crate::profiles::PROFILES;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Package names of the `[dependencies]` of the crates the codecs link.
fn dependencies() -> BTreeSet<String> {
    let mut deps = BTreeSet::new();
    for manifest in ["Cargo.toml", "crates/binostr-generated/Cargo.toml"] {
        let text = std::fs::read_to_string(root().join(manifest)).unwrap();
        let t: toml::Table = toml::from_str(&text).unwrap();
        deps.extend(t["dependencies"].as_table().unwrap().keys().cloned());
    }
    deps.remove("binostr-generated");
    deps
}

#[test]
fn every_profile_has_metadata_that_exists() {
    let deps = dependencies();
    for p in PROFILES {
        let m = &p.maintenance;
        assert!(!m.sources.is_empty(), "{}: no sources", p.id);
        for f in m.sources.iter().chain(m.shared) {
            assert!(root().join(f).is_file(), "{}: {f} is not a file", p.id);
            assert!(
                !m.sources.contains(f) || !m.shared.contains(f),
                "{}: {f} twice",
                p.id
            );
        }
        if let Some(schema) = m.schema.path() {
            assert!(schema.starts_with("schemas/"), "{}: {schema}", p.id);
            assert!(root().join(schema).is_file(), "{}: {schema} missing", p.id);
        }
        match m.schema {
            Schema::Committed { generated, .. } => {
                assert!(!generated.is_empty(), "{}", p.id);
                for g in generated {
                    assert!(g.starts_with("crates/binostr-generated/"), "{}: {g}", p.id);
                    assert!(root().join(g).is_file(), "{}: {g} missing", p.id);
                }
                compiler_of(root(), p.id, generated).unwrap();
            }
            Schema::BuildScript { out, .. } => assert_eq!(out, PROST_OUT.0, "{}", p.id),
            Schema::None | Schema::Document { .. } => {}
        }
        for c in m.crates {
            assert!(deps.contains(*c), "{}: {c} is not a dependency", p.id);
        }
    }
}

/// A dependency the codec names (`crate_name::`) outside its tests must be
/// listed, so that a new `use` cannot leave the crate column stale.
#[test]
fn listed_crates_cover_what_the_module_names() {
    let deps = dependencies();
    for p in PROFILES {
        let files = p
            .maintenance
            .sources
            .iter()
            .flat_map(|f| lines::count_module(root(), f).unwrap())
            .filter(|f| f.lines.code > 0);
        for f in files.map(|f| f.path) {
            let text = std::fs::read_to_string(root().join(&f)).unwrap();
            let code: String = text
                .lines()
                .take_while(|l| !l.starts_with("#[cfg(test)]"))
                .filter(|l| !l.trim_start().starts_with("//"))
                .collect::<Vec<_>>()
                .join("\n");
            for dep in &deps {
                let name = format!("{}::", dep.replace('-', "_"));
                let named = code.match_indices(&name).any(|(at, _)| {
                    let before = code[..at].chars().next_back();
                    !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                });
                assert!(
                    !named || p.maintenance.crates.contains(&dep.as_str()),
                    "{}: {f} uses {dep} but its metadata does not list it",
                    p.id
                );
            }
        }
    }
}

#[test]
fn the_spec_table_is_complete() {
    let mut statuses = BTreeSet::new();
    for p in PROFILES {
        let spec = p.maintenance.spec;
        statuses.insert(spec.status());
        let urls: Vec<&str> = match spec {
            Spec::IetfRfc { number, title } => {
                assert!(number > 0 && !title.is_empty(), "{}", p.id);
                vec![]
            }
            Spec::Vendor { title, url } => {
                assert!(!title.is_empty(), "{}", p.id);
                vec![url]
            }
            Spec::Informal { title, urls } => {
                assert!(!title.is_empty() && !urls.is_empty(), "{}", p.id);
                urls.to_vec()
            }
            Spec::None { implementation } => vec![implementation],
        };
        for u in urls {
            assert!(
                u.starts_with("https://") || u.starts_with("http://"),
                "{}: {u}",
                p.id
            );
        }
        assert!(!spec.reference().is_empty(), "{}", p.id);
    }
    assert_eq!(statuses.len(), 4, "every status occurs: {statuses:?}");
}

#[test]
fn a_missing_checkout_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let err = compute(dir.path(), PROFILES, |_| {}).unwrap_err();
    assert!(
        matches!(&err, MaintenanceError::Missing(p) if p.ends_with("Cargo.toml")),
        "{err}"
    );
    assert!(
        err.to_string()
            .contains("not found (run from a binostr checkout")
    );
}

/// The evolution adapter is suite code: not counted as the format's module.
#[test]
fn the_evolution_adapter_is_not_the_formats_cost() {
    let files = lines::count_module(
        root(),
        crate::profiles::cbor_packed::PROFILE.maintenance.sources[0],
    )
    .unwrap();
    assert!(
        files.iter().all(|f| !f.path.contains("evolution")),
        "{:?}",
        files.iter().map(|f| &f.path).collect::<Vec<_>>()
    );
    assert!(!files.is_empty());
}

//! Rule 1's role-independent part: per profile, the languages that read
//! it, its socket bytes, and the gates it fails.

use std::collections::BTreeMap;

use binostr_records::Workload;
use binostr_records::robustness::Outcome;

use crate::model::campaign::Campaign;
use crate::model::languages::{MatrixRow, RUST};
use crate::model::relay::is_json_text;
use crate::model::summary::BASELINE;
use crate::read::transport::PerMode;

/// Role-independent facts per profile.
pub(super) struct Facts {
    pub(super) profiles: Vec<String>,
    pub(super) socket: BTreeMap<String, PerMode<Option<f64>>>,
    pub(super) languages: BTreeMap<String, BTreeMap<String, f64>>,
    pub(super) gates: BTreeMap<String, Vec<String>>,
}

impl Facts {
    pub(super) fn gather(c: &Campaign, matrix: &[MatrixRow]) -> Self {
        let host = c.primary_host();
        let mut profiles: Vec<String> = c.profiles(host);
        profiles.extend(c.apart.iter().map(|a| a.profile.clone()));
        profiles.sort();
        profiles.dedup();
        let mut languages: BTreeMap<String, BTreeMap<String, f64>> = BTreeMap::new();
        for row in matrix {
            for cell in &row.cells {
                if let Some(f) = &cell.fastest {
                    languages
                        .entry(row.format.clone())
                        .or_default()
                        .insert(cell.language.to_owned(), f.ns);
                }
            }
        }
        for p in &profiles {
            if c.row(host, Workload::Decode.name(), p, "all", 1).is_some() {
                languages
                    .entry(p.clone())
                    .or_default()
                    .entry(RUST.to_owned())
                    .or_insert(f64::NAN);
            }
        }
        // JSON text is the same bytes whatever parses it: other languages
        // read it with json's libraries, so they get json's times.
        if let Some(json) = languages.get(BASELINE).cloned() {
            for p in profiles.iter().filter(|p| is_json_text(c, p)) {
                let own = languages.entry(p.clone()).or_default();
                for (lang, ns) in json.iter().filter(|(l, _)| *l != "rust") {
                    own.insert(lang.clone(), *ns);
                }
            }
        }
        let socket = crate::model::relay::transport_rows(c, host)
            .into_iter()
            .map(|r| (r.profile, r.pct_json))
            .collect();
        let gates = profiles
            .iter()
            .map(|p| (p.clone(), gate_failures(c, p)))
            .collect();
        Facts {
            profiles,
            socket,
            languages,
            gates,
        }
    }

    pub(super) fn language_count(&self, profile: &str) -> usize {
        self.languages.get(profile).map_or(0, BTreeMap::len)
    }
}

/// Why `profile` cannot carry every valid event (the corpus, and the
/// awkward events of `results/valid/`), naming each refused awkward case;
/// `None` when it carries them all.
pub fn valid_refusals(c: &Campaign, profile: &str) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(a) = c.apart.iter().find(|a| a.profile == profile) {
        parts.push(match a.record.as_ref().map(|r| r.refused.len()) {
            Some(1) => "1 corpus event".to_owned(),
            Some(n) => format!("{n} corpus events"),
            None => "corpus events".to_owned(),
        });
    }
    match &c.valid {
        None => parts.push("no record of the awkward valid events".to_owned()),
        Some(v) => {
            let cases = v.refused_by(profile);
            if !cases.is_empty() {
                parts.push(format!(
                    "{} of the {} awkward valid events ({})",
                    cases.len(),
                    v.cases,
                    cases.join(", ")
                ));
            }
        }
    }
    (!parts.is_empty()).then(|| format!("cannot carry every valid event: {}", parts.join("; ")))
}

/// The role-independent gates `profile` fails.
fn gate_failures(c: &Campaign, profile: &str) -> Vec<String> {
    let mut out: Vec<String> = valid_refusals(c, profile).into_iter().collect();
    let Some(r) = &c.robustness else {
        out.push("no robustness record".to_owned());
        return out;
    };
    let Some(s) = r.subjects.iter().find(|s| s.ours && s.subject == profile) else {
        out.push("no robustness record".to_owned());
        return out;
    };
    let mut failing = 0;
    let mut lossy = 0;
    for (class, counts) in &s.classes {
        for (outcome, n) in &counts.outcomes {
            if outcome.fails_ours(*class) {
                failing += n;
            }
            if *outcome == Outcome::AcceptedLossy {
                lossy += n;
            }
        }
    }
    if failing > 0 {
        out.push(format!("{failing} failing robustness cases"));
    }
    if lossy > 0 {
        out.push(format!("{lossy} silent changes"));
    }
    out
}

//! Running the suite over the registry and writing `results/evolution/`:
//! `evolution.json` (every profile, event and case), `evolution.csv` (one
//! row per profile) and `README.md` (the columns and the table).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::range::{self, Outcome};
use super::{Read, classify, encode};
use crate::codec::Profile;
use crate::codec::evolution::{
    AdapterError, Backward, Element, Evolution, Extension, VersionSignal, limits,
};
use crate::model::{Event, hex};

/// A misread the project has looked at and explains (`exceptions.toml`).
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct Exception {
    /// Profile id.
    pub profile: String,
    /// `forward-field`, `forward-element` or `unknown-version`.
    pub case: String,
    /// Why it is acceptable, in words.
    pub reason: String,
}

#[derive(Deserialize)]
struct ExceptionFile {
    #[serde(default)]
    exception: Vec<Exception>,
}

/// The pinned exceptions, from `src/evolution/exceptions.toml`.
pub fn exceptions() -> Vec<Exception> {
    let file: ExceptionFile = toml::from_str(include_str!("exceptions.toml"))
        .expect("src/evolution/exceptions.toml parses");
    file.exception
}

/// What a newer reader made of old bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum BackwardOutcome {
    /// It read the event exactly, with the future field absent.
    Ok {
        /// The reader that ran.
        reader: &'static str,
    },
    /// It refused the old bytes.
    Rejected {
        /// The reader that ran.
        reader: &'static str,
        /// Its error.
        message: String,
    },
    /// It read something else: a failure.
    Misread {
        /// The reader that ran.
        reader: &'static str,
        /// What differs.
        difference: String,
    },
    /// Not executed; the clause that decides it.
    ByConstruction {
        /// The specification clause that decides it, in the adapter's words.
        clause: &'static str,
    },
    /// The input event is not representable in this profile.
    NotRepresentable {
        /// The encoder's reason.
        reason: String,
    },
}

impl BackwardOutcome {
    fn label(&self) -> &'static str {
        match self {
            BackwardOutcome::Ok { .. } => "ok",
            BackwardOutcome::Rejected { .. } => "rejected",
            BackwardOutcome::Misread { .. } => "misread",
            BackwardOutcome::ByConstruction { .. } => "by-construction",
            BackwardOutcome::NotRepresentable { .. } => "not-representable",
        }
    }
}

/// The cases of one input event under one profile.
#[derive(Clone, Debug, Serialize)]
pub struct EventCases {
    /// The event id (hex).
    pub event: String,
    /// A newer writer's extra top-level field, read by our decoder.
    pub forward_field: Read,
    /// A newer writer's extra nested element, read by our decoder.
    pub forward_element: Read,
    /// A newer reader on our bytes.
    pub backward: BackwardOutcome,
    /// Our decoder on bytes with an unknown version.
    pub unknown_version: Read,
}

/// One range case's result.
#[derive(Clone, Debug, Serialize)]
pub struct RangeResult {
    /// Case name.
    pub case: &'static str,
    /// What it is.
    pub what: &'static str,
    /// Exact, refused (with the error) or changed (with the first difference).
    pub outcome: Outcome,
}

/// Everything about one profile.
#[derive(Clone, Debug, Serialize)]
pub struct ProfileReport {
    /// Profile id.
    pub profile: &'static str,
    /// Enabled by default.
    pub enabled: bool,
    /// How a newer writer adds a top-level field.
    pub field_mechanism: &'static str,
    /// How a newer writer extends a nested record, or why it does not apply.
    pub element_mechanism: String,
    /// What carries a version on the wire, as the adapter reports it.
    pub version: VersionSignal,
    /// Per input event.
    pub events: Vec<EventCases>,
    /// Range growth on the first input event.
    pub range: Vec<RangeResult>,
    /// One label per column, as in the CSV.
    pub summary: BTreeMap<String, String>,
}

/// The whole report.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Where the input events came from.
    pub input: String,
    /// Input events used.
    pub events: usize,
    /// The decode limits of every case.
    pub limits: BTreeMap<&'static str, usize>,
    /// Every registry profile.
    pub profiles: Vec<ProfileReport>,
    /// The exceptions that were applied.
    pub exceptions: Vec<Exception>,
    /// Every unexplained failure, one line each (empty: the suite passes).
    pub failures: Vec<String>,
}

fn pin(read: Read, profile: &str, case: &str, exceptions: &[Exception]) -> Read {
    match read {
        Read::Misread {
            difference,
            exception: None,
        } => Read::Misread {
            difference,
            exception: exceptions
                .iter()
                .find(|x| x.profile == profile && x.case == case)
                .map(|x| x.reason.clone()),
        },
        other => other,
    }
}

fn read_of(p: &Profile, e: &Event, built: Result<Extension, AdapterError>) -> Read {
    match built {
        Ok(x) => classify(e, p.codec.decode(&x.bytes, &limits())),
        Err(AdapterError::NoTarget(why)) => Read::NotApplicable { reason: why.into() },
        Err(err) => Read::AdapterError {
            reason: err.to_string(),
        },
    }
}

fn backward_of(b: Backward, original: &Event) -> BackwardOutcome {
    match b {
        Backward::ByConstruction(clause) => BackwardOutcome::ByConstruction { clause },
        Backward::Executed { reader, result } => match result {
            Err(e) => BackwardOutcome::Rejected {
                reader,
                message: e.to_string(),
            },
            Ok(r) if r.event == *original && r.future.is_none() => BackwardOutcome::Ok { reader },
            Ok(r) => BackwardOutcome::Misread {
                reader,
                difference: match r.future {
                    Some(v) => format!("future read as {v}, not absent"),
                    None => super::difference(original, &r.event),
                },
            },
        },
    }
}

fn event_cases(p: &Profile, a: &dyn Evolution, e: &Event, exceptions: &[Exception]) -> EventCases {
    let id = hex::encode(&e.id);
    let base = match encode(p, e) {
        Ok(b) => b,
        Err(err) => {
            let reason = err.reason;
            let nr = || Read::NotRepresentable {
                reason: reason.clone(),
            };
            return EventCases {
                event: id,
                forward_field: nr(),
                forward_element: nr(),
                backward: BackwardOutcome::NotRepresentable {
                    reason: reason.clone(),
                },
                unknown_version: nr(),
            };
        }
    };
    let forward_field = pin(
        read_of(p, e, a.with_field(e, &base)),
        p.id,
        "forward-field",
        exceptions,
    );
    let forward_element = match a.element_mechanism() {
        Element::Applies(_) => pin(
            read_of(p, e, a.with_element(e, &base)),
            p.id,
            "forward-element",
            exceptions,
        ),
        Element::NotApplicable(reason) => Read::NotApplicable {
            reason: reason.into(),
        },
        Element::NotBuilt(reason) => Read::NotBuilt {
            reason: reason.into(),
        },
    };
    let unknown_version = match a.with_unknown_version(&base) {
        Some(built) => pin(read_of(p, e, built), p.id, "unknown-version", exceptions),
        None => Read::NotApplicable {
            reason: "no version on the wire".into(),
        },
    };
    EventCases {
        event: id,
        forward_field,
        forward_element,
        backward: backward_of(a.backward(e, &base), e),
        unknown_version,
    }
}

fn summarize<'a>(labels: impl Iterator<Item = &'a str>) -> String {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut n = 0;
    for l in labels {
        *counts.entry(l).or_default() += 1;
        n += 1;
    }
    match counts.len() {
        0 => "none".into(),
        1 if n > 0 => counts.into_keys().next().expect("one").to_string(),
        _ => counts
            .iter()
            .map(|(l, c)| format!("{l}:{c}"))
            .collect::<Vec<_>>()
            .join(";"),
    }
}

/// The CSV columns after `profile` and `enabled`, in order: the rest of
/// [`binostr_records::csv::EVOLUTION`], then one per range case.
pub fn columns() -> Vec<String> {
    let mut c: Vec<String> = binostr_records::csv::EVOLUTION.columns[2..]
        .iter()
        .map(|c| c.name.to_owned())
        .collect();
    c.extend(range::CASES.iter().map(|r| format!("range_{}", r.name)));
    c
}

/// Runs every case for one profile.
pub fn profile_report(
    p: &'static Profile,
    events: &[Event],
    exceptions: &[Exception],
) -> ProfileReport {
    let range: Vec<RangeResult> = range::CASES
        .iter()
        .map(|c| RangeResult {
            case: c.name,
            what: c.what,
            outcome: range::round_trip(p, &(c.build)(&events[0])),
        })
        .collect();
    let mut summary = BTreeMap::new();
    for r in &range {
        summary.insert(format!("range_{}", r.case), r.outcome.label().to_string());
    }
    let a = p.evolution;
    let cases: Vec<EventCases> = events
        .iter()
        .map(|e| event_cases(p, a, e, exceptions))
        .collect();
    let version = a.version();
    summary.insert(
        "forward_field".into(),
        summarize(cases.iter().map(|c| c.forward_field.label())),
    );
    summary.insert(
        "forward_element".into(),
        summarize(cases.iter().map(|c| c.forward_element.label())),
    );
    summary.insert(
        "backward".into(),
        summarize(cases.iter().map(|c| c.backward.label())),
    );
    summary.insert(
        "version".into(),
        version.carrier.unwrap_or("none").to_string(),
    );
    summary.insert(
        "unknown_version".into(),
        summarize(cases.iter().map(|c| c.unknown_version.label())),
    );
    ProfileReport {
        profile: p.id,
        enabled: p.enabled,
        field_mechanism: a.field_mechanism(),
        element_mechanism: match a.element_mechanism() {
            Element::Applies(m) => m.to_string(),
            Element::NotApplicable(why) => format!("n/a: {why}"),
            Element::NotBuilt(why) => format!("not built: {why}"),
        },
        version,
        events: cases,
        range,
        summary,
    }
}

/// The unexplained failures of one profile's report.
pub fn failures(r: &ProfileReport) -> Vec<String> {
    let mut out = Vec::new();
    for c in &r.events {
        for (case, read) in [
            ("forward-field", &c.forward_field),
            ("forward-element", &c.forward_element),
            ("unknown-version", &c.unknown_version),
        ] {
            if read.is_failure() {
                out.push(format!(
                    "{}: {case} on event {}: {}",
                    r.profile,
                    c.event,
                    serde_json::to_string(read).expect("serializable")
                ));
            }
        }
        if let BackwardOutcome::Misread { difference, .. } = &c.backward {
            out.push(format!(
                "{}: backward on event {}: misread ({difference})",
                r.profile, c.event
            ));
        }
    }
    for x in &r.range {
        if let Outcome::Changed { difference } = &x.outcome {
            out.push(format!(
                "{}: range {} changed silently: {difference}",
                r.profile, x.case
            ));
        }
    }
    out
}

/// Runs the suite over every registry profile (`all`) or the enabled ones.
pub fn run(input: &str, events: &[Event], all: bool, progress: bool) -> Report {
    assert!(!events.is_empty(), "the suite needs at least one event");
    let exceptions = exceptions();
    let mut profiles = Vec::new();
    let mut fails = Vec::new();
    for p in crate::profiles::PROFILES
        .iter()
        .filter(|p| all || p.enabled)
    {
        if progress {
            eprintln!("evolution: {}", p.id);
        }
        let r = profile_report(p, events, &exceptions);
        fails.extend(failures(&r));
        profiles.push(r);
    }
    let l = limits();
    Report {
        input: input.into(),
        events: events.len(),
        limits: BTreeMap::from([
            ("max_event_bytes", l.max_event_bytes),
            ("max_tags", l.max_tags),
            ("max_values_per_tag", l.max_values_per_tag),
            ("max_value_bytes", l.max_value_bytes),
            ("max_depth", l.max_depth),
        ]),
        profiles,
        exceptions,
        failures: fails,
    }
}

/// `evolution.csv`: one row per profile.
pub fn render_csv(r: &Report) -> String {
    let cols = columns();
    let layout = binostr_records::csv::EVOLUTION;
    let mut out = layout.header();
    for range in &cols[layout.width() - 2..] {
        out.push(',');
        out.push_str(range);
    }
    out.push('\n');
    for p in &r.profiles {
        out.push_str(p.profile);
        out.push(',');
        out.push_str(if p.enabled { "true" } else { "false" });
        for c in &cols {
            out.push(',');
            out.push_str(p.summary.get(c).map_or("", String::as_str));
        }
        out.push('\n');
    }
    out
}

fn detail(read: &Read) -> String {
    match read {
        Read::Rejected { message, .. } => message.clone(),
        Read::Misread {
            difference,
            exception,
        } => match exception {
            Some(why) => format!("{difference} (pinned: {why})"),
            None => format!("{difference} (UNEXPLAINED)"),
        },
        Read::NotApplicable { reason }
        | Read::NotBuilt { reason }
        | Read::NotRepresentable { reason }
        | Read::AdapterError { reason } => reason.clone(),
        Read::Ignored => "decoded event equals the original".into(),
    }
}

/// `README.md`: what the columns mean, the table, and each profile's
/// mechanisms and messages.
pub fn render_markdown(r: &Report) -> String {
    let cols = columns();
    let mut s = String::from(include_str!("readme-head.md"));
    s.push_str(&format!(
        "\nInput: {} ({} event{}). Decode limits: {}.\n\n",
        r.input,
        r.events,
        if r.events == 1 { "" } else { "s" },
        r.limits
            .iter()
            .map(|(k, v)| format!("`{k}` = {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    s.push_str(&format!("| profile | {} |\n", cols.join(" | ")));
    s.push_str(&format!("|---|{}\n", "---|".repeat(cols.len())));
    for p in &r.profiles {
        let name = if p.enabled {
            format!("`{}`", p.profile)
        } else {
            format!("`{}` (disabled)", p.profile)
        };
        let cells: Vec<&str> = cols
            .iter()
            .map(|c| p.summary.get(c).map_or("", String::as_str))
            .collect();
        s.push_str(&format!("| {name} | {} |\n", cells.join(" | ")));
    }
    s.push_str("\n## Per profile (first input event)\n");
    for p in &r.profiles {
        s.push_str(&format!("\n### `{}`\n\n", p.profile));
        s.push_str(&format!("- Field mechanism: {}\n", p.field_mechanism));
        s.push_str(&format!("- Element mechanism: {}\n", p.element_mechanism));
        if let Some(c) = p.events.first() {
            s.push_str(&format!(
                "- forward field: **{}**: {}\n",
                c.forward_field.label(),
                detail(&c.forward_field)
            ));
            s.push_str(&format!(
                "- forward element: **{}**: {}\n",
                c.forward_element.label(),
                detail(&c.forward_element)
            ));
            let b = match &c.backward {
                BackwardOutcome::Ok { reader } => {
                    format!("ran {reader}: event exact, future absent")
                }
                BackwardOutcome::Rejected { reader, message } => format!("ran {reader}: {message}"),
                BackwardOutcome::Misread { reader, difference } => {
                    format!("ran {reader}: {difference} (UNEXPLAINED)")
                }
                BackwardOutcome::ByConstruction { clause } => clause.to_string(),
                BackwardOutcome::NotRepresentable { reason } => reason.clone(),
            };
            s.push_str(&format!("- backward: **{}**: {b}\n", c.backward.label()));
        }
        s.push_str(&format!(
            "- version: **{}**: {}\n",
            p.version.carrier.unwrap_or("none"),
            p.version.note
        ));
        if let Some(c) = p.events.first()
            && !matches!(c.unknown_version, Read::NotApplicable { .. })
        {
            s.push_str(&format!(
                "- unknown version: **{}**: {}\n",
                c.unknown_version.label(),
                detail(&c.unknown_version)
            ));
        }
        for x in &p.range {
            if let Outcome::Refused { stage, message } = &x.outcome {
                s.push_str(&format!(
                    "- range `{}`: refused at {stage}: {message}\n",
                    x.case
                ));
            }
            if let Outcome::Changed { difference } = &x.outcome {
                s.push_str(&format!(
                    "- range `{}`: **changed**: {difference} (FAILURE)\n",
                    x.case
                ));
            }
        }
    }
    if !r.failures.is_empty() {
        s.push_str("\n## Failures\n\n");
        for f in &r.failures {
            s.push_str(&format!("- {f}\n"));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_name_every_label_when_mixed() {
        assert_eq!(summarize(["ignored", "ignored"].into_iter()), "ignored");
        assert_eq!(
            summarize(["rejected", "ignored", "rejected"].into_iter()),
            "ignored:1;rejected:2"
        );
    }

    #[test]
    fn a_pinned_misread_is_not_a_failure() {
        let x = [Exception {
            profile: "p".into(),
            case: "forward-field".into(),
            reason: "why".into(),
        }];
        let m = Read::Misread {
            difference: "d".into(),
            exception: None,
        };
        assert!(!pin(m.clone(), "p", "forward-field", &x).is_failure());
        assert!(pin(m.clone(), "q", "forward-field", &x).is_failure());
        assert!(pin(m, "p", "forward-element", &x).is_failure());
    }

    #[test]
    fn the_exceptions_file_parses() {
        let _ = exceptions();
    }
}

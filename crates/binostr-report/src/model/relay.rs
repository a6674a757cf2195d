//! The relay's path, shared by `summary.md` and the paper: REQ filters
//! matched on stored events (the `filter` groups) and the WebSocket loop
//! (the timed `transport-*` groups beside `transport.csv`).

use binostr_records::Workload;

use crate::interval::Interval;
use crate::model::campaign::Campaign;
use crate::model::summary::{REFERENCE, ratio_order};
use crate::read::transport::{Mode, PerMode, Transport};

/// One profile's `filter` row on one host.
#[derive(Clone, Debug)]
pub struct FilterRow {
    /// Profile id.
    pub profile: String,
    /// `filter-checked` or `filter-preverified`.
    pub workload: String,
    /// ns per stored event scanned (per event and filter).
    pub ns: f64,
    /// Paired ratio to json's `filter-checked`.
    pub vs_json: Option<Interval>,
    /// Paired ratio to `filter-event` (matching alone on decoded events).
    pub vs_event: Option<Interval>,
    /// Instructions per event scanned.
    pub instr: Option<f64>,
}

impl FilterRow {
    /// The safety contract of the access: `checked` or `preverified`.
    pub fn contract(&self) -> &str {
        self.workload.trim_start_matches("filter-")
    }
}

/// Every profile's `filter` row on `host`, by paired ratio to json (then ns).
pub fn filter_rows(c: &Campaign, host: &str) -> Vec<FilterRow> {
    let mut rows: Vec<FilterRow> = c
        .profiles(host)
        .into_iter()
        .filter_map(|p| {
            let workload = [
                Workload::FilterChecked.name(),
                Workload::FilterPreverified.name(),
            ]
            .into_iter()
            .find(|w| c.ns(host, w, &p).is_some())?;
            Some(FilterRow {
                ns: c.ns(host, workload, &p)?,
                vs_json: c.ratio(host, workload, &p, "json"),
                vs_event: c.ratio(host, workload, &p, Workload::FilterEvent.name()),
                instr: c.instructions(host, workload, &p).map(|i| i.per_event),
                workload: workload.to_owned(),
                profile: p,
            })
        })
        .collect();
    let key = |r: &FilterRow| ratio_order(&r.profile, r.vs_json);
    rows.sort_by(|a, b| {
        key(a)
            .total_cmp(&key(b))
            .then(a.ns.total_cmp(&b.ns))
            .then(a.profile.cmp(&b.profile))
    });
    rows
}

/// The `filter-event` reference (matching alone, on decoded events).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FilterReference {
    /// ns per event scanned.
    pub ns: f64,
    /// Instructions per event scanned, when counted.
    pub instr: Option<f64>,
}

/// The `filter-event` reference of `host`.
pub fn filter_reference(c: &Campaign, host: &str) -> Option<FilterReference> {
    let ns = c.ns(host, Workload::FilterEvent.name(), REFERENCE)?;
    let instr = c
        .instructions(host, Workload::FilterEvent.name(), REFERENCE)
        .map(|i| i.per_event);
    Some(FilterReference { ns, instr })
}

/// One profile's transport row on one host, per [`Mode`].
#[derive(Clone, Debug)]
pub struct TransportRow {
    /// Profile id.
    pub profile: String,
    /// Relay → client socket bytes per event (`transport.csv`, check
    /// `decode`).
    pub bytes: PerMode<Option<f64>>,
    /// Those bytes as % of json's in the same mode.
    pub pct_json: PerMode<Option<f64>>,
    /// Timed ns per event of one REQ → EOSE exchange (`transport-*`).
    pub ns: PerMode<Option<f64>>,
    /// Its paired ratio to json in the same mode.
    pub vs_json: PerMode<Option<Interval>>,
}

fn side<'a>(c: &'a Campaign, host: &str, profile: &str, mode: Mode) -> Option<&'a Transport> {
    c.side.transport.iter().find(|t| {
        t.host == host && t.profile == profile && t.mode == mode.name() && t.check == "decode"
    })
}

/// Every profile's transport row on `host`, fewest uncompressed bytes first.
pub fn transport_rows(c: &Campaign, host: &str) -> Vec<TransportRow> {
    let mut profiles: Vec<String> = c
        .side
        .transport
        .iter()
        .filter(|t| t.host == host)
        .map(|t| t.profile.clone())
        .collect();
    profiles.extend(c.profiles(host).into_iter().filter(|p| {
        Mode::ALL
            .iter()
            .any(|m| c.ns_where_measured(host, m.workload().name(), p).is_some())
    }));
    profiles.sort();
    profiles.dedup();
    let bytes = |p: &str, m: Mode| side(c, host, p, m).map(|t| t.s2c_bytes_per_event);
    let mut rows: Vec<TransportRow> = profiles
        .into_iter()
        .map(|p| {
            let bytes_of = PerMode::from_fn(|m| bytes(&p, m));
            let pct_json = PerMode::from_fn(|m| {
                Some(100.0 * (*bytes_of.get(m))? / bytes(crate::model::summary::BASELINE, m)?)
            });
            TransportRow {
                ns: PerMode::from_fn(|m| c.ns_where_measured(host, m.workload().name(), &p)),
                vs_json: PerMode::from_fn(|m| {
                    c.paired_where_measured(host, m.workload().name(), &p, "json")
                        .map(crate::model::paired::Paired::interval)
                }),
                bytes: bytes_of,
                pct_json,
                profile: p,
            }
        })
        .collect();
    rows.sort_by(|a, b| {
        let key = |r: &TransportRow| r.bytes.none.unwrap_or(f64::INFINITY);
        key(a).total_cmp(&key(b)).then(a.profile.cmp(&b.profile))
    });
    rows
}

/// The `transport.csv` rows of `host`, by profile then mode order then check.
pub fn loop_rows<'a>(c: &'a Campaign, host: &str) -> Vec<&'a Transport> {
    // Known modes in `Mode` order, then any other, as one.
    let mode = |m: &str| {
        let known = Mode::from_name(m);
        (known.is_none(), known)
    };
    let mut rows: Vec<&Transport> = c.side.transport.iter().filter(|t| t.host == host).collect();
    rows.sort_by(|a, b| {
        (&a.profile, mode(&a.mode), &a.check).cmp(&(&b.profile, mode(&b.mode), &b.check))
    });
    rows
}

/// A profile and its relay → client bytes per event.
#[derive(Clone, Debug)]
pub struct ProfileBytes {
    /// Profile id.
    pub profile: String,
    /// Bytes per event.
    pub bytes: f64,
}

/// The paper's headline: json with deflate against the binary profile with
/// the fewest bytes on the wire, without and with deflate.
#[derive(Clone, Debug)]
pub struct Headline {
    /// json's relay → client bytes per event, per mode.
    pub json: PerMode<f64>,
    /// The fewest-bytes binary profile in each mode.
    pub best: PerMode<ProfileBytes>,
}

impl Headline {
    /// The best bytes of `mode` as % of json's in the same mode.
    pub fn pct_of_json(&self, mode: Mode) -> f64 {
        100.0 * self.best.get(mode).bytes / self.json.get(mode)
    }
}

/// Whether `profile` travels as NIP-01 JSON text (the registry's
/// `nostr-baseline` family; `docs/TRANSPORT.md`).
pub fn is_json_text(c: &Campaign, profile: &str) -> bool {
    c.registry
        .iter()
        .any(|r| r.id == profile && r.family == "nostr-baseline")
}

/// The headline of `host`, when json and a binary profile have rows in
/// every mode (and the registry says which profiles are binary).
pub fn headline(c: &Campaign, host: &str) -> Option<Headline> {
    let rows = transport_rows(c, host);
    let json_row = rows
        .iter()
        .find(|r| r.profile == crate::model::summary::BASELINE)?;
    let json = json_row.bytes.all()?;
    let binary: Vec<&TransportRow> = rows
        .iter()
        .filter(|r| !c.registry.is_empty() && !is_json_text(c, &r.profile))
        .collect();
    let best = |m: Mode| {
        binary
            .iter()
            .filter_map(|r| {
                Some(ProfileBytes {
                    profile: r.profile.clone(),
                    bytes: (*r.bytes.get(m))?,
                })
            })
            .min_by(|a, b| a.bytes.total_cmp(&b.bytes).then(a.profile.cmp(&b.profile)))
    };
    Some(Headline {
        json,
        best: PerMode::from_fn(best).all()?,
    })
}

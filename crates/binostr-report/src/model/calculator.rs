//! The relay calculator's inputs (`render/page/calc.rs`): the traffic mix's
//! strata and each one's sizes per profile, the socket bytes of
//! `transport.csv`, and the groups the Claims call tied.
//!
//! A stratum is a subset when the campaign measured it (sizes or times). Older
//! campaigns have kinds 0, 1, 3 and 7 only: the mix's other strata then
//! become one, `kind-rest`, whose sizes are subset `all` minus the measured
//! kinds' totals. Totals of events compressed one at a time add up, so
//! those are exact; stream compression does not, so it stays unmeasured,
//! as do the stratum's times.

use std::collections::BTreeMap;

use anyhow::Result;
use binostr_records::Mix;

use crate::model::campaign::Campaign;
use crate::read::campaign_file;
use crate::read::sizes::Sizes;
use crate::read::transport::{Mode, PerMode};

/// The stratum standing for the mix's unmeasured strata in older campaigns.
pub const REST: &str = "kind-rest";

/// The subset the mix's strata other than the kinds are measured in.
const OTHER: &str = "kind-other";

/// What each stratum holds, as the page names it.
const NAMES: [(&str, &str); 6] = [
    ("kind-0", "profile metadata"),
    ("kind-1", "short text note"),
    ("kind-3", "follow list"),
    ("kind-7", "reaction"),
    ("kind-9735", "zap receipt"),
    (OTHER, "every other kind"),
];

/// Where a stratum's figures come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Its own subset: sizes and times.
    Measured,
    /// Subset `all` minus the measured strata: the mix's strata it stands
    /// for, which the campaign did not measure.
    Remainder(Vec<String>),
}

/// One stratum of the mix.
#[derive(Clone, Debug)]
pub struct Stratum {
    /// Subset id (`kind-1`, `kind-other`, or [`REST`]).
    pub subset: String,
    /// Its events, in words.
    pub name: String,
    /// Default share of all traffic, in percent.
    pub share_pct: f64,
    /// Where its figures come from.
    pub origin: Origin,
}

/// Byte totals of one profile and stratum (`sizes.csv`); `None` where the
/// campaign did not measure the column.
#[derive(Clone, Debug, PartialEq)]
pub struct StratumSizes {
    /// Events.
    pub events: f64,
    /// Raw record bytes.
    pub raw: f64,
    /// With a 4-byte length per record.
    pub framed: f64,
    /// Each record zstd-compressed alone.
    pub zstd_event: f64,
    /// The framed stream zstd-compressed as a whole.
    pub zstd_stream: Option<f64>,
    /// Each record zstd-compressed alone with a trained dictionary.
    pub zstd_dict: f64,
    /// Each framed record raw-deflated alone.
    pub deflate_event: Option<f64>,
    /// One deflate context over the framed records, sync-flushed after each.
    pub deflate_stream: Option<f64>,
}

impl StratumSizes {
    fn of(s: &Sizes) -> Self {
        StratumSizes {
            events: s.events,
            raw: s.bytes.raw,
            framed: s.bytes.framed,
            zstd_event: s.bytes.zstd_event,
            zstd_stream: Some(s.bytes.zstd_stream),
            zstd_dict: s.bytes.zstd_dict,
            deflate_event: s.deflate.map(|d| d.event),
            deflate_stream: s.deflate.map(|d| d.stream),
        }
    }

    /// `self` minus `parts`, for the additive totals; `None` when a part is
    /// missing or the remainder has no event. Without parts, `self` whole.
    fn remainder(&self, parts: &[&StratumSizes]) -> Option<Self> {
        if parts.is_empty() {
            return (self.events > 0.0).then(|| self.clone());
        }
        let minus = |f: fn(&StratumSizes) -> f64| self.remainder_of(parts, f);
        let events = minus(|s| s.events);
        (events > 0.0).then(|| StratumSizes {
            events,
            raw: minus(|s| s.raw),
            framed: minus(|s| s.framed),
            zstd_event: minus(|s| s.zstd_event),
            zstd_stream: None,
            zstd_dict: minus(|s| s.zstd_dict),
            deflate_event: None,
            deflate_stream: None,
        })
    }

    fn remainder_of(&self, parts: &[&StratumSizes], f: fn(&StratumSizes) -> f64) -> f64 {
        f(self) - parts.iter().map(|p| f(p)).sum::<f64>()
    }
}

/// The stream the socket bytes were measured on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SocketStream {
    /// The `mix` subset: kinds drawn in the mix's shares.
    Mix,
    /// The `all` subset's sequence: drawn from the whole corpus.
    All,
}

/// Everything the calculator needs of a campaign (primary host).
#[derive(Clone, Debug)]
pub struct Calculator {
    /// The traffic mix of the default shares.
    pub mix: Mix,
    /// Whether `campaign.json` states it (otherwise [`Mix::bigbrotr`]).
    pub mix_stated: bool,
    /// The strata, in the mix's order ([`REST`] last).
    pub strata: Vec<Stratum>,
    /// Per profile, then stratum subset.
    pub sizes: BTreeMap<String, BTreeMap<String, StratumSizes>>,
    /// Relay → client socket bytes per event per profile and mode
    /// (`transport.csv`, check `decode`).
    pub socket: BTreeMap<String, PerMode<Option<f64>>>,
    /// Events of the socket exchanges, when measured.
    pub socket_events: Option<u64>,
    /// Which stream those were.
    pub socket_stream: SocketStream,
    /// Per claim workload that is not resolved: the profiles called tied.
    pub ties: Vec<Tie>,
}

/// The profiles an unresolved claim calls tied.
#[derive(Clone, Debug)]
pub struct Tie {
    /// The claim's workload.
    pub workload: String,
    /// The profiles tied.
    pub profiles: Vec<String>,
}

impl Calculator {
    /// The sizes of `profile` in stratum `subset`.
    pub fn size(&self, profile: &str, subset: &str) -> Option<&StratumSizes> {
        self.sizes.get(profile)?.get(subset)
    }
}

/// What the page calls a stratum's events.
pub fn stratum_name(subset: &str) -> &'static str {
    NAMES
        .iter()
        .find(|(s, _)| *s == subset)
        .map_or("", |(_, n)| n)
}

/// The calculator's inputs of `c` for `profiles`.
pub fn build(c: &Campaign, profiles: &[String]) -> Result<Calculator> {
    let host = c.primary_host();
    let stated = match c.runs.first().and_then(|r| r.dir.parent()) {
        Some(dir) if dir.join(binostr_records::files::CAMPAIGN).exists() => {
            campaign_file::read(&dir.join(binostr_records::files::CAMPAIGN))?.mix
        }
        _ => None,
    };
    let mix_stated = stated.is_some();
    let mix = stated.unwrap_or_else(Mix::bigbrotr);
    let measured = |subset: &str| {
        c.side
            .sizes
            .iter()
            .any(|s| s.host == host && s.subset == subset)
            || c.rows.iter().any(|r| r.host == host && r.subset == subset)
    };
    let mut strata = Vec::new();
    let mut rest = Vec::new();
    for s in &mix.strata {
        if measured(&s.stratum) {
            strata.push(Stratum {
                subset: s.stratum.clone(),
                name: stratum_name(&s.stratum).to_owned(),
                share_pct: 100.0 * s.share,
                origin: Origin::Measured,
            });
        } else {
            rest.push(s);
        }
    }
    let rest_share: f64 = rest.iter().map(|s| 100.0 * s.share).sum();
    if !rest.is_empty() {
        strata.push(Stratum {
            subset: REST.to_owned(),
            name: if strata.is_empty() {
                "every event: no kind has a subset here".to_owned()
            } else {
                "every kind without a subset of its own".to_owned()
            },
            share_pct: rest_share,
            origin: Origin::Remainder(rest.iter().map(|s| s.stratum.clone()).collect()),
        });
    }
    let mut sizes: BTreeMap<String, BTreeMap<String, StratumSizes>> = BTreeMap::new();
    for p in profiles {
        let mut parts = Vec::new();
        for s in &strata {
            if let Some(row) = c.sizes(host, p, &s.subset) {
                parts.push(StratumSizes::of(row));
                sizes
                    .entry(p.clone())
                    .or_default()
                    .insert(s.subset.clone(), StratumSizes::of(row));
            }
        }
        let complete = parts.len() + usize::from(!rest.is_empty()) == strata.len();
        if let (false, true, Some(all)) = (rest.is_empty(), complete, c.sizes(host, p, "all")) {
            let parts: Vec<&StratumSizes> = parts.iter().collect();
            if let Some(r) = StratumSizes::of(all).remainder(&parts) {
                sizes
                    .entry(p.clone())
                    .or_default()
                    .insert(REST.to_owned(), r);
            }
        }
    }
    let mut socket = BTreeMap::new();
    let mut socket_events = None;
    for t in c
        .side
        .transport
        .iter()
        .filter(|t| t.host == host && t.check == "decode")
    {
        let Some(mode) = Mode::from_name(&t.mode) else {
            continue;
        };
        *socket
            .entry(t.profile.clone())
            .or_insert_with(PerMode::default)
            .get_mut(mode) = Some(t.s2c_bytes_per_event);
        socket_events = Some(t.events);
    }
    let ties = c
        .claims
        .iter()
        .filter(|k| k.host == host && !k.resolved)
        .map(|k| Tie {
            workload: k.workload.clone(),
            profiles: k.tied_set(),
        })
        .collect();
    Ok(Calculator {
        mix,
        mix_stated,
        strata,
        sizes,
        socket,
        socket_events,
        socket_stream: if measured("mix") {
            SocketStream::Mix
        } else {
            SocketStream::All
        },
        ties,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sizes(events: f64, bytes: f64) -> StratumSizes {
        StratumSizes {
            events,
            raw: bytes,
            framed: bytes + 4.0 * events,
            zstd_event: bytes / 2.0,
            zstd_stream: Some(bytes / 3.0),
            zstd_dict: bytes / 4.0,
            deflate_event: None,
            deflate_stream: None,
        }
    }

    #[test]
    fn the_remainder_subtracts_additive_totals_and_leaves_stream_compression_unmeasured() {
        let all = sizes(10.0, 1000.0);
        let r = all
            .remainder(&[&sizes(3.0, 300.0), &sizes(2.0, 100.0)])
            .expect("five events remain");
        assert_eq!(r.events, 5.0);
        assert_eq!(r.raw, 600.0);
        assert_eq!(r.framed, 620.0);
        assert_eq!(r.zstd_event, 300.0);
        assert_eq!(r.zstd_dict, 150.0);
        assert_eq!(r.zstd_stream, None);
        assert!(all.remainder(&[&sizes(10.0, 1000.0)]).is_none());
        assert_eq!(all.remainder(&[]), Some(all.clone()));
    }
}

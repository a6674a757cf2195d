//! What is compared with what: the fixed event sequence of each subset, the
//! groups whose members are timed in interleaved rounds, and the paired
//! ratios each group yields (`docs/RESULTS.md`, `ratios.csv`).
//!
//! A [`Sequence`] is drawn once per campaign: the whole subset when it fits
//! the campaign settings' [`Budget`] (events and JSON bytes: events differ in
//! cost by orders of magnitude), else a seeded size-stratified sample (one
//! event drawn from each of `k` equal strata of the subset sorted by compact
//! JSON size), kept in corpus order. Every profile and every run times
//! exactly these events.
//!
//! A [`Group`] holds the members of one claim (every profile of a workload,
//! plus its floor or reference rows); a round runs one pass of every member
//! in an order shuffled per round. [`Group::comparisons`] names, for each
//! member, the members it is divided by, round by round.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::bench::fixture::{BASELINE, REFERENCE};
use binostr_records::Mix;

use crate::bench::workload::{
    BenchKey, Subset, Workload, filter_workload, select_workload, transport_workload,
};
use crate::codec::Profile;
use crate::model::Event;
use crate::rng::Gen;
use crate::transport::Compression;

/// The events one subset's passes cover (a record of `campaign.json`).
pub use binostr_records::Sequence;

/// How large a pass may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Budget {
    /// Most events.
    pub events: usize,
    /// Most compact JSON bytes (expected, for a sample).
    pub bytes: usize,
}

/// The sequence of `subset` over `events`: all of it when it fits `budget`,
/// else one seeded draw from each of `k` size strata, where `k` is the
/// largest count whose expected JSON bytes (`k` × the subset's mean) and
/// events fit the budget (at least 1). Subset `mix` follows `mix` instead
/// ([`mix_sequence`]).
pub fn sequence(
    events: &[Event],
    json_len: &[usize],
    subset: Subset,
    budget: Budget,
    seed: u64,
    mix: &Mix,
) -> Sequence {
    if subset == Subset::Mix {
        return mix_sequence(events, json_len, budget, seed, mix);
    }
    let members: Vec<usize> = (0..events.len())
        .filter(|&i| subset.contains(events[i].kind, json_len[i]))
        .collect();
    let of = members.len();
    let bytes: usize = members.iter().map(|&i| json_len[i]).sum();
    let max = if bytes <= budget.bytes {
        budget.events
    } else {
        // k * (bytes / of) <= budget.bytes
        (budget.bytes * of / bytes.max(1)).clamp(1, budget.events)
    };
    let mut g = subset_rng(seed, subset);
    let mut indices = size_stratified(members, max, json_len, &mut g);
    indices.sort_unstable();
    finish(events, subset, of, indices)
}

/// Subset `mix`: from each kind stratum of `mix`, a count proportional to
/// its share (largest remainder), drawn size-stratified within the stratum
/// as [`sequence`] draws, then shuffled into one interleaved stream. The
/// count is the largest that the budget allows and that every stratum can
/// fill without repeating an event. Empty when a stratum with a share has
/// no event ([`crate::bench::workload::split_subsets`]).
pub fn mix_sequence(
    events: &[Event],
    json_len: &[usize],
    budget: Budget,
    seed: u64,
    mix: &Mix,
) -> Sequence {
    let strata: Vec<(f64, Vec<usize>)> = mix
        .strata
        .iter()
        .filter(|s| s.share > 0.0)
        .map(|s| {
            let members = (0..events.len())
                .filter(|&i| Subset::stratum(events[i].kind).name() == s.stratum)
                .collect();
            (s.share, members)
        })
        .collect();
    let total: f64 = strata.iter().map(|(w, _)| w).sum();
    // Events each stratum can fill, and expected bytes per drawn event.
    let mut n = strata
        .iter()
        .map(|(w, m)| (m.len() as f64 * total / w).floor() as usize)
        .fold(budget.events, usize::min);
    let mean_bytes: f64 = strata
        .iter()
        .filter(|(_, m)| !m.is_empty())
        .map(|(w, m)| {
            w / total * m.iter().map(|&i| json_len[i]).sum::<usize>() as f64 / m.len() as f64
        })
        .sum();
    if n as f64 * mean_bytes > budget.bytes as f64 {
        n = ((budget.bytes as f64 / mean_bytes).floor() as usize).max(1);
    }
    let quotas: Vec<f64> = strata.iter().map(|(w, _)| n as f64 * w / total).collect();
    let counts = crate::corpus::generate::apportion(&quotas, n);
    let mut g = subset_rng(seed, Subset::Mix);
    let mut indices: Vec<usize> = strata
        .into_iter()
        .zip(counts)
        .flat_map(|((_, members), k)| size_stratified(members, k, json_len, &mut g))
        .collect();
    g.shuffle(&mut indices);
    finish(events, Subset::Mix, events.len(), indices)
}

fn subset_rng(seed: u64, subset: Subset) -> Gen {
    let key: [u8; 32] = Sha256::digest(format!("binostr-sequence/{seed}/{}", subset.name()))
        .as_slice()
        .try_into()
        .expect("32 bytes");
    Gen::new(key, 0)
}

/// All of `members` when at most `k`, else one draw from each of `k` equal
/// strata of `members` sorted by JSON size.
fn size_stratified(members: Vec<usize>, k: usize, json_len: &[usize], g: &mut Gen) -> Vec<usize> {
    let of = members.len();
    if of <= k {
        return members;
    }
    let mut by_size = members;
    by_size.sort_by_key(|&i| (json_len[i], i));
    (0..k)
        .map(|j| {
            let (lo, hi) = (j * of / k, (j + 1) * of / k);
            by_size[lo + g.below(hi - lo)]
        })
        .collect()
}

fn finish(events: &[Event], subset: Subset, of: usize, indices: Vec<usize>) -> Sequence {
    let mut h = Sha256::new();
    for &i in &indices {
        h.update(events[i].id);
    }
    let id = crate::model::hex::encode(&h.finalize()[..8]);
    Sequence {
        subset: subset.name(),
        of,
        indices,
        id,
    }
}

/// The kind of claim a group serves; its name is the `group` column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GroupKind {
    /// Encode, beside each profile's copy floor.
    Encode,
    /// Decode and decode+id, beside the clone floor.
    Decode,
    /// Validate, beside id+verify.
    Validate,
    /// Borrowed selects, beside select-raw-offset.
    Select,
    /// REQ filters scanned over stored records, beside filter-event.
    Filter,
    /// Framed streams and native batches.
    Window,
    /// zstd over framed windows.
    Compress,
    /// Validated ingest at each thread count.
    Ingest,
    /// REQ → EOSE over WebSocket, one compression mode per group.
    Transport(Compression),
}

impl GroupKind {
    /// The name results use (`encode`, `transport-deflate`, …), also the first
    /// half of [`Group::label`].
    pub fn name(self) -> &'static str {
        match self {
            GroupKind::Encode => "encode",
            GroupKind::Decode => "decode",
            GroupKind::Validate => "validate",
            GroupKind::Select => "select",
            GroupKind::Filter => "filter",
            GroupKind::Window => "window",
            GroupKind::Compress => "compress",
            GroupKind::Ingest => "ingest-mt",
            GroupKind::Transport(mode) => transport_workload(mode).name(),
        }
    }
}

/// Members timed together in interleaved rounds, on one subset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// What the group compares.
    pub kind: GroupKind,
    /// The subset whose [`Sequence`] every member's passes cover.
    pub subset: Subset,
    /// Members; each round runs one pass of each.
    pub members: Vec<BenchKey>,
}

/// One paired ratio: member `member` over member `against`, per round.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Index of the numerator in [`Group::members`].
    pub member: usize,
    /// Index of the denominator.
    pub against: usize,
    /// The `against` column: `json`, `copy`, `clone`, `decode`,
    /// `id+verify`, `select-raw-offset`, `filter-event` or `1-thread`.
    pub name: &'static str,
    /// The smallest ratio that can be true (an invariant), if any.
    pub min_ratio: Option<f64>,
}

impl Group {
    /// Label for progress lines.
    pub fn label(&self) -> String {
        format!("{}/{}", self.kind.name(), self.subset.name())
    }

    /// The paired ratios this group yields.
    pub fn comparisons(&self) -> Vec<Comparison> {
        let find = |w: Workload, profile: &str, threads: usize| {
            self.members
                .iter()
                .position(|k| k.workload == w && k.profile == profile && k.threads == threads)
        };
        let mut out = Vec::new();
        for (i, k) in self.members.iter().enumerate() {
            let mut push = |against: Option<usize>, name, min_ratio| {
                if let Some(against) = against {
                    out.push(Comparison {
                        member: i,
                        against,
                        name,
                        min_ratio,
                    });
                }
            };
            if k.profile != BASELINE && k.profile != REFERENCE && !k.workload.is_floor() {
                push(find(k.workload, BASELINE, k.threads), BASELINE, None);
            }
            match k.workload {
                Workload::Encode => push(find(Workload::Copy, k.profile, 1), "copy", None),
                Workload::Decode => push(find(Workload::Clone, REFERENCE, 1), "clone", None),
                Workload::DecodeId => {
                    push(find(Workload::Decode, k.profile, 1), "decode", Some(1.0))
                }
                Workload::Validate => {
                    push(
                        find(Workload::IdVerify, REFERENCE, 1),
                        "id+verify",
                        Some(1.0),
                    );
                }
                Workload::SelectChecked => push(
                    find(Workload::SelectRawOffset, REFERENCE, 1),
                    "select-raw-offset",
                    Some(1.0),
                ),
                Workload::SelectPreverified => push(
                    find(Workload::SelectRawOffset, REFERENCE, 1),
                    "select-raw-offset",
                    None,
                ),
                // Reading the records, then matching, costs at least the
                // matching alone.
                Workload::FilterChecked => push(
                    find(Workload::FilterEvent, REFERENCE, 1),
                    "filter-event",
                    Some(1.0),
                ),
                // json's filter pass is checked; a preverified view is still
                // compared with it.
                Workload::FilterPreverified => {
                    push(find(Workload::FilterChecked, BASELINE, 1), BASELINE, None);
                    push(
                        find(Workload::FilterEvent, REFERENCE, 1),
                        "filter-event",
                        Some(1.0),
                    );
                }
                // Time at N threads over time at 1: scaling <= N means >= 1/N.
                Workload::IngestMt if k.threads > 1 => push(
                    find(Workload::IngestMt, k.profile, 1),
                    "1-thread",
                    Some(1.0 / k.threads as f64),
                ),
                _ => {}
            }
        }
        out
    }
}

/// Every group over `profiles` on `subsets`; `ingest-mt` (at each of
/// `ingest_threads`), `filter` and `transport` on subset `all` only. Groups
/// without a profile member are left out.
pub fn plan(
    profiles: &[&'static Profile],
    subsets: &[Subset],
    ingest_threads: &[usize],
) -> Vec<Group> {
    let mut groups = Vec::new();
    for &subset in subsets {
        let key = |workload, profile, threads| BenchKey {
            workload,
            profile,
            subset,
            threads,
        };
        let each = |f: &dyn Fn(&'static Profile) -> Vec<BenchKey>| -> Vec<BenchKey> {
            profiles.iter().flat_map(|p| f(p)).collect()
        };
        let mut push = |kind, reference: Option<BenchKey>, members: Vec<BenchKey>| {
            if !members.is_empty() {
                groups.push(Group {
                    kind,
                    subset,
                    members: reference.into_iter().chain(members).collect(),
                });
            }
        };
        push(
            GroupKind::Encode,
            None,
            each(&|p| vec![key(Workload::Encode, p.id, 1), key(Workload::Copy, p.id, 1)]),
        );
        push(
            GroupKind::Decode,
            Some(key(Workload::Clone, REFERENCE, 1)),
            each(&|p| {
                vec![
                    key(Workload::Decode, p.id, 1),
                    key(Workload::DecodeId, p.id, 1),
                ]
            }),
        );
        push(
            GroupKind::Validate,
            Some(key(Workload::IdVerify, REFERENCE, 1)),
            each(&|p| vec![key(Workload::Validate, p.id, 1)]),
        );
        // A sub-stratum of kind-other serves the composed times only.
        if subset.is_within_other() {
            continue;
        }
        push(
            GroupKind::Select,
            Some(key(Workload::SelectRawOffset, REFERENCE, 1)),
            each(&|p| {
                p.codec
                    .borrowed()
                    .map(|b| key(select_workload(b.select_contract()), p.id, 1))
                    .into_iter()
                    .collect()
            }),
        );
        push(
            GroupKind::Window,
            None,
            each(&|p| {
                let batch = p.codec.batch().map(|_| key(Workload::Batch, p.id, 1));
                std::iter::once(key(Workload::Stream, p.id, 1))
                    .chain(batch)
                    .collect()
            }),
        );
        push(
            GroupKind::Compress,
            None,
            each(&|p| vec![key(Workload::Compress, p.id, 1)]),
        );
        // The WebSocket loop carries the stream that follows the traffic
        // mix: one group per compression mode, each profile's exchange
        // over an open connection, compared with json's in the same mode.
        if subset == Subset::Mix {
            for mode in Compression::ALL {
                push(
                    GroupKind::Transport(mode),
                    None,
                    each(&|p| vec![key(transport_workload(mode), p.id, 1)]),
                );
            }
        }
        // Scaling is a property of the profile and the host, not of a
        // subset: `ingest-mt` runs on `all` only.
        if subset == Subset::All {
            // A REQ scans the whole store with filters drawn from the whole
            // corpus, so `filter` also runs on `all` only.
            push(
                GroupKind::Filter,
                Some(key(Workload::FilterEvent, REFERENCE, 1)),
                each(&|p| {
                    let contract = p.codec.borrowed().map(|b| b.select_contract());
                    vec![key(filter_workload(contract), p.id, 1)]
                }),
            );
            push(
                GroupKind::Ingest,
                None,
                each(&|p| {
                    ingest_threads
                        .iter()
                        .map(|&t| key(Workload::IngestMt, p.id, t))
                        .collect()
                }),
            );
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles;

    #[test]
    fn sequences_are_stratified_and_seeded() {
        let events = crate::corpus::generate::generate(3, 300);
        let lens: Vec<usize> = events.iter().map(|e| e.to_json().len()).collect();
        let budget = |events, bytes| Budget { events, bytes };
        let mix = Mix::bigbrotr();
        let sequence = |e: &[Event], l: &[usize], s, b, seed| sequence(e, l, s, b, seed, &mix);
        let all = sequence(&events, &lens, Subset::All, budget(1_000, usize::MAX), 1);
        assert_eq!((all.len(), all.of), (300, 300));
        let a = sequence(&events, &lens, Subset::All, budget(30, usize::MAX), 1);
        let b = sequence(&events, &lens, Subset::All, budget(30, usize::MAX), 1);
        let c = sequence(&events, &lens, Subset::All, budget(30, usize::MAX), 2);
        assert_eq!(a, b);
        assert_ne!(a.indices, c.indices);
        assert_eq!(a.len(), 30);
        assert!(a.indices.windows(2).all(|w| w[0] < w[1]));
        // One event per size decile band: the largest stratum's pick is
        // among the 10 largest events.
        let mut sorted = lens.clone();
        sorted.sort_unstable();
        let biggest = a.indices.iter().map(|&i| lens[i]).max().unwrap();
        assert!(biggest >= sorted[290], "{biggest} vs {}", sorted[290]);
        let smallest = a.indices.iter().map(|&i| lens[i]).min().unwrap();
        assert!(smallest <= sorted[9]);
        // A byte budget of a tenth of the subset's bytes keeps a tenth of its
        // events.
        let total: usize = lens.iter().sum();
        let tenth = sequence(
            &events,
            &lens,
            Subset::All,
            budget(1_000, total.div_ceil(10)),
            1,
        );
        assert_eq!(tenth.len(), 30);
        let one = sequence(&events, &lens, Subset::All, budget(1_000, 1), 1);
        assert_eq!(one.len(), 1);
    }

    #[test]
    fn the_mix_stream_follows_the_shares_and_interleaves_kinds() {
        let events = crate::corpus::generate::generate(4, 3_000);
        let lens: Vec<usize> = events.iter().map(|e| e.to_json().len()).collect();
        let mix = Mix::bigbrotr();
        let budget = Budget {
            events: 400,
            bytes: usize::MAX,
        };
        let seq = sequence(&events, &lens, Subset::Mix, budget, 9, &mix);
        assert_eq!(
            (seq.subset.as_str(), seq.len(), seq.of),
            ("mix", 400, 3_000)
        );
        let mut distinct = seq.indices.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), 400, "no event repeats");
        for stratum in &mix.strata {
            let n = seq
                .indices
                .iter()
                .filter(|&&i| Subset::stratum(events[i].kind).name() == stratum.stratum)
                .count();
            let expected = stratum.share * 400.0;
            assert!(
                (n as f64 - expected).abs() <= 1.0,
                "{}: {n} vs {expected}",
                stratum.stratum
            );
        }
        assert!(
            !seq.indices.windows(2).all(|w| w[0] < w[1]),
            "shuffled, not corpus order"
        );
        assert_eq!(seq, sequence(&events, &lens, Subset::Mix, budget, 9, &mix));
        // A byte budget shrinks the stream, keeping the shares.
        let total: usize = seq.indices.iter().map(|&i| lens[i]).sum();
        let small = Budget {
            events: 400,
            bytes: total / 4,
        };
        let quarter = sequence(&events, &lens, Subset::Mix, small, 9, &mix);
        assert!((80..=120).contains(&quarter.len()), "{}", quarter.len());
    }

    #[test]
    fn every_group_member_has_its_comparisons() {
        let enabled: Vec<&'static Profile> = profiles::enabled().collect();
        let groups = plan(&enabled, &[Subset::All, Subset::Mix], &[1, 2]);
        for g in &groups {
            let c = g.comparisons();
            for (i, k) in g.members.iter().enumerate() {
                let against: Vec<&str> =
                    c.iter().filter(|c| c.member == i).map(|c| c.name).collect();
                let json_has_it = g.members.iter().any(|m| {
                    m.profile == BASELINE && m.workload == k.workload && m.threads == k.threads
                });
                if k.profile != BASELINE && json_has_it && !k.workload.is_floor() {
                    assert!(against.contains(&BASELINE), "{k}: {against:?}");
                }
                let floor = match k.workload {
                    Workload::Encode => Some("copy"),
                    Workload::Decode => Some("clone"),
                    Workload::DecodeId => Some("decode"),
                    Workload::Validate => Some("id+verify"),
                    Workload::SelectChecked | Workload::SelectPreverified => {
                        Some("select-raw-offset")
                    }
                    Workload::FilterChecked | Workload::FilterPreverified => Some("filter-event"),
                    Workload::IngestMt if k.threads == 2 => Some("1-thread"),
                    _ => None,
                };
                if let Some(f) = floor {
                    assert!(against.contains(&f), "{k}: {against:?}");
                }
            }
        }
        let filter = groups.iter().find(|g| g.kind == GroupKind::Filter).unwrap();
        assert_eq!(
            filter.members.len(),
            enabled.len() + 1,
            "every profile scans"
        );
        let c = filter.comparisons();
        for (i, k) in filter.members.iter().enumerate() {
            if k.profile != BASELINE && k.profile != REFERENCE {
                assert!(
                    c.iter().any(|c| c.member == i
                        && c.name == BASELINE
                        && filter.members[c.against].workload == Workload::FilterChecked),
                    "{k}: ratio to json's filter pass"
                );
            }
        }
        let validate = groups
            .iter()
            .find(|g| g.kind == GroupKind::Validate)
            .unwrap();
        assert_eq!(validate.members.len(), enabled.len() + 1);
        for mode in Compression::ALL {
            let w = transport_workload(mode);
            let g = groups
                .iter()
                .find(|g| g.kind == GroupKind::Transport(mode))
                .unwrap();
            assert_eq!(g.subset, Subset::Mix, "the socket carries the mix stream");
            assert_eq!(g.kind.name(), w.name());
            assert_eq!(g.members.len(), enabled.len(), "{w}: every profile");
            assert!(g.members.iter().all(|k| k.workload == w && k.threads == 1));
            let c = g.comparisons();
            assert_eq!(
                c.len(),
                enabled.len() - 1,
                "{w}: one ratio per non-json profile"
            );
            assert!(c.iter().all(|c| c.name == BASELINE
                && g.members[c.against].profile == BASELINE
                && g.members[c.against].workload == w));
        }
        let kinds = plan(&enabled, &[Subset::Kind(1), Subset::KindOther], &[1]);
        assert!(
            kinds
                .iter()
                .all(|g| !matches!(g.kind, GroupKind::Transport(_) | GroupKind::Filter)),
            "transport runs on `mix` only, filter on `all` only"
        );
        assert!(
            groups
                .iter()
                .filter(|g| g.subset == Subset::Mix)
                .all(|g| !matches!(g.kind, GroupKind::Filter | GroupKind::Ingest)),
            "filter and ingest-mt run on `all` only"
        );
        let within = plan(&enabled, &[Subset::Kind(4), Subset::KindOtherRest], &[1]);
        let kinds: Vec<(GroupKind, Subset)> = within.iter().map(|g| (g.kind, g.subset)).collect();
        assert_eq!(
            kinds,
            [Subset::Kind(4), Subset::KindOtherRest]
                .into_iter()
                .flat_map(|s| {
                    [GroupKind::Encode, GroupKind::Decode, GroupKind::Validate].map(|k| (k, s))
                })
                .collect::<Vec<_>>(),
            "a sub-stratum of kind-other times the composed workloads only"
        );
    }
}

//! Pass timing of one profile in a fresh process, for side-by-side runs
//! against another implementation (`docs/performance.md`).
//!
//! ```sh
//! cargo run --release --example pass_time -- MODE PROFILE EVENTS.jsonl [PASSES]
//! ```
//!
//! PROFILE is a registry id or a benchmark-only variant
//! (`binostr::profiles::protobuf::VARIANTS`: `protobuf/no-scan`,
//! `protobuf/no-packing`, `protobuf/neither`). MODE is `encode`, `decode`,
//! or their floors `copy` (the encoded record into the reused buffer) and
//! `clone` (`Event::clone`): each prints the ns/event of each of PASSES
//! timed passes, after every round trip is asserted and one warm-up pass.
//! `floors` runs PASSES paired rounds of all four (order rotated per round)
//! and prints `encode/copy decode/clone` per round. Or
//! `dump` (writes each record as a 4-byte big-endian length + bytes to
//! standard output, to compare bytes with the other implementation). A pass
//! is one call of the workload on every event of the file, in order: encode
//! appends to one reused buffer; decode builds an owned `Event` from each
//! record, with the default `Limits`.

use std::hint::black_box;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use binostr::codec::{Codec, Limits};
use binostr::model::Event;

/// The work of one pass.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Work {
    /// `Codec::encode` into the reused buffer.
    Encode,
    /// The encode floor: a copy of the record into the reused buffer.
    Copy,
    /// `Codec::decode` to an owned `Event`.
    Decode,
    /// The decode floor: `Event::clone`.
    Clone,
}

/// One pass: the only code between the two clock reads (and the function
/// to give `valgrind --toggle-collect`).
#[inline(never)]
fn timed_pass(
    codec: &dyn Codec,
    work: Work,
    events: &[Event],
    records: &[Vec<u8>],
    limits: &Limits,
    buf: &mut Vec<u8>,
) {
    match work {
        Work::Encode => {
            for e in events {
                buf.clear();
                codec.encode(black_box(e), buf).expect("checked");
                black_box(&buf);
            }
        }
        Work::Copy => {
            for r in records {
                buf.clear();
                buf.extend_from_slice(black_box(r));
                black_box(&buf);
            }
        }
        Work::Decode => {
            for r in records {
                black_box(codec.decode(black_box(r), limits).expect("checked"));
            }
        }
        Work::Clone => {
            for e in events {
                black_box(black_box(e).clone());
            }
        }
    }
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [mode, profile, path, rest @ ..] = args.as_slice() else {
        bail!(
            "usage: pass_time encode|decode|copy|clone|floors|dump PROFILE EVENTS.jsonl [PASSES]"
        );
    };
    let codec: &dyn Codec = match binostr::profiles::find(profile) {
        Some(p) => p.codec,
        None => binostr::profiles::protobuf::VARIANTS
            .iter()
            .find(|(name, _)| name == profile)
            .map(|(_, v)| v as &dyn Codec)
            .with_context(|| format!("unknown profile `{profile}`"))?,
    };
    let limits = Limits::default();
    let events = binostr::campaign::load_corpus(Path::new(path))?;
    let records: Vec<Vec<u8>> = events
        .iter()
        .map(|e| {
            let mut out = Vec::new();
            codec.encode(e, &mut out).map(|()| out)
        })
        .collect::<Result<_, _>>()?;
    for (i, (e, r)) in events.iter().zip(&records).enumerate() {
        let back = codec
            .decode(r, &limits)
            .map_err(|err| anyhow::anyhow!("{err}"))?;
        if &back != e {
            bail!("event {i}: round trip differs");
        }
    }
    if mode == "dump" {
        let mut out = std::io::stdout().lock();
        for r in &records {
            out.write_all(&u32::try_from(r.len())?.to_be_bytes())?;
            out.write_all(r)?;
        }
        return Ok(());
    }
    let passes: usize = rest.first().map_or(Ok(10), |p| p.parse())?;
    let mut buf = Vec::with_capacity(1 << 16);
    let mut pass = |work| {
        let start = Instant::now();
        timed_pass(codec, work, &events, &records, &limits, &mut buf);
        start.elapsed().as_nanos() as f64 / events.len() as f64
    };
    let work = match mode.as_str() {
        "encode" => Work::Encode,
        "decode" => Work::Decode,
        "copy" => Work::Copy,
        "clone" => Work::Clone,
        "floors" => {
            // Paired rounds: each round runs the four passes in an order
            // rotated per round and prints encode/copy and decode/clone.
            let all = [Work::Encode, Work::Copy, Work::Decode, Work::Clone];
            for w in all {
                pass(w);
            }
            for round in 0..passes {
                let mut t = [0.0; 4];
                for k in 0..4 {
                    let i = (round + k) % 4;
                    t[i] = pass(all[i]);
                }
                println!("{:.4} {:.4}", t[0] / t[1], t[2] / t[3]);
            }
            return Ok(());
        }
        _ => bail!("unknown mode `{mode}`"),
    };
    pass(work);
    let times: Vec<String> = (0..passes).map(|_| format!("{:.1}", pass(work))).collect();
    println!("{}", times.join(" "));
    Ok(())
}

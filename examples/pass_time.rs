//! Pass timing of one profile in a fresh process, for side-by-side runs
//! against another implementation (`docs/performance.md`).
//!
//! ```sh
//! cargo run --release --example pass_time -- MODE PROFILE EVENTS.jsonl [PASSES]
//! ```
//!
//! PROFILE is a registry id or a benchmark-only variant
//! (`binostr::profiles::protobuf::VARIANTS`: `protobuf/no-scan`,
//! `protobuf/no-packing`, `protobuf/neither`). MODE is `encode` or `decode` (prints the ns/event of each of PASSES timed
//! passes, after every round trip is asserted and one warm-up pass), or
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

/// One pass: the only code between the two clock reads (and the function
/// to give `valgrind --toggle-collect`).
#[inline(never)]
fn timed_pass(
    codec: &dyn Codec,
    encode: bool,
    events: &[Event],
    records: &[Vec<u8>],
    limits: &Limits,
    buf: &mut Vec<u8>,
) {
    if encode {
        for e in events {
            buf.clear();
            codec.encode(black_box(e), buf).expect("checked");
            black_box(&buf);
        }
    } else {
        for r in records {
            black_box(codec.decode(black_box(r), limits).expect("checked"));
        }
    }
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [mode, profile, path, rest @ ..] = args.as_slice() else {
        bail!("usage: pass_time encode|decode|dump PROFILE EVENTS.jsonl [PASSES]");
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
    if mode != "encode" && mode != "decode" {
        bail!("unknown mode `{mode}`");
    }
    let passes: usize = rest.first().map_or(Ok(10), |p| p.parse())?;
    let encode = mode == "encode";
    let mut buf = Vec::with_capacity(1 << 16);
    let mut pass = || {
        let start = Instant::now();
        timed_pass(codec, encode, &events, &records, &limits, &mut buf);
        start.elapsed().as_nanos() as f64 / events.len() as f64
    };
    pass();
    let times: Vec<String> = (0..passes).map(|_| format!("{:.1}", pass())).collect();
    println!("{}", times.join(" "));
    Ok(())
}

//! Counts allocations per event for `binostr campaign`. The counting global
//! allocator lives only in this binary, so it never slows the timing
//! processes. Usage: `binostr-alloc-probe --corpus FILE --profiles A,B --out
//! alloc.csv`.

use std::alloc::System;

use anyhow::{Context, Result, bail};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

fn main() {
    if let Err(e) = run() {
        eprintln!("binostr-alloc-probe: {e:#}");
        std::process::exit(1);
    }
}

fn run() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (corpus, ids, out) = match args.as_slice() {
        [a, corpus, p, ids, b, out] if a == "--corpus" && p == "--profiles" && b == "--out" => {
            (corpus, ids, out)
        }
        _ => bail!("usage: binostr-alloc-probe --corpus FILE --profiles A,B --out FILE"),
    };
    let fixture = binostr::campaign::child::alloc_fixture(corpus.as_ref(), ids)?;
    let rows = binostr::bench::probe::alloc_rows(&fixture, &|work| {
        let region = Region::new(GLOBAL);
        work();
        let s = region.change();
        (
            (s.allocations + s.reallocations) as u64,
            (s.bytes_allocated + s.bytes_reallocated.max(0) as usize) as u64,
        )
    });
    binostr::files::write_atomically(out.as_ref(), binostr::campaign::child::alloc_csv(&rows))
        .with_context(|| format!("writing {out}"))
}

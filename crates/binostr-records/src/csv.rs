//! Every CSV a campaign run writes (`run-K/*.csv`, `docs/RESULTS.md`), the
//! per-profile tables of the evolution and maintenance suites, and the
//! interop files the report reads, as data: the writer emits each header
//! from its [`Layout`], the reader checks it and types each column.

/// A column's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnType {
    /// Text.
    Str,
    /// Signed 64-bit integer.
    Int,
    /// 64-bit float; an empty cell is missing.
    Real,
}

/// One column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    /// Header name.
    pub name: &'static str,
    /// Type.
    pub ty: ColumnType,
}

/// One CSV file: its name and its columns, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// File name inside `run-K/`; a path from the repository root for the
    /// suites' tables; a pattern for the interop files.
    pub file: &'static str,
    /// Columns in order.
    pub columns: &'static [Column],
}

impl Layout {
    /// The header line, without its newline.
    pub fn header(&self) -> String {
        let names: Vec<&str> = self.columns.iter().map(|c| c.name).collect();
        names.join(",")
    }

    /// The header line with its newline: how a file starts.
    pub fn header_line(&self) -> String {
        self.header() + "\n"
    }

    /// Columns per row.
    pub fn width(&self) -> usize {
        self.columns.len()
    }

    /// Whether `row` (one line, no quoting) has one cell per column.
    pub fn fits(&self, row: &str) -> bool {
        row.trim_end_matches('\n').split(',').count() == self.width()
    }
}

const fn col(name: &'static str, ty: ColumnType) -> Column {
    Column { name, ty }
}

use ColumnType::{Int, Real, Str};

/// `samples.csv`: one row per member and Criterion sample.
pub const SAMPLES: Layout = Layout {
    file: "samples.csv",
    columns: &[
        col("workload", Str),
        col("profile", Str),
        col("subset", Str),
        col("threads", Int),
        col("sample", Int),
        col("iters", Int),
        col("total_ns", Real),
        col("events_per_iter", Int),
        col("sequence", Str),
    ],
};

/// `ratios.csv`: the paired ratio of every comparison in every round.
pub const RATIOS: Layout = Layout {
    file: "ratios.csv",
    columns: &[
        col("workload", Str),
        col("profile", Str),
        col("subset", Str),
        col("threads", Int),
        col("against", Str),
        col("round", Int),
        col("ratio", Real),
        col("min_ratio", Real),
    ],
};

/// `rounds.csv`: every pass of every interleaved round.
pub const ROUNDS: Layout = Layout {
    file: "rounds.csv",
    columns: &[
        col("group", Str),
        col("subset", Str),
        col("round", Int),
        col("sample", Int),
        col("position", Int),
        col("workload", Str),
        col("profile", Str),
        col("threads", Int),
        col("events", Int),
        col("ns", Real),
    ],
};

/// `instructions.csv` (optional): callgrind instruction counts.
pub const INSTRUCTIONS: Layout = Layout {
    file: "instructions.csv",
    columns: &[
        col("workload", Str),
        col("profile", Str),
        col("subset", Str),
        col("events", Int),
        col("passes", Int),
        col("instructions", Real),
    ],
};

/// `sizes.csv`: encoded sizes per profile and subset.
pub const SIZES: Layout = Layout {
    file: "sizes.csv",
    columns: &[
        col("profile", Str),
        col("subset", Str),
        col("events", Int),
        col("raw_bytes", Int),
        col("framed_bytes", Int),
        col("zstd_event_bytes", Int),
        col("zstd_stream_bytes", Int),
        col("zstd_dict_bytes", Int),
        col("deflate_event_bytes", Int),
        col("deflate_stream_bytes", Int),
    ],
};

/// `sizes.csv` as campaigns wrote it before its two deflate columns; readers
/// accept it and report deflate as not measured.
pub const SIZES_WITHOUT_DEFLATE: Layout = Layout {
    file: "sizes.csv",
    columns: SIZES.columns.split_at(8).0,
};

/// Earlier layouts of the same files that readers still accept, newest
/// first after the current one.
pub fn superseded(layout: &Layout) -> impl Iterator<Item = Layout> + '_ {
    [SIZES_WITHOUT_DEFLATE]
        .into_iter()
        .filter(move |old| old.file == layout.file && old != layout)
}

/// `follow-lists.csv`: generated kind-3 follow lists at each median tag
/// count, the input of the mix sensitivity.
pub const FOLLOW_LISTS: Layout = Layout {
    file: "follow-lists.csv",
    columns: &[
        col("profile", Str),
        col("median_tags", Int),
        col("events", Int),
        col("raw_bytes", Int),
        col("zstd_event_bytes", Int),
        col("deflate_event_bytes", Int),
    ],
};

/// `latency.csv`: per-event latency percentiles.
pub const LATENCY: Layout = Layout {
    file: "latency.csv",
    columns: &[
        col("workload", Str),
        col("profile", Str),
        col("events", Int),
        col("timer_overhead_ns", Real),
        col("p50_ns", Real),
        col("p90_ns", Real),
        col("p99_ns", Real),
        col("p999_ns", Real),
        col("max_ns", Real),
    ],
};

/// `transport.csv`: the WebSocket loop per profile, mode and check (also
/// written by `binostr transport`).
pub const TRANSPORT: Layout = Layout {
    file: "transport.csv",
    columns: &[
        col("profile", Str),
        col("mode", Str),
        col("check", Str),
        col("events", Int),
        col("s2c_bytes_per_event", Real),
        col("c2s_bytes_per_event", Real),
        col("s2c_bytes", Int),
        col("c2s_bytes", Int),
        col("handshake_s2c_bytes", Int),
        col("handshake_c2s_bytes", Int),
        col("model_s2c_bytes", Int),
        col("model_c2s_bytes", Int),
        col("events_per_s", Real),
        col("events_per_s_lo", Real),
        col("events_per_s_hi", Real),
        col("speed_vs_json", Real),
        col("speed_vs_json_lo", Real),
        col("speed_vs_json_hi", Real),
        // Named `latency`, kept for the committed records: the send → receive
        // time of each event inside an unpaced answer, mostly queueing
        // (docs/TRANSPORT.md, "What the latency columns measure").
        col("latency_p50_ns", Real),
        col("latency_p99_ns", Real),
        col("relay_cpu_ns_per_event", Real),
        col("client_cpu_ns_per_event", Real),
    ],
};

/// `results/links/links.csv`: the transport loop on shaped links, one row
/// per (profile, mode, link, round-trip time) (`binostr links`,
/// docs/TRANSPORT.md "Links"). Times are REQ sent → EOSE received; a
/// `modelled` row adds the slow-start model's delay to the measured times.
pub const LINKS: Layout = Layout {
    file: "results/links/links.csv",
    columns: &[
        col("profile", Str),
        col("mode", Str),
        // The deflater and level of the deflate modes (`zlib-1`: C zlib,
        // level 1); empty for `none`.
        col("deflate_impl", Str),
        col("link", Str),
        // Empty when unshaped.
        col("rate_mbit", Real),
        col("rtt_ms", Real),
        // `measured` (no delay added) or `modelled`.
        col("rtt_source", Str),
        col("events", Int),
        col("rounds", Int),
        col("s2c_bytes", Int),
        col("c2s_bytes", Int),
        col("req_eose_s", Real),
        col("req_eose_s_lo", Real),
        col("req_eose_s_hi", Real),
        // Per-round time ratio to json in the same mode.
        col("time_vs_json", Real),
        col("time_vs_json_lo", Real),
        col("time_vs_json_hi", Real),
        // Per-round time ratio to json with deflate (the deployed default).
        col("time_vs_json_deflate", Real),
        col("time_vs_json_deflate_lo", Real),
        col("time_vs_json_deflate_hi", Real),
        // Thread CPU per event: median over rounds and its 95 % CI.
        col("relay_cpu_ns_per_event", Real),
        col("relay_cpu_ns_per_event_lo", Real),
        col("relay_cpu_ns_per_event_hi", Real),
        col("client_cpu_ns_per_event", Real),
        col("client_cpu_ns_per_event_lo", Real),
        col("client_cpu_ns_per_event_hi", Real),
        // EVENT → OK, one event at a time on one connection: events
        // published per round, then the per-round mean time per event
        // (measured from a full token bucket, plus the modelled
        // serialisation of the EVENT and its OK and, in `modelled` rows,
        // the round trip).
        col("published", Int),
        col("event_ok_s", Real),
        col("event_ok_s_lo", Real),
        col("event_ok_s_hi", Real),
        // Mean socket bytes of one EVENT (client → relay) and its OK.
        col("event_c2s_bytes", Real),
        col("ok_s2c_bytes", Real),
        // Relay CPU from EVENT taken to OK flushed (decode, id, signature,
        // answer); client CPU from encode to OK.
        col("event_relay_cpu_ns", Real),
        col("event_relay_cpu_ns_lo", Real),
        col("event_relay_cpu_ns_hi", Real),
        col("event_client_cpu_ns", Real),
        col("event_client_cpu_ns_lo", Real),
        col("event_client_cpu_ns_hi", Real),
    ],
};

/// `alloc.csv`: allocation counts per workload.
pub const ALLOC: Layout = Layout {
    file: "alloc.csv",
    columns: &[
        col("workload", Str),
        col("profile", Str),
        col("events", Int),
        col("allocs", Int),
        col("alloc_bytes", Int),
    ],
};

/// `rss.csv`: peak resident set per workload.
pub const RSS: Layout = Layout {
    file: "rss.csv",
    columns: &[
        col("workload", Str),
        col("profile", Str),
        col("baseline_kib", Int),
        col("peak_kib", Int),
    ],
};

/// Every layout of `run-K/` (and of `run-K/apart-ID/`), in this order.
pub const RUN: [Layout; 9] = [
    SAMPLES,
    RATIOS,
    ROUNDS,
    INSTRUCTIONS,
    SIZES,
    LATENCY,
    TRANSPORT,
    ALLOC,
    RSS,
];

/// `results/interop/<language>.csv`: another language's decode timings
/// (written by `scripts/interop`).
pub const INTEROP_TIMINGS: Layout = Layout {
    file: "<language>.csv",
    columns: &[
        col("language", Str),
        col("format", Str),
        col("library", Str),
        col("version", Str),
        col("ns_per_event", Real),
        col("events", Int),
    ],
};

/// `results/interop/checks-<language>.csv`: another language's checks of
/// the interop vectors (written by `scripts/interop`).
pub const INTEROP_CHECKS: Layout = Layout {
    file: "checks-<language>.csv",
    columns: &[
        col("profile", Str),
        col("library", Str),
        col("version", Str),
        col("vectors", Str),
        col("decode_ok", Str),
        col("reencode", Str),
        col("rust_decodes", Str),
        col("status", Str),
        col("reason", Str),
    ],
};

/// `results/maintenance/maintenance.csv` (`binostr maintenance`): one row
/// per profile.
pub const MAINTENANCE: Layout = Layout {
    file: "results/maintenance/maintenance.csv",
    columns: &[
        col("profile", Str),
        col("module_lines", Int),
        col("generated_lines", Int),
        col("crates", Int),
        col("schema_compiler", Str),
        col("ecosystems", Int),
        col("spec_status", Str),
        col("spec_ref", Str),
        col("enabled", Str),
        col("languages", Str),
        col("test_lines", Int),
        col("shared_lines", Int),
        col("build_crates", Int),
    ],
};

/// `results/evolution/evolution.csv` (`binostr evolution`): one row per
/// profile; these columns, then one `range_<case>` column per range case
/// (the suite's list, so not part of the fixed layout).
pub const EVOLUTION: Layout = Layout {
    file: "results/evolution/evolution.csv",
    columns: &[
        col("profile", Str),
        col("enabled", Str),
        col("forward_field", Str),
        col("forward_element", Str),
        col("backward", Str),
        col("version", Str),
        col("unknown_version", Str),
    ],
};

/// `results/valid/cases.csv` (`binostr corpus valid`): one row per awkward
/// but valid event of `vectors/valid-awkward.jsonl`, in file order.
pub const VALID_CASES: Layout = Layout {
    file: "results/valid/cases.csv",
    columns: &[col("case", Str), col("event_id", Str)],
};

/// `results/valid/refusals.csv` (`binostr corpus valid`): one row per
/// profile and awkward event it refuses to encode, with the encoder's
/// reason (RFC 4180 quoting).
pub const VALID_REFUSALS: Layout = Layout {
    file: "results/valid/refusals.csv",
    columns: &[
        col("profile", Str),
        col("case", Str),
        col("event_id", Str),
        col("reason", Str),
    ],
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_the_documented_lines() {
        assert_eq!(
            SAMPLES.header_line(),
            "workload,profile,subset,threads,sample,iters,total_ns,events_per_iter,sequence\n"
        );
        assert_eq!(RSS.header(), "workload,profile,baseline_kib,peak_kib");
        assert!(ALLOC.fits("decode,json,1,2,3\n"));
        assert!(!ALLOC.fits("decode,json,1,2"));
    }

    #[test]
    fn file_names_and_columns_are_unique() {
        let mut files: Vec<&str> = RUN.iter().map(|l| l.file).collect();
        files.sort_unstable();
        files.dedup();
        assert_eq!(files.len(), RUN.len());
        for l in RUN.iter().chain([&INTEROP_TIMINGS, &INTEROP_CHECKS]) {
            let mut names: Vec<&str> = l.columns.iter().map(|c| c.name).collect();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), l.width(), "{}", l.file);
        }
    }
}

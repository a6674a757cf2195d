//! `transport.csv` over runs: bytes on the wire (exact, checked against the
//! flate2 model and across runs) and the loop's speed, latency and CPU per
//! event (medians over runs).

use anyhow::{Result, bail};
use polars::prelude::*;

use binostr_records::Workload;

use crate::read::frame::{f64s, i64s, strs};
use crate::read::records::{self, Run, Scan as _};

/// A compression mode of the WebSocket loop (`transport.csv`'s `mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mode {
    /// Plain WebSocket, no compression.
    None,
    /// permessage-deflate without context takeover.
    Deflate,
    /// permessage-deflate with context takeover.
    DeflateCtx,
}

impl Mode {
    /// Every mode, in the order tables list them.
    pub const ALL: [Mode; 3] = [Mode::None, Mode::Deflate, Mode::DeflateCtx];

    /// Its name in `transport.csv` and `links.csv`.
    pub const fn name(self) -> &'static str {
        match self {
            Mode::None => "none",
            Mode::Deflate => "deflate",
            Mode::DeflateCtx => "deflate-ctx",
        }
    }

    /// The mode named `name`.
    pub fn from_name(name: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.name() == name)
    }

    /// Its timed campaign workload (`transport-*` groups).
    pub const fn workload(self) -> Workload {
        match self {
            Mode::None => Workload::TransportPlain,
            Mode::Deflate => Workload::TransportDeflate,
            Mode::DeflateCtx => Workload::TransportDeflateCtx,
        }
    }
}

/// One value per [`Mode`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PerMode<T> {
    /// [`Mode::None`].
    pub none: T,
    /// [`Mode::Deflate`].
    pub deflate: T,
    /// [`Mode::DeflateCtx`].
    pub deflate_ctx: T,
}

impl<T> PerMode<T> {
    /// `f` of each mode.
    pub fn from_fn(mut f: impl FnMut(Mode) -> T) -> Self {
        PerMode {
            none: f(Mode::None),
            deflate: f(Mode::Deflate),
            deflate_ctx: f(Mode::DeflateCtx),
        }
    }

    /// The value of `mode`.
    pub fn get(&self, mode: Mode) -> &T {
        match mode {
            Mode::None => &self.none,
            Mode::Deflate => &self.deflate,
            Mode::DeflateCtx => &self.deflate_ctx,
        }
    }

    /// The value of `mode`, to change.
    pub fn get_mut(&mut self, mode: Mode) -> &mut T {
        match mode {
            Mode::None => &mut self.none,
            Mode::Deflate => &mut self.deflate,
            Mode::DeflateCtx => &mut self.deflate_ctx,
        }
    }

    /// Each mode with its value, in [`Mode::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (Mode, &T)> {
        Mode::ALL.into_iter().map(move |m| (m, self.get(m)))
    }
}

impl<T> PerMode<Option<T>> {
    /// Every mode's value, when each has one.
    pub fn all(self) -> Option<PerMode<T>> {
        Some(PerMode {
            none: self.none?,
            deflate: self.deflate?,
            deflate_ctx: self.deflate_ctx?,
        })
    }
}

/// One profile, mode and check on one host.
#[derive(Clone, Debug, PartialEq)]
pub struct Transport {
    /// Host id.
    pub host: String,
    /// Profile id.
    pub profile: String,
    /// `none`, `deflate` or `deflate-ctx`.
    pub mode: String,
    /// `decode` or `validate`.
    pub check: String,
    /// Runs with the row.
    pub runs: usize,
    /// Events per exchange.
    pub events: u64,
    /// Relay → client socket bytes per event (frame headers included,
    /// handshake excluded); the same in every run.
    pub s2c_bytes_per_event: f64,
    /// Client → relay socket bytes per event.
    pub c2s_bytes_per_event: f64,
    /// Median over runs of events/s end to end.
    pub events_per_s: f64,
    /// Median over runs of the per-round events/s ratio to json (NaN for
    /// json).
    pub speed_vs_json: f64,
    /// Median over runs of the p50 send → receive time per event, ns
    /// (`latency_*` columns: mostly queueing behind earlier events of the
    /// same REQ, docs/TRANSPORT.md).
    pub latency_p50_ns: f64,
    /// The same at p99.
    pub latency_p99_ns: f64,
    /// Median over runs of the relay's CPU ns per event.
    pub relay_cpu_ns: f64,
    /// Median over runs of the client's CPU ns per event.
    pub client_cpu_ns: f64,
}

/// The transport rows of `runs`, sorted by host, profile, mode, check;
/// empty when no run has `transport.csv`. Socket bytes that differ from
/// the flate2 model, or between runs, are an error: both are exact.
pub fn read(runs: &[Run]) -> Result<Vec<Transport>> {
    let Some(lf) = records::TRANSPORT.scan(runs)? else {
        return Ok(Vec::new());
    };
    let df = lf.collect()?;
    check_model(&df)?;
    let df = per_key(df)?;
    let text = |c: &str| strs(&df, c);
    let (host, profile, mode, check) = (
        text("host")?,
        text("profile")?,
        text("mode")?,
        text("check")?,
    );
    let int = |c: &str| i64s(&df, c);
    let (runs, events_min, events_max) = (int("runs")?, int("events_min")?, int("events_max")?);
    let (s2c_min, s2c_max, c2s_min, c2s_max) = (
        int("s2c_min")?,
        int("s2c_max")?,
        int("c2s_min")?,
        int("c2s_max")?,
    );
    let real = |c: &str| f64s(&df, c);
    let (eps, vs_json) = (real("events_per_s")?, real("speed_vs_json")?);
    let (p50, p99) = (real("latency_p50_ns")?, real("latency_p99_ns")?);
    let (relay, client) = (
        real("relay_cpu_ns_per_event")?,
        real("client_cpu_ns_per_event")?,
    );
    (0..df.height())
        .map(|i| {
            if events_min[i] != events_max[i] || s2c_min[i] != s2c_max[i] || c2s_min[i] != c2s_max[i] {
                bail!(
                    "transport.csv on {}, {} {} {}: events or socket bytes differ between runs ({}..{} events, {}..{} bytes relay→client)",
                    host[i],
                    profile[i],
                    mode[i],
                    check[i],
                    events_min[i],
                    events_max[i],
                    s2c_min[i],
                    s2c_max[i]
                );
            }
            let events = u64::try_from(events_min[i]).unwrap_or(0).max(1);
            Ok(Transport {
                host: host[i].clone(),
                profile: profile[i].clone(),
                mode: mode[i].clone(),
                check: check[i].clone(),
                runs: usize::try_from(runs[i]).unwrap_or(0),
                events,
                s2c_bytes_per_event: s2c_min[i] as f64 / events as f64,
                c2s_bytes_per_event: c2s_min[i] as f64 / events as f64,
                events_per_s: eps[i],
                speed_vs_json: vs_json[i],
                latency_p50_ns: p50[i],
                latency_p99_ns: p99[i],
                relay_cpu_ns: relay[i],
                client_cpu_ns: client[i],
            })
        })
        .collect()
}

/// Fails on a row whose socket bytes differ from the flate2 model's.
fn check_model(df: &DataFrame) -> Result<()> {
    let (s2c, model_s2c) = (i64s(df, "s2c_bytes")?, i64s(df, "model_s2c_bytes")?);
    let (c2s, model_c2s) = (i64s(df, "c2s_bytes")?, i64s(df, "model_c2s_bytes")?);
    let (run, profile, mode) = (strs(df, "run")?, strs(df, "profile")?, strs(df, "mode")?);
    for i in 0..df.height() {
        if s2c[i] != model_s2c[i] || c2s[i] != model_c2s[i] {
            bail!(
                "{}: transport.csv, {} {}: socket bytes {}/{} (relay→client/client→relay), the flate2 model {}/{}",
                run[i],
                profile[i],
                mode[i],
                s2c[i],
                c2s[i],
                model_s2c[i],
                model_c2s[i]
            );
        }
    }
    Ok(())
}

/// Per host, profile, mode and check: runs, the range of events and
/// socket bytes over runs, and the medians of the timed columns.
fn per_key(df: DataFrame) -> Result<DataFrame> {
    let keys = ["host", "profile", "mode", "check"];
    let median = |c: &str| col(c).median().alias(c);
    Ok(df
        .lazy()
        .group_by(keys.map(col))
        .agg([
            col("run").n_unique().cast(DataType::Int64).alias("runs"),
            col("events").min().alias("events_min"),
            col("events").max().alias("events_max"),
            col("s2c_bytes").min().alias("s2c_min"),
            col("s2c_bytes").max().alias("s2c_max"),
            col("c2s_bytes").min().alias("c2s_min"),
            col("c2s_bytes").max().alias("c2s_max"),
            median("events_per_s"),
            median("speed_vs_json"),
            median("latency_p50_ns"),
            median("latency_p99_ns"),
            median("relay_cpu_ns_per_event"),
            median("client_cpu_ns_per_event"),
        ])
        .sort(keys, SortMultipleOptions::default())
        .collect()?)
}

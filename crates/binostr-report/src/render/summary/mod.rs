//! `summary/`: `summary.csv`, `summary.json` and `summary.md` (every row of
//! every host, with the claims, checks and side measurements), and
//! `ratios.csv` (every paired ratio).

mod apart;
mod cost;
mod csv;
mod host;
mod instructions;
mod json;
mod links;
mod md;
mod relay;
mod strata;
mod table;

pub use cost::{COST_HEADER, cost_csv};
pub use csv::{RATIOS_HEADER, SUMMARY_HEADER, ratios_csv, summary_csv};
pub use json::summary_json;
pub use md::summary_md;

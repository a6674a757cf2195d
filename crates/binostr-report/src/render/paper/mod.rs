//! `paper/generated/`: `macros.tex` and the pgfplots tables, for the primary
//! host (see [`crate::Campaign::primary_host`]).

mod costmap;
mod facts;
mod links;
mod macros;
pub mod recommend;
mod strata;
mod tables;

use anyhow::Result;

use crate::model::analysis::Analysis;
use macros::macros;
use tables::{
    apart_csv, compress_csv, evolution_csv, filter_csv, floors_csv, instructions_csv, interop_csv,
    kinds_csv, latency_csv, maintenance_csv, matrix_csv, profiles_csv, reference_csv,
    robustness_csv, sizes_csv, speed_csv, transport_csv,
};

/// File name and contents of every file in `paper/generated/`.
pub fn render(a: &Analysis) -> Result<Vec<(String, String)>> {
    let (c, decisions) = (a.campaign, &a.decisions);
    let files: Vec<(&str, String)> = vec![
        ("macros.tex", macros(c, decisions)?),
        (
            "recommendation.tex",
            recommend::recommendation_tex(decisions),
        ),
        ("scorecard.csv", recommend::scorecard_csv(decisions)),
        ("sizes.csv", sizes_csv(c)),
        ("speed.csv", speed_csv(c)),
        ("floors.csv", floors_csv(c)),
        ("instructions.csv", instructions_csv(c)),
        ("latency.csv", latency_csv(c)),
        ("filter.csv", filter_csv(c)),
        ("transport.csv", transport_csv(c)),
        ("links.csv", links::links_csv(c)),
        ("apart.csv", apart_csv(c)),
        ("kinds.csv", kinds_csv(c)),
        ("compress.csv", compress_csv(c)),
        ("profiles.csv", profiles_csv(c)),
        ("robustness.csv", robustness_csv(c)),
        ("interop.csv", interop_csv(c)),
        ("interop-matrix.csv", matrix_csv(&a.languages)),
        ("reference.csv", reference_csv(c)),
        ("evolution.csv", evolution_csv(c)),
        ("maintenance.csv", maintenance_csv(c)),
        ("strata.csv", strata::strata_csv(c)),
        ("composed.csv", strata::composed_csv(c)),
        ("sensitivity.csv", strata::sensitivity_csv(c)),
        ("sensitivity-spans.csv", strata::sensitivity_spans_csv(c)),
    ];
    let mut out: Vec<(String, String)> = files
        .into_iter()
        .map(|(name, text)| (name.to_owned(), text))
        .collect();
    out.extend(costmap::files(a));
    Ok(out)
}

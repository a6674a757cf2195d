//! Columns of a collected Polars frame as plain vectors.

use anyhow::{Context, Result};
use polars::prelude::*;

/// A text column; nulls become empty strings.
pub fn strs(df: &DataFrame, name: &str) -> Result<Vec<String>> {
    let c = df.column(name).with_context(|| format!("column {name}"))?;
    Ok(c.str()?
        .into_iter()
        .map(|v| v.unwrap_or_default().to_owned())
        .collect())
}

/// An integer column; nulls become 0.
pub fn i64s(df: &DataFrame, name: &str) -> Result<Vec<i64>> {
    let c = df.column(name).with_context(|| format!("column {name}"))?;
    let c = c.cast(&DataType::Int64)?;
    Ok(c.i64()?.into_iter().map(|v| v.unwrap_or_default()).collect())
}

/// A real column; nulls become `NaN`.
pub fn f64s(df: &DataFrame, name: &str) -> Result<Vec<f64>> {
    let c = df.column(name).with_context(|| format!("column {name}"))?;
    let c = c.cast(&DataType::Float64)?;
    Ok(c.f64()?.into_iter().map(|v| v.unwrap_or(f64::NAN)).collect())
}

//! Columns of a collected Polars frame as plain vectors.

use anyhow::{Result, anyhow};
use polars::prelude::*;

fn column(df: &DataFrame, name: &str, dtype: &DataType) -> Result<Column> {
    let c = df.column(name).map_err(|e| anyhow!("column {name}: {e}"))?;
    Ok(c.cast(dtype)?)
}

/// A text column; nulls become empty strings.
pub fn strs(df: &DataFrame, name: &str) -> Result<Vec<String>> {
    let c = column(df, name, &DataType::String)?;
    let ca = c.str()?;
    Ok((0..ca.len())
        .map(|i| ca.get(i).unwrap_or_default().to_owned())
        .collect())
}

/// An integer column; nulls become 0.
pub fn i64s(df: &DataFrame, name: &str) -> Result<Vec<i64>> {
    let c = column(df, name, &DataType::Int64)?;
    let ca = c.i64()?;
    Ok((0..ca.len())
        .map(|i| ca.get(i).unwrap_or_default())
        .collect())
}

/// A real column; nulls become `NaN`.
pub fn f64s(df: &DataFrame, name: &str) -> Result<Vec<f64>> {
    let c = column(df, name, &DataType::Float64)?;
    let ca = c.f64()?;
    Ok((0..ca.len())
        .map(|i| ca.get(i).unwrap_or(f64::NAN))
        .collect())
}

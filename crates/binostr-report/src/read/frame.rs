//! Columns of a collected Polars frame as plain vectors, and the per-run
//! medians of a run-record table.

use anyhow::{Result, anyhow};
use binostr_records::csv::Layout;
use polars::prelude::*;

use crate::read::records::{Run, Scan as _};

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

/// One group of [`medians`]: its host, key cells and value medians, each
/// by column name.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyedValues {
    /// The host.
    pub host: String,
    keys: Vec<(String, String)>,
    values: Vec<(String, f64)>,
}

impl KeyedValues {
    /// The cell of key column `column` (empty when it was not asked for).
    pub fn key(&self, column: &str) -> String {
        self.keys
            .iter()
            .find(|(c, _)| c == column)
            .map_or_else(String::new, |(_, v)| v.clone())
    }

    /// The median of value column `column` (`NaN` when it was not asked for).
    pub fn value(&self, column: &str) -> f64 {
        self.values
            .iter()
            .find(|(c, _)| c == column)
            .map_or(f64::NAN, |(_, v)| *v)
    }
}

/// Text key columns and per-run medians of the value columns of `table`, one
/// row per host and key, sorted by host then key; `None` when no run has it.
pub fn medians(
    table: &Layout,
    runs: &[Run],
    keys: &[&str],
    values: &[&str],
) -> Result<Option<Vec<KeyedValues>>> {
    medians_of(table.scan(runs)?, keys, values)
}

/// [`medians`] of an already scanned table (`None`: no run has it). A
/// group whose values are all missing has a `NaN` median.
pub fn medians_of(
    lf: Option<LazyFrame>,
    keys: &[&str],
    values: &[&str],
) -> Result<Option<Vec<KeyedValues>>> {
    let Some(lf) = lf else {
        return Ok(None);
    };
    let mut group = vec![col("host")];
    group.extend(keys.iter().map(|k| col(*k)));
    let mut sort: Vec<&str> = vec!["host"];
    sort.extend(keys);
    let df = lf
        .group_by(group)
        .agg(
            values
                .iter()
                .map(|v| col(*v).cast(DataType::Float64).median())
                .collect::<Vec<_>>(),
        )
        .sort(sort.clone(), SortMultipleOptions::default())
        .collect()?;
    let host = strs(&df, "host")?;
    let key_cols: Vec<Vec<String>> = keys.iter().map(|k| strs(&df, k)).collect::<Result<_>>()?;
    let value_cols: Vec<Vec<f64>> = values.iter().map(|v| f64s(&df, v)).collect::<Result<_>>()?;
    Ok(Some(
        (0..df.height())
            .map(|i| KeyedValues {
                host: host[i].clone(),
                keys: keys
                    .iter()
                    .zip(&key_cols)
                    .map(|(k, c)| ((*k).to_owned(), c[i].clone()))
                    .collect(),
                values: values
                    .iter()
                    .zip(&value_cols)
                    .map(|(v, c)| ((*v).to_owned(), c[i]))
                    .collect(),
            })
            .collect(),
    ))
}

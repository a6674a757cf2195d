//! Fixed-decimal number text, so reruns give identical bytes.

/// `x` with `decimals` places; empty for a missing (`NaN` or infinite) value.
pub fn fixed(x: f64, decimals: usize) -> String {
    if !x.is_finite() {
        return String::new();
    }
    let s = format!("{x:.decimals$}");
    // "-0.00" and "0.00" are the same number; print it one way.
    if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
        s[1..].to_owned()
    } else {
        s
    }
}

/// [`fixed`] of an optional value.
pub fn fixed_opt(x: Option<f64>, decimals: usize) -> String {
    x.map_or_else(String::new, |x| fixed(x, decimals))
}

/// The fixed-decimal value as a JSON number (`null` when missing).
pub fn json_number(x: f64, decimals: usize) -> serde_json::Value {
    let s = fixed(x, decimals);
    s.parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map_or(serde_json::Value::Null, serde_json::Value::Number)
}

/// Decimals for nanoseconds.
pub const NS: usize = 2;
/// Decimals for percentages.
pub const PCT: usize = 2;
/// Decimals for ratios.
pub const RATIO: usize = 4;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_decimals() {
        assert_eq!(fixed(1.0 / 3.0, 2), "0.33");
        assert_eq!(fixed(-0.0001, 2), "0.00");
        assert_eq!(fixed(-1.5, 1), "-1.5");
        assert_eq!(fixed(f64::NAN, 2), "");
        assert_eq!(json_number(2.0 / 3.0, 4), serde_json::json!(0.6667));
    }
}

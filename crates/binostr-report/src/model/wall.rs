//! Wall time of a campaign from its runs' `observed.started` and
//! `observed.finished` (RFC 3339).

use crate::read::records::Run;

/// Seconds since the Unix epoch of an RFC 3339 timestamp
/// (`YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)`); `None` when it does not parse.
pub fn rfc3339_seconds(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let t = s.get(r)?;
        t.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| t.parse().ok())?
    };
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, sec) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if b[13] != b':' || b[16] != b':' || !(1..=12).contains(&mo) || !(1..=31).contains(&d) {
        return None;
    }
    let mut rest = &s[19..];
    let mut frac = 0.0;
    if let Some(r) = rest.strip_prefix('.') {
        let digits = r.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        frac = format!("0.{}", &r[..digits]).parse().ok()?;
        rest = &r[digits..];
    }
    let offset = match rest {
        "Z" | "z" => 0,
        _ => {
            let sign = match rest.as_bytes().first()? {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            if rest.len() != 6 || rest.as_bytes()[3] != b':' {
                return None;
            }
            let oh: i64 = rest[1..3].parse().ok()?;
            let om: i64 = rest[4..6].parse().ok()?;
            sign * (oh * 3600 + om * 60)
        }
    };
    let days = days_from_civil(y, mo, d);
    Some((days * 86_400 + h * 3600 + mi * 60 + sec - offset) as f64 + frac)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
/// `days_from_civil`).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Wall time of one label's runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Wall {
    /// The label.
    pub label: String,
    /// First run's start to last run's finish, in minutes.
    pub minutes: f64,
    /// Per run, its start-to-finish minutes.
    pub runs: Vec<RunWall>,
}

/// One run's wall time.
#[derive(Clone, Debug, PartialEq)]
pub struct RunWall {
    /// The run id.
    pub id: String,
    /// Start to finish, in minutes.
    pub minutes: f64,
}

/// The wall time of `runs` of `label`; `None` when a run lacks a
/// parseable start or finish.
pub fn wall(label: &str, runs: &[Run]) -> Option<Wall> {
    let mut spans = Vec::new();
    for r in runs.iter().filter(|r| r.label == label) {
        let start = rfc3339_seconds(r.started.as_deref()?)?;
        let end = rfc3339_seconds(r.finished.as_deref()?)?;
        spans.push((r.id(), start, end));
    }
    let first = spans.iter().map(|s| s.1).fold(f64::INFINITY, f64::min);
    let last = spans.iter().map(|s| s.2).fold(f64::NEG_INFINITY, f64::max);
    (!spans.is_empty()).then(|| Wall {
        label: label.to_owned(),
        minutes: (last - first) / 60.0,
        runs: spans
            .into_iter()
            .map(|(id, s, e)| RunWall {
                id,
                minutes: (e - s) / 60.0,
            })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_rfc3339() {
        assert_eq!(rfc3339_seconds("1970-01-01T00:00:00Z"), Some(0.0));
        assert_eq!(rfc3339_seconds("2000-03-01T00:00:00Z"), Some(951_868_800.0));
        assert_eq!(
            rfc3339_seconds("2026-12-01T11:25:10+01:00"),
            rfc3339_seconds("2026-12-01T10:25:10Z")
        );
        assert_eq!(rfc3339_seconds("1970-01-01T00:00:01.5Z"), Some(1.5));
        assert_eq!(rfc3339_seconds("1970-01-01 00:00:00"), None);
        assert_eq!(rfc3339_seconds("not a time at all!!"), None);
    }
}

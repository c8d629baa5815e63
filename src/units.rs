//! Unit parsing and formatting shared by readers, renderers and the harness.
//! Values are carried in SI base units; this is where sizes such as `4k`
//! become bytes and where bytes become `4 KiB` again for people.

pub mod grammar;

/// 10 to the whole power `e`, the same double on every system: up to
/// 10^22 each power of ten is exact, and 10^-k is the correctly rounded
/// 1 / 10^k, whereas `powi` with a negative power depends on the target
/// (MinGW's gave 0.0010000000000000002 for 10^-3, glibc's 0.001).
pub fn pow10(e: i32) -> f64 {
    if e.unsigned_abs() > 22 {
        return 10f64.powf(f64::from(e));
    }
    let p = (0..e.unsigned_abs()).fold(1.0, |acc, _| acc * 10.0);
    if e < 0 { 1.0 / p } else { p }
}

/// Formats a block size the way fio users write it: `4k`, `64k`, `1m`, `512`.
pub fn format_bs(bytes: u64) -> String {
    const UNITS: [(u64, &str); 4] = [
        (1 << 40, "t"),
        (1 << 30, "g"),
        (1 << 20, "m"),
        (1 << 10, "k"),
    ];
    for (mult, suffix) in UNITS {
        if bytes >= mult && bytes.is_multiple_of(mult) {
            return format!("{}{}", bytes / mult, suffix);
        }
    }
    bytes.to_string()
}

/// Parses a time such as `1ms`, `500us`, `250µs`, `2000ns`, `0.5s` into
/// nanoseconds. A bare number is microseconds, as fio's latency options take.
pub fn parse_duration_ns(s: &str) -> Option<f64> {
    let s = s.trim();
    let end = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (num, unit) = s.split_at(end);
    let value: f64 = num.parse().ok()?;
    let mult = match unit.trim().to_ascii_lowercase().as_str() {
        "ns" => 1.0,
        "" | "us" | "usec" | "µs" => 1e3,
        "ms" | "msec" => 1e6,
        "s" | "sec" => 1e9,
        _ => return None,
    };
    let ns = value * mult;
    ns.is_finite().then_some(ns)
}

/// Bytes in a GiB, for bandwidth shown as GiB/s.
pub const GIB: f64 = (1u64 << 30) as f64;

/// (year, month 1-12, day 1-31) of day `z` since 1970-01-01 (proleptic
/// Gregorian), by H. Hinnant's civil-from-days:
/// <https://howardhinnant.github.io/date_algorithms.html#civil_from_days>.
pub fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// Day since 1970-01-01 of (year, month 1-12, day 1-31), proleptic
/// Gregorian: the inverse of [`civil_from_days`], by H. Hinnant's
/// days-from-civil.
pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {

    #[test]
    fn days_and_civil_dates_convert_both_ways() {
        use super::{civil_from_days, days_from_civil};
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2024, 2, 29), 19_782);
        for day in (-800_000..800_000).step_by(997) {
            let (y, m, d) = civil_from_days(day);
            assert_eq!(days_from_civil(y, m, d), day, "{y}-{m}-{d}");
        }
    }

    #[test]
    fn powers_of_ten_are_the_nearest_doubles() {
        assert_eq!(pow10(0), 1.0);
        assert_eq!(pow10(3), 1000.0);
        assert_eq!(pow10(-3), 0.001);
        assert_eq!(pow10(-1), 0.1);
        assert_eq!(pow10(22), 1e22);
        assert_eq!(pow10(-22), 1e-22);
        // Past 10^22 it is the maths library's, within a rounding or two.
        assert!((pow10(-300) / 1e-300 - 1.0).abs() < 1e-13);
    }

    use super::*;

    #[test]
    fn sizes_round_trip() {
        assert_eq!(format_bs(4096), "4k");
        assert_eq!(format_bs(131072), "128k");
        assert_eq!(format_bs(1 << 20), "1m");
        assert_eq!(format_bs(1536), "1536");
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration_ns("1ms"), Some(1e6));
        assert_eq!(parse_duration_ns("500us"), Some(5e5));
        assert_eq!(parse_duration_ns("0.5s"), Some(5e8));
        assert_eq!(parse_duration_ns("250"), Some(2.5e5));
        assert_eq!(parse_duration_ns("2000ns"), Some(2000.0));
        assert_eq!(parse_duration_ns("1h"), None);
        assert_eq!(parse_duration_ns("ms"), None);
    }
}

//! The `--time` of a run: RFC 3339 timestamps checked and made, without a
//! date library (only these two needs; chrono's clock feature would pull
//! in time-zone crates for nothing).

/// Why a `--time` value is not RFC 3339.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("`{0}` is not an RFC 3339 time (e.g. 2026-12-01T08:30:00Z or 2026-12-01T09:30:00+01:00)")]
pub struct TimeError(pub String);

/// Seconds since the Unix epoch (UTC) of an RFC 3339 timestamp such as
/// `2026-12-01T08:30:00Z`, `2026-12-01 08:30:00.123+01:00`.
pub fn parse_rfc3339(s: &str) -> Result<i64, TimeError> {
    let err = || TimeError(s.to_string());
    let b = s.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return Err(err());
    }
    if b[13] != b':' || b[16] != b':' {
        return Err(err());
    }
    let num = |r: std::ops::Range<usize>| -> Result<i64, TimeError> {
        let t = s.get(r).ok_or_else(err)?;
        if t.bytes().all(|c| c.is_ascii_digit()) {
            t.parse().map_err(|_| err())
        } else {
            Err(err())
        }
    };
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, sec) = (num(11..13)?, num(14..16)?, num(17..19)?);
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days_in = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    let valid = (1..=12).contains(&mo)
        && d >= 1
        && d <= days_in[(mo - 1) as usize]
        && h < 24
        && mi < 60
        && sec <= 60;
    if !valid {
        return Err(err());
    }
    let mut rest = &s[19..];
    if let Some(frac) = rest.strip_prefix('.') {
        let digits = frac.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return Err(err());
        }
        rest = &frac[digits..];
    }
    let offset = match rest {
        "Z" | "z" => 0,
        _ if rest.len() == 6 && matches!(&rest[..1], "+" | "-") && &rest[3..4] == ":" => {
            let (oh, om) = (num(s.len() - 5..s.len() - 3)?, num(s.len() - 2..s.len())?);
            if oh > 23 || om > 59 {
                return Err(err());
            }
            let sign = if rest.starts_with('-') { -1 } else { 1 };
            sign * (oh * 3600 + om * 60)
        }
        _ => return Err(err()),
    };
    Ok(crate::units::days_from_civil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + sec - offset)
}

/// `secs` since the epoch as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn format_utc(secs: i64) -> String {
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = crate::units::civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Now, as [`format_utc`] gives it.
pub fn now_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    format_utc(secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_formats_round_trip() {
        // 2026-12-01T08:30:00Z: 20,788 days after 1970-01-01, by `date -d`.
        let t = parse_rfc3339("2026-12-01T08:30:00Z").unwrap();
        assert_eq!(t, 20_788 * 86_400 + 8 * 3600 + 30 * 60);
        assert_eq!(format_utc(t), "2026-12-01T08:30:00Z");
        assert_eq!(parse_rfc3339("2026-12-01T09:30:00.250+01:00"), Ok(t));
        assert_eq!(
            parse_rfc3339("2024-02-29 00:00:00-00:30").unwrap() % 86_400,
            1800
        );
        assert_eq!(format_utc(0), "1970-01-01T00:00:00Z");
    }

    #[test]
    fn refuses_what_is_not_rfc3339() {
        for bad in [
            "",
            "2026-12-01",
            "2026-12-01T08:30:00",
            "2026-13-01T08:30:00Z",
            "2025-02-29T08:30:00Z",
            "2026-12-01T24:00:00Z",
            "2026-12-01T08:30:00+0100",
            "yesterday",
            "2026-12-01T08:30:00.Z",
        ] {
            assert!(parse_rfc3339(bad).is_err(), "{bad}");
        }
    }
}

//! Stored times (Unix seconds) as people read them.

/// `2026-11-23 21:40:05 UTC` for a Unix time in seconds (proleptic Gregorian calendar).
pub fn utc_text(secs: i64) -> String {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Days since 1970-01-01 to a civil date (H. Hinnant's `civil_from_days`).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        rem / 3_600,
        rem % 3_600 / 60,
        rem % 60
    )
}

/// A stored time column: Unix seconds shown as [`utc_text`]; anything else as stored.
pub fn stored_time_text(stored: &str) -> String {
    stored
        .trim()
        .parse::<i64>()
        .map_or_else(|_| stored.to_string(), utc_text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unix_seconds_read_as_utc_dates() {
        assert_eq!(utc_text(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(utc_text(951_782_399), "2000-02-28 23:59:59 UTC");
        assert_eq!(utc_text(951_782_400), "2000-02-29 00:00:00 UTC");
        assert_eq!(utc_text(1_795_469_405), "2026-11-23 21:30:05 UTC");
        assert_eq!(utc_text(4_107_542_400), "2100-03-01 00:00:00 UTC");
        assert_eq!(utc_text(-1), "1969-12-31 23:59:59 UTC");
    }

    #[test]
    fn stored_text_that_is_not_a_number_is_kept() {
        assert_eq!(stored_time_text("1795469405"), "2026-11-23 21:30:05 UTC");
        assert_eq!(stored_time_text("yesterday"), "yesterday");
    }
}

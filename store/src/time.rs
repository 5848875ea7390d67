//! Times and days as the store keeps them: fixed-width UTC text, so `ORDER BY` and
//! comparisons work as text on every engine.

use chrono::{DateTime, NaiveDate, SecondsFormat, Utc};

use crate::StoreError;

/// `2026-11-24T09:30:00.123456Z`: UTC, microseconds, always the same width.
pub fn time_text(time: DateTime<Utc>) -> String {
    time.to_rfc3339_opts(SecondsFormat::Micros, true)
}

/// Reads a time written by [`time_text`] (any RFC 3339 time is accepted).
pub fn parse_time(text: &str) -> Result<DateTime<Utc>, StoreError> {
    DateTime::parse_from_rfc3339(text)
        .map(|time| time.with_timezone(&Utc))
        .map_err(|_| StoreError::Corrupt(format!("time {text:?}")))
}

/// The time in `column` of `row` (written by [`time_text`]).
pub fn time_at(row: &sqlx::any::AnyRow, column: &str) -> Result<DateTime<Utc>, StoreError> {
    use sqlx::Row;
    let text: String = row.try_get(column)?;
    parse_time(&text)
}

/// The time in `column` of `row`, which may be NULL.
pub fn optional_time_at(
    row: &sqlx::any::AnyRow,
    column: &str,
) -> Result<Option<DateTime<Utc>>, StoreError> {
    use sqlx::Row;
    let text: Option<String> = row.try_get(column)?;
    text.as_deref().map(parse_time).transpose()
}

/// `2026-11-24`.
pub fn day_text(day: NaiveDate) -> String {
    day.format("%Y-%m-%d").to_string()
}

pub fn parse_day(text: &str) -> Result<NaiveDate, StoreError> {
    NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .map_err(|_| StoreError::Corrupt(format!("day {text:?}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn times_keep_their_order_as_text() {
        let earlier = Utc.with_ymd_and_hms(2026, 1, 2, 3, 4, 5).unwrap();
        let later = earlier + chrono::Duration::microseconds(1);
        let (a, b) = (time_text(earlier), time_text(later));
        assert_eq!(a, "2026-01-02T03:04:05.000000Z");
        assert_eq!(a.len(), b.len());
        assert!(a < b);
        assert_eq!(parse_time(&b).unwrap(), later);
        assert!(parse_time("yesterday").is_err());
    }
}

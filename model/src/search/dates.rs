//! Date filters (`foundedSince`, `lastEpisodeDateSince`, `publishedSince`, …): either
//! relative to now (a positive number of hours, days, months or years) or a custom
//! date. The SDK types them as `Any`; the server accepts
//! `{"type": "relative", "unit": "days", "value": 30}`,
//! `{"type": "custom", "date": "2024-01-01"}` and a bare date or date-time string (what
//! the SDK sends for a Python `date` or `datetime`). Relative values convert with
//! 1 hour, 1 day, 30 days per month and 365 days per year (§5).

use chrono::{DateTime, NaiveDate, NaiveDateTime, TimeDelta, Utc};
use serde::{Deserialize, Serialize};

use crate::kinds::wire_enum;

wire_enum! {
    /// Unit of a relative date.
    RelativeUnit { Hours => "hours", Days => "days", Months => "months", Years => "years" }
}

wire_enum! {
    /// The `type` of a relative date object.
    RelativeTag { Relative => "relative" }
}

wire_enum! {
    /// The `type` of a custom date object.
    CustomTag { Custom => "custom" }
}

const SECONDS_PER_HOUR: i64 = 3_600;
const SECONDS_PER_DAY: i64 = 24 * SECONDS_PER_HOUR;

impl RelativeUnit {
    /// Length of one unit in seconds: a month is 30 days, a year 365 days.
    pub const fn seconds(self) -> i64 {
        match self {
            RelativeUnit::Hours => SECONDS_PER_HOUR,
            RelativeUnit::Days => SECONDS_PER_DAY,
            RelativeUnit::Months => 30 * SECONDS_PER_DAY,
            RelativeUnit::Years => 365 * SECONDS_PER_DAY,
        }
    }
}

/// A date `value` `unit`s before now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RelativeDate {
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<RelativeTag>,
    pub unit: RelativeUnit,
    pub value: i64,
}

/// A fixed date (`YYYY-MM-DD`, or an RFC 3339 or naive UTC date-time).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CustomDate {
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<CustomTag>,
    pub date: String,
}

/// A date filter as sent on the wire.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum DateFilter {
    Relative(RelativeDate),
    Custom(CustomDate),
    Date(String),
}

impl DateFilter {
    /// The absolute UTC instant the filter stands for, given the current time.
    /// Errors are lowercase reasons for the caller to attach to its error.
    pub fn resolve(&self, now: DateTime<Utc>) -> Result<DateTime<Utc>, String> {
        match self {
            DateFilter::Relative(relative) => relative.resolve(now),
            DateFilter::Custom(custom) => parse_custom_date(&custom.date),
            DateFilter::Date(date) => parse_custom_date(date),
        }
    }
}

impl RelativeDate {
    /// `now` minus `value` units.
    pub fn resolve(&self, now: DateTime<Utc>) -> Result<DateTime<Utc>, String> {
        if self.value < 1 {
            return Err(format!(
                "a relative date needs a positive value, got {}",
                self.value
            ));
        }
        self.value
            .checked_mul(self.unit.seconds())
            .and_then(TimeDelta::try_seconds)
            .and_then(|span| now.checked_sub_signed(span))
            .ok_or_else(|| {
                format!(
                    "a relative date of {} {} is out of range",
                    self.value, self.unit
                )
            })
    }
}

/// Parses a custom date: `YYYY-MM-DD` (midnight UTC), RFC 3339, or a date-time without
/// offset (read as UTC).
pub fn parse_custom_date(text: &str) -> Result<DateTime<Utc>, String> {
    let text = text.trim();
    if let Ok(date) = NaiveDate::parse_from_str(text, "%Y-%m-%d") {
        return Ok(date.and_time(chrono::NaiveTime::MIN).and_utc());
    }
    if let Ok(instant) = DateTime::parse_from_rfc3339(text) {
        return Ok(instant.with_timezone(&Utc));
    }
    for format in [
        "%Y-%m-%dT%H:%M:%S%.f",
        "%Y-%m-%d %H:%M:%S%.f",
        "%Y-%m-%dT%H:%M",
    ] {
        if let Ok(naive) = NaiveDateTime::parse_from_str(text, format) {
            return Ok(naive.and_utc());
        }
    }
    Err(format!(
        "\"{text}\" is not a date (expected YYYY-MM-DD or an ISO 8601 date-time)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-03-15T12:00:00Z, computed by hand: 20527 days after 1970-01-01, plus 12 h.
    const NOW_UNIX: i64 = 20_527 * 86_400 + 12 * 3_600;

    fn now() -> DateTime<Utc> {
        DateTime::from_timestamp(NOW_UNIX, 0).unwrap()
    }

    fn relative(unit: RelativeUnit, value: i64) -> DateFilter {
        DateFilter::Relative(RelativeDate {
            tag: Some(RelativeTag::Relative),
            unit,
            value,
        })
    }

    #[test]
    fn now_is_the_date_it_claims() {
        assert_eq!(now().to_rfc3339(), "2026-03-15T12:00:00+00:00");
    }

    #[test]
    fn relative_dates_against_hand_computed_timestamps() {
        // (unit, value, expected unix seconds = NOW_UNIX - value * unit length)
        let table = [
            (RelativeUnit::Hours, 1, NOW_UNIX - 3_600),
            (RelativeUnit::Hours, 36, NOW_UNIX - 129_600),
            (RelativeUnit::Days, 1, NOW_UNIX - 86_400),
            (RelativeUnit::Days, 7, NOW_UNIX - 604_800),
            (RelativeUnit::Months, 1, NOW_UNIX - 2_592_000),
            (RelativeUnit::Months, 6, NOW_UNIX - 15_552_000),
            (RelativeUnit::Years, 1, NOW_UNIX - 31_536_000),
            (RelativeUnit::Years, 2, NOW_UNIX - 63_072_000),
        ];
        for (unit, value, expected) in table {
            let resolved = relative(unit, value).resolve(now()).unwrap();
            assert_eq!(resolved.timestamp(), expected, "{value} {unit}");
        }
        // 30-day months: one month before 2026-03-15T12:00Z is 2026-02-13T12:00Z.
        let month = relative(RelativeUnit::Months, 1).resolve(now()).unwrap();
        assert_eq!(month.to_rfc3339(), "2026-02-13T12:00:00+00:00");
        // 365-day years: three calendar years back span 29 February 2024 (1096 days),
        // so three 365-day years land one day later than 2023-03-15.
        let years = relative(RelativeUnit::Years, 3).resolve(now()).unwrap();
        assert_eq!(years.to_rfc3339(), "2023-03-16T12:00:00+00:00");
    }

    #[test]
    fn relative_values_must_be_positive_and_in_range() {
        for value in [0, -1] {
            let error = relative(RelativeUnit::Days, value)
                .resolve(now())
                .unwrap_err();
            assert!(error.contains("positive"), "{error}");
        }
        let error = relative(RelativeUnit::Years, i64::MAX)
            .resolve(now())
            .unwrap_err();
        assert!(error.contains("out of range"), "{error}");
    }

    #[test]
    fn custom_dates_in_every_accepted_form() {
        let table = [
            ("2024-01-01", 1_704_067_200),
            ("2024-01-01T00:00:00Z", 1_704_067_200),
            ("2024-01-01T02:00:00+02:00", 1_704_067_200),
            ("2024-01-01T06:30:00", 1_704_067_200 + 6 * 3_600 + 30 * 60),
            (
                "2024-01-01T06:30:00.250",
                1_704_067_200 + 6 * 3_600 + 30 * 60,
            ),
            ("2024-01-01 06:30:00", 1_704_067_200 + 6 * 3_600 + 30 * 60),
        ];
        for (text, expected) in table {
            let filter = DateFilter::Date(text.to_owned());
            assert_eq!(
                filter.resolve(now()).unwrap().timestamp(),
                expected,
                "{text}"
            );
            let custom = DateFilter::Custom(CustomDate {
                tag: None,
                date: text.to_owned(),
            });
            assert_eq!(
                custom.resolve(now()).unwrap().timestamp(),
                expected,
                "{text}"
            );
        }
        for bad in ["", "yesterday", "2024-13-01", "01/02/2024"] {
            assert!(
                DateFilter::Date(bad.to_owned()).resolve(now()).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn wire_forms_parse_and_round_trip() {
        let cases = [
            r#"{"type":"relative","unit":"days","value":30}"#,
            r#"{"unit":"hours","value":12}"#,
            r#"{"type":"custom","date":"2024-05-01"}"#,
            r#""2024-05-01T00:00:00""#,
        ];
        for case in cases {
            let parsed: DateFilter = serde_json::from_str(case).unwrap();
            assert_eq!(serde_json::to_string(&parsed).unwrap(), case);
        }
        for bad in [
            r#"{"type":"relative","unit":"weeks","value":2}"#,
            r#"{"type":"relative","unit":"days","value":1.5}"#,
            r#"{"type":"relative","unit":"days","value":3,"extra":true}"#,
            r#"{"type":"absolute","date":"2024-05-01"}"#,
            "17",
        ] {
            assert!(serde_json::from_str::<DateFilter>(bad).is_err(), "{bad}");
        }
    }
}

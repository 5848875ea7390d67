//! Update frequency from the publish cadence.
//!
//! The median interval between consecutive episode dates decides the class:
//! at most 1.5 days is `daily`, at most 8 days `weekly`, at most 16 days `bi-weekly`,
//! at most 45 days `monthly`; anything slower is `stale`, and so is a feed whose latest
//! episode is more than 90 days older than the time of ingestion, whatever its past
//! cadence. A feed with fewer than two dated episodes has no frequency, unless its
//! single episode is older than 90 days (then `stale`).

use chrono::{DateTime, Duration, Utc};

/// Days without a new episode after which a podcast is `stale`.
pub const STALE_AFTER_DAYS: i64 = 90;

/// The frequency class of `dates` (any order) as seen at `now`.
pub fn update_frequency(dates: &[DateTime<Utc>], now: DateTime<Utc>) -> Option<&'static str> {
    let latest = dates.iter().max()?;
    if now.signed_duration_since(*latest) > Duration::days(STALE_AFTER_DAYS) {
        return Some("stale");
    }
    let mut sorted = dates.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut intervals: Vec<i64> = sorted
        .windows(2)
        .map(|pair| pair[1].signed_duration_since(pair[0]).num_seconds())
        .collect();
    if intervals.is_empty() {
        return None;
    }
    intervals.sort_unstable();
    let middle = intervals.len() / 2;
    let median_seconds = if intervals.len().is_multiple_of(2) {
        (intervals[middle - 1] + intervals[middle]) as f64 / 2.0
    } else {
        intervals[middle] as f64
    };
    let median_days = median_seconds / 86_400.0;
    Some(match median_days {
        days if days <= 1.5 => "daily",
        days if days <= 8.0 => "weekly",
        days if days <= 16.0 => "bi-weekly",
        days if days <= 45.0 => "monthly",
        _ => "stale",
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn every(days: f64, count: usize, now: DateTime<Utc>) -> Vec<DateTime<Utc>> {
        (0..count)
            .map(|index| now - Duration::seconds((days * 86_400.0 * index as f64) as i64))
            .collect()
    }

    #[test]
    fn cadence_classes() {
        let now = Utc.with_ymd_and_hms(2025, 1, 31, 0, 0, 0).unwrap();
        assert_eq!(update_frequency(&every(1.0, 30, now), now), Some("daily"));
        assert_eq!(update_frequency(&every(7.0, 30, now), now), Some("weekly"));
        assert_eq!(
            update_frequency(&every(14.0, 30, now), now),
            Some("bi-weekly")
        );
        assert_eq!(
            update_frequency(&every(30.0, 10, now), now),
            Some("monthly")
        );
        assert_eq!(update_frequency(&every(60.0, 10, now), now), Some("stale"));
        let old = now - Duration::days(100);
        assert_eq!(update_frequency(&every(1.0, 30, old), now), Some("stale"));
        assert_eq!(update_frequency(&[now], now), None);
        assert_eq!(update_frequency(&[], now), None);
    }
}

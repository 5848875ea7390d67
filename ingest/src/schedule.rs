//! When to poll a feed again: a rhythm that follows the feed's own publishing.
//!
//! A feed is polled about 168 times per publishing period (once an hour for a weekly
//! show, every 15 minutes for a daily one), between [`MIN_INTERVAL`] and
//! [`MAX_INTERVAL`]. The period is the shorter of what the feed declares
//! (`podcast:updateFrequency`, `sy:updatePeriod`) and the median gap between its
//! recent episodes; a show that has gone quiet for a long while, or says it is
//! complete, is polled once a day. A newly followed feed is first polled within ten
//! minutes. A feed whose WebSub hub pushes its changes is
//! polled only as a safety net ([`PUSHED_INTERVAL`] at least). Failures back off
//! exponentially, up to a day. Every interval is spread by up to ±10% per feed so
//! polls of feeds seeded together drift apart.

use std::time::Duration;

use chrono::{DateTime, Utc};
use podlens_model::catalog::FeedPolling;
use uuid::Uuid;

/// The shortest time between two polls of one feed.
pub const MIN_INTERVAL: Duration = Duration::from_secs(15 * 60);
/// The longest time between two polls of one feed (and the longest backoff).
pub const MAX_INTERVAL: Duration = Duration::from_secs(24 * 3600);
/// The interval of a feed nothing is known about.
pub const DEFAULT_INTERVAL: Duration = Duration::from_secs(3600);
/// The least interval of a feed whose hub pushes its changes.
pub const PUSHED_INTERVAL: Duration = Duration::from_secs(6 * 3600);
/// Polls per publishing period.
const POLLS_PER_PERIOD: u32 = 168;
/// Gaps between episodes the observed period is the median of.
const RECENT_GAPS: usize = 10;
/// A show silent for this long is polled once a day.
const QUIET: chrono::Duration = chrono::Duration::days(120);

/// The publishing period a feed's episodes show: the median gap between its latest
/// distinct publication dates (at least three dates), if any.
pub fn observed_period(published: &[DateTime<Utc>]) -> Option<Duration> {
    let mut dates: Vec<DateTime<Utc>> = published.to_vec();
    dates.sort_unstable_by(|a, b| b.cmp(a));
    dates.dedup();
    if dates.len() < 3 {
        return None;
    }
    let mut gaps: Vec<i64> = dates
        .windows(2)
        .take(RECENT_GAPS)
        .map(|pair| (pair[0] - pair[1]).num_seconds())
        .collect();
    gaps.sort_unstable();
    let median = gaps[gaps.len() / 2];
    u64::try_from(median)
        .ok()
        .filter(|&seconds| seconds > 0)
        .map(Duration::from_secs)
}

/// How long to wait before polling a feed that answered, given what it declares, its
/// episodes' publication dates, and whether a hub pushes its changes to us.
pub fn poll_interval(
    polling: &FeedPolling,
    published: &[DateTime<Utc>],
    pushed: bool,
    now: DateTime<Utc>,
) -> Duration {
    let latest = published.iter().max().copied();
    let quiet = latest.is_some_and(|latest| now - latest > QUIET);
    let interval = if polling.complete || quiet {
        MAX_INTERVAL
    } else {
        let declared = polling
            .declared_period_seconds
            .and_then(|seconds| u64::try_from(seconds).ok())
            .filter(|&seconds| seconds > 0)
            .map(Duration::from_secs);
        let period = match (declared, observed_period(published)) {
            (Some(declared), Some(observed)) => Some(declared.min(observed)),
            (one, other) => one.or(other),
        };
        match period {
            Some(period) => (period / POLLS_PER_PERIOD).clamp(MIN_INTERVAL, MAX_INTERVAL),
            None => DEFAULT_INTERVAL,
        }
    };
    if pushed {
        interval.max(PUSHED_INTERVAL).min(MAX_INTERVAL)
    } else {
        interval
    }
}

/// How long to wait after the `failures`-th failure in a row (1 for the first) of a
/// feed polled every `interval`: doubling from half an hour at least, up to a day.
pub fn backoff(interval: Duration, failures: u32) -> Duration {
    let base = interval.max(Duration::from_secs(30 * 60));
    let doublings = failures.saturating_sub(1).min(16);
    base.saturating_mul(1 << doublings).min(MAX_INTERVAL)
}

/// `interval` spread by up to ±10%, the same way every time for one feed.
pub fn spread(interval: Duration, podcast_id: Uuid) -> Duration {
    let bits = podcast_id.as_u128();
    let fraction = ((bits ^ (bits >> 64)) % 2001) as f64 / 1000.0 - 1.0;
    interval.mul_f64(1.0 + 0.1 * fraction)
}

/// How long the first polls of a newly followed catalog are spread over at most.
pub const FIRST_POLL_WINDOW: Duration = Duration::from_secs(10 * 60);

/// When a feed first polled by the scheduler is due: somewhere in its first interval
/// or [`FIRST_POLL_WINDOW`], whichever is shorter, the same place every time for one
/// feed, so a catalog seeded at once is polled evenly rather than all at the first
/// tick, and every feed is read (and its WebSub hub learnt) soon after it is followed.
pub fn first_poll_offset(interval: Duration, podcast_id: Uuid) -> Duration {
    let bits = podcast_id.as_u128();
    interval
        .min(FIRST_POLL_WINDOW)
        .mul_f64(((bits ^ (bits >> 64)) % 10_000) as f64 / 10_000.0)
}

/// The period a `podcast:updateFrequency` rule declares (`FREQ=WEEKLY;INTERVAL=2`,
/// `FREQ=WEEKLY;BYDAY=MO,TH`), in seconds.
pub fn rrule_period(rule: &str) -> Option<i64> {
    let mut unit = None;
    let mut every = 1_i64;
    let mut by_day = 1_i64;
    for part in rule.trim().trim_start_matches("RRULE:").split(';') {
        let Some((key, value)) = part.split_once('=') else {
            continue;
        };
        match key.trim().to_ascii_uppercase().as_str() {
            "FREQ" => unit = frequency_seconds(value),
            "INTERVAL" => every = value.trim().parse().ok().filter(|&n| n > 0)?,
            "BYDAY" => {
                by_day = value
                    .split(',')
                    .filter(|day| !day.trim().is_empty())
                    .count() as i64
            }
            _ => {}
        }
    }
    let unit = unit?;
    // Several days of a week (or month) are several episodes per period.
    let per_period = if unit >= 7 * 86_400 { by_day.max(1) } else { 1 };
    Some(unit * every / per_period)
}

/// The period `sy:updatePeriod` and `sy:updateFrequency` declare, in seconds.
pub fn syndication_period(period: &str, frequency: Option<&str>) -> Option<i64> {
    let unit = match period.trim().to_ascii_lowercase().as_str() {
        "hourly" => 3_600,
        "daily" => 86_400,
        "weekly" => 7 * 86_400,
        "monthly" => 30 * 86_400,
        "yearly" => 365 * 86_400,
        _ => return None,
    };
    let times: i64 = match frequency {
        Some(text) => text.trim().parse().ok().filter(|&n| n > 0)?,
        None => 1,
    };
    Some(unit / times)
}

fn frequency_seconds(value: &str) -> Option<i64> {
    Some(match value.trim().to_ascii_uppercase().as_str() {
        "HOURLY" => 3_600,
        "DAILY" => 86_400,
        "WEEKLY" => 7 * 86_400,
        "MONTHLY" => 30 * 86_400,
        "YEARLY" => 365 * 86_400,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 24, 12, 0, 0).unwrap()
    }

    fn every(days: i64, count: i64) -> Vec<DateTime<Utc>> {
        (0..count)
            .map(|n| now() - chrono::Duration::days(days * n + 1))
            .collect()
    }

    const HOUR: Duration = Duration::from_secs(3600);

    #[test]
    fn a_weekly_show_is_polled_hourly_and_a_daily_one_every_quarter_hour() {
        let none = FeedPolling::default();
        assert_eq!(poll_interval(&none, &every(7, 12), false, now()), HOUR);
        assert_eq!(
            poll_interval(&none, &every(1, 30), false, now()),
            MIN_INTERVAL
        );
        assert_eq!(poll_interval(&none, &every(28, 6), false, now()), 4 * HOUR);
        // Too few episodes to tell: the default.
        assert_eq!(
            poll_interval(&none, &every(7, 2), false, now()),
            DEFAULT_INTERVAL
        );
    }

    #[test]
    fn the_shorter_of_the_declared_and_the_observed_period_wins() {
        let daily = FeedPolling {
            declared_period_seconds: Some(86_400),
            ..FeedPolling::default()
        };
        assert_eq!(
            poll_interval(&daily, &every(7, 12), false, now()),
            MIN_INTERVAL
        );
        assert_eq!(poll_interval(&daily, &[], false, now()), MIN_INTERVAL);
        let monthly = FeedPolling {
            declared_period_seconds: Some(30 * 86_400),
            ..FeedPolling::default()
        };
        assert_eq!(poll_interval(&monthly, &every(7, 12), false, now()), HOUR);
    }

    #[test]
    fn quiet_complete_and_pushed_feeds_are_polled_less() {
        let none = FeedPolling::default();
        let old: Vec<_> = every(7, 12)
            .iter()
            .map(|d| *d - chrono::Duration::days(365))
            .collect();
        assert_eq!(poll_interval(&none, &old, false, now()), MAX_INTERVAL);
        let complete = FeedPolling {
            complete: true,
            ..FeedPolling::default()
        };
        assert_eq!(
            poll_interval(&complete, &every(1, 30), false, now()),
            MAX_INTERVAL
        );
        assert_eq!(
            poll_interval(&none, &every(7, 12), true, now()),
            PUSHED_INTERVAL
        );
    }

    #[test]
    fn failures_back_off_doubling_up_to_a_day() {
        assert_eq!(backoff(MIN_INTERVAL, 1), HOUR / 2);
        assert_eq!(backoff(HOUR, 1), HOUR);
        assert_eq!(backoff(HOUR, 2), 2 * HOUR);
        assert_eq!(backoff(HOUR, 4), 8 * HOUR);
        assert_eq!(backoff(HOUR, 6), MAX_INTERVAL);
        assert_eq!(backoff(HOUR, u32::MAX), MAX_INTERVAL);
    }

    #[test]
    fn spreading_stays_within_a_tenth_and_is_stable() {
        for n in 0..500_u128 {
            let id = Uuid::from_u128(n.wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835));
            let spread_out = spread(HOUR, id);
            assert!(spread_out >= HOUR.mul_f64(0.9) && spread_out <= HOUR.mul_f64(1.1));
            assert_eq!(spread_out, spread(HOUR, id));
            assert!(first_poll_offset(HOUR, id) < FIRST_POLL_WINDOW);
            assert!(first_poll_offset(MIN_INTERVAL / 3, id) < MIN_INTERVAL / 3);
        }
    }

    #[test]
    fn declared_rules_and_syndication_periods() {
        assert_eq!(rrule_period("FREQ=WEEKLY"), Some(7 * 86_400));
        assert_eq!(rrule_period("FREQ=WEEKLY;INTERVAL=2"), Some(14 * 86_400));
        assert_eq!(
            rrule_period("FREQ=WEEKLY;BYDAY=MO,TH"),
            Some(7 * 86_400 / 2)
        );
        assert_eq!(rrule_period("FREQ=DAILY;BYDAY=MO,TU"), Some(86_400));
        assert_eq!(rrule_period("RRULE:FREQ=MONTHLY"), Some(30 * 86_400));
        assert_eq!(rrule_period("FREQ=SOMETIMES"), None);
        assert_eq!(rrule_period("FREQ=DAILY;INTERVAL=0"), None);
        assert_eq!(syndication_period("hourly", Some("2")), Some(1_800));
        assert_eq!(syndication_period("Weekly", None), Some(7 * 86_400));
        assert_eq!(syndication_period("fortnightly", None), None);
        assert_eq!(syndication_period("daily", Some("zero")), None);
    }

    #[test]
    fn observed_period_is_the_median_recent_gap() {
        // One long holiday gap among weekly episodes does not move the median.
        let mut dates = every(7, 8);
        dates.push(now() - chrono::Duration::days(200));
        assert_eq!(
            observed_period(&dates),
            Some(Duration::from_secs(7 * 86_400))
        );
        assert_eq!(observed_period(&every(7, 2)), None);
        // Repeated dates count once.
        let same = vec![now(); 5];
        assert_eq!(observed_period(&same), None);
    }
}

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
//!
//! Most shows publish at the same time of their week (or day) every time. When at
//! least [`HABIT_SHARE`] of a feed's recent episodes came out within a two-hour
//! [`ReleaseWindow`] of its cycle, the feed is polled every [`WINDOW_POLL`] from the
//! window's start until [`WINDOW_GRACE`] after its end, and correspondingly less often
//! through the rest of the cycle, so it costs no more polls than without the window:
//! an episode released on habit is found within ten minutes at an hourly budget.

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

/// The share of recent episodes that must fall in one window for a feed to have one.
pub const HABIT_SHARE: f64 = 0.7;
/// The widest window a habit is looked for in.
pub const HABIT_SPAN_SECONDS: i64 = 2 * 3600;
/// The recent episodes a habit is looked for among (at least [`HABIT_MIN_EPISODES`]).
pub const HABIT_EPISODES: usize = 12;
const HABIT_MIN_EPISODES: usize = 4;
/// How often a feed is polled in its release window.
pub const WINDOW_POLL: Duration = Duration::from_secs(10 * 60);
/// How long after its window's end a feed is still polled every [`WINDOW_POLL`].
pub const WINDOW_GRACE_SECONDS: i64 = 30 * 60;
const WEEK_SECONDS: i64 = 7 * 24 * 3600;
const DAY_SECONDS: i64 = 24 * 3600;

/// When in its cycle (a week, or a day for a daily show) a show habitually publishes:
/// `start_seconds` into the cycle (cycles counted from the Unix epoch) for
/// `length_seconds`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReleaseWindow {
    pub cycle_seconds: i64,
    pub start_seconds: i64,
    pub length_seconds: i64,
}

impl ReleaseWindow {
    /// The window as the schedule stores it: `<cycle>/<start>/<length>` in seconds.
    pub fn to_text(&self) -> String {
        format!(
            "{}/{}/{}",
            self.cycle_seconds, self.start_seconds, self.length_seconds
        )
    }

    /// A window written by [`ReleaseWindow::to_text`]; `None` for anything else.
    pub fn from_text(text: &str) -> Option<ReleaseWindow> {
        let mut parts = text.split('/').map(|part| part.parse::<i64>().ok());
        let window = ReleaseWindow {
            cycle_seconds: parts.next()??,
            start_seconds: parts.next()??,
            length_seconds: parts.next()??,
        };
        let valid = parts.next().is_none()
            && window.cycle_seconds > 0
            && (0..window.cycle_seconds).contains(&window.start_seconds)
            && (0..=HABIT_SPAN_SECONDS).contains(&window.length_seconds);
        valid.then_some(window)
    }

    /// Where `at` falls in the cycle, in seconds from its start.
    fn phase(&self, at: DateTime<Utc>) -> i64 {
        at.timestamp().rem_euclid(self.cycle_seconds)
    }

    /// Seconds from `at` until the fast polling starts (0 inside it), and whether `at`
    /// is inside (from the window's start to [`WINDOW_GRACE_SECONDS`] after its end).
    fn until_fast(&self, at: DateTime<Utc>) -> (i64, bool) {
        let into = (self.phase(at) - self.start_seconds).rem_euclid(self.cycle_seconds);
        if into < self.length_seconds + WINDOW_GRACE_SECONDS {
            (0, true)
        } else {
            (self.cycle_seconds - into, false)
        }
    }
}

/// The window in which at least [`HABIT_SHARE`] of a feed's recent episodes came out,
/// if any: over a week for a show publishing every two days or less often, over a day
/// for one publishing every twelve hours to two days, none for faster ones (polled
/// every [`MIN_INTERVAL`] anyway).
pub fn release_window(published: &[DateTime<Utc>]) -> Option<ReleaseWindow> {
    let mut dates: Vec<DateTime<Utc>> = published.to_vec();
    dates.sort_unstable_by(|a, b| b.cmp(a));
    dates.dedup();
    dates.truncate(HABIT_EPISODES);
    if dates.len() < HABIT_MIN_EPISODES {
        return None;
    }
    let period = observed_period(&dates)?.as_secs() as i64;
    let cycle_seconds = if period >= 2 * DAY_SECONDS {
        WEEK_SECONDS
    } else if period >= DAY_SECONDS / 2 {
        DAY_SECONDS
    } else {
        return None;
    };
    let mut phases: Vec<i64> = dates
        .iter()
        .map(|date| date.timestamp().rem_euclid(cycle_seconds))
        .collect();
    phases.sort_unstable();
    // The window starting at each phase: how many phases it holds (going round the
    // cycle's end), and how far its last one is from its start.
    let (held, start, length) = phases
        .iter()
        .map(|&start| {
            let mut held = 0;
            let mut length = 0;
            for &phase in &phases {
                let after = (phase - start).rem_euclid(cycle_seconds);
                if after <= HABIT_SPAN_SECONDS {
                    held += 1;
                    length = length.max(after);
                }
            }
            (held, start, length)
        })
        .max_by(|a, b| a.0.cmp(&b.0).then(b.2.cmp(&a.2)).then(b.1.cmp(&a.1)))?;
    (held as f64 >= HABIT_SHARE * phases.len() as f64).then_some(ReleaseWindow {
        cycle_seconds,
        start_seconds: start,
        length_seconds: length,
    })
}

/// How long to wait before the next poll of a feed polled every `interval` on
/// average, that answered at `now` and has a release `window`: [`WINDOW_POLL`] inside
/// the window; outside, the interval stretched so the cycle's polls stay as many as
/// without the window, but never past the window's start. Without a window, `interval`.
pub fn wait_with_window(
    interval: Duration,
    window: Option<&ReleaseWindow>,
    now: DateTime<Utc>,
) -> Duration {
    let Some(window) = window else {
        return interval;
    };
    if interval <= WINDOW_POLL {
        return interval;
    }
    let (until, inside) = window.until_fast(now);
    if inside {
        return WINDOW_POLL;
    }
    let cycle = window.cycle_seconds as f64;
    let fast = (window.length_seconds + WINDOW_GRACE_SECONDS) as f64;
    let budget = cycle / interval.as_secs_f64();
    let left = budget - fast / WINDOW_POLL.as_secs_f64();
    let stretched = if left >= 1.0 {
        Duration::from_secs_f64((cycle - fast) / left)
    } else {
        interval
    };
    stretched
        .min(Duration::from_secs(u64::try_from(until).unwrap_or(0)))
        .max(Duration::from_secs(60))
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

    /// Deterministic jitter in `-low..high` minutes for episode `n` (splitmix-style).
    fn jitter(n: i64, seed: u64, low: i64, high: i64) -> chrono::Duration {
        let mut z = (n as u64)
            .wrapping_add(seed)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z ^= z >> 27;
        chrono::Duration::minutes((z % (low + high) as u64) as i64 - low)
    }

    /// A weekly show's releases at `habit` (a time in some week) ± jitter, `weeks`
    /// weeks from `from_week` on.
    fn releases(habit: DateTime<Utc>, from_week: i64, weeks: i64, seed: u64) -> Vec<DateTime<Utc>> {
        (from_week..from_week + weeks)
            .map(|week| habit + chrono::Duration::weeks(week) + jitter(week, seed, 20, 40))
            .collect()
    }

    /// Polls from `start` until `end` the way the scheduler waits; the delay from each
    /// release to the first poll after it, and the polls an hour.
    fn simulate(
        window: Option<&ReleaseWindow>,
        start: DateTime<Utc>,
        end: DateTime<Utc>,
        released: &[DateTime<Utc>],
    ) -> (Vec<chrono::Duration>, f64) {
        let mut polls = Vec::new();
        let mut at = start;
        while at < end {
            polls.push(at);
            at += chrono::Duration::from_std(wait_with_window(HOUR, window, at)).unwrap();
        }
        let delays = released
            .iter()
            .map(|release| *polls.iter().find(|poll| *poll >= release).unwrap() - *release)
            .collect();
        (
            delays,
            polls.len() as f64 / (end - start).num_seconds() as f64 * 3600.0,
        )
    }

    #[test]
    fn a_show_released_on_habit_is_found_within_ten_minutes_at_an_hourly_budget() {
        // Tuesdays at 09:00, 20 minutes early to 40 late; and Wednesdays at 23:50, where
        // the window goes round the end of the epoch's week (which starts on Thursday).
        for habit in [
            Utc.with_ymd_and_hms(2026, 6, 2, 9, 0, 0).unwrap(),
            Utc.with_ymd_and_hms(2026, 6, 3, 23, 50, 0).unwrap(),
        ] {
            let history = releases(habit, 0, 12, 1);
            let window = release_window(&history).expect("a habit");
            assert_eq!(window.cycle_seconds, 7 * 24 * 3600);
            assert!(window.length_seconds <= HABIT_SPAN_SECONDS, "{window:?}");
            let coming = releases(habit, 12, 8, 2);
            let start = history[11] + chrono::Duration::hours(5);
            let end = coming[7] + chrono::Duration::days(2);
            let (delays, per_hour) = simulate(Some(&window), start, end, &coming);
            let worst = delays.iter().max().unwrap();
            assert!(
                *worst <= chrono::Duration::minutes(10),
                "{worst} for {habit}"
            );
            assert!(per_hour <= 1.0, "{per_hour} polls an hour");
            // Without the window, the same polls find them up to an hour late.
            let (plain, plain_per_hour) = simulate(None, start, end, &coming);
            assert!(plain.iter().max().unwrap() > &chrono::Duration::minutes(20));
            assert!(
                (per_hour - plain_per_hour).abs() < 0.05,
                "{per_hour} vs {plain_per_hour}"
            );
        }
    }

    #[test]
    fn a_window_is_stored_as_text_and_read_back_and_nothing_else_is_read() {
        let window = ReleaseWindow {
            cycle_seconds: 604_800,
            start_seconds: 30_600,
            length_seconds: 3_600,
        };
        assert_eq!(window.to_text(), "604800/30600/3600");
        assert_eq!(ReleaseWindow::from_text(&window.to_text()), Some(window));
        for bad in [
            "",
            "604800/30600",
            "604800/30600/3600/1",
            "0/0/0",
            "604800/604800/0",
            "x/1/2",
            "86400/10/99999",
        ] {
            assert_eq!(ReleaseWindow::from_text(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_show_with_no_habit_has_no_window_and_keeps_its_interval() {
        // Releases scattered over the week.
        let scattered: Vec<DateTime<Utc>> = (0..12)
            .map(|n| now() - chrono::Duration::weeks(n) + jitter(n, 7, 0, 7 * 24 * 60))
            .collect();
        assert_eq!(release_window(&scattered), None);
        assert_eq!(wait_with_window(HOUR, None, now()), HOUR);
        // Too few episodes to tell.
        assert_eq!(release_window(&every(7, 3)), None);
        // A show faster than twice a day has none: it is polled every quarter hour.
        let hourly: Vec<DateTime<Utc>> = (0..12)
            .map(|n| now() - chrono::Duration::hours(n))
            .collect();
        assert_eq!(release_window(&hourly), None);
    }

    #[test]
    fn a_daily_show_released_at_six_has_a_daily_window() {
        let six = Utc.with_ymd_and_hms(2026, 6, 1, 6, 0, 0).unwrap();
        let history: Vec<DateTime<Utc>> = (0..12)
            .map(|n| six + chrono::Duration::days(n) + jitter(n, 3, 5, 10))
            .collect();
        let window = release_window(&history).expect("a habit");
        assert_eq!(window.cycle_seconds, 24 * 3600);
        let start = six.timestamp().rem_euclid(24 * 3600) - 5 * 60;
        assert!(
            (window.start_seconds - start).abs() <= 15 * 60,
            "{window:?}"
        );
        // Just before the window, the wait ends at its start at the latest; inside, it
        // is the window's pace.
        let before = six + chrono::Duration::days(20) - chrono::Duration::minutes(40);
        let (until, inside) = window.until_fast(before);
        assert!(!inside && until > 0);
        let wait = wait_with_window(MIN_INTERVAL, Some(&window), before);
        assert!(wait.as_secs() as i64 <= until, "{wait:?} past {until} s");
        let at_six = six + chrono::Duration::days(20);
        assert_eq!(
            wait_with_window(MIN_INTERVAL, Some(&window), at_six),
            WINDOW_POLL
        );
    }

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

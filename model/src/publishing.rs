//! How a podcast publishes, from its episodes' dates and runtimes: the 26-week
//! rhythm of the episode catalogue (episodes per day, median runtime and gap, weeks
//! without an episode, a change of release day), monthly counts of the publishing
//! history, and whether an episode is new or a rerun.

use std::collections::{BTreeMap, HashSet};

use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc, Weekday};

/// Weeks the rhythm looks back.
pub const RHYTHM_WEEKS: i64 = 26;
/// Days after today that scheduled (future-dated) episodes are shown for.
pub const RHYTHM_FUTURE_DAYS: i64 = 7;
/// Months of the publishing history.
pub const HISTORY_MONTHS: u32 = 24;
/// Episodes per half of the window needed before a change of release day is told.
const SHIFT_MIN_EPISODES: usize = 3;

/// One published episode as the rhythm sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Release {
    pub published_at: DateTime<Utc>,
    pub duration_seconds: Option<u64>,
}

/// Episodes of one day of the window.
#[derive(Debug, Clone, PartialEq)]
pub struct RhythmDay {
    pub date: NaiveDate,
    pub count: u32,
    /// Total runtime of the day's episodes whose runtime is known.
    pub runtime_seconds: Option<f64>,
    /// After today (an episode scheduled ahead).
    pub future: bool,
}

/// The usual release day moved: `from_day` and `to_day` count from Sunday (0) to
/// Saturday (6); `since` is the first release on the new day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WeekdayShift {
    pub from_day: u8,
    pub to_day: u8,
    pub since: NaiveDate,
}

/// The publishing rhythm over the window `[start, end]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Rhythm {
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
    /// Days with at least one episode, oldest first.
    pub days: Vec<RhythmDay>,
    pub episode_count: u32,
    /// The podcast published before the window: the rhythm shows only its recent part.
    pub truncated: bool,
    pub median_runtime_seconds: Option<f64>,
    pub median_interval_days: Option<f64>,
    /// Mondays of the past weeks of the window without an episode (weeks before the
    /// podcast's first episode are not counted).
    pub empty_weeks: Vec<NaiveDate>,
    pub weekday_shift: Option<WeekdayShift>,
}

fn median(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let middle = values.len() / 2;
    Some(if values.len().is_multiple_of(2) {
        (values[middle - 1] + values[middle]) / 2.0
    } else {
        values[middle]
    })
}

fn monday_of(date: NaiveDate) -> NaiveDate {
    date - Duration::days(i64::from(date.weekday().num_days_from_monday()))
}

/// The rhythm of `releases` (any order) as of `now`. `first_release` is the
/// podcast's first episode when `releases` may not reach back to it.
pub fn rhythm(
    releases: &[Release],
    first_release: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
) -> Rhythm {
    let today = now.date_naive();
    let first_day = today - Duration::weeks(RHYTHM_WEEKS) + Duration::days(1);
    let last_day = today + Duration::days(RHYTHM_FUTURE_DAYS);
    let start = first_day.and_hms_opt(0, 0, 0).unwrap_or_default().and_utc();
    let end = last_day
        .and_hms_opt(23, 59, 59)
        .unwrap_or_default()
        .and_utc();
    let mut in_window: Vec<Release> = releases
        .iter()
        .copied()
        .filter(|release| release.published_at >= start && release.published_at <= end)
        .collect();
    in_window.sort_by_key(|release| release.published_at);
    let first_ever = releases
        .iter()
        .map(|release| release.published_at)
        .chain(first_release)
        .min();
    let truncated = first_ever.is_some_and(|first| first < start);

    let mut by_day: BTreeMap<NaiveDate, (u32, Option<f64>)> = BTreeMap::new();
    for release in &in_window {
        let slot = by_day
            .entry(release.published_at.date_naive())
            .or_insert((0, None));
        slot.0 += 1;
        if let Some(seconds) = release.duration_seconds {
            slot.1 = Some(slot.1.unwrap_or(0.0) + seconds as f64);
        }
    }
    let days = by_day
        .into_iter()
        .map(|(date, (count, runtime_seconds))| RhythmDay {
            date,
            count,
            runtime_seconds,
            future: date > today,
        })
        .collect();

    let mut runtimes: Vec<f64> = in_window
        .iter()
        .filter_map(|release| release.duration_seconds.map(|seconds| seconds as f64))
        .collect();
    let mut intervals: Vec<f64> = in_window
        .windows(2)
        .map(|pair| (pair[1].published_at - pair[0].published_at).num_seconds() as f64 / 86_400.0)
        .collect();

    let published_weeks: HashSet<NaiveDate> = in_window
        .iter()
        .map(|release| monday_of(release.published_at.date_naive()))
        .collect();
    let first_week = monday_of(first_day);
    let this_week = monday_of(today);
    let counted_from = first_ever
        .map(|first| monday_of(first.date_naive()).max(first_week))
        .unwrap_or(this_week);
    let mut empty_weeks = Vec::new();
    let mut week = counted_from;
    while week < this_week {
        if !published_weeks.contains(&week) {
            empty_weeks.push(week);
        }
        week += Duration::weeks(1);
    }

    let past: Vec<&Release> = in_window
        .iter()
        .filter(|release| release.published_at <= now)
        .collect();
    Rhythm {
        start,
        end,
        days,
        episode_count: u32::try_from(in_window.len()).unwrap_or(u32::MAX),
        truncated,
        median_runtime_seconds: median(&mut runtimes),
        median_interval_days: median(&mut intervals),
        empty_weeks,
        weekday_shift: weekday_shift(&past),
    }
}

/// The most common weekday of `releases` when it holds at least half of them.
fn usual_weekday(releases: &[&Release]) -> Option<Weekday> {
    let mut counts = [0usize; 7];
    for release in releases {
        counts[release.published_at.weekday().num_days_from_sunday() as usize] += 1;
    }
    let (day, &count) = counts
        .iter()
        .enumerate()
        .max_by_key(|&(day, count)| (*count, std::cmp::Reverse(day)))?;
    (count * 2 >= releases.len() && count > 0).then(|| weekday_from_sunday(day))
}

fn weekday_from_sunday(day: usize) -> Weekday {
    [
        Weekday::Sun,
        Weekday::Mon,
        Weekday::Tue,
        Weekday::Wed,
        Weekday::Thu,
        Weekday::Fri,
        Weekday::Sat,
    ][day % 7]
}

/// A change of release day between the older and the newer half of the window.
fn weekday_shift(releases: &[&Release]) -> Option<WeekdayShift> {
    if releases.len() < SHIFT_MIN_EPISODES * 2 {
        return None;
    }
    let (older, newer) = releases.split_at(releases.len() / 2);
    let from = usual_weekday(older)?;
    let to = usual_weekday(newer)?;
    if from == to {
        return None;
    }
    let since = newer
        .iter()
        .find(|release| release.published_at.weekday() == to)?
        .published_at
        .date_naive();
    Some(WeekdayShift {
        from_day: from.num_days_from_sunday() as u8,
        to_day: to.num_days_from_sunday() as u8,
        since,
    })
}

/// Monthly episode counts of the last [`HISTORY_MONTHS`] UTC months, this month last.
#[derive(Debug, Clone, PartialEq)]
pub struct PublishingHistory {
    /// The first month counted, `YYYY-MM`.
    pub from_month: String,
    pub counts: Vec<u32>,
    /// Mean over the complete months (this month is still running), `None` when no
    /// episode fell in them.
    pub average_episodes_per_month: Option<f64>,
    pub last_episode_at: Option<DateTime<Utc>>,
    /// The podcast published before `from_month`.
    pub truncated: bool,
}

fn month_index(date: NaiveDate) -> i64 {
    i64::from(date.year()) * 12 + i64::from(date.month0())
}

/// The publishing history of episodes published at `dates` (any order), as of `now`.
pub fn publishing_history(dates: &[DateTime<Utc>], now: DateTime<Utc>) -> PublishingHistory {
    let this_month = month_index(now.date_naive());
    let first_month = this_month - i64::from(HISTORY_MONTHS) + 1;
    let mut counts = vec![0u32; HISTORY_MONTHS as usize];
    let mut truncated = false;
    for date in dates.iter().filter(|date| **date <= now) {
        let month = month_index(date.date_naive());
        if month < first_month {
            truncated = true;
            continue;
        }
        if let Ok(slot) = usize::try_from(month - first_month)
            && let Some(count) = counts.get_mut(slot)
        {
            *count += 1;
        }
    }
    let complete = &counts[..counts.len() - 1];
    let total: u32 = complete.iter().sum();
    let year = first_month.div_euclid(12);
    let month = first_month.rem_euclid(12) + 1;
    PublishingHistory {
        from_month: format!("{year:04}-{month:02}"),
        average_episodes_per_month: (total > 0).then(|| f64::from(total) / complete.len() as f64),
        counts,
        last_episode_at: dates.iter().copied().filter(|date| *date <= now).max(),
        truncated,
    }
}

/// Title words that mark a re-release.
const RERUN_MARKERS: &[&str] = &[
    "rerun",
    "re-run",
    "rebroadcast",
    "re-broadcast",
    "encore",
    "replay",
    "re-air",
    "reair",
    "best of",
    "from the archive",
    "from the vault",
    "repost",
    "re-release",
    "rewind",
    "classic episode",
];

fn normalized_title(title: &str) -> String {
    title
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || c.is_whitespace())
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether each episode (oldest first) is a rerun: its title says so ("Encore:",
/// "(Rerun)", "Best of …"), or repeats the title of an earlier episode.
pub fn reruns<'a>(titles_oldest_first: impl IntoIterator<Item = &'a str>) -> Vec<bool> {
    let mut seen: HashSet<String> = HashSet::new();
    titles_oldest_first
        .into_iter()
        .map(|title| {
            let lower = title.to_lowercase();
            let marked = RERUN_MARKERS.iter().any(|marker| {
                lower.match_indices(marker).any(|(at, _)| {
                    let before = lower[..at].chars().next_back();
                    let after = lower[at + marker.len()..].chars().next();
                    !before.is_some_and(char::is_alphanumeric)
                        && !after.is_some_and(char::is_alphanumeric)
                })
            });
            let key = normalized_title(title);
            let repeated = !key.is_empty() && !seen.insert(key);
            marked || repeated
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at(year: i32, month: u32, day: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(year, month, day, 9, 0, 0).unwrap()
    }

    fn weekly(from: DateTime<Utc>, count: i64, step_days: i64, minutes: u64) -> Vec<Release> {
        (0..count)
            .map(|n| Release {
                published_at: from + Duration::days(n * step_days),
                duration_seconds: Some(minutes * 60),
            })
            .collect()
    }

    #[test]
    fn a_weekly_show_has_a_seven_day_gap_and_no_empty_weeks() {
        // 2026-11-23 is a Monday; weekly on Mondays for 20 weeks up to today.
        let now = at(2026, 11, 23) + Duration::hours(3);
        let releases = weekly(at(2026, 11, 23) - Duration::weeks(19), 20, 7, 45);
        let rhythm = rhythm(&releases, None, now);
        assert_eq!(rhythm.episode_count, 20);
        assert_eq!(rhythm.median_interval_days, Some(7.0));
        assert_eq!(rhythm.median_runtime_seconds, Some(2700.0));
        assert!(rhythm.empty_weeks.is_empty(), "{:?}", rhythm.empty_weeks);
        assert!(!rhythm.truncated);
        assert_eq!(rhythm.days.len(), 20);
        assert!(rhythm.days.iter().all(|day| day.count == 1 && !day.future));
        assert_eq!(rhythm.weekday_shift, None);
    }

    #[test]
    fn gaps_shifts_and_scheduled_episodes() {
        let now = at(2026, 11, 23);
        // Tuesdays for 8 weeks, then a three-week break, then Fridays.
        let mut releases = weekly(at(2026, 7, 7), 8, 7, 30);
        let fridays = weekly(at(2026, 9, 25), 9, 7, 30);
        releases.extend(fridays);
        releases.push(Release {
            published_at: now + Duration::days(2),
            duration_seconds: None,
        });
        releases.push(Release {
            published_at: at(2020, 1, 1),
            duration_seconds: Some(60),
        });
        let rhythm = rhythm(&releases, None, now);
        assert!(rhythm.truncated);
        assert_eq!(rhythm.episode_count, 18);
        let shift = rhythm.weekday_shift.expect("tuesday to friday");
        assert_eq!((shift.from_day, shift.to_day), (2, 5));
        assert_eq!(shift.since, NaiveDate::from_ymd_opt(2026, 9, 25).unwrap());
        let monday = |m, d| NaiveDate::from_ymd_opt(2026, m, d).unwrap();
        for week in [monday(9, 7), monday(9, 14)] {
            assert!(rhythm.empty_weeks.contains(&week), "{week}");
        }
        assert!(rhythm.days.last().unwrap().future);
    }

    #[test]
    fn history_counts_months_and_averages_complete_ones() {
        let now = at(2026, 11, 23);
        let dates = [
            at(2026, 11, 2),
            at(2026, 10, 5),
            at(2026, 10, 19),
            at(2024, 12, 1),
            at(2024, 11, 30),
        ];
        let history = publishing_history(&dates, now);
        assert_eq!(history.from_month, "2024-12");
        assert_eq!(history.counts.len(), 24);
        assert_eq!(history.counts[0], 1);
        assert_eq!(history.counts[22], 2);
        assert_eq!(history.counts[23], 1);
        assert!(history.truncated);
        assert_eq!(history.average_episodes_per_month, Some(3.0 / 23.0));
        assert_eq!(history.last_episode_at, Some(at(2026, 11, 2)));
    }

    #[test]
    fn reruns_are_marked_or_repeated_titles() {
        let flags = reruns([
            "Episode 1: Origins",
            "Encore: The Heist",
            "Episode 2 — Encores and Endings",
            "episode 1 origins",
            "The Best of 2025",
        ]);
        assert_eq!(flags, [false, true, false, true, true]);
    }
}

//! The metered counters and their windows.

use chrono::{Datelike, NaiveDate};

/// A metered counter; its wire name is the usage alias the usage endpoints report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UsageCounter {
    Search,
    TranscriptDownload,
    Export,
    PodcastLookup,
    EpisodeLookup,
    TranscriptionRequest,
    AiAssist,
    ContactsRequested,
}

impl UsageCounter {
    pub const ALL: [UsageCounter; 8] = [
        UsageCounter::Search,
        UsageCounter::TranscriptDownload,
        UsageCounter::Export,
        UsageCounter::PodcastLookup,
        UsageCounter::EpisodeLookup,
        UsageCounter::TranscriptionRequest,
        UsageCounter::AiAssist,
        UsageCounter::ContactsRequested,
    ];

    pub fn alias(self) -> &'static str {
        match self {
            UsageCounter::Search => "searchCount",
            UsageCounter::TranscriptDownload => "transcriptDownloadCount",
            UsageCounter::Export => "exportCount",
            UsageCounter::PodcastLookup => "podcastLookups",
            UsageCounter::EpisodeLookup => "episodeLookups",
            UsageCounter::TranscriptionRequest => "transcriptionRequests",
            UsageCounter::AiAssist => "aiAssistCount",
            UsageCounter::ContactsRequested => "contactsRequestedCount",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            UsageCounter::Search => "Searches",
            UsageCounter::TranscriptDownload => "Transcript downloads",
            UsageCounter::Export => "Exports",
            UsageCounter::PodcastLookup => "Podcast lookups",
            UsageCounter::EpisodeLookup => "Episode lookups",
            UsageCounter::TranscriptionRequest => "Transcription requests",
            UsageCounter::AiAssist => "AI assists",
            UsageCounter::ContactsRequested => "Advanced contacts",
        }
    }

    pub fn from_alias(alias: &str) -> Option<UsageCounter> {
        UsageCounter::ALL
            .into_iter()
            .find(|counter| counter.alias() == alias)
    }
}

/// The period a limit applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UsageWindow {
    Day,
    Month,
}

impl UsageWindow {
    /// First and last day of the window containing `day`.
    pub fn bounds(self, day: NaiveDate) -> (NaiveDate, NaiveDate) {
        match self {
            UsageWindow::Day => (day, day),
            UsageWindow::Month => month_bounds(day),
        }
    }

    pub fn noun(self) -> &'static str {
        match self {
            UsageWindow::Day => "daily",
            UsageWindow::Month => "monthly",
        }
    }
}

/// First and last day of `day`'s calendar month.
pub fn month_bounds(day: NaiveDate) -> (NaiveDate, NaiveDate) {
    let first = day.with_day(1).unwrap_or(day);
    let next_month = if first.month() == 12 {
        NaiveDate::from_ymd_opt(first.year() + 1, 1, 1)
    } else {
        NaiveDate::from_ymd_opt(first.year(), first.month() + 1, 1)
    };
    let last = next_month.and_then(|next| next.pred_opt()).unwrap_or(day);
    (first, last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn month_bounds_handle_december_and_leap_years() {
        let day = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).unwrap();
        assert_eq!(
            month_bounds(day(2024, 2, 10)),
            (day(2024, 2, 1), day(2024, 2, 29))
        );
        assert_eq!(
            month_bounds(day(2025, 12, 31)),
            (day(2025, 12, 1), day(2025, 12, 31))
        );
        assert_eq!(
            UsageWindow::Day.bounds(day(2025, 3, 3)),
            (day(2025, 3, 3), day(2025, 3, 3))
        );
    }

    #[test]
    fn aliases_round_trip() {
        for counter in UsageCounter::ALL {
            assert_eq!(UsageCounter::from_alias(counter.alias()), Some(counter));
        }
    }
}

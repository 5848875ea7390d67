//! The inputs a catalog podcast and its episodes give: guest acceptance, posting
//! interval, episode length, artwork, episode count, age, show-notes quality and
//! social links in the feed. The other inputs (website links, followers, YouTube,
//! reviews, charts, Castbox) come from crawls, lookups and charts and are added by
//! the caller; whatever is not known stays `None`.

use chrono::{DateTime, Utc};
use podlens_model::catalog::{EpisodeRecord, PodcastRecord};
use podlens_model::classify_social_url;
use podlens_model::entities::AuthorityInputs;

/// Show notes of this many characters (without HTML) count as complete.
pub const FULL_SHOW_NOTES_CHARS: f64 = 500.0;

/// The feed's part of the inputs, its age counted to `as_of`.
pub fn feed_inputs(
    podcast: &PodcastRecord,
    episodes: &[EpisodeRecord],
    as_of: DateTime<Utc>,
) -> AuthorityInputs {
    let mut published: Vec<DateTime<Utc>> = episodes
        .iter()
        .filter_map(|e| e.episode_rss_published_at)
        .collect();
    published.sort();
    let durations: Vec<f64> = episodes
        .iter()
        .filter_map(|e| e.episode_duration_seconds)
        .filter(|&seconds| seconds > 0)
        .map(|seconds| seconds as f64)
        .collect();
    let notes: Vec<f64> = episodes
        .iter()
        .map(|e| {
            let chars = e
                .episode_rss_description_no_html
                .as_deref()
                .map_or(0, |text| text.trim().chars().count());
            (chars as f64 / FULL_SHOW_NOTES_CHARS).min(1.0)
        })
        .collect();
    let social_links = podcast
        .podcast_funding_urls
        .iter()
        .chain(podcast.podcast_website_url.iter())
        .filter(|url| matches!(classify_social_url(url), Some(Ok(_))))
        .count() as u64;
    let founded = podcast.founded_date.or_else(|| published.first().copied());
    AuthorityInputs {
        guest_acceptance: Some(podcast.podcast_has_guests),
        posting_interval_days: median_gap_days(&published),
        average_episode_length_seconds: mean(&durations),
        has_thumbnails: Some(
            podcast.podcast_image_url.is_some()
                || episodes.iter().any(|e| e.episode_image_url.is_some()),
        ),
        episode_count: Some(
            u64::try_from(podcast.total_episodes.max(episodes.len() as i64)).unwrap_or(0),
        ),
        age_days: founded.map(|date| u64::try_from((as_of - date).num_days()).unwrap_or(0)),
        show_notes_quality: mean(&notes),
        feed_social_links: Some(social_links),
        ..AuthorityInputs::default()
    }
}

fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// The median gap between consecutive episodes over the latest 20, in days.
fn median_gap_days(sorted: &[DateTime<Utc>]) -> Option<f64> {
    let recent = &sorted[sorted.len().saturating_sub(21)..];
    let mut gaps: Vec<f64> = recent
        .windows(2)
        .map(|pair| (pair[1] - pair[0]).num_seconds() as f64 / 86_400.0)
        .collect();
    if gaps.is_empty() {
        return None;
    }
    gaps.sort_by(f64::total_cmp);
    let middle = gaps.len() / 2;
    Some(if gaps.len().is_multiple_of(2) {
        (gaps[middle - 1] + gaps[middle]) / 2.0
    } else {
        gaps[middle]
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn median_gap_is_robust_to_one_long_break() {
        let day = |d: u32| Utc.with_ymd_and_hms(2026, 1, d, 0, 0, 0).unwrap();
        let dates = [day(1), day(8), day(15), day(29)];
        // gaps 7, 7, 14 → median 7
        assert_eq!(median_gap_days(&dates), Some(7.0));
        assert_eq!(median_gap_days(&dates[..1]), None);
        assert_eq!(median_gap_days(&dates[..2]), Some(7.0));
    }
}

//! A podcast's episode catalogue (publishing rhythm and compact episode list), its
//! publishing history, everything about a podcast in one answer, and the answer to a
//! refresh from its feed.

use serde::{Deserialize, Serialize};

use super::{
    ChartAppearance, Episode, EpisodePerson, Podcast, PodcastContacts, PodcastGuests,
    PodcastReviews, PodcastSocialMedia, PodcastSponsors, PodcastYoutubeData, RelatedPodcasts,
    Timestamp,
};

/// One episode of the catalogue.
/// SDK: `GetPodcastEpisodeCatalogueResponseCatalogueEpisodesItem`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CatalogueEpisode {
    pub id: String,
    pub slug: String,
    pub title: String,
    pub published_at: Timestamp,
    pub duration_seconds: Option<u64>,
    pub image_url: Option<String>,
    pub people: Option<Vec<EpisodePerson>>,
    pub sponsors: Option<Vec<String>>,
    pub has_transcript: bool,
    /// `new` or `rerun`.
    pub release_type: Option<String>,
    pub apple_podcasts_url: Option<String>,
    pub youtube_url: Option<String>,
    pub spotify_url: Option<String>,
}

/// SDK: `GetPodcastEpisodeCatalogueResponseCatalogueRhythmDaysItem`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CatalogueRhythmDay {
    /// `YYYY-MM-DD` (UTC).
    pub date: String,
    pub count: u32,
    pub runtime_seconds: Option<f64>,
    pub future: bool,
}

/// SDK: `GetPodcastEpisodeCatalogueResponseCatalogueRhythmWeekdayShift`. Days count
/// from Sunday (0) to Saturday (6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CatalogueWeekdayShift {
    pub from_day: u8,
    pub to_day: u8,
    /// `YYYY-MM-DD`: the first release on the new day.
    pub since: String,
}

/// SDK: `GetPodcastEpisodeCatalogueResponseCatalogueRhythm`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CatalogueRhythm {
    pub start: Timestamp,
    pub end: Timestamp,
    pub days: Vec<CatalogueRhythmDay>,
    pub episode_count: u32,
    pub truncated: bool,
    pub median_runtime_seconds: Option<f64>,
    pub median_interval_days: Option<f64>,
    /// Mondays (`YYYY-MM-DD`) of the weeks without an episode.
    pub empty_weeks: Vec<String>,
    pub weekday_shift: Option<CatalogueWeekdayShift>,
}

/// SDK: `GetPodcastEpisodeCatalogueResponseCatalogue`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EpisodeCatalogue {
    pub episodes: Vec<CatalogueEpisode>,
    /// The podcast has more episodes than the view lists.
    pub truncated: bool,
    /// Whether `releaseType` was determined for the episodes.
    pub classification_available: bool,
    pub rhythm: CatalogueRhythm,
}

/// `GET /api/v1/podcasts/{id}/episode-catalogue`.
/// SDK: `GetPodcastEpisodeCatalogueResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EpisodeCatalogueResponse {
    pub catalogue: EpisodeCatalogue,
}

/// SDK: `GetPodcastAllDetailsResponsePodcastPublishingHistoryMonthlyEpisodeCounts`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MonthlyEpisodeCounts {
    /// `YYYY-MM`: the month of `counts[0]`.
    pub from_month: String,
    pub counts: Vec<u32>,
}

/// SDK: `GetPodcastAllDetailsResponsePodcastPublishingHistory`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PublishingHistory {
    pub monthly_episode_counts: MonthlyEpisodeCounts,
    pub average_episodes_per_month: Option<f64>,
    pub last_episode_at: Option<Timestamp>,
    pub truncated: bool,
}

/// Everything about a podcast. SDK: `GetPodcastAllDetailsResponsePodcast`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastAllDetails {
    pub podcast: Podcast,
    pub recent_episodes: Option<Vec<Episode>>,
    pub contacts: Option<PodcastContacts>,
    pub guests: Option<PodcastGuests>,
    pub reviews: Option<PodcastReviews>,
    pub social_media: Option<PodcastSocialMedia>,
    pub sponsors: Option<PodcastSponsors>,
    pub related_podcasts: Option<RelatedPodcasts>,
    pub chart_positions: Option<Vec<ChartAppearance>>,
    pub youtube_data: Option<PodcastYoutubeData>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub publishing_history: Option<PublishingHistory>,
}

/// `GET /api/v1/podcasts/{id}/all-details`. SDK: `GetPodcastAllDetailsResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastAllDetailsResponse {
    pub podcast: PodcastAllDetails,
}

/// Why a refresh failed. SDK: `RefreshPodcastResponseVariant2.error_code`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RefreshErrorCode {
    RssNotFound,
    RssParseError,
    RssFetchFailed,
    UpdateFailed,
    UnknownError,
}

/// SDK: `RefreshPodcastResponseVariant2ErrorDetails`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RefreshErrorDetails {
    pub rss_url: Option<String>,
}

/// `GET /api/v1/podcasts/{id}/refresh`: the podcast as re-read from its feed
/// (SDK `RefreshPodcastResponseVariant1`), or why it could not be
/// (`RefreshPodcastResponseVariant2`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RefreshPodcastResponse {
    #[serde(rename_all = "camelCase")]
    Refreshed {
        success: bool,
        podcast: Box<Podcast>,
    },
    #[serde(rename_all = "camelCase")]
    Failed {
        success: bool,
        error_code: RefreshErrorCode,
        error_message: String,
        error_details: Option<RefreshErrorDetails>,
    },
}

//! Computed records: RSS public stats, the authority score, and a website crawl.

use serde::{Deserialize, Serialize};

use super::Timestamp;
use crate::kinds::{DirectoryKind, SocialKind};

/// How often a feed field occurs.
/// SDK: `GetRssStatsPodcast2ResponsePodcast2StatsPodcastLevelStatsFieldFrequencyItem`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FieldFrequency {
    pub field: String,
    pub frequency: u64,
    pub percentage: f64,
}

/// Field frequencies at one level (podcast or episode).
/// SDK: `GetRssStatsPodcast2ResponsePodcast2StatsPodcastLevelStats`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FieldLevelStats {
    pub total_rss_feeds: u64,
    pub field_frequency: Vec<FieldFrequency>,
}

/// A podcast that implements many Podcasting 2.0 fields.
/// SDK: `GetRssStatsPodcast2ResponsePodcast2StatsTopPodcast2PodcastsItem`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TopPodcast2Podcast {
    pub podcast_id: String,
    pub host: String,
    pub podcast_slug: String,
    pub podcast_image_url: Option<String>,
    pub rss_feed_url: String,
    pub num_podcast20_fields: u64,
    pub implemented_fields: Vec<String>,
}

/// A feed host and its share of podcasts.
/// SDK: `GetRssStatsPodcast2ResponsePodcast2StatsTopHostsItem`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TopHost {
    pub host: String,
    pub total_podcasts: u64,
    pub percentage: f64,
}

/// A feed host and how many of its podcasts have Podcasting 2.0 transcripts.
/// SDK: `GetRssStatsPodcast2ResponsePodcast2StatsTopHostsWithPodcast2TranscriptsItem`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TopHostWithTranscripts {
    pub host: String,
    pub total_podcasts: u64,
    pub num_podcasts_with_transcripts: u64,
    pub percentage: f64,
}

/// A feed host and the Podcasting 2.0 fields its podcasts use on average.
/// SDK: `GetRssStatsPodcast2ResponsePodcast2StatsTopHostsWithPodcast2StatsItem`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TopHostWithPodcast2Fields {
    pub host: String,
    pub total_podcasts: u64,
    pub average_num_podcast2_fields: f64,
}

/// RSS public stats: field frequency at podcast and episode level, top hosts,
/// top podcasts by implemented fields. SDK: `GetRssStatsPodcast2ResponsePodcast2Stats`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RssPublicStats {
    pub podcast_level_stats: FieldLevelStats,
    pub episode_level_stats: FieldLevelStats,
    pub top_podcast2_podcasts: Vec<TopPodcast2Podcast>,
    pub top_hosts: Vec<TopHost>,
    pub top_hosts_with_podcast2_transcripts: Vec<TopHostWithTranscripts>,
    pub top_hosts_with_podcast2_stats: Vec<TopHostWithPodcast2Fields>,
}

/// `GET /api/v1/rss/stats/public/podcast2`. SDK: `GetRssStatsPodcast2Response`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RssPublicStatsResponse {
    pub podcast2_stats: RssPublicStats,
}

/// One weighted part of the authority score.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WeightedScore {
    /// 0 to 100.
    pub score: f64,
    /// Share of the final score, 0 to 1; the weights of a score add up to 1.
    pub weight: f64,
}

/// The four sub-scores of the authority score.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AuthoritySubScores {
    pub quality: WeightedScore,
    pub social: WeightedScore,
    pub youtube: WeightedScore,
    pub engagement: WeightedScore,
}

impl AuthoritySubScores {
    /// The weighted sum of the sub-scores.
    pub fn weighted_total(&self) -> f64 {
        [self.quality, self.social, self.youtube, self.engagement]
            .iter()
            .map(|part| part.score * part.weight)
            .sum()
    }
}

/// What the authority score was computed from; a missing input is null.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AuthorityInputs {
    pub guest_acceptance: Option<bool>,
    pub posting_interval_days: Option<f64>,
    pub average_episode_length_seconds: Option<f64>,
    pub has_thumbnails: Option<bool>,
    pub episode_count: Option<u64>,
    pub age_days: Option<u64>,
    pub show_notes_quality: Option<f64>,
    pub feed_social_links: Option<u64>,
    pub website_links: Option<u64>,
    pub follower_count: Option<u64>,
    pub youtube_views: Option<u64>,
    pub youtube_subscribers: Option<u64>,
    pub review_count: Option<u64>,
    pub rating: Option<f64>,
    pub best_chart_position: Option<u32>,
    pub castbox_plays: Option<u64>,
    pub castbox_subscribers: Option<u64>,
}

/// `GET /api/v1/podcasts/authority-score/{id}/details`: the final score, its
/// weighted sub-scores and the inputs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AuthorityScoreDetails {
    pub podcast_id: String,
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub calculated_at: Timestamp,
    pub final_score: f64,
    pub sub_scores: AuthoritySubScores,
    pub inputs: AuthorityInputs,
}

/// A contact page found on a podcast's website.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CrawlContactPage {
    pub url: String,
    pub has_form: bool,
    pub emails: Vec<String>,
    pub phones: Vec<String>,
    pub title: Option<String>,
}

/// A social profile found on a website and where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrawlSocial {
    #[serde(rename = "type")]
    pub kind: SocialKind,
    pub url: String,
    pub occurrences: u64,
    pub pages: Vec<String>,
}

/// A podcast directory page linked from a website.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrawlDirectoryLink {
    #[serde(rename = "type")]
    pub kind: DirectoryKind,
    pub url: String,
}

/// Counters of one crawl.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CrawlStats {
    pub base_url: String,
    pub pages_crawled: u64,
    pub errors: u64,
    pub cache_hits: u64,
    pub cache_misses: u64,
    pub duration_ms: u64,
}

/// What crawling a podcast's website found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebsiteCrawlResult {
    pub external_links: Vec<String>,
    pub emails: Vec<String>,
    pub phone_numbers: Vec<String>,
    pub contact_pages: Vec<CrawlContactPage>,
    pub socials: Vec<CrawlSocial>,
    pub podcast_directory_links: Vec<CrawlDirectoryLink>,
    pub apple_podcast_links: Vec<String>,
    pub spotify_podcast_links: Vec<String>,
    pub visited_urls: Vec<String>,
    pub stats: CrawlStats,
}

//! Ratings and reviews on Apple Podcasts and Spotify, and Castbox plays.

use serde::{Deserialize, Serialize};

use super::{PodcastSummary, Timestamp};

/// Apple Podcasts ratings in one country, with the count per star.
/// SDK: `GetPodcastAllDetailsResponsePodcastReviewsApplePodcastsReview` (and the
/// identical `...ApplePodcastsReviewsByCountryItem`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AppleReview {
    pub apple_id: u64,
    pub scraped_at: Timestamp,
    pub country: String,
    pub reviews_count: u64,
    pub rating: Option<f64>,
    pub one_star_count: u64,
    pub two_star_count: u64,
    pub three_star_count: u64,
    pub four_star_count: u64,
    pub five_star_count: u64,
}

/// One written Apple Podcasts review.
/// SDK: `GetPodcastAllDetailsResponsePodcastReviewsApplePodcastsReviewTextReviewsItem`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AppleTextReview {
    pub country: String,
    pub rating: f64,
    pub title: String,
    pub body: String,
    pub author: String,
    pub reviewed_at: Timestamp,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matched_words: Option<Vec<String>>,
}

/// A page of written Apple Podcasts reviews.
/// SDK: `GetPodcastAllDetailsResponsePodcastReviewsApplePodcastsReviewText`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AppleReviewText {
    pub country: Option<String>,
    pub total: u64,
    pub limit: u64,
    pub offset: u64,
    pub reviews: Vec<AppleTextReview>,
}

/// Spotify ratings. SDK: `GetPodcastAllDetailsResponsePodcastReviewsSpotifyReview`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpotifyReview {
    pub spotify_id: String,
    pub scraped_at: Timestamp,
    pub reviews_count: u64,
    pub rating: Option<f64>,
}

/// Castbox plays and subscribers. SDK: `GetPodcastAllDetailsResponsePodcastReviewsCastbox`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CastboxStats {
    pub scraped_at: Timestamp,
    pub plays: u64,
    pub subscribers: u64,
}

/// All reviews of one podcast. SDK: `GetPodcastReviewsResponsePodcastReviews`
/// (same shape as `GetPodcastAllDetailsResponsePodcastReviews`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastReviews {
    pub podcast_id: String,
    pub apple_id: u64,
    pub spotify_id: Option<String>,
    pub apple_podcasts_review: Option<AppleReview>,
    pub apple_podcasts_reviews_by_country: Vec<AppleReview>,
    pub apple_podcasts_review_text: Option<AppleReviewText>,
    pub spotify_review: Option<SpotifyReview>,
    pub castbox: Option<CastboxStats>,
}

/// `GET /api/v1/podcasts/{id}/reviews`. SDK: `GetPodcastReviewsResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastReviewsResponse {
    pub podcast: PodcastSummary,
    pub podcast_reviews: PodcastReviews,
}

//! A podcast's enrichment: contacts and social profiles found on its website and in
//! its feed, ratings and followers from the platform lookups, YouTube reach, and the
//! authority score with its published sub-scores, weights and inputs.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::get;
use podlens_data::PlatformLookupRow;
use podlens_model::SocialKind;
use podlens_model::catalog::PodcastRecord;
use podlens_model::entities::{
    AppleReview, AuthorityScoreDetails, AuthorityScoreSummary, CastboxStats,
    PodcastContactsResponse, PodcastReviews, PodcastReviewsResponse, PodcastSocialMedia,
    PodcastSocialMediaResponse, PodcastSummary, PodcastYoutubeData, SpotifyReview, YoutubeChannel,
    YoutubeThumbnails,
};
use serde::Serialize;

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::{ApiError, ApiResult};
use crate::metering::{self, Metered};
use crate::routes::lookup;
use crate::state::{AppState, blocking};
use podlens_app::accounts::UsageCounter;
use podlens_app::convert;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/podcasts/{podcastIdOrSlug}/contacts", get(contacts))
        .route(
            "/api/v1/podcasts/{podcastIdOrSlug}/social-media",
            get(social_media),
        )
        .route("/api/v1/podcasts/{podcastIdOrSlug}/reviews", get(reviews))
        .route("/api/v1/podcasts/{podcastIdOrSlug}/youtube", get(youtube))
        .route(
            "/api/v1/podcasts/authority-score/{podcastId}",
            get(authority_score),
        )
        .route(
            "/api/v1/podcasts/authority-score/{podcastId}/details",
            get(authority_score_details),
        )
}

pub use podlens_app::convert::score_summary;

/// The summary of a podcast with its authority score, when it has one.
pub fn summary_with_score(state: &AppState, record: &PodcastRecord) -> ApiResult<PodcastSummary> {
    Ok(state.catalog.podcast_summary(record)?)
}

/// A podcast's contacts: emails, phone numbers and websites with their contact pages.
/// Contacts found on the website count against the plan's advanced contacts.
#[utoipa::path(get, path = "/api/v1/podcasts/{podcastIdOrSlug}/contacts", tag = "podcasts",
    params(("podcastIdOrSlug" = String, Path, description = "Podcast id or slug")),
    responses((status = 200, description = "The contacts"), (status = 404, description = "Unknown podcast"),
              (status = 429, description = "Advanced contacts limit reached")))]
pub async fn contacts(
    State(state): State<AppState>,
    caller: Caller,
    Path(id_or_slug): Path<String>,
) -> ApiResult<(Option<Metered>, Envelope<PodcastContactsResponse>)> {
    let plan = caller.plan;
    let lookup_state = state.clone();
    let record =
        blocking(move || lookup::podcast_by_id_or_slug(&lookup_state, &id_or_slug)).await?;
    let metered = if plan.sees_internal_contacts() {
        Some(metering::charge(&state, &caller, UsageCounter::ContactsRequested).await?)
    } else {
        None
    };
    let response = blocking(move || {
        Ok(PodcastContactsResponse {
            podcast: summary_with_score(&state, &record)?,
            podcast_contacts: state.catalog.podcast_contacts(&record, plan)?,
        })
    })
    .await?;
    Ok((metered, Envelope(response)))
}

/// A podcast's social profiles.
#[utoipa::path(get, path = "/api/v1/podcasts/{podcastIdOrSlug}/social-media", tag = "podcasts",
    params(("podcastIdOrSlug" = String, Path, description = "Podcast id or slug")),
    responses((status = 200, description = "The social profiles"), (status = 404, description = "Unknown podcast")))]
pub async fn social_media(
    State(state): State<AppState>,
    Path(id_or_slug): Path<String>,
) -> ApiResult<Envelope<PodcastSocialMediaResponse>> {
    blocking(move || {
        let record = lookup::podcast_by_id_or_slug(&state, &id_or_slug)?;
        Ok(Envelope(PodcastSocialMediaResponse {
            podcast: summary_with_score(&state, &record)?,
            social_media_data: PodcastSocialMedia {
                podcast_id: record.podcast_id.to_string(),
                social_media_links: state.catalog.social_links(&record)?,
                facebook_page_data: Vec::new(),
                instagram_data: Vec::new(),
                linked_in_company_data: Vec::new(),
                linked_in_person_data: Vec::new(),
                tiktok_data: Vec::new(),
                twitter_data: Vec::new(),
            },
        }))
    })
    .await
}

fn lookup_of<'a>(rows: &'a [PlatformLookupRow], platform: &str) -> Option<&'a PlatformLookupRow> {
    rows.iter().find(|row| row.platform == platform)
}

/// Ratings from the platform lookups.
pub(crate) fn podcast_reviews(
    state: &AppState,
    record: &PodcastRecord,
    scraped_at: chrono::DateTime<chrono::Utc>,
) -> ApiResult<PodcastReviews> {
    let lookups = state
        .catalog
        .snapshot()?
        .platform_lookups(record.podcast_id)?;
    let apple_id = lookup_of(&lookups, "apple")
        .and_then(|row| row.lookup_key.parse().ok())
        .unwrap_or_else(|| convert::apple_id_number(record));
    let apple = lookup_of(&lookups, "apple").map(|row| AppleReview {
        apple_id,
        scraped_at,
        country: "us".into(),
        reviews_count: row.ratings_count.unwrap_or(0),
        rating: row.rating,
        one_star_count: 0,
        two_star_count: 0,
        three_star_count: 0,
        four_star_count: 0,
        five_star_count: 0,
    });
    let spotify = lookup_of(&lookups, "spotify").map(|row| SpotifyReview {
        spotify_id: row.lookup_key.clone(),
        scraped_at,
        reviews_count: row.ratings_count.unwrap_or(0),
        rating: row.rating,
    });
    let castbox = lookup_of(&lookups, "castbox").map(|row| CastboxStats {
        scraped_at,
        plays: row.plays.unwrap_or(0),
        subscribers: row.subscribers.or(row.followers).unwrap_or(0),
    });
    Ok(PodcastReviews {
        podcast_id: record.podcast_id.to_string(),
        apple_id,
        spotify_id: record
            .spotify_id
            .clone()
            .or_else(|| spotify.as_ref().map(|review| review.spotify_id.clone())),
        apple_podcasts_reviews_by_country: apple.iter().cloned().collect(),
        apple_podcasts_review: apple,
        apple_podcasts_review_text: None,
        spotify_review: spotify,
        castbox,
    })
}

/// When the podcast's lookups were imported: the time its score was computed from
/// them, else now.
pub(crate) fn lookups_time(
    state: &AppState,
    record: &PodcastRecord,
) -> ApiResult<chrono::DateTime<chrono::Utc>> {
    Ok(state
        .catalog
        .snapshot()?
        .authority_scores(&[record.podcast_id])?
        .get(&record.podcast_id)
        .map(|row| row.calculated_at)
        .unwrap_or_else(chrono::Utc::now))
}

/// A podcast's ratings on Apple Podcasts and Spotify, and its Castbox plays.
#[utoipa::path(get, path = "/api/v1/podcasts/{podcastIdOrSlug}/reviews", tag = "podcasts",
    params(("podcastIdOrSlug" = String, Path, description = "Podcast id or slug")),
    responses((status = 200, description = "The ratings"), (status = 404, description = "Unknown podcast")))]
pub async fn reviews(
    State(state): State<AppState>,
    Path(id_or_slug): Path<String>,
) -> ApiResult<Envelope<PodcastReviewsResponse>> {
    blocking(move || {
        let record = lookup::podcast_by_id_or_slug(&state, &id_or_slug)?;
        let at = lookups_time(&state, &record)?;
        Ok(Envelope(PodcastReviewsResponse {
            podcast: summary_with_score(&state, &record)?,
            podcast_reviews: podcast_reviews(&state, &record, at)?,
        }))
    })
    .await
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodcastYoutubeResponse {
    podcast: PodcastSummary,
    youtube_data: PodcastYoutubeData,
}

/// The YouTube channels of a podcast: the channel links found for it, with the
/// subscribers and views of the YouTube lookup.
pub(crate) fn youtube_channels(
    state: &AppState,
    record: &PodcastRecord,
    at: chrono::DateTime<chrono::Utc>,
) -> ApiResult<Vec<YoutubeChannel>> {
    let lookups = state
        .catalog
        .snapshot()?
        .platform_lookups(record.podcast_id)?;
    let lookup = lookup_of(&lookups, "youtube");
    let links = state.catalog.social_links(record)?;
    let mut channels = Vec::new();
    for link in links
        .iter()
        .filter(|link| link.social_media_type == SocialKind::Youtube)
    {
        let id = link
            .url
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or_default()
            .to_owned();
        let matches_lookup = lookup.is_some_and(|row| link.url.contains(&row.lookup_key));
        let reach = lookup.filter(|_| matches_lookup || channels.is_empty());
        channels.push(YoutubeChannel {
            id,
            title: record.podcast_rss_title.clone(),
            description: None,
            subscriber_count: reach
                .and_then(|row| row.subscribers.or(row.followers))
                .unwrap_or(0),
            view_count: reach.and_then(|row| row.views).unwrap_or(0),
            video_count: reach.and_then(|row| row.posts).unwrap_or(0),
            published_at: None,
            thumbnails: YoutubeThumbnails::default(),
            country: None,
            custom_url: Some(link.url.clone()),
            links: None,
            is_podcast_channel: None,
            discover_input_keyword: None,
            banner_image_url: None,
            videos: None,
            profile_image_url: None,
            data_last_updated: at,
            last_video_upload_date: None,
            last_video_upload_date_source: None,
            last_video_upload_date_checked_at: None,
        });
    }
    Ok(channels)
}

/// A podcast's YouTube channels.
#[utoipa::path(get, path = "/api/v1/podcasts/{podcastIdOrSlug}/youtube", tag = "podcasts",
    params(("podcastIdOrSlug" = String, Path, description = "Podcast id or slug")),
    responses((status = 200, description = "The YouTube channels"), (status = 404, description = "Unknown podcast")))]
pub async fn youtube(
    State(state): State<AppState>,
    Path(id_or_slug): Path<String>,
) -> ApiResult<Envelope<PodcastYoutubeResponse>> {
    blocking(move || {
        let record = lookup::podcast_by_id_or_slug(&state, &id_or_slug)?;
        let at = lookups_time(&state, &record)?;
        Ok(Envelope(PodcastYoutubeResponse {
            podcast: summary_with_score(&state, &record)?,
            youtube_data: PodcastYoutubeData {
                podcast_id: record.podcast_id.to_string(),
                youtube_data: youtube_channels(&state, &record, at)?,
            },
        }))
    })
    .await
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuthorityScoreResponse {
    podcast_id: String,
    podcast_authority_score: f64,
    authority_score: AuthorityScoreSummary,
}

fn no_score(id: &str) -> ApiError {
    ApiError::NotFound(format!("Authority score not found: {id}"))
}

/// A podcast's authority score (0–100) and its four sub-scores.
#[utoipa::path(get, path = "/api/v1/podcasts/authority-score/{podcastId}", tag = "podcasts",
    params(("podcastId" = String, Path, description = "Podcast id or slug")),
    responses((status = 200, body = AuthorityScoreResponse, description = "The score"), (status = 404, description = "Unknown podcast or no score")))]
pub async fn authority_score(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Envelope<AuthorityScoreResponse>> {
    blocking(move || {
        let record = lookup::podcast_by_id_or_slug(&state, &id)?;
        let scores = state
            .catalog
            .snapshot()?
            .authority_scores(&[record.podcast_id])?;
        let row = scores
            .get(&record.podcast_id)
            .ok_or_else(|| no_score(&id))?;
        Ok(Envelope(AuthorityScoreResponse {
            podcast_id: record.podcast_id.to_string(),
            podcast_authority_score: row.authority_score,
            authority_score: score_summary(row),
        }))
    })
    .await
}

/// How a podcast's authority score was computed: the weighted sub-scores (weights add
/// up to 1) and every input, null when unknown.
#[utoipa::path(get, path = "/api/v1/podcasts/authority-score/{podcastId}/details", tag = "podcasts",
    params(("podcastId" = String, Path, description = "Podcast id or slug")),
    responses((status = 200, body = AuthorityScoreDetails, description = "The score details"), (status = 404, description = "Unknown podcast or no score")))]
pub async fn authority_score_details(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Envelope<AuthorityScoreDetails>> {
    blocking(move || {
        let record = lookup::podcast_by_id_or_slug(&state, &id)?;
        let details = state
            .catalog
            .snapshot()?
            .authority_score_details(record.podcast_id)?
            .ok_or_else(|| no_score(&id))?;
        Ok(Envelope(details))
    })
    .await
}

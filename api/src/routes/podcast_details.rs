//! A podcast's enrichment: contacts and social profiles found on its website and in
//! its feed, ratings and followers from the platform lookups, YouTube reach, and the
//! authority score with its published sub-scores, weights and inputs.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::get;
use podlens_model::entities::{
    AuthorityScoreDetails, PodcastContactsResponse, PodcastReviewsResponse,
    PodcastSocialMediaResponse,
};

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::ApiResult;
use crate::metering::Metered;
use crate::state::AppState;
use podlens_app::workflows::podcast_pages::{AuthorityScoreResponse, PodcastYoutubeResponse};

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
    let contacts = state
        .podcast_pages()
        .contacts(caller.requester(), id_or_slug);
    let (charge, contacts) = contacts.await?;
    Ok((charge.map(Metered), Envelope(contacts)))
}

/// A podcast's social profiles.
#[utoipa::path(get, path = "/api/v1/podcasts/{podcastIdOrSlug}/social-media", tag = "podcasts",
    params(("podcastIdOrSlug" = String, Path, description = "Podcast id or slug")),
    responses((status = 200, description = "The social profiles"), (status = 404, description = "Unknown podcast")))]
pub async fn social_media(
    State(state): State<AppState>,
    Path(id_or_slug): Path<String>,
) -> ApiResult<Envelope<PodcastSocialMediaResponse>> {
    Ok(Envelope(
        state.podcast_pages().social_media(id_or_slug).await?,
    ))
}

/// A podcast's ratings on Apple Podcasts and Spotify, and its Castbox plays.
#[utoipa::path(get, path = "/api/v1/podcasts/{podcastIdOrSlug}/reviews", tag = "podcasts",
    params(("podcastIdOrSlug" = String, Path, description = "Podcast id or slug")),
    responses((status = 200, description = "The ratings"), (status = 404, description = "Unknown podcast")))]
pub async fn reviews(
    State(state): State<AppState>,
    Path(id_or_slug): Path<String>,
) -> ApiResult<Envelope<PodcastReviewsResponse>> {
    Ok(Envelope(state.podcast_pages().reviews(id_or_slug).await?))
}

/// A podcast's YouTube channels.
#[utoipa::path(get, path = "/api/v1/podcasts/{podcastIdOrSlug}/youtube", tag = "podcasts",
    params(("podcastIdOrSlug" = String, Path, description = "Podcast id or slug")),
    responses((status = 200, description = "The YouTube channels"), (status = 404, description = "Unknown podcast")))]
pub async fn youtube(
    State(state): State<AppState>,
    Path(id_or_slug): Path<String>,
) -> ApiResult<Envelope<PodcastYoutubeResponse>> {
    Ok(Envelope(state.podcast_pages().youtube(id_or_slug).await?))
}

/// A podcast's authority score (0–100) and its four sub-scores.
#[utoipa::path(get, path = "/api/v1/podcasts/authority-score/{podcastId}", tag = "podcasts",
    params(("podcastId" = String, Path, description = "Podcast id or slug")),
    responses((status = 200, body = AuthorityScoreResponse, description = "The score"), (status = 404, description = "Unknown podcast or no score")))]
pub async fn authority_score(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Envelope<AuthorityScoreResponse>> {
    Ok(Envelope(state.podcast_pages().authority_score(id).await?))
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
    Ok(Envelope(
        state.podcast_pages().authority_score_details(id).await?,
    ))
}

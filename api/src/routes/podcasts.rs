//! Podcasts: details, several at once, by feed URL, id lookup, latest, episodes,
//! guests and related podcasts.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::get;
use podlens_model::entities::{
    LatestPodcastsResponse, PodcastEpisodesResponse, PodcastGuestsResponse, PodcastLookupResponse,
    PodcastResponse, RelatedPodcastsResponse,
};
use serde::Deserialize;

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::ApiResult;
use crate::extract::ApiQuery;
use crate::state::AppState;
use podlens_app::workflows::directory::{DirectoryQuery, DirectoryResponse};
use podlens_app::workflows::podcast_episodes::EpisodesParams;
use podlens_app::workflows::podcast_pages::GuestsParams;
use podlens_app::workflows::podcasts_by_ids::{
    LookupQuery, MultiplePodcastsResponse, PodcastsByIdsQuery,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/podcasts/latest", get(latest))
        .route("/api/v1/podcasts/multiple", get(multiple))
        .route("/api/v1/podcasts/by-feed-url", get(by_feed_url))
        .route("/api/v1/podcasts/id/lookup", get(id_lookup))
        .route("/api/v1/podcasts/{podcastIdOrSlug}", get(details))
        .route("/api/v1/podcasts/{podcastIdOrSlug}/episodes", get(episodes))
        .route(
            "/api/v1/podcasts/{podcastIdOrSlug}/related-podcasts",
            get(related),
        )
        .route("/api/v1/podcasts/{podcastIdOrSlug}/guests", get(guests))
        .route("/api/v1/podcasts/directory/{letter}", get(directory))
}

/// The podcasts whose title files under a letter, in title order: the letter is the
/// title's first after a leading article ("The Daily" under d), accents folded; `0` holds
/// titles starting with a digit, a symbol or a letter outside the Latin alphabet.
/// `limit` 1–100 (default 100) after `skip`.
#[utoipa::path(get, path = "/api/v1/podcasts/directory/{letter}", tag = "podcasts",
    params(("letter" = String, Path, description = "a–z, or 0 for every other title"),
           ("limit" = Option<u64>, Query, description = "1–100, default 100"),
           ("skip" = Option<u64>, Query, description = "Podcasts to skip, default 0")),
    responses((status = 200, body = DirectoryResponse, description = "A page of the directory"),
              (status = 400, description = "Not a directory letter, or a bad limit or skip")))]
pub async fn directory(
    State(state): State<AppState>,
    Path(letter): Path<String>,
    ApiQuery(query): ApiQuery<Pairs>,
) -> ApiResult<Envelope<DirectoryResponse>> {
    let query = DirectoryQuery::from_query(&letter, &query)?;
    Ok(Envelope(state.directory().page(query).await?))
}

/// A podcast's full details.
#[utoipa::path(get, path = "/api/v1/podcasts/{podcastIdOrSlug}", tag = "podcasts",
    params(("podcastIdOrSlug" = String, Path, description = "Podcast id or slug")),
    responses((status = 200, description = "The podcast"), (status = 404, description = "Unknown podcast")))]
pub async fn details(
    State(state): State<AppState>,
    caller: Caller,
    Path(id_or_slug): Path<String>,
) -> ApiResult<Envelope<PodcastResponse>> {
    let podcast = state.podcast_pages().details(caller.plan, id_or_slug);
    Ok(Envelope(podcast.await?))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FeedUrlQuery {
    rss_feed_url: String,
}

/// A podcast by its RSS feed URL.
#[utoipa::path(get, path = "/api/v1/podcasts/by-feed-url", tag = "podcasts",
    params(("rssFeedUrl" = String, Query, description = "The feed URL")),
    responses((status = 200, description = "The podcast"), (status = 404, description = "Unknown feed")))]
pub async fn by_feed_url(
    State(state): State<AppState>,
    caller: Caller,
    ApiQuery(query): ApiQuery<FeedUrlQuery>,
) -> ApiResult<Envelope<PodcastResponse>> {
    let podcast = state
        .podcast_pages()
        .by_feed_url(caller.plan, query.rss_feed_url);
    Ok(Envelope(podcast.await?))
}

/// Query of `GET /api/v1/podcasts/multiple`: repeated `podcastIds`, `details`.
type Pairs = Vec<(String, String)>;

/// Several podcasts by id, in the order asked.
#[utoipa::path(get, path = "/api/v1/podcasts/multiple", tag = "podcasts",
    params(("podcastIds" = Vec<String>, Query, description = "Podcast ids (repeat the parameter)"),
           ("details" = Option<String>, Query, description = "basic (default) or full")),
    responses((status = 200, description = "The podcasts found")))]
pub async fn multiple(
    State(state): State<AppState>,
    caller: Caller,
    ApiQuery(pairs): ApiQuery<Pairs>,
) -> ApiResult<Envelope<MultiplePodcastsResponse>> {
    let query = PodcastsByIdsQuery::from_query(&pairs)?;
    Ok(Envelope(
        state.podcasts_by_ids().find(query, caller.plan).await?,
    ))
}

/// The podcast for exactly one of appleId, slug, spotifyId or podlensId (also read
/// as `podEngineId`), or a feed URL.
#[utoipa::path(get, path = "/api/v1/podcasts/id/lookup", tag = "podcasts",
    params(("appleId" = Option<String>, Query), ("slug" = Option<String>, Query),
           ("spotifyId" = Option<String>, Query), ("podlensId" = Option<String>, Query),
           ("podEngineId" = Option<String>, Query, description = "The same as podlensId"),
           ("rssFeedUrl" = Option<String>, Query),
           ("podcastGuid" = Option<String>, Query, description = "Not supported: answered 400")),
    responses((status = 200, description = "The podcast, or null"),
              (status = 400, description = "Only one of appleId, slug, spotifyId, or podlensId can be provided")))]
pub async fn id_lookup(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<LookupQuery>,
) -> ApiResult<Envelope<PodcastLookupResponse>> {
    Ok(Envelope(state.podcasts_by_ids().lookup(query).await?))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LatestQuery {
    has_transcripts: Option<bool>,
}

/// The podcasts that published most recently.
#[utoipa::path(get, path = "/api/v1/podcasts/latest", tag = "podcasts",
    params(("hasTranscripts" = Option<bool>, Query)),
    responses((status = 200, description = "Latest podcasts")))]
pub async fn latest(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<LatestQuery>,
) -> ApiResult<Envelope<LatestPodcastsResponse>> {
    let latest = state.podcast_pages().latest(query.has_transcripts);
    Ok(Envelope(latest.await?))
}

/// A page of a podcast's episodes, newest first.
#[utoipa::path(get, path = "/api/v1/podcasts/{podcastIdOrSlug}/episodes", tag = "podcasts",
    params(("podcastIdOrSlug" = String, Path), ("hasTranscript" = Option<bool>, Query),
           ("skip" = Option<u64>, Query), ("limit" = Option<u64>, Query, description = "At most 100")),
    responses((status = 200, description = "The episodes")))]
pub async fn episodes(
    State(state): State<AppState>,
    caller: Caller,
    Path(id_or_slug): Path<String>,
    ApiQuery(params): ApiQuery<EpisodesParams>,
) -> ApiResult<Envelope<PodcastEpisodesResponse>> {
    let page = state
        .podcast_episodes()
        .page(caller.account, id_or_slug, params);
    Ok(Envelope(page.await?))
}

/// Podcasts similar to this one.
#[utoipa::path(get, path = "/api/v1/podcasts/{podcastIdOrSlug}/related-podcasts", tag = "podcasts",
    params(("podcastIdOrSlug" = String, Path)),
    responses((status = 200, description = "Related podcasts")))]
pub async fn related(
    State(state): State<AppState>,
    Path(id_or_slug): Path<String>,
) -> ApiResult<Envelope<RelatedPodcastsResponse>> {
    Ok(Envelope(state.podcast_pages().related(id_or_slug).await?))
}

/// The people heard on a podcast (from its feed's `podcast:person` tags).
#[utoipa::path(get, path = "/api/v1/podcasts/{podcastIdOrSlug}/guests", tag = "podcasts",
    params(("podcastIdOrSlug" = String, Path), ("sinceDays" = Option<u32>, Query),
           ("role" = Option<String>, Query, description = "guest, host or unknown")),
    responses((status = 200, description = "Guests and hosts")))]
pub async fn guests(
    State(state): State<AppState>,
    Path(id_or_slug): Path<String>,
    ApiQuery(params): ApiQuery<GuestsParams>,
) -> ApiResult<Envelope<PodcastGuestsResponse>> {
    Ok(Envelope(
        state.podcast_pages().guests(id_or_slug, params).await?,
    ))
}

//! Transcription requests for an episode or a podcast's episodes, and the team's request
//! history, by `podlens_app::workflows::transcriptions::TranscriptionRequests`.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::get;
use podlens_app::workflows::transcriptions::{
    HistoryQuery, PodcastRequestAnswer, PodcastRequestQuery, RequestHistory, RequestMessage,
};

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::ApiResult;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/api/v1/episodes/{episodeId}/transcription-request",
            get(request_episode),
        )
        .route(
            "/api/v1/podcasts/{podcastIdOrSlug}/transcription-request",
            get(request_podcast),
        )
        .route("/api/v1/teams/transcriptions", get(list_transcriptions))
        .route("/api/v1/teams/request-history", get(request_history))
}

type Query = axum::extract::Query<Vec<(String, String)>>;

/// `GET /api/v1/episodes/{episodeId}/transcription-request`.
#[utoipa::path(get, path = "/api/v1/episodes/{episodeId}/transcription-request", tag = "transcriptions",
    params(("episodeId" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn request_episode(
    State(state): State<AppState>,
    caller: Caller,
    Path(episode_id): Path<String>,
) -> ApiResult<Envelope<RequestMessage>> {
    let account = caller.require_account()?;
    caller.require_app_for_session()?;
    let answer = state
        .transcription_requests()
        .request_episode(account, &caller.requester(), &episode_id)
        .await?;
    Ok(Envelope(answer))
}

/// `GET /api/v1/podcasts/{podcastId}/transcription-request?type=since|latest|recent`
/// `&requestFutureEpisodes=true|false` (`since` covers episodes published on or after
/// `sinceDate`, by default 1 January 2024).
#[utoipa::path(get, path = "/api/v1/podcasts/{podcastId}/transcription-request", tag = "transcriptions",
    params(("podcastId" = String, Path),
           ("type" = String, Query, description = "Required: since, latest or recent"),
           ("requestFutureEpisodes" = Option<bool>, Query, description = "Also transcribe episodes published later"),
           ("sinceDate" = Option<String>, Query, description = "For type=since: episodes published on or after this date (default 2024-01-01)")),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn request_podcast(
    State(state): State<AppState>,
    caller: Caller,
    Path(podcast_id): Path<String>,
    axum::extract::Query(query): Query,
) -> ApiResult<Envelope<PodcastRequestAnswer>> {
    let account = caller.require_account()?;
    caller.require_app_for_session()?;
    let query = PodcastRequestQuery::from_query(&query)?;
    let answer = state
        .transcription_requests()
        .request_podcast(account, &caller.requester(), &podcast_id, query)
        .await?;
    Ok(Envelope(answer))
}

/// `GET /api/v1/teams/transcriptions?limit&skip&filterCompleted` (filterCompleted=true
/// keeps completed requests only, false the others).
#[utoipa::path(get, path = "/api/v1/teams/transcriptions", tag = "transcriptions",
    params(("limit" = usize, Query, description = "How many requests (1 to the maximum)"),
           ("skip" = Option<usize>, Query), ("filterCompleted" = Option<bool>, Query)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn list_transcriptions(
    State(state): State<AppState>,
    caller: Caller,
    axum::extract::Query(query): Query,
) -> ApiResult<Envelope<RequestHistory>> {
    let account = caller.require_account()?;
    let query = HistoryQuery::transcriptions(&query)?;
    let page = state
        .transcription_requests()
        .history(account, query)
        .await?;
    Ok(Envelope(page))
}

/// `GET /api/v1/teams/request-history?limit&requestType&skip&filterCompleted`.
#[utoipa::path(get, path = "/api/v1/teams/request-history", tag = "transcriptions",
    params(("limit" = usize, Query, description = "How many requests (1 to the maximum)"),
           ("skip" = Option<usize>, Query), ("filterCompleted" = Option<bool>, Query),
           ("requestType" = String, Query, description = "Required: autoOutreach, deepAnalysis, diarization, guestPrep or transcription")),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn request_history(
    State(state): State<AppState>,
    caller: Caller,
    axum::extract::Query(query): Query,
) -> ApiResult<Envelope<RequestHistory>> {
    let account = caller.require_account()?;
    let query = HistoryQuery::requests(&query)?;
    let page = state
        .transcription_requests()
        .history(account, query)
        .await?;
    Ok(Envelope(page))
}

//! Episode deep analyses (SPEC.md §3 `deepAnalysisRequestedAt`, §7), by
//! `podlens_app::workflows::deep_analyses::DeepAnalyses`.

use axum::Router;
use axum::extract::{Path, Query, State};
use axum::routing::{get, post};
use podlens_app::workflows::deep_analyses::{
    DeepAnalysesResponse, EpisodeAnalysisQuery, EpisodeDeepAnalysis, PodcastDeepAnalysisRequest,
};
use serde::Serialize;
use utoipa::ToSchema;

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::ApiResult;
use crate::extract::RawJson;
use crate::metering::Metered;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/api/v1/agent/episode/{episodeId}/deep-analysis",
            get(episode_analysis),
        )
        .route("/api/v1/podcasts/deep-analysis", post(request_for_podcast))
        .route(
            "/api/v1/podcasts/{podcastIdOrSlug}/episodes/deep-analysis",
            get(list_for_podcast),
        )
}

/// `data` of one episode's analysis.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeepAnalysisResponse {
    pub deep_analysis: EpisodeDeepAnalysis,
}

/// `GET /api/v1/agent/episode/{episodeId}/deep-analysis`: the team's analysis of the
/// episode, made on first request (one AI assist) and then reused;
/// `?forceRegenerate=true` makes a new one.
#[utoipa::path(get, path = "/api/v1/agent/episode/{episodeId}/deep-analysis", tag = "agent", operation_id = "getEpisodeDeepAnalysis",
    params(("episodeId" = String, Path), ("forceRegenerate" = Option<bool>, Query)),
    responses((status = 200, body = DeepAnalysisResponse, description = "The episode's deep analysis"),
              (status = 429, description = "The plan's AI assists are used up")))]
pub async fn episode_analysis(
    State(state): State<AppState>,
    caller: Caller,
    Path(episode_id): Path<String>,
    Query(query): Query<Vec<(String, String)>>,
) -> ApiResult<(Option<Metered>, Envelope<DeepAnalysisResponse>)> {
    let account = caller.require_account()?;
    let force = EpisodeAnalysisQuery::from_query(&query)?.force_regenerate;
    // Made on first request (an assist) or regenerated: from the app, by session.
    caller.require_app_for_session()?;
    let (charge, deep_analysis) = state
        .deep_analyses()
        .episode_analysis(account, &caller.requester(), &episode_id, force)
        .await?;
    Ok((
        charge.map(Metered),
        Envelope(DeepAnalysisResponse { deep_analysis }),
    ))
}

/// `POST /api/v1/podcasts/deep-analysis`: body `podcastId` (id or slug), and either
/// `episodeIds` (at most 10) or `limit` (the newest 1-10 episodes, default 3), and
/// `forceRegenerate`. Episodes already analysed for the team are reused unless forced;
/// each new analysis is one AI assist.
#[utoipa::path(post, path = "/api/v1/podcasts/deep-analysis", tag = "agent", operation_id = "requestPodcastDeepAnalysis", request_body = PodcastDeepAnalysisRequest,
    responses((status = 200, body = DeepAnalysesResponse, description = "The analyses of the requested episodes"),
              (status = 404, description = "Unknown podcast or episode"),
              (status = 429, description = "The plan's AI assists are used up")))]
pub async fn request_for_podcast(
    State(state): State<AppState>,
    caller: Caller,
    RawJson(body): RawJson,
) -> ApiResult<(Option<Metered>, Envelope<DeepAnalysesResponse>)> {
    let account = caller.require_account()?;
    let request = PodcastDeepAnalysisRequest::from_json(body)?;
    let (charge, analyses) = state
        .deep_analyses()
        .request_for_podcast(account, &caller.requester(), request)
        .await?;
    Ok((charge.map(Metered), Envelope(analyses)))
}

/// `GET /api/v1/podcasts/{podcastIdOrSlug}/episodes/deep-analysis`: the team's stored
/// analyses of the podcast's episodes, newest episode first.
#[utoipa::path(get, path = "/api/v1/podcasts/{podcastIdOrSlug}/episodes/deep-analysis", tag = "agent", operation_id = "listPodcastDeepAnalyses",
    params(("podcastIdOrSlug" = String, Path)),
    responses((status = 200, body = DeepAnalysesResponse, description = "The team's analyses of the podcast's episodes")))]
pub async fn list_for_podcast(
    State(state): State<AppState>,
    caller: Caller,
    Path(podcast_key): Path<String>,
) -> ApiResult<Envelope<DeepAnalysesResponse>> {
    let account = caller.require_account()?;
    Ok(Envelope(
        state
            .deep_analyses()
            .list_for_podcast(account, &podcast_key)
            .await?,
    ))
}

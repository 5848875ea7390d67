//! AI assist calls: the relevancy review of a podcast for a project, alternative
//! spellings of a name, and `POST /api/v1/agent/`, which runs one kind of assist, by
//! `podlens_app::workflows::agent_runs::AgentRuns`.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::{get, post};
use podlens_app::workflows::agent_runs::{
    AgentRunRequest, AgentRunResponse, RelevancyRequest, ReviewAnswer, ReviewResult, Spellings,
};

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::ApiResult;
use crate::extract::RawJson;
use crate::metering::Metered;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/agent/project/relevancy", post(project_relevancy))
        .route(
            "/api/v1/agent/alternative-spellings",
            post(alternative_spellings),
        )
        .route(
            "/api/v1/projects/{projectSlug}/podcasts/{listedPodcastId}/relevancy",
            get(listed_relevancy),
        )
        .route("/api/v1/agent/", post(run_kind))
}

/// `POST /api/v1/agent/project/relevancy`: body projectId, podcastId, searchOptions
/// (context only), forceRegenerate.
#[utoipa::path(post, path = "/api/v1/agent/project/relevancy", tag = "agent",
    responses((status = 200, description = "OK: the answer in the envelope"),
              (status = 404, description = "Unknown project or podcast")))]
pub async fn project_relevancy(
    State(state): State<AppState>,
    caller: Caller,
    RawJson(body): RawJson,
) -> ApiResult<(Option<Metered>, Envelope<ReviewResult>)> {
    let account = caller.require_account()?;
    let request = RelevancyRequest::from_json(body)?;
    let (charge, review) = state
        .agent_runs()
        .review(account, &caller.requester(), request)
        .await?;
    Ok((charge.map(Metered), Envelope(review)))
}

/// `POST /api/v1/agent/alternative-spellings`: body value.
#[utoipa::path(post, path = "/api/v1/agent/alternative-spellings", tag = "agent",
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn alternative_spellings(
    State(state): State<AppState>,
    caller: Caller,
    RawJson(body): RawJson,
) -> ApiResult<(Metered, Envelope<Spellings>)> {
    caller.require_account()?;
    let (charge, spellings) = state
        .agent_runs()
        .alternative_spellings(&caller.requester(), body)
        .await?;
    Ok((Metered(charge), Envelope(spellings)))
}

/// `GET /api/v1/projects/{projectSlug}/podcasts/{listedPodcastId}/relevancy`: the
/// review of a listed podcast for its project (made on first request, then reused;
/// `?forceRegenerate=true` makes a new one).
#[utoipa::path(get, path = "/api/v1/projects/{projectSlug}/podcasts/{listedPodcastId}/relevancy", tag = "agent",
    params(("projectSlug" = String, Path), ("listedPodcastId" = String, Path),
           ("forceRegenerate" = Option<bool>, Query, description = "true makes a new review (one AI assist)")),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn listed_relevancy(
    State(state): State<AppState>,
    caller: Caller,
    Path((project, listed_podcast_id)): Path<(String, String)>,
    axum::extract::Query(query): axum::extract::Query<Vec<(String, String)>>,
) -> ApiResult<(Option<Metered>, Envelope<ReviewResult>)> {
    let account = caller.require_account()?;
    let force =
        podlens_app::workflows::fields::query_value(&query, "forceRegenerate") == Some("true");
    caller.require_app_for_session()?;
    let (answer, charge) = state
        .relevancy()
        .review_listed(
            account,
            &caller.requester(),
            project,
            listed_podcast_id,
            force,
        )
        .await?;
    Ok((
        charge.map(Metered),
        Envelope(ReviewResult {
            result: ReviewAnswer { answer },
        }),
    ))
}

/// `POST /api/v1/agent/`: body `kind` and the kind's inputs:
/// `custom` (customPromptId or prompt [+ contextType], and podcastId or episodeId),
/// `podcast` (podcastId), `episode` and `transcript` (episodeId), `guest`
/// (podcastSlug), `project/relevancy` (projectId, podcastId, forceRegenerate),
/// `project` (projectId, limit: podcasts to add and next steps), `strategy`
/// (projectId, count: search strategies generated and stored).
#[utoipa::path(post, path = "/api/v1/agent/", tag = "agent", operation_id = "runAgent", request_body = AgentRunRequest,
    responses((status = 200, body = AgentRunResponse, description = "The kind run and its answer"),
              (status = 403, description = "`strategy`: automated search is not in the plan, or the project has the most strategies it may"),
              (status = 404, description = "Unknown prompt, podcast, episode, transcript or project"),
              (status = 429, description = "The plan's AI assists are used up")))]
pub async fn run_kind(
    State(state): State<AppState>,
    caller: Caller,
    RawJson(body): RawJson,
) -> ApiResult<(Option<Metered>, Envelope<AgentRunResponse>)> {
    let account = caller.require_account()?;
    let (charge, run) = state
        .agent_runs()
        .run(account, &caller.requester(), body)
        .await?;
    Ok((charge.map(Metered), Envelope(run)))
}

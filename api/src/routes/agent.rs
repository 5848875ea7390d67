//! AI assist calls: the relevancy review of a podcast for a project, alternative
//! spellings of a name, and `POST /api/v1/agent/`, which runs one kind of assist
//! (a custom prompt, a summary of a podcast, an episode or a transcript, a guest prep,
//! a relevancy review). Each generation is charged to the plan's AI assist quota.

use axum::Router;
use axum::extract::Path;
use axum::extract::State;
use axum::routing::{get, post};
use serde_json::{Value, json};

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::{ApiError, ApiResult};
use crate::extract::RawJson;
use crate::metering::{self, Metered};
use crate::state::{AppState, blocking};
use podlens_app::accounts::UsageCounter;
use podlens_app::workflows::agent::{self, ContextKind, RelevancyAnswer, ShowMaterial, insight};
use podlens_app::workflows::briefs::{
    CONTEXT_TRANSCRIPT_CHARS, SHOW_EPISODES, recent_show_material, show_material,
};
use podlens_app::workflows::fields::{enum_value, object, optional_string};
use podlens_app::workflows::suggest;
use podlens_model::enums::CustomPromptContextType;
use serde::Serialize;
use utoipa::ToSchema;

use super::{guest_prep, lookup, strategies};
use podlens_app::workflows::custom_prompts;

/// The longest value alternative spellings are made for.
pub const MAX_SPELLING_VALUE_CHARS: usize = 200;

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

fn required(body: &serde_json::Map<String, Value>, name: &str) -> ApiResult<String> {
    optional_string(body, name)?
        .map(|value| value.trim().to_owned())
        .filter(|value| !value.is_empty())
        .ok_or_else(|| ApiError::BadRequest(format!("{name} is required")))
}

/// `forceRegenerate`: absent or null is false; anything but a boolean is refused.
fn force_regenerate(body: &serde_json::Map<String, Value>) -> ApiResult<bool> {
    match body.get("forceRegenerate") {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(flag)) => Ok(*flag),
        Some(_) => Err(ApiError::BadRequest(
            "forceRegenerate must be a boolean".into(),
        )),
    }
}

/// The review of a podcast for a project, with its charge when one was made.
async fn review(
    state: &AppState,
    caller: &Caller,
    project: String,
    podcast: String,
    force: bool,
) -> ApiResult<(RelevancyAnswer, Option<Metered>)> {
    let account = caller.require_account()?;
    let (answer, charge) = state
        .relevancy()
        .review(account, &caller.requester(), project, podcast, force)
        .await?;
    Ok((answer, charge.map(Metered)))
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
) -> ApiResult<(Option<Metered>, Envelope<Value>)> {
    caller.require_account()?;
    let body = object(body)?;
    let project = required(&body, "projectId")?;
    let podcast = required(&body, "podcastId")?;
    let force = force_regenerate(&body)?;
    if let Some(options) = body.get("searchOptions")
        && !options.is_null()
        && !options.is_object()
    {
        return Err(ApiError::BadRequest(
            "searchOptions must be an object".into(),
        ));
    }
    let (answer, metered) = review(&state, &caller, project, podcast, force).await?;
    Ok((metered, Envelope(json!({"result": {"answer": answer}}))))
}

/// `POST /api/v1/agent/alternative-spellings`: body value.
#[utoipa::path(post, path = "/api/v1/agent/alternative-spellings", tag = "agent",
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn alternative_spellings(
    State(state): State<AppState>,
    caller: Caller,
    RawJson(body): RawJson,
) -> ApiResult<(Metered, Envelope<Value>)> {
    caller.require_account()?;
    let body = object(body)?;
    let value = required(&body, "value")?;
    if value.chars().count() > MAX_SPELLING_VALUE_CHARS {
        return Err(ApiError::BadRequest(format!(
            "value must be at most {MAX_SPELLING_VALUE_CHARS} characters"
        )));
    }
    let metered = metering::charge(&state, &caller, UsageCounter::AiAssist).await?;
    let spellings = agent::alternative_spellings(state.assist.as_ref(), &value).await?;
    Ok((metered, Envelope(json!({"spellings": spellings}))))
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
) -> ApiResult<(Option<Metered>, Envelope<Value>)> {
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
    let metered = charge.map(Metered);
    Ok((metered, Envelope(json!({"result": {"answer": answer}}))))
}

/// The kinds `POST /api/v1/agent/` runs.
pub const AGENT_KINDS: [&str; 8] = [
    "custom",
    "episode",
    "guest",
    "podcast",
    "project",
    "project/relevancy",
    "strategy",
    "transcript",
];

/// The body of `POST /api/v1/agent/` (for the OpenAPI document; read field by field).
#[derive(Debug, ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct AgentRunRequest {
    /// custom, episode, guest, podcast, project, project/relevancy, strategy or
    /// transcript.
    kind: String,
    /// `custom`: a stored prompt of the team (or give `prompt`).
    custom_prompt_id: Option<String>,
    /// `custom`: a prompt text (or give `customPromptId`).
    prompt: Option<String>,
    /// `custom` with `prompt`: podcast, episode or transcript.
    context_type: Option<CustomPromptContextType>,
    /// `podcast`, `custom` over a podcast, `project/relevancy`: id or slug.
    podcast_id: Option<String>,
    /// `episode`, `transcript`, `custom` over an episode or transcript.
    episode_id: Option<String>,
    /// `guest`.
    podcast_slug: Option<String>,
    /// `project/relevancy`, `project`, `strategy`: id or slug.
    project_id: Option<String>,
    /// `project`: how many podcasts to suggest, 1-25 (default 10).
    limit: Option<u32>,
    /// `strategy`: how many strategies to generate, 1-10 (default: the room left).
    count: Option<u32>,
    /// `project/relevancy`.
    force_regenerate: Option<bool>,
}

/// `data` of `POST /api/v1/agent/`: the kind run and its answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct AgentRunResponse {
    pub kind: String,
    /// `custom`: a [`PromptAnswer`]; `podcast`, `episode`, `transcript`: a
    /// [`ContextSummary`]; `guest`: a `GuestPrepResponse`; `project/relevancy`:
    /// `{answer: RelevancyAnswer}`; `project`: a [`suggest::ProjectAssist`]; `strategy`:
    /// `{strategies: SearchStrategy[]}`.
    #[schema(value_type = Object)]
    pub result: Value,
}

/// The `limit` of the `project` kind: 1-25, default 10.
fn suggestion_limit(body: &serde_json::Map<String, Value>) -> ApiResult<usize> {
    match body.get("limit") {
        None | Some(Value::Null) => Ok(suggest::DEFAULT_SUGGESTIONS),
        Some(value) => match value.as_u64() {
            Some(n) if (1..=suggest::MAX_SUGGESTIONS as u64).contains(&n) => Ok(n as usize),
            _ => Err(ApiError::BadRequest(format!(
                "limit must be a whole number between 1 and {}",
                suggest::MAX_SUGGESTIONS
            ))),
        },
    }
}

/// The context a prompt or summary names, loaded from the catalog.
fn load_context(
    state: &AppState,
    kind: ContextKind,
    body: &serde_json::Map<String, Value>,
) -> ApiResult<ShowMaterial> {
    let snapshot = state.catalog.snapshot()?;
    match kind {
        ContextKind::Podcast => {
            let key = required(body, "podcastId").map_err(|_| {
                ApiError::BadRequest("podcastId is required for a podcast context".into())
            })?;
            let podcast = lookup::podcast_by_id_or_slug(state, &key)?;
            Ok(recent_show_material(snapshot, &podcast, SHOW_EPISODES, 0)?)
        }
        ContextKind::Episode | ContextKind::Transcript => {
            let key = required(body, "episodeId").map_err(|_| {
                ApiError::BadRequest(format!(
                    "episodeId is required for {} context",
                    if kind == ContextKind::Episode {
                        "an episode"
                    } else {
                        "a transcript"
                    }
                ))
            })?;
            let episode = lookup::episode_by_id(state, &key)?;
            let podcast = snapshot
                .podcast_by_id(episode.podcast_id)?
                .ok_or_else(|| lookup::podcast_not_found(&episode.podcast_id.to_string()))?;
            let transcript_chars = if kind == ContextKind::Transcript {
                CONTEXT_TRANSCRIPT_CHARS
            } else {
                0
            };
            let show = show_material(
                snapshot,
                &podcast,
                std::slice::from_ref(&episode),
                transcript_chars,
            )?;
            if kind == ContextKind::Transcript
                && show
                    .episodes
                    .iter()
                    .all(|episode| episode.transcript.is_empty())
            {
                return Err(ApiError::NotFound(format!(
                    "Episode {key} has no transcript"
                )));
            }
            Ok(show)
        }
    }
}

fn context_kind(value: CustomPromptContextType) -> ContextKind {
    match value {
        CustomPromptContextType::Podcast => ContextKind::Podcast,
        CustomPromptContextType::Episode => ContextKind::Episode,
        CustomPromptContextType::Transcript => ContextKind::Transcript,
    }
}

/// The prompt and context type of a `custom` run: a stored prompt of the team, or a
/// prompt text with a `contextType` (default: podcast when `podcastId` is given,
/// else episode).
fn custom_prompt(
    state: &AppState,
    team_id: &str,
    body: &serde_json::Map<String, Value>,
) -> ApiResult<(String, ContextKind)> {
    let stored_id = optional_string(body, "customPromptId")?.filter(|id| !id.trim().is_empty());
    let text = optional_string(body, "prompt")?;
    match (stored_id, text) {
        (Some(_), Some(_)) => Err(ApiError::BadRequest(
            "Only one of customPromptId or prompt can be given".into(),
        )),
        (None, None) => Err(ApiError::BadRequest(
            "Either customPromptId or prompt is required".into(),
        )),
        (Some(id), None) => {
            let prompt = custom_prompts::find(&state.workflows, team_id, id.trim())?;
            Ok((prompt.prompt, context_kind(prompt.context_type)))
        }
        (None, Some(text)) => {
            let prompt = custom_prompts::checked_prompt(&text)?;
            let kind = match optional_string(body, "contextType")? {
                Some(value) => context_kind(enum_value(
                    value.trim(),
                    "contextType",
                    CustomPromptContextType::parse,
                    CustomPromptContextType::ALL,
                    CustomPromptContextType::as_str,
                )?),
                None if body.get("podcastId").is_some_and(|v| !v.is_null()) => ContextKind::Podcast,
                None => ContextKind::Episode,
            };
            Ok((prompt, kind))
        }
    }
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
    let account = caller.require_account()?.clone();
    let body = object(body)?;
    let kind = required(&body, "kind")?;
    if !AGENT_KINDS.contains(&kind.as_str()) {
        return Err(ApiError::BadRequest(format!(
            "Invalid kind \"{kind}\"; expected one of {}",
            AGENT_KINDS.join(", ")
        )));
    }
    let (metered, result) = match kind.as_str() {
        "project/relevancy" => {
            let project = required(&body, "projectId")?;
            let podcast = required(&body, "podcastId")?;
            let force = force_regenerate(&body)?;
            let (answer, metered) = review(&state, &caller, project, podcast, force).await?;
            (metered, json!({"answer": answer}))
        }
        "strategy" => {
            let project = required(&body, "projectId")?;
            let asked = podlens_app::workflows::strategies::count_of(&body)?;
            let (metered, list) =
                strategies::generate_for(&state, &caller, &project, asked).await?;
            (Some(metered), json!({"strategies": list}))
        }
        "project" => {
            let reference = required(&body, "projectId")?;
            let limit = suggestion_limit(&body)?;
            let load = state.clone();
            let team = account.team_id.clone();
            let project = blocking(move || {
                load.workflows
                    .find_project(&team, &reference)?
                    .ok_or_else(|| ApiError::NotFound(format!("Project not found: {reference}")))
            })
            .await?;
            let metered = metering::charge(&state, &caller, UsageCounter::AiAssist).await?;
            let run = state.clone();
            let assist = blocking(move || {
                let blacklisted = podlens_app::accounts::blacklists::blacklisted_podcast_ids(
                    &run.blacklists,
                    run.accounts.as_ref(),
                    Some(&account),
                )?;
                Ok(suggest::project_assist(
                    &run.workflows,
                    run.engine.as_ref(),
                    blacklisted,
                    &account,
                    &project,
                    limit,
                )?)
            })
            .await?;
            (
                Some(metered),
                serde_json::to_value(assist).map_err(ApiError::internal)?,
            )
        }
        "guest" => {
            let slug = required(&body, "podcastSlug")?;
            guest_prep::checked_request(&slug, None)?;
            let (prep, metered) = guest_prep::prepare(&state, &caller, slug).await?;
            (
                Some(metered),
                serde_json::to_value(prep).map_err(ApiError::internal)?,
            )
        }
        "custom" => {
            let load = state.clone();
            let (prompt, context_kind, context) = blocking(move || {
                let (prompt, context_kind) = custom_prompt(&load, &account.team_id, &body)?;
                let context = load_context(&load, context_kind, &body)?;
                Ok((prompt, context_kind, context))
            })
            .await?;
            let metered = metering::charge(&state, &caller, UsageCounter::AiAssist).await?;
            let answer =
                insight::answer_prompt(state.assist.as_ref(), prompt, context_kind, context)
                    .await?;
            (
                Some(metered),
                serde_json::to_value(answer).map_err(ApiError::internal)?,
            )
        }
        other => {
            let context_kind = match other {
                "podcast" => ContextKind::Podcast,
                "episode" => ContextKind::Episode,
                _ => ContextKind::Transcript,
            };
            let load = state.clone();
            let context = blocking(move || load_context(&load, context_kind, &body)).await?;
            let metered = metering::charge(&state, &caller, UsageCounter::AiAssist).await?;
            let answer = insight::summarize(state.assist.as_ref(), context_kind, context).await?;
            (
                Some(metered),
                serde_json::to_value(answer).map_err(ApiError::internal)?,
            )
        }
    };
    Ok((metered, Envelope(AgentRunResponse { kind, result })))
}

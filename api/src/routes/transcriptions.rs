//! Transcription requests for an episode or a podcast's episodes (each charged to the
//! plan's monthly transcription requests), and the team's request history.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::get;
use chrono::Utc;
use serde_json::{Value, json};
use uuid::Uuid;

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::{ApiError, ApiResult};
use crate::metering;
use crate::state::{AppState, blocking};
use podlens_app::accounts::UsageCounter;
use podlens_app::workflows::documents::{DocKind, Stored};
use podlens_app::workflows::fields::parse_date;
use podlens_app::workflows::fields::query_value;
use podlens_app::workflows::transcriptions::{
    PodcastFollow, TranscriptionRequest, default_since, episodes_for, new_request, open_request,
    save_request, spawn_processing, team_requests,
};

/// The request types of the request history.
pub const REQUEST_TYPES: [&str; 5] = [
    "autoOutreach",
    "deepAnalysis",
    "diarization",
    "guestPrep",
    "transcription",
];
/// The largest page of the request history.
pub const MAX_HISTORY_LIMIT: u64 = 100;

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
) -> ApiResult<Envelope<Value>> {
    let account = caller.require_account()?.clone();
    caller.require_app_for_session()?;
    let lookup_state = state.clone();
    let lookup_id = episode_id.clone();
    let team_id = account.team_id.clone();
    let (podcast, episode, existing) = blocking(move || {
        let not_found = || ApiError::NotFound(format!("Episode not found: {lookup_id}"));
        let id = Uuid::parse_str(lookup_id.trim()).map_err(|_| not_found())?;
        let snapshot = lookup_state.catalog.snapshot()?;
        let episode = snapshot.episode_by_id(id)?.ok_or_else(not_found)?;
        let podcast = snapshot
            .podcast_by_id(episode.podcast_id)?
            .ok_or_else(not_found)?;
        let existing = open_request(&lookup_state.workflows, &team_id, &id.to_string())?;
        Ok((podcast, episode, existing))
    })
    .await?;
    if let Some(existing) = existing {
        return Ok(Envelope(json!({"message": format!(
            "Transcription of \"{}\" was already requested ({})",
            episode.episode_rss_title,
            existing.status.replace('_', " ")
        )})));
    }
    metering::charge(&state, &caller, UsageCounter::TranscriptionRequest).await?;
    let request = new_request(&podcast, &episode, &account.user_id);
    let save_state = state.clone();
    let saved = request.clone();
    let team_id = account.team_id.clone();
    blocking(move || Ok(save_request(&save_state.workflows, &team_id, &saved)?)).await?;
    spawn_processing(
        &state.transcriptions(),
        &account.team_id,
        &request.request_id,
    );
    Ok(Envelope(json!({"message": format!(
        "Transcription requested for \"{}\"",
        episode.episode_rss_title
    )})))
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
) -> ApiResult<Envelope<Value>> {
    let account = caller.require_account()?.clone();
    caller.require_app_for_session()?;
    let kind = query_value(&query, "type")
        .ok_or_else(|| ApiError::BadRequest("type is required (since, latest or recent)".into()))?
        .to_owned();
    if !matches!(kind.as_str(), "since" | "latest" | "recent") {
        return Err(ApiError::BadRequest(format!(
            "Invalid type \"{kind}\"; expected one of since, latest, recent"
        )));
    }
    let follow = match query_value(&query, "requestFutureEpisodes") {
        None | Some("false") => false,
        Some("true") => true,
        Some(other) => {
            return Err(ApiError::BadRequest(format!(
                "requestFutureEpisodes must be true or false, got \"{other}\""
            )));
        }
    };
    let since = match query_value(&query, "sinceDate") {
        Some(text) => parse_date(text)?,
        None => default_since(),
    };
    let lookup_state = state.clone();
    let team_id = account.team_id.clone();
    let (podcast, wanted) = blocking(move || {
        let podcast = lookup_state
            .catalog
            .snapshot()?
            .podcast_by_id_or_slug(&podcast_id)?
            .ok_or_else(|| ApiError::NotFound(format!("Podcast not found: {podcast_id}")))?;
        let existing = team_requests(&lookup_state.workflows, &team_id)?;
        let wanted: Vec<_> = episodes_for(&lookup_state.catalog, &podcast, &kind, since)?
            .into_iter()
            .filter(|episode| {
                let id = episode.episode_id.to_string();
                !existing
                    .iter()
                    .any(|request| request.episode_id == id && request.status != "failed")
            })
            .collect();
        Ok((podcast, wanted))
    })
    .await?;
    let mut created: Vec<TranscriptionRequest> = Vec::new();
    let mut limited = None;
    for episode in &wanted {
        match metering::charge(&state, &caller, UsageCounter::TranscriptionRequest).await {
            Ok(_) => created.push(new_request(&podcast, episode, &account.user_id)),
            Err(error) if created.is_empty() => return Err(error),
            Err(error) => {
                limited = Some(error.to_string());
                break;
            }
        }
    }
    let save_state = state.clone();
    let team_id = account.team_id.clone();
    let to_save = created.clone();
    let user_id = account.user_id.clone();
    let followed_id = podcast.podcast_id.to_string();
    blocking(move || {
        for request in &to_save {
            save_request(&save_state.workflows, &team_id, request)?;
        }
        if follow {
            let now = Utc::now();
            save_state.workflows.put_doc(
                DocKind::TranscriptionFollow,
                &Stored {
                    id: format!("{team_id}:{followed_id}"),
                    team_id: team_id.clone(),
                    parent_id: Some(followed_id.clone()),
                    created_at: now,
                    updated_at: now,
                    deleted: false,
                    value: PodcastFollow {
                        podcast_id: followed_id,
                        requested_by_user_id: user_id,
                        since: now,
                    },
                },
            )?;
        }
        Ok(())
    })
    .await?;
    for request in &created {
        spawn_processing(
            &state.transcriptions(),
            &account.team_id,
            &request.request_id,
        );
    }
    let mut message = format!(
        "Transcription requested for {} episode{} of \"{}\"",
        created.len(),
        if created.len() == 1 { "" } else { "s" },
        podcast.podcast_rss_title
    );
    if follow {
        message.push_str("; future episodes will be requested automatically");
    }
    if let Some(limit) = limited {
        message.push_str(&format!("; the rest were not requested: {limit}"));
    }
    Ok(Envelope(json!({
        "message": message,
        "episodeIds": created.iter().map(|r| r.episode_id.clone()).collect::<Vec<_>>(),
    })))
}

fn page_params(
    query: &[(String, String)],
    limit_required: bool,
) -> ApiResult<(u64, u64, Option<bool>)> {
    let number = |name: &str, min: u64, max: u64| -> ApiResult<Option<u64>> {
        match query_value(query, name) {
            None => Ok(None),
            Some(text) => match text.parse::<f64>() {
                Ok(n) if n.fract() == 0.0 && n >= min as f64 && n <= max as f64 => {
                    Ok(Some(n as u64))
                }
                _ => Err(ApiError::BadRequest(format!(
                    "{name} must be a whole number between {min} and {max}, got \"{text}\""
                ))),
            },
        }
    };
    let limit = match number("limit", 1, MAX_HISTORY_LIMIT)? {
        Some(limit) => limit,
        None if limit_required => return Err(ApiError::BadRequest("limit is required".into())),
        None => 20,
    };
    let skip = number("skip", 0, 1_000_000_000)?.unwrap_or(0);
    let completed = match query_value(query, "filterCompleted") {
        None => None,
        Some("true") => Some(true),
        Some("false") => Some(false),
        Some(other) => {
            return Err(ApiError::BadRequest(format!(
                "filterCompleted must be true or false, got \"{other}\""
            )));
        }
    };
    Ok((limit, skip, completed))
}

fn history(
    state: &AppState,
    team_id: &str,
    request_type: &str,
    limit: u64,
    skip: u64,
    completed: Option<bool>,
) -> ApiResult<Value> {
    let requests: Vec<TranscriptionRequest> = team_requests(&state.workflows, team_id)?
        .into_iter()
        .filter(|request| request.request_type == request_type)
        .filter(|request| completed.is_none_or(|wanted| (request.status == "completed") == wanted))
        .collect();
    let total = requests.len();
    let page: Vec<Value> = requests
        .into_iter()
        .skip(skip as usize)
        .take(limit as usize)
        .map(|request| {
            let mut value = serde_json::to_value(&request).unwrap_or(Value::Null);
            if let Some(object) = value.as_object_mut() {
                object.remove("requestId");
            }
            value
        })
        .collect();
    Ok(json!({"totalRequests": total, "requests": page}))
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
) -> ApiResult<Envelope<Value>> {
    let account = caller.require_account()?.clone();
    let (limit, skip, completed) = page_params(&query, true)?;
    blocking(move || {
        Ok(Envelope(history(
            &state,
            &account.team_id,
            "transcription",
            limit,
            skip,
            completed,
        )?))
    })
    .await
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
) -> ApiResult<Envelope<Value>> {
    let account = caller.require_account()?.clone();
    let (limit, skip, completed) = page_params(&query, true)?;
    let request_type = query_value(&query, "requestType")
        .ok_or_else(|| ApiError::BadRequest("requestType is required".into()))?
        .to_owned();
    if !REQUEST_TYPES.contains(&request_type.as_str()) {
        return Err(ApiError::BadRequest(format!(
            "Invalid requestType \"{request_type}\"; expected one of {}",
            REQUEST_TYPES.join(", ")
        )));
    }
    blocking(move || {
        Ok(Envelope(history(
            &state,
            &account.team_id,
            &request_type,
            limit,
            skip,
            completed,
        )?))
    })
    .await
}

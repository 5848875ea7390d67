//! The caller's team: its saved podcasts (with the sync and blacklist flags) and its
//! members, by `podlens_app::workflows::team_podcasts::TeamPodcasts`.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::{delete, get, put};
use podlens_app::workflows::team_podcasts::{
    RemoveManyBody, RemoveManyResponse, TeamPodcastFlags, TeamPodcastsQuery,
};
use podlens_model::entities::{TeamPodcastResponse, TeamPodcastsResponse, TeamUsersResponse};
use serde::Serialize;

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::ApiResult;
use crate::extract::{ApiJson, ApiQuery, RawJson};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/teams/podcasts", get(list_podcasts))
        .route("/api/v1/teams/podcasts/multiple", delete(remove_many))
        .route(
            "/api/v1/teams/podcasts/{podcastId}",
            put(add_podcast).delete(remove_one),
        )
        .route("/api/v1/teams/users", get(users))
}

/// The team's podcasts, filtered by flags and title, paged.
#[utoipa::path(get, path = "/api/v1/teams/podcasts", tag = "teams",
    params(("blacklist" = Option<bool>, Query), ("sync" = Option<bool>, Query),
           ("limit" = Option<u64>, Query), ("offset" = Option<u64>, Query),
           ("textFilter" = Option<String>, Query), ("sortOrder" = Option<String>, Query, description = "podcastTitle or addedAt")),
    responses((status = 200, description = "teamPodcasts")))]
pub async fn list_podcasts(
    State(state): State<AppState>,
    caller: Caller,
    ApiQuery(query): ApiQuery<TeamPodcastsQuery>,
) -> ApiResult<Envelope<TeamPodcastsResponse>> {
    let account = caller.require_account()?;
    Ok(Envelope(state.team_podcasts().list(account, query).await?))
}

/// Adds a podcast to the team, or updates its flags (a null flag keeps its value).
#[utoipa::path(put, path = "/api/v1/teams/podcasts/{podcastId}", tag = "teams",
    params(("podcastId" = String, Path)),
    request_body(content = serde_json::Value, description = "sync and blacklist, each optional"),
    responses((status = 200, description = "teamPodcast"), (status = 404, description = "Unknown podcast")))]
pub async fn add_podcast(
    State(state): State<AppState>,
    caller: Caller,
    Path(podcast_id): Path<String>,
    RawJson(body): RawJson,
) -> ApiResult<Envelope<TeamPodcastResponse>> {
    let account = caller.require_account()?;
    let flags = TeamPodcastFlags::from_body(body)?;
    Ok(Envelope(
        state
            .team_podcasts()
            .add(account, podcast_id, flags)
            .await?,
    ))
}

#[derive(Debug, Serialize)]
pub struct Message {
    message: String,
}

/// Removes one podcast from the team.
#[utoipa::path(delete, path = "/api/v1/teams/podcasts/{podcastId}", tag = "teams",
    params(("podcastId" = String, Path)),
    responses((status = 200, description = "message"), (status = 404, description = "Not a team podcast")))]
pub async fn remove_one(
    State(state): State<AppState>,
    caller: Caller,
    Path(podcast_id): Path<String>,
) -> ApiResult<Envelope<Message>> {
    let account = caller.require_account()?;
    state.team_podcasts().remove(account, podcast_id).await?;
    Ok(Envelope(Message {
        message: "Podcast removed from team".to_owned(),
    }))
}

/// Removes several podcasts, by id or Apple id.
#[utoipa::path(delete, path = "/api/v1/teams/podcasts/multiple", tag = "teams",
    request_body(content = serde_json::Value, description = "podcastIds and/or appleIds"),
    responses((status = 200, description = "Counts of removed podcasts")))]
pub async fn remove_many(
    State(state): State<AppState>,
    caller: Caller,
    ApiJson(body): ApiJson<RemoveManyBody>,
) -> ApiResult<Envelope<RemoveManyResponse>> {
    let account = caller.require_account()?;
    Ok(Envelope(
        state.team_podcasts().remove_many(account, body).await?,
    ))
}

/// The team's members.
#[utoipa::path(get, path = "/api/v1/teams/users", tag = "teams",
    responses((status = 200, body = TeamUsersResponse, description = "The team's members")))]
pub async fn users(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Envelope<TeamUsersResponse>> {
    let account = caller.require_account()?;
    Ok(Envelope(state.team_podcasts().users(account).await?))
}

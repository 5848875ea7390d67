//! The caller's team: its saved podcasts (with the sync and blacklist flags) and its
//! members.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::{delete, get, put};
use chrono::Utc;
use podlens_model::entities::{
    PodcastSummary, TeamPodcast, TeamPodcastResponse, TeamPodcastsResponse, TeamUser,
    TeamUsersResponse,
};
use podlens_model::enums::TeamPodcastAddedReason;
use serde::{Deserialize, Serialize};

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiJson, ApiQuery, RawJson};
use crate::routes::lookup;
use crate::state::{AppState, blocking};
use podlens_app::accounts::TeamPodcastRow;
use podlens_app::convert;

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

fn to_wire(row: TeamPodcastRow, podcast: PodcastSummary) -> TeamPodcast {
    TeamPodcast {
        added_by_user_id: row.added_by_user_id,
        added_reason: TeamPodcastAddedReason::parse(&row.added_reason)
            .unwrap_or(TeamPodcastAddedReason::AddToTeamPodcastsButton),
        blacklist: row.blacklist,
        created_at: row.created_at,
        podcast,
        podcast_id: row.podcast_id,
        projects: Vec::new(),
        sync: row.sync,
        team_id: row.team_id,
        updated_at: Some(row.updated_at),
    }
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListQuery {
    blacklist: Option<bool>,
    sync: Option<bool>,
    limit: Option<f64>,
    offset: Option<f64>,
    text_filter: Option<String>,
    sort_order: Option<String>,
}

fn whole(value: Option<f64>, name: &str, default: u64) -> ApiResult<u64> {
    match value {
        None => Ok(default),
        Some(number) if number >= 0.0 && number.fract() == 0.0 && number <= 1e9 => {
            Ok(number as u64)
        }
        Some(number) => Err(ApiError::BadRequest(format!(
            "{name} must be a whole number of at least 0, got {number}"
        ))),
    }
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
    ApiQuery(query): ApiQuery<ListQuery>,
) -> ApiResult<Envelope<TeamPodcastsResponse>> {
    let account = caller.require_account()?.clone();
    let limit = whole(query.limit, "limit", 100)?;
    let offset = whole(query.offset, "offset", 0)?;
    if let Some(order) = query.sort_order.as_deref()
        && !matches!(order, "podcastTitle" | "addedAt")
    {
        return Err(ApiError::BadRequest(format!(
            "sortOrder must be podcastTitle or addedAt, got \"{order}\""
        )));
    }
    blocking(move || {
        let rows = state.accounts.team_podcasts(&account.team_id)?;
        let total = rows.len() as u64;
        let ids: Vec<uuid::Uuid> = rows
            .iter()
            .filter_map(|row| uuid::Uuid::parse_str(&row.podcast_id).ok())
            .collect();
        let records = state.catalog.snapshot()?.podcasts_by_ids(&ids)?;
        let filter = query.text_filter.as_deref().map(str::to_lowercase);
        let mut podcasts: Vec<TeamPodcast> = rows
            .into_iter()
            .filter(|row| query.blacklist.is_none_or(|flag| row.blacklist == flag))
            .filter(|row| query.sync.is_none_or(|flag| row.sync == flag))
            .filter_map(|row| {
                let record = records
                    .iter()
                    .find(|record| record.podcast_id.to_string() == row.podcast_id)?;
                Some(to_wire(row, convert::podcast_summary(record)))
            })
            .filter(|podcast| {
                filter
                    .as_deref()
                    .is_none_or(|text| podcast.podcast.title.to_lowercase().contains(text))
            })
            .collect();
        if query.sort_order.as_deref() == Some("podcastTitle") {
            podcasts.sort_by_key(|team_podcast| team_podcast.podcast.title.to_lowercase());
        }
        let total_filtered = podcasts.len() as u64;
        let team_podcasts = podcasts
            .into_iter()
            .skip(offset as usize)
            .take(limit as usize)
            .collect();
        Ok(Envelope(TeamPodcastsResponse {
            total,
            total_filtered,
            team_podcasts,
        }))
    })
    .await
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FlagsBody {
    sync: Option<bool>,
    blacklist: Option<bool>,
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
    let account = caller.require_account()?.clone();
    let flags: FlagsBody = serde_json::from_value(body)
        .map_err(|error| ApiError::BadRequest(format!("Invalid request body: {error}")))?;
    blocking(move || {
        let record = lookup::podcast_by_id_or_slug(&state, &podcast_id)?;
        let id = record.podcast_id.to_string();
        let existing = state
            .accounts
            .team_podcasts(&account.team_id)?
            .into_iter()
            .find(|row| row.podcast_id == id);
        let now = Utc::now();
        let row = match existing {
            Some(mut row) => {
                row.sync = flags.sync.unwrap_or(row.sync);
                row.blacklist = flags.blacklist.unwrap_or(row.blacklist);
                row.updated_at = now;
                row
            }
            None => TeamPodcastRow {
                team_id: account.team_id.clone(),
                podcast_id: id,
                added_by_user_id: Some(account.user_id.clone()),
                added_reason: TeamPodcastAddedReason::AddToTeamPodcastsButton
                    .as_str()
                    .to_owned(),
                blacklist: flags.blacklist.unwrap_or(false),
                sync: flags.sync.unwrap_or(false),
                created_at: now,
                updated_at: now,
            },
        };
        let saved = state.accounts.upsert_team_podcast(&row)?;
        state.blacklists.forget(&account.team_id);
        Ok(Envelope(TeamPodcastResponse {
            team_podcast: to_wire(saved, convert::podcast_summary(&record)),
        }))
    })
    .await
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
    let account = caller.require_account()?.clone();
    blocking(move || {
        let removed = state
            .accounts
            .remove_team_podcasts(&account.team_id, std::slice::from_ref(&podcast_id))?;
        state.blacklists.forget(&account.team_id);
        if removed == 0 {
            return Err(ApiError::NotFound(format!(
                "Podcast {podcast_id} is not one of the team's podcasts"
            )));
        }
        Ok(Envelope(Message {
            message: "Podcast removed from team".to_owned(),
        }))
    })
    .await
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RemoveManyBody {
    #[serde(default)]
    podcast_ids: Vec<String>,
    #[serde(default)]
    apple_ids: Vec<u64>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RemoveManyResponse {
    not_found_apple_ids: Vec<u64>,
    errors: u64,
    removed_podcasts: u64,
    not_on_list: u64,
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
    let account = caller.require_account()?.clone();
    blocking(move || {
        let snapshot = state.catalog.snapshot()?;
        let mut ids = body.podcast_ids.clone();
        let mut not_found_apple_ids = Vec::new();
        for apple_id in &body.apple_ids {
            match snapshot.podcast_by_apple_id(&apple_id.to_string())? {
                Some(record) => ids.push(record.podcast_id.to_string()),
                None => not_found_apple_ids.push(*apple_id),
            }
        }
        let removed = state
            .accounts
            .remove_team_podcasts(&account.team_id, &ids)?;
        state.blacklists.forget(&account.team_id);
        Ok(Envelope(RemoveManyResponse {
            not_found_apple_ids,
            errors: 0,
            removed_podcasts: removed,
            not_on_list: ids.len() as u64 - removed,
        }))
    })
    .await
}

/// The team's members.
#[utoipa::path(get, path = "/api/v1/teams/users", tag = "teams",
    responses((status = 200, body = TeamUsersResponse, description = "The team's members")))]
pub async fn users(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Envelope<TeamUsersResponse>> {
    let account = caller.require_account()?.clone();
    blocking(move || {
        let users = state
            .accounts
            .team_users(&account.team_id)?
            .into_iter()
            .map(|user| TeamUser {
                id: user.id,
                email: user.email,
                first_name: user.first_name,
                last_name: user.last_name,
                avatar_seed: user.avatar_seed,
                display_name: user.display_name,
                role: user.role,
                joined_at: user.joined_at,
            })
            .collect();
        Ok(Envelope(TeamUsersResponse { users }))
    })
    .await
}

//! A user's preferences and a team's settings flags, run by
//! `podlens_app::workflows::settings::Settings`.

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use podlens_app::workflows::settings::{TeamSettingsChanges, preferences_from_json};
use podlens_model::entities::{TeamSettingsFlags, UserPreferences};
use serde::Serialize;
use utoipa::ToSchema;

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::ApiResult;
use crate::extract::RawJson;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/api/v1/users/preferences",
            get(get_preferences).put(put_preferences),
        )
        .route(
            "/api/v1/teams/settings",
            get(get_settings).patch(patch_settings),
        )
}

/// `data` of the preference calls.
#[derive(Debug, Serialize, ToSchema)]
pub struct PreferencesResponse {
    pub preferences: UserPreferences,
}

/// `data` of the team settings calls.
#[derive(Debug, Serialize, ToSchema)]
pub struct TeamSettingsResponse {
    pub settings: TeamSettingsFlags,
}

/// `GET /api/v1/users/preferences`: the caller's preferences (`{}` until saved).
#[utoipa::path(get, path = "/api/v1/users/preferences", tag = "settings", operation_id = "getUserPreferences",
    responses((status = 200, body = PreferencesResponse, description = "The caller's preferences")))]
pub async fn get_preferences(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Envelope<PreferencesResponse>> {
    let preferences = state
        .settings()
        .preferences(caller.require_account()?)
        .await?;
    Ok(Envelope(PreferencesResponse { preferences }))
}

/// `PUT /api/v1/users/preferences`: replaces the caller's preferences with the body.
#[utoipa::path(put, path = "/api/v1/users/preferences", tag = "settings", operation_id = "putUserPreferences", request_body = UserPreferences,
    responses((status = 200, body = PreferencesResponse, description = "The stored preferences")))]
pub async fn put_preferences(
    State(state): State<AppState>,
    caller: Caller,
    RawJson(body): RawJson,
) -> ApiResult<Envelope<PreferencesResponse>> {
    let account = caller.require_account()?;
    let preferences = preferences_from_json(body)?;
    let preferences = state
        .settings()
        .replace_preferences(account, preferences)
        .await?;
    Ok(Envelope(PreferencesResponse { preferences }))
}

/// `GET /api/v1/teams/settings`: the caller's team's flags (all off until set).
#[utoipa::path(get, path = "/api/v1/teams/settings", tag = "settings", operation_id = "getTeamSettings",
    responses((status = 200, body = TeamSettingsResponse, description = "The team's settings flags")))]
pub async fn get_settings(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Envelope<TeamSettingsResponse>> {
    let settings = state
        .settings()
        .team_settings(caller.require_account()?)
        .await?;
    Ok(Envelope(TeamSettingsResponse { settings }))
}

/// `PATCH /api/v1/teams/settings`: sets any of the flags; the others keep their value.
/// Automated search can only be switched on where the plan includes it.
#[utoipa::path(patch, path = "/api/v1/teams/settings", tag = "settings", operation_id = "patchTeamSettings", request_body = TeamSettingsFlags,
    responses((status = 200, body = TeamSettingsResponse, description = "The team's settings flags")))]
pub async fn patch_settings(
    State(state): State<AppState>,
    caller: Caller,
    RawJson(body): RawJson,
) -> ApiResult<Envelope<TeamSettingsResponse>> {
    let account = caller.require_account()?;
    let changes = TeamSettingsChanges::from_json(body)?;
    let settings = state
        .settings()
        .change_team_settings(account, caller.plan, changes)
        .await?;
    Ok(Envelope(TeamSettingsResponse { settings }))
}

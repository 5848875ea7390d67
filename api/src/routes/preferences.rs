//! A user's preferences (SPEC.md §3, §5: a strict object, unknown keys rejected) and a
//! team's settings flags.

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use chrono::Utc;
use podlens_model::entities::{TeamSettingsFlags, UserPreferences};
use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::{ApiError, ApiResult};
use crate::extract::RawJson;
use crate::state::{AppState, blocking};
use podlens_app::workflows::documents::{DocKind, Stored};
use podlens_app::workflows::fields::object;

/// The most favourite projects a user keeps.
pub const MAX_FAVORITE_PROJECTS: usize = 100;

/// The team settings flags, by their wire names.
pub const TEAM_FLAGS: [&str; 3] = [
    "automatedSearchEnabled",
    "autoQuickDecisionEnabled",
    "podcastListValidationPageEnabled",
];

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

fn stored_preferences(state: &AppState, user_id: &str) -> ApiResult<UserPreferences> {
    Ok(state
        .workflows
        .get_doc::<UserPreferences>(DocKind::UserPreferences, None, user_id)?
        .map(|doc| doc.value)
        .unwrap_or_default())
}

/// `GET /api/v1/users/preferences`: the caller's preferences (`{}` until saved).
#[utoipa::path(get, path = "/api/v1/users/preferences", tag = "settings", operation_id = "getUserPreferences",
    responses((status = 200, body = PreferencesResponse, description = "The caller's preferences")))]
pub async fn get_preferences(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Envelope<PreferencesResponse>> {
    let account = caller.require_account()?.clone();
    blocking(move || {
        Ok(Envelope(PreferencesResponse {
            preferences: stored_preferences(&state, &account.user_id)?,
        }))
    })
    .await
}

/// Reads a preferences body: the strict object of §3.
pub fn parse_preferences(body: Value) -> ApiResult<UserPreferences> {
    let body = object(body)?;
    let preferences: UserPreferences = serde_json::from_value(Value::Object(body))
        .map_err(|error| ApiError::BadRequest(format!("Invalid preferences: {error}")))?;
    let favourites = preferences
        .projects
        .as_ref()
        .and_then(|projects| projects.favorite_project_ids.as_ref())
        .map_or(0, Vec::len);
    if favourites > MAX_FAVORITE_PROJECTS {
        return Err(ApiError::BadRequest(format!(
            "Invalid preferences: favoriteProjectIds may hold at most {MAX_FAVORITE_PROJECTS} projects"
        )));
    }
    Ok(preferences)
}

/// `PUT /api/v1/users/preferences`: replaces the caller's preferences with the body.
#[utoipa::path(put, path = "/api/v1/users/preferences", tag = "settings", operation_id = "putUserPreferences", request_body = UserPreferences,
    responses((status = 200, body = PreferencesResponse, description = "The stored preferences")))]
pub async fn put_preferences(
    State(state): State<AppState>,
    caller: Caller,
    RawJson(body): RawJson,
) -> ApiResult<Envelope<PreferencesResponse>> {
    let account = caller.require_account()?.clone();
    let preferences = parse_preferences(body)?;
    blocking(move || {
        let now = Utc::now();
        state.workflows.put_doc(
            DocKind::UserPreferences,
            &Stored {
                id: account.user_id.clone(),
                team_id: account.team_id.clone(),
                parent_id: None,
                created_at: now,
                updated_at: now,
                deleted: false,
                value: preferences.clone(),
            },
        )?;
        Ok(Envelope(PreferencesResponse { preferences }))
    })
    .await
}

fn stored_settings(state: &AppState, team_id: &str) -> ApiResult<TeamSettingsFlags> {
    Ok(state
        .workflows
        .get_doc::<TeamSettingsFlags>(DocKind::TeamSettings, Some(team_id), team_id)?
        .map(|doc| doc.value)
        .unwrap_or_default())
}

/// `GET /api/v1/teams/settings`: the caller's team's flags (all off until set).
#[utoipa::path(get, path = "/api/v1/teams/settings", tag = "settings", operation_id = "getTeamSettings",
    responses((status = 200, body = TeamSettingsResponse, description = "The team's settings flags")))]
pub async fn get_settings(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Envelope<TeamSettingsResponse>> {
    let account = caller.require_account()?.clone();
    blocking(move || {
        Ok(Envelope(TeamSettingsResponse {
            settings: stored_settings(&state, &account.team_id)?,
        }))
    })
    .await
}

/// The flags a PATCH body sets: known names, boolean values, at least one.
fn flag_patch(body: Value) -> ApiResult<Map<String, Value>> {
    let body = object(body)?;
    if body.is_empty() {
        return Err(ApiError::BadRequest(
            "At least one setting must be provided".into(),
        ));
    }
    for (name, value) in &body {
        if !TEAM_FLAGS.contains(&name.as_str()) {
            return Err(ApiError::BadRequest(format!(
                "Unknown team setting \"{name}\"; expected one of {}",
                TEAM_FLAGS.join(", ")
            )));
        }
        if !value.is_boolean() {
            return Err(ApiError::BadRequest(format!("{name} must be a boolean")));
        }
    }
    Ok(body)
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
    let account = caller.require_account()?.clone();
    let patch = flag_patch(body)?;
    let plan = caller.plan;
    if patch.get("automatedSearchEnabled") == Some(&Value::Bool(true))
        && plan.limits().automated_search.is_none()
    {
        return Err(ApiError::Forbidden(format!(
            "Automated search is not available on the {plan} plan"
        )));
    }
    blocking(move || {
        let now = Utc::now();
        let team_id = account.team_id.clone();
        // Created once with every flag off, then patched in one statement, so two
        // concurrent changes of different flags both hold.
        state.workflows.insert_doc_if_absent(
            DocKind::TeamSettings,
            &Stored {
                id: team_id.clone(),
                team_id: team_id.clone(),
                parent_id: None,
                created_at: now,
                updated_at: now,
                deleted: false,
                value: TeamSettingsFlags::default(),
            },
        )?;
        state
            .workflows
            .merge_into_doc(DocKind::TeamSettings, &team_id, &Value::Object(patch))?;
        Ok(Envelope(TeamSettingsResponse {
            settings: stored_settings(&state, &team_id)?,
        }))
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unknown_preference_keys_are_refused_at_every_level() {
        assert!(parse_preferences(json!({"showAdditionalPodcastDirectories": true})).is_ok());
        for body in [
            json!({"theme": "dark"}),
            json!({"projects": {"favourites": []}}),
            json!({"search": {"export": {"columns": []}}}),
            json!({"search": {"defaultResultsView": "grid"}}),
            json!([]),
        ] {
            assert!(parse_preferences(body.clone()).is_err(), "{body}");
        }
    }

    #[test]
    fn flags_must_be_known_booleans() {
        assert!(flag_patch(json!({"autoQuickDecisionEnabled": true})).is_ok());
        assert!(flag_patch(json!({})).is_err());
        assert!(flag_patch(json!({"autoQuickDecisionEnabled": "yes"})).is_err());
        assert!(flag_patch(json!({"darkMode": true})).is_err());
    }
}

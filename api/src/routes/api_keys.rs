//! The team's API keys, managed by its signed-in members (team settings, developers):
//! list (never the keys themselves), create (the key is in that answer only) and revoke.
//! A revoked key answers 401 `Invalid authorization token` from then on.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::{delete, get};
use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::auth::{Caller, Origin};
use crate::envelope::Envelope;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use podlens_app::accounts::keys::display_prefix;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/teams/api-keys", get(list).post(create))
        .route("/api/v1/teams/api-keys/{keyId}", delete(revoke))
}

/// One key of the team.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApiKeyInfo {
    /// Names the key in a revocation.
    pub key_id: String,
    /// The key's first characters, to recognise it.
    pub prefix: String,
    pub created_at: DateTime<Utc>,
    /// E-mail of the member who created it.
    pub created_by: String,
    pub revoked_at: Option<DateTime<Utc>>,
}

/// `data` of the list.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApiKeysResponse {
    pub api_keys: Vec<ApiKeyInfo>,
}

/// `data` of a creation: the only answer that holds the key.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedApiKey {
    pub api_key: String,
    pub key_id: String,
    pub prefix: String,
    pub created_at: DateTime<Utc>,
}

/// `data` of a revocation.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RevokedApiKey {
    pub key_id: String,
    pub revoked_at: DateTime<Utc>,
}

/// The team's keys, revoked ones included, newest first.
#[utoipa::path(get, path = "/api/v1/teams/api-keys", tag = "teams",
    responses((status = 200, body = ApiKeysResponse, description = "The team's API keys")))]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Envelope<ApiKeysResponse>> {
    let account = caller.require_account()?;
    let api_keys = state
        .accounts
        .team_keys(&account.team_id)
        .await?
        .into_iter()
        .map(|row| ApiKeyInfo {
            key_id: row.key_id,
            prefix: row.prefix,
            created_at: row.created_at,
            created_by: row.created_by,
            revoked_at: row.revoked_at,
        })
        .collect();
    Ok(Envelope(ApiKeysResponse { api_keys }))
}

/// Why a key cannot create keys.
pub const CREATE_WITH_SESSION_MESSAGE: &str = "API keys are created from a signed-in session (the web app's developer settings), not with an API key";
/// Why a plain member cannot revoke another member's key.
pub const REVOKE_OWN_KEYS_MESSAGE: &str =
    "Only the member who created an API key, or a team owner or admin, can revoke it";

/// A new key for the caller's team, from a signed-in session (a key cannot create
/// keys: a leaked one would outlive its revocation); only plans with API access may
/// create one.
#[utoipa::path(post, path = "/api/v1/teams/api-keys", tag = "teams",
    responses((status = 200, body = CreatedApiKey, description = "The new key, shown this once"),
              (status = 401, description = "Not signed in"),
              (status = 403, description = "Asked with an API key, or the plan has no API access")))]
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Envelope<CreatedApiKey>> {
    let account = caller.require_account()?.clone();
    if caller.origin != Origin::Session {
        return Err(ApiError::Forbidden(CREATE_WITH_SESSION_MESSAGE.to_owned()));
    }
    if !caller.plan.has_api_access() {
        return Err(ApiError::ApiAccessDenied {
            plan: account.plan.clone(),
        });
    }
    let created = state.accounts.create_team_key(&account).await?;
    Ok(Envelope(CreatedApiKey {
        key_id: created.key_id(),
        prefix: display_prefix(&created.api_key),
        created_at: created.created_at,
        api_key: created.api_key,
    }))
}

/// Revokes a key of the caller's team: one the caller created, or any as the team's
/// owner or an admin.
#[utoipa::path(delete, path = "/api/v1/teams/api-keys/{keyId}", tag = "teams",
    params(("keyId" = String, Path, description = "The key's id from the list")),
    responses((status = 200, body = RevokedApiKey, description = "The key is revoked"),
              (status = 403, description = "Another member's key, and the caller is a plain member"),
              (status = 404, description = "No such key in the team")))]
pub async fn revoke(
    State(state): State<AppState>,
    caller: Caller,
    Path(key_id): Path<String>,
) -> ApiResult<Envelope<RevokedApiKey>> {
    let account = caller.require_account()?.clone();
    let not_found = || ApiError::NotFound(format!("API key not found: {key_id}"));
    let key = state
        .accounts
        .team_keys(&account.team_id)
        .await?
        .into_iter()
        .find(|row| row.key_id == key_id)
        .ok_or_else(not_found)?;
    let own = key.created_by.eq_ignore_ascii_case(&account.email);
    let manages = state
        .members
        .role(&account.team_id, &account.user_id)
        .await?
        .is_some_and(|role| role.manages_members());
    if !own && !manages {
        return Err(ApiError::Forbidden(REVOKE_OWN_KEYS_MESSAGE.to_owned()));
    }
    let revoked_at = state
        .accounts
        .revoke_key(Some(&account.team_id), &key_id)
        .await?
        .ok_or_else(not_found)?;
    Ok(Envelope(RevokedApiKey { key_id, revoked_at }))
}

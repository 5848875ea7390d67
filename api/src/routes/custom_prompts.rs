//! A team's custom prompts (SPEC.md §3, §5): list, create, read, update, delete, run by
//! `podlens_app::workflows::custom_prompts::CustomPrompts`.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::get;
use podlens_app::workflows::custom_prompts::{
    CustomPromptChanges, CustomPromptItem, NewCustomPrompt,
};
use serde::Serialize;
use utoipa::ToSchema;

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::ApiResult;
use crate::extract::RawJson;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/teams/custom-prompts", get(list).post(create))
        .route(
            "/api/v1/teams/custom-prompts/{customPromptId}",
            get(get_one).patch(update).delete(delete_one),
        )
}

/// `data` of the list.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomPromptsResponse {
    pub custom_prompts: Vec<CustomPromptItem>,
}

/// `data` of a create, read or update.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomPromptResponse {
    pub custom_prompt: CustomPromptItem,
}

/// `data` of a delete.
#[derive(Debug, Serialize, ToSchema)]
pub struct MessageResponse {
    pub message: String,
}

/// `GET /api/v1/teams/custom-prompts`: the team's prompts, oldest first.
#[utoipa::path(get, path = "/api/v1/teams/custom-prompts", tag = "custom-prompts", operation_id = "listCustomPrompts",
    responses((status = 200, body = CustomPromptsResponse, description = "The team's custom prompts")))]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Envelope<CustomPromptsResponse>> {
    let custom_prompts = state
        .custom_prompts()
        .list(caller.require_account()?)
        .await?;
    Ok(Envelope(CustomPromptsResponse { custom_prompts }))
}

/// `POST /api/v1/teams/custom-prompts`: body name, description, contextType, prompt.
#[utoipa::path(post, path = "/api/v1/teams/custom-prompts", tag = "custom-prompts", operation_id = "createCustomPrompt", request_body = NewCustomPrompt,
    responses((status = 200, body = CustomPromptResponse, description = "The new prompt")))]
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    RawJson(body): RawJson,
) -> ApiResult<Envelope<CustomPromptResponse>> {
    let account = caller.require_account()?;
    let new = NewCustomPrompt::from_json(body)?;
    let custom_prompt = state.custom_prompts().create(account, new).await?;
    Ok(Envelope(CustomPromptResponse { custom_prompt }))
}

/// `GET /api/v1/teams/custom-prompts/{customPromptId}`.
#[utoipa::path(get, path = "/api/v1/teams/custom-prompts/{customPromptId}", tag = "custom-prompts", operation_id = "getCustomPrompt",
    params(("customPromptId" = String, Path)),
    responses((status = 200, body = CustomPromptResponse, description = "The prompt")))]
pub async fn get_one(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Envelope<CustomPromptResponse>> {
    let account = caller.require_account()?;
    let custom_prompt = state.custom_prompts().get(account, &id).await?;
    Ok(Envelope(CustomPromptResponse { custom_prompt }))
}

/// `PATCH /api/v1/teams/custom-prompts/{customPromptId}`: any of name, description
/// (null or empty clears it), contextType, prompt.
#[utoipa::path(patch, path = "/api/v1/teams/custom-prompts/{customPromptId}", tag = "custom-prompts", operation_id = "updateCustomPrompt", request_body = CustomPromptChanges,
    params(("customPromptId" = String, Path)),
    responses((status = 200, body = CustomPromptResponse, description = "The updated prompt")))]
pub async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    RawJson(body): RawJson,
) -> ApiResult<Envelope<CustomPromptResponse>> {
    let account = caller.require_account()?;
    let changes = CustomPromptChanges::from_json(body)?;
    let custom_prompt = state.custom_prompts().update(account, &id, changes).await?;
    Ok(Envelope(CustomPromptResponse { custom_prompt }))
}

/// `DELETE /api/v1/teams/custom-prompts/{customPromptId}`.
#[utoipa::path(delete, path = "/api/v1/teams/custom-prompts/{customPromptId}", tag = "custom-prompts", operation_id = "deleteCustomPrompt",
    params(("customPromptId" = String, Path)),
    responses((status = 200, body = MessageResponse, description = "The prompt is deleted")))]
pub async fn delete_one(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Envelope<MessageResponse>> {
    state
        .custom_prompts()
        .delete(caller.require_account()?, &id)
        .await?;
    Ok(Envelope(MessageResponse {
        message: "Custom prompt deleted".into(),
    }))
}

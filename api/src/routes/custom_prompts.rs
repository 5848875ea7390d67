//! A team's custom prompts (SPEC.md §3, §5): list, create, read, update, delete. A
//! prompt runs over a podcast, an episode or a transcript through `POST
//! /api/v1/agent/` with the kind `custom`.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::get;
use chrono::{DateTime, Utc};
use podlens_model::enums::CustomPromptContextType;
use podlens_model::validation::validate_custom_prompt_name;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::{ApiError, ApiResult};
use crate::extract::RawJson;
use crate::state::{AppState, blocking};
use podlens_app::workflows::CapCheck;
use podlens_app::workflows::documents::{DocFilter, DocKind, Stored};
use podlens_app::workflows::fields::{
    bounded_text, clearable_text, enum_value, object, only_fields, optional_string,
};

/// The longest prompt text, in characters.
pub const MAX_PROMPT_CHARS: usize = 10_000;
/// The longest description, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 500;
/// The prompts a team may keep.
pub const MAX_PROMPTS_PER_TEAM: u64 = 100;

const FIELDS: [&str; 4] = ["name", "description", "contextType", "prompt"];

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/teams/custom-prompts", get(list).post(create))
        .route(
            "/api/v1/teams/custom-prompts/{customPromptId}",
            get(get_one).patch(update).delete(delete_one),
        )
}

/// A stored custom prompt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomPromptItem {
    pub id: String,
    pub name: String,
    pub description: Option<String>,
    pub context_type: CustomPromptContextType,
    pub prompt: String,
    pub created_by_user_id: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// The body of a new custom prompt (for the OpenAPI document; read field by field).
#[derive(Debug, ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct NewCustomPrompt {
    /// 3-100 characters after trimming.
    name: String,
    /// Empty or null means none; at most 500 characters.
    description: Option<String>,
    context_type: CustomPromptContextType,
    /// At most 10000 characters.
    prompt: String,
}

/// The body of a custom prompt update: at least one field.
#[derive(Debug, ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct CustomPromptChanges {
    name: Option<String>,
    description: Option<String>,
    context_type: Option<CustomPromptContextType>,
    prompt: Option<String>,
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

fn not_found(id: &str) -> ApiError {
    ApiError::NotFound(format!("Custom prompt not found: {id}"))
}

/// The team's prompt with this id.
pub fn find(state: &AppState, team_id: &str, id: &str) -> ApiResult<CustomPromptItem> {
    state
        .workflows
        .get_doc::<CustomPromptItem>(DocKind::CustomPrompt, Some(team_id), id)?
        .filter(|doc| !doc.deleted)
        .map(|doc| doc.value)
        .ok_or_else(|| not_found(id))
}

fn reject_unknown(body: &Map<String, Value>) -> ApiResult<()> {
    Ok(only_fields(body, &FIELDS, "custom prompt")?)
}

fn name_of(body: &Map<String, Value>) -> ApiResult<Option<String>> {
    optional_string(body, "name")?
        .map(|name| validate_custom_prompt_name(&name).map_err(ApiError::from))
        .transpose()
}

/// `Some(None)` when the description is cleared (absent stays `None`).
fn description_of(body: &Map<String, Value>) -> ApiResult<Option<Option<String>>> {
    Ok(clearable_text(body, "description", MAX_DESCRIPTION_CHARS)?)
}

fn context_type_of(body: &Map<String, Value>) -> ApiResult<Option<CustomPromptContextType>> {
    Ok(optional_string(body, "contextType")?
        .map(|value| {
            enum_value(
                value.trim(),
                "contextType",
                CustomPromptContextType::parse,
                CustomPromptContextType::ALL,
                CustomPromptContextType::as_str,
            )
        })
        .transpose()?)
}

/// A prompt text: not blank, at most [`MAX_PROMPT_CHARS`].
pub fn checked_prompt(text: &str) -> ApiResult<String> {
    Ok(bounded_text(text, "prompt", MAX_PROMPT_CHARS)?)
}

fn prompt_of(body: &Map<String, Value>) -> ApiResult<Option<String>> {
    optional_string(body, "prompt")?
        .map(|text| checked_prompt(&text))
        .transpose()
}

/// `GET /api/v1/teams/custom-prompts`: the team's prompts, oldest first.
#[utoipa::path(get, path = "/api/v1/teams/custom-prompts", tag = "custom-prompts", operation_id = "listCustomPrompts",
    responses((status = 200, body = CustomPromptsResponse, description = "The team's custom prompts")))]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Envelope<CustomPromptsResponse>> {
    let account = caller.require_account()?.clone();
    blocking(move || {
        let prompts = state.workflows.list_docs::<CustomPromptItem>(
            DocKind::CustomPrompt,
            &DocFilter {
                team_id: Some(&account.team_id),
                ..DocFilter::default()
            },
        )?;
        Ok(Envelope(CustomPromptsResponse {
            custom_prompts: prompts.into_iter().map(|doc| doc.value).collect(),
        }))
    })
    .await
}

/// `POST /api/v1/teams/custom-prompts`: body name, description, contextType, prompt.
#[utoipa::path(post, path = "/api/v1/teams/custom-prompts", tag = "custom-prompts", operation_id = "createCustomPrompt", request_body = NewCustomPrompt,
    responses((status = 200, body = CustomPromptResponse, description = "The new prompt")))]
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    RawJson(body): RawJson,
) -> ApiResult<Envelope<CustomPromptResponse>> {
    let account = caller.require_account()?.clone();
    let body = object(body)?;
    reject_unknown(&body)?;
    let name = name_of(&body)?.ok_or_else(|| ApiError::BadRequest("name is required".into()))?;
    let description = description_of(&body)?.flatten();
    let context_type = context_type_of(&body)?
        .ok_or_else(|| ApiError::BadRequest("contextType is required".into()))?;
    let prompt =
        prompt_of(&body)?.ok_or_else(|| ApiError::BadRequest("prompt is required".into()))?;
    let now = Utc::now();
    let item = CustomPromptItem {
        id: Uuid::new_v4().to_string(),
        name,
        description,
        context_type,
        prompt,
        created_by_user_id: account.user_id.clone(),
        created_at: now,
        updated_at: now,
    };
    blocking(move || {
        let stored = Stored {
            id: item.id.clone(),
            team_id: account.team_id.clone(),
            parent_id: None,
            created_at: now,
            updated_at: now,
            deleted: false,
            value: item.clone(),
        };
        match state.workflows.insert_doc_capped(
            DocKind::CustomPrompt,
            &stored,
            Some(MAX_PROMPTS_PER_TEAM),
        )? {
            CapCheck::Done(()) => Ok(Envelope(CustomPromptResponse {
                custom_prompt: item,
            })),
            CapCheck::CapReached { limit } => Err(ApiError::Forbidden(format!(
                "Custom prompt limit reached: a team can keep {limit} custom prompts. Delete one to add another."
            ))),
        }
    })
    .await
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
    let account = caller.require_account()?.clone();
    blocking(move || {
        Ok(Envelope(CustomPromptResponse {
            custom_prompt: find(&state, &account.team_id, &id)?,
        }))
    })
    .await
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
    let account = caller.require_account()?.clone();
    let body = object(body)?;
    reject_unknown(&body)?;
    if body.is_empty() {
        return Err(ApiError::BadRequest(
            "At least one field must be provided to update a custom prompt".into(),
        ));
    }
    if body.get("name").is_some_and(Value::is_null) {
        return Err(ApiError::BadRequest("name cannot be null".into()));
    }
    for required in ["contextType", "prompt"] {
        if body.get(required).is_some_and(Value::is_null) {
            return Err(ApiError::BadRequest(format!("{required} cannot be null")));
        }
    }
    let name = name_of(&body)?;
    let description = description_of(&body)?;
    let context_type = context_type_of(&body)?;
    let prompt = prompt_of(&body)?;
    blocking(move || {
        let mut doc = state
            .workflows
            .get_doc::<CustomPromptItem>(DocKind::CustomPrompt, Some(&account.team_id), &id)?
            .filter(|doc| !doc.deleted)
            .ok_or_else(|| not_found(&id))?;
        let item = &mut doc.value;
        if let Some(name) = name {
            item.name = name;
        }
        if let Some(description) = description {
            item.description = description;
        }
        if let Some(context_type) = context_type {
            item.context_type = context_type;
        }
        if let Some(prompt) = prompt {
            item.prompt = prompt;
        }
        item.updated_at = Utc::now();
        doc.updated_at = item.updated_at;
        state.workflows.put_doc(DocKind::CustomPrompt, &doc)?;
        Ok(Envelope(CustomPromptResponse {
            custom_prompt: doc.value,
        }))
    })
    .await
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
    let account = caller.require_account()?.clone();
    blocking(move || {
        if !state
            .workflows
            .remove_doc(DocKind::CustomPrompt, &account.team_id, &id)?
        {
            return Err(not_found(&id));
        }
        Ok(Envelope(MessageResponse {
            message: "Custom prompt deleted".into(),
        }))
    })
    .await
}

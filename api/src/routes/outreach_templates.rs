//! Outreach templates: the built-in ones and the team's own, run by
//! `podlens_app::workflows::outreach_templates::OutreachTemplates`.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::get;
use podlens_app::workflows::compose::PLACEHOLDERS;
use podlens_app::workflows::outreach_templates::{
    NewOutreachTemplate, OutreachTemplateChanges, OutreachTemplateItem,
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
        .route("/api/v1/outreach/templates", get(list).post(create))
        .route(
            "/api/v1/outreach/templates/{templateId}",
            get(get_one).patch(update).delete(delete_one),
        )
}

/// `data` of the list: the built-in templates first, then the team's, oldest first;
/// and the placeholders a template may use.
#[derive(Debug, Serialize, ToSchema)]
pub struct OutreachTemplatesResponse {
    pub templates: Vec<OutreachTemplateItem>,
    pub placeholders: Vec<&'static str>,
}

/// `data` of a create, read or update.
#[derive(Debug, Serialize, ToSchema)]
pub struct OutreachTemplateResponse {
    pub template: OutreachTemplateItem,
}

/// `data` of a delete.
#[derive(Debug, Serialize, ToSchema)]
pub struct TemplateDeleted {
    pub message: String,
}

/// `GET /api/v1/outreach/templates`: the built-in templates and the team's.
#[utoipa::path(get, path = "/api/v1/outreach/templates", tag = "outreach", operation_id = "listOutreachTemplates",
    responses((status = 200, body = OutreachTemplatesResponse, description = "The built-in templates, then the team's")))]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Envelope<OutreachTemplatesResponse>> {
    let templates = state
        .outreach_templates()
        .list(caller.require_account()?)
        .await?;
    Ok(Envelope(OutreachTemplatesResponse {
        templates,
        placeholders: PLACEHOLDERS.to_vec(),
    }))
}

/// `POST /api/v1/outreach/templates`: body name, description, context, template.
#[utoipa::path(post, path = "/api/v1/outreach/templates", tag = "outreach", operation_id = "createOutreachTemplate", request_body = NewOutreachTemplate,
    responses((status = 200, body = OutreachTemplateResponse, description = "The new template"),
              (status = 400, description = "A field is missing or out of range"),
              (status = 403, description = "The team keeps the most templates it may")))]
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    RawJson(body): RawJson,
) -> ApiResult<Envelope<OutreachTemplateResponse>> {
    let account = caller.require_account()?;
    let new = NewOutreachTemplate::from_json(body)?;
    let template = state.outreach_templates().create(account, new).await?;
    Ok(Envelope(OutreachTemplateResponse { template }))
}

/// `GET /api/v1/outreach/templates/{templateId}`: a built-in kind or a team template.
#[utoipa::path(get, path = "/api/v1/outreach/templates/{templateId}", tag = "outreach", operation_id = "getOutreachTemplate",
    params(("templateId" = String, Path)),
    responses((status = 200, body = OutreachTemplateResponse, description = "The template"),
              (status = 404, description = "No such template in the team")))]
pub async fn get_one(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Envelope<OutreachTemplateResponse>> {
    let account = caller.require_account()?;
    let template = state.outreach_templates().get(account, &id).await?;
    Ok(Envelope(OutreachTemplateResponse { template }))
}

/// `PATCH /api/v1/outreach/templates/{templateId}`: any of name, description (null or
/// empty clears it), context, template; only by the template's owner.
#[utoipa::path(patch, path = "/api/v1/outreach/templates/{templateId}", tag = "outreach", operation_id = "updateOutreachTemplate", request_body = OutreachTemplateChanges,
    params(("templateId" = String, Path)),
    responses((status = 200, body = OutreachTemplateResponse, description = "The updated template"),
              (status = 400, description = "No field, or a field out of range"),
              (status = 403, description = "A built-in template, or another member's"),
              (status = 404, description = "No such template in the team")))]
pub async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    RawJson(body): RawJson,
) -> ApiResult<Envelope<OutreachTemplateResponse>> {
    let account = caller.require_account()?;
    let changes = OutreachTemplateChanges::from_json(body)?;
    let template = state
        .outreach_templates()
        .update(account, &id, changes)
        .await?;
    Ok(Envelope(OutreachTemplateResponse { template }))
}

/// `DELETE /api/v1/outreach/templates/{templateId}`: only by the template's owner.
/// Outreach already written from it keeps its text.
#[utoipa::path(delete, path = "/api/v1/outreach/templates/{templateId}", tag = "outreach", operation_id = "deleteOutreachTemplate",
    params(("templateId" = String, Path)),
    responses((status = 200, body = TemplateDeleted, description = "The template is deleted"),
              (status = 403, description = "A built-in template, or another member's"),
              (status = 404, description = "No such template in the team")))]
pub async fn delete_one(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Envelope<TemplateDeleted>> {
    state
        .outreach_templates()
        .delete(caller.require_account()?, &id)
        .await?;
    Ok(Envelope(TemplateDeleted {
        message: "Outreach template deleted".into(),
    }))
}

//! Outreach templates (SPEC.md §3, §5; the outreach-templates section of user
//! settings): the five built-in templates and the team's own, which any member may use
//! as `outreachTemplateId` when generating an email and only their owner may change or
//! delete. A template's text uses the bracketed placeholders of the built-in ones.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::get;
use chrono::{DateTime, Utc};
use podlens_model::entities::Template;
use podlens_model::enums::{OutreachTemplateKind, TemplateContext};
use podlens_model::validation::validate_template_name;
use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::{ApiError, ApiResult};
use crate::extract::RawJson;
use crate::state::{AppState, blocking};
use podlens_app::accounts::Account;
use podlens_app::workflows::compose::{PLACEHOLDERS, template_text, template_title};
use podlens_app::workflows::documents::{DocFilter, DocKind, Stored};
use podlens_app::workflows::fields::{
    bounded_text, clearable_text, enum_value, object, only_fields, optional_string,
};
use podlens_app::workflows::{CapCheck, slugify};

/// The longest template text, in characters.
pub const MAX_TEMPLATE_CHARS: usize = 10_000;
/// The longest description, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 500;
/// The templates a team may keep.
pub const MAX_TEMPLATES_PER_TEAM: u64 = 100;

const FIELDS: [&str; 4] = ["name", "description", "context", "template"];

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/outreach/templates", get(list).post(create))
        .route(
            "/api/v1/outreach/templates/{templateId}",
            get(get_one).patch(update).delete(delete_one),
        )
}

/// A template as listed: a built-in one (`builtIn`, no owner, never updated) or one of
/// the team's.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutreachTemplateItem {
    /// The built-in kind (`default`, `concise`, `topicsIdeas`, `discussion`,
    /// `ultraConcise`) or the id of a team template.
    pub id: String,
    pub slug: String,
    pub name: String,
    #[schema(value_type = String, example = "guest-booking")]
    pub context: TemplateContext,
    pub description: Option<String>,
    pub template: String,
    pub owner_user_id: Option<String>,
    pub updated_at: Option<DateTime<Utc>>,
    pub built_in: bool,
}

impl OutreachTemplateItem {
    fn built_in(kind: OutreachTemplateKind) -> OutreachTemplateItem {
        let (name, description) = template_title(kind);
        OutreachTemplateItem {
            id: kind.as_str().to_owned(),
            slug: kind.as_str().to_owned(),
            name: name.to_owned(),
            context: TemplateContext::GuestBooking,
            description: Some(description.to_owned()),
            template: template_text(kind).to_owned(),
            owner_user_id: None,
            updated_at: None,
            built_in: true,
        }
    }

    fn own(template: Template) -> OutreachTemplateItem {
        OutreachTemplateItem {
            id: template.id,
            slug: template.slug,
            name: template.name,
            context: template.context,
            description: template.description,
            template: template.template,
            owner_user_id: Some(template.owner_user_id),
            updated_at: Some(template.updated_at),
            built_in: false,
        }
    }
}

/// The body of a new template (for the OpenAPI document; read field by field).
#[derive(Debug, ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct NewOutreachTemplate {
    /// 3-100 characters after trimming.
    name: String,
    /// Empty or null means none; at most 500 characters.
    description: Option<String>,
    /// `guest-booking` (the default).
    context: Option<String>,
    /// The email text with bracketed placeholders; at most 10000 characters.
    template: String,
}

/// The body of a template update: at least one field.
#[derive(Debug, ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct OutreachTemplateChanges {
    name: Option<String>,
    description: Option<String>,
    context: Option<String>,
    template: Option<String>,
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

fn not_found(id: &str) -> ApiError {
    ApiError::NotFound(format!("Outreach template not found: {id}"))
}

/// The template `id` names for this team: a built-in kind or one of the team's.
pub fn resolve(state: &AppState, team_id: &str, id: &str) -> ApiResult<OutreachTemplateItem> {
    let id = id.trim();
    if let Some(kind) = OutreachTemplateKind::parse(id) {
        return Ok(OutreachTemplateItem::built_in(kind));
    }
    stored_template(state, team_id, id).map(|doc| OutreachTemplateItem::own(doc.value))
}

fn stored_template(state: &AppState, team_id: &str, id: &str) -> ApiResult<Stored<Template>> {
    state
        .workflows
        .get_doc::<Template>(DocKind::OutreachTemplate, Some(team_id), id)?
        .filter(|doc| !doc.deleted)
        .ok_or_else(|| not_found(id))
}

/// The team's template `id`, which `account` may change: 403 for a built-in one or
/// another member's.
fn owned_template(state: &AppState, account: &Account, id: &str) -> ApiResult<Stored<Template>> {
    if OutreachTemplateKind::parse(id.trim()).is_some() {
        return Err(ApiError::Forbidden(
            "Built-in templates cannot be changed; create a template of your own instead".into(),
        ));
    }
    let doc = stored_template(state, &account.team_id, id)?;
    if doc.value.owner_user_id != account.user_id {
        return Err(ApiError::Forbidden(
            "Only the member who created this template can change or delete it".into(),
        ));
    }
    Ok(doc)
}

fn reject_unknown(body: &Map<String, Value>) -> ApiResult<()> {
    Ok(only_fields(body, &FIELDS, "template")?)
}

fn name_of(body: &Map<String, Value>) -> ApiResult<Option<String>> {
    optional_string(body, "name")?
        .map(|name| validate_template_name(&name).map_err(ApiError::from))
        .transpose()
}

fn context_of(body: &Map<String, Value>) -> ApiResult<Option<TemplateContext>> {
    Ok(optional_string(body, "context")?
        .map(|value| {
            enum_value(
                value.trim(),
                "context",
                TemplateContext::parse,
                TemplateContext::ALL,
                TemplateContext::as_str,
            )
        })
        .transpose()?)
}

fn text_of(body: &Map<String, Value>) -> ApiResult<Option<String>> {
    Ok(optional_string(body, "template")?
        .map(|text| bounded_text(&text, "template", MAX_TEMPLATE_CHARS))
        .transpose()?)
}

/// `GET /api/v1/outreach/templates`: the built-in templates and the team's.
#[utoipa::path(get, path = "/api/v1/outreach/templates", tag = "outreach", operation_id = "listOutreachTemplates",
    responses((status = 200, body = OutreachTemplatesResponse, description = "The built-in templates, then the team's")))]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Envelope<OutreachTemplatesResponse>> {
    let account = caller.require_account()?.clone();
    blocking(move || {
        let own = state.workflows.list_docs::<Template>(
            DocKind::OutreachTemplate,
            &DocFilter {
                team_id: Some(&account.team_id),
                ..DocFilter::default()
            },
        )?;
        let templates = OutreachTemplateKind::ALL
            .iter()
            .map(|&kind| OutreachTemplateItem::built_in(kind))
            .chain(
                own.into_iter()
                    .map(|doc| OutreachTemplateItem::own(doc.value)),
            )
            .collect();
        Ok(Envelope(OutreachTemplatesResponse {
            templates,
            placeholders: PLACEHOLDERS.to_vec(),
        }))
    })
    .await
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
    let account = caller.require_account()?.clone();
    let body = object(body)?;
    reject_unknown(&body)?;
    let name = name_of(&body)?.ok_or_else(|| ApiError::BadRequest("name is required".into()))?;
    let description = clearable_text(&body, "description", MAX_DESCRIPTION_CHARS)?.flatten();
    let context = context_of(&body)?.unwrap_or(TemplateContext::GuestBooking);
    let text =
        text_of(&body)?.ok_or_else(|| ApiError::BadRequest("template is required".into()))?;
    let now = Utc::now();
    let template = Template {
        id: Uuid::new_v4().to_string(),
        slug: slugify(&name),
        name,
        context,
        description,
        template: text,
        owner_user_id: account.user_id.clone(),
        updated_at: now,
    };
    blocking(move || {
        let stored = Stored {
            id: template.id.clone(),
            team_id: account.team_id.clone(),
            parent_id: None,
            created_at: now,
            updated_at: now,
            deleted: false,
            value: template.clone(),
        };
        match state.workflows.insert_doc_capped(
            DocKind::OutreachTemplate,
            &stored,
            Some(MAX_TEMPLATES_PER_TEAM),
        )? {
            CapCheck::Done(()) => Ok(Envelope(OutreachTemplateResponse {
                template: OutreachTemplateItem::own(template),
            })),
            CapCheck::CapReached { limit } => Err(ApiError::Forbidden(format!(
                "Template limit reached: a team can keep {limit} outreach templates. Delete one to add another."
            ))),
        }
    })
    .await
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
    let account = caller.require_account()?.clone();
    blocking(move || {
        Ok(Envelope(OutreachTemplateResponse {
            template: resolve(&state, &account.team_id, &id)?,
        }))
    })
    .await
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
    let account = caller.require_account()?.clone();
    let body = object(body)?;
    reject_unknown(&body)?;
    if body.is_empty() {
        return Err(ApiError::BadRequest(
            "At least one field must be provided to update a template".into(),
        ));
    }
    for required in ["name", "context", "template"] {
        if body.get(required).is_some_and(Value::is_null) {
            return Err(ApiError::BadRequest(format!("{required} cannot be null")));
        }
    }
    let name = name_of(&body)?;
    let description = clearable_text(&body, "description", MAX_DESCRIPTION_CHARS)?;
    let context = context_of(&body)?;
    let text = text_of(&body)?;
    blocking(move || {
        let mut doc = owned_template(&state, &account, &id)?;
        let template = &mut doc.value;
        if let Some(name) = name {
            template.slug = slugify(&name);
            template.name = name;
        }
        if let Some(description) = description {
            template.description = description;
        }
        if let Some(context) = context {
            template.context = context;
        }
        if let Some(text) = text {
            template.template = text;
        }
        template.updated_at = Utc::now();
        doc.updated_at = template.updated_at;
        state.workflows.put_doc(DocKind::OutreachTemplate, &doc)?;
        Ok(Envelope(OutreachTemplateResponse {
            template: OutreachTemplateItem::own(doc.value),
        }))
    })
    .await
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
    let account = caller.require_account()?.clone();
    blocking(move || {
        owned_template(&state, &account, &id)?;
        if !state
            .workflows
            .remove_doc(DocKind::OutreachTemplate, &account.team_id, &id)?
        {
            return Err(not_found(&id));
        }
        Ok(Envelope(TemplateDeleted {
            message: "Outreach template deleted".into(),
        }))
    })
    .await
}

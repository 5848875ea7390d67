//! Outreach templates (SPEC.md §3, §5; the outreach-templates section of user
//! settings): the five built-in templates and the team's own, which any member may use
//! as `outreachTemplateId` when generating an email and only their owner may change or
//! delete. A template's text uses the bracketed placeholders of the built-in ones.
//! Bodies are read field by field ([`NewOutreachTemplate::from_json`],
//! [`OutreachTemplateChanges::from_json`]) so that each mistake gets its own message.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use podlens_model::entities::Template;
use podlens_model::enums::{OutreachTemplateKind, TemplateContext};
use podlens_model::validation::validate_template_name;
use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;
use uuid::Uuid;

use super::compose::{template_text, template_title};
use super::documents::{DocFilter, DocKind, Stored};
use super::fields::{
    bounded_text, clearable_text, enum_value, object, only_fields, optional_string,
};
use super::{CapCheck, WorkflowStore, slugify};
use crate::accounts::Account;
use crate::error::{AppError, AppResult};

/// The longest template text, in characters.
pub const MAX_TEMPLATE_CHARS: usize = 10_000;
/// The longest description, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 500;
/// The templates a team may keep.
pub const MAX_TEMPLATES_PER_TEAM: u64 = 100;

const FIELDS: [&str; 4] = ["name", "description", "context", "template"];

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

/// A new template.
#[derive(Debug, Clone, PartialEq, ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct NewOutreachTemplate {
    /// 3-100 characters after trimming.
    pub name: String,
    /// Empty or null means none; at most 500 characters.
    pub description: Option<String>,
    /// `guest-booking` (the default).
    #[schema(value_type = Option<String>)]
    pub context: Option<TemplateContext>,
    /// The email text with bracketed placeholders; at most 10000 characters.
    pub template: String,
}

/// A template's changes: at least one field; a null or empty description clears it.
#[derive(Debug, Clone, PartialEq, ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct OutreachTemplateChanges {
    pub name: Option<String>,
    #[schema(value_type = Option<String>)]
    pub description: Option<Option<String>>,
    #[schema(value_type = Option<String>)]
    pub context: Option<TemplateContext>,
    pub template: Option<String>,
}

impl NewOutreachTemplate {
    /// The new template of a request body.
    pub fn from_json(body: Value) -> AppResult<NewOutreachTemplate> {
        let body = object(body)?;
        only_fields(&body, &FIELDS, "template")?;
        let required = |name: &str| AppError::Invalid(format!("{name} is required"));
        Ok(NewOutreachTemplate {
            name: name_of(&body)?.ok_or_else(|| required("name"))?,
            description: clearable_text(&body, "description", MAX_DESCRIPTION_CHARS)?.flatten(),
            context: context_of(&body)?,
            template: text_of(&body)?.ok_or_else(|| required("template"))?,
        })
    }
}

impl OutreachTemplateChanges {
    /// The changes of a request body.
    pub fn from_json(body: Value) -> AppResult<OutreachTemplateChanges> {
        let body = object(body)?;
        only_fields(&body, &FIELDS, "template")?;
        if body.is_empty() {
            return Err(AppError::Invalid(
                "At least one field must be provided to update a template".into(),
            ));
        }
        for required in ["name", "context", "template"] {
            if body.get(required).is_some_and(Value::is_null) {
                return Err(AppError::Invalid(format!("{required} cannot be null")));
            }
        }
        Ok(OutreachTemplateChanges {
            name: name_of(&body)?,
            description: clearable_text(&body, "description", MAX_DESCRIPTION_CHARS)?,
            context: context_of(&body)?,
            template: text_of(&body)?,
        })
    }
}

fn name_of(body: &Map<String, Value>) -> AppResult<Option<String>> {
    Ok(optional_string(body, "name")?
        .map(|name| validate_template_name(&name))
        .transpose()?)
}

fn context_of(body: &Map<String, Value>) -> AppResult<Option<TemplateContext>> {
    optional_string(body, "context")?
        .map(|value| {
            enum_value(
                value.trim(),
                "context",
                TemplateContext::parse,
                TemplateContext::ALL,
                TemplateContext::as_str,
            )
        })
        .transpose()
}

fn text_of(body: &Map<String, Value>) -> AppResult<Option<String>> {
    optional_string(body, "template")?
        .map(|text| bounded_text(&text, "template", MAX_TEMPLATE_CHARS))
        .transpose()
}

fn not_found(id: &str) -> AppError {
    AppError::NotFound(format!("Outreach template not found: {id}"))
}

/// The built-in templates and the teams' own, kept in the workflow store.
#[derive(Debug, Clone)]
pub struct OutreachTemplates {
    pub(crate) workflows: Arc<WorkflowStore>,
}

impl OutreachTemplates {
    /// The built-in templates first, then the team's, oldest first.
    pub async fn list(&self, account: &Account) -> AppResult<Vec<OutreachTemplateItem>> {
        let filter = DocFilter {
            team_id: Some(&account.team_id),
            ..DocFilter::default()
        };
        let own = self
            .workflows
            .list_docs::<Template>(DocKind::OutreachTemplate, &filter)
            .await?;
        Ok(OutreachTemplateKind::ALL
            .iter()
            .map(|&kind| OutreachTemplateItem::built_in(kind))
            .chain(
                own.into_iter()
                    .map(|doc| OutreachTemplateItem::own(doc.value)),
            )
            .collect())
    }

    /// Keeps a new template of the account's: refused once the team keeps
    /// [`MAX_TEMPLATES_PER_TEAM`].
    pub async fn create(
        &self,
        account: &Account,
        new: NewOutreachTemplate,
    ) -> AppResult<OutreachTemplateItem> {
        let now = Utc::now();
        let template = Template {
            id: Uuid::new_v4().to_string(),
            slug: slugify(&new.name),
            name: new.name,
            context: new.context.unwrap_or(TemplateContext::GuestBooking),
            description: new.description,
            template: new.template,
            owner_user_id: account.user_id.clone(),
            updated_at: now,
        };
        let stored = Stored::new(
            template.id.clone(),
            account.team_id.clone(),
            now,
            template.clone(),
        );
        let inserted = self
            .workflows
            .insert_doc_capped(
                DocKind::OutreachTemplate,
                &stored,
                Some(MAX_TEMPLATES_PER_TEAM),
            )
            .await?;
        match inserted {
            CapCheck::Done(()) => Ok(OutreachTemplateItem::own(template)),
            CapCheck::CapReached { limit } => Err(AppError::Forbidden(format!(
                "Template limit reached: a team can keep {limit} outreach templates. Delete one to add another."
            ))),
        }
    }

    /// The template `id` names for the account's team: a built-in kind or one of the
    /// team's.
    pub async fn get(&self, account: &Account, id: &str) -> AppResult<OutreachTemplateItem> {
        resolve(&self.workflows, &account.team_id, id).await
    }

    /// Applies `changes` to the account's own template `id`.
    pub async fn update(
        &self,
        account: &Account,
        id: &str,
        changes: OutreachTemplateChanges,
    ) -> AppResult<OutreachTemplateItem> {
        let mut doc = owned_template(&self.workflows, account, id).await?;
        let template = &mut doc.value;
        if let Some(name) = changes.name {
            template.slug = slugify(&name);
            template.name = name;
        }
        if let Some(description) = changes.description {
            template.description = description;
        }
        if let Some(context) = changes.context {
            template.context = context;
        }
        if let Some(text) = changes.template {
            template.template = text;
        }
        template.updated_at = Utc::now();
        doc.updated_at = template.updated_at;
        self.workflows
            .put_doc(DocKind::OutreachTemplate, &doc)
            .await?;
        Ok(OutreachTemplateItem::own(doc.value))
    }

    /// Deletes the account's own template `id`; outreach already written from it keeps
    /// its text.
    pub async fn delete(&self, account: &Account, id: &str) -> AppResult<()> {
        owned_template(&self.workflows, account, id).await?;
        if self
            .workflows
            .remove_doc(DocKind::OutreachTemplate, &account.team_id, id)
            .await?
        {
            Ok(())
        } else {
            Err(not_found(id))
        }
    }
}

/// The template `id` names for this team: a built-in kind or one of the team's.
pub async fn resolve(
    workflows: &WorkflowStore,
    team_id: &str,
    id: &str,
) -> AppResult<OutreachTemplateItem> {
    let id = id.trim();
    if let Some(kind) = OutreachTemplateKind::parse(id) {
        return Ok(OutreachTemplateItem::built_in(kind));
    }
    let doc = stored_template(workflows, team_id, id).await?;
    Ok(OutreachTemplateItem::own(doc.value))
}

async fn stored_template(
    workflows: &WorkflowStore,
    team_id: &str,
    id: &str,
) -> AppResult<Stored<Template>> {
    workflows
        .get_live_doc::<Template>(DocKind::OutreachTemplate, team_id, id)
        .await?
        .ok_or_else(|| not_found(id))
}

/// The team's template `id`, which `account` may change: forbidden for a built-in one
/// or another member's.
async fn owned_template(
    workflows: &WorkflowStore,
    account: &Account,
    id: &str,
) -> AppResult<Stored<Template>> {
    if OutreachTemplateKind::parse(id.trim()).is_some() {
        return Err(AppError::Forbidden(
            "Built-in templates cannot be changed; create a template of your own instead".into(),
        ));
    }
    let doc = stored_template(workflows, &account.team_id, id).await?;
    if doc.value.owner_user_id != account.user_id {
        return Err(AppError::Forbidden(
            "Only the member who created this template can change or delete it".into(),
        ));
    }
    Ok(doc)
}

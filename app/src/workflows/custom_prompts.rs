//! A team's custom prompts (SPEC.md §3, §5): list, create, read, update, delete. A
//! prompt runs over a podcast, an episode or a transcript through the agent's `custom`
//! kind. Bodies are read field by field ([`NewCustomPrompt::from_json`],
//! [`CustomPromptChanges::from_json`]) so that each mistake gets its own message.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use podlens_model::enums::CustomPromptContextType;
use podlens_model::validation::validate_custom_prompt_name;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;
use uuid::Uuid;

use super::documents::{DocFilter, DocKind, Stored};
use super::fields::{
    bounded_text, clearable_text, enum_value, object, only_fields, optional_string,
};
use super::{CapCheck, WorkflowStore};
use crate::accounts::Account;
use crate::error::{AppError, AppResult};

/// The longest prompt text, in characters.
pub const MAX_PROMPT_CHARS: usize = 10_000;
/// The longest description, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 500;
/// The prompts a team may keep.
pub const MAX_PROMPTS_PER_TEAM: u64 = 100;

const FIELDS: [&str; 4] = ["name", "description", "contextType", "prompt"];

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

/// A new custom prompt.
#[derive(Debug, Clone, PartialEq, ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct NewCustomPrompt {
    /// 3-100 characters after trimming.
    pub name: String,
    /// Empty or null means none; at most 500 characters.
    pub description: Option<String>,
    pub context_type: CustomPromptContextType,
    /// At most 10000 characters.
    pub prompt: String,
}

/// A custom prompt's changes: at least one field; a null or empty description clears it.
#[derive(Debug, Clone, PartialEq, ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct CustomPromptChanges {
    pub name: Option<String>,
    #[schema(value_type = Option<String>)]
    pub description: Option<Option<String>>,
    pub context_type: Option<CustomPromptContextType>,
    pub prompt: Option<String>,
}

impl NewCustomPrompt {
    /// The new prompt of a request body.
    pub fn from_json(body: Value) -> AppResult<NewCustomPrompt> {
        let body = object(body)?;
        only_fields(&body, &FIELDS, "custom prompt")?;
        let required = |name: &str| AppError::Invalid(format!("{name} is required"));
        Ok(NewCustomPrompt {
            name: name_of(&body)?.ok_or_else(|| required("name"))?,
            description: clearable_text(&body, "description", MAX_DESCRIPTION_CHARS)?.flatten(),
            context_type: context_type_of(&body)?.ok_or_else(|| required("contextType"))?,
            prompt: prompt_of(&body)?.ok_or_else(|| required("prompt"))?,
        })
    }
}

impl CustomPromptChanges {
    /// The changes of a request body.
    pub fn from_json(body: Value) -> AppResult<CustomPromptChanges> {
        let body = object(body)?;
        only_fields(&body, &FIELDS, "custom prompt")?;
        if body.is_empty() {
            return Err(AppError::Invalid(
                "At least one field must be provided to update a custom prompt".into(),
            ));
        }
        for required in ["name", "contextType", "prompt"] {
            if body.get(required).is_some_and(Value::is_null) {
                return Err(AppError::Invalid(format!("{required} cannot be null")));
            }
        }
        Ok(CustomPromptChanges {
            name: name_of(&body)?,
            description: clearable_text(&body, "description", MAX_DESCRIPTION_CHARS)?,
            context_type: context_type_of(&body)?,
            prompt: prompt_of(&body)?,
        })
    }
}

fn name_of(body: &Map<String, Value>) -> AppResult<Option<String>> {
    Ok(optional_string(body, "name")?
        .map(|name| validate_custom_prompt_name(&name))
        .transpose()?)
}

fn context_type_of(body: &Map<String, Value>) -> AppResult<Option<CustomPromptContextType>> {
    optional_string(body, "contextType")?
        .map(|value| {
            enum_value(
                value.trim(),
                "contextType",
                CustomPromptContextType::parse,
                CustomPromptContextType::ALL,
                CustomPromptContextType::as_str,
            )
        })
        .transpose()
}

fn prompt_of(body: &Map<String, Value>) -> AppResult<Option<String>> {
    optional_string(body, "prompt")?
        .map(|text| checked_prompt(&text))
        .transpose()
}

/// A prompt text: not blank, at most [`MAX_PROMPT_CHARS`].
pub fn checked_prompt(text: &str) -> AppResult<String> {
    bounded_text(text, "prompt", MAX_PROMPT_CHARS)
}

fn not_found(id: &str) -> AppError {
    AppError::NotFound(format!("Custom prompt not found: {id}"))
}

/// The teams' custom prompts, kept in the workflow store.
#[derive(Debug, Clone)]
pub struct CustomPrompts {
    pub(crate) workflows: Arc<WorkflowStore>,
}

impl CustomPrompts {
    /// The team's prompts, oldest first.
    pub async fn list(&self, account: &Account) -> AppResult<Vec<CustomPromptItem>> {
        let filter = DocFilter {
            team_id: Some(&account.team_id),
            ..DocFilter::default()
        };
        let prompts = self
            .workflows
            .list_docs::<CustomPromptItem>(DocKind::CustomPrompt, &filter)
            .await?;
        Ok(prompts.into_iter().map(|doc| doc.value).collect())
    }

    /// Keeps a new prompt for the account's team: refused once the team keeps
    /// [`MAX_PROMPTS_PER_TEAM`].
    pub async fn create(
        &self,
        account: &Account,
        new: NewCustomPrompt,
    ) -> AppResult<CustomPromptItem> {
        let now = Utc::now();
        let item = CustomPromptItem {
            id: Uuid::new_v4().to_string(),
            name: new.name,
            description: new.description,
            context_type: new.context_type,
            prompt: new.prompt,
            created_by_user_id: account.user_id.clone(),
            created_at: now,
            updated_at: now,
        };
        let stored = Stored::new(item.id.clone(), account.team_id.clone(), now, item.clone());
        let inserted = self
            .workflows
            .insert_doc_capped(DocKind::CustomPrompt, &stored, Some(MAX_PROMPTS_PER_TEAM))
            .await?;
        match inserted {
            CapCheck::Done(()) => Ok(item),
            CapCheck::CapReached { limit } => Err(AppError::Forbidden(format!(
                "Custom prompt limit reached: a team can keep {limit} custom prompts. Delete one to add another."
            ))),
        }
    }

    /// The team's prompt `id`.
    pub async fn get(&self, account: &Account, id: &str) -> AppResult<CustomPromptItem> {
        find(&self.workflows, &account.team_id, id).await
    }

    /// Applies `changes` to the team's prompt `id`.
    pub async fn update(
        &self,
        account: &Account,
        id: &str,
        changes: CustomPromptChanges,
    ) -> AppResult<CustomPromptItem> {
        let mut doc = self
            .workflows
            .get_live_doc::<CustomPromptItem>(DocKind::CustomPrompt, &account.team_id, id)
            .await?
            .ok_or_else(|| not_found(id))?;
        let item = &mut doc.value;
        if let Some(name) = changes.name {
            item.name = name;
        }
        if let Some(description) = changes.description {
            item.description = description;
        }
        if let Some(context_type) = changes.context_type {
            item.context_type = context_type;
        }
        if let Some(prompt) = changes.prompt {
            item.prompt = prompt;
        }
        item.updated_at = Utc::now();
        doc.updated_at = item.updated_at;
        self.workflows.put_doc(DocKind::CustomPrompt, &doc).await?;
        Ok(doc.value)
    }

    /// Deletes the team's prompt `id`.
    pub async fn delete(&self, account: &Account, id: &str) -> AppResult<()> {
        if self
            .workflows
            .remove_doc(DocKind::CustomPrompt, &account.team_id, id)
            .await?
        {
            Ok(())
        } else {
            Err(not_found(id))
        }
    }
}

/// The team's prompt `id`.
pub async fn find(
    workflows: &WorkflowStore,
    team_id: &str,
    id: &str,
) -> AppResult<CustomPromptItem> {
    workflows
        .get_live_doc::<CustomPromptItem>(DocKind::CustomPrompt, team_id, id)
        .await?
        .map(|doc| doc.value)
        .ok_or_else(|| not_found(id))
}

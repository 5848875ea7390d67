//! Outreach emails: generation options, history, templates and custom prompts.

use serde::{Deserialize, Serialize};

use super::Timestamp;
use crate::enums::{
    CallToActionStyle, CustomPromptContextType, EmailLength, GenerationMode, OutreachPerspective,
    PersonalizationLevel, TemplateContext,
};

/// How an outreach email is generated. `generationMode` defaults to basic.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct OutreachOptions {
    pub perspective: OutreachPerspective,
    pub email_length: EmailLength,
    pub call_to_action_style: CallToActionStyle,
    pub personalization_level: PersonalizationLevel,
    #[serde(default)]
    pub generation_mode: GenerationMode,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outreach_template_id: Option<String>,
}

/// The podcast an outreach email went to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct OutreachPodcast {
    pub podcast_id: String,
    pub title: String,
    pub slug: String,
    pub image_url: Option<String>,
}

/// The guest of an outreach project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct OutreachGuest {
    pub id: String,
    pub name: String,
    pub slug: String,
}

/// The project an outreach email belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct OutreachProject {
    pub project_id: String,
    pub slug: String,
    pub name: String,
    pub guest: Option<OutreachGuest>,
}

/// One generated outreach email (`GET /api/v1/outreach/history`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct OutreachHistoryEntry {
    pub id: String,
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub created_at: Timestamp,
    pub team_id: String,
    pub user_id: String,
    pub podcast: OutreachPodcast,
    pub project: Option<OutreachProject>,
    pub subject: String,
    #[serde(flatten)]
    pub options: OutreachOptions,
}

/// An outreach email with its body (`GET /api/v1/outreach/{id}/details`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct OutreachDetails {
    #[serde(flatten)]
    pub entry: OutreachHistoryEntry,
    pub body: String,
}

/// A user's outreach template. An empty description is stored as null.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Template {
    pub id: String,
    pub slug: String,
    pub name: String,
    pub context: TemplateContext,
    pub description: Option<String>,
    pub template: String,
    pub owner_user_id: String,
    pub updated_at: Timestamp,
}

impl Template {
    /// SPEC.md §5: an empty template description becomes null.
    pub fn normalize_description(description: Option<String>) -> Option<String> {
        description.filter(|text| !text.trim().is_empty())
    }
}

/// A team's custom AI prompt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CustomPrompt {
    pub name: String,
    pub description: Option<String>,
    pub context_type: CustomPromptContextType,
    pub prompt: String,
}

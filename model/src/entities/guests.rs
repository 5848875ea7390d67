//! Guest profiles, the onboarding form and guest preparation.

use serde::{Deserialize, Serialize};

use super::Timestamp;
use crate::enums::{GuestProfileStatus, ProjectStatus};
use crate::kinds::SocialKind;

/// The guest onboarding form: the four texts are required (validation holds the
/// messages), company, LinkedIn and website are optional and may be empty.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GuestOnboardingForm {
    pub short_bio: String,
    pub goals: String,
    pub expertise: String,
    pub topics_to_discuss: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topics_to_avoid: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub company_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub linked_in: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub website_url: Option<String>,
}

/// A document uploaded to a guest profile.
/// SDK: `GetGuestProfileDetailsResponseDocumentsItem`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GuestDocument {
    pub name: String,
    pub id: String,
    pub size: u64,
    pub status: String,
    pub file_type: String,
    pub date_extracted: Option<Timestamp>,
}

/// Who created a guest profile. SDK: `GetGuestProfileDetailsResponseCreatedBy`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GuestProfileCreator {
    pub user_id: String,
    pub email: String,
}

/// A social profile of the guest.
/// SDK: `GetGuestProfileDetailsResponseSocialMediaLinksItem`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GuestSocialLink {
    pub social_media_type: SocialKind,
    pub url: String,
    pub last_scraped_at: Option<Timestamp>,
    pub last_scrape_failed_at: Option<Timestamp>,
    pub is_scraping: bool,
}

/// The guest's bio, goals and topics. SDK: `GetGuestProfileDetailsResponseGuestBio`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GuestBio {
    pub additional_context: Option<String>,
    pub areas_of_expertise: Vec<String>,
    pub goals: Vec<String>,
    pub long_bio: String,
    pub short_bio: String,
    pub things_to_avoid: Vec<String>,
    pub topics_to_discuss: Vec<String>,
}

/// What the public page of a guest shows.
/// SDK: `GetGuestProfileDetailsResponsePublicViewSettings`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GuestPublicViewSettings {
    pub display_linked_in: bool,
    pub display_socials: bool,
    pub display_previous_podcast_appearances: bool,
    pub marketing_letter_markdown_text: Option<String>,
    pub public_slug: Option<String>,
}

/// A guest profile with its extended data (names, contact info, bios, social
/// links, goals, logistics). SDK: `GetGuestProfileDetailsResponse`; its `status`
/// is the project status of the profile's project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GuestProfile {
    pub project_id: String,
    pub project_slug: String,
    pub guest_profile_id: String,
    pub guest_profile_slug: String,
    pub public_slug: Option<String>,
    pub name: String,
    pub status: ProjectStatus,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
    pub documents: Vec<GuestDocument>,
    pub listed_podcasts_count: u64,
    pub booking_url: Option<String>,
    pub company_name: Option<String>,
    pub email: Option<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub one_pager_url: Option<String>,
    pub phone: Option<String>,
    pub website_url: Option<String>,
    pub image_url: Option<String>,
    pub created_by: GuestProfileCreator,
    pub social_media_links: Vec<GuestSocialLink>,
    pub guest_bio: Option<GuestBio>,
    pub public_view_settings: Option<GuestPublicViewSettings>,
    /// Where building the profile from the onboarding form stands (SPEC.md §3;
    /// ignored by the SDK).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub processing_status: Option<GuestProfileStatus>,
}

/// `POST` guest profile creation. SDK: `CreateGuestProfileResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateGuestProfileResponse {
    pub guest_profile_id: String,
    pub guest_profile_slug: String,
    pub project_id: String,
    pub project_slug: String,
}

/// Questions a host will likely ask about one theme.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct LikelyQuestions {
    pub description: String,
    pub very_likely: Vec<String>,
    pub curveballs: Vec<String>,
}

/// `POST /api/v1/guest-prep/generate`: preparation for appearing on a podcast.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct GuestPrepResponse {
    pub podcast_slug: String,
    pub episode_slugs: Vec<String>,
    /// One group per theme.
    pub grouped_likely_questions: Vec<LikelyQuestions>,
    pub critical_actions: Vec<String>,
    /// Markdown.
    pub summary: String,
}

//! Projects (lists of podcasts to pitch), listed podcasts, relevancy reviews and
//! search strategies, with the project list ordering of SPEC.md §4.

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};

use super::Timestamp;
use crate::enums::{
    ActivityActionType, ListedPodcastLabel, ListedPodcastStatus, ListenersBucket, Priority,
    ProjectSortBy, ProjectStatus, ProjectType, StrategyApproach,
};

/// A user as projects show them. SDK: `GetProjectsResponseProjectsItemCreatedBy`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProjectUser {
    pub id: String,
    pub display_name: Option<String>,
    pub avatar_seed: Option<String>,
}

/// The guest profile a project works for.
/// SDK: `GetProjectsResponseProjectsItemLinkedGuestProfile` (its `status` takes
/// project statuses).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LinkedGuestProfile {
    pub id: String,
    pub name: String,
    pub slug: String,
    pub status: ProjectStatus,
    pub image_url: Option<String>,
    pub linkedin_url: Option<String>,
    pub company_name: Option<String>,
    pub appearances_count: u64,
}

/// How many listed podcasts a project has in each status.
/// SDK: `GetProjectsResponseProjectsItemStateCounts`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateCounts {
    pub prospect: u64,
    pub qualified: u64,
    pub pitched: u64,
    pub booked: u64,
    pub lost: u64,
    pub ignored: u64,
}

impl StateCounts {
    /// Counts the statuses of a project's listed podcasts.
    pub fn tally(statuses: impl IntoIterator<Item = ListedPodcastStatus>) -> Self {
        let mut counts = StateCounts::default();
        for status in statuses {
            let slot = match status {
                ListedPodcastStatus::Prospect => &mut counts.prospect,
                ListedPodcastStatus::Qualified => &mut counts.qualified,
                ListedPodcastStatus::Pitched => &mut counts.pitched,
                ListedPodcastStatus::Booked => &mut counts.booked,
                ListedPodcastStatus::Lost => &mut counts.lost,
                ListedPodcastStatus::Ignored => &mut counts.ignored,
            };
            *slot += 1;
        }
        counts
    }
}

/// Documents uploaded for a project. SDK: `GetProjectsResponseProjectsItemDocumentsCount`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocumentsCount {
    pub total: u64,
    pub processed: u64,
}

/// A recent change in a project. SDK: `GetProjectsResponseProjectsItemRecentActivitiesItem`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecentActivity {
    #[serde(rename = "type")]
    pub action_type: ActivityActionType,
    pub date: Timestamp,
    pub podcast_title: Option<String>,
    pub podcast_slug: Option<String>,
    pub podcast_image_url: Option<String>,
    pub to_value: Option<String>,
    pub user: Option<ProjectUser>,
}

/// Project as listed. SDK: `GetProjectsResponseProjectsItem` (also
/// `UpdateProjectResponse.project`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Project {
    pub project_id: String,
    pub name: String,
    pub slug: String,
    pub team_id: String,
    pub created_at: Timestamp,
    pub last_updated: Timestamp,
    pub created_by: Option<ProjectUser>,
    pub project_types: Vec<ProjectType>,
    pub status: ProjectStatus,
    pub listed_podcasts_count: u64,
    pub linked_guest_profile: Option<LinkedGuestProfile>,
    pub state_counts: StateCounts,
    pub documents_count: DocumentsCount,
    pub recent_activities: Vec<RecentActivity>,
}

/// Project with its details. SDK: `GetProjectDetailsResponseProject`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProjectDetails {
    #[serde(flatten)]
    pub project: Project,
    pub project_type_other_reason: Option<String>,
    pub project_purpose: Option<String>,
    pub project_keywords: Vec<String>,
    pub public_title: Option<String>,
    pub public_description: Option<String>,
    pub public_slug: Option<String>,
    pub is_public_listicle: bool,
    pub public_podcast_limit: u64,
    pub is_public_for_team: bool,
    /// The project's podcasts, when asked for (SPEC.md §3; ignored by the SDK).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub listed_podcasts: Option<Vec<ListedPodcast>>,
}

/// The query the project list echoes. SDK: `GetProjectsResponseOptions`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProjectsOptions {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub states: Option<Vec<ProjectStatus>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort_by: Option<ProjectSortBy>,
}

/// `GET /api/v1/projects`. SDK: `GetProjectsResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProjectsResponse {
    pub options: ProjectsOptions,
    pub projects: Vec<Project>,
}

/// `GET /api/v1/projects/{id}/details`. SDK: `GetProjectDetailsResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProjectDetailsResponse {
    pub project: ProjectDetails,
}

/// `PATCH /api/v1/projects/{id}`. SDK: `UpdateProjectResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UpdateProjectResponse {
    pub project: Project,
}

/// SPEC.md §4: the project list shows pinned ids first, then ACTIVE projects
/// before all other statuses, then the most recently updated. Within each of
/// those groups the next rule decides; the project id breaks remaining ties so
/// the order is total and deterministic.
pub fn compare_in_project_list(
    a: &Project,
    b: &Project,
    pinned_ids: &[impl AsRef<str>],
) -> Ordering {
    let is_pinned = |project: &Project| {
        pinned_ids
            .iter()
            .any(|id| id.as_ref() == project.project_id)
    };
    let is_active = |project: &Project| project.status == ProjectStatus::Active;
    is_pinned(b)
        .cmp(&is_pinned(a))
        .then_with(|| is_active(b).cmp(&is_active(a)))
        .then_with(|| b.last_updated.cmp(&a.last_updated))
        .then_with(|| a.project_id.cmp(&b.project_id))
}

/// Sorts projects in project list order (see [`compare_in_project_list`]).
pub fn sort_project_list(projects: &mut [Project], pinned_ids: &[impl AsRef<str>]) {
    projects.sort_by(|a, b| compare_in_project_list(a, b, pinned_ids));
}

/// The podcast inside a listed podcast.
/// SDK: `AddPodcastToProjectResponseListedPodcastPodcast` (the spec's `title` is
/// the SDK's `titleOriginal`/`titleLatest` pair).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListedPodcastPodcast {
    pub podcast_id: String,
    pub title_original: String,
    pub title_latest: String,
    pub slug: String,
    pub image_url: Option<String>,
    pub estimated_monthly_listeners: Option<u64>,
    pub estimated_monthly_listeners_bucket: Option<ListenersBucket>,
}

/// Who added a podcast to a list. SDK: `AddPodcastToProjectResponseListedPodcastAddedByUser`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AddedByUser {
    pub user_id: String,
    pub email: String,
    pub display_name: Option<String>,
}

/// One change to a listed podcast.
/// SDK: `AddPodcastToProjectResponseListedPodcastActivityHistoryItem`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivityEntry {
    pub action_type: ActivityActionType,
    pub activity_date: Timestamp,
    pub from_value: Option<String>,
    pub to_value: Option<String>,
    pub user_id: String,
    pub user_display_name: String,
}

/// Relevancy scores of a listed podcast.
/// SDK: `AddPodcastToProjectResponseListedPodcastAnalysis` (all fields default to null).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListedPodcastAnalysis {
    #[serde(default)]
    pub relevancy_score: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deep_relevancy_score: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_relevancy_score: Option<f64>,
}

/// A podcast in a project's list. SDK: `AddPodcastToProjectResponseListedPodcast`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListedPodcast {
    pub listed_podcast_id: String,
    pub project_id: String,
    pub podcast: ListedPodcastPodcast,
    /// A newly added podcast is a prospect unless told otherwise.
    #[serde(default)]
    pub status: ListedPodcastStatus,
    pub priority: Option<Priority>,
    pub labels: Vec<ListedPodcastLabel>,
    pub added_at: Timestamp,
    pub updated_at: Timestamp,
    pub added_by_user: AddedByUser,
    pub activity_history: Vec<ActivityEntry>,
    pub analysis: ListedPodcastAnalysis,
}

/// `POST /api/v1/projects/{id}/podcasts`. SDK: `AddPodcastToProjectResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AddPodcastToProjectResponse {
    pub listed_podcast: ListedPodcast,
}

/// The change asked for. SDK: `UpdateProjectListedPodcastResponseOptions`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListedPodcastUpdate {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<ListedPodcastStatus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<Priority>,
}

/// `PATCH /api/v1/projects/{slug}/podcasts/{listedPodcastId}`.
/// SDK: `UpdateProjectListedPodcastResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UpdateListedPodcastResponse {
    pub project_slug: String,
    pub listed_podcast_id: String,
    pub options: ListedPodcastUpdate,
    pub updated_listed_podcast: ListedPodcast,
}

/// `DELETE /api/v1/projects/{slug}/podcasts/{listedPodcastId}`.
/// SDK: `RemoveListedPodcastFromProjectResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RemoveListedPodcastResponse {
    pub project_slug: String,
    pub listed_podcast_id: String,
}

/// A relevancy rating, 1 to 5.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct RelevancyRating(u8);

impl RelevancyRating {
    /// The lowest and highest rating.
    pub const RANGE: std::ops::RangeInclusive<u8> = 1..=5;

    /// The rating's value.
    pub fn get(self) -> u8 {
        self.0
    }
}

impl TryFrom<u8> for RelevancyRating {
    type Error = String;

    fn try_from(value: u8) -> Result<Self, Self::Error> {
        if Self::RANGE.contains(&value) {
            Ok(RelevancyRating(value))
        } else {
            Err(format!(
                "relevancy rating must be between 1 and 5, got {value}"
            ))
        }
    }
}

impl From<RelevancyRating> for u8 {
    fn from(rating: RelevancyRating) -> Self {
        rating.0
    }
}

/// How well a podcast fits a project: rating 1-5 with the reasoning.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RelevancyReview {
    pub rating: RelevancyRating,
    pub justification: String,
    pub strengths: Vec<String>,
    pub concerns: Vec<String>,
}

/// A way of finding podcasts for a project.
/// SDK: `GetProjectStrategiesResponseStrategiesItem`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchStrategy {
    pub title: String,
    pub short_description: String,
    pub strategy_blurb: String,
    pub audience_persona_target: String,
    pub why_its_effective: String,
    pub strategy_training_documentation: String,
    pub keyword_inspiration: Vec<String>,
    pub example_google_searches: Vec<String>,
    pub id: String,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
    pub strategy_approach: Option<StrategyApproach>,
    pub strategy_focus: Option<String>,
    pub priority: Option<Priority>,
}

/// `GET /projects/{id}/strategies`. SDK: `GetProjectStrategiesResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProjectStrategiesResponse {
    pub strategies: Vec<SearchStrategy>,
}

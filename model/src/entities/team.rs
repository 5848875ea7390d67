//! Teams: team podcasts, team users, team settings and user preferences.

use serde::{Deserialize, Serialize};

use super::{PodcastSummary, Timestamp};
use crate::enums::{ExportColumn, ListedPodcastStatus, ResultsView, TeamPodcastAddedReason};

/// A project a team podcast is listed in.
/// SDK: `GetTeamPodcastsResponseTeamPodcastsItemProjectsItem`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeamPodcastProject {
    pub project_id: String,
    pub added_by_user_id: String,
    pub listed_podcast_state: ListedPodcastStatus,
}

/// A podcast a team keeps: synced and blacklisted independently.
/// SDK: `GetTeamPodcastsResponseTeamPodcastsItem`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeamPodcast {
    pub added_by_user_id: Option<String>,
    pub added_reason: TeamPodcastAddedReason,
    pub blacklist: bool,
    pub created_at: Timestamp,
    pub podcast: PodcastSummary,
    pub podcast_id: String,
    pub projects: Vec<TeamPodcastProject>,
    pub sync: bool,
    pub team_id: String,
    /// SPEC.md §3 (ignored by the SDK).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<Timestamp>,
}

/// `GET /api/v1/teams/podcasts`. SDK: `GetTeamPodcastsResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeamPodcastsResponse {
    pub total: u64,
    pub total_filtered: u64,
    pub team_podcasts: Vec<TeamPodcast>,
}

/// `PUT /api/v1/teams/podcasts/{id}`. SDK: `AddPodcastToTeamResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeamPodcastResponse {
    pub team_podcast: TeamPodcast,
}

/// A team podcast update: either flag may be set, cleared, or left (null).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamPodcastFlagsUpdate {
    #[serde(default)]
    pub sync: Option<bool>,
    #[serde(default)]
    pub blacklist: Option<bool>,
}

impl TeamPodcastFlagsUpdate {
    /// Applies the update: a null flag keeps its value.
    pub fn apply(self, podcast: &mut TeamPodcast) {
        if let Some(sync) = self.sync {
            podcast.sync = sync;
        }
        if let Some(blacklist) = self.blacklist {
            podcast.blacklist = blacklist;
        }
    }
}

/// A member of a team.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct TeamUser {
    pub id: String,
    pub email: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub avatar_seed: Option<String>,
    pub display_name: Option<String>,
    /// `owner` (one per team, its creator), `admin` or `member`.
    pub role: String,
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub joined_at: Timestamp,
}

/// `GET /api/v1/teams/users`: `data.users`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TeamUsersResponse {
    pub users: Vec<TeamUser>,
}

/// Feature switches of a team.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct TeamSettingsFlags {
    pub automated_search_enabled: bool,
    pub auto_quick_decision_enabled: bool,
    pub podcast_list_validation_page_enabled: bool,
}

/// Project preferences of a user.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProjectPreferences {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub favorite_project_ids: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_selected_project_slug: Option<String>,
}

/// Export preferences of a user.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExportPreferences {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub columns_to_not_export: Option<Vec<ExportColumn>>,
}

/// Search preferences of a user. `defaultSearchFilters` holds saved search
/// filters, checked by the search rules when used.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SearchPreferences {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub default_search_filters: Option<serde_json::Map<String, serde_json::Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_results_view: Option<ResultsView>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub export: Option<ExportPreferences>,
}

/// A user's preferences. Strict: unknown keys at any level are rejected.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UserPreferences {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub projects: Option<ProjectPreferences>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub show_additional_podcast_directories: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search: Option<SearchPreferences>,
}

impl UserPreferences {
    /// The results view to use: the saved one, else list.
    pub fn results_view(&self) -> ResultsView {
        self.search
            .as_ref()
            .and_then(|search| search.default_results_view)
            .unwrap_or_default()
    }
}

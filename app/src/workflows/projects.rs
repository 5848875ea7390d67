//! The stored forms of projects, listed podcasts, their activity and outreach emails.

use podlens_model::entities::{ActivityEntry, OutreachGuest, OutreachOptions, Timestamp};
use podlens_model::enums::{
    ListedPodcastLabel, ListedPodcastStatus, Priority, ProjectStatus, ProjectType,
};

/// A project as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct ProjectRow {
    pub project_id: String,
    pub team_id: String,
    pub slug: String,
    pub name: String,
    pub status: ProjectStatus,
    pub project_types: Vec<ProjectType>,
    pub project_type_other_reason: Option<String>,
    pub project_purpose: Option<String>,
    pub project_keywords: Vec<String>,
    pub created_by_user_id: String,
    pub created_at: Timestamp,
    pub last_updated: Timestamp,
}

/// A podcast on a project's list, with the podcast's title, slug and image as they
/// were when it was added.
#[derive(Debug, Clone, PartialEq)]
pub struct ListedPodcastRow {
    pub listed_podcast_id: String,
    pub project_id: String,
    pub team_id: String,
    pub podcast_id: String,
    pub podcast_title: String,
    pub podcast_slug: String,
    pub podcast_image_url: Option<String>,
    pub status: ListedPodcastStatus,
    pub priority: Option<Priority>,
    pub labels: Vec<ListedPodcastLabel>,
    pub added_at: Timestamp,
    pub updated_at: Timestamp,
    pub added_by_user_id: String,
    pub relevancy_score: Option<f64>,
}

/// What adding a podcast to a project needs.
#[derive(Debug, Clone, PartialEq)]
pub struct NewListedPodcast {
    pub row: ListedPodcastRow,
    pub added: ActivityEntry,
}

/// One activity entry with the listed podcast it belongs to.
#[derive(Debug, Clone, PartialEq)]
pub struct ActivityRow {
    pub listed_podcast_id: String,
    pub project_id: String,
    pub entry: ActivityEntry,
}

/// A listing of a podcast in one of a team's projects (for team podcasts).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamListing {
    pub podcast_id: String,
    pub project_id: String,
    pub added_by_user_id: String,
    pub status: ListedPodcastStatus,
}

/// A generated outreach email as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct OutreachRow {
    pub outreach_id: String,
    pub team_id: String,
    pub user_id: String,
    pub podcast_id: String,
    pub podcast_title: String,
    pub podcast_slug: String,
    pub podcast_image_url: Option<String>,
    pub project_id: Option<String>,
    pub guest_profile_id: Option<String>,
    pub guest: Option<OutreachGuest>,
    pub subject: String,
    pub body: String,
    pub options: OutreachOptions,
    pub created_at: Timestamp,
}

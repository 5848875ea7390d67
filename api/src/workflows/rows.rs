//! Reading the workflow tables' rows: raw column values first, then their
//! enumerations and JSON lists checked, so a damaged row is an error, never a guess.

use duckdb::Row;
use podlens_model::entities::{OutreachGuest, OutreachOptions, Timestamp};
use podlens_model::enums::{
    ListedPodcastLabel, ListedPodcastStatus, Priority, ProjectStatus, ProjectType,
};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::projects::{ListedPodcastRow, OutreachRow, ProjectRow};
use crate::error::{ApiError, ApiResult};

pub(super) fn db_error(error: duckdb::Error) -> ApiError {
    ApiError::Internal(format!("workflow tables: {error}"))
}

pub(super) fn to_json<T: Serialize>(value: &T) -> ApiResult<String> {
    serde_json::to_string(value).map_err(ApiError::internal)
}

pub(super) fn from_json<T: DeserializeOwned>(text: &str, what: &str) -> ApiResult<T> {
    serde_json::from_str(text)
        .map_err(|error| ApiError::Internal(format!("stored {what} unreadable: {error}")))
}

pub(super) fn parse_stored<T>(
    value: &str,
    parse: fn(&str) -> Option<T>,
    what: &str,
) -> ApiResult<T> {
    parse(value).ok_or_else(|| ApiError::Internal(format!("stored {what} unknown: {value:?}")))
}

pub(super) fn count_to_u64(count: i64) -> u64 {
    u64::try_from(count).unwrap_or(0)
}

pub(super) const PROJECT_COLUMNS: &str = "project_id, team_id, slug, name, status, project_types,
    project_type_other_reason, project_purpose, project_keywords, created_by_user_id,
    created_at, last_updated";

/// A project row as read, before its enumerations are checked.
pub(super) struct RawProject {
    project_id: String,
    team_id: String,
    slug: String,
    name: String,
    status: String,
    project_types: String,
    project_type_other_reason: Option<String>,
    project_purpose: Option<String>,
    project_keywords: String,
    created_by_user_id: String,
    created_at: Timestamp,
    last_updated: Timestamp,
}

pub(super) fn raw_project(row: &Row<'_>) -> duckdb::Result<RawProject> {
    Ok(RawProject {
        project_id: row.get(0)?,
        team_id: row.get(1)?,
        slug: row.get(2)?,
        name: row.get(3)?,
        status: row.get(4)?,
        project_types: row.get(5)?,
        project_type_other_reason: row.get(6)?,
        project_purpose: row.get(7)?,
        project_keywords: row.get(8)?,
        created_by_user_id: row.get(9)?,
        created_at: row.get(10)?,
        last_updated: row.get(11)?,
    })
}

impl RawProject {
    pub(super) fn checked(self) -> ApiResult<ProjectRow> {
        let types: Vec<String> = from_json(&self.project_types, "project types")?;
        let project_types = types
            .iter()
            .map(|value| parse_stored(value, ProjectType::parse, "project type"))
            .collect::<ApiResult<Vec<_>>>()?;
        Ok(ProjectRow {
            project_id: self.project_id,
            team_id: self.team_id,
            slug: self.slug,
            name: self.name,
            status: parse_stored(&self.status, ProjectStatus::parse, "project status")?,
            project_types,
            project_type_other_reason: self.project_type_other_reason,
            project_purpose: self.project_purpose,
            project_keywords: from_json(&self.project_keywords, "project keywords")?,
            created_by_user_id: self.created_by_user_id,
            created_at: self.created_at,
            last_updated: self.last_updated,
        })
    }
}

pub(super) const LISTED_COLUMNS: &str =
    "listed_podcast_id, project_id, team_id, podcast_id, podcast_title,
    podcast_slug, podcast_image_url, status, priority, labels, added_at, updated_at,
    added_by_user_id, relevancy_score";

pub(super) struct RawListed {
    listed_podcast_id: String,
    project_id: String,
    team_id: String,
    podcast_id: String,
    podcast_title: String,
    podcast_slug: String,
    podcast_image_url: Option<String>,
    status: String,
    priority: Option<String>,
    labels: String,
    added_at: Timestamp,
    updated_at: Timestamp,
    added_by_user_id: String,
    relevancy_score: Option<f64>,
}

pub(super) fn raw_listed(row: &Row<'_>) -> duckdb::Result<RawListed> {
    Ok(RawListed {
        listed_podcast_id: row.get(0)?,
        project_id: row.get(1)?,
        team_id: row.get(2)?,
        podcast_id: row.get(3)?,
        podcast_title: row.get(4)?,
        podcast_slug: row.get(5)?,
        podcast_image_url: row.get(6)?,
        status: row.get(7)?,
        priority: row.get(8)?,
        labels: row.get(9)?,
        added_at: row.get(10)?,
        updated_at: row.get(11)?,
        added_by_user_id: row.get(12)?,
        relevancy_score: row.get(13)?,
    })
}

impl RawListed {
    pub(super) fn checked(self) -> ApiResult<ListedPodcastRow> {
        let labels: Vec<String> = from_json(&self.labels, "labels")?;
        let labels = labels
            .iter()
            .map(|value| parse_stored(value, ListedPodcastLabel::parse, "label"))
            .collect::<ApiResult<Vec<_>>>()?;
        let priority = match self.priority.as_deref() {
            Some(value) => Some(parse_stored(value, Priority::parse, "priority")?),
            None => None,
        };
        Ok(ListedPodcastRow {
            listed_podcast_id: self.listed_podcast_id,
            project_id: self.project_id,
            team_id: self.team_id,
            podcast_id: self.podcast_id,
            podcast_title: self.podcast_title,
            podcast_slug: self.podcast_slug,
            podcast_image_url: self.podcast_image_url,
            status: parse_stored(&self.status, ListedPodcastStatus::parse, "listed status")?,
            priority,
            labels,
            added_at: self.added_at,
            updated_at: self.updated_at,
            added_by_user_id: self.added_by_user_id,
            relevancy_score: self.relevancy_score,
        })
    }
}

pub(super) struct RawOutreach {
    outreach_id: String,
    team_id: String,
    user_id: String,
    podcast_id: String,
    podcast_title: String,
    podcast_slug: String,
    podcast_image_url: Option<String>,
    project_id: Option<String>,
    guest_profile_id: Option<String>,
    guest_json: Option<String>,
    subject: String,
    body: String,
    options_json: String,
    created_at: Timestamp,
}

pub(super) fn raw_outreach(row: &Row<'_>) -> duckdb::Result<RawOutreach> {
    Ok(RawOutreach {
        outreach_id: row.get(0)?,
        team_id: row.get(1)?,
        user_id: row.get(2)?,
        podcast_id: row.get(3)?,
        podcast_title: row.get(4)?,
        podcast_slug: row.get(5)?,
        podcast_image_url: row.get(6)?,
        project_id: row.get(7)?,
        guest_profile_id: row.get(8)?,
        guest_json: row.get(9)?,
        subject: row.get(10)?,
        body: row.get(11)?,
        options_json: row.get(12)?,
        created_at: row.get(13)?,
    })
}

impl RawOutreach {
    pub(super) fn checked(self) -> ApiResult<OutreachRow> {
        let options: OutreachOptions = from_json(&self.options_json, "outreach options")?;
        let guest: Option<OutreachGuest> = self
            .guest_json
            .as_deref()
            .map(|text| from_json(text, "outreach guest"))
            .transpose()?;
        Ok(OutreachRow {
            outreach_id: self.outreach_id,
            team_id: self.team_id,
            user_id: self.user_id,
            podcast_id: self.podcast_id,
            podcast_title: self.podcast_title,
            podcast_slug: self.podcast_slug,
            podcast_image_url: self.podcast_image_url,
            project_id: self.project_id,
            guest_profile_id: self.guest_profile_id,
            guest,
            subject: self.subject,
            body: self.body,
            options,
            created_at: self.created_at,
        })
    }
}

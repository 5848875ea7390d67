//! [`WorkflowStore`]: the workflow tables behind one connection and a mutex, so a
//! plan cap check and the insert it guards happen together.

use std::sync::{Mutex, MutexGuard};

use duckdb::{Connection, OptionalExt, Row, params};
use podlens_model::entities::{ActivityEntry, OutreachGuest, OutreachOptions, Timestamp};
use podlens_model::enums::{
    ActivityActionType, ListedPodcastLabel, ListedPodcastStatus, Priority, ProjectStatus,
    ProjectType,
};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::projects::{
    ActivityRow, ListedPodcastRow, NewListedPodcast, OutreachRow, ProjectRow, TeamListing,
};
use super::schema::SCHEMA;
use super::slug::unique_slug;
use crate::error::{ApiError, ApiResult};

/// The outcome of an insert guarded by a plan cap.
#[derive(Debug, Clone, PartialEq)]
pub enum CapCheck<T> {
    Done(T),
    /// Nothing was written: the team already holds `limit`.
    CapReached {
        limit: u64,
    },
}

/// Projects, listed podcasts, activity and outreach history.
pub struct WorkflowStore {
    connection: Mutex<Connection>,
}

impl std::fmt::Debug for WorkflowStore {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("WorkflowStore")
    }
}

pub(super) fn db_error(error: duckdb::Error) -> ApiError {
    ApiError::Internal(format!("workflow tables: {error}"))
}

fn to_json<T: Serialize>(value: &T) -> ApiResult<String> {
    serde_json::to_string(value).map_err(ApiError::internal)
}

fn from_json<T: DeserializeOwned>(text: &str, what: &str) -> ApiResult<T> {
    serde_json::from_str(text)
        .map_err(|error| ApiError::Internal(format!("stored {what} unreadable: {error}")))
}

fn parse_stored<T>(value: &str, parse: fn(&str) -> Option<T>, what: &str) -> ApiResult<T> {
    parse(value).ok_or_else(|| ApiError::Internal(format!("stored {what} unknown: {value:?}")))
}

fn count_to_u64(count: i64) -> u64 {
    u64::try_from(count).unwrap_or(0)
}

const PROJECT_COLUMNS: &str = "project_id, team_id, slug, name, status, project_types,
    project_type_other_reason, project_purpose, project_keywords, created_by_user_id,
    created_at, last_updated";

/// A project row as read, before its enumerations are checked.
struct RawProject {
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

fn raw_project(row: &Row<'_>) -> duckdb::Result<RawProject> {
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
    fn checked(self) -> ApiResult<ProjectRow> {
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

const LISTED_COLUMNS: &str = "listed_podcast_id, project_id, team_id, podcast_id, podcast_title,
    podcast_slug, podcast_image_url, status, priority, labels, added_at, updated_at,
    added_by_user_id, relevancy_score";

struct RawListed {
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

fn raw_listed(row: &Row<'_>) -> duckdb::Result<RawListed> {
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
    fn checked(self) -> ApiResult<ListedPodcastRow> {
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

struct RawOutreach {
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

fn raw_outreach(row: &Row<'_>) -> duckdb::Result<RawOutreach> {
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
    fn checked(self) -> ApiResult<OutreachRow> {
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

fn labels_json(labels: &[ListedPodcastLabel]) -> ApiResult<String> {
    to_json(
        &labels
            .iter()
            .map(|label| label.as_str())
            .collect::<Vec<_>>(),
    )
}

fn insert_activity(
    connection: &Connection,
    listed_podcast_id: &str,
    project_id: &str,
    entry: &ActivityEntry,
) -> ApiResult<()> {
    let sequence: i64 = connection
        .query_row(
            "SELECT COALESCE(MAX(sequence), 0) + 1 FROM listed_podcast_activity
             WHERE listed_podcast_id = ?",
            params![listed_podcast_id],
            |row| row.get(0),
        )
        .map_err(db_error)?;
    connection
        .execute(
            "INSERT INTO listed_podcast_activity (activity_id, listed_podcast_id, project_id,
                action_type, activity_date, from_value, to_value, user_id, user_display_name,
                sequence)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            params![
                uuid::Uuid::new_v4().to_string(),
                listed_podcast_id,
                project_id,
                entry.action_type.as_str(),
                entry.activity_date,
                entry.from_value,
                entry.to_value,
                entry.user_id,
                entry.user_display_name,
                sequence
            ],
        )
        .map_err(db_error)?;
    Ok(())
}

fn touch_project(connection: &Connection, project_id: &str, at: Timestamp) -> ApiResult<()> {
    connection
        .execute(
            "UPDATE projects SET last_updated = ? WHERE project_id = ?",
            params![at, project_id],
        )
        .map_err(db_error)?;
    Ok(())
}

impl WorkflowStore {
    /// Creates the workflow tables when missing on `connection` (a connection to the
    /// app database) and keeps it.
    pub fn open(connection: Connection) -> ApiResult<WorkflowStore> {
        connection.execute_batch(SCHEMA).map_err(db_error)?;
        Ok(WorkflowStore {
            connection: Mutex::new(connection),
        })
    }

    /// Another connection to the app database (for `podlens backup`'s copy, which
    /// must not hold this store's mutex while it runs).
    pub fn connection_clone(&self) -> ApiResult<Connection> {
        self.lock()?.try_clone().map_err(db_error)
    }

    pub(super) fn lock(&self) -> ApiResult<MutexGuard<'_, Connection>> {
        self.connection
            .lock()
            .map_err(|_| ApiError::Internal("workflow tables lock poisoned".into()))
    }

    // ------------------------------------------------------------ projects

    /// How many projects a team has.
    pub fn count_projects(&self, team_id: &str) -> ApiResult<u64> {
        let connection = self.lock()?;
        let count: i64 = connection
            .query_row(
                "SELECT count(*) FROM projects WHERE team_id = ?",
                params![team_id],
                |row| row.get(0),
            )
            .map_err(db_error)?;
        Ok(count_to_u64(count))
    }

    /// Stores a new project unless the team already has `cap` projects. The slug is
    /// `project.slug`, or it with the first free numeric suffix in the team.
    pub fn create_project(
        &self,
        mut project: ProjectRow,
        cap: Option<u64>,
    ) -> ApiResult<CapCheck<ProjectRow>> {
        let connection = self.lock()?;
        let mut statement = connection
            .prepare("SELECT slug FROM projects WHERE team_id = ?")
            .map_err(db_error)?;
        let taken = statement
            .query_map(params![project.team_id], |row| row.get::<_, String>(0))
            .map_err(db_error)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(db_error)?;
        if let Some(limit) = cap
            && taken.len() as u64 >= limit
        {
            return Ok(CapCheck::CapReached { limit });
        }
        project.slug = unique_slug(&project.slug, &taken);
        connection
            .execute(
                &format!("INSERT INTO projects ({PROJECT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
                params![
                    project.project_id,
                    project.team_id,
                    project.slug,
                    project.name,
                    project.status.as_str(),
                    to_json(&project.project_types)?,
                    project.project_type_other_reason,
                    project.project_purpose,
                    to_json(&project.project_keywords)?,
                    project.created_by_user_id,
                    project.created_at,
                    project.last_updated
                ],
            )
            .map_err(db_error)?;
        Ok(CapCheck::Done(project))
    }

    /// Every project of a team, in no particular order.
    pub fn team_projects(&self, team_id: &str) -> ApiResult<Vec<ProjectRow>> {
        let connection = self.lock()?;
        let mut statement = connection
            .prepare(&format!(
                "SELECT {PROJECT_COLUMNS} FROM projects WHERE team_id = ?"
            ))
            .map_err(db_error)?;
        let raw = statement
            .query_map(params![team_id], raw_project)
            .map_err(db_error)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(db_error)?;
        raw.into_iter().map(RawProject::checked).collect()
    }

    /// The team's project with this id or slug.
    pub fn find_project(&self, team_id: &str, id_or_slug: &str) -> ApiResult<Option<ProjectRow>> {
        let connection = self.lock()?;
        let raw = connection
            .query_row(
                &format!(
                    "SELECT {PROJECT_COLUMNS} FROM projects
                     WHERE team_id = ? AND (project_id = ? OR slug = ?)
                     ORDER BY project_id = ? DESC LIMIT 1"
                ),
                params![team_id, id_or_slug, id_or_slug, id_or_slug],
                raw_project,
            )
            .optional()
            .map_err(db_error)?;
        raw.map(RawProject::checked).transpose()
    }

    /// Writes a project's changeable fields (everything but its ids, team, slug and
    /// creation).
    pub fn save_project(&self, project: &ProjectRow) -> ApiResult<()> {
        let connection = self.lock()?;
        connection
            .execute(
                "UPDATE projects SET name = ?, status = ?, project_types = ?,
                    project_type_other_reason = ?, project_purpose = ?, project_keywords = ?,
                    last_updated = ?
                 WHERE project_id = ? AND team_id = ?",
                params![
                    project.name,
                    project.status.as_str(),
                    to_json(&project.project_types)?,
                    project.project_type_other_reason,
                    project.project_purpose,
                    to_json(&project.project_keywords)?,
                    project.last_updated,
                    project.project_id,
                    project.team_id
                ],
            )
            .map_err(db_error)?;
        Ok(())
    }

    /// Deletes a project with its listed podcasts and their activity.
    pub fn delete_project(&self, team_id: &str, project_id: &str) -> ApiResult<bool> {
        let mut connection = self.lock()?;
        let transaction = connection.transaction().map_err(db_error)?;
        let removed = transaction
            .execute(
                "DELETE FROM projects WHERE team_id = ? AND project_id = ?",
                params![team_id, project_id],
            )
            .map_err(db_error)?;
        if removed > 0 {
            for table in ["listed_podcast_activity", "listed_podcasts"] {
                transaction
                    .execute(
                        &format!("DELETE FROM {table} WHERE project_id = ?"),
                        params![project_id],
                    )
                    .map_err(db_error)?;
            }
        }
        transaction.commit().map_err(db_error)?;
        Ok(removed > 0)
    }

    // ------------------------------------------------------------ listed podcasts

    /// A project's listed podcasts, oldest first.
    pub fn listed_podcasts(&self, project_id: &str) -> ApiResult<Vec<ListedPodcastRow>> {
        let connection = self.lock()?;
        let mut statement = connection
            .prepare(&format!(
                "SELECT {LISTED_COLUMNS} FROM listed_podcasts WHERE project_id = ?
                 ORDER BY added_at, listed_podcast_id"
            ))
            .map_err(db_error)?;
        let raw = statement
            .query_map(params![project_id], raw_listed)
            .map_err(db_error)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(db_error)?;
        raw.into_iter().map(RawListed::checked).collect()
    }

    /// Every listing in a team's projects.
    pub fn team_listings(&self, team_id: &str) -> ApiResult<Vec<TeamListing>> {
        let connection = self.lock()?;
        let mut statement = connection
            .prepare(
                "SELECT podcast_id, project_id, added_by_user_id, status FROM listed_podcasts
                 WHERE team_id = ? ORDER BY added_at, listed_podcast_id",
            )
            .map_err(db_error)?;
        let raw = statement
            .query_map(params![team_id], |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, String>(2)?,
                    row.get::<_, String>(3)?,
                ))
            })
            .map_err(db_error)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(db_error)?;
        raw.into_iter()
            .map(|(podcast_id, project_id, added_by_user_id, status)| {
                Ok(TeamListing {
                    podcast_id,
                    project_id,
                    added_by_user_id,
                    status: parse_stored(&status, ListedPodcastStatus::parse, "listed status")?,
                })
            })
            .collect()
    }

    /// One listed podcast of a project.
    pub fn find_listed(
        &self,
        project_id: &str,
        listed_podcast_id: &str,
    ) -> ApiResult<Option<ListedPodcastRow>> {
        let connection = self.lock()?;
        let raw = connection
            .query_row(
                &format!(
                    "SELECT {LISTED_COLUMNS} FROM listed_podcasts
                     WHERE project_id = ? AND listed_podcast_id = ?"
                ),
                params![project_id, listed_podcast_id],
                raw_listed,
            )
            .optional()
            .map_err(db_error)?;
        raw.map(RawListed::checked).transpose()
    }

    /// Adds a podcast to a project with its `added-to-list` entry, unless the project
    /// already holds `cap` podcasts. A podcast already on the list is refused.
    pub fn add_listed(
        &self,
        new: NewListedPodcast,
        cap: Option<u64>,
    ) -> ApiResult<CapCheck<ListedPodcastRow>> {
        let mut connection = self.lock()?;
        let transaction = connection.transaction().map_err(db_error)?;
        let (count, duplicates): (i64, i64) = transaction
            .query_row(
                "SELECT count(*), count(*) FILTER (WHERE podcast_id = ?)
                 FROM listed_podcasts WHERE project_id = ?",
                params![new.row.podcast_id, new.row.project_id],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .map_err(db_error)?;
        if duplicates > 0 {
            return Err(ApiError::BadRequest(format!(
                "Podcast {} is already listed in this project",
                new.row.podcast_id
            )));
        }
        if let Some(limit) = cap
            && count_to_u64(count) >= limit
        {
            return Ok(CapCheck::CapReached { limit });
        }
        let row = new.row;
        transaction
            .execute(
                &format!(
                    "INSERT INTO listed_podcasts ({LISTED_COLUMNS})
                     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                ),
                params![
                    row.listed_podcast_id,
                    row.project_id,
                    row.team_id,
                    row.podcast_id,
                    row.podcast_title,
                    row.podcast_slug,
                    row.podcast_image_url,
                    row.status.as_str(),
                    row.priority.map(Priority::as_str),
                    labels_json(&row.labels)?,
                    row.added_at,
                    row.updated_at,
                    row.added_by_user_id,
                    row.relevancy_score
                ],
            )
            .map_err(db_error)?;
        insert_activity(
            &transaction,
            &row.listed_podcast_id,
            &row.project_id,
            &new.added,
        )?;
        touch_project(&transaction, &row.project_id, row.updated_at)?;
        transaction.commit().map_err(db_error)?;
        Ok(CapCheck::Done(row))
    }

    /// Writes a listed podcast's status, priority and labels with the activity entries
    /// that record the change.
    pub fn update_listed(
        &self,
        row: &ListedPodcastRow,
        changes: &[ActivityEntry],
    ) -> ApiResult<()> {
        let mut connection = self.lock()?;
        let transaction = connection.transaction().map_err(db_error)?;
        transaction
            .execute(
                "UPDATE listed_podcasts SET status = ?, priority = ?, labels = ?, updated_at = ?
                 WHERE listed_podcast_id = ? AND project_id = ?",
                params![
                    row.status.as_str(),
                    row.priority.map(Priority::as_str),
                    labels_json(&row.labels)?,
                    row.updated_at,
                    row.listed_podcast_id,
                    row.project_id
                ],
            )
            .map_err(db_error)?;
        for entry in changes {
            insert_activity(&transaction, &row.listed_podcast_id, &row.project_id, entry)?;
        }
        touch_project(&transaction, &row.project_id, row.updated_at)?;
        transaction.commit().map_err(db_error)?;
        Ok(())
    }

    /// Removes a podcast from a project's list (with its activity).
    pub fn remove_listed(
        &self,
        project_id: &str,
        listed_podcast_id: &str,
        at: Timestamp,
    ) -> ApiResult<bool> {
        let mut connection = self.lock()?;
        let transaction = connection.transaction().map_err(db_error)?;
        let removed = transaction
            .execute(
                "DELETE FROM listed_podcasts WHERE project_id = ? AND listed_podcast_id = ?",
                params![project_id, listed_podcast_id],
            )
            .map_err(db_error)?;
        if removed > 0 {
            transaction
                .execute(
                    "DELETE FROM listed_podcast_activity WHERE listed_podcast_id = ?",
                    params![listed_podcast_id],
                )
                .map_err(db_error)?;
            touch_project(&transaction, project_id, at)?;
        }
        transaction.commit().map_err(db_error)?;
        Ok(removed > 0)
    }

    /// Every activity entry of a project's listed podcasts, oldest first.
    pub fn project_activity(&self, project_id: &str) -> ApiResult<Vec<ActivityRow>> {
        let connection = self.lock()?;
        let mut statement = connection
            .prepare(
                "SELECT listed_podcast_id, project_id, action_type, activity_date, from_value,
                        to_value, user_id, user_display_name
                 FROM listed_podcast_activity WHERE project_id = ?
                 ORDER BY activity_date, listed_podcast_id, sequence",
            )
            .map_err(db_error)?;
        let raw = statement
            .query_map(params![project_id], |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, String>(2)?,
                    row.get::<_, Timestamp>(3)?,
                    row.get::<_, Option<String>>(4)?,
                    row.get::<_, Option<String>>(5)?,
                    row.get::<_, String>(6)?,
                    row.get::<_, String>(7)?,
                ))
            })
            .map_err(db_error)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(db_error)?;
        raw.into_iter()
            .map(
                |(listed_podcast_id, project_id, action, date, from, to, user_id, user_name)| {
                    Ok(ActivityRow {
                        listed_podcast_id,
                        project_id,
                        entry: ActivityEntry {
                            action_type: parse_stored(
                                &action,
                                ActivityActionType::parse,
                                "action type",
                            )?,
                            activity_date: date,
                            from_value: from,
                            to_value: to,
                            user_id,
                            user_display_name: user_name,
                        },
                    })
                },
            )
            .collect()
    }

    // ------------------------------------------------------------ outreach

    /// Stores a generated outreach email.
    pub fn insert_outreach(&self, row: &OutreachRow) -> ApiResult<()> {
        let connection = self.lock()?;
        let guest_json = row.guest.as_ref().map(to_json).transpose()?;
        connection
            .execute(
                "INSERT INTO outreach_history (outreach_id, team_id, user_id, podcast_id,
                    podcast_title, podcast_slug, podcast_image_url, project_id, guest_profile_id,
                    guest_json, subject, body, options_json, created_at)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                params![
                    row.outreach_id,
                    row.team_id,
                    row.user_id,
                    row.podcast_id,
                    row.podcast_title,
                    row.podcast_slug,
                    row.podcast_image_url,
                    row.project_id,
                    row.guest_profile_id,
                    guest_json,
                    row.subject,
                    row.body,
                    to_json(&row.options)?,
                    row.created_at
                ],
            )
            .map_err(db_error)?;
        Ok(())
    }

    /// A team's outreach emails, newest first, optionally for one podcast and/or one
    /// guest profile.
    pub fn outreach_history(
        &self,
        team_id: &str,
        podcast_id: Option<&str>,
        guest_profile_id: Option<&str>,
    ) -> ApiResult<Vec<OutreachRow>> {
        self.query_outreach(
            "team_id = ? AND (? IS NULL OR podcast_id = ?) AND (? IS NULL OR guest_profile_id = ?)
             ORDER BY created_at DESC, outreach_id",
            &[
                &team_id,
                &podcast_id,
                &podcast_id,
                &guest_profile_id,
                &guest_profile_id,
            ],
        )
    }

    /// One outreach email of a team.
    pub fn find_outreach(
        &self,
        team_id: &str,
        outreach_id: &str,
    ) -> ApiResult<Option<OutreachRow>> {
        Ok(self
            .query_outreach("team_id = ? AND outreach_id = ?", &[&team_id, &outreach_id])?
            .into_iter()
            .next())
    }

    fn query_outreach(
        &self,
        condition: &str,
        values: &[&dyn duckdb::ToSql],
    ) -> ApiResult<Vec<OutreachRow>> {
        let connection = self.lock()?;
        let mut statement = connection
            .prepare(&format!(
                "SELECT outreach_id, team_id, user_id, podcast_id, podcast_title, podcast_slug,
                        podcast_image_url, project_id, guest_profile_id, guest_json, subject, body,
                        options_json, created_at
                 FROM outreach_history WHERE {condition}"
            ))
            .map_err(db_error)?;
        let raw = statement
            .query_map(values, raw_outreach)
            .map_err(db_error)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(db_error)?;
        raw.into_iter().map(RawOutreach::checked).collect()
    }

    // ------------------------------------------------------------ search history

    /// The options of a search a team member (or this subject) ran: `(search mode,
    /// options JSON)`.
    pub fn search_of_team(
        &self,
        search_id: &str,
        team_id: &str,
    ) -> ApiResult<Option<(String, String)>> {
        let connection = self.lock()?;
        connection
            .query_row(
                "SELECT search_mode, options_json FROM search_history
                 WHERE search_id = ? AND team_id = ?",
                params![search_id, team_id],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .optional()
            .map_err(db_error)
    }
}

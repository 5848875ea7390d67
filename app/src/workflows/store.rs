//! [`WorkflowStore`]: the workflow tables of the application store. A plan cap check
//! and the insert it guards run in one write transaction that holds the team's (or
//! project's) lock, so two requests cannot both pass the check.

use std::sync::Arc;

use podlens_model::entities::{ActivityEntry, OutreachGuest, OutreachOptions, Timestamp};
use podlens_model::enums::{
    ActivityActionType, ListedPodcastLabel, ListedPodcastStatus, Priority, ProjectStatus,
    ProjectType,
};
use podlens_store::{Database, count, time_at, time_text};
use serde::Serialize;
use serde::de::DeserializeOwned;
use sqlx::any::AnyRow;
use sqlx::{AnyConnection, AssertSqlSafe, Row};

use super::projects::{
    ActivityRow, ListedPodcastRow, NewListedPodcast, OutreachRow, ProjectRow, TeamListing,
};
use super::slug::unique_slug;
use crate::error::{AppError, AppResult};

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
    db: Arc<Database>,
}

impl std::fmt::Debug for WorkflowStore {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("WorkflowStore")
    }
}

fn to_json<T: Serialize>(value: &T) -> AppResult<String> {
    serde_json::to_string(value).map_err(AppError::internal)
}

fn from_json<T: DeserializeOwned>(text: &str, what: &str) -> AppResult<T> {
    serde_json::from_str(text)
        .map_err(|error| AppError::Internal(format!("stored {what} unreadable: {error}")))
}

fn parse_stored<T>(value: &str, parse: fn(&str) -> Option<T>, what: &str) -> AppResult<T> {
    parse(value).ok_or_else(|| AppError::Internal(format!("stored {what} unknown: {value:?}")))
}

fn count_to_u64(count: i64) -> u64 {
    u64::try_from(count).unwrap_or(0)
}

const PROJECT_COLUMNS: &str = "project_id, team_id, slug, name, status, project_types,
    project_type_other_reason, project_purpose, project_keywords, created_by_user_id,
    created_at, last_updated";

fn project_row(row: &AnyRow) -> AppResult<ProjectRow> {
    let types: Vec<String> =
        from_json(&row.try_get::<String, _>("project_types")?, "project types")?;
    let project_types = types
        .iter()
        .map(|value| parse_stored(value, ProjectType::parse, "project type"))
        .collect::<AppResult<Vec<_>>>()?;
    Ok(ProjectRow {
        project_id: row.try_get("project_id")?,
        team_id: row.try_get("team_id")?,
        slug: row.try_get("slug")?,
        name: row.try_get("name")?,
        status: parse_stored(
            &row.try_get::<String, _>("status")?,
            ProjectStatus::parse,
            "project status",
        )?,
        project_types,
        project_type_other_reason: row.try_get("project_type_other_reason")?,
        project_purpose: row.try_get("project_purpose")?,
        project_keywords: from_json(
            &row.try_get::<String, _>("project_keywords")?,
            "project keywords",
        )?,
        created_by_user_id: row.try_get("created_by_user_id")?,
        created_at: time_at(row, "created_at")?,
        last_updated: time_at(row, "last_updated")?,
    })
}

const LISTED_COLUMNS: &str = "listed_podcast_id, project_id, team_id, podcast_id, podcast_title,
    podcast_slug, podcast_image_url, status, priority, labels, added_at, updated_at,
    added_by_user_id, relevancy_score";

fn listed_row(row: &AnyRow) -> AppResult<ListedPodcastRow> {
    let labels: Vec<String> = from_json(&row.try_get::<String, _>("labels")?, "labels")?;
    let labels = labels
        .iter()
        .map(|value| parse_stored(value, ListedPodcastLabel::parse, "label"))
        .collect::<AppResult<Vec<_>>>()?;
    let priority = match row.try_get::<Option<String>, _>("priority")? {
        Some(value) => Some(parse_stored(&value, Priority::parse, "priority")?),
        None => None,
    };
    Ok(ListedPodcastRow {
        listed_podcast_id: row.try_get("listed_podcast_id")?,
        project_id: row.try_get("project_id")?,
        team_id: row.try_get("team_id")?,
        podcast_id: row.try_get("podcast_id")?,
        podcast_title: row.try_get("podcast_title")?,
        podcast_slug: row.try_get("podcast_slug")?,
        podcast_image_url: row.try_get("podcast_image_url")?,
        status: parse_stored(
            &row.try_get::<String, _>("status")?,
            ListedPodcastStatus::parse,
            "listed status",
        )?,
        priority,
        labels,
        added_at: time_at(row, "added_at")?,
        updated_at: time_at(row, "updated_at")?,
        added_by_user_id: row.try_get("added_by_user_id")?,
        relevancy_score: row.try_get("relevancy_score")?,
    })
}

const OUTREACH_COLUMNS: &str = "outreach_id, team_id, user_id, podcast_id, podcast_title,
    podcast_slug, podcast_image_url, project_id, guest_profile_id, guest_json, subject, body,
    options_json, created_at";

fn outreach_row(row: &AnyRow) -> AppResult<OutreachRow> {
    let options: OutreachOptions = from_json(
        &row.try_get::<String, _>("options_json")?,
        "outreach options",
    )?;
    let guest: Option<OutreachGuest> = row
        .try_get::<Option<String>, _>("guest_json")?
        .map(|text| from_json(&text, "outreach guest"))
        .transpose()?;
    Ok(OutreachRow {
        outreach_id: row.try_get("outreach_id")?,
        team_id: row.try_get("team_id")?,
        user_id: row.try_get("user_id")?,
        podcast_id: row.try_get("podcast_id")?,
        podcast_title: row.try_get("podcast_title")?,
        podcast_slug: row.try_get("podcast_slug")?,
        podcast_image_url: row.try_get("podcast_image_url")?,
        project_id: row.try_get("project_id")?,
        guest_profile_id: row.try_get("guest_profile_id")?,
        guest,
        subject: row.try_get("subject")?,
        body: row.try_get("body")?,
        options,
        created_at: time_at(row, "created_at")?,
    })
}

fn labels_json(labels: &[ListedPodcastLabel]) -> AppResult<String> {
    to_json(
        &labels
            .iter()
            .map(|label| label.as_str())
            .collect::<Vec<_>>(),
    )
}

/// The lock a write to a project's list holds: the cap and duplicate checks of
/// [`WorkflowStore::add_listed`] and each listed podcast's activity sequence.
fn listed_lock(project_id: &str) -> String {
    format!("listed_podcasts:{project_id}")
}

async fn insert_activity(
    connection: &mut AnyConnection,
    listed_podcast_id: &str,
    project_id: &str,
    entry: &ActivityEntry,
) -> AppResult<()> {
    let sequence: i64 = sqlx::query(
        "SELECT COALESCE(MAX(sequence), 0) + 1 FROM listed_podcast_activity
         WHERE listed_podcast_id = $1",
    )
    .bind(listed_podcast_id)
    .fetch_one(&mut *connection)
    .await?
    .try_get(0)?;
    sqlx::query(
        "INSERT INTO listed_podcast_activity (activity_id, listed_podcast_id, project_id,
            action_type, activity_date, from_value, to_value, user_id, user_display_name,
            sequence)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    )
    .bind(uuid::Uuid::new_v4().to_string())
    .bind(listed_podcast_id)
    .bind(project_id)
    .bind(entry.action_type.as_str())
    .bind(time_text(entry.activity_date))
    .bind(entry.from_value.as_deref())
    .bind(entry.to_value.as_deref())
    .bind(entry.user_id.as_str())
    .bind(entry.user_display_name.as_str())
    .bind(sequence)
    .execute(&mut *connection)
    .await?;
    Ok(())
}

async fn touch_project(
    connection: &mut AnyConnection,
    project_id: &str,
    at: Timestamp,
) -> AppResult<()> {
    sqlx::query("UPDATE projects SET last_updated = $1 WHERE project_id = $2")
        .bind(time_text(at))
        .bind(project_id)
        .execute(connection)
        .await?;
    Ok(())
}

impl WorkflowStore {
    /// The workflow tables of `db` (created by its migrations).
    pub fn open(db: Arc<Database>) -> AppResult<WorkflowStore> {
        Ok(WorkflowStore { db })
    }

    /// The application store these tables live in.
    pub fn database(&self) -> &Arc<Database> {
        &self.db
    }

    /// Waits for `call` (one of this store's async calls) from synchronous code: the
    /// background jobs that mix it with catalog work on a blocking thread, and the
    /// speech worker's own thread. Services await their calls instead.
    pub fn wait<F>(&self, call: F) -> F::Output
    where
        F: std::future::Future + Send,
        F::Output: Send,
    {
        self.db.wait(call)
    }

    // ------------------------------------------------------------ projects

    /// How many projects a team has.
    pub async fn count_projects(&self, team_id: &str) -> AppResult<u64> {
        Ok(self
            .db
            .run(count(
                sqlx::query("SELECT COUNT(*) FROM projects WHERE team_id = $1").bind(team_id),
                self.db.pool(),
            ))
            .await?)
    }

    /// Stores a new project unless the team already has `cap` projects. The slug is
    /// `project.slug`, or it with the first free numeric suffix in the team. The check
    /// and the insert run in one write transaction holding the team's project lock.
    pub async fn create_project(
        &self,
        mut project: ProjectRow,
        cap: Option<u64>,
    ) -> AppResult<CapCheck<ProjectRow>> {
        let project_types = to_json(&project.project_types)?;
        let project_keywords = to_json(&project.project_keywords)?;
        self.db
            .run(async {
                let mut tx = self.db.begin_write().await?;
                self.db
                    .lock(&mut tx, &format!("projects:{}", project.team_id))
                    .await?;
                if let Some(limit) = cap {
                    let count: i64 =
                        sqlx::query_scalar("SELECT COUNT(*) FROM projects WHERE team_id = $1")
                            .bind(project.team_id.as_str())
                            .fetch_one(&mut *tx)
                            .await?;
                    if count as u64 >= limit {
                        return Ok(CapCheck::CapReached { limit });
                    }
                }
                // Only the slugs the new one could collide with: itself and its numbered
                // forms (reading every slug of a team made each new project slower).
                let escaped = project
                    .slug
                    .replace('\\', "\\\\")
                    .replace('%', "\\%")
                    .replace('_', "\\_");
                let taken = sqlx::query(
                    "SELECT slug FROM projects
                 WHERE team_id = $1 AND (slug = $2 OR slug LIKE $3 ESCAPE '\\')",
                )
                .bind(project.team_id.as_str())
                .bind(project.slug.as_str())
                .bind(format!("{escaped}-%"))
                .fetch_all(&mut *tx)
                .await?
                .iter()
                .map(|row| row.try_get::<String, _>(0))
                .collect::<Result<Vec<_>, _>>()?;
                project.slug = unique_slug(&project.slug, &taken);
                sqlx::query(AssertSqlSafe(format!(
                    "INSERT INTO projects ({PROJECT_COLUMNS})
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"
                )))
                .bind(project.project_id.as_str())
                .bind(project.team_id.as_str())
                .bind(project.slug.as_str())
                .bind(project.name.as_str())
                .bind(project.status.as_str())
                .bind(project_types)
                .bind(project.project_type_other_reason.as_deref())
                .bind(project.project_purpose.as_deref())
                .bind(project_keywords)
                .bind(project.created_by_user_id.as_str())
                .bind(time_text(project.created_at))
                .bind(time_text(project.last_updated))
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok::<_, AppError>(CapCheck::Done(project))
            })
            .await
    }

    /// Every project of a team, in no particular order.
    pub async fn team_projects(&self, team_id: &str) -> AppResult<Vec<ProjectRow>> {
        let rows = self
            .db
            .run(
                sqlx::query(AssertSqlSafe(format!(
                    "SELECT {PROJECT_COLUMNS} FROM projects WHERE team_id = $1"
                )))
                .bind(team_id)
                .fetch_all(self.db.pool()),
            )
            .await?;
        rows.iter().map(project_row).collect()
    }

    /// The team's project with this id or slug.
    pub async fn find_project(
        &self,
        team_id: &str,
        id_or_slug: &str,
    ) -> AppResult<Option<ProjectRow>> {
        let row = self
            .db
            .run(
                sqlx::query(AssertSqlSafe(format!(
                    "SELECT {PROJECT_COLUMNS} FROM projects
                 WHERE team_id = $1 AND (project_id = $2 OR slug = $2)
                 ORDER BY CASE WHEN project_id = $2 THEN 0 ELSE 1 END LIMIT 1"
                )))
                .bind(team_id)
                .bind(id_or_slug)
                .fetch_optional(self.db.pool()),
            )
            .await?;
        row.as_ref().map(project_row).transpose()
    }

    /// Writes a project's changeable fields (everything but its ids, team, slug and
    /// creation).
    pub async fn save_project(&self, project: &ProjectRow) -> AppResult<()> {
        self.db
            .run(
                sqlx::query(
                    "UPDATE projects SET name = $1, status = $2, project_types = $3,
                    project_type_other_reason = $4, project_purpose = $5, project_keywords = $6,
                    last_updated = $7
                 WHERE project_id = $8 AND team_id = $9",
                )
                .bind(project.name.as_str())
                .bind(project.status.as_str())
                .bind(to_json(&project.project_types)?)
                .bind(project.project_type_other_reason.as_deref())
                .bind(project.project_purpose.as_deref())
                .bind(to_json(&project.project_keywords)?)
                .bind(time_text(project.last_updated))
                .bind(project.project_id.as_str())
                .bind(project.team_id.as_str())
                .execute(self.db.writer()),
            )
            .await?;
        Ok(())
    }

    /// Deletes a project with its listed podcasts and their activity.
    pub async fn delete_project(&self, team_id: &str, project_id: &str) -> AppResult<bool> {
        self.db
            .run(async {
                let mut tx = self.db.begin_write().await?;
                let removed =
                    sqlx::query("DELETE FROM projects WHERE team_id = $1 AND project_id = $2")
                        .bind(team_id)
                        .bind(project_id)
                        .execute(&mut *tx)
                        .await?
                        .rows_affected();
                if removed > 0 {
                    for delete in [
                        "DELETE FROM listed_podcast_activity WHERE project_id = $1",
                        "DELETE FROM listed_podcasts WHERE project_id = $1",
                    ] {
                        sqlx::query(delete)
                            .bind(project_id)
                            .execute(&mut *tx)
                            .await?;
                    }
                }
                tx.commit().await?;
                Ok::<_, AppError>(removed > 0)
            })
            .await
    }

    // ------------------------------------------------------------ listed podcasts

    /// A project's listed podcasts, oldest first.
    pub async fn listed_podcasts(&self, project_id: &str) -> AppResult<Vec<ListedPodcastRow>> {
        self.listed_where("project_id", project_id).await
    }

    /// The listed podcasts of every project of a team, each project's in list order
    /// (the projects page reads them at once, not project by project).
    pub async fn team_listed_podcasts(&self, team_id: &str) -> AppResult<Vec<ListedPodcastRow>> {
        self.listed_where("team_id", team_id).await
    }

    /// The listed podcasts whose `column` (`project_id` or `team_id`, never a
    /// caller's text) is `value`, in list order.
    async fn listed_where(
        &self,
        column: &'static str,
        value: &str,
    ) -> AppResult<Vec<ListedPodcastRow>> {
        let rows = self
            .db
            .run(
                sqlx::query(AssertSqlSafe(format!(
                    "SELECT {LISTED_COLUMNS} FROM listed_podcasts WHERE {column} = $1
                 ORDER BY added_at, listed_podcast_id"
                )))
                .bind(value)
                .fetch_all(self.db.pool()),
            )
            .await?;
        rows.iter().map(listed_row).collect()
    }

    /// Every listing in a team's projects.
    pub async fn team_listings(&self, team_id: &str) -> AppResult<Vec<TeamListing>> {
        let rows = self
            .db
            .run(
                sqlx::query(
                    "SELECT podcast_id, project_id, added_by_user_id, status FROM listed_podcasts
                 WHERE team_id = $1 ORDER BY added_at, listed_podcast_id",
                )
                .bind(team_id)
                .fetch_all(self.db.pool()),
            )
            .await?;
        rows.iter()
            .map(|row| {
                Ok(TeamListing {
                    podcast_id: row.try_get("podcast_id")?,
                    project_id: row.try_get("project_id")?,
                    added_by_user_id: row.try_get("added_by_user_id")?,
                    status: parse_stored(
                        &row.try_get::<String, _>("status")?,
                        ListedPodcastStatus::parse,
                        "listed status",
                    )?,
                })
            })
            .collect()
    }

    /// One listed podcast of a project.
    pub async fn find_listed(
        &self,
        project_id: &str,
        listed_podcast_id: &str,
    ) -> AppResult<Option<ListedPodcastRow>> {
        let row = self
            .db
            .run(
                sqlx::query(AssertSqlSafe(format!(
                    "SELECT {LISTED_COLUMNS} FROM listed_podcasts
                 WHERE project_id = $1 AND listed_podcast_id = $2"
                )))
                .bind(project_id)
                .bind(listed_podcast_id)
                .fetch_optional(self.db.pool()),
            )
            .await?;
        row.as_ref().map(listed_row).transpose()
    }

    /// Adds a podcast to a project with its `added-to-list` entry, unless the project
    /// already holds `cap` podcasts. A podcast already on the list is refused. The
    /// checks and the writes run in one write transaction holding the project's list
    /// lock.
    pub async fn add_listed(
        &self,
        new: NewListedPodcast,
        cap: Option<u64>,
    ) -> AppResult<CapCheck<ListedPodcastRow>> {
        let labels = labels_json(&new.row.labels)?;
        self.db
            .run(async {
                let mut tx = self.db.begin_write().await?;
                self.db
                    .lock(&mut tx, &listed_lock(&new.row.project_id))
                    .await?;
                let counts = sqlx::query(
                    "SELECT COUNT(*), COUNT(CASE WHEN podcast_id = $1 THEN 1 END)
                 FROM listed_podcasts WHERE project_id = $2",
                )
                .bind(new.row.podcast_id.as_str())
                .bind(new.row.project_id.as_str())
                .fetch_one(&mut *tx)
                .await?;
                let (count, duplicates): (i64, i64) = (counts.try_get(0)?, counts.try_get(1)?);
                if duplicates > 0 {
                    return Err(AppError::Invalid(format!(
                        "Podcast {} is already listed in this project",
                        new.row.podcast_id
                    )));
                }
                if let Some(limit) = cap
                    && count_to_u64(count) >= limit
                {
                    return Ok(CapCheck::CapReached { limit });
                }
                let row = &new.row;
                sqlx::query(AssertSqlSafe(format!(
                    "INSERT INTO listed_podcasts ({LISTED_COLUMNS})
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)"
                )))
                .bind(row.listed_podcast_id.as_str())
                .bind(row.project_id.as_str())
                .bind(row.team_id.as_str())
                .bind(row.podcast_id.as_str())
                .bind(row.podcast_title.as_str())
                .bind(row.podcast_slug.as_str())
                .bind(row.podcast_image_url.as_deref())
                .bind(row.status.as_str())
                .bind(row.priority.map(Priority::as_str))
                .bind(labels)
                .bind(time_text(row.added_at))
                .bind(time_text(row.updated_at))
                .bind(row.added_by_user_id.as_str())
                .bind(row.relevancy_score)
                .execute(&mut *tx)
                .await?;
                insert_activity(&mut tx, &row.listed_podcast_id, &row.project_id, &new.added)
                    .await?;
                touch_project(&mut tx, &row.project_id, row.updated_at).await?;
                tx.commit().await?;
                Ok(CapCheck::Done(new.row))
            })
            .await
    }

    /// Writes a listed podcast's status, priority and labels with the activity entries
    /// that record the change, in one transaction holding the project's list lock.
    pub async fn update_listed(
        &self,
        row: &ListedPodcastRow,
        changes: &[ActivityEntry],
    ) -> AppResult<()> {
        let labels = labels_json(&row.labels)?;
        self.db
            .run(async {
                let mut tx = self.db.begin_write().await?;
                self.db.lock(&mut tx, &listed_lock(&row.project_id)).await?;
                sqlx::query(
                    "UPDATE listed_podcasts SET status = $1, priority = $2, labels = $3,
                    updated_at = $4
                 WHERE listed_podcast_id = $5 AND project_id = $6",
                )
                .bind(row.status.as_str())
                .bind(row.priority.map(Priority::as_str))
                .bind(labels)
                .bind(time_text(row.updated_at))
                .bind(row.listed_podcast_id.as_str())
                .bind(row.project_id.as_str())
                .execute(&mut *tx)
                .await?;
                for entry in changes {
                    insert_activity(&mut tx, &row.listed_podcast_id, &row.project_id, entry)
                        .await?;
                }
                touch_project(&mut tx, &row.project_id, row.updated_at).await?;
                tx.commit().await?;
                Ok::<_, AppError>(())
            })
            .await
    }

    /// Removes a podcast from a project's list (with its activity).
    pub async fn remove_listed(
        &self,
        project_id: &str,
        listed_podcast_id: &str,
        at: Timestamp,
    ) -> AppResult<bool> {
        self.db
            .run(async {
                let mut tx = self.db.begin_write().await?;
                self.db.lock(&mut tx, &listed_lock(project_id)).await?;
                let removed = sqlx::query(
                    "DELETE FROM listed_podcasts WHERE project_id = $1 AND listed_podcast_id = $2",
                )
                .bind(project_id)
                .bind(listed_podcast_id)
                .execute(&mut *tx)
                .await?
                .rows_affected();
                if removed > 0 {
                    sqlx::query("DELETE FROM listed_podcast_activity WHERE listed_podcast_id = $1")
                        .bind(listed_podcast_id)
                        .execute(&mut *tx)
                        .await?;
                    touch_project(&mut tx, project_id, at).await?;
                }
                tx.commit().await?;
                Ok::<_, AppError>(removed > 0)
            })
            .await
    }

    /// Every activity entry of a project's listed podcasts, oldest first.
    pub async fn project_activity(&self, project_id: &str) -> AppResult<Vec<ActivityRow>> {
        self.activity_where("project_id = $1", project_id).await
    }

    /// The activity of every project of a team, each project's in the order of
    /// [`WorkflowStore::project_activity`].
    pub async fn team_project_activity(&self, team_id: &str) -> AppResult<Vec<ActivityRow>> {
        self.activity_where(
            "project_id IN (SELECT project_id FROM projects WHERE team_id = $1)",
            team_id,
        )
        .await
    }

    /// The activity entries `condition` (a fixed clause binding `value` as `$1`) keeps.
    async fn activity_where(
        &self,
        condition: &'static str,
        value: &str,
    ) -> AppResult<Vec<ActivityRow>> {
        let rows = self
            .db
            .run(
                sqlx::query(AssertSqlSafe(format!(
                    "SELECT listed_podcast_id, project_id, action_type, activity_date, from_value,
                        to_value, user_id, user_display_name
                 FROM listed_podcast_activity WHERE {condition}
                 ORDER BY activity_date, listed_podcast_id, sequence"
                )))
                .bind(value)
                .fetch_all(self.db.pool()),
            )
            .await?;
        activity_rows(&rows)
    }

    /// The activity entries of one listed podcast of a project, oldest first.
    pub async fn listed_activity(
        &self,
        project_id: &str,
        listed_podcast_id: &str,
    ) -> AppResult<Vec<ActivityRow>> {
        let rows = self
            .db
            .run(
                sqlx::query(
                    "SELECT listed_podcast_id, project_id, action_type, activity_date, from_value,
                        to_value, user_id, user_display_name
                 FROM listed_podcast_activity WHERE listed_podcast_id = $1 AND project_id = $2
                 ORDER BY activity_date, sequence",
                )
                .bind(listed_podcast_id)
                .bind(project_id)
                .fetch_all(self.db.pool()),
            )
            .await?;
        activity_rows(&rows)
    }

    // ------------------------------------------------------------ outreach

    /// Stores a generated outreach email.
    pub async fn insert_outreach(&self, row: &OutreachRow) -> AppResult<()> {
        let guest_json = row.guest.as_ref().map(to_json).transpose()?;
        self.db
            .run(
                sqlx::query(AssertSqlSafe(format!(
                    "INSERT INTO outreach_history ({OUTREACH_COLUMNS})
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)"
                )))
                .bind(row.outreach_id.as_str())
                .bind(row.team_id.as_str())
                .bind(row.user_id.as_str())
                .bind(row.podcast_id.as_str())
                .bind(row.podcast_title.as_str())
                .bind(row.podcast_slug.as_str())
                .bind(row.podcast_image_url.as_deref())
                .bind(row.project_id.as_deref())
                .bind(row.guest_profile_id.as_deref())
                .bind(guest_json)
                .bind(row.subject.as_str())
                .bind(row.body.as_str())
                .bind(to_json(&row.options)?)
                .bind(time_text(row.created_at))
                .execute(self.db.writer()),
            )
            .await?;
        Ok(())
    }

    /// A team's outreach emails, newest first, optionally for one podcast and/or one
    /// guest profile.
    pub async fn outreach_history(
        &self,
        team_id: &str,
        podcast_id: Option<&str>,
        guest_profile_id: Option<&str>,
    ) -> AppResult<Vec<OutreachRow>> {
        let rows = self
            .db
            .run(
                sqlx::query(AssertSqlSafe(format!(
                    "SELECT {OUTREACH_COLUMNS} FROM outreach_history
                 WHERE team_id = $1 AND (CAST($2 AS TEXT) IS NULL OR podcast_id = $2)
                   AND (CAST($3 AS TEXT) IS NULL OR guest_profile_id = $3)
                 ORDER BY created_at DESC, outreach_id"
                )))
                .bind(team_id)
                .bind(podcast_id)
                .bind(guest_profile_id)
                .fetch_all(self.db.pool()),
            )
            .await?;
        rows.iter().map(outreach_row).collect()
    }

    /// One outreach email of a team.
    pub async fn find_outreach(
        &self,
        team_id: &str,
        outreach_id: &str,
    ) -> AppResult<Option<OutreachRow>> {
        let row = self
            .db
            .run(
                sqlx::query(AssertSqlSafe(format!(
                    "SELECT {OUTREACH_COLUMNS} FROM outreach_history
                 WHERE team_id = $1 AND outreach_id = $2"
                )))
                .bind(team_id)
                .bind(outreach_id)
                .fetch_optional(self.db.pool()),
            )
            .await?;
        row.as_ref().map(outreach_row).transpose()
    }

    // ------------------------------------------------------------ search history

    /// The options of a search a team member (or this subject) ran: `(search mode,
    /// options JSON)`.
    pub async fn search_of_team(
        &self,
        search_id: &str,
        team_id: &str,
    ) -> AppResult<Option<(String, String)>> {
        let row = self
            .db
            .run(
                sqlx::query(
                    "SELECT search_mode, options_json FROM search_history
                 WHERE search_id = $1 AND team_id = $2",
                )
                .bind(search_id)
                .bind(team_id)
                .fetch_optional(self.db.pool()),
            )
            .await?;
        row.map(|row| Ok((row.try_get(0)?, row.try_get(1)?)))
            .transpose()
    }
}

/// Activity entries from their rows.
fn activity_rows(rows: &[AnyRow]) -> AppResult<Vec<ActivityRow>> {
    rows.iter()
        .map(|row| {
            Ok(ActivityRow {
                listed_podcast_id: row.try_get("listed_podcast_id")?,
                project_id: row.try_get("project_id")?,
                entry: ActivityEntry {
                    action_type: parse_stored(
                        &row.try_get::<String, _>("action_type")?,
                        ActivityActionType::parse,
                        "action type",
                    )?,
                    activity_date: time_at(row, "activity_date")?,
                    from_value: row.try_get("from_value")?,
                    to_value: row.try_get("to_value")?,
                    user_id: row.try_get("user_id")?,
                    user_display_name: row.try_get("user_display_name")?,
                },
            })
        })
        .collect()
}

#[cfg(test)]
pub(super) mod tests {
    use chrono::{TimeZone, Utc};
    use podlens_model::enums::{CallToActionStyle, EmailLength, PersonalizationLevel};

    use super::*;

    /// A store over a private in-memory database.
    pub(in crate::workflows) fn memory_store() -> WorkflowStore {
        WorkflowStore::open(Arc::new(Database::for_tests().unwrap())).unwrap()
    }

    /// A fixed time, `second` seconds into it.
    pub(in crate::workflows) fn at(second: i64) -> Timestamp {
        Utc.with_ymd_and_hms(2026, 3, 4, 5, 0, 0).unwrap() + chrono::Duration::seconds(second)
    }

    fn project(id: &str, team_id: &str, slug: &str) -> ProjectRow {
        ProjectRow {
            project_id: id.to_owned(),
            team_id: team_id.to_owned(),
            slug: slug.to_owned(),
            name: format!("Project {id}"),
            status: ProjectStatus::Active,
            project_types: vec![ProjectType::GuestBooking, ProjectType::Other],
            project_type_other_reason: Some("because".to_owned()),
            project_purpose: None,
            project_keywords: vec!["rust".to_owned(), "audio".to_owned()],
            created_by_user_id: "u1".to_owned(),
            created_at: at(0),
            last_updated: at(0),
        }
    }

    fn entry(action_type: ActivityActionType, second: i64, to: &str) -> ActivityEntry {
        ActivityEntry {
            action_type,
            activity_date: at(second),
            from_value: None,
            to_value: Some(to.to_owned()),
            user_id: "u1".to_owned(),
            user_display_name: "Ada".to_owned(),
        }
    }

    fn listed(id: &str, project_id: &str, podcast_id: &str, second: i64) -> NewListedPodcast {
        NewListedPodcast {
            row: ListedPodcastRow {
                listed_podcast_id: id.to_owned(),
                project_id: project_id.to_owned(),
                team_id: "t1".to_owned(),
                podcast_id: podcast_id.to_owned(),
                podcast_title: format!("Podcast {podcast_id}"),
                podcast_slug: format!("podcast-{podcast_id}"),
                podcast_image_url: None,
                status: ListedPodcastStatus::Prospect,
                priority: None,
                labels: vec![ListedPodcastLabel::Automated],
                added_at: at(second),
                updated_at: at(second),
                added_by_user_id: "u1".to_owned(),
                relevancy_score: None,
            },
            added: entry(ActivityActionType::AddedToList, second, "prospect"),
        }
    }

    #[tokio::test]
    async fn projects_are_capped_per_team_with_unique_slugs() {
        let store = memory_store();
        let first = store
            .create_project(project("p1", "t1", "tour"), Some(2))
            .await
            .unwrap();
        assert_eq!(first, CapCheck::Done(project("p1", "t1", "tour")));
        let CapCheck::Done(second) = store
            .create_project(project("p2", "t1", "tour"), Some(2))
            .await
            .unwrap()
        else {
            panic!("under the cap");
        };
        assert_eq!(second.slug, "tour-2");
        assert_eq!(
            store
                .create_project(project("p3", "t1", "other"), Some(2))
                .await
                .unwrap(),
            CapCheck::CapReached { limit: 2 }
        );
        // Another team's projects neither count nor take slugs.
        let CapCheck::Done(elsewhere) = store
            .create_project(project("p4", "t2", "tour"), Some(1))
            .await
            .unwrap()
        else {
            panic!("another team");
        };
        assert_eq!(elsewhere.slug, "tour");
        assert_eq!(store.count_projects("t1").await.unwrap(), 2);
        assert_eq!(store.count_projects("t3").await.unwrap(), 0);
        let mut ids: Vec<String> = store
            .team_projects("t1")
            .await
            .unwrap()
            .into_iter()
            .map(|p| p.project_id)
            .collect();
        ids.sort();
        assert_eq!(ids, ["p1", "p2"]);
    }

    #[tokio::test]
    async fn a_new_slug_is_numbered_past_its_own_forms_only() {
        let store = memory_store();
        let slug_of = |id: &str, slug: &str| match store
            .wait(store.create_project(project(id, "t1", slug), None))
            .unwrap()
        {
            CapCheck::Done(project) => project.slug,
            CapCheck::CapReached { .. } => panic!("no cap"),
        };
        assert_eq!(slug_of("p1", "tour"), "tour");
        assert_eq!(slug_of("p2", "tourist"), "tourist");
        assert_eq!(slug_of("p3", "tour"), "tour-2");
        assert_eq!(slug_of("p4", "tour"), "tour-3");
        // LIKE's wildcards in a slug are plain characters.
        assert_eq!(slug_of("p5", "a_b"), "a_b");
        assert_eq!(slug_of("p6", "axb-2"), "axb-2");
        assert_eq!(slug_of("p7", "a_b"), "a_b-2");
        assert_eq!(slug_of("p8", "100%"), "100%");
        assert_eq!(slug_of("p9", "100%"), "100%-2");
    }

    #[tokio::test]
    async fn a_project_is_found_by_id_before_slug_and_saved_and_deleted() {
        let store = memory_store();
        store
            .create_project(project("p1", "t1", "p2"), None)
            .await
            .unwrap();
        store
            .create_project(project("p2", "t1", "second"), None)
            .await
            .unwrap();
        assert_eq!(
            store
                .find_project("t1", "p2")
                .await
                .unwrap()
                .unwrap()
                .project_id,
            "p2"
        );
        assert_eq!(
            store
                .find_project("t1", "second")
                .await
                .unwrap()
                .unwrap()
                .project_id,
            "p2"
        );
        assert!(store.find_project("t2", "p1").await.unwrap().is_none());

        let mut saved = store.find_project("t1", "p1").await.unwrap().unwrap();
        saved.name = "Renamed".to_owned();
        saved.status = ProjectStatus::Archived;
        saved.project_types = vec![ProjectType::Monitoring];
        saved.project_type_other_reason = None;
        saved.project_purpose = Some("find guests".to_owned());
        saved.project_keywords = Vec::new();
        saved.last_updated = at(60);
        store.save_project(&saved).await.unwrap();
        assert_eq!(
            store.find_project("t1", "p1").await.unwrap().unwrap(),
            saved
        );

        store
            .add_listed(listed("l1", "p1", "pod1", 1), None)
            .await
            .unwrap();
        assert!(!store.delete_project("t2", "p1").await.unwrap());
        assert!(store.delete_project("t1", "p1").await.unwrap());
        assert!(store.find_project("t1", "p1").await.unwrap().is_none());
        assert!(store.listed_podcasts("p1").await.unwrap().is_empty());
        assert!(store.project_activity("p1").await.unwrap().is_empty());
        assert!(!store.delete_project("t1", "p1").await.unwrap());
    }

    #[tokio::test]
    async fn listed_podcasts_keep_their_activity_in_order() {
        let store = memory_store();
        store
            .create_project(project("p1", "t1", "tour"), None)
            .await
            .unwrap();
        let CapCheck::Done(first) = store
            .add_listed(listed("l1", "p1", "pod1", 10), Some(2))
            .await
            .unwrap()
        else {
            panic!("under the cap");
        };
        assert_eq!(first, listed("l1", "p1", "pod1", 10).row);
        let duplicate = store
            .add_listed(listed("l9", "p1", "pod1", 11), Some(2))
            .await
            .unwrap_err();
        assert_eq!(
            duplicate.to_string(),
            AppError::Invalid("Podcast pod1 is already listed in this project".into()).to_string()
        );
        store
            .add_listed(listed("l2", "p1", "pod2", 5), Some(2))
            .await
            .unwrap();
        assert_eq!(
            store
                .add_listed(listed("l3", "p1", "pod3", 12), Some(2))
                .await
                .unwrap(),
            CapCheck::CapReached { limit: 2 }
        );
        assert_eq!(
            store
                .listed_podcasts("p1")
                .await
                .unwrap()
                .iter()
                .map(|row| row.listed_podcast_id.as_str())
                .collect::<Vec<_>>(),
            ["l2", "l1"]
        );
        assert_eq!(
            store.team_listings("t1").await.unwrap(),
            [
                TeamListing {
                    podcast_id: "pod2".into(),
                    project_id: "p1".into(),
                    added_by_user_id: "u1".into(),
                    status: ListedPodcastStatus::Prospect,
                },
                TeamListing {
                    podcast_id: "pod1".into(),
                    project_id: "p1".into(),
                    added_by_user_id: "u1".into(),
                    status: ListedPodcastStatus::Prospect,
                },
            ]
        );

        let mut row = store.find_listed("p1", "l1").await.unwrap().unwrap();
        row.status = ListedPodcastStatus::Pitched;
        row.priority = Some(Priority::High);
        row.labels = vec![ListedPodcastLabel::GuestAppearance, ListedPodcastLabel::Mcp];
        row.updated_at = at(30);
        let changes = [
            entry(ActivityActionType::UpdateState, 30, "pitched"),
            entry(ActivityActionType::UpdatePriority, 30, "high"),
        ];
        store.update_listed(&row, &changes).await.unwrap();
        assert_eq!(store.find_listed("p1", "l1").await.unwrap().unwrap(), row);
        assert!(store.find_listed("p2", "l1").await.unwrap().is_none());
        assert_eq!(
            store
                .find_project("t1", "p1")
                .await
                .unwrap()
                .unwrap()
                .last_updated,
            at(30)
        );

        store
            .set_listed_relevancy("p1", "pod1", 0.75)
            .await
            .unwrap();
        assert_eq!(
            store
                .find_listed("p1", "l1")
                .await
                .unwrap()
                .unwrap()
                .relevancy_score,
            Some(0.75)
        );

        let activity = store.project_activity("p1").await.unwrap();
        let seen: Vec<(&str, ActivityActionType)> = activity
            .iter()
            .map(|a| (a.listed_podcast_id.as_str(), a.entry.action_type))
            .collect();
        assert_eq!(
            seen,
            [
                ("l2", ActivityActionType::AddedToList),
                ("l1", ActivityActionType::AddedToList),
                ("l1", ActivityActionType::UpdateState),
                ("l1", ActivityActionType::UpdatePriority),
            ]
        );
        assert_eq!(activity[2].entry, changes[0]);

        assert!(!store.remove_listed("p1", "l9", at(40)).await.unwrap());
        assert!(store.remove_listed("p1", "l1", at(40)).await.unwrap());
        assert!(store.find_listed("p1", "l1").await.unwrap().is_none());
        assert_eq!(store.project_activity("p1").await.unwrap().len(), 1);
        assert_eq!(
            store
                .find_project("t1", "p1")
                .await
                .unwrap()
                .unwrap()
                .last_updated,
            at(40)
        );
    }

    fn outreach(id: &str, podcast_id: &str, guest: Option<&str>, second: i64) -> OutreachRow {
        OutreachRow {
            outreach_id: id.to_owned(),
            team_id: "t1".to_owned(),
            user_id: "u1".to_owned(),
            podcast_id: podcast_id.to_owned(),
            podcast_title: "A podcast".to_owned(),
            podcast_slug: "a-podcast".to_owned(),
            podcast_image_url: Some("https://img.example/a.png".to_owned()),
            project_id: None,
            guest_profile_id: guest.map(str::to_owned),
            guest: guest.map(|id| OutreachGuest {
                id: id.to_owned(),
                name: "Grace".to_owned(),
                slug: "grace".to_owned(),
            }),
            subject: "Hello".to_owned(),
            body: "Dear host".to_owned(),
            options: OutreachOptions {
                perspective: podlens_model::enums::OutreachPerspective::First,
                email_length: EmailLength::Short,
                call_to_action_style: CallToActionStyle::Light,
                personalization_level: PersonalizationLevel::Heavy,
                generation_mode: Default::default(),
                outreach_template_id: None,
            },
            created_at: at(second),
        }
    }

    #[tokio::test]
    async fn outreach_history_is_newest_first_and_filtered() {
        let store = memory_store();
        for row in [
            outreach("o1", "pod1", None, 1),
            outreach("o2", "pod1", Some("g1"), 2),
            outreach("o3", "pod2", Some("g1"), 3),
        ] {
            store.insert_outreach(&row).await.unwrap();
        }
        let ids = |rows: Vec<OutreachRow>| {
            rows.into_iter()
                .map(|row| row.outreach_id)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            ids(store.outreach_history("t1", None, None).await.unwrap()),
            ["o3", "o2", "o1"]
        );
        assert_eq!(
            ids(store
                .outreach_history("t1", Some("pod1"), None)
                .await
                .unwrap()),
            ["o2", "o1"]
        );
        assert_eq!(
            ids(store
                .outreach_history("t1", None, Some("g1"))
                .await
                .unwrap()),
            ["o3", "o2"]
        );
        assert_eq!(
            ids(store
                .outreach_history("t1", Some("pod1"), Some("g1"))
                .await
                .unwrap()),
            ["o2"]
        );
        assert!(
            store
                .outreach_history("t2", None, None)
                .await
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            store.find_outreach("t1", "o2").await.unwrap(),
            Some(outreach("o2", "pod1", Some("g1"), 2))
        );
        assert_eq!(store.find_outreach("t2", "o2").await.unwrap(), None);
    }

    #[tokio::test]
    async fn a_search_is_found_for_its_team_only() {
        let store = memory_store();
        store
            .db
            .wait(
                sqlx::query("INSERT INTO search_history VALUES ($1, $2, $3, $4, $5, $6, $7)")
                    .bind("s1")
                    .bind("user:u1")
                    .bind("t1")
                    .bind("podcasts")
                    .bind("{\"q\":\"rust\"}")
                    .bind(3_i64)
                    .bind(time_text(at(0)))
                    .execute(store.db.writer()),
            )
            .unwrap();
        assert_eq!(
            store.search_of_team("s1", "t1").await.unwrap(),
            Some(("podcasts".to_owned(), "{\"q\":\"rust\"}".to_owned()))
        );
        assert_eq!(store.search_of_team("s1", "t2").await.unwrap(), None);
    }
}

//! Stored workflow documents: alert configs and matches, guest profiles and their
//! uploads, transcription requests, search strategies, relevancy answers, custom
//! prompts, episode deep analyses, user preferences and team settings. Each is a
//! JSON document in `workflow_documents`, keyed by kind and id, with the team, an
//! optional parent (project, guest profile, alert config) and timestamps as columns so
//! lists and plan caps are plain queries.

use duckdb::{Connection, OptionalExt, params};
use podlens_model::entities::Timestamp;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::CapCheck;
use super::store::{WorkflowStore, db_error};
use crate::error::{ApiError, ApiResult};

/// What a stored document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocKind {
    AlertConfig,
    AlertMatch,
    GuestProfile,
    GuestDocument,
    TranscriptionRequest,
    TranscriptionFollow,
    Strategy,
    Relevancy,
    CustomPrompt,
    DeepAnalysis,
    UserPreferences,
    TeamSettings,
    OutreachTemplate,
}

impl DocKind {
    pub fn as_str(self) -> &'static str {
        match self {
            DocKind::AlertConfig => "alert_config",
            DocKind::AlertMatch => "alert_match",
            DocKind::GuestProfile => "guest_profile",
            DocKind::GuestDocument => "guest_document",
            DocKind::TranscriptionRequest => "transcription_request",
            DocKind::TranscriptionFollow => "transcription_follow",
            DocKind::Strategy => "strategy",
            DocKind::Relevancy => "relevancy",
            DocKind::CustomPrompt => "custom_prompt",
            DocKind::DeepAnalysis => "deep_analysis",
            DocKind::UserPreferences => "user_preferences",
            DocKind::TeamSettings => "team_settings",
            DocKind::OutreachTemplate => "outreach_template",
        }
    }
}

/// One stored document with its columns.
#[derive(Debug, Clone, PartialEq)]
pub struct Stored<T> {
    pub id: String,
    pub team_id: String,
    pub parent_id: Option<String>,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
    pub deleted: bool,
    pub value: T,
}

/// Which documents of a kind a query returns.
#[derive(Debug, Clone, Default)]
pub struct DocFilter<'a> {
    pub team_id: Option<&'a str>,
    pub parent_id: Option<&'a str>,
    pub include_deleted: bool,
}

const COLUMNS: &str = "doc_id, team_id, parent_id, created_at, updated_at, deleted, doc";

type RawDoc = (
    String,
    String,
    Option<String>,
    Timestamp,
    Timestamp,
    bool,
    String,
);

fn read_raw(row: &duckdb::Row<'_>) -> duckdb::Result<RawDoc> {
    Ok((
        row.get(0)?,
        row.get(1)?,
        row.get(2)?,
        row.get(3)?,
        row.get(4)?,
        row.get(5)?,
        row.get(6)?,
    ))
}

fn decode<T: DeserializeOwned>(kind: DocKind, raw: RawDoc) -> ApiResult<Stored<T>> {
    let (id, team_id, parent_id, created_at, updated_at, deleted, doc) = raw;
    let value = serde_json::from_str(&doc).map_err(|error| {
        ApiError::Internal(format!("stored {} {id} unreadable: {error}", kind.as_str()))
    })?;
    Ok(Stored {
        id,
        team_id,
        parent_id,
        created_at,
        updated_at,
        deleted,
        value,
    })
}

fn encode<T: Serialize>(value: &T) -> ApiResult<String> {
    serde_json::to_string(value).map_err(ApiError::internal)
}

fn insert_sql(conflict: &str) -> String {
    format!(
        "INSERT INTO workflow_documents (kind, {COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?) {conflict}"
    )
}

/// Inserts `doc` with `conflict` as the statement's conflict clause; the rows written.
pub(super) fn insert_doc<T: Serialize>(
    connection: &Connection,
    conflict: &str,
    kind: DocKind,
    doc: &Stored<T>,
) -> ApiResult<usize> {
    connection
        .execute(
            &insert_sql(conflict),
            params![
                kind.as_str(),
                doc.id,
                doc.team_id,
                doc.parent_id,
                doc.created_at,
                doc.updated_at,
                doc.deleted,
                encode(&doc.value)?
            ],
        )
        .map_err(db_error)
}

impl WorkflowStore {
    /// Writes a document, replacing the stored one with the same kind and id.
    pub fn put_doc<T: Serialize>(&self, kind: DocKind, doc: &Stored<T>) -> ApiResult<()> {
        let connection = self.lock()?;
        insert_doc(
            &connection,
            "ON CONFLICT (kind, doc_id) DO UPDATE SET team_id = excluded.team_id,
                     parent_id = excluded.parent_id, updated_at = excluded.updated_at,
                     deleted = excluded.deleted, doc = excluded.doc",
            kind,
            doc,
        )?;
        Ok(())
    }

    /// Merges `patch` (an RFC 7396 JSON merge patch) into a stored document in one
    /// statement, so a concurrent whole-document update is never overwritten with stale
    /// fields. True when the document exists.
    pub fn merge_into_doc(&self, kind: DocKind, id: &str, patch: &Value) -> ApiResult<bool> {
        let connection = self.lock()?;
        let changed = connection
            .execute(
                "UPDATE workflow_documents
                 SET doc = json_merge_patch(doc, ?::JSON)::VARCHAR
                 WHERE kind = ? AND doc_id = ?",
                params![patch.to_string(), kind.as_str(), id],
            )
            .map_err(db_error)?;
        Ok(changed > 0)
    }

    /// Writes a document unless one with the same kind and id exists; true when written.
    pub fn insert_doc_if_absent<T: Serialize>(
        &self,
        kind: DocKind,
        doc: &Stored<T>,
    ) -> ApiResult<bool> {
        let connection = self.lock()?;
        let written = insert_doc(
            &connection,
            "ON CONFLICT (kind, doc_id) DO NOTHING",
            kind,
            doc,
        )?;
        Ok(written > 0)
    }

    /// Writes a new document unless the team already holds `cap` live documents of the
    /// kind (deleted ones do not count).
    pub fn insert_doc_capped<T: Serialize>(
        &self,
        kind: DocKind,
        doc: &Stored<T>,
        cap: Option<u64>,
    ) -> ApiResult<CapCheck<()>> {
        let connection = self.lock()?;
        let count: i64 = connection
            .query_row(
                "SELECT count(*) FROM workflow_documents
                 WHERE kind = ? AND team_id = ? AND NOT deleted",
                params![kind.as_str(), doc.team_id],
                |row| row.get(0),
            )
            .map_err(db_error)?;
        if let Some(limit) = cap
            && u64::try_from(count).unwrap_or(0) >= limit
        {
            return Ok(CapCheck::CapReached { limit });
        }
        insert_doc(&connection, "", kind, doc)?;
        Ok(CapCheck::Done(()))
    }

    /// One document by id, within a team when `team_id` is given (deleted ones too).
    pub fn get_doc<T: DeserializeOwned>(
        &self,
        kind: DocKind,
        team_id: Option<&str>,
        id: &str,
    ) -> ApiResult<Option<Stored<T>>> {
        let connection = self.lock()?;
        let raw = connection
            .query_row(
                &format!(
                    "SELECT {COLUMNS} FROM workflow_documents
                     WHERE kind = ? AND doc_id = ? AND (?::VARCHAR IS NULL OR team_id = ?)"
                ),
                params![kind.as_str(), id, team_id, team_id],
                read_raw,
            )
            .optional()
            .map_err(db_error)?;
        raw.map(|raw| decode(kind, raw)).transpose()
    }

    /// Documents of a kind, oldest first.
    pub fn list_docs<T: DeserializeOwned>(
        &self,
        kind: DocKind,
        filter: &DocFilter<'_>,
    ) -> ApiResult<Vec<Stored<T>>> {
        let connection = self.lock()?;
        let mut statement = connection
            .prepare(&format!(
                "SELECT {COLUMNS} FROM workflow_documents
                 WHERE kind = ? AND (?::VARCHAR IS NULL OR team_id = ?)
                   AND (?::VARCHAR IS NULL OR parent_id = ?) AND (? OR NOT deleted)
                 ORDER BY created_at, doc_id"
            ))
            .map_err(db_error)?;
        let raw = statement
            .query_map(
                params![
                    kind.as_str(),
                    filter.team_id,
                    filter.team_id,
                    filter.parent_id,
                    filter.parent_id,
                    filter.include_deleted
                ],
                read_raw,
            )
            .map_err(db_error)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(db_error)?;
        raw.into_iter().map(|raw| decode(kind, raw)).collect()
    }

    /// Removes a document for good; true when one was removed.
    pub fn remove_doc(&self, kind: DocKind, team_id: &str, id: &str) -> ApiResult<bool> {
        let connection = self.lock()?;
        let removed = connection
            .execute(
                "DELETE FROM workflow_documents WHERE kind = ? AND doc_id = ? AND team_id = ?",
                params![kind.as_str(), id, team_id],
            )
            .map_err(db_error)?;
        Ok(removed > 0)
    }

    /// The ids of the teams that hold live documents of a kind.
    pub fn teams_with(&self, kind: DocKind) -> ApiResult<Vec<String>> {
        let connection = self.lock()?;
        let mut statement = connection
            .prepare(
                "SELECT DISTINCT team_id FROM workflow_documents
                 WHERE kind = ? AND NOT deleted ORDER BY team_id",
            )
            .map_err(db_error)?;
        let teams = statement
            .query_map(params![kind.as_str()], |row| row.get::<_, String>(0))
            .map_err(db_error)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(db_error)?;
        Ok(teams)
    }

    /// Records a relevancy score on a podcast's listing in a project (if listed).
    pub fn set_listed_relevancy(
        &self,
        project_id: &str,
        podcast_id: &str,
        score: f64,
    ) -> ApiResult<()> {
        let connection = self.lock()?;
        connection
            .execute(
                "UPDATE listed_podcasts SET relevancy_score = ?
                 WHERE project_id = ? AND podcast_id = ?",
                params![score, project_id, podcast_id],
            )
            .map_err(db_error)?;
        Ok(())
    }
}

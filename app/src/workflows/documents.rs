//! Stored workflow documents: alert configs and matches, guest profiles and their
//! uploads, transcription requests, search strategies, relevancy answers, custom
//! prompts, episode deep analyses, user preferences and team settings. Each is a
//! JSON document in `workflow_documents`, keyed by kind and id, with the team, an
//! optional parent (project, guest profile, alert config) and timestamps as columns so
//! lists and plan caps are plain queries.

use podlens_model::entities::Timestamp;
use podlens_store::{Backend, count, time_at, time_text};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use sqlx::any::{AnyArguments, AnyRow};
use sqlx::query::Query;
use sqlx::{Any, AssertSqlSafe, Row};

use super::CapCheck;
use super::store::WorkflowStore;
use crate::error::{AppError, AppResult};

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

impl<T> Stored<T> {
    /// A live document of a team, without a parent, created and updated `at`.
    pub fn new(id: String, team_id: String, at: Timestamp, value: T) -> Stored<T> {
        Stored {
            id,
            team_id,
            parent_id: None,
            created_at: at,
            updated_at: at,
            deleted: false,
            value,
        }
    }
}

/// Which documents of a kind a query returns.
#[derive(Debug, Clone, Default)]
pub struct DocFilter<'a> {
    pub team_id: Option<&'a str>,
    pub parent_id: Option<&'a str>,
    pub include_deleted: bool,
}

const COLUMNS: &str = "doc_id, team_id, parent_id, created_at, updated_at, deleted, doc";

/// The conflict clause that keeps the stored document.
pub(super) const ON_CONFLICT_SKIP: &str = "ON CONFLICT (kind, doc_id) DO NOTHING";
/// The conflict clause that replaces the stored document.
const ON_CONFLICT_REPLACE: &str =
    "ON CONFLICT (kind, doc_id) DO UPDATE SET team_id = excluded.team_id,
    parent_id = excluded.parent_id, updated_at = excluded.updated_at,
    deleted = excluded.deleted, doc = excluded.doc";

fn decode<T: DeserializeOwned>(kind: DocKind, row: &AnyRow) -> AppResult<Stored<T>> {
    let id: String = row.try_get("doc_id")?;
    let value = serde_json::from_str(&row.try_get::<String, _>("doc")?).map_err(|error| {
        AppError::Internal(format!("stored {} {id} unreadable: {error}", kind.as_str()))
    })?;
    Ok(Stored {
        team_id: row.try_get("team_id")?,
        parent_id: row.try_get("parent_id")?,
        created_at: time_at(row, "created_at")?,
        updated_at: time_at(row, "updated_at")?,
        deleted: row.try_get::<i64, _>("deleted")? != 0,
        id,
        value,
    })
}

fn encode<T: Serialize>(value: &T) -> AppResult<String> {
    serde_json::to_string(value).map_err(AppError::internal)
}

/// The statement that inserts `doc` with `conflict` as its conflict clause, its values
/// bound (the document encoded).
pub(super) fn insert_doc_query<T: Serialize>(
    kind: DocKind,
    doc: &Stored<T>,
    conflict: &str,
) -> AppResult<Query<'static, Any, AnyArguments>> {
    Ok(sqlx::query(AssertSqlSafe(format!(
        "INSERT INTO workflow_documents (kind, {COLUMNS})
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) {conflict}"
    )))
    .bind(kind.as_str())
    .bind(doc.id.clone())
    .bind(doc.team_id.clone())
    .bind(doc.parent_id.clone())
    .bind(time_text(doc.created_at))
    .bind(time_text(doc.updated_at))
    .bind(i64::from(doc.deleted))
    .bind(encode(&doc.value)?))
}

/// `patch` merged into `target` as RFC 7396 says: an object patch merges member by
/// member (a null member removes it), anything else replaces the target.
fn merge_patch(target: &mut Value, patch: &Value) {
    let Value::Object(members) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    if let Value::Object(target) = target {
        for (name, value) in members {
            if value.is_null() {
                target.remove(name);
            } else {
                merge_patch(target.entry(name.as_str()).or_insert(Value::Null), value);
            }
        }
    }
}

/// The outcome of an insert guarded by a storage quota.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StorageCheck {
    Stored,
    /// Nothing was written: the team's documents of the kind already hold `used`
    /// bytes, and the new ones would take them past the quota.
    QuotaExceeded {
        used: u64,
    },
}

/// The lock a team's documents of a kind are counted and written under.
fn team_lock(kind: DocKind, team_id: &str) -> String {
    format!("workflow_documents:{}:{team_id}", kind.as_str())
}

impl WorkflowStore {
    /// Writes a document, replacing the stored one with the same kind and id.
    pub async fn put_doc<T: Serialize>(&self, kind: DocKind, doc: &Stored<T>) -> AppResult<()> {
        let database = self.database();
        let insert = insert_doc_query(kind, doc, ON_CONFLICT_REPLACE)?;
        database.run(insert.execute(database.writer())).await?;
        Ok(())
    }

    /// Merges `patch` (an RFC 7396 JSON merge patch) into a stored document: read,
    /// merged and written back in one write transaction that holds the document's row
    /// (SQLite's write lock; `FOR UPDATE` on PostgreSQL), so a concurrent
    /// whole-document update is never overwritten with stale fields. True when the
    /// document exists.
    pub async fn merge_into_doc(&self, kind: DocKind, id: &str, patch: &Value) -> AppResult<bool> {
        self.merge(kind, id, patch, None).await
    }

    /// [`WorkflowStore::merge_into_doc`], and the document's update time set to `at`.
    pub async fn merge_into_doc_at(
        &self,
        kind: DocKind,
        id: &str,
        patch: &Value,
        at: Timestamp,
    ) -> AppResult<bool> {
        self.merge(kind, id, patch, Some(at)).await
    }

    async fn merge(
        &self,
        kind: DocKind,
        id: &str,
        patch: &Value,
        at: Option<Timestamp>,
    ) -> AppResult<bool> {
        let database = self.database();
        let select = match database.backend() {
            Backend::Sqlite => "SELECT doc FROM workflow_documents WHERE kind = $1 AND doc_id = $2",
            Backend::Postgres => {
                "SELECT doc FROM workflow_documents WHERE kind = $1 AND doc_id = $2 FOR UPDATE"
            }
        };
        database
            .run(async {
                let mut tx = database.begin_write().await?;
                let Some(row) = sqlx::query(select)
                    .bind(kind.as_str())
                    .bind(id)
                    .fetch_optional(&mut *tx)
                    .await?
                else {
                    return Ok(false);
                };
                let mut doc: Value =
                    serde_json::from_str(&row.try_get::<String, _>(0)?).map_err(|error| {
                        AppError::Internal(format!(
                            "stored {} {id} unreadable: {error}",
                            kind.as_str()
                        ))
                    })?;
                merge_patch(&mut doc, patch);
                sqlx::query(
                    "UPDATE workflow_documents
                     SET doc = $1, updated_at = COALESCE(CAST($4 AS TEXT), updated_at)
                     WHERE kind = $2 AND doc_id = $3",
                )
                .bind(doc.to_string())
                .bind(kind.as_str())
                .bind(id)
                .bind(at.map(time_text))
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok::<_, AppError>(true)
            })
            .await
    }

    /// Writes a document unless one with the same kind and id exists; true when written.
    pub async fn insert_doc_if_absent<T: Serialize>(
        &self,
        kind: DocKind,
        doc: &Stored<T>,
    ) -> AppResult<bool> {
        let database = self.database();
        let insert = insert_doc_query(kind, doc, ON_CONFLICT_SKIP)?;
        let written = database.run(insert.execute(database.writer())).await?;
        Ok(written.rows_affected() > 0)
    }

    /// Writes a new document unless the team already holds `cap` live documents of the
    /// kind (deleted ones do not count). The count and the insert run in one write
    /// transaction holding the team's lock for the kind.
    pub async fn insert_doc_capped<T: Serialize>(
        &self,
        kind: DocKind,
        doc: &Stored<T>,
        cap: Option<u64>,
    ) -> AppResult<CapCheck<()>> {
        let database = self.database();
        let insert = insert_doc_query(kind, doc, "")?;
        let team_id = doc.team_id.as_str();
        database
            .run(async {
                let mut tx = database.begin_write().await?;
                database.lock(&mut tx, &team_lock(kind, team_id)).await?;
                let count = count(
                    sqlx::query(
                        "SELECT COUNT(*) FROM workflow_documents
                 WHERE kind = $1 AND team_id = $2 AND deleted = 0",
                    )
                    .bind(kind.as_str())
                    .bind(team_id),
                    &mut *tx,
                )
                .await?;
                if let Some(limit) = cap
                    && count >= limit
                {
                    return Ok(CapCheck::CapReached { limit });
                }
                insert.execute(&mut *tx).await?;
                tx.commit().await?;
                Ok::<_, AppError>(CapCheck::Done(()))
            })
            .await
    }

    /// Writes new documents of one team unless their `bytes` and the sizes (the
    /// documents' `size` field) of the team's live documents of the kind together pass
    /// `quota`. The sum and the inserts run in one write transaction holding the team's
    /// lock for the kind, so uploads at once cannot pass the quota between them.
    pub async fn insert_docs_within_quota<T: Serialize>(
        &self,
        kind: DocKind,
        docs: &[Stored<T>],
        bytes: u64,
        quota: u64,
    ) -> AppResult<StorageCheck> {
        let Some(first) = docs.first() else {
            return Ok(StorageCheck::Stored);
        };
        let team_id = first.team_id.as_str();
        if docs.iter().any(|doc| doc.team_id != team_id) {
            return Err(AppError::Internal(
                "documents of several teams in one quota check".into(),
            ));
        }
        let inserts = docs
            .iter()
            .map(|doc| insert_doc_query(kind, doc, ""))
            .collect::<AppResult<Vec<_>>>()?;
        let database = self.database();
        let used_query = match database.backend() {
            Backend::Sqlite => {
                "SELECT COALESCE(SUM(CAST(json_extract(doc, '$.size') AS INTEGER)), 0)
                 FROM workflow_documents WHERE kind = $1 AND team_id = $2 AND deleted = 0"
            }
            Backend::Postgres => {
                "SELECT CAST(COALESCE(SUM(CAST(doc::jsonb->>'size' AS BIGINT)), 0) AS BIGINT)
                 FROM workflow_documents WHERE kind = $1 AND team_id = $2 AND deleted = 0"
            }
        };
        database
            .run(async {
                let mut tx = database.begin_write().await?;
                database.lock(&mut tx, &team_lock(kind, team_id)).await?;
                let used = count(
                    sqlx::query(used_query).bind(kind.as_str()).bind(team_id),
                    &mut *tx,
                )
                .await?;
                if used.saturating_add(bytes) > quota {
                    return Ok(StorageCheck::QuotaExceeded { used });
                }
                for insert in inserts {
                    insert.execute(&mut *tx).await?;
                }
                tx.commit().await?;
                Ok::<_, AppError>(StorageCheck::Stored)
            })
            .await
    }

    /// Replaces a live (not deleted) document of its team, in one write transaction
    /// holding the team's lock for the kind, as [`WorkflowStore::insert_doc_capped`]
    /// takes it: a document deleted meanwhile stays deleted. A whole-document write
    /// from a read made before the delete would bring it back, past the team's cap (a
    /// new one counted while it was gone). True when it was live and is written.
    pub async fn update_live_doc<T: Serialize>(
        &self,
        kind: DocKind,
        doc: &Stored<T>,
    ) -> AppResult<bool> {
        let database = self.database();
        let team_id = doc.team_id.as_str();
        let value = encode(&doc.value)?;
        let (doc_id, parent_id, updated_at) = (
            doc.id.clone(),
            doc.parent_id.clone(),
            time_text(doc.updated_at),
        );
        database
            .run(async {
                let mut tx = database.begin_write().await?;
                database.lock(&mut tx, &team_lock(kind, team_id)).await?;
                let updated = sqlx::query(
                    "UPDATE workflow_documents SET parent_id = $1, updated_at = $2, doc = $3
                 WHERE kind = $4 AND doc_id = $5 AND team_id = $6 AND deleted = 0",
                )
                .bind(parent_id)
                .bind(updated_at)
                .bind(value)
                .bind(kind.as_str())
                .bind(doc_id)
                .bind(team_id)
                .execute(&mut *tx)
                .await?
                .rows_affected();
                tx.commit().await?;
                Ok::<_, AppError>(updated > 0)
            })
            .await
    }

    /// One document by id, within a team when `team_id` is given (deleted ones too).
    pub async fn get_doc<T: DeserializeOwned>(
        &self,
        kind: DocKind,
        team_id: Option<&str>,
        id: &str,
    ) -> AppResult<Option<Stored<T>>> {
        let database = self.database();
        let row = database
            .run(
                sqlx::query(AssertSqlSafe(format!(
                    "SELECT {COLUMNS} FROM workflow_documents
                 WHERE kind = $1 AND doc_id = $2
                   AND (CAST($3 AS TEXT) IS NULL OR team_id = $3)"
                )))
                .bind(kind.as_str())
                .bind(id)
                .bind(team_id)
                .fetch_optional(database.pool()),
            )
            .await?;
        row.map(|row| decode(kind, &row)).transpose()
    }

    /// One live (not deleted) document of a team by id.
    pub async fn get_live_doc<T: DeserializeOwned>(
        &self,
        kind: DocKind,
        team_id: &str,
        id: &str,
    ) -> AppResult<Option<Stored<T>>> {
        Ok(self
            .get_doc(kind, Some(team_id), id)
            .await?
            .filter(|doc: &Stored<T>| !doc.deleted))
    }

    /// Documents of a kind, oldest first.
    pub async fn list_docs<T: DeserializeOwned>(
        &self,
        kind: DocKind,
        filter: &DocFilter<'_>,
    ) -> AppResult<Vec<Stored<T>>> {
        let database = self.database();
        let rows = database
            .run(
                sqlx::query(AssertSqlSafe(format!(
                    "SELECT {COLUMNS} FROM workflow_documents
                 WHERE kind = $1 AND (CAST($2 AS TEXT) IS NULL OR team_id = $2)
                   AND (CAST($3 AS TEXT) IS NULL OR parent_id = $3)
                   AND ($4 = 1 OR deleted = 0)
                 ORDER BY created_at, doc_id"
                )))
                .bind(kind.as_str())
                .bind(filter.team_id)
                .bind(filter.parent_id)
                .bind(i64::from(filter.include_deleted))
                .fetch_all(database.pool()),
            )
            .await?;
        rows.iter().map(|row| decode(kind, row)).collect()
    }

    /// Removes a document for good; true when one was removed.
    pub async fn remove_doc(&self, kind: DocKind, team_id: &str, id: &str) -> AppResult<bool> {
        let database = self.database();
        let removed = database.run(
            sqlx::query(
                "DELETE FROM workflow_documents WHERE kind = $1 AND doc_id = $2 AND team_id = $3",
            )
            .bind(kind.as_str())
            .bind(id)
            .bind(team_id)
            .execute(database.writer()),
        ).await?;
        Ok(removed.rows_affected() > 0)
    }

    /// The ids of the teams that hold live documents of a kind.
    pub async fn teams_with(&self, kind: DocKind) -> AppResult<Vec<String>> {
        let database = self.database();
        let rows = database
            .run(
                sqlx::query(
                    "SELECT DISTINCT team_id FROM workflow_documents
                 WHERE kind = $1 AND deleted = 0 ORDER BY team_id",
                )
                .bind(kind.as_str())
                .fetch_all(database.pool()),
            )
            .await?;
        Ok(rows
            .iter()
            .map(|row| row.try_get(0))
            .collect::<Result<Vec<String>, _>>()?)
    }

    /// Records a relevancy score on a podcast's listing in a project (if listed).
    pub async fn set_listed_relevancy(
        &self,
        project_id: &str,
        podcast_id: &str,
        score: f64,
    ) -> AppResult<()> {
        let database = self.database();
        database
            .run(
                sqlx::query(
                    "UPDATE listed_podcasts SET relevancy_score = $1
                 WHERE project_id = $2 AND podcast_id = $3",
                )
                .bind(score)
                .bind(project_id)
                .bind(podcast_id)
                .execute(database.writer()),
            )
            .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::workflows::store::tests::{at, memory_store};

    fn doc(id: &str, team_id: &str, parent_id: Option<&str>, second: i64) -> Stored<Value> {
        Stored {
            id: id.to_owned(),
            team_id: team_id.to_owned(),
            parent_id: parent_id.map(str::to_owned),
            created_at: at(second),
            updated_at: at(second),
            deleted: false,
            value: json!({"name": id, "settings": {"a": 1, "b": 2}}),
        }
    }

    fn ids(docs: Vec<Stored<Value>>) -> Vec<String> {
        docs.into_iter().map(|doc| doc.id).collect()
    }

    /// Confirmed, then fixed: an alert PATCH read the alert, and wrote the whole
    /// document back live. An alert deleted between the read and the write, with a new
    /// one created in its place under the cap, came back: the team held one more alert
    /// than its plan allows. `update_live_doc` writes only while the alert is live,
    /// under the lock the capped insert takes.
    #[tokio::test]
    async fn a_patch_read_before_a_delete_cannot_bring_the_alert_back_past_the_cap() {
        let store = memory_store();
        let cap = Some(2);
        for id in ["a1", "a2"] {
            let created = store
                .insert_doc_capped(DocKind::AlertConfig, &doc(id, "t1", None, 1), cap)
                .await
                .unwrap();
            assert!(matches!(created, CapCheck::Done(())));
        }
        // The PATCH reads a1 ...
        let mut read: Stored<Value> = store
            .get_doc(DocKind::AlertConfig, Some("t1"), "a1")
            .await
            .unwrap()
            .unwrap();
        // ... a DELETE of a1 and a creation of a3 run meanwhile ...
        let deleted = Stored {
            deleted: true,
            ..read.clone()
        };
        store.put_doc(DocKind::AlertConfig, &deleted).await.unwrap();
        let created = store
            .insert_doc_capped(DocKind::AlertConfig, &doc("a3", "t1", None, 2), cap)
            .await
            .unwrap();
        assert!(matches!(created, CapCheck::Done(())));
        read.value["name"] = json!("renamed");
        read.updated_at = at(3);
        let live = |store: &WorkflowStore| {
            store
                .wait(store.list_docs::<Value>(
                    DocKind::AlertConfig,
                    &DocFilter {
                        team_id: Some("t1"),
                        ..DocFilter::default()
                    },
                ))
                .unwrap()
                .len()
        };
        // ... and the PATCH writes what it read.
        assert!(
            !store
                .update_live_doc(DocKind::AlertConfig, &read)
                .await
                .unwrap(),
            "the deleted alert is not written"
        );
        assert_eq!(live(&store), 2, "the team stays at its cap");
        // The whole-document write the PATCH used to make brings it back: 3 of 2.
        let stale = memory_store();
        for id in ["a2", "a3"] {
            stale
                .insert_doc_capped(DocKind::AlertConfig, &doc(id, "t1", None, 1), cap)
                .await
                .unwrap();
        }
        stale.put_doc(DocKind::AlertConfig, &deleted).await.unwrap();
        stale.put_doc(DocKind::AlertConfig, &read).await.unwrap();
        assert_eq!(live(&stale), 3);
        // A live alert is written, and only in its own team.
        let mut a2: Stored<Value> = store
            .get_doc(DocKind::AlertConfig, Some("t1"), "a2")
            .await
            .unwrap()
            .unwrap();
        a2.value["name"] = json!("kept");
        assert!(
            store
                .update_live_doc(DocKind::AlertConfig, &a2)
                .await
                .unwrap()
        );
        let other_team = Stored {
            team_id: "t2".into(),
            ..a2.clone()
        };
        assert!(
            !store
                .update_live_doc(DocKind::AlertConfig, &other_team)
                .await
                .unwrap()
        );
        let stored: Stored<Value> = store
            .get_doc(DocKind::AlertConfig, Some("t1"), "a2")
            .await
            .unwrap()
            .unwrap();
        assert_eq!(stored.value["name"], "kept");
    }

    #[test]
    fn merge_patches_follow_rfc_7396() {
        // RFC 7396, appendix A (a selection).
        for (target, patch, result) in [
            (json!({"a": "b"}), json!({"a": "c"}), json!({"a": "c"})),
            (
                json!({"a": "b"}),
                json!({"b": "c"}),
                json!({"a": "b", "b": "c"}),
            ),
            (
                json!({"a": "b", "b": "c"}),
                json!({"a": null}),
                json!({"b": "c"}),
            ),
            (json!({"a": ["b"]}), json!({"a": "c"}), json!({"a": "c"})),
            (
                json!({"a": {"b": "c"}}),
                json!({"a": {"b": "d", "c": null}}),
                json!({"a": {"b": "d"}}),
            ),
            (json!(["a", "b"]), json!(["c", "d"]), json!(["c", "d"])),
            (json!({"a": "b"}), json!(["c"]), json!(["c"])),
            (
                json!({"e": null}),
                json!({"a": 1}),
                json!({"e": null, "a": 1}),
            ),
            (
                json!([1, 2]),
                json!({"a": "b", "c": null}),
                json!({"a": "b"}),
            ),
            (
                json!({}),
                json!({"a": {"bb": {"ccc": null}}}),
                json!({"a": {"bb": {}}}),
            ),
        ] {
            let mut merged = target.clone();
            merge_patch(&mut merged, &patch);
            assert_eq!(merged, result, "{target} + {patch}");
        }
    }

    #[tokio::test]
    async fn documents_are_written_read_listed_and_removed() {
        let store = memory_store();
        store
            .put_doc(DocKind::Strategy, &doc("d2", "t1", Some("p1"), 2))
            .await
            .unwrap();
        store
            .put_doc(DocKind::Strategy, &doc("d1", "t1", None, 1))
            .await
            .unwrap();
        store
            .put_doc(DocKind::Strategy, &doc("d3", "t2", Some("p1"), 3))
            .await
            .unwrap();
        store
            .put_doc(DocKind::Relevancy, &doc("d4", "t1", Some("p1"), 4))
            .await
            .unwrap();
        let mut deleted = doc("d5", "t1", Some("p1"), 5);
        deleted.deleted = true;
        store.put_doc(DocKind::Strategy, &deleted).await.unwrap();

        assert_eq!(
            store
                .get_doc::<Value>(DocKind::Strategy, None, "d5")
                .await
                .unwrap(),
            Some(deleted.clone())
        );
        assert_eq!(
            store
                .get_doc::<Value>(DocKind::Strategy, Some("t1"), "d2")
                .await
                .unwrap(),
            Some(doc("d2", "t1", Some("p1"), 2))
        );
        assert_eq!(
            store
                .get_doc::<Value>(DocKind::Strategy, Some("t2"), "d2")
                .await
                .unwrap(),
            None
        );
        assert_eq!(
            store
                .get_doc::<Value>(DocKind::Relevancy, None, "d2")
                .await
                .unwrap(),
            None
        );

        let list = |filter: DocFilter<'_>| {
            ids(store
                .wait(store.list_docs::<Value>(DocKind::Strategy, &filter))
                .unwrap())
        };
        assert_eq!(list(DocFilter::default()), ["d1", "d2", "d3"]);
        assert_eq!(
            list(DocFilter {
                include_deleted: true,
                ..DocFilter::default()
            }),
            ["d1", "d2", "d3", "d5"]
        );
        assert_eq!(
            list(DocFilter {
                team_id: Some("t1"),
                ..DocFilter::default()
            }),
            ["d1", "d2"]
        );
        assert_eq!(
            list(DocFilter {
                parent_id: Some("p1"),
                ..DocFilter::default()
            }),
            ["d2", "d3"]
        );
        assert_eq!(
            list(DocFilter {
                team_id: Some("t1"),
                parent_id: Some("p1"),
                include_deleted: true,
            }),
            ["d2", "d5"]
        );

        // A put replaces everything but the creation time.
        let mut replaced = doc("d2", "t1", None, 2);
        replaced.created_at = at(99);
        replaced.updated_at = at(100);
        replaced.value = json!({"name": "new"});
        store.put_doc(DocKind::Strategy, &replaced).await.unwrap();
        replaced.created_at = at(2);
        assert_eq!(
            store
                .get_doc::<Value>(DocKind::Strategy, None, "d2")
                .await
                .unwrap(),
            Some(replaced)
        );

        assert_eq!(
            store.teams_with(DocKind::Strategy).await.unwrap(),
            ["t1", "t2"]
        );
        assert_eq!(store.teams_with(DocKind::Relevancy).await.unwrap(), ["t1"]);
        assert!(
            store
                .teams_with(DocKind::AlertConfig)
                .await
                .unwrap()
                .is_empty()
        );

        assert!(
            !store
                .remove_doc(DocKind::Strategy, "t2", "d1")
                .await
                .unwrap()
        );
        assert!(
            store
                .remove_doc(DocKind::Strategy, "t1", "d1")
                .await
                .unwrap()
        );
        assert_eq!(
            store
                .get_doc::<Value>(DocKind::Strategy, None, "d1")
                .await
                .unwrap(),
            None
        );
    }

    #[tokio::test]
    async fn inserts_keep_what_is_stored_and_count_live_documents_against_the_cap() {
        let store = memory_store();
        assert!(
            store
                .insert_doc_if_absent(DocKind::CustomPrompt, &doc("d1", "t1", None, 1))
                .await
                .unwrap()
        );
        let mut other = doc("d1", "t1", None, 2);
        other.value = json!({"name": "other"});
        assert!(
            !store
                .insert_doc_if_absent(DocKind::CustomPrompt, &other)
                .await
                .unwrap()
        );
        assert_eq!(
            store
                .get_doc::<Value>(DocKind::CustomPrompt, None, "d1")
                .await
                .unwrap(),
            Some(doc("d1", "t1", None, 1))
        );

        let mut deleted = doc("d2", "t1", None, 2);
        deleted.deleted = true;
        assert_eq!(
            store
                .insert_doc_capped(DocKind::CustomPrompt, &deleted, Some(2))
                .await
                .unwrap(),
            CapCheck::Done(())
        );
        assert_eq!(
            store
                .insert_doc_capped(DocKind::CustomPrompt, &doc("d3", "t1", None, 3), Some(2))
                .await
                .unwrap(),
            CapCheck::Done(())
        );
        assert_eq!(
            store
                .insert_doc_capped(DocKind::CustomPrompt, &doc("d4", "t1", None, 4), Some(2))
                .await
                .unwrap(),
            CapCheck::CapReached { limit: 2 }
        );
        assert_eq!(
            store
                .get_doc::<Value>(DocKind::CustomPrompt, None, "d4")
                .await
                .unwrap(),
            None
        );
        assert_eq!(
            store
                .insert_doc_capped(DocKind::CustomPrompt, &doc("d4", "t2", None, 4), Some(2))
                .await
                .unwrap(),
            CapCheck::Done(())
        );
        assert_eq!(
            store
                .insert_doc_capped(DocKind::CustomPrompt, &doc("d5", "t1", None, 5), None)
                .await
                .unwrap(),
            CapCheck::Done(())
        );
        // An id taken is an error, not a silent replacement.
        assert!(
            store
                .insert_doc_capped(DocKind::CustomPrompt, &other, None)
                .await
                .is_err()
        );
    }

    #[tokio::test]
    async fn a_merge_patch_changes_only_the_fields_it_names() {
        let store = memory_store();
        store
            .put_doc(DocKind::TeamSettings, &doc("d1", "t1", None, 1))
            .await
            .unwrap();
        assert!(
            store
                .merge_into_doc(
                    DocKind::TeamSettings,
                    "d1",
                    &json!({"settings": {"a": null, "c": 3}, "x": true})
                )
                .await
                .unwrap()
        );
        let stored = store
            .get_doc::<Value>(DocKind::TeamSettings, None, "d1")
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            stored.value,
            json!({"name": "d1", "settings": {"b": 2, "c": 3}, "x": true})
        );
        assert_eq!(stored.updated_at, at(1));
        assert!(
            !store
                .merge_into_doc(DocKind::TeamSettings, "d9", &json!({"x": 1}))
                .await
                .unwrap()
        );
        assert!(
            !store
                .merge_into_doc(DocKind::Strategy, "d1", &json!({"x": 1}))
                .await
                .unwrap()
        );
        assert_eq!(
            store
                .get_doc::<Value>(DocKind::TeamSettings, None, "d9")
                .await
                .unwrap(),
            None
        );
    }

    fn sized(id: &str, team_id: &str, size: u64) -> Stored<Value> {
        let mut doc = doc(id, team_id, Some("profile"), 1);
        doc.value = json!({"name": id, "size": size});
        doc
    }

    /// Guest document uploads had no total cap: 25 MB a request, repeatable until the
    /// disk filled. The team's stored sizes and an upload's are summed under the
    /// team's lock: eight uploads at once of 3 bytes each under a quota of 10 store
    /// three, whatever the interleaving, and another team is not affected.
    #[tokio::test]
    async fn uploads_at_once_cannot_pass_a_teams_storage_quota() {
        let store = std::sync::Arc::new(memory_store());
        let threads: Vec<_> = (0..8)
            .map(|n| {
                let store = store.clone();
                std::thread::spawn(move || {
                    store
                        .wait(store.insert_docs_within_quota(
                            DocKind::GuestDocument,
                            &[sized(&format!("d{n}"), "t1", 3)],
                            3,
                            10,
                        ))
                        .unwrap()
                })
            })
            .collect();
        let outcomes: Vec<StorageCheck> = threads.into_iter().map(|t| t.join().unwrap()).collect();
        let stored = outcomes
            .iter()
            .filter(|outcome| **outcome == StorageCheck::Stored)
            .count();
        assert_eq!(stored, 3);
        assert!(outcomes.iter().all(|outcome| matches!(
            outcome,
            StorageCheck::Stored | StorageCheck::QuotaExceeded { used: 9 }
        )));
        let filter = DocFilter {
            team_id: Some("t1"),
            ..DocFilter::default()
        };
        let kept: Vec<Stored<Value>> = store
            .list_docs(DocKind::GuestDocument, &filter)
            .await
            .unwrap();
        assert_eq!(kept.len(), 3);
        // One more byte fits, two do not; several documents count together.
        assert_eq!(
            store
                .insert_docs_within_quota(
                    DocKind::GuestDocument,
                    &[sized("e1", "t1", 1), sized("e2", "t1", 1)],
                    2,
                    10
                )
                .await
                .unwrap(),
            StorageCheck::QuotaExceeded { used: 9 }
        );
        assert_eq!(
            store
                .insert_docs_within_quota(DocKind::GuestDocument, &[sized("e1", "t1", 1)], 1, 10)
                .await
                .unwrap(),
            StorageCheck::Stored
        );
        assert_eq!(
            store
                .insert_docs_within_quota(DocKind::GuestDocument, &[sized("f1", "t2", 10)], 10, 10)
                .await
                .unwrap(),
            StorageCheck::Stored
        );
    }
}

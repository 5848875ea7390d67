//! Several `podlens serve` nodes over one PostgreSQL store, each with its own copy of
//! the data directory (snapshot and index):
//!
//! - **One leader.** The jobs that must run once across nodes — alert matching and
//!   delivery, transcription requests, resuming interrupted guest-profile pipelines,
//!   pruning the change log — run on the node holding the store's `jobs` leadership
//!   (a PostgreSQL advisory lock; see [`podlens_store::Leadership`]). Every node asks
//!   every [`TICK`]; when the leader dies its lock is freed and the next node to ask
//!   takes over. On SQLite the one node always leads.
//! - **A change log.** What a node writes to its own catalog while serving — a
//!   refreshed feed, a stored transcript — is appended to the store's
//!   `catalog_changes`; every node applies the changes other nodes made, in order, to
//!   its own catalog, and queues stored transcripts for its own incremental index
//!   generation. So a generation published on one node is published on every node, each
//!   building it from the same change. The position reached is kept in
//!   `<data-dir>/catalog-changes.seq`.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use chrono::{DateTime, Utc};
use podlens_model::catalog::{EpisodeRecord, FeedBatch, TranscriptRecord};
use podlens_store::{Database, Leadership, time_text};
use serde::{Deserialize, Serialize};
use sqlx::Row;
use std::sync::Arc;

use crate::error::{AppError, AppResult};

/// How often a node asks for the leadership and applies other nodes' changes.
pub const TICK: Duration = Duration::from_secs(5);

/// How long applied changes stay in the log (a node whose copy is older than this
/// needs a fresh copy of the data directory).
pub const CHANGE_RETENTION: chrono::Duration = chrono::Duration::days(7);

/// The file under the data directory holding the last change applied there.
pub const POSITION_FILE: &str = "catalog-changes.seq";

/// Changes applied per read of the log.
const BATCH: i64 = 50;

/// A change one node made to its catalog while serving.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum CatalogChange {
    /// A podcast re-read from its feed, as stored (with the image it kept).
    Feed {
        batch: Box<FeedBatch>,
        transcripts: Vec<TranscriptRecord>,
        /// The feed's new address, when it moved for good.
        moved_to: Option<String>,
    },
    /// A transcript the server made (speech to text), with its episode.
    Transcript {
        episode: Box<EpisodeRecord>,
        transcript: Box<TranscriptRecord>,
    },
    /// A podcast whose feed now blocks it, or is gone: out of search.
    #[serde(rename_all = "camelCase")]
    Blocked { podcast_id: uuid::Uuid },
}

impl CatalogChange {
    fn kind(&self) -> &'static str {
        match self {
            CatalogChange::Feed { .. } => "feed",
            CatalogChange::Transcript { .. } => "transcript",
            CatalogChange::Blocked { .. } => "blocked",
        }
    }
}

/// A change read back from the log.
#[derive(Debug, Clone)]
pub struct LoggedChange {
    pub seq: u64,
    /// Made by this process.
    pub own: bool,
    pub change: CatalogChange,
}

/// This node's place among the nodes sharing the store.
pub struct Cluster {
    database: Arc<Database>,
    /// This process's id in the change log.
    node: String,
    leadership: tokio::sync::Mutex<Leadership>,
    leading: AtomicBool,
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Cluster")
            .field("node", &self.node)
            .field("leading", &self.is_leader())
            .finish_non_exhaustive()
    }
}

impl Cluster {
    /// Joins the nodes of `database`, asking for the leadership once.
    /// The node starts knowing whether it leads, so the services that only the leader
    /// runs (feed polling, transcriptions, deliveries) do not wait for the first tick;
    /// this one check waits for the store, as the migrations do.
    pub fn join(database: Arc<Database>) -> Cluster {
        let cluster = Cluster {
            database,
            node: uuid::Uuid::new_v4().to_string(),
            leadership: tokio::sync::Mutex::new(Leadership::new("jobs")),
            leading: AtomicBool::new(false),
        };
        let store = cluster.database.clone();
        store.wait(cluster.check_leadership());
        cluster
    }

    /// The store the nodes share.
    pub fn database(&self) -> &Database {
        &self.database
    }

    /// Whether this node led when last asked.
    pub fn is_leader(&self) -> bool {
        self.leading.load(Ordering::Acquire)
    }

    /// Asks the store: keeps or takes the leadership, or follows. Returns whether this
    /// node leads now and whether that just changed.
    pub async fn check_leadership(&self) -> (bool, bool) {
        let mut leadership = self.leadership.lock().await;
        let leading = match self.database.lead(&mut leadership).await {
            Ok(leading) => leading,
            Err(error) => {
                tracing::warn!(%error, "cannot ask the application store for the leadership");
                false
            }
        };
        let was = self.leading.swap(leading, Ordering::AcqRel);
        if was != leading {
            if leading {
                tracing::info!(node = %self.node, "this node leads: it runs the background jobs");
            } else {
                tracing::info!(node = %self.node, "this node follows: another node runs the background jobs");
            }
        }
        (leading, was != leading)
    }

    /// Gives the leadership up (shutting down), so another node takes it at once.
    pub async fn resign(&self) {
        let mut leadership = self.leadership.lock().await;
        self.database.resign(&mut leadership).await;
        self.leading.store(false, Ordering::Release);
    }

    /// Appends `change` to the log; its sequence number.
    pub async fn record(&self, change: &CatalogChange) -> AppResult<u64> {
        let payload = serde_json::to_string(change).map_err(AppError::internal)?;
        let database = &self.database;
        let node = self.node.clone();
        let kind = change.kind();
        let seq = database
            .run(async move {
                let mut transaction = database.begin_write().await?;
                database.lock(&mut transaction, "catalog_changes").await?;
                let last: i64 = sqlx::query("SELECT COALESCE(MAX(seq), 0) FROM catalog_changes")
                    .fetch_one(&mut *transaction)
                    .await?
                    .try_get(0)?;
                let seq = last + 1;
                sqlx::query(
                    "INSERT INTO catalog_changes (seq, node, kind, payload, created_at) \
                 VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(seq)
                .bind(node)
                .bind(kind)
                .bind(payload)
                .bind(time_text(Utc::now()))
                .execute(&mut *transaction)
                .await?;
                transaction.commit().await?;
                Ok::<_, podlens_store::StoreError>(seq)
            })
            .await?;
        Ok(u64::try_from(seq).unwrap_or(0))
    }

    /// The logged changes after `after`, oldest first, at most a batch.
    /// A log that ends before `after`, or that no longer holds the change after it,
    /// is an error: this node's catalog and the log no longer agree (the store was
    /// restored from an older dump, or this node's copy is older than the log keeps).
    pub async fn changes_after(&self, after: u64) -> AppResult<Vec<LoggedChange>> {
        let database = &self.database;
        let after_seq = i64::try_from(after).unwrap_or(i64::MAX);
        let (last, rows) = database
            .run(async move {
                let last: i64 = sqlx::query("SELECT COALESCE(MAX(seq), 0) FROM catalog_changes")
                    .fetch_one(database.pool())
                    .await?
                    .try_get(0)?;
                let rows = sqlx::query(
                    "SELECT seq, node, payload FROM catalog_changes WHERE seq > $1 \
                 ORDER BY seq LIMIT $2",
                )
                .bind(after_seq)
                .bind(BATCH)
                .fetch_all(database.pool())
                .await?;
                Ok::<_, sqlx::Error>((last, rows))
            })
            .await?;
        if last < after_seq {
            return Err(AppError::Internal(format!(
                "this node has applied catalog change {after}, but the store's log ends at {last}: \
                 give the node a fresh copy of the data directory"
            )));
        }
        if let Some(first) = rows.first() {
            let first: i64 = first.try_get("seq")?;
            if after > 0 && first != after_seq + 1 {
                return Err(AppError::Internal(format!(
                    "catalog changes {} to {} are no longer in the store's log: give the node a fresh copy of the data directory",
                    after + 1,
                    first - 1
                )));
            }
        }
        rows.iter()
            .map(|row| {
                let seq: i64 = row.try_get("seq")?;
                let node: String = row.try_get("node")?;
                let payload: String = row.try_get("payload")?;
                let change = serde_json::from_str(&payload).map_err(|error| {
                    AppError::Internal(format!("catalog change {seq} is unreadable: {error}"))
                })?;
                Ok(LoggedChange {
                    seq: u64::try_from(seq).unwrap_or(0),
                    own: node == self.node,
                    change,
                })
            })
            .collect()
    }

    /// Removes changes logged before `before`; how many.
    pub async fn prune(&self, before: DateTime<Utc>) -> AppResult<u64> {
        let database = &self.database;
        let removed = database
            .run(async move {
                let mut transaction = database.begin_write().await?;
                database.lock(&mut transaction, "catalog_changes").await?;
                // The newest change stays whatever its age: it carries the numbering on,
                // so a node's position never points past the log.
                let removed = sqlx::query(
                    "DELETE FROM catalog_changes WHERE created_at < $1 \
                 AND seq < (SELECT MAX(seq) FROM catalog_changes)",
                )
                .bind(time_text(before))
                .execute(&mut *transaction)
                .await?;
                transaction.commit().await?;
                Ok::<_, podlens_store::StoreError>(removed)
            })
            .await?;
        Ok(removed.rows_affected())
    }
}

/// The last change applied to the catalog of `data_dir` (0: none yet, no file).
/// An unreadable file is an error, not a start from the beginning.
pub fn applied_position(data_dir: &Path) -> AppResult<u64> {
    let path = position_file(data_dir);
    match std::fs::read_to_string(&path) {
        Ok(text) => text.trim().parse().map_err(|_| {
            AppError::Internal(format!(
                "{} does not hold a change number: {:?}",
                path.display(),
                text.trim()
            ))
        }),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(0),
        Err(error) => Err(AppError::Internal(format!(
            "cannot read {}: {error}",
            path.display()
        ))),
    }
}

/// Records that every change up to `seq` is applied to the catalog of `data_dir`
/// (written aside, then renamed over the old position).
pub fn save_position(data_dir: &Path, seq: u64) -> AppResult<()> {
    let path = position_file(data_dir);
    let staged = path.with_extension("seq.tmp");
    std::fs::write(&staged, format!("{seq}\n"))
        .and_then(|()| std::fs::rename(&staged, &path))
        .map_err(|error| AppError::Internal(format!("cannot write {}: {error}", path.display())))
}

fn position_file(data_dir: &Path) -> PathBuf {
    data_dir.join(POSITION_FILE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change() -> CatalogChange {
        CatalogChange::Transcript {
            episode: Box::default(),
            transcript: Box::default(),
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_log_numbers_changes_in_order_and_pruning_never_restarts_the_numbering() {
        let database = Arc::new(Database::for_tests().unwrap());
        let a = Cluster::join(database.clone());
        let b = Cluster::join(Arc::new(database.reopen().unwrap()));
        assert_eq!(a.record(&change()).await.unwrap(), 1);
        assert_eq!(b.record(&change()).await.unwrap(), 2);
        assert_eq!(a.record(&change()).await.unwrap(), 3);
        let seen: Vec<(u64, bool)> = a
            .changes_after(0)
            .await
            .unwrap()
            .iter()
            .map(|logged| (logged.seq, logged.own))
            .collect();
        assert_eq!(seen, [(1, true), (2, false), (3, true)]);
        assert_eq!(seen.len(), 3);
        assert_eq!(b.changes_after(1).await.unwrap()[0].change, change());

        // Everything is old: all but the newest change go, and numbering goes on.
        assert_eq!(
            a.prune(Utc::now() + chrono::Duration::days(1))
                .await
                .unwrap(),
            2
        );
        assert_eq!(b.record(&change()).await.unwrap(), 4);
        assert_eq!(
            a.changes_after(3)
                .await
                .unwrap()
                .iter()
                .map(|logged| logged.seq)
                .collect::<Vec<_>>(),
            [4]
        );
        // A node that has not applied change 2, now pruned, is told so rather than
        // skipping it; so is a node ahead of the log (a store restored from an older
        // dump).
        let gap = a.changes_after(1).await.unwrap_err().to_string();
        assert!(
            gap.contains("catalog changes 2 to 2 are no longer"),
            "{gap}"
        );
        let ahead = a.changes_after(9).await.unwrap_err().to_string();
        assert!(ahead.contains("the store's log ends at 4"), "{ahead}");
    }

    #[test]
    fn an_unreadable_position_is_an_error_not_a_fresh_start() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(applied_position(dir.path()).unwrap(), 0);
        save_position(dir.path(), 42).unwrap();
        assert_eq!(applied_position(dir.path()).unwrap(), 42);
        std::fs::write(dir.path().join(POSITION_FILE), "forty-two").unwrap();
        assert!(applied_position(dir.path()).is_err());
    }
}

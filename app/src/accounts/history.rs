//! Remembered searches, written in batches: a search only appends its record to this
//! node's queue, and the queue is written to the store in one transaction every
//! [`FLUSH_INTERVAL`] (and when serving stops), so no search waits on a write. A
//! reader of the history (an export by `searchHistoryId`) flushes this node's queue
//! first, and looks for another node's for up to two intervals before answering that a
//! search is unknown. A crash loses at most the searches of the last interval.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::accounts::{AccountStore, SearchRecord};
use crate::error::AppResult;

/// How often the queue is written.
pub const FLUSH_INTERVAL: Duration = Duration::from_secs(1);

/// Records kept while the store cannot be written; past this, the oldest are dropped
/// (and counted in a warning), so an outage cannot grow the queue without bound.
const MAX_PENDING: usize = 50_000;

/// This node's queue of searches not yet in the store.
pub struct SearchHistory {
    accounts: Arc<dyn AccountStore>,
    pending: Mutex<Queue>,
    /// Serialises flushes, so records reach the store in the order they were queued.
    flushing: tokio::sync::Mutex<()>,
}

/// The searches not yet written, oldest first.
#[derive(Default)]
struct Queue {
    records: Vec<SearchRecord>,
    /// How many records were ever dropped from the front (the queue full): a flush
    /// that wrote the front's records removes only those still there.
    dropped: u64,
}

impl std::fmt::Debug for SearchHistory {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("SearchHistory")
            .finish_non_exhaustive()
    }
}

impl SearchHistory {
    pub fn new(accounts: Arc<dyn AccountStore>) -> SearchHistory {
        SearchHistory {
            accounts,
            pending: Mutex::default(),
            flushing: tokio::sync::Mutex::new(()),
        }
    }

    fn queue(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.pending
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Queues a search; it reaches the store with the next flush.
    pub fn remember(&self, record: SearchRecord) {
        let mut queue = self.queue();
        if queue.records.len() >= MAX_PENDING {
            let dropped = queue.records.len() + 1 - MAX_PENDING;
            queue.records.drain(..dropped);
            queue.dropped += dropped as u64;
            tracing::warn!(
                dropped,
                "search history queue full: oldest searches dropped"
            );
        }
        queue.records.push(record);
    }

    /// Writes the queued searches in one transaction; returns how many. When the store
    /// refuses them, they stay queued, ahead of newer ones. The records leave the queue
    /// only once written, so a flush whose caller stops waiting (a client gone) loses
    /// none.
    pub async fn flush(&self) -> AppResult<usize> {
        let _turn = self.flushing.lock().await;
        let (batch, dropped_before) = {
            let queue = self.queue();
            (queue.records.clone(), queue.dropped)
        };
        if batch.is_empty() {
            return Ok(0);
        }
        self.accounts.record_searches(&batch).await?;
        let mut queue = self.queue();
        // Records dropped meanwhile came off the batch's front.
        let dropped_since = usize::try_from(queue.dropped - dropped_before).unwrap_or(usize::MAX);
        let written_left = batch.len().saturating_sub(dropped_since);
        let queued = queue.records.len();
        queue.records.drain(..written_left.min(queued));
        Ok(batch.len())
    }

    /// Searches queued and not yet written.
    pub fn pending(&self) -> usize {
        self.queue().records.len()
    }
}

/// Flushes `history` every [`FLUSH_INTERVAL`] until the runtime stops.
pub fn spawn_flusher(history: Arc<SearchHistory>) {
    super::spawn_periodic_flush("search history", FLUSH_INTERVAL, move || {
        let history = history.clone();
        async move { history.flush().await }
    });
}

#[cfg(test)]
mod tests {
    use chrono::Utc;

    use super::*;
    use crate::accounts::{SqlAccountStore, UsageSubject};
    use crate::workflows::WorkflowStore;

    fn search(id: &str) -> SearchRecord {
        SearchRecord {
            search_id: id.to_owned(),
            subject: UsageSubject::User {
                user_id: "u1".into(),
                team_id: "t1".into(),
            },
            search_mode: "podcasts".into(),
            options_json: format!("{{\"id\":\"{id}\"}}"),
            result_count: 3,
            searched_at: Utc::now(),
        }
    }

    #[tokio::test]
    async fn searches_reach_the_store_when_flushed_and_not_before() {
        let accounts = SqlAccountStore::for_tests().unwrap();
        let workflows = WorkflowStore::open(accounts.database().clone()).unwrap();
        let history = SearchHistory::new(Arc::new(accounts));
        for id in ["s1", "s2", "s3"] {
            history.remember(search(id));
        }
        assert_eq!(history.pending(), 3);
        assert_eq!(workflows.search_of_team("s2", "t1").await.unwrap(), None);

        assert_eq!(history.flush().await.unwrap(), 3);
        assert_eq!(history.pending(), 0);
        for id in ["s1", "s2", "s3"] {
            assert_eq!(
                workflows.search_of_team(id, "t1").await.unwrap(),
                Some(("podcasts".to_owned(), format!("{{\"id\":\"{id}\"}}")))
            );
        }
        // Nothing queued: nothing written.
        assert_eq!(history.flush().await.unwrap(), 0);
    }

    #[tokio::test]
    async fn a_flush_whose_caller_stops_waiting_loses_no_search() {
        let accounts = SqlAccountStore::for_tests().unwrap();
        let database = accounts.database().clone();
        let workflows = WorkflowStore::open(database.clone()).unwrap();
        let history = SearchHistory::new(Arc::new(accounts));
        history.remember(search("s1"));
        // Another writer holds SQLite's one writer connection: the flush waits for it,
        // and its caller gives up (a client gone) while it does.
        let held = database.run(database.begin_write()).await.unwrap();
        let gave_up = tokio::time::timeout(Duration::from_millis(200), history.flush()).await;
        if database.backend() == podlens_store::Backend::Sqlite {
            assert!(gave_up.is_err(), "the flush waited for the writer");
        }
        database.run(async move { drop(held) }).await;
        history.flush().await.unwrap();
        assert_eq!(history.pending(), 0);
        assert_eq!(
            workflows.search_of_team("s1", "t1").await.unwrap(),
            Some(("podcasts".to_owned(), "{\"id\":\"s1\"}".to_owned()))
        );
    }

    #[tokio::test]
    async fn searches_the_store_refuses_stay_queued_ahead_of_newer_ones() {
        let accounts = SqlAccountStore::for_tests().unwrap();
        let database = accounts.database().clone();
        let history = SearchHistory::new(Arc::new(accounts));
        database
            .run(sqlx::raw_sql("DROP TABLE search_history").execute(database.pool()))
            .await
            .unwrap();
        history.remember(search("a"));
        history.remember(search("b"));
        assert!(history.flush().await.is_err());
        history.remember(search("c"));
        let ids: Vec<String> = history
            .queue()
            .records
            .iter()
            .map(|record| record.search_id.clone())
            .collect();
        assert_eq!(ids, ["a", "b", "c"]);
    }

    /// A batch whose commit went through but whose answer was lost is retried; the
    /// retry must not fail on the rows already there, or the queue would never drain.
    #[tokio::test]
    async fn a_batch_written_again_after_a_lost_answer_does_not_block_the_queue() {
        let accounts = SqlAccountStore::for_tests().unwrap();
        let workflows = WorkflowStore::open(accounts.database().clone()).unwrap();
        // More than one statement's worth of rows, so every statement meets a duplicate.
        let batch: Vec<SearchRecord> = (0..150).map(|at| search(&format!("r{at}"))).collect();
        accounts.record_searches(&batch).await.unwrap();
        let history = SearchHistory::new(Arc::new(accounts));
        for record in batch.iter().cloned().chain([search("new")]) {
            history.remember(record);
        }
        assert_eq!(history.flush().await.unwrap(), 151);
        assert_eq!(history.pending(), 0);
        assert!(
            workflows
                .search_of_team("new", "t1")
                .await
                .unwrap()
                .is_some()
        );
        assert!(
            workflows
                .search_of_team("r149", "t1")
                .await
                .unwrap()
                .is_some()
        );
    }

    #[test]
    fn a_full_queue_drops_its_oldest_searches() {
        let history = SearchHistory::new(Arc::new(SqlAccountStore::for_tests().unwrap()));
        for index in 0..MAX_PENDING + 2 {
            history.remember(search(&format!("s{index}")));
        }
        assert_eq!(history.pending(), MAX_PENDING);
        let pending = &history.queue().records;
        assert_eq!(pending[0].search_id, "s2");
        assert_eq!(
            pending.last().unwrap().search_id,
            format!("s{}", MAX_PENDING + 1)
        );
    }
}

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
    pending: Mutex<Vec<SearchRecord>>,
    /// Serialises flushes, so records reach the store in the order they were queued.
    flushing: Mutex<()>,
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
            pending: Mutex::new(Vec::new()),
            flushing: Mutex::new(()),
        }
    }

    /// Queues a search; it reaches the store with the next flush.
    pub fn remember(&self, record: SearchRecord) {
        let mut pending = self
            .pending
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if pending.len() >= MAX_PENDING {
            let dropped = pending.len() + 1 - MAX_PENDING;
            pending.drain(..dropped);
            tracing::warn!(
                dropped,
                "search history queue full: oldest searches dropped"
            );
        }
        pending.push(record);
    }

    /// Writes the queued searches in one transaction (blocking); returns how many.
    /// When the store refuses them, they stay queued, ahead of newer ones.
    pub fn flush(&self) -> AppResult<usize> {
        let _turn = self
            .flushing
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let batch = std::mem::take(
            &mut *self
                .pending
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner()),
        );
        if batch.is_empty() {
            return Ok(0);
        }
        match self.accounts.record_searches(&batch) {
            Ok(()) => Ok(batch.len()),
            Err(error) => {
                let mut pending = self
                    .pending
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                let newer = std::mem::replace(&mut *pending, batch);
                pending.extend(newer);
                Err(error)
            }
        }
    }

    /// Searches queued and not yet written.
    pub fn pending(&self) -> usize {
        self.pending
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .len()
    }
}

/// Flushes `history` every [`FLUSH_INTERVAL`] until the runtime stops.
pub fn spawn_flusher(history: Arc<SearchHistory>) {
    super::spawn_periodic_flush("search history", FLUSH_INTERVAL, move || history.flush());
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

    #[test]
    fn searches_reach_the_store_when_flushed_and_not_before() {
        let accounts = SqlAccountStore::for_tests().unwrap();
        let workflows = WorkflowStore::open(accounts.database().clone()).unwrap();
        let history = SearchHistory::new(Arc::new(accounts));
        for id in ["s1", "s2", "s3"] {
            history.remember(search(id));
        }
        assert_eq!(history.pending(), 3);
        assert_eq!(workflows.search_of_team("s2", "t1").unwrap(), None);

        assert_eq!(history.flush().unwrap(), 3);
        assert_eq!(history.pending(), 0);
        for id in ["s1", "s2", "s3"] {
            assert_eq!(
                workflows.search_of_team(id, "t1").unwrap(),
                Some(("podcasts".to_owned(), format!("{{\"id\":\"{id}\"}}")))
            );
        }
        // Nothing queued: nothing written.
        assert_eq!(history.flush().unwrap(), 0);
    }

    #[test]
    fn searches_the_store_refuses_stay_queued_ahead_of_newer_ones() {
        let accounts = SqlAccountStore::for_tests().unwrap();
        let database = accounts.database().clone();
        let history = SearchHistory::new(Arc::new(accounts));
        database
            .wait(sqlx::raw_sql("DROP TABLE search_history").execute(database.pool()))
            .unwrap();
        history.remember(search("a"));
        history.remember(search("b"));
        assert!(history.flush().is_err());
        history.remember(search("c"));
        let ids: Vec<String> = history
            .pending
            .lock()
            .unwrap()
            .iter()
            .map(|record| record.search_id.clone())
            .collect();
        assert_eq!(ids, ["a", "b", "c"]);
    }

    /// A batch whose commit went through but whose answer was lost is retried; the
    /// retry must not fail on the rows already there, or the queue would never drain.
    #[test]
    fn a_batch_written_again_after_a_lost_answer_does_not_block_the_queue() {
        let accounts = SqlAccountStore::for_tests().unwrap();
        let workflows = WorkflowStore::open(accounts.database().clone()).unwrap();
        // More than one statement's worth of rows, so every statement meets a duplicate.
        let batch: Vec<SearchRecord> = (0..150).map(|at| search(&format!("r{at}"))).collect();
        accounts.record_searches(&batch).unwrap();
        let history = SearchHistory::new(Arc::new(accounts));
        for record in batch.iter().cloned().chain([search("new")]) {
            history.remember(record);
        }
        assert_eq!(history.flush().unwrap(), 151);
        assert_eq!(history.pending(), 0);
        assert!(workflows.search_of_team("new", "t1").unwrap().is_some());
        assert!(workflows.search_of_team("r149", "t1").unwrap().is_some());
    }

    #[test]
    fn a_full_queue_drops_its_oldest_searches() {
        let history = SearchHistory::new(Arc::new(SqlAccountStore::for_tests().unwrap()));
        for index in 0..MAX_PENDING + 2 {
            history.remember(search(&format!("s{index}")));
        }
        assert_eq!(history.pending(), MAX_PENDING);
        let pending = history.pending.lock().unwrap();
        assert_eq!(pending[0].search_id, "s2");
        assert_eq!(
            pending.last().unwrap().search_id,
            format!("s{}", MAX_PENDING + 1)
        );
    }
}

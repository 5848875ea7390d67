//! Usage of counters without a limit, counted in memory and written in batches: a
//! metered call of an unlimited plan (or a counter no plan limits) adds one to this
//! node's tally, and the tallies are written to the store in one transaction every
//! [`FLUSH_INTERVAL`] (and when serving stops), so no such call waits on a write. The
//! count a call reports is the window's total in the store when this node last read it,
//! plus what this node has counted since; a flush reads the totals again, so another
//! node's counts show within about two intervals. A crash loses the counts not yet
//! written, in the user's favour: the last interval's, or more while the store refuses
//! writes (counts a flush could not write stay pending and are retried). A commit that
//! went through but whose answer was lost is written again on the retry, counting
//! those calls twice. Counters with a limit are charged in the store, one call at a
//! time, so a cap is never passed (see `metering::charge`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::NaiveDate;

use crate::accounts::{AccountStore, UsageCounter, UsageSubject, UsageWindow};
use crate::error::AppResult;

/// How often the tallies are written.
pub const FLUSH_INTERVAL: Duration = Duration::from_secs(1);

/// Flushes a tally stays without a call before it is dropped (about a minute).
const IDLE_FLUSHES: u32 = 60;

/// One counter of one subject in one window (named by its first day).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct TallyKey {
    subject: UsageSubject,
    counter: UsageCounter,
    window: UsageWindow,
    first_day: NaiveDate,
}

impl TallyKey {
    fn new(
        subject: &UsageSubject,
        counter: UsageCounter,
        window: UsageWindow,
        today: NaiveDate,
    ) -> TallyKey {
        TallyKey {
            subject: subject.clone(),
            counter,
            window,
            first_day: window.bounds(today).0,
        }
    }
}

/// What this node knows of a key.
#[derive(Debug, Default)]
struct Tally {
    /// The window's total in the store when last read (`None`: not read yet).
    stored: Option<u64>,
    /// Counted here and not yet written, by day (usage is stored per day).
    pending: Vec<(NaiveDate, u64)>,
    /// Counted here and being written by the flush under way.
    writing: u64,
    /// Flushes begun since the last count; a tally idle for [`IDLE_FLUSHES`] is
    /// dropped (and its total read again on the next call).
    idle_flushes: u32,
}

impl Tally {
    /// Counts one use on `today`; returns the window's total with it.
    fn count(&mut self, stored: u64, today: NaiveDate) -> u64 {
        self.add_pending(today, 1);
        self.idle_flushes = 0;
        stored + self.writing + self.pending_total()
    }

    /// Adds `amount` uses on `day` to what is not yet written.
    fn add_pending(&mut self, day: NaiveDate, amount: u64) {
        match self.pending.iter_mut().find(|(pending, _)| *pending == day) {
            Some((_, pending)) => *pending += amount,
            None => self.pending.push((day, amount)),
        }
    }

    fn pending_total(&self) -> u64 {
        self.pending.iter().map(|(_, amount)| amount).sum()
    }
}

/// A batch of counts to add to the store: `(subject, counter, day, amount)`.
pub type UsageCounts = Vec<(UsageSubject, UsageCounter, NaiveDate, u64)>;

/// This node's tallies of unlimited usage.
pub struct UsageMeter {
    accounts: Arc<dyn AccountStore>,
    tallies: Mutex<HashMap<TallyKey, Tally>>,
    /// Serialises flushes.
    flushing: tokio::sync::Mutex<()>,
    /// Flushes that wrote counts: a total read from the store while one did may miss
    /// what it wrote, and is read again.
    flushes: AtomicU64,
}

impl std::fmt::Debug for UsageMeter {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("UsageMeter").finish_non_exhaustive()
    }
}

impl UsageMeter {
    pub fn new(accounts: Arc<dyn AccountStore>) -> UsageMeter {
        UsageMeter {
            accounts,
            tallies: Mutex::new(HashMap::new()),
            flushing: tokio::sync::Mutex::new(()),
            flushes: AtomicU64::new(0),
        }
    }

    fn tallies(&self) -> std::sync::MutexGuard<'_, HashMap<TallyKey, Tally>> {
        self.tallies
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Counts one use of `counter` by `subject` on `today` and returns the window's
    /// total with it, or `None` when this node has not read the window's total yet
    /// (then [`UsageMeter::count_after_reading`], which reads it).
    pub fn try_count(
        &self,
        subject: &UsageSubject,
        counter: UsageCounter,
        window: UsageWindow,
        today: NaiveDate,
    ) -> Option<u64> {
        let mut tallies = self.tallies();
        let tally = tallies.get_mut(&TallyKey::new(subject, counter, window, today))?;
        let stored = tally.stored?;
        Some(tally.count(stored, today))
    }

    /// Reads the window's total from the store, then counts one use as
    /// [`UsageMeter::try_count`] does.
    pub async fn count_after_reading(
        &self,
        subject: &UsageSubject,
        counter: UsageCounter,
        window: UsageWindow,
        today: NaiveDate,
    ) -> AppResult<u64> {
        let key = TallyKey::new(subject, counter, window, today);
        let mut attempts = 0;
        loop {
            attempts += 1;
            let flushes = self.flushes.load(Ordering::SeqCst);
            let stored = self.accounts.used(subject, counter, window, today).await?;
            let mut tallies = self.tallies();
            let tally = tallies.entry(key.clone()).or_default();
            // A total already known is kept: it holds what this node wrote since. A
            // reading taken while a flush wrote may miss that flush: read again.
            let stored = match tally.stored {
                Some(known) => known,
                None if self.flushes.load(Ordering::SeqCst) == flushes || attempts >= 3 => {
                    *tally.stored.insert(stored)
                }
                None => continue,
            };
            return Ok(tally.count(stored, today));
        }
    }

    /// Writes the pending counts in one transaction and reads the totals of their
    /// windows again, so counts from other nodes show; returns how many uses were
    /// written. Tallies idle since the last flush are dropped. When the store refuses
    /// the counts, they stay pending.
    pub async fn flush(&self) -> AppResult<u64> {
        let _turn = self.flushing.lock().await;
        // What each key writes, by day.
        let mut writes: Vec<(TallyKey, Vec<(NaiveDate, u64)>)> = Vec::new();
        {
            let mut tallies = self.tallies();
            tallies
                .retain(|_, tally| tally.idle_flushes < IDLE_FLUSHES || !tally.pending.is_empty());
            for (key, tally) in tallies.iter_mut() {
                tally.idle_flushes = tally.idle_flushes.saturating_add(1);
                if tally.pending.is_empty() {
                    continue;
                }
                tally.writing = tally.pending_total();
                writes.push((key.clone(), std::mem::take(&mut tally.pending)));
            }
        }
        let mut batch: UsageCounts = writes
            .iter()
            .flat_map(|(key, days)| {
                days.iter()
                    .map(|&(day, amount)| (key.subject.clone(), key.counter, day, amount))
            })
            .collect();
        if batch.is_empty() {
            return Ok(0);
        }
        // Rows in one order on every node: two nodes' flushes then lock shared rows in
        // the same order and cannot deadlock each other (PostgreSQL).
        batch.sort_by(|a, b| {
            (subject_order(&a.0), a.1.alias(), a.2).cmp(&(subject_order(&b.0), b.1.alias(), b.2))
        });
        let written: u64 = batch.iter().map(|(_, _, _, amount)| amount).sum();
        let result = self.accounts.add_usage(&batch).await;
        self.flushes.fetch_add(1, Ordering::SeqCst);
        if let Err(error) = result {
            let mut tallies = self.tallies();
            for (key, days) in writes {
                if let Some(tally) = tallies.get_mut(&key) {
                    tally.writing = 0;
                    for (day, amount) in days {
                        tally.add_pending(day, amount);
                    }
                }
            }
            return Err(error);
        }
        let keys: Vec<TallyKey> = writes.into_iter().map(|(key, _)| key).collect();
        // The totals again: this node's counts are in them now, and any other node's.
        let mut totals: Vec<Option<u64>> = Vec::with_capacity(keys.len());
        for key in &keys {
            let total = self
                .accounts
                .used(&key.subject, key.counter, key.window, key.first_day)
                .await;
            totals.push(total.ok());
        }
        let mut tallies = self.tallies();
        for (key, total) in keys.iter().zip(totals) {
            if let Some(tally) = tallies.get_mut(key) {
                let writing = std::mem::take(&mut tally.writing);
                tally.stored = match total {
                    Some(total) => Some(total),
                    None => tally.stored.map(|stored| stored + writing),
                };
            }
        }
        Ok(written)
    }

    /// Uses counted and not yet written.
    pub fn pending(&self) -> u64 {
        self.tallies()
            .values()
            .map(|tally| tally.pending_total() + tally.writing)
            .sum()
    }
}

/// A subject as the store keys it, for ordering a batch.
fn subject_order(subject: &UsageSubject) -> (u8, &str) {
    match subject {
        UsageSubject::User { user_id, .. } => (0, user_id),
        UsageSubject::Client { address } => (1, address),
    }
}

/// Flushes `meter` every [`FLUSH_INTERVAL`] until the runtime stops.
pub fn spawn_flusher(meter: Arc<UsageMeter>) {
    super::spawn_periodic_flush("usage counts", FLUSH_INTERVAL, move || {
        let meter = meter.clone();
        async move { meter.flush().await }
    });
}

#[cfg(test)]
mod tests {
    use crate::runtime::block_on_own_thread as block;
    use chrono::Datelike;

    use super::*;
    use crate::accounts::SqlAccountStore;
    use crate::accounts::test_user as user;

    fn day(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    fn count(meter: &UsageMeter, subject: &UsageSubject, today: NaiveDate) -> u64 {
        let (counter, window) = (UsageCounter::Search, UsageWindow::Month);
        meter
            .try_count(subject, counter, window, today)
            .map_or_else(
                || block(meter.count_after_reading(subject, counter, window, today)),
                Ok,
            )
            .unwrap()
    }

    /// The month's searches of `subject` as the store holds them.
    fn stored(store: &SqlAccountStore, subject: &UsageSubject, today: NaiveDate) -> u64 {
        block(store.used(subject, UsageCounter::Search, UsageWindow::Month, today)).unwrap()
    }

    #[test]
    fn counts_reach_the_store_when_flushed_and_not_before() {
        let accounts = Arc::new(SqlAccountStore::for_tests().unwrap());
        let meter = UsageMeter::new(accounts.clone());
        let subject = user("u1");
        let today = day(2025, 3, 4);
        let counts: Vec<u64> = (0..3).map(|_| count(&meter, &subject, today)).collect();
        assert_eq!(counts, [1, 2, 3]);
        assert_eq!(stored(&accounts, &subject, today), 0);
        assert_eq!(block(meter.flush()).unwrap(), 3);
        assert_eq!(stored(&accounts, &subject, today), 3);
        assert_eq!(meter.pending(), 0);
        assert_eq!(count(&meter, &subject, today), 4);
        assert_eq!(block(meter.flush()).unwrap(), 1);
        assert_eq!(stored(&accounts, &subject, today), 4);
        // Nothing counted: nothing written.
        assert_eq!(block(meter.flush()).unwrap(), 0);
    }

    /// Two nodes on one store: each starts from the store's total, and after a flush
    /// each sees the other's counts.
    #[test]
    fn a_flush_brings_in_the_counts_of_other_nodes() {
        let accounts = Arc::new(SqlAccountStore::for_tests().unwrap());
        let (a, b) = (
            UsageMeter::new(accounts.clone()),
            UsageMeter::new(accounts.clone()),
        );
        let subject = user("u1");
        let today = day(2025, 3, 4);
        assert_eq!(count(&a, &subject, today), 1);
        assert_eq!(count(&a, &subject, today), 2);
        block(a.flush()).unwrap();
        assert_eq!(count(&b, &subject, today), 3);
        assert_eq!(
            count(&a, &subject, today),
            3,
            "b's count is not written yet"
        );
        block(b.flush()).unwrap();
        block(a.flush()).unwrap();
        assert_eq!(count(&a, &subject, today), 5);
        block(a.flush()).unwrap();
        assert_eq!(stored(&accounts, &subject, today), 5);
    }

    /// Days are counted apart: the month's total holds both, and a new month starts
    /// from nothing.
    #[test]
    fn counts_go_to_their_own_day_and_window() {
        let accounts = Arc::new(SqlAccountStore::for_tests().unwrap());
        let meter = UsageMeter::new(accounts.clone());
        let subject = user("u1");
        assert_eq!(count(&meter, &subject, day(2025, 3, 30)), 1);
        assert_eq!(count(&meter, &subject, day(2025, 3, 31)), 2);
        assert_eq!(count(&meter, &subject, day(2025, 4, 1)), 1);
        block(meter.flush()).unwrap();
        let rows = block(accounts.team_usage("t1", day(2025, 3, 1), day(2025, 4, 30))).unwrap();
        let days: Vec<(u32, u64)> = rows.iter().map(|row| (row.day.day(), row.count)).collect();
        assert_eq!(days, [(30, 1), (31, 1), (1, 1)]);
    }

    /// A caller between flushes (every few seconds) must not pay a store read on each
    /// call: a tally is kept while idle for about a minute, then dropped.
    #[test]
    fn an_idle_tally_is_kept_for_a_minute_of_flushes_then_dropped() {
        let meter = UsageMeter::new(Arc::new(SqlAccountStore::for_tests().unwrap()));
        let subject = user("u1");
        let today = day(2025, 3, 4);
        let (counter, window) = (UsageCounter::Search, UsageWindow::Month);
        assert_eq!(count(&meter, &subject, today), 1);
        for _ in 0..5 {
            block(meter.flush()).unwrap();
        }
        assert_eq!(meter.try_count(&subject, counter, window, today), Some(2));
        for _ in 0..=IDLE_FLUSHES {
            block(meter.flush()).unwrap();
        }
        assert_eq!(meter.try_count(&subject, counter, window, today), None);
        assert_eq!(count(&meter, &subject, today), 3);
    }

    #[test]
    fn counts_the_store_refuses_stay_pending() {
        let accounts = Arc::new(SqlAccountStore::for_tests().unwrap());
        let database = accounts.database().clone();
        let meter = UsageMeter::new(accounts.clone());
        let subject = user("u1");
        let today = day(2025, 3, 4);
        assert_eq!(count(&meter, &subject, today), 1);
        database
            .wait(
                sqlx::raw_sql("ALTER TABLE usage_daily RENAME TO usage_gone")
                    .execute(database.pool()),
            )
            .unwrap();
        assert!(block(meter.flush()).is_err());
        assert_eq!(meter.pending(), 1);
        assert_eq!(count(&meter, &subject, today), 2);
        database
            .wait(
                sqlx::raw_sql("ALTER TABLE usage_gone RENAME TO usage_daily")
                    .execute(database.pool()),
            )
            .unwrap();
        assert_eq!(block(meter.flush()).unwrap(), 2);
        assert_eq!(stored(&accounts, &subject, today), 2);
    }

    /// Many threads counting at once: every count is reported once, and all are
    /// written.
    #[test]
    fn concurrent_counts_are_each_reported_once_and_all_written() {
        let accounts = Arc::new(SqlAccountStore::for_tests().unwrap());
        let meter = Arc::new(UsageMeter::new(accounts.clone()));
        let subject = user("u1");
        let today = day(2025, 3, 4);
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let (meter, subject) = (meter.clone(), subject.clone());
                std::thread::spawn(move || {
                    (0..50)
                        .map(|at| {
                            if at % 20 == 0 {
                                block(meter.flush()).unwrap();
                            }
                            count(&meter, &subject, today)
                        })
                        .collect::<Vec<u64>>()
                })
            })
            .collect();
        let mut counts: Vec<u64> = threads
            .into_iter()
            .flat_map(|thread| thread.join().unwrap())
            .collect();
        counts.sort_unstable();
        assert_eq!(counts, (1..=200).collect::<Vec<u64>>());
        block(meter.flush()).unwrap();
        assert_eq!(stored(&accounts, &subject, today), 200);
    }
}

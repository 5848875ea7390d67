//! Whether a search splits its steps (one task per shard, per shard's page of hits) over
//! the pool's threads.
//!
//! Alone on the pool, a search splits: its shards run at once on idle threads and its
//! answer comes sooner. When other searches are running, every thread already has a
//! search of its own, so splitting only adds hand-offs; worse, a thread waiting for the
//! other half of its split takes up other work meanwhile (rayon's work stealing), which
//! may be a whole other search that it must finish first, so one search's time grows by
//! another's. Measured at 1M episodes, 16 connections on 2 cores: see
//! `benches/api/RESULTS.md`. So each search counts itself as running ([`Running`]), and
//! its parallel steps take [`min_len`] items per task: 1 alone, all of them (one task on
//! this thread, no hand-off) when other searches run.

use std::sync::atomic::{AtomicUsize, Ordering};

static RUNNING: AtomicUsize = AtomicUsize::new(0);

/// A search running on the pool, counted until dropped.
pub(crate) struct Running(());

impl Running {
    pub(crate) fn start() -> Running {
        RUNNING.fetch_add(1, Ordering::Relaxed);
        Running(())
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The fewest items a parallel step hands to one task (rayon's `with_min_len`): 1 when
/// at most one search runs, else all of them.
pub(crate) fn min_len() -> usize {
    if RUNNING.load(Ordering::Relaxed) > 1 {
        usize::MAX
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counted in one test only: the count is the process's, and tests run at once.
    #[test]
    fn beside_another_running_search_a_step_is_one_task_and_the_count_returns() {
        let base = RUNNING.load(Ordering::Relaxed);
        let first = Running::start();
        assert_eq!(RUNNING.load(Ordering::Relaxed), base + 1);
        let second = Running::start();
        assert_eq!(min_len(), usize::MAX);
        drop(second);
        drop(first);
        assert_eq!(RUNNING.load(Ordering::Relaxed), base);
    }
}

//! The feed scheduler's tables: `feed_schedule` (when each feed is polled next) and
//! `websub_subscriptions` (the hubs that push feeds' changes to us).

use chrono::{DateTime, Utc};
use sqlx::Row;
use sqlx::any::AnyRow;

use crate::{Database, StoreError, optional_time_at, time_at, time_text};

/// A feed as the scheduler keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScheduledFeed {
    pub podcast_id: String,
    pub feed_url: String,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    /// The hash of the bytes of its last full answer.
    pub content_hash: Option<String>,
    pub interval_seconds: i64,
    pub next_poll_at: DateTime<Utc>,
    pub failures: i64,
    pub last_polled_at: Option<DateTime<Utc>>,
    pub last_outcome: Option<String>,
    /// What went wrong, when the last poll failed.
    pub last_error: Option<String>,
    pub last_changed_at: Option<DateTime<Utc>>,
    pub pushed_at: Option<DateTime<Utc>>,
    /// Whether a confirmed WebSub subscription with a live lease pushes the feed.
    pub pushed: bool,
    /// When the show habitually publishes, as the scheduler writes it.
    pub release_window: Option<String>,
}

/// A feed to start following: due at `next_poll_at`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NewFeed {
    pub podcast_id: String,
    pub feed_url: String,
    pub interval_seconds: i64,
    pub next_poll_at: DateTime<Utc>,
    /// When the show habitually publishes, learnt from the catalog's episodes.
    pub release_window: Option<String>,
    /// What its last read (by `podlens ingest`) answered: the validators and the hash
    /// of its bytes, so the first poll is conditional.
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    pub content_hash: Option<String>,
    /// When it was last read, if it was.
    pub last_polled_at: Option<DateTime<Utc>>,
}

/// What a poll of one feed found, and when the feed is due again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PollOutcome {
    pub podcast_id: String,
    /// The feed's address now (after a permanent redirect, the new one).
    pub feed_url: String,
    pub polled_at: DateTime<Utc>,
    /// `ok`, `not-modified` or the failure kind.
    pub outcome: String,
    pub error: Option<String>,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    pub content_hash: Option<String>,
    pub interval_seconds: i64,
    pub next_poll_at: DateTime<Utc>,
    /// Failures in a row, this one included (0 after a success).
    pub failures: i64,
    /// Whether the feed's content changed.
    pub changed: bool,
    /// When the show habitually publishes, as now known.
    pub release_window: Option<String>,
}

/// Which due feeds a poll takes: feeds whose last poll failed are polled apart from
/// those that answered, so one that hangs until its timeout cannot hold up the others.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeedLane {
    /// Feeds whose last poll answered (or that were never polled).
    Answering,
    /// Feeds whose last poll failed.
    Failing,
}

/// The schedule at a glance, for `podlens status` and `/metrics`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScheduleSummary {
    pub feeds: u64,
    pub due: u64,
    /// Feeds whose last poll failed.
    pub failing: u64,
    /// The earliest due time of a feed that is overdue (the ingest lag starts there).
    pub oldest_due_at: Option<DateTime<Utc>>,
    pub next_poll_at: Option<DateTime<Utc>>,
    pub last_polled_at: Option<DateTime<Utc>>,
    pub active_subscriptions: u64,
}

/// A WebSub subscription.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscription {
    pub podcast_id: String,
    pub hub: String,
    pub topic: String,
    pub callback_token: String,
    pub secret: String,
    /// `requested`, `active`, `denied` or `unsubscribed`.
    pub state: String,
    pub requested_at: DateTime<Utc>,
    pub lease_expires_at: Option<DateTime<Utc>>,
}

/// The columns of a [`ScheduledFeed`], with whether a live subscription pushes the
/// feed as of the time in parameter `$now`.
macro_rules! schedule_columns {
    ($now:literal) => {
        concat!(
            "f.podcast_id, f.feed_url, f.etag, f.last_modified, f.content_hash, \
             f.interval_seconds, \
             f.next_poll_at, f.failures, f.last_polled_at, f.last_outcome, f.last_error, \
             f.last_changed_at, \
             f.pushed_at, f.release_window, CAST(CASE WHEN s.state = 'active' AND s.lease_expires_at > ",
            $now,
            " THEN 1 ELSE 0 END AS BIGINT) AS pushed \
             FROM feed_schedule f LEFT JOIN websub_subscriptions s ON s.podcast_id = f.podcast_id"
        )
    };
}

fn scheduled(row: &AnyRow) -> Result<ScheduledFeed, StoreError> {
    Ok(ScheduledFeed {
        podcast_id: row.try_get("podcast_id")?,
        feed_url: row.try_get("feed_url")?,
        etag: row.try_get("etag")?,
        last_modified: row.try_get("last_modified")?,
        content_hash: row.try_get("content_hash")?,
        interval_seconds: row.try_get("interval_seconds")?,
        next_poll_at: time_at(row, "next_poll_at")?,
        failures: row.try_get("failures")?,
        last_polled_at: optional_time_at(row, "last_polled_at")?,
        last_outcome: row.try_get("last_outcome")?,
        last_error: row.try_get("last_error")?,
        last_changed_at: optional_time_at(row, "last_changed_at")?,
        pushed_at: optional_time_at(row, "pushed_at")?,
        pushed: row.try_get::<i64, _>("pushed")? == 1,
        release_window: row.try_get("release_window")?,
    })
}

fn subscription(row: &AnyRow) -> Result<Subscription, StoreError> {
    Ok(Subscription {
        podcast_id: row.try_get("podcast_id")?,
        hub: row.try_get("hub")?,
        topic: row.try_get("topic")?,
        callback_token: row.try_get("callback_token")?,
        secret: row.try_get("secret")?,
        state: row.try_get("state")?,
        requested_at: time_at(row, "requested_at")?,
        lease_expires_at: optional_time_at(row, "lease_expires_at")?,
    })
}

impl Database {
    /// The ids of every scheduled feed.
    pub async fn scheduled_feed_ids(&self) -> Result<Vec<String>, StoreError> {
        self.run(async {
            let rows = sqlx::query("SELECT podcast_id FROM feed_schedule")
                .fetch_all(self.pool())
                .await?;
            rows.iter()
                .map(|row| Ok(row.try_get::<String, _>(0)?))
                .collect()
        })
        .await
    }

    /// Starts following `feeds`; a feed already followed keeps its schedule. How many
    /// were new.
    pub async fn schedule_feeds(&self, feeds: &[NewFeed]) -> Result<u64, StoreError> {
        if feeds.is_empty() {
            return Ok(0);
        }
        self.run(async {
            let mut transaction = self.begin_write().await?;
            let mut added = 0;
            for feed in feeds {
                added += sqlx::query(
                    "INSERT INTO feed_schedule (podcast_id, feed_url, \
                     interval_seconds, next_poll_at, failures, release_window, \
                     etag, last_modified, content_hash, last_polled_at) \
                     VALUES ($1, $2, $3, $4, 0, $5, $6, $7, $8, $9) \
                     ON CONFLICT (podcast_id) DO NOTHING",
                )
                .bind(&feed.podcast_id)
                .bind(&feed.feed_url)
                .bind(feed.interval_seconds)
                .bind(time_text(feed.next_poll_at))
                .bind(feed.release_window.as_deref())
                .bind(feed.etag.as_deref())
                .bind(feed.last_modified.as_deref())
                .bind(feed.content_hash.as_deref())
                .bind(feed.last_polled_at.map(time_text))
                .execute(&mut *transaction)
                .await?
                .rows_affected();
            }
            transaction.commit().await?;
            Ok(added)
        })
        .await
    }

    /// At most `limit` feeds due at `now`, the longest overdue first.
    pub async fn due_feeds(
        &self,
        now: DateTime<Utc>,
        limit: i64,
        lane: FeedLane,
    ) -> Result<Vec<ScheduledFeed>, StoreError> {
        let sql = match lane {
            FeedLane::Answering => concat!(
                "SELECT ",
                schedule_columns!("$1"),
                " WHERE f.next_poll_at <= $1 AND f.failures = 0 \
                 ORDER BY f.next_poll_at, f.podcast_id LIMIT $2"
            ),
            FeedLane::Failing => concat!(
                "SELECT ",
                schedule_columns!("$1"),
                " WHERE f.next_poll_at <= $1 AND f.failures > 0 \
                 ORDER BY f.next_poll_at, f.podcast_id LIMIT $2"
            ),
        };
        self.run(async {
            let rows = sqlx::query(sql)
                .bind(time_text(now))
                .bind(limit)
                .fetch_all(self.pool())
                .await?;
            rows.iter().map(scheduled).collect()
        })
        .await
    }

    /// One scheduled feed, as of now.
    pub async fn scheduled_feed(
        &self,
        podcast_id: &str,
    ) -> Result<Option<ScheduledFeed>, StoreError> {
        self.run(async {
            let row = sqlx::query(concat!(
                "SELECT ",
                schedule_columns!("$2"),
                " WHERE f.podcast_id = $1"
            ))
            .bind(podcast_id)
            .bind(time_text(Utc::now()))
            .fetch_optional(self.pool())
            .await?;
            row.as_ref().map(scheduled).transpose()
        })
        .await
    }

    /// Records the polls of one cycle in one transaction. A push that arrived while a
    /// feed was polled keeps the feed due (its `pushed_at` is after the poll began).
    pub async fn record_polls(&self, polls: &[PollOutcome]) -> Result<(), StoreError> {
        if polls.is_empty() {
            return Ok(());
        }
        self.run(async {
            let mut transaction = self.begin_write().await?;
            for poll in polls {
                let polled_at = time_text(poll.polled_at);
                sqlx::query(
                    "UPDATE feed_schedule SET feed_url = $2, etag = $3, last_modified = $4, \
                     interval_seconds = $5, \
                     next_poll_at = CASE WHEN pushed_at IS NOT NULL AND pushed_at > $6 \
                                    THEN pushed_at ELSE $7 END, \
                     failures = $8, last_polled_at = $6, last_outcome = $9, last_error = $10, \
                     last_changed_at = CASE WHEN $11 = 1 THEN $6 ELSE last_changed_at END, \
                     release_window = $12, content_hash = $13 \
                     WHERE podcast_id = $1",
                )
                .bind(&poll.podcast_id)
                .bind(&poll.feed_url)
                .bind(&poll.etag)
                .bind(&poll.last_modified)
                .bind(poll.interval_seconds)
                .bind(&polled_at)
                .bind(time_text(poll.next_poll_at))
                .bind(poll.failures)
                .bind(&poll.outcome)
                .bind(&poll.error)
                .bind(i64::from(poll.changed))
                .bind(poll.release_window.as_deref())
                .bind(poll.content_hash.as_deref())
                .execute(&mut *transaction)
                .await?;
            }
            transaction.commit().await?;
            Ok(())
        })
        .await
    }

    /// Makes a followed feed due at `at` (a hub pushed a change). False when the
    /// feed is not followed.
    pub async fn push_feed(&self, podcast_id: &str, at: DateTime<Utc>) -> Result<bool, StoreError> {
        self.run(async {
            let at = time_text(at);
            let updated = sqlx::query(
                "UPDATE feed_schedule SET pushed_at = $2, \
                 next_poll_at = CASE WHEN next_poll_at < $2 THEN next_poll_at ELSE $2 END \
                 WHERE podcast_id = $1",
            )
            .bind(podcast_id)
            .bind(at)
            .execute(self.writer())
            .await?;
            Ok(updated.rows_affected() > 0)
        })
        .await
    }

    /// Stops following a feed (its podcast is gone from the catalog).
    pub async fn unschedule_feed(&self, podcast_id: &str) -> Result<(), StoreError> {
        self.run(async {
            sqlx::query("DELETE FROM feed_schedule WHERE podcast_id = $1")
                .bind(podcast_id)
                .execute(self.writer())
                .await?;
            Ok(())
        })
        .await
    }

    /// The schedule at a glance as of `now`.
    pub async fn schedule_summary(
        &self,
        now: DateTime<Utc>,
    ) -> Result<ScheduleSummary, StoreError> {
        self.run(async {
            let now = time_text(now);
            let row = sqlx::query(
                "SELECT COUNT(*) AS feeds, \
                 COALESCE(SUM(CASE WHEN next_poll_at <= $1 THEN 1 ELSE 0 END), 0) AS due, \
                 COALESCE(SUM(CASE WHEN failures > 0 THEN 1 ELSE 0 END), 0) AS failing, \
                 MIN(CASE WHEN next_poll_at <= $1 THEN next_poll_at END) AS oldest_due_at, \
                 MIN(CASE WHEN next_poll_at > $1 THEN next_poll_at END) AS next_poll_at, \
                 MAX(last_polled_at) AS last_polled_at \
                 FROM feed_schedule",
            )
            .bind(&now)
            .fetch_one(self.pool())
            .await?;
            let active: i64 = sqlx::query(
                "SELECT COUNT(*) FROM websub_subscriptions WHERE state = 'active' \
                 AND lease_expires_at > $1",
            )
            .bind(&now)
            .fetch_one(self.pool())
            .await?
            .try_get(0)?;
            let count = |column: &str| -> Result<u64, StoreError> {
                Ok(u64::try_from(row.try_get::<i64, _>(column)?).unwrap_or(0))
            };
            Ok(ScheduleSummary {
                feeds: count("feeds")?,
                due: count("due")?,
                failing: count("failing")?,
                oldest_due_at: optional_time_at(&row, "oldest_due_at")?,
                next_poll_at: optional_time_at(&row, "next_poll_at")?,
                last_polled_at: optional_time_at(&row, "last_polled_at")?,
                active_subscriptions: u64::try_from(active).unwrap_or(0),
            })
        })
        .await
    }

    /// The feed's subscription, if any.
    pub async fn subscription_of(
        &self,
        podcast_id: &str,
    ) -> Result<Option<Subscription>, StoreError> {
        self.run(async {
            let row = sqlx::query("SELECT * FROM websub_subscriptions WHERE podcast_id = $1")
                .bind(podcast_id)
                .fetch_optional(self.pool())
                .await?;
            row.as_ref().map(subscription).transpose()
        })
        .await
    }

    /// The subscription a callback token names, if any.
    pub async fn subscription_by_token(
        &self,
        token: &str,
    ) -> Result<Option<Subscription>, StoreError> {
        self.run(async {
            let row = sqlx::query("SELECT * FROM websub_subscriptions WHERE callback_token = $1")
                .bind(token)
                .fetch_optional(self.pool())
                .await?;
            row.as_ref().map(subscription).transpose()
        })
        .await
    }

    /// Records a subscription request (replacing the feed's previous one).
    pub async fn save_subscription(&self, subscription: &Subscription) -> Result<(), StoreError> {
        self.run(async {
            let mut transaction = self.begin_write().await?;
            sqlx::query("DELETE FROM websub_subscriptions WHERE podcast_id = $1")
                .bind(&subscription.podcast_id)
                .execute(&mut *transaction)
                .await?;
            sqlx::query(
                "INSERT INTO websub_subscriptions (podcast_id, hub, topic, callback_token, \
                 secret, state, requested_at, lease_expires_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            )
            .bind(&subscription.podcast_id)
            .bind(&subscription.hub)
            .bind(&subscription.topic)
            .bind(&subscription.callback_token)
            .bind(&subscription.secret)
            .bind(&subscription.state)
            .bind(time_text(subscription.requested_at))
            .bind(subscription.lease_expires_at.map(time_text))
            .execute(&mut *transaction)
            .await?;
            transaction.commit().await?;
            Ok(())
        })
        .await
    }

    /// Sets the state (and lease) of the subscription `token` names.
    pub async fn set_subscription_state(
        &self,
        token: &str,
        state: &str,
        lease_expires_at: Option<DateTime<Utc>>,
    ) -> Result<(), StoreError> {
        self.run(async {
            sqlx::query(
                "UPDATE websub_subscriptions SET state = $2, lease_expires_at = $3 \
                 WHERE callback_token = $1",
            )
            .bind(token)
            .bind(state)
            .bind(lease_expires_at.map(time_text))
            .execute(self.writer())
            .await?;
            Ok(())
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    //! On SQLite, and on PostgreSQL when `PODLENS_TEST_DATABASE_URL` names a server.

    use chrono::{Duration, TimeZone};

    use super::*;

    fn at(minute: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 24, 12, 0, 0).unwrap() + Duration::minutes(minute)
    }

    fn feed(id: &str, due_minute: i64) -> NewFeed {
        NewFeed {
            podcast_id: id.to_owned(),
            feed_url: format!("https://feeds.example.test/{id}.xml"),
            interval_seconds: 3600,
            next_poll_at: at(due_minute),
            ..NewFeed::default()
        }
    }

    fn polled(id: &str, polled_minute: i64, next_minute: i64, outcome: &str) -> PollOutcome {
        PollOutcome {
            podcast_id: id.to_owned(),
            feed_url: format!("https://feeds.example.test/{id}.xml"),
            polled_at: at(polled_minute),
            outcome: outcome.to_owned(),
            error: (outcome != "ok").then(|| "refused".to_owned()),
            etag: Some("\"v2\"".to_owned()),
            last_modified: None,
            content_hash: Some(format!("hash of {id}")),
            interval_seconds: 3600,
            next_poll_at: at(next_minute),
            failures: i64::from(outcome != "ok"),
            changed: outcome == "ok",
            release_window: (outcome == "ok").then(|| "604800/30600/3600".to_owned()),
        }
    }

    #[tokio::test]
    async fn feeds_are_due_in_order_and_a_followed_feed_keeps_its_schedule() {
        let database = Database::for_tests().unwrap();
        assert_eq!(
            database
                .schedule_feeds(&[feed("b", 5), feed("a", 10), feed("c", 30)])
                .await
                .unwrap(),
            3
        );
        // Seeding again adds only the new feed and moves nothing.
        assert_eq!(
            database
                .schedule_feeds(&[feed("a", 0), feed("d", 1)])
                .await
                .unwrap(),
            1
        );
        let due: Vec<String> = database
            .due_feeds(at(10), 10, FeedLane::Answering)
            .await
            .unwrap()
            .into_iter()
            .map(|feed| feed.podcast_id)
            .collect();
        assert_eq!(due, ["d", "b", "a"]);
        assert_eq!(
            database
                .due_feeds(at(10), 2, FeedLane::Answering)
                .await
                .unwrap()
                .len(),
            2
        );
        let mut ids = database.scheduled_feed_ids().await.unwrap();
        ids.sort();
        assert_eq!(ids, ["a", "b", "c", "d"]);

        let summary = database.schedule_summary(at(10)).await.unwrap();
        assert_eq!((summary.feeds, summary.due, summary.failing), (4, 3, 0));
        assert_eq!(summary.oldest_due_at, Some(at(1)));
        assert_eq!(summary.next_poll_at, Some(at(30)));
    }

    #[tokio::test]
    async fn a_poll_sets_the_next_time_and_a_push_during_the_poll_keeps_the_feed_due() {
        let database = Database::for_tests().unwrap();
        database
            .schedule_feeds(&[feed("a", 0), feed("b", 0)])
            .await
            .unwrap();
        // The hub pushes `b` while the cycle that began at minute 1 polls it.
        assert!(database.push_feed("b", at(2)).await.unwrap());
        assert!(!database.push_feed("unknown", at(2)).await.unwrap());
        database
            .record_polls(&[polled("a", 1, 61, "ok"), polled("b", 1, 61, "network")])
            .await
            .unwrap();
        let a = database.scheduled_feed("a").await.unwrap().unwrap();
        assert_eq!(a.next_poll_at, at(61));
        assert_eq!(a.etag.as_deref(), Some("\"v2\""));
        assert_eq!(a.content_hash.as_deref(), Some("hash of a"));
        assert_eq!((a.failures, a.last_changed_at), (0, Some(at(1))));
        assert_eq!(a.release_window.as_deref(), Some("604800/30600/3600"));
        let b = database.scheduled_feed("b").await.unwrap().unwrap();
        assert_eq!(b.release_window, None);
        assert_eq!(b.next_poll_at, at(2), "the push after the poll began wins");
        assert_eq!(
            (b.failures, b.last_outcome.as_deref()),
            (1, Some("network"))
        );
        assert_eq!(b.last_changed_at, None);
        // The failed feed is polled in the failing lane only.
        let lane = |lane| -> Vec<String> {
            let due = database
                .wait(database.due_feeds(at(100), 10, lane))
                .unwrap();
            due.into_iter().map(|feed| feed.podcast_id).collect()
        };
        assert_eq!(lane(FeedLane::Answering), ["a"]);
        assert_eq!(lane(FeedLane::Failing), ["b"]);
        // A push before the poll began was served by it.
        database
            .record_polls(&[polled("b", 3, 63, "ok")])
            .await
            .unwrap();
        assert_eq!(
            database
                .scheduled_feed("b")
                .await
                .unwrap()
                .unwrap()
                .next_poll_at,
            at(63)
        );
        // A push never delays a feed that is due sooner.
        database.push_feed("a", at(70)).await.unwrap();
        assert_eq!(
            database
                .scheduled_feed("a")
                .await
                .unwrap()
                .unwrap()
                .next_poll_at,
            at(61)
        );

        let summary = database.schedule_summary(at(5)).await.unwrap();
        assert_eq!((summary.due, summary.failing), (0, 0));
        assert_eq!(summary.last_polled_at, Some(at(3)));
        database.unschedule_feed("a").await.unwrap();
        assert!(database.scheduled_feed("a").await.unwrap().is_none());
    }

    #[tokio::test]
    async fn a_subscription_is_found_by_its_token_and_replaced_per_feed() {
        let database = Database::for_tests().unwrap();
        let mut subscription = Subscription {
            podcast_id: "a".into(),
            hub: "https://hub.example.test/".into(),
            topic: "https://feeds.example.test/a.xml".into(),
            callback_token: "t1".into(),
            secret: "s1".into(),
            state: "requested".into(),
            requested_at: at(0),
            lease_expires_at: None,
        };
        database.save_subscription(&subscription).await.unwrap();
        database
            .set_subscription_state("t1", "active", Some(at(60 * 24 * 10)))
            .await
            .unwrap();
        let found = database.subscription_by_token("t1").await.unwrap().unwrap();
        assert_eq!(found.state, "active");
        assert_eq!(found.lease_expires_at, Some(at(60 * 24 * 10)));
        database.schedule_feeds(&[feed("a", 0)]).await.unwrap();
        assert_eq!(
            database
                .schedule_summary(at(0))
                .await
                .unwrap()
                .active_subscriptions,
            1
        );
        // A due feed says whether a live subscription pushes it.
        assert!(
            database
                .due_feeds(at(0), 10, FeedLane::Answering)
                .await
                .unwrap()[0]
                .pushed
        );
        assert!(
            !database
                .due_feeds(at(60 * 24 * 11), 10, FeedLane::Answering)
                .await
                .unwrap()[0]
                .pushed
        );

        subscription.callback_token = "t2".into();
        database.save_subscription(&subscription).await.unwrap();
        assert!(
            database
                .subscription_by_token("t1")
                .await
                .unwrap()
                .is_none()
        );
        assert_eq!(
            database
                .subscription_of("a")
                .await
                .unwrap()
                .unwrap()
                .callback_token,
            "t2"
        );
        assert_eq!(
            database
                .schedule_summary(at(0))
                .await
                .unwrap()
                .active_subscriptions,
            0
        );
        assert!(
            !database
                .due_feeds(at(0), 10, FeedLane::Answering)
                .await
                .unwrap()[0]
                .pushed
        );
    }
}

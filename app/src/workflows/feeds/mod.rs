//! The feed scheduler: `podlens serve` re-reads every feed of the catalog on a schedule
//! that follows the feed's own rhythm ([`podlens_ingest::schedule`]), so new episodes
//! become searchable within minutes without anyone running `podlens ingest`.
//!
//! It runs in the server rather than as a separate process because the server already
//! owns what a poll must touch at once: the catalog's single writer turn (shared with
//! refresh requests and stored transcripts), the incremental index generations, the
//! readers that switch to them, and the cluster's leadership and change log. Only the
//! leading node polls; the others apply its changes from the log.
//!
//! Every [`TICK`], the leader takes the feeds that are due (at most [`BATCH`], the
//! longest overdue first) from the store's `feed_schedule` and fetches them with the
//! same fetcher as `podlens ingest` — conditional GET with each feed's validators, a
//! bounded number of feeds in flight and [`PER_HOST`] per host, timeouts and size caps.
//! The catalog is opened only when a feed changed: the changed feeds are stored, and
//! one snapshot and one index generation publish the whole cycle's new and changed
//! episodes ([`crate::feed_changes`]). Each feed's next poll is then written: its
//! rhythm's interval after an answer, an exponential backoff after a failure. Feeds
//! whose last poll failed are polled apart, in a retry lane of their own (one poll at
//! a time), so a feed that hangs until its timeout, redirects in a loop or streams
//! without end never holds up the publishing of the feeds that answer. A feed
//! whose WebSub hub pushes its changes is polled at once when pushed
//! ([`websub`]) and otherwise only as a safety net.
//!
//! The schedule is seeded from the catalog snapshot. A feed the catalog read recently
//! (a `podlens ingest` just before the server started) is due one interval after that
//! read, with its validators and the hash of its bytes, and its WebSub hub (kept by the
//! catalog) is subscribed to at once; any other feed not yet followed is due somewhere
//! within its first ten minutes, so a fresh catalog is not polled all at once. A feed
//! that answers with the bytes it answered last time (a server that ignores conditional
//! GET) is "not modified": a hash and a comparison, no parse, no catalog write.
//! A crash mid-cycle loses nothing: the feeds polled stay due until their outcome is
//! written, and podcasts stored but not yet indexed are indexed by the next publish.
//! A stopping server ([`FeedScheduler::stop`]) ends its cycle at the next feed: fetches
//! in flight are dropped (those feeds stay due), feeds not yet stored are not stored
//! (nor their polls written), and the publish of what was stored is left to the next
//! start, which finds those podcasts listed as unindexed.

pub mod websub;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use podlens_ingest::fetch::{
    CollectedFeeds, FeedSource, FeedState, HttpConfig, IngestConfig, ingest,
};
use podlens_ingest::schedule;
use podlens_model::catalog::{FeedBatch, FeedFetchRecord, FeedPolling, PodcastRecord};
use podlens_store::{Database, FeedLane, NewFeed, PollOutcome, ScheduledFeed};
use serde::Serialize;
use uuid::Uuid;

use crate::cluster::CatalogChange;
use crate::error::{AppError, AppResult};
use crate::feed_changes::{is_gone, publish, store_marked};
use crate::refresh::CatalogWrites;

/// How often the leader looks for due feeds.
pub const TICK: Duration = Duration::from_secs(5);
/// Feeds polled per cycle at most.
pub const BATCH: i64 = 200;
/// Feeds in flight at once.
const CONCURRENCY: usize = 16;
/// Requests in flight to one host at once.
const PER_HOST: usize = 2;
/// How often the schedule is seeded again from the snapshot (new podcasts of a batch
/// `podlens ingest`).
const SEED_EVERY: Duration = Duration::from_secs(300);

/// The scheduler's settings and what it remembers between cycles.
pub struct FeedScheduler {
    database: Arc<Database>,
    enabled: bool,
    http: Mutex<HttpConfig>,
    /// The podcasts known to be in the schedule, and when it was last seeded.
    seeded: Mutex<(HashSet<Uuid>, Option<Instant>)>,
    /// Where hubs reach this service (`--public-url`), for WebSub callbacks.
    public_url: Option<String>,
    /// The poll of the feeds whose last poll failed, while it runs.
    retry_lane: Mutex<Option<tokio::task::JoinHandle<AppResult<CycleReport>>>>,
    /// Set when the server stops: cycles end at the next feed.
    stopping: AtomicBool,
    stopped: tokio::sync::Notify,
    /// The scheduler's loop, while it runs.
    running: Mutex<Option<tokio::task::JoinHandle<()>>>,
}

impl std::fmt::Debug for FeedScheduler {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("FeedScheduler")
            .field("enabled", &self.enabled)
            .field("public_url", &self.public_url)
            .finish_non_exhaustive()
    }
}

/// What one cycle did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CycleReport {
    pub seeded: u64,
    pub polled: usize,
    pub changed: usize,
    pub not_modified: usize,
    pub failed: usize,
    pub new_episodes: usize,
    pub removed_podcasts: usize,
    pub generation: Option<u64>,
}

impl FeedScheduler {
    /// A scheduler over `database`'s `feed_schedule`; `enabled: false` never polls
    /// (`podlens serve --no-poll`).
    pub fn new(database: Arc<Database>, enabled: bool) -> FeedScheduler {
        FeedScheduler {
            database,
            enabled,
            http: Mutex::new(HttpConfig {
                timeout: Duration::from_secs(20),
                retries: 1,
                ..HttpConfig::default()
            }),
            seeded: Mutex::new((HashSet::new(), None)),
            public_url: None,
            retry_lane: Mutex::new(None),
            stopping: AtomicBool::new(false),
            stopped: tokio::sync::Notify::new(),
            running: Mutex::new(None),
        }
    }

    /// Stops polling: the cycle under way ends at its next feed (see the module's
    /// comment), and no other starts.
    pub fn stop(&self) {
        self.stopping.store(true, Ordering::SeqCst);
        self.stopped.notify_waiters();
    }

    /// Whether [`FeedScheduler::stop`] was called.
    pub fn stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }

    /// Resolves once [`FeedScheduler::stop`] is called.
    async fn until_stopped(&self) {
        let notified = self.stopped.notified();
        tokio::pin!(notified);
        notified.as_mut().enable();
        if self.stopping() {
            return;
        }
        notified.await;
    }

    /// Waits, at most `limit`, for the loop and the retry lane to end after
    /// [`FeedScheduler::stop`]; whether they did.
    pub async fn stopped_within(&self, limit: Duration) -> bool {
        let running = lock(&self.running).take();
        let lane = lock(&self.retry_lane).take();
        tokio::time::timeout(limit, async move {
            if let Some(running) = running {
                let _ = running.await;
            }
            if let Some(lane) = lane {
                let _ = lane.await;
            }
        })
        .await
        .is_ok()
    }

    /// Polls with these HTTP settings (the server's address policy).
    pub fn with_http(self, http: HttpConfig) -> FeedScheduler {
        *lock(&self.http) = http;
        self
    }

    /// Subscribes to WebSub hubs with callbacks under `public_url`.
    pub fn with_public_url(mut self, public_url: Option<String>) -> FeedScheduler {
        self.public_url = public_url.map(|url| url.trim_end_matches('/').to_owned());
        self
    }

    pub fn enabled(&self) -> bool {
        self.enabled
    }

    pub fn database(&self) -> &Arc<Database> {
        &self.database
    }

    pub fn public_url(&self) -> Option<&str> {
        self.public_url.as_deref()
    }

    pub(crate) fn http(&self) -> HttpConfig {
        lock(&self.http).clone()
    }

    /// Waits for the retry lane's poll of failing feeds, when one was started, and
    /// returns what it did.
    pub async fn retry_lane_finished(&self) -> Option<AppResult<CycleReport>> {
        let lane = lock(&self.retry_lane).take()?;
        Some(lane.await.unwrap_or_else(|error| {
            Err(AppError::Internal(format!(
                "the retry lane failed: {error}"
            )))
        }))
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The publishing period an update-frequency class stands for.
fn class_period(class: Option<&str>) -> Option<i64> {
    Some(match class? {
        "daily" => 86_400,
        "weekly" => 7 * 86_400,
        "bi-weekly" => 14 * 86_400,
        "monthly" => 30 * 86_400,
        _ => return None,
    })
}

/// The interval a podcast starts with, from what the snapshot says of it.
fn seed_interval(podcast: &PodcastRecord, now: DateTime<Utc>) -> Duration {
    let polling = FeedPolling {
        declared_period_seconds: class_period(podcast.update_frequency.as_deref()),
        complete: podcast.podcast_complete,
        ..FeedPolling::default()
    };
    let published: Vec<DateTime<Utc>> = podcast.last_episode_date.into_iter().collect();
    schedule::poll_interval(&polling, &published, false, now)
}

/// What the scheduler's cycles need: the scheduler (its schedule, HTTP settings and
/// retry lane) and the server's writes to the catalog.
#[derive(Clone)]
pub struct Feeds {
    pub scheduler: Arc<FeedScheduler>,
    pub writes: CatalogWrites,
}

/// What seeding did: how many feeds were added, and the hubs the catalog knows for
/// them, to subscribe to.
#[derive(Debug, Default)]
pub struct Seeded {
    pub added: u64,
    pub hubs: Vec<(Uuid, FeedPolling)>,
}

/// Follows the snapshot's podcasts not followed yet. The podcasts known to be in the
/// schedule are read from the store once, then kept; reading the snapshot and the
/// catalog's last reads runs on a blocking thread.
pub async fn seed(feeds: &Feeds, now: DateTime<Utc>) -> AppResult<Seeded> {
    let scheduler = &feeds.scheduler;
    let database = &scheduler.database;
    // Taken out while the seeding runs (only the feed cycle seeds); a seeding that
    // fails leaves it empty, and the next one reads it from the store again.
    let mut known = std::mem::take(&mut lock(&scheduler.seeded).0);
    if known.is_empty() {
        known = database
            .scheduled_feed_ids()
            .await?
            .iter()
            .filter_map(|id| Uuid::parse_str(id).ok())
            .collect();
    }
    let seed_feeds = feeds.clone();
    let (new, hubs, mut known) = crate::runtime::blocking(move || {
        let view = seed_feeds.writes.catalog.snapshot()?.podcasts_view();
        let mut new: Vec<NewFeed> = view
            .all()
            .filter(|podcast| !podcast.podcast_blocked && !known.contains(&podcast.podcast_id))
            .filter(|podcast| podcast.podcast_rss_feed_url.starts_with("http"))
            .map(|podcast| {
                let interval = seed_interval(podcast, now);
                let offset = schedule::first_poll_offset(interval, podcast.podcast_id);
                NewFeed {
                    podcast_id: podcast.podcast_id.to_string(),
                    feed_url: podcast.podcast_rss_feed_url.clone(),
                    release_window: None,
                    interval_seconds: interval.as_secs() as i64,
                    next_poll_at: now + chrono::Duration::from_std(offset).unwrap_or_default(),
                    ..NewFeed::default()
                }
            })
            .collect();
        let hubs = with_what_the_catalog_knows(&seed_feeds, &mut new, now);
        Ok((new, hubs, known))
    })
    .await?;
    let added = database.schedule_feeds(&new).await?;
    known.extend(
        new.iter()
            .filter_map(|feed| Uuid::parse_str(&feed.podcast_id).ok()),
    );
    let mut seeded = lock(&scheduler.seeded);
    seeded.0.extend(known);
    seeded.1 = Some(Instant::now());
    Ok(Seeded { added, hubs })
}

/// Gives `new` feeds the release habit of their recent episodes in the catalog and
/// takes over from the catalog's last read of each: a feed read less than an interval
/// ago is due an interval after that read (not again at once), with that read's
/// validators and hash. Returns the WebSub hubs the catalog knows for them. Without
/// the catalog (a batch job holds it), the first polls learn all this.
fn with_what_the_catalog_knows(
    feeds: &Feeds,
    new: &mut [NewFeed],
    now: DateTime<Utc>,
) -> Vec<(Uuid, FeedPolling)> {
    if new.is_empty() {
        return Vec::new();
    }
    let known = {
        let _turn = feeds.writes.refresher.catalog_turn();
        podlens_data::Catalog::open(&feeds.writes.data_dir).and_then(|catalog| {
            Ok((
                catalog.recent_publication_dates(schedule::HABIT_EPISODES)?,
                catalog.polling_states()?,
            ))
        })
    };
    let (published, states) = match known {
        Ok(known) => known,
        Err(error) => {
            tracing::info!(%error, "feeds followed without what the catalog knows of them: their first polls learn it");
            return Vec::new();
        }
    };
    let mut hubs = Vec::new();
    for feed in new.iter_mut() {
        let window = published
            .get(&feed.feed_url)
            .and_then(|dates| schedule::release_window(dates));
        feed.release_window = window.as_ref().map(|window| window.to_text());
        let Some(state) = states.get(&feed.feed_url) else {
            continue;
        };
        let id = Uuid::parse_str(&feed.podcast_id).unwrap_or_default();
        if let Some(read_at) = state.last_success_at {
            let interval = Duration::from_secs(u64::try_from(feed.interval_seconds).unwrap_or(0));
            let wait = schedule::wait_with_window(
                schedule::spread(interval, id),
                window.as_ref(),
                read_at,
            );
            let due = read_at + chrono::Duration::from_std(wait).unwrap_or_default();
            if due > now {
                feed.next_poll_at = due;
                feed.etag = state.etag.clone();
                feed.last_modified = state.last_modified.clone();
                feed.content_hash = state.content_hash.clone();
                feed.last_polled_at = Some(read_at);
            }
        }
        if state.websub_hub.is_some() {
            hubs.push((
                id,
                FeedPolling {
                    hub: state.websub_hub.clone(),
                    topic: state
                        .websub_topic
                        .clone()
                        .or_else(|| Some(feed.feed_url.clone())),
                    ..FeedPolling::default()
                },
            ));
        }
    }
    hubs
}

fn seed_due(scheduler: &FeedScheduler) -> bool {
    lock(&scheduler.seeded)
        .1
        .is_none_or(|at| at.elapsed() >= SEED_EVERY)
}

/// One cycle: seed when due, hand the due feeds whose last poll failed to the retry
/// lane (when it is free), poll the other due feeds, store and publish what changed,
/// write each feed's next poll.
pub async fn run_cycle(feeds: &Feeds) -> AppResult<CycleReport> {
    let now = Utc::now();
    let mut seeded = 0;
    if seed_due(&feeds.scheduler) {
        let done = seed(feeds, now).await?;
        seeded = done.added;
        if !done.hubs.is_empty() {
            websub::subscribe_all(&feeds.scheduler, done.hubs).await;
        }
    }
    start_retry_lane(feeds, now).await?;
    let due = feeds
        .scheduler
        .database
        .due_feeds(now, BATCH, FeedLane::Answering)
        .await?;
    // Podcasts a crash or a failed publish left stored but unindexed are published
    // even when no feed is due.
    if due.is_empty() && crate::feed_changes::unindexed(&feeds.writes.data_dir).is_empty() {
        return Ok(CycleReport {
            seeded,
            ..CycleReport::default()
        });
    }
    let mut report = poll(feeds, due).await?;
    report.seeded = seeded;
    Ok(report)
}

/// Polls the due feeds whose last poll failed in a task of their own, unless the lane
/// is still busy with the previous ones (they stay due meanwhile): a feed that hangs
/// until its timeout, redirects in a loop or streams without end holds up only the
/// other failing feeds, never the publishing of the feeds that answer.
async fn start_retry_lane(feeds: &Feeds, now: DateTime<Utc>) -> AppResult<()> {
    if lock(&feeds.scheduler.retry_lane)
        .as_ref()
        .is_some_and(|lane| !lane.is_finished())
    {
        return Ok(());
    }
    let failing = feeds
        .scheduler
        .database
        .due_feeds(now, BATCH, FeedLane::Failing)
        .await?;
    if failing.is_empty() {
        return Ok(());
    }
    let lane_feeds = feeds.clone();
    let lane = tokio::spawn(async move {
        let result = poll(&lane_feeds, failing).await;
        log_cycle("retry", &result);
        result
    });
    *lock(&feeds.scheduler.retry_lane) = Some(lane);
    Ok(())
}

/// Fetches `due` (conditional GET, bounded concurrency), stores and publishes what
/// changed, and writes each feed's next poll.
async fn poll(feeds: &Feeds, due: Vec<ScheduledFeed>) -> AppResult<CycleReport> {
    let started = Instant::now();
    let sources: Vec<FeedSource> = due
        .iter()
        .map(|feed| {
            FeedSource::Url(FeedState {
                podcast_id: Uuid::parse_str(&feed.podcast_id).ok(),
                feed_url: feed.feed_url.clone(),
                etag: feed.etag.clone(),
                last_modified: feed.last_modified.clone(),
                content_hash: feed.content_hash.clone(),
            })
        })
        .collect();
    let config = IngestConfig {
        http: feeds.scheduler.http(),
        concurrency: CONCURRENCY,
        per_host_concurrency: PER_HOST,
        ..IngestConfig::default()
    };
    // A stop drops the fetches in flight: nothing of them is written, the feeds stay due.
    let fetched = tokio::select! {
        fetched = ingest(sources, config, CollectedFeeds::default(), None) => fetched,
        () = feeds.scheduler.until_stopped() => return Ok(CycleReport::default()),
    };
    let (_, collected) =
        fetched.map_err(|error| AppError::Internal(format!("the feed poll failed: {error}")))?;
    let cycle_feeds = feeds.clone();
    let StoredCycle {
        report: finished,
        subscribe,
        polls,
        changes,
    } = crate::runtime::blocking(move || finish_cycle(&cycle_feeds, &due, &collected)).await?;
    // The other nodes sharing the store apply the same changes to their copies (each
    // node applies the log in its order, its own changes too, so recording after the
    // catalog's turn is given back changes no node's outcome).
    for change in &changes {
        if let Err(error) = feeds.writes.cluster.record(change).await {
            tracing::warn!(%error, "a polled feed is not in the change log: other nodes keep the old feed until they poll it");
        }
    }
    feeds.scheduler.database.record_polls(&polls).await?;
    record_feed_cycle(&finished, started.elapsed().as_secs_f64());
    if !subscribe.is_empty() {
        websub::subscribe_all(&feeds.scheduler, subscribe).await;
    }
    Ok(finished)
}

/// What storing a cycle's feeds leaves to do.
struct StoredCycle {
    report: CycleReport,
    /// The feeds whose hubs to subscribe to.
    subscribe: Vec<(Uuid, FeedPolling)>,
    /// Each feed's next poll, for the schedule.
    polls: Vec<PollOutcome>,
    /// What the cycle changed in the catalog, for the other nodes' copies.
    changes: Vec<CatalogChange>,
}

/// Stores the cycle's feeds (when any answered with content, or podcasts were left
/// unindexed) and publishes what changed.
fn finish_cycle(
    feeds: &Feeds,
    due: &[ScheduledFeed],
    collected: &CollectedFeeds,
) -> AppResult<StoredCycle> {
    let mut report = CycleReport {
        polled: collected.fetches.len(),
        ..CycleReport::default()
    };
    let mut changed: HashSet<Uuid> = HashSet::new();
    // Feeds a stop left unstored: neither their polls nor their fetches are written.
    let mut unstored: HashSet<Uuid> = HashSet::new();
    let mut changes = Vec::new();
    let any_gone = collected.fetches.iter().any(is_gone);
    let left_unindexed = !crate::feed_changes::unindexed(&feeds.writes.data_dir).is_empty();
    if !collected.batches.is_empty() || any_gone || left_unindexed {
        let _turn = feeds.writes.refresher.catalog_turn();
        let mut catalog = podlens_data::Catalog::open(&feeds.writes.data_dir).map_err(|error| {
            AppError::Unavailable(format!(
                "the catalog is busy (a batch job holds it); the feeds stay due: {error}"
            ))
        })?;
        let stopping = || feeds.scheduler.stopping();
        let stored = store_marked(&mut catalog, collected, &stopping)?;
        unstored = stored.unstored.iter().copied().collect();
        report.new_episodes = stored.delta.new_episodes;
        report.removed_podcasts = stored.delta.deleted_podcasts.len();
        changed.extend(stored.changes.iter().filter_map(|change| match change {
            CatalogChange::Feed { batch, .. } => Some(batch.podcast.podcast_id),
            _ => None,
        }));
        report.changed = changed.len();
        // A stopping server leaves the publish to its next start (the podcasts stay
        // listed as unindexed).
        if stored.to_publish && !feeds.scheduler.stopping() {
            report.generation =
                publish(&mut catalog, &feeds.writes.catalog, stored.delta)?.generation;
        }
        drop(catalog);
        changes = stored.changes;
    }
    let batches: HashMap<Uuid, &FeedBatch> = collected
        .batches
        .iter()
        .map(|batch| (batch.podcast.podcast_id, batch))
        .collect();
    let fetches: HashMap<Uuid, &FeedFetchRecord> = collected
        .fetches
        .iter()
        .filter_map(|fetch| Some((fetch.podcast_id?, fetch)))
        .collect();
    let moved: HashMap<Uuid, &String> =
        collected.moved.iter().map(|(id, url)| (*id, url)).collect();
    let now = Utc::now();
    let mut subscribe = Vec::new();
    let mut polls = Vec::with_capacity(due.len());
    for feed in due {
        let Ok(id) = Uuid::parse_str(&feed.podcast_id) else {
            continue;
        };
        let Some(fetch) = fetches.get(&id) else {
            continue;
        };
        if unstored.contains(&id) {
            continue;
        }
        match fetch.outcome.as_str() {
            "ok" => {}
            "not-modified" => report.not_modified += 1,
            _ => report.failed += 1,
        }
        let batch = batches.get(&id).copied();
        if let Some(batch) = batch
            && batch.polling.hub.is_some()
            && !feed.pushed
        {
            subscribe.push((id, batch.polling.clone()));
        }
        let mut poll = next_poll(feed, fetch, batch, changed.contains(&id), now);
        if let Some(url) = moved.get(&id) {
            poll.feed_url = (*url).clone();
        }
        polls.push(poll);
    }
    Ok(StoredCycle {
        report,
        subscribe,
        polls,
        changes,
    })
}

/// When `feed` is due again after `fetch`: its rhythm's interval after an answer (the
/// `batch`, when the feed was read, gives the rhythm anew), a backoff after a failure;
/// `changed` says whether its content changed.
pub fn next_poll(
    feed: &ScheduledFeed,
    fetch: &FeedFetchRecord,
    batch: Option<&FeedBatch>,
    changed: bool,
    now: DateTime<Utc>,
) -> PollOutcome {
    let id = Uuid::parse_str(&feed.podcast_id).unwrap_or_default();
    let previous = Duration::from_secs(u64::try_from(feed.interval_seconds).unwrap_or(3600));
    let answered = matches!(fetch.outcome.as_str(), "ok" | "not-modified");
    // The show's release habit: learnt again from the episodes of a feed that answered
    // with content, else the one known.
    let (interval, window) = match batch {
        Some(batch) => {
            let published: Vec<DateTime<Utc>> = batch
                .episodes
                .iter()
                .filter_map(|episode| episode.episode_rss_published_at)
                .collect();
            (
                schedule::poll_interval(&batch.polling, &published, feed.pushed, now),
                schedule::release_window(&published),
            )
        }
        None => {
            let window = feed
                .release_window
                .as_deref()
                .and_then(schedule::ReleaseWindow::from_text);
            if feed.pushed {
                let interval = previous
                    .max(schedule::PUSHED_INTERVAL)
                    .min(schedule::MAX_INTERVAL);
                (interval, window)
            } else {
                (previous, window)
            }
        }
    };
    let failures = if answered { 0 } else { feed.failures + 1 };
    let wait = if is_gone(fetch) {
        schedule::MAX_INTERVAL
    } else if answered && !feed.pushed {
        schedule::wait_with_window(schedule::spread(interval, id), window.as_ref(), now)
    } else if answered {
        schedule::spread(interval, id)
    } else {
        schedule::spread(
            schedule::backoff(interval, u32::try_from(failures).unwrap_or(u32::MAX)),
            id,
        )
    };
    // A failed fetch keeps the validators and hash of the last answer.
    let (etag, last_modified, content_hash) = if answered {
        (
            fetch.etag.clone(),
            fetch.last_modified.clone(),
            fetch
                .content_hash
                .clone()
                .or_else(|| feed.content_hash.clone()),
        )
    } else {
        (
            feed.etag.clone(),
            feed.last_modified.clone(),
            feed.content_hash.clone(),
        )
    };
    PollOutcome {
        podcast_id: feed.podcast_id.clone(),
        feed_url: feed.feed_url.clone(),
        polled_at: fetch.fetched_at,
        outcome: fetch.outcome.clone(),
        error: fetch.error.clone(),
        etag,
        last_modified,
        content_hash,
        interval_seconds: interval.as_secs() as i64,
        next_poll_at: now + chrono::Duration::from_std(wait).unwrap_or_default(),
        release_window: window.map(|window| window.to_text()),
        failures,
        changed,
    }
}

/// Runs [`run_cycle`] every [`TICK`] while this node leads.
pub fn spawn_feed_scheduler(feeds: Feeds) {
    if !feeds.scheduler.enabled() {
        tracing::info!(
            "feed polling is off (--no-poll): feeds are re-read only by `podlens ingest` and refresh requests"
        );
        return;
    }
    let scheduler = feeds.scheduler.clone();
    let running = tokio::spawn(async move {
        let mut ticker = tokio::time::interval(TICK);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = ticker.tick() => {}
                () = feeds.scheduler.until_stopped() => return,
            }
            if feeds.scheduler.stopping() {
                return;
            }
            if !feeds.writes.cluster.is_leader() {
                continue;
            }
            let result = run_cycle(&feeds).await;
            log_cycle("main", &result);
        }
    });
    *lock(&scheduler.running) = Some(running);
}

/// A line for a cycle that found something new or failed; the rest are counted in
/// /metrics. `lane` says which feeds it polled (`main`, or `retry` for those whose
/// last poll failed).
fn log_cycle(lane: &str, result: &AppResult<CycleReport>) {
    match result {
        Ok(report)
            if report.changed > 0
                || report.failed > 0
                || report.seeded > 0
                || report.removed_podcasts > 0 =>
        {
            tracing::info!(
                lane,
                seeded = report.seeded,
                polled = report.polled,
                changed = report.changed,
                not_modified = report.not_modified,
                failed = report.failed,
                new_episodes = report.new_episodes,
                generation = report.generation,
                "feeds polled"
            );
        }
        Ok(report) if report.polled > 0 => tracing::debug!(
            lane,
            polled = report.polled,
            not_modified = report.not_modified,
            "feeds polled: nothing new"
        ),
        Ok(_) => {}
        Err(error) => {
            metrics::counter!("podlens_feed_cycle_failures_total").increment(1);
            tracing::warn!(lane, %error, "the feed poll cycle failed; the feeds stay due");
        }
    }
}

/// Counts one cycle of the feed scheduler.
pub fn record_feed_cycle(report: &CycleReport, seconds: f64) {
    metrics::counter!("podlens_feed_cycles_total").increment(1);
    metrics::histogram!("podlens_feed_cycle_duration_seconds").record(seconds);
    let changed = report.changed as u64;
    let not_modified = report.not_modified as u64;
    let failed = report.failed as u64;
    let unchanged = (report.polled as u64).saturating_sub(changed + not_modified + failed);
    metrics::counter!("podlens_feed_polls_total", "outcome" => "changed").increment(changed);
    metrics::counter!("podlens_feed_polls_total", "outcome" => "unchanged").increment(unchanged);
    metrics::counter!("podlens_feed_polls_total", "outcome" => "not_modified")
        .increment(not_modified);
    metrics::counter!("podlens_feed_polls_total", "outcome" => "failed").increment(failed);
    metrics::counter!("podlens_feed_new_episodes_total").increment(report.new_episodes as u64);
}

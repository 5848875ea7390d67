//! The ingest run: one task per feed, bounded globally and per host.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use podlens_model::catalog::{
    self, EpisodeRecord, FeedBatch, FeedFetchRecord, TranscriptAttempt, TranscriptRecord,
    TranscriptStatus,
};
use tokio::sync::{Semaphore, mpsc};
use uuid::Uuid;

use super::http::{self, HttpConfig, HttpOutcome};
use super::sources::{FeedSource, FeedState, content_hash};
use crate::error::IngestError;
use crate::normalize::{is_blocked, normalize_with_id, preferred_transcript};
use crate::parser::parse_feed;
use crate::transcript::{self, TranscriptFormat};

/// Where results go: the catalog, or anything else that keeps them.
pub trait FeedStore: Send + 'static {
    fn upsert_feed(&mut self, batch: &FeedBatch) -> Result<(), IngestError>;
    fn upsert_transcript(&mut self, transcript: &TranscriptRecord) -> Result<(), IngestError>;
    fn record_fetch(&mut self, fetch: &FeedFetchRecord) -> Result<(), IngestError>;
    fn update_feed_url(&mut self, podcast_id: Uuid, new_url: &str) -> Result<(), IngestError>;

    /// Records a failed transcript fetch in the retry ledger (a store without one
    /// forgets it: the next run tries again).
    fn record_transcript_failure(
        &mut self,
        _attempt: &TranscriptAttempt,
    ) -> Result<(), IngestError> {
        Ok(())
    }

    /// [`FeedStore::upsert_feed`] given the batch itself: a store that buffers
    /// batches keeps it instead of copying it (the run calls this one).
    fn upsert_feed_owned(&mut self, batch: FeedBatch) -> Result<(), IngestError> {
        self.upsert_feed(&batch)
    }

    /// [`FeedStore::upsert_transcript`] given the record itself (the run calls this one).
    fn upsert_transcript_owned(&mut self, transcript: TranscriptRecord) -> Result<(), IngestError> {
        self.upsert_transcript(&transcript)
    }
}

/// Limits of a run.
#[derive(Debug, Clone)]
pub struct IngestConfig {
    pub http: HttpConfig,
    /// Feeds in flight at once.
    pub concurrency: usize,
    /// Requests in flight to one host at once.
    pub per_host_concurrency: usize,
    pub fetch_transcripts: bool,
    pub max_transcripts_per_feed: usize,
    pub max_transcript_bytes: u64,
    /// When failed transcript fetches are tried again.
    pub transcript_retry: TranscriptRetry,
    /// What the catalog holds or has failed to fetch: held transcripts are not fetched
    /// again, failing ones wait for their retry time.
    pub known_transcripts: Arc<KnownTranscripts>,
    /// The time the run is stamped with (default: its start).
    pub now: Option<DateTime<Utc>>,
}

/// The backoff of declared transcripts that could not be fetched: the n-th retry
/// waits `first_delay × factorⁿ⁻¹`, and after `max_attempts` failures the
/// transcript is given up (until the feed names another URL).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TranscriptRetry {
    pub max_attempts: u32,
    pub first_delay: Duration,
    pub factor: u32,
}

impl Default for TranscriptRetry {
    /// Five attempts: again after 1 hour, 4 hours, 16 hours and 64 hours.
    fn default() -> Self {
        TranscriptRetry {
            max_attempts: 5,
            first_delay: Duration::from_secs(3600),
            factor: 4,
        }
    }
}

impl TranscriptRetry {
    /// When the transcript may be tried again after its `attempts`-th failure at
    /// `failed_at`; `None` when that was the last attempt.
    pub fn next_attempt(&self, attempts: u32, failed_at: DateTime<Utc>) -> Option<DateTime<Utc>> {
        if attempts >= self.max_attempts {
            return None;
        }
        let factor = self
            .factor
            .max(1)
            .saturating_pow(attempts.saturating_sub(1));
        let delay = self.first_delay.saturating_mul(factor);
        let delay = chrono::Duration::from_std(delay).unwrap_or(chrono::Duration::MAX);
        Some(
            failed_at
                .checked_add_signed(delay)
                .unwrap_or(DateTime::<Utc>::MAX_UTC),
        )
    }
}

/// The transcript ledger a run starts from, by episode and, for failing ones, by
/// podcast (an unchanged feed still retries its podcast's failing transcripts).
#[derive(Default)]
pub struct KnownTranscripts {
    by_episode: HashMap<Uuid, TranscriptStatus>,
    failing_by_podcast: HashMap<Uuid, Vec<Uuid>>,
}

impl std::fmt::Debug for KnownTranscripts {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            formatter,
            "KnownTranscripts({} episodes)",
            self.by_episode.len()
        )
    }
}

impl KnownTranscripts {
    pub fn new(statuses: impl IntoIterator<Item = (Uuid, TranscriptStatus)>) -> KnownTranscripts {
        let mut known = KnownTranscripts::default();
        for (episode_id, status) in statuses {
            if let TranscriptStatus::Failing(attempt) = &status {
                known
                    .failing_by_podcast
                    .entry(attempt.podcast_id)
                    .or_default()
                    .push(episode_id);
            }
            known.by_episode.insert(episode_id, status);
        }
        known
    }

    fn status(&self, episode_id: Uuid) -> Option<&TranscriptStatus> {
        self.by_episode.get(&episode_id)
    }

    fn failing_of(&self, podcast_id: Uuid) -> impl Iterator<Item = &TranscriptAttempt> {
        self.failing_by_podcast
            .get(&podcast_id)
            .into_iter()
            .flatten()
            .filter_map(|episode_id| match self.by_episode.get(episode_id) {
                Some(TranscriptStatus::Failing(attempt)) => Some(attempt),
                _ => None,
            })
    }
}

impl Default for IngestConfig {
    fn default() -> Self {
        IngestConfig {
            http: HttpConfig::default(),
            concurrency: 64,
            per_host_concurrency: 4,
            fetch_transcripts: true,
            max_transcripts_per_feed: 20,
            max_transcript_bytes: 5 * 1024 * 1024,
            transcript_retry: TranscriptRetry::default(),
            known_transcripts: Arc::default(),
            now: None,
        }
    }
}

/// What a run did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IngestSummary {
    pub feeds: usize,
    pub ok: usize,
    pub not_modified: usize,
    /// Failed feeds by kind (`network`, `http-status`, `not-xml`, `not-a-feed`,
    /// `too-large`, `blocked`, `io`, …).
    pub failures: BTreeMap<String, usize>,
    pub episodes: usize,
    pub bytes: u64,
    pub transcripts: usize,
    pub transcript_failures: usize,
    /// Declared transcripts that failed before and wait for their retry time.
    pub transcripts_waiting: usize,
    /// Declared transcripts given up after their last attempt failed.
    pub transcripts_given_up: usize,
    pub feed_urls_updated: usize,
    pub store_errors: usize,
    pub elapsed: Duration,
}

impl IngestSummary {
    pub fn failed(&self) -> usize {
        self.failures.values().sum()
    }
}

impl std::fmt::Display for IngestSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} feeds in {:.1}s: {} ok, {} not modified, {} failed; {} episodes, {} transcripts ({} failed), {:.1} MB",
            self.feeds,
            self.elapsed.as_secs_f64(),
            self.ok,
            self.not_modified,
            self.failed(),
            self.episodes,
            self.transcripts,
            self.transcript_failures,
            self.bytes as f64 / 1e6
        )?;
        for (kind, count) in &self.failures {
            write!(f, "\n  {kind}: {count}")?;
        }
        if self.transcripts_waiting + self.transcripts_given_up > 0 {
            write!(
                f,
                "\n  transcripts the feeds link to but podlens does not hold: {} to retry later, {} given up",
                self.transcripts_waiting, self.transcripts_given_up
            )?;
        }
        if self.feed_urls_updated > 0 {
            write!(
                f,
                "\n  feed urls updated after permanent redirects: {}",
                self.feed_urls_updated
            )?;
        }
        if self.store_errors > 0 {
            write!(f, "\n  catalog write errors: {}", self.store_errors)?;
        }
        Ok(())
    }
}

enum StoreMessage {
    Feed(Box<FeedBatch>),
    Transcript(Box<TranscriptRecord>),
    TranscriptFailed(Box<TranscriptAttempt>),
    TranscriptsSkipped { waiting: usize, given_up: usize },
    MovedFeed(Uuid, String),
    Fetch(Box<FeedFetchRecord>),
}

/// Observer called once per feed, after its outcome is recorded.
pub type FeedObserver = Arc<dyn Fn(&FeedFetchRecord) + Send + Sync>;

/// Ingests `sources` into `store`; returns the summary and the store.
pub async fn ingest<S: FeedStore>(
    sources: Vec<FeedSource>,
    config: IngestConfig,
    store: S,
    observer: Option<FeedObserver>,
) -> Result<(IngestSummary, S), IngestError> {
    let started = Instant::now();
    let client = http::build_client(&config.http)?;
    let (sender, receiver) = mpsc::channel::<StoreMessage>(256);
    let writer = std::thread::Builder::new()
        .name("podlens-ingest-store".to_owned())
        .spawn(move || write_all(store, receiver, observer))
        .map_err(|error| {
            IngestError::Internal(format!("cannot start the catalog writer: {error}"))
        })?;
    let shared = Arc::new(Shared {
        client,
        now: config.now.unwrap_or_else(Utc::now),
        feeds: Semaphore::new(config.concurrency.max(1)),
        hosts: Mutex::new(HashMap::new()),
        config,
        sender,
    });
    let mut tasks = tokio::task::JoinSet::new();
    for source in sources {
        let shared = Arc::clone(&shared);
        tasks.spawn(async move {
            let Ok(_permit) = shared.feeds.acquire().await else {
                return;
            };
            let label = source.label();
            let record = process_source(&shared, source).await;
            if shared
                .sender
                .send(StoreMessage::Fetch(Box::new(record)))
                .await
                .is_err()
            {
                tracing::error!(feed = %label, "catalog writer stopped");
            }
        });
    }
    while let Some(joined) = tasks.join_next().await {
        if let Err(error) = joined {
            tracing::error!(%error, "feed task failed");
        }
    }
    drop(shared);
    let (mut summary, store) = writer
        .join()
        .map_err(|_| IngestError::Internal("the catalog writer panicked".to_owned()))?;
    summary.elapsed = started.elapsed();
    Ok((summary, store))
}

struct Shared {
    client: podlens_netguard::GuardedClient,
    config: IngestConfig,
    now: DateTime<Utc>,
    feeds: Semaphore,
    hosts: Mutex<HashMap<String, Arc<Semaphore>>>,
    sender: mpsc::Sender<StoreMessage>,
}

impl Shared {
    fn host_limit(&self, url: &str) -> Arc<Semaphore> {
        let host = url::Url::parse(url)
            .ok()
            .and_then(|parsed| parsed.host_str().map(str::to_owned))
            .unwrap_or_default();
        let mut hosts = self
            .hosts
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        Arc::clone(
            hosts.entry(host).or_insert_with(|| {
                Arc::new(Semaphore::new(self.config.per_host_concurrency.max(1)))
            }),
        )
    }

    async fn get(
        &self,
        url: &str,
        etag: Option<&str>,
        last_modified: Option<&str>,
        http: &HttpConfig,
    ) -> Result<HttpOutcome, IngestError> {
        let limit = self.host_limit(&crate::fetch::http_url(url));
        let _permit = limit
            .acquire()
            .await
            .map_err(|_| IngestError::Internal("host limiter closed".to_owned()))?;
        http::get(&self.client, http, url, etag, last_modified).await
    }

    async fn send(&self, message: StoreMessage) {
        if self.sender.send(message).await.is_err() {
            tracing::error!("catalog writer stopped");
        }
    }
}

/// Raw bytes of a feed and what the transport said about them.
struct Loaded {
    bytes: Vec<u8>,
    charset: Option<String>,
    status: Option<u16>,
    etag: Option<String>,
    last_modified: Option<String>,
    /// Identity URL (ids are derived from it) and stored URL.
    identity_url: Option<String>,
    stored_url: Option<String>,
}

async fn process_source(shared: &Shared, source: FeedSource) -> FeedFetchRecord {
    let fetched_at = Utc::now();
    let (feed_url, known_id) = match &source {
        FeedSource::File(path) => (file_url(path), None),
        FeedSource::Url(state) => (state.feed_url.clone(), state.podcast_id),
    };
    let mut record = FeedFetchRecord {
        feed_url: feed_url.clone(),
        podcast_id: known_id,
        fetched_at,
        ..FeedFetchRecord::default()
    };
    let known = match &source {
        FeedSource::Url(state) => Some(state),
        FeedSource::File(_) => None,
    };
    let loaded = match load(shared, &source).await {
        Ok(Some(loaded)) => loaded,
        Ok(None) => {
            if let Some(state) = known {
                record.etag = state.etag.clone();
                record.last_modified = state.last_modified.clone();
                record.content_hash = state.content_hash.clone();
            }
            record.http_status = Some(304);
            return not_modified(shared, record, known_id).await;
        }
        Err(error) => return failed(record, &error),
    };
    record.http_status = loaded.status.map(i64::from);
    record.etag = loaded.etag.clone();
    record.last_modified = loaded.last_modified.clone();
    record.bytes = Some(loaded.bytes.len() as i64);
    if let Some(state) = known {
        // The same bytes as last time: nothing to parse, store or index (the address
        // is the same too, else the catalog must learn the move).
        let hash = content_hash(&loaded.bytes);
        if state.content_hash.as_deref() == Some(hash.as_str()) && loaded.stored_url.is_none() {
            record.content_hash = Some(hash);
            return not_modified(shared, record, known_id).await;
        }
        record.content_hash = Some(hash);
    }
    let is_file = matches!(source, FeedSource::File(_));
    let now = shared.now;
    let identity = loaded
        .identity_url
        .clone()
        .unwrap_or_else(|| feed_url.clone());
    let stored = loaded.stored_url.clone();
    let parsed = on_pool(move || {
        let feed = parse_feed(&loaded.bytes, loaded.charset.as_deref())?;
        if is_blocked(&feed.channel) {
            return Err(IngestError::Blocked(
                "itunes:block or podcast:block says yes".to_owned(),
            ));
        }
        // A file names its own URL when it declares one (`atom:link rel="self"`).
        let identity = if is_file {
            feed.channel
                .self_url
                .clone()
                .filter(|url| url.starts_with("http://") || url.starts_with("https://"))
                .unwrap_or(identity)
        } else {
            identity
        };
        let podcast_id = match (known_id, feed.channel.podcast_guid.as_deref()) {
            (Some(id), None) => id,
            (_, guid) => catalog::podcast_id(guid, &identity),
        };
        let mut batch = normalize_with_id(&feed, &identity, podcast_id, now);
        if let Some(stored) = stored {
            batch.podcast.podcast_rss_feed_url = stored;
        }
        Ok(batch)
    })
    .await;
    let batch = match parsed {
        Ok(batch) => batch,
        Err(error) => return failed(record, &error),
    };
    record.podcast_id = Some(batch.podcast.podcast_id);
    record.feed_url = batch.podcast.podcast_rss_feed_url.clone();
    record.episodes = Some(batch.episodes.len() as i64);
    record.outcome = "ok".to_owned();
    record.websub_hub = batch.polling.hub.clone();
    record.websub_topic = batch.polling.topic.clone();
    if let (FeedSource::Url(state), Some(moved)) = (&source, loaded_move(&record, &source)) {
        shared
            .send(StoreMessage::MovedFeed(
                batch.podcast.podcast_id,
                moved.clone(),
            ))
            .await;
        tracing::info!(from = %state.feed_url, to = %moved, "feed moved permanently");
    }
    let jobs = if shared.config.fetch_transcripts {
        transcript_jobs(shared, &batch.episodes)
    } else {
        TranscriptJobs::default()
    };
    let podcast_id = batch.podcast.podcast_id;
    shared.send(StoreMessage::Feed(Box::new(batch))).await;
    fetch_transcripts(shared, podcast_id, jobs).await;
    record
}

/// A feed that did not change (a 304, or the same bytes again): the record says so,
/// and the podcast's failing transcripts due for a retry are fetched.
async fn not_modified(
    shared: &Shared,
    mut record: FeedFetchRecord,
    known_id: Option<Uuid>,
) -> FeedFetchRecord {
    record.outcome = "not-modified".to_owned();
    if let Some(podcast_id) = known_id.filter(|_| shared.config.fetch_transcripts) {
        let jobs = retry_jobs(shared, podcast_id);
        fetch_transcripts(shared, podcast_id, jobs).await;
    }
    record
}

/// The stored URL differs from the requested one only after a permanent move.
fn loaded_move(record: &FeedFetchRecord, source: &FeedSource) -> Option<String> {
    match source {
        FeedSource::Url(state) if record.feed_url != state.feed_url => {
            Some(record.feed_url.clone())
        }
        _ => None,
    }
}

fn failed(mut record: FeedFetchRecord, error: &IngestError) -> FeedFetchRecord {
    record.outcome = error.kind().to_owned();
    record.error = Some(error.to_string());
    if let IngestError::HttpStatus { status } = error {
        record.http_status = Some(i64::from(*status));
    }
    tracing::debug!(feed = %record.feed_url, %error, "feed failed");
    record
}

fn file_url(path: &Path) -> String {
    let absolute = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
    url::Url::from_file_path(&absolute)
        .map(|url| url.to_string())
        .unwrap_or_else(|_| format!("file://{}", absolute.display()))
}

fn file_path(url: &str) -> Option<PathBuf> {
    url::Url::parse(url)
        .ok()
        .filter(|parsed| parsed.scheme() == "file")?
        .to_file_path()
        .ok()
}

async fn read_file(path: &Path) -> Result<Vec<u8>, IngestError> {
    tokio::fs::read(path)
        .await
        .map_err(|source| IngestError::Io {
            path: path.to_owned(),
            source,
        })
}

/// Reads or downloads a feed; `None` when the server answered 304.
async fn load(shared: &Shared, source: &FeedSource) -> Result<Option<Loaded>, IngestError> {
    let local = match source {
        FeedSource::File(path) => Some(path.clone()),
        FeedSource::Url(state) => file_path(&state.feed_url),
    };
    if let Some(path) = local {
        let bytes = read_file(&path).await?;
        if bytes.len() as u64 > shared.config.http.max_body_bytes {
            return Err(IngestError::TooLarge {
                limit: shared.config.http.max_body_bytes,
            });
        }
        return Ok(Some(Loaded {
            bytes,
            charset: None,
            status: None,
            etag: None,
            last_modified: None,
            identity_url: None,
            stored_url: None,
        }));
    }
    let FeedSource::Url(FeedState {
        feed_url,
        etag,
        last_modified,
        ..
    }) = source
    else {
        return Err(IngestError::Internal("unreachable source kind".to_owned()));
    };
    match shared
        .get(
            feed_url,
            etag.as_deref(),
            last_modified.as_deref(),
            &shared.config.http,
        )
        .await?
    {
        HttpOutcome::NotModified { .. } => Ok(None),
        HttpOutcome::Body(body) => Ok(Some(Loaded {
            stored_url: body.moved_permanently_to.clone(),
            identity_url: Some(feed_url.clone()),
            bytes: body.bytes,
            charset: body.charset,
            status: Some(body.status),
            etag: body.etag,
            last_modified: body.last_modified,
        })),
    }
}

/// Runs CPU work on the rayon pool and awaits it; a panic becomes an error.
async fn on_pool<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, IngestError> + Send + 'static,
) -> Result<T, IngestError> {
    let (sender, receiver) = tokio::sync::oneshot::channel();
    rayon::spawn(move || {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work))
            .unwrap_or_else(|_| Err(IngestError::Internal("the parser panicked".to_owned())));
        let _ = sender.send(result);
    });
    receiver
        .await
        .map_err(|_| IngestError::Internal("the parser stopped".to_owned()))?
}

/// One transcript to fetch: the episode, what its feed declares, and which attempt
/// this is.
struct TranscriptJob {
    episode_id: Uuid,
    url: String,
    mime_type: String,
    language: Option<String>,
    attempt: u32,
}

/// The transcripts a feed's poll fetches, and the declared ones it leaves alone.
#[derive(Default)]
struct TranscriptJobs {
    jobs: Vec<TranscriptJob>,
    waiting: usize,
    given_up: usize,
}

/// What to do with a declared transcript, given the ledger.
enum Plan {
    Fetch { attempt: u32 },
    Held,
    Waiting,
    GivenUp,
}

fn plan(shared: &Shared, episode_id: Uuid, url: &str) -> Plan {
    match shared.config.known_transcripts.status(episode_id) {
        None => Plan::Fetch { attempt: 1 },
        Some(TranscriptStatus::Held { url: held }) if held == url => Plan::Held,
        Some(TranscriptStatus::Held { .. }) => Plan::Fetch { attempt: 1 },
        Some(TranscriptStatus::Failing(failed)) if failed.url != url => Plan::Fetch { attempt: 1 },
        Some(TranscriptStatus::Failing(failed)) => match failed.next_attempt_at {
            None => Plan::GivenUp,
            Some(at) if at > shared.now => Plan::Waiting,
            Some(_) => Plan::Fetch {
                attempt: failed.attempts.saturating_add(1),
            },
        },
    }
}

impl TranscriptJobs {
    /// Counts a declared transcript as held, waiting or given up, or queues it while
    /// the feed has fewer than `max_transcripts_per_feed` queued.
    fn consider(
        &mut self,
        shared: &Shared,
        episode_id: Uuid,
        url: &str,
        mime_type: &str,
        language: Option<&str>,
    ) {
        match plan(shared, episode_id, url) {
            Plan::Held => {}
            Plan::Waiting => self.waiting += 1,
            Plan::GivenUp => self.given_up += 1,
            Plan::Fetch { attempt } if self.jobs.len() < shared.config.max_transcripts_per_feed => {
                self.jobs.push(TranscriptJob {
                    episode_id,
                    url: url.to_owned(),
                    mime_type: mime_type.to_owned(),
                    language: language.map(str::to_owned),
                    attempt,
                });
            }
            Plan::Fetch { .. } => {}
        }
    }
}

/// The remote transcripts a parsed feed links to that are neither held nor waiting,
/// at most `max_transcripts_per_feed` of them.
fn transcript_jobs(shared: &Shared, episodes: &[EpisodeRecord]) -> TranscriptJobs {
    let mut jobs = TranscriptJobs::default();
    for episode in episodes {
        if let Some(link) = preferred_transcript(&episode.episode_transcript_urls)
            && (link.url.starts_with("http://") || link.url.starts_with("https://"))
        {
            jobs.consider(
                shared,
                episode.episode_id,
                &link.url,
                &link.mime_type,
                link.language.as_deref(),
            );
        }
    }
    jobs
}

/// The failing transcripts of a podcast whose feed did not change, due for a retry.
fn retry_jobs(shared: &Shared, podcast_id: Uuid) -> TranscriptJobs {
    let mut jobs = TranscriptJobs::default();
    for failed in shared.config.known_transcripts.failing_of(podcast_id) {
        jobs.consider(
            shared,
            failed.episode_id,
            &failed.url,
            &failed.mime_type,
            failed.language.as_deref(),
        );
    }
    jobs
}

/// Fetches a feed's transcript jobs one after another; a failure goes to the ledger
/// with its next attempt time.
async fn fetch_transcripts(shared: &Shared, podcast_id: Uuid, jobs: TranscriptJobs) {
    if jobs.waiting + jobs.given_up > 0 {
        shared
            .send(StoreMessage::TranscriptsSkipped {
                waiting: jobs.waiting,
                given_up: jobs.given_up,
            })
            .await;
    }
    for job in jobs.jobs {
        let result = fetch_transcript(
            shared,
            podcast_id,
            job.episode_id,
            &job.url,
            &job.mime_type,
            job.language.clone(),
        )
        .await;
        let message = match result {
            Ok(transcript) => StoreMessage::Transcript(Box::new(transcript)),
            Err(error) => {
                let next_attempt_at = shared
                    .config
                    .transcript_retry
                    .next_attempt(job.attempt, shared.now);
                tracing::debug!(url = %job.url, %error, attempt = job.attempt, "transcript not stored");
                StoreMessage::TranscriptFailed(Box::new(TranscriptAttempt {
                    episode_id: job.episode_id,
                    podcast_id,
                    url: job.url,
                    mime_type: job.mime_type,
                    language: job.language,
                    attempts: job.attempt,
                    last_attempt_at: shared.now,
                    next_attempt_at,
                    last_error: error.to_string(),
                }))
            }
        };
        shared.send(message).await;
    }
}

async fn fetch_transcript(
    shared: &Shared,
    podcast_id: Uuid,
    episode_id: Uuid,
    url: &str,
    mime_type: &str,
    language: Option<String>,
) -> Result<TranscriptRecord, IngestError> {
    let http = HttpConfig {
        max_body_bytes: shared.config.max_transcript_bytes,
        ..shared.config.http.clone()
    };
    let HttpOutcome::Body(body) = shared.get(url, None, None, &http).await? else {
        return Err(IngestError::Transcript("unexpected 304".to_owned()));
    };
    let url = url.to_owned();
    let mime_type = mime_type.to_owned();
    on_pool(move || {
        let (text, _, _) = encoding_rs::UTF_8.decode(&body.bytes);
        let format = transcript::format_for(&mime_type, &url)
            .unwrap_or_else(|| transcript::sniff_format(&text));
        let format = match format {
            TranscriptFormat::Text => transcript::sniff_format(&text),
            other => other,
        };
        let parsed = transcript::parse_transcript(&text, format)?;
        Ok(transcript::transcript_record(
            podcast_id, episode_id, &url, format, language, parsed,
        ))
    })
    .await
}

/// The catalog writer: applies every message in order, counts the summary.
fn write_all<S: FeedStore>(
    mut store: S,
    mut receiver: mpsc::Receiver<StoreMessage>,
    observer: Option<FeedObserver>,
) -> (IngestSummary, S) {
    let mut summary = IngestSummary::default();
    while let Some(message) = receiver.blocking_recv() {
        let result = match message {
            StoreMessage::Feed(batch) => store.upsert_feed_owned(*batch),
            StoreMessage::Transcript(transcript) => {
                summary.transcripts += 1;
                store.upsert_transcript_owned(*transcript)
            }
            StoreMessage::TranscriptFailed(attempt) => {
                summary.transcript_failures += 1;
                if attempt.next_attempt_at.is_some() {
                    summary.transcripts_waiting += 1;
                } else {
                    summary.transcripts_given_up += 1;
                }
                store.record_transcript_failure(&attempt)
            }
            StoreMessage::TranscriptsSkipped { waiting, given_up } => {
                summary.transcripts_waiting += waiting;
                summary.transcripts_given_up += given_up;
                Ok(())
            }
            StoreMessage::MovedFeed(podcast_id, url) => {
                summary.feed_urls_updated += 1;
                store.update_feed_url(podcast_id, &url)
            }
            StoreMessage::Fetch(record) => {
                summary.feeds += 1;
                match record.outcome.as_str() {
                    "ok" => {
                        summary.ok += 1;
                        summary.episodes += record.episodes.unwrap_or(0) as usize;
                    }
                    "not-modified" => summary.not_modified += 1,
                    kind => *summary.failures.entry(kind.to_owned()).or_default() += 1,
                }
                summary.bytes += record.bytes.unwrap_or(0) as u64;
                let result = store.record_fetch(&record);
                if let Some(observer) = &observer {
                    observer(&record);
                }
                result
            }
        };
        if let Err(error) = result {
            summary.store_errors += 1;
            tracing::warn!(%error, "catalog write failed");
        }
    }
    (summary, store)
}

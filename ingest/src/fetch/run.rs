//! The ingest run: one task per feed, bounded globally and per host.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use podlens_model::catalog::{self, EpisodeRecord, FeedBatch, FeedFetchRecord, TranscriptRecord};
use tokio::sync::{Semaphore, mpsc};
use uuid::Uuid;

use super::http::{self, HttpConfig, HttpOutcome};
use super::sources::{FeedSource, FeedState};
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
    /// The time the run is stamped with (default: its start).
    pub now: Option<DateTime<Utc>>,
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
    TranscriptFailed,
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
    client: reqwest::Client,
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
    let loaded = match load(shared, &source).await {
        Ok(Some(loaded)) => loaded,
        Ok(None) => {
            record.outcome = "not-modified".to_owned();
            if let FeedSource::Url(state) = &source {
                record.etag = state.etag.clone();
                record.last_modified = state.last_modified.clone();
            }
            record.http_status = Some(304);
            return record;
        }
        Err(error) => return failed(record, &error),
    };
    record.http_status = loaded.status.map(i64::from);
    record.etag = loaded.etag.clone();
    record.last_modified = loaded.last_modified.clone();
    record.bytes = Some(loaded.bytes.len() as i64);
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
    if let (FeedSource::Url(state), Some(moved)) = (&source, loaded_move(&record, &source)) {
        shared
            .send(StoreMessage::MovedFeed(
                batch.podcast.podcast_id,
                moved.clone(),
            ))
            .await;
        tracing::info!(from = %state.feed_url, to = %moved, "feed moved permanently");
    }
    let transcript_jobs: Vec<(Uuid, String, String, Option<String>)> =
        if shared.config.fetch_transcripts {
            transcript_jobs(&batch.episodes, shared.config.max_transcripts_per_feed)
        } else {
            Vec::new()
        };
    let podcast_id = batch.podcast.podcast_id;
    shared.send(StoreMessage::Feed(Box::new(batch))).await;
    for (episode_id, url, mime_type, language) in transcript_jobs {
        let message = match fetch_transcript(
            shared, podcast_id, episode_id, &url, &mime_type, language,
        )
        .await
        {
            Ok(transcript) => StoreMessage::Transcript(Box::new(transcript)),
            Err(error) => {
                tracing::debug!(%url, %error, "transcript not stored");
                StoreMessage::TranscriptFailed
            }
        };
        shared.send(message).await;
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

fn transcript_jobs(
    episodes: &[EpisodeRecord],
    limit: usize,
) -> Vec<(Uuid, String, String, Option<String>)> {
    episodes
        .iter()
        .filter_map(|episode| {
            let link = preferred_transcript(&episode.episode_transcript_urls)?;
            let is_remote = link.url.starts_with("http://") || link.url.starts_with("https://");
            is_remote.then(|| {
                (
                    episode.episode_id,
                    link.url.clone(),
                    link.mime_type.clone(),
                    link.language.clone(),
                )
            })
        })
        .take(limit)
        .collect()
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
            StoreMessage::TranscriptFailed => {
                summary.transcript_failures += 1;
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

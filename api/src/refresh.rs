//! Refreshing one podcast from its feed while serving: the feed is fetched and parsed
//! by `podlens-ingest` (the same fetcher and parser as `podlens ingest`), stored in
//! the catalog with its fetch log, its sponsor mentions are found again, and a new
//! Parquet snapshot is published so every route answers with the new data at once.
//!
//! The server otherwise never writes the catalog: a refresh opens it for the time of
//! one feed, one refresh at a time, and reports a busy catalog (a batch job holding
//! it) as a failed update. A podcast can be refreshed once a minute.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use podlens_data::Catalog;
use podlens_ingest::IngestError;
use podlens_ingest::fetch::{FeedSource, FeedState, FeedStore, HttpConfig, IngestConfig, ingest};
use podlens_ingest::sponsors::episode_sponsor_mentions;
use podlens_model::catalog::{FeedBatch, FeedFetchRecord, PodcastRecord, TranscriptRecord};
use podlens_model::entities::RefreshErrorCode;

use crate::cluster::CatalogChange;
use uuid::Uuid;

/// How long after a refresh the same podcast can be refreshed again.
pub const REFRESH_INTERVAL: Duration = Duration::from_secs(60);

/// Why a refresh did not update the podcast: the SDK's error code and a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefreshFailure {
    pub code: RefreshErrorCode,
    pub message: String,
}

impl RefreshFailure {
    fn new(code: RefreshErrorCode, message: impl Into<String>) -> Self {
        RefreshFailure {
            code,
            message: message.into(),
        }
    }
}

/// Refreshes podcasts one at a time and remembers when each was last refreshed.
pub struct FeedRefresher {
    data_dir: PathBuf,
    http: HttpConfig,
    last_refresh: Mutex<HashMap<Uuid, Instant>>,
    one_at_a_time: tokio::sync::Mutex<()>,
}

impl std::fmt::Debug for FeedRefresher {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("FeedRefresher")
            .field("data_dir", &self.data_dir)
            .finish_non_exhaustive()
    }
}

impl FeedRefresher {
    pub fn new(data_dir: PathBuf) -> FeedRefresher {
        FeedRefresher {
            data_dir,
            http: HttpConfig {
                timeout: Duration::from_secs(20),
                retries: 1,
                ..HttpConfig::default()
            },
            last_refresh: Mutex::new(HashMap::new()),
            one_at_a_time: tokio::sync::Mutex::new(()),
        }
    }

    /// Lets refreshes fetch from private, loopback and link-local addresses (`podlens
    /// serve --allow-private`: the demo's local feed server, intranets). Refused by
    /// default: a refresh fetches a URL that came from a feed.
    pub fn allowing_private(mut self) -> FeedRefresher {
        self.http.allow_private = true;
        self
    }

    /// Lets refreshes fetch from these non-public addresses only (a test server).
    pub fn allowing_addresses(mut self, addresses: Vec<std::net::IpAddr>) -> FeedRefresher {
        self.http.allowed_addresses = addresses;
        self
    }

    /// Holds the catalog for a write outside a refresh (a speech-to-text transcript):
    /// refreshes wait meanwhile. Blocking: call it off the async runtime.
    pub fn catalog_turn(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.one_at_a_time.blocking_lock()
    }

    /// Claims the podcast's refresh slot; `Err(wait)` when it was refreshed less than
    /// [`REFRESH_INTERVAL`] ago.
    pub fn claim(&self, podcast_id: Uuid) -> Result<(), Duration> {
        let mut last = self
            .last_refresh
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let now = Instant::now();
        if let Some(at) = last.get(&podcast_id) {
            let elapsed = now.duration_since(*at);
            if elapsed < REFRESH_INTERVAL {
                return Err(REFRESH_INTERVAL - elapsed);
            }
        }
        last.retain(|_, at| now.duration_since(*at) < REFRESH_INTERVAL);
        last.insert(podcast_id, now);
        Ok(())
    }

    /// Holds refreshes off until the guard is dropped (a backup copying the catalog).
    pub async fn hold_off(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.one_at_a_time.lock().await
    }

    /// Re-reads `podcast`'s feed into the catalog and publishes a new snapshot. The
    /// stored image is kept unless `update_thumbnail`.
    ///
    /// On success, the change as stored, for the other nodes sharing the store to
    /// apply ([`apply_feed_change`]).
    pub async fn refresh(
        &self,
        podcast: &PodcastRecord,
        update_thumbnail: bool,
    ) -> Result<CatalogChange, RefreshFailure> {
        let _turn = self.one_at_a_time.lock().await;
        let data_dir = self.data_dir.clone();
        let catalog = tokio::task::spawn_blocking(move || Catalog::open(&data_dir))
            .await
            .map_err(|error| {
                RefreshFailure::new(RefreshErrorCode::UnknownError, error.to_string())
            })?
            .map_err(|error| {
                tracing::warn!(%error, "refresh cannot open the catalog");
                RefreshFailure::new(
                    RefreshErrorCode::UpdateFailed,
                    "The catalog is busy (a batch job is writing it); try again later",
                )
            })?;
        let store = RefreshStore {
            catalog,
            kept_image: (!update_thumbnail)
                .then(|| podcast.podcast_image_url.clone())
                .flatten(),
            fetch: None,
            store_error: None,
            stored: None,
            transcripts: Vec::new(),
            moved_to: None,
        };
        let source = FeedSource::Url(FeedState {
            podcast_id: Some(podcast.podcast_id),
            feed_url: podcast.podcast_rss_feed_url.clone(),
            etag: None,
            last_modified: None,
        });
        let config = IngestConfig {
            http: self.http.clone(),
            concurrency: 1,
            per_host_concurrency: 1,
            ..IngestConfig::default()
        };
        let (_, store) = ingest(vec![source], config, store, None)
            .await
            .map_err(|error| {
                RefreshFailure::new(RefreshErrorCode::UnknownError, error.to_string())
            })?;
        let podcast_id = podcast.podcast_id;
        tokio::task::spawn_blocking(move || store.finish(podcast_id))
            .await
            .map_err(|error| {
                RefreshFailure::new(RefreshErrorCode::UnknownError, error.to_string())
            })?
    }
}

/// The catalog as the store of a one-feed ingest run.
struct RefreshStore {
    catalog: Catalog,
    kept_image: Option<String>,
    fetch: Option<FeedFetchRecord>,
    store_error: Option<String>,
    /// What was stored, for the change log.
    stored: Option<FeedBatch>,
    transcripts: Vec<TranscriptRecord>,
    moved_to: Option<String>,
}

impl RefreshStore {
    fn keep<T>(&mut self, result: Result<T, podlens_data::DataError>) -> Result<(), IngestError> {
        result.map(|_| ()).map_err(|error| {
            let message = error.to_string();
            self.store_error.get_or_insert(message.clone());
            IngestError::Store(message)
        })
    }

    /// After the run: the outcome of the fetch; when it succeeded, the podcast's
    /// sponsor mentions and a new snapshot.
    fn finish(mut self, podcast_id: Uuid) -> Result<CatalogChange, RefreshFailure> {
        let fetch = self.fetch.take().ok_or_else(|| {
            RefreshFailure::new(RefreshErrorCode::UnknownError, "the feed was not fetched")
        })?;
        if fetch.outcome != "ok" {
            return Err(fetch_failure(&fetch));
        }
        if let Some(error) = self.store_error.take() {
            tracing::warn!(%error, "refresh could not store the feed");
            return Err(RefreshFailure::new(
                RefreshErrorCode::UpdateFailed,
                "The feed was read but could not be stored",
            ));
        }
        let change = CatalogChange::Feed {
            batch: Box::new(self.stored.take().ok_or_else(|| {
                RefreshFailure::new(RefreshErrorCode::UnknownError, "the feed was not stored")
            })?),
            transcripts: std::mem::take(&mut self.transcripts),
            moved_to: self.moved_to.take(),
        };
        publish(self.catalog, podcast_id).map_err(|error| {
            tracing::warn!(%error, "refresh could not publish the snapshot");
            RefreshFailure::new(
                RefreshErrorCode::UpdateFailed,
                "The feed was stored but the snapshot could not be published",
            )
        })?;
        Ok(change)
    }
}

/// Finds the podcast's sponsor mentions again and publishes a new snapshot.
fn publish(mut catalog: Catalog, podcast_id: Uuid) -> Result<(), podlens_data::DataError> {
    let episodes = catalog.episodes_of_podcast(podcast_id)?;
    let mentions: Vec<_> = episodes.iter().flat_map(episode_sponsor_mentions).collect();
    catalog.store_sponsor_mentions(&[podcast_id], &mentions)?;
    catalog.export_parquet()?;
    Ok(())
}

/// Applies a feed refreshed by another node to the catalog of `refresher`'s data
/// directory, as that node stored it, and publishes a new snapshot (blocking; takes
/// the catalog turn refreshes take). Other changes are not for this function.
pub fn apply_feed_change(
    refresher: &FeedRefresher,
    change: &CatalogChange,
) -> Result<(), podlens_data::DataError> {
    let CatalogChange::Feed {
        batch,
        transcripts,
        moved_to,
    } = change
    else {
        return Ok(());
    };
    let _turn = refresher.catalog_turn();
    let mut catalog = Catalog::open(&refresher.data_dir)?;
    catalog.upsert_feed(batch)?;
    for transcript in transcripts {
        catalog.upsert_transcript(transcript)?;
    }
    if let Some(url) = moved_to {
        catalog.update_feed_url(batch.podcast.podcast_id, url)?;
    }
    publish(catalog, batch.podcast.podcast_id)
}

/// The SDK's error code for a failed fetch.
fn fetch_failure(fetch: &FeedFetchRecord) -> RefreshFailure {
    let detail = fetch.error.clone().unwrap_or_else(|| fetch.outcome.clone());
    let code = match fetch.outcome.as_str() {
        "http-status" if matches!(fetch.http_status, Some(404 | 410)) => {
            RefreshErrorCode::RssNotFound
        }
        "io" => RefreshErrorCode::RssNotFound,
        "not-xml" | "not-a-feed" => RefreshErrorCode::RssParseError,
        "network" | "http-status" | "too-large" | "refused" => RefreshErrorCode::RssFetchFailed,
        "blocked" | "store" => RefreshErrorCode::UpdateFailed,
        _ => RefreshErrorCode::UnknownError,
    };
    let message = match code {
        RefreshErrorCode::RssNotFound => format!("The RSS feed was not found: {detail}"),
        RefreshErrorCode::RssParseError => format!("The RSS feed could not be parsed: {detail}"),
        RefreshErrorCode::RssFetchFailed => format!("The RSS feed could not be fetched: {detail}"),
        _ => format!("The podcast could not be updated: {detail}"),
    };
    RefreshFailure::new(code, message)
}

impl FeedStore for RefreshStore {
    fn upsert_feed(&mut self, batch: &FeedBatch) -> Result<(), IngestError> {
        let mut stored = batch.clone();
        if let Some(image) = self.kept_image.clone() {
            stored.podcast.podcast_image_url = Some(image);
        }
        let result = self.catalog.upsert_feed(&stored);
        self.stored = Some(stored);
        self.keep(result)
    }

    fn upsert_transcript(&mut self, transcript: &TranscriptRecord) -> Result<(), IngestError> {
        let result = self.catalog.upsert_transcript(transcript);
        self.transcripts.push(transcript.clone());
        self.keep(result)
    }

    fn record_fetch(&mut self, fetch: &FeedFetchRecord) -> Result<(), IngestError> {
        self.fetch = Some(fetch.clone());
        let result = self.catalog.record_fetch(fetch);
        self.keep(result)
    }

    fn update_feed_url(&mut self, podcast_id: Uuid, new_url: &str) -> Result<(), IngestError> {
        let result = self.catalog.update_feed_url(podcast_id, new_url);
        self.moved_to = Some(new_url.to_owned());
        self.keep(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_podcast_can_be_refreshed_once_a_minute() {
        let refresher = FeedRefresher::new(PathBuf::from("/nonexistent"));
        let id = Uuid::from_u128(1);
        assert!(refresher.claim(id).is_ok());
        let wait = refresher.claim(id).unwrap_err();
        assert!(wait > Duration::from_secs(58) && wait <= REFRESH_INTERVAL);
        assert!(refresher.claim(Uuid::from_u128(2)).is_ok());
    }

    #[test]
    fn fetch_failures_get_the_sdk_codes() {
        let failed = |outcome: &str, status| FeedFetchRecord {
            outcome: outcome.into(),
            http_status: status,
            error: Some("detail".into()),
            ..FeedFetchRecord::default()
        };
        assert_eq!(
            fetch_failure(&failed("http-status", Some(404))).code,
            RefreshErrorCode::RssNotFound
        );
        assert_eq!(
            fetch_failure(&failed("http-status", Some(500))).code,
            RefreshErrorCode::RssFetchFailed
        );
        assert_eq!(
            fetch_failure(&failed("not-a-feed", None)).code,
            RefreshErrorCode::RssParseError
        );
        assert_eq!(
            fetch_failure(&failed("network", None)).code,
            RefreshErrorCode::RssFetchFailed
        );
    }
}

//! Refreshing one podcast from its feed while serving: the feed is fetched and parsed
//! by `podlens-ingest` (the same fetcher and parser as `podlens ingest`), stored in
//! the catalog with its fetch log, and published ([`crate::feed_changes`]): its
//! sponsor mentions are found again, a new Parquet snapshot and an index generation
//! with its new and changed episodes are published, so every route and search
//! answers with the new data at once.
//!
//! The server otherwise never writes the catalog: a refresh opens it for the time of
//! one feed, one refresh at a time, and reports a busy catalog (a batch job holding
//! it) as a failed update. A podcast can be refreshed once a minute.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use std::sync::Arc;

use podlens_data::Catalog;
use podlens_ingest::fetch::{
    CollectedFeeds, FeedSource, FeedState, HttpConfig, IngestConfig, ingest,
};
use podlens_model::Plan;
use podlens_model::catalog::{FeedFetchRecord, PodcastRecord};
use podlens_model::entities::{RefreshErrorCode, RefreshErrorDetails, RefreshPodcastResponse};

use crate::catalog::CatalogReader;
use crate::cluster::CatalogChange;
use crate::error::{AppError, AppResult, LimitExceeded};
use crate::feed_changes::{block_podcast, mark_unindexed, publish, store_marked};
use crate::runtime::blocking;
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

/// What the server's own writes to the catalog need: the data directory, the catalog
/// turn (taken by refreshes, feed polls and stored transcripts alike, in
/// [`FeedRefresher`]), the reader switched to what is published, and the cluster's
/// change log the other nodes apply.
#[derive(Clone)]
pub struct CatalogWrites {
    pub data_dir: PathBuf,
    pub refresher: Arc<FeedRefresher>,
    pub catalog: Arc<CatalogReader>,
    pub cluster: Arc<crate::cluster::Cluster>,
}

impl CatalogWrites {
    /// `GET /api/v1/podcasts/{id}/refresh`: re-reads the podcast's feed now (at most once
    /// a minute a podcast: [`AppError::CapReached`] sooner) and answers with the updated
    /// podcast as `plan` sees it, or with `success: false` and why. The change goes into
    /// the cluster's change log for the other nodes.
    pub async fn refresh_podcast(
        &self,
        id_or_slug: String,
        update_thumbnail: bool,
        plan: Plan,
    ) -> AppResult<RefreshPodcastResponse> {
        let catalog = self.catalog.clone();
        let record = blocking(move || catalog.podcast(&id_or_slug)).await?;
        if let Err(wait) = self.refresher.claim(record.podcast_id) {
            let seconds = wait.as_secs().max(1);
            return Err(AppError::CapReached(LimitExceeded {
                message: format!(
                    "This podcast was refreshed less than a minute ago; try again in {seconds} seconds"
                ),
                limit: 1,
                used: 1,
                reset_after_seconds: seconds,
            }));
        }
        let change = match self
            .refresher
            .refresh(&record, update_thumbnail, &self.catalog)
            .await
        {
            Ok(change) => change,
            Err(failure) => {
                return Ok(RefreshPodcastResponse::Failed {
                    success: false,
                    error_code: failure.code,
                    error_message: failure.message,
                    error_details: Some(RefreshErrorDetails {
                        rss_url: Some(record.podcast_rss_feed_url.clone()),
                    }),
                });
            }
        };
        // The other nodes sharing the store apply the refresh to their copies.
        if let Some(change) = &change
            && let Err(error) = self.cluster.record(change).await
        {
            tracing::warn!(%error, "the refresh is not in the change log: other nodes keep the old feed until they re-read it");
        }
        let catalog = self.catalog.clone();
        blocking(move || {
            let snapshot = catalog.snapshot()?;
            snapshot.refresh()?;
            let updated = snapshot
                .podcast_by_id(record.podcast_id)?
                .ok_or_else(|| crate::catalog::podcast_not_found(&record.podcast_id.to_string()))?;
            Ok(RefreshPodcastResponse::Refreshed {
                success: true,
                podcast: Box::new(catalog.podcast_details(&updated, plan)?),
            })
        })
        .await
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

    /// The HTTP settings of refreshes (and of the feed scheduler's polls).
    pub fn http(&self) -> &HttpConfig {
        &self.http
    }

    /// The data directory whose catalog refreshes write.
    pub fn data_dir(&self) -> &std::path::Path {
        &self.data_dir
    }

    /// Re-reads `podcast`'s feed into the catalog, then publishes a new snapshot and
    /// an index generation with its new and changed episodes, and switches `reader`
    /// to them. The stored image is kept unless `update_thumbnail`.
    ///
    /// On success, the change as stored, for the other nodes sharing the store to
    /// apply ([`apply_feed_change`]); none when the feed is as it was.
    pub async fn refresh(
        &self,
        podcast: &PodcastRecord,
        update_thumbnail: bool,
        reader: &Arc<CatalogReader>,
    ) -> Result<Option<CatalogChange>, RefreshFailure> {
        let _turn = self.one_at_a_time.lock().await;
        let source = FeedSource::Url(FeedState {
            podcast_id: Some(podcast.podcast_id),
            feed_url: podcast.podcast_rss_feed_url.clone(),
            etag: None,
            last_modified: None,
            content_hash: None,
        });
        let config = IngestConfig {
            http: self.http.clone(),
            concurrency: 1,
            per_host_concurrency: 1,
            ..IngestConfig::default()
        };
        let (_, mut collected) = ingest(vec![source], config, CollectedFeeds::default(), None)
            .await
            .map_err(|error| {
                RefreshFailure::new(RefreshErrorCode::UnknownError, error.to_string())
            })?;
        let fetch = collected.fetches.first().cloned().ok_or_else(|| {
            RefreshFailure::new(RefreshErrorCode::UnknownError, "the feed was not fetched")
        })?;
        if fetch.outcome != "ok" {
            return Err(fetch_failure(&fetch));
        }
        if !update_thumbnail {
            for batch in &mut collected.batches {
                batch.podcast.podcast_image_url = podcast.podcast_image_url.clone();
            }
        }
        let data_dir = self.data_dir.clone();
        let reader = reader.clone();
        tokio::task::spawn_blocking(move || store_and_publish(&data_dir, &reader, &collected))
            .await
            .map_err(|error| {
                RefreshFailure::new(RefreshErrorCode::UnknownError, error.to_string())
            })?
    }
}

/// Stores one refreshed feed and publishes it; the change for the other nodes, if its
/// content or address changed.
fn store_and_publish(
    data_dir: &std::path::Path,
    reader: &CatalogReader,
    collected: &CollectedFeeds,
) -> Result<Option<CatalogChange>, RefreshFailure> {
    let mut catalog = Catalog::open(data_dir).map_err(|error| {
        tracing::warn!(%error, "refresh cannot open the catalog");
        RefreshFailure::new(
            RefreshErrorCode::UpdateFailed,
            "The catalog is busy (a batch job is writing it); try again later",
        )
    })?;
    let stored = store_marked(&mut catalog, collected, &|| false).map_err(|error| {
        tracing::warn!(%error, "refresh could not store the feed");
        RefreshFailure::new(
            RefreshErrorCode::UpdateFailed,
            "The feed was read but could not be stored",
        )
    })?;
    if stored.to_publish {
        publish(&mut catalog, reader, stored.delta).map_err(|error| {
            tracing::warn!(%error, "refresh could not publish the feed");
            RefreshFailure::new(
                RefreshErrorCode::UpdateFailed,
                "The feed was stored but the snapshot could not be published",
            )
        })?;
    }
    Ok(stored
        .changes
        .into_iter()
        .find(|change| matches!(change, CatalogChange::Feed { .. })))
}

/// Applies a change another node made — a refreshed or polled feed, a blocked podcast
/// — to the catalog of `refresher`'s data directory, as that node stored it, and
/// publishes what changed here (snapshot and index generation), switching `reader` to
/// it (blocking; takes the catalog turn refreshes take). This node's own changes,
/// applied again in log order, are usually the same content: nothing is published for
/// them. Other changes are not for this function.
pub fn apply_feed_change(
    refresher: &FeedRefresher,
    reader: &CatalogReader,
    change: &CatalogChange,
) -> Result<(), crate::error::AppError> {
    let _turn = refresher.catalog_turn();
    let mut catalog = Catalog::open(&refresher.data_dir)?;
    let (delta, to_publish) = match change {
        CatalogChange::Feed {
            batch,
            transcripts,
            moved_to,
        } => {
            let collected = CollectedFeeds {
                batches: vec![(**batch).clone()],
                transcripts: transcripts.clone(),
                moved: moved_to
                    .iter()
                    .map(|url| (batch.podcast.podcast_id, url.clone()))
                    .collect(),
                ..CollectedFeeds::default()
            };
            let stored = store_marked(&mut catalog, &collected, &|| false)?;
            (stored.delta, stored.to_publish)
        }
        CatalogChange::Blocked { podcast_id } => {
            mark_unindexed(&refresher.data_dir, &[*podcast_id])?;
            (block_podcast(&mut catalog, *podcast_id)?, true)
        }
        CatalogChange::Transcript { .. } => return Ok(()),
    };
    if to_publish {
        publish(&mut catalog, reader, delta)?;
    }
    Ok(())
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

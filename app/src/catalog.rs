//! The read side the handlers query: the Parquet snapshot (through
//! `podlens_data::Snapshot`) and the published search index generation (through
//! `podlens_indexer::IndexReaderHandle`). Both follow new publications without a
//! restart: the snapshot re-creates its tables and views when a file changed (on a
//! thread of its own, so no request waits for it), and the index handle switches
//! generations between queries, so requests in flight keep theirs.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use podlens_data::Snapshot;
use podlens_indexer::IndexReaderHandle;

use podlens_model::catalog::{EpisodeRecord, PodcastRecord};
use podlens_model::entities::PodcastSummary;

use crate::error::{AppError, AppResult};

/// The answer for a podcast id or slug the catalog does not hold.
pub fn podcast_not_found(id_or_slug: &str) -> AppError {
    AppError::NotFound(format!("Podcast not found: {id_or_slug}"))
}

/// How often the snapshot files and the index manifest are looked at.
const CHECK_INTERVAL: Duration = Duration::from_secs(1);

/// Shared, reloading access to the catalog snapshot and the search index.
pub struct CatalogReader {
    snapshot: Arc<Snapshot>,
    /// A refresh of the snapshot is running.
    refreshing: Arc<AtomicBool>,
    index_dir: PathBuf,
    index: Mutex<Option<Arc<IndexReaderHandle>>>,
    last_snapshot_check: Mutex<Instant>,
    last_index_attempt: Mutex<Option<Instant>>,
}

impl std::fmt::Debug for CatalogReader {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("CatalogReader")
            .field("index_dir", &self.index_dir)
            .finish_non_exhaustive()
    }
}

impl CatalogReader {
    /// Opens `<data_dir>/parquet` and (when published) `<data_dir>/index`.
    pub fn open(data_dir: &Path) -> AppResult<CatalogReader> {
        let snapshot = Snapshot::open(&data_dir.join(podlens_data::PARQUET_DIR))
            .map_err(|error| AppError::Internal(format!("cannot open the snapshot: {error}")))?;
        let reader = CatalogReader {
            snapshot: Arc::new(snapshot),
            refreshing: Arc::new(AtomicBool::new(false)),
            index_dir: data_dir.join("index"),
            index: Mutex::new(None),
            last_snapshot_check: Mutex::new(Instant::now()),
            last_index_attempt: Mutex::new(None),
        };
        Ok(reader)
    }

    /// The snapshot. Once a second, a look at its files: when one changed, the snapshot
    /// is refreshed on a thread of its own (loading a changed small file into memory
    /// takes a moment that no request should wait for) while queries go on with the
    /// previous tables.
    pub fn snapshot(&self) -> AppResult<&Snapshot> {
        let due = {
            let mut last = self
                .last_snapshot_check
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            let due = last.elapsed() >= CHECK_INTERVAL;
            if due {
                *last = Instant::now();
            }
            due
        };
        if due && !self.refreshing.swap(true, Ordering::AcqRel) {
            let snapshot = self.snapshot.clone();
            let refreshing = self.refreshing.clone();
            std::thread::spawn(move || {
                if let Err(error) = snapshot.refresh_if_changed() {
                    tracing::warn!(%error, "keeping the current catalog snapshot");
                }
                refreshing.store(false, Ordering::Release);
            });
        }
        Ok(&self.snapshot)
    }

    /// The podcast named by an id or a slug; not found names what was asked.
    pub fn podcast(&self, id_or_slug: &str) -> AppResult<PodcastRecord> {
        self.snapshot()?
            .podcast_by_id_or_slug(id_or_slug.trim())?
            .ok_or_else(|| podcast_not_found(id_or_slug))
    }

    /// The episode with this id: invalid for a malformed id, not found for an unknown one.
    pub fn episode(&self, episode_id: &str) -> AppResult<EpisodeRecord> {
        let id = uuid::Uuid::parse_str(episode_id.trim()).map_err(|_| {
            AppError::Invalid(format!("episodeId must be a UUID, got \"{episode_id}\""))
        })?;
        self.snapshot()?
            .episode_by_id(id)?
            .ok_or_else(|| AppError::NotFound(format!("Episode not found: {episode_id}")))
    }

    /// The summary of a podcast with its authority score, when it has one.
    pub fn podcast_summary(&self, record: &PodcastRecord) -> AppResult<PodcastSummary> {
        let mut summary = crate::convert::podcast_summary(record);
        let scores = self.snapshot()?.authority_scores(&[record.podcast_id])?;
        summary.authority_score = scores
            .get(&record.podcast_id)
            .map(crate::convert::score_summary);
        Ok(summary)
    }

    /// The index handle when it is open already (no I/O).
    pub fn opened_index(&self) -> Option<Arc<IndexReaderHandle>> {
        self.index
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }

    /// The index handle, opened on first use once a generation is published.
    pub fn index(&self) -> AppResult<Arc<IndexReaderHandle>> {
        let mut slot = self
            .index
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(handle) = slot.as_ref() {
            return Ok(handle.clone());
        }
        let mut last_attempt = self
            .last_index_attempt
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let recently_failed = last_attempt.is_some_and(|at| at.elapsed() < CHECK_INTERVAL);
        if !recently_failed {
            *last_attempt = Some(Instant::now());
            match IndexReaderHandle::open(&self.index_dir) {
                Ok(handle) => {
                    let handle = Arc::new(handle);
                    *slot = Some(handle.clone());
                    return Ok(handle);
                }
                Err(error) => tracing::debug!(%error, "no search index yet"),
            }
        }
        Err(AppError::Unavailable(
            "The search index has not been built yet; run `podlens index`".to_owned(),
        ))
    }
}

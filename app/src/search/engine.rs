//! The seam between the application and the search index: [`SearchEngine`], what the
//! index answers (a page of a search, a semantic search, related podcasts, autocomplete,
//! the directory, podcasts by id), asynchronously, wherever its shards are.
//!
//! - [`LocalEngine`]: the generation published in the data directory, every shard open
//!   in this process; each call is one hand-off to the search pool, as before.
//! - `ClusterEngine` (`super::cluster_engine`): an API node of a cluster, whose shards
//!   are served by search nodes; each call runs as a root over them
//!   (`podlens_cluster::RemoteShards`), awaiting their answers without holding a thread.
//!
//! Plan checks, metering, search history and blacklists stay on this side of the seam:
//! the engine is told what to search, never who asks.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use podlens_indexer::directory::Directory;
use podlens_indexer::{Autocomplete, PodcastHit, SearchRequest, SearchResponse, SemanticRequest};
use uuid::Uuid;

use crate::catalog::CatalogReader;
use crate::error::{AppError, AppResult};

/// A call of a [`SearchEngine`].
pub type EngineFuture<'a, T> = Pin<Box<dyn Future<Output = AppResult<T>> + Send + 'a>>;

/// The generation an engine searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenerationInfo {
    pub generation: u64,
    /// Whether it has vectors (semantic search, hybrid ranking, related by vectors).
    pub vectors: bool,
}

/// What the search index answers, wherever its shards are.
pub trait SearchEngine: Send + Sync + std::fmt::Debug {
    /// A page of a search.
    fn search(&self, request: SearchRequest) -> EngineFuture<'_, SearchResponse>;

    /// A semantic search (by meaning, with the index's vectors).
    fn semantic_search(&self, request: SemanticRequest) -> EngineFuture<'_, SearchResponse>;

    /// The podcasts most like `podcast`, best first.
    fn related_podcasts(&self, podcast: Uuid, limit: usize) -> EngineFuture<'_, Vec<PodcastHit>>;

    /// Podcast titles and words completing `prefix`.
    fn autocomplete(&self, prefix: String, limit: usize) -> EngineFuture<'_, Autocomplete>;

    /// Every podcast by letter.
    fn directory(&self) -> EngineFuture<'_, Arc<Directory>>;

    /// The index's fields of the podcasts `ids`, in their order (ids it lacks left out).
    fn podcast_hits(&self, ids: Vec<Uuid>) -> EngineFuture<'_, Vec<PodcastHit>>;

    /// The generation searched now.
    fn generation(&self) -> EngineFuture<'_, GenerationInfo>;

    /// Whether it can serve a search now: `Unavailable` when it has no generation (the
    /// index not built, a cluster without its search nodes). Asked before a search is
    /// charged, so it must be cheap.
    fn ready(&self) -> EngineFuture<'_, ()> {
        Box::pin(async move { self.generation().await.map(|_| ()) })
    }
}

/// Calls queued for or running on the search pool at most, per pool thread: past it a
/// call is refused at once ([`AppError::Unavailable`], 503) rather than queued behind
/// work whose callers may have given up (Elasticsearch's search queue refuses past 1,000
/// with 429). At 64 a thread, the last call queued on 2 cores waits about 1 s behind
/// searches of 15 ms (the encoder's query time).
pub const QUEUED_PER_THREAD: usize = 64;

/// Calls on the search pool now, queued or running.
static ON_POOL: AtomicUsize = AtomicUsize::new(0);

/// A place on the search pool, given back when dropped.
struct PoolPlace;

fn pool_limit() -> usize {
    QUEUED_PER_THREAD * rayon::current_num_threads().max(1)
}

fn pool_busy() -> AppError {
    AppError::Unavailable("The search engine is busy; try again in a moment".into())
}

/// Refuses at once, as [`on_search_pool`] would, when the pool is full: a search asks
/// before it charges the caller, so a search refused for a full pool costs no quota.
pub(crate) fn admit() -> AppResult<()> {
    if ON_POOL.load(Ordering::Acquire) < pool_limit() {
        Ok(())
    } else {
        Err(pool_busy())
    }
}

impl PoolPlace {
    fn take() -> Option<PoolPlace> {
        let limit = pool_limit();
        ON_POOL
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |taken| {
                (taken < limit).then_some(taken + 1)
            })
            .ok()
            .map(|_| PoolPlace)
    }
}

impl Drop for PoolPlace {
    fn drop(&mut self) {
        ON_POOL.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Runs `work` on the search pool (where the engine's parallel steps run anyway) and
/// awaits its answer. A full pool refuses it ([`QUEUED_PER_THREAD`]); work whose caller
/// has gone by the time a thread takes it up (the client hung up) is not run.
pub async fn on_search_pool<T, F>(work: F) -> AppResult<T>
where
    F: FnOnce() -> AppResult<T> + Send + 'static,
    T: Send + 'static,
{
    let place = PoolPlace::take().ok_or_else(pool_busy)?;
    let (sender, receiver) = tokio::sync::oneshot::channel();
    rayon::spawn(move || {
        let _place = place;
        if sender.is_closed() {
            return;
        }
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
        // The caller may have gone meanwhile: nothing waits for the answer.
        let _ = sender.send(outcome);
    });
    match receiver.await {
        Ok(Ok(result)) => result,
        Ok(Err(_)) => Err(AppError::Internal("search task panicked".into())),
        Err(_) => Err(AppError::Internal("search task was dropped".into())),
    }
}

/// The index published in the data directory, searched in this process.
#[derive(Debug, Clone)]
pub struct LocalEngine {
    catalog: Arc<CatalogReader>,
}

impl LocalEngine {
    pub fn new(catalog: Arc<CatalogReader>) -> LocalEngine {
        LocalEngine { catalog }
    }

    /// Runs `work` with the current index on the search pool.
    fn with_index<'a, T, F>(&'a self, work: F) -> EngineFuture<'a, T>
    where
        F: FnOnce(&podlens_indexer::IndexReaderHandle) -> AppResult<T> + Send + 'static,
        T: Send + 'static,
    {
        let catalog = self.catalog.clone();
        Box::pin(on_search_pool(move || work(catalog.index()?.as_ref())))
    }
}

/// The model of the current generation's show vectors, if it has them.
fn shows_model(index: &podlens_indexer::IndexReaderHandle) -> Option<String> {
    let generation = index.generation();
    let shows = generation.manifest.encoder.as_ref()?;
    Some(shows.model_sha256.clone())
}

impl SearchEngine for LocalEngine {
    fn search(&self, mut request: SearchRequest) -> EngineFuture<'_, SearchResponse> {
        self.with_index(move |index| {
            super::QueryEncoder::fill_shared(&mut request, shows_model(index).as_deref());
            Ok(index.search(&request)?)
        })
    }

    fn semantic_search(&self, mut request: SemanticRequest) -> EngineFuture<'_, SearchResponse> {
        self.with_index(move |index| {
            super::QueryEncoder::fill_shared(&mut request, shows_model(index).as_deref());
            Ok(index.semantic_search(&request)?)
        })
    }

    fn related_podcasts(&self, podcast: Uuid, limit: usize) -> EngineFuture<'_, Vec<PodcastHit>> {
        self.with_index(move |index| Ok(index.related_podcasts(podcast, limit)?))
    }

    fn autocomplete(&self, prefix: String, limit: usize) -> EngineFuture<'_, Autocomplete> {
        self.with_index(move |index| Ok(index.autocomplete(&prefix, limit)?))
    }

    fn directory(&self) -> EngineFuture<'_, Arc<Directory>> {
        self.with_index(|index| Ok(index.directory()?))
    }

    fn podcast_hits(&self, ids: Vec<Uuid>) -> EngineFuture<'_, Vec<PodcastHit>> {
        self.with_index(move |index| Ok(index.generation().podcast_hits(&ids)?))
    }

    fn ready(&self) -> EngineFuture<'_, ()> {
        let catalog = self.catalog.clone();
        Box::pin(async move {
            if catalog.opened_index().is_some() {
                return Ok(());
            }
            // Opening the index the first time reads files: off the runtime.
            tokio::task::spawn_blocking(move || catalog.index().map(|_| ()))
                .await
                .map_err(|error| AppError::Internal(format!("blocking task failed: {error}")))?
        })
    }

    fn generation(&self) -> EngineFuture<'_, GenerationInfo> {
        let catalog = self.catalog.clone();
        // Opening the index the first time reads files: off the runtime.
        Box::pin(async move {
            tokio::task::spawn_blocking(move || {
                let generation = catalog.index()?.generation();
                Ok(GenerationInfo {
                    generation: generation.manifest.generation,
                    vectors: generation.model.is_some(),
                })
            })
            .await
            .map_err(|error| AppError::Internal(format!("blocking task failed: {error}")))?
        })
    }
}

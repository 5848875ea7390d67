//! The query's vector from the multilingual encoder (`podlens_embedding::Encoder`), made
//! once per search by the engine's caller and carried in the engine request
//! (`SearchRequest::encoded_query`), so a root embeds once whatever its shards; the
//! vectors of repeated queries are kept.
//!
//! A search is embedded only when the generation has show vectors from the very model
//! this process loaded: vectors of two models are not comparable.

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};

use lru::LruCache;
use podlens_indexer::embedding::Encoder;
use podlens_indexer::{SearchRequest, SemanticRequest};

/// Query vectors kept (about 1.5 KB each).
const CACHED_QUERIES: usize = 4096;

/// The encoder, with the vectors of recent queries.
pub struct QueryEncoder {
    encoder: Arc<Encoder>,
    cache: Mutex<LruCache<String, Arc<[f32]>>>,
}

impl std::fmt::Debug for QueryEncoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QueryEncoder")
            .field("encoder", &self.encoder)
            .finish_non_exhaustive()
    }
}

impl QueryEncoder {
    pub fn new(encoder: Arc<Encoder>) -> QueryEncoder {
        QueryEncoder {
            encoder,
            cache: Mutex::new(LruCache::new(
                NonZeroUsize::new(CACHED_QUERIES).unwrap_or(NonZeroUsize::MIN),
            )),
        }
    }

    /// The process's encoder (`Encoder::shared`), `None` when it is not installed.
    pub fn shared() -> Option<Arc<QueryEncoder>> {
        static SHARED: std::sync::OnceLock<Option<Arc<QueryEncoder>>> = std::sync::OnceLock::new();
        SHARED
            .get_or_init(|| Encoder::shared().map(|encoder| Arc::new(QueryEncoder::new(encoder))))
            .clone()
    }

    /// The vector of `text` as a query, from the cache or the encoder.
    pub fn vector(&self, text: &str) -> Option<Arc<[f32]>> {
        if let Some(vector) = self.lock().get(text) {
            return Some(vector.clone());
        }
        match self.encoder.query(text) {
            Ok(vector) => {
                let vector: Arc<[f32]> = vector.into();
                self.lock().put(text.to_owned(), vector.clone());
                Some(vector)
            }
            Err(error) => {
                tracing::warn!(%error, "the encoder failed on a query: it is searched without");
                None
            }
        }
    }

    /// Sets `request`'s encoder vector when the search uses one and the generation's
    /// show vectors (`shows_model`: their model's sha256) come from this encoder.
    pub fn fill(&self, request: &mut impl Encodable, shows_model: Option<&str>) {
        if request.encoded_query().is_some() || shows_model != Some(self.encoder.model_sha256()) {
            return;
        }
        if let Some(text) = request.encoder_text() {
            *request.encoded_query() = self.vector(&text).map(|vector| vector.to_vec());
        }
    }

    /// [`QueryEncoder::fill`] with the process's encoder, when the generation has show
    /// vectors (only then is the encoder loaded).
    pub fn fill_shared(request: &mut impl Encodable, shows_model: Option<&str>) {
        if shows_model.is_some()
            && let Some(encoder) = QueryEncoder::shared()
        {
            encoder.fill(request, shows_model);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, LruCache<String, Arc<[f32]>>> {
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// An engine request the encoder's vector of its words can ride in.
pub trait Encodable {
    /// What the encoder embeds, `None` when the search would not use it.
    fn encoder_text(&self) -> Option<String>;
    /// Where the vector goes.
    fn encoded_query(&mut self) -> &mut Option<Vec<f32>>;
}

impl Encodable for SearchRequest {
    fn encoder_text(&self) -> Option<String> {
        SearchRequest::encoder_text(self)
    }

    fn encoded_query(&mut self) -> &mut Option<Vec<f32>> {
        &mut self.encoded_query
    }
}

impl Encodable for SemanticRequest {
    fn encoder_text(&self) -> Option<String> {
        SemanticRequest::encoder_text(self).map(str::to_owned)
    }

    fn encoded_query(&mut self) -> &mut Option<Vec<f32>> {
        &mut self.encoded_query
    }
}

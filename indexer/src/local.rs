//! Searching on one machine: each entry point runs its search's root over the shards this
//! process has open, through the same steps a cluster's root sends to its search nodes
//! (`crate::steps`, `crate::lookups`), so both answer alike.

use uuid::Uuid;

use crate::autocomplete::Autocomplete;
use crate::error::Result;
use crate::reader::IndexReaderHandle;
use crate::related::{DEFAULT_RELATED_METHOD, RelatedMethod, like_request, others};
use crate::request::SearchRequest;
use crate::results::{PodcastHit, SearchResponse};
use crate::search::search;
use crate::semantic::SemanticRequest;
use crate::shard::OpenGeneration;
use crate::shards::done;
use crate::steps::LocalRunner;
use crate::vectors::VectorSearchOptions;

impl IndexReaderHandle {
    /// Runs `request` on the current generation.
    pub fn search(&self, request: &SearchRequest) -> Result<SearchResponse> {
        search(&self.generation(), request)
    }

    /// Suggestions for `prefix`.
    pub fn autocomplete(&self, prefix: &str, limit: usize) -> Result<Autocomplete> {
        autocomplete(&self.generation(), prefix, limit)
    }

    /// Podcasts related to `podcast_id`, by [`DEFAULT_RELATED_METHOD`].
    pub fn related_podcasts(&self, podcast_id: Uuid, limit: usize) -> Result<Vec<PodcastHit>> {
        related_podcasts(&self.generation(), podcast_id, limit)
    }

    /// Runs a semantic search on the current generation.
    pub fn semantic_search(&self, request: &SemanticRequest) -> Result<SearchResponse> {
        semantic_search(&self.generation(), request)
    }

    /// Whether the current generation has vectors (semantic features available).
    pub fn has_vectors(&self) -> bool {
        self.generation().model.is_some()
    }
}

/// Suggestions for `prefix` on `generation`.
pub fn autocomplete(
    generation: &OpenGeneration,
    prefix: &str,
    limit: usize,
) -> Result<Autocomplete> {
    let _running = crate::fanout::Running::start();
    done(crate::lookups::autocomplete_over(
        &LocalRunner::new(generation),
        prefix,
        limit,
    ))
}

/// Podcasts related to `podcast_id` by [`DEFAULT_RELATED_METHOD`]; empty when it is
/// not indexed.
pub fn related_podcasts(
    generation: &OpenGeneration,
    podcast_id: Uuid,
    limit: usize,
) -> Result<Vec<PodcastHit>> {
    related_podcasts_with(generation, podcast_id, limit, DEFAULT_RELATED_METHOD)
}

/// Podcasts related to `podcast_id` by `method`.
pub fn related_podcasts_with(
    generation: &OpenGeneration,
    podcast_id: Uuid,
    limit: usize,
    method: RelatedMethod,
) -> Result<Vec<PodcastHit>> {
    // The "like" ranking is a search (which counts itself as running).
    if method == RelatedMethod::Like && generation.model.is_some() {
        let Some(hit) = generation.podcast_hits(&[podcast_id])?.into_iter().next() else {
            return Ok(Vec::new());
        };
        if let Some(request) = like_request(podcast_id, &hit.title, limit) {
            return Ok(others(
                search(generation, &request)?.hits,
                podcast_id,
                limit,
            ));
        }
    }
    let _running = crate::fanout::Running::start();
    done(crate::lookups::related_over(
        &LocalRunner::new(generation),
        generation.model.is_some(),
        podcast_id,
        limit,
        method,
    ))
}

/// Podcasts whose title and description resemble `podcast_id`'s (more-like-this).
pub fn related_by_text(
    generation: &OpenGeneration,
    podcast_id: Uuid,
    limit: usize,
) -> Result<Vec<PodcastHit>> {
    related_podcasts_with(generation, podcast_id, limit, RelatedMethod::Text)
}

/// Runs a semantic search on `generation` with the default [`VectorSearchOptions`].
pub fn semantic_search(
    generation: &OpenGeneration,
    request: &SemanticRequest,
) -> Result<SearchResponse> {
    semantic_search_with(generation, request, VectorSearchOptions::default())
}

/// Runs a semantic search on `generation` with `options`.
pub fn semantic_search_with(
    generation: &OpenGeneration,
    request: &SemanticRequest,
    options: VectorSearchOptions,
) -> Result<SearchResponse> {
    let _running = crate::fanout::Running::start();
    done(crate::lookups::semantic_over(
        &LocalRunner::new(generation),
        generation.model.as_deref(),
        request,
        options,
    ))
}

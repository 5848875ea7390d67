//! What the vectors are used for: semantic search (a query embedded with the index's
//! static model against every episode description and transcript chunk, or every
//! podcast centroid), related podcasts by centroid similarity, and semantic re-ranking
//! of keyword hits. Every shard is searched in parallel by [`ShardVectors::nearest`]:
//! a Hamming scan over the rows' sign codes, then exact int8 scores for the nearest
//! [`VectorSearchOptions::rescore`] rows. Re-ranking scores the hits' own rows exactly.
//!
//! A generation built without the static model has no vectors: these functions then
//! return [`IndexError::VectorsUnavailable`] rather than an imitation.

use std::collections::HashSet;
use std::time::Instant;

use rayon::prelude::*;
use tantivy::collector::TopDocs;
use tantivy::query::TermQuery;
use tantivy::schema::document::DocumentDeserialize;
use tantivy::schema::{Field, IndexRecordOption, Value};
use tantivy::{Searcher, Term};
use uuid::Uuid;

use crate::build::shard_of;
use crate::embedding::StaticModel;
use crate::error::{IndexError, Result};
use crate::reader::IndexReaderHandle;
use crate::request::SearchMode;
use crate::results::{EpisodeHit, Hits, PodcastHit, SearchResponse, Timings, TranscriptSnippet};
use crate::search::{episode_hit, escape_html, podcast_hit, text};
use crate::shard::OpenGeneration;
use crate::vectors::{
    QueryVector, RowSet, ShardVectors, VectorKey, VectorKind, VectorSearchOptions, top_k,
};

/// Most hits a semantic search returns.
pub const MAX_SEMANTIC_LIMIT: usize = 100;

/// A semantic search: the query's meaning, not its words.
#[derive(Debug, Clone, PartialEq)]
pub struct SemanticRequest {
    pub query: String,
    /// Episodes (best description or transcript chunk per episode) or podcasts (centroids).
    pub mode: SearchMode,
    /// 1..=[`MAX_SEMANTIC_LIMIT`].
    pub limit: usize,
    /// Only these podcasts (and their episodes) when not empty.
    pub include_podcast_ids: Vec<Uuid>,
}

impl IndexReaderHandle {
    /// Runs a semantic search on the current generation.
    pub fn semantic_search(&self, request: &SemanticRequest) -> Result<SearchResponse> {
        semantic_search(&self.generation(), request)
    }

    /// Whether the current generation has vectors (semantic features available).
    pub fn has_vectors(&self) -> bool {
        self.generation().model.is_some()
    }
}

fn model_of(generation: &OpenGeneration) -> Result<&StaticModel> {
    generation
        .model
        .as_deref()
        .ok_or(IndexError::VectorsUnavailable)
}

/// Embeds a query with the generation's model, ready for int8 comparison; `None` when
/// no word of it is in the model's vocabulary.
pub(crate) fn embed_query(generation: &OpenGeneration, query: &str) -> Result<Option<QueryVector>> {
    let model = model_of(generation)?;
    let vector = QueryVector::new(&model.embed(query));
    Ok((!vector.is_zero()).then_some(vector))
}

/// The best-scoring row of each of the best `limit` episodes of one shard, as
/// (score, (episode, row)), from the rows the sign-code scan keeps (widened while they
/// hold fewer than `limit` episodes and more rows remain).
fn best_episodes(
    vectors: &ShardVectors,
    query: &QueryVector,
    podcasts: &HashSet<Uuid>,
    limit: usize,
    rescore: usize,
) -> Vec<(f32, (Uuid, usize))> {
    let accept = |key: &VectorKey| {
        matches!(key.kind, VectorKind::Description | VectorKind::Chunk)
            && (podcasts.is_empty() || podcasts.contains(&key.podcast_id))
    };
    let keys = vectors.keys();
    let mut rescore = rescore.max(limit);
    loop {
        let found = vectors.nearest(query, RowSet::All, rescore, accept);
        // rows come best first: an episode's first row is its best
        let mut seen = HashSet::new();
        let best: Vec<(f32, (Uuid, usize))> = found
            .rows
            .iter()
            .filter(|(_, row)| seen.insert(keys[*row].episode_id))
            .map(|(score, row)| (*score, (keys[*row].episode_id, *row)))
            .collect();
        if best.len() >= limit || found.complete {
            return top_k(best.into_iter(), limit);
        }
        rescore = rescore.saturating_mul(4);
    }
}

/// The best `limit` centroids of one shard that `accept` admits, as (score, (podcast, row)).
pub(crate) fn best_centroids(
    vectors: &ShardVectors,
    query: &QueryVector,
    limit: usize,
    rescore: usize,
    accept: impl Fn(&VectorKey) -> bool + Copy,
) -> Vec<(f32, (Uuid, usize))> {
    let keys = vectors.keys();
    let mut rescore = rescore.max(limit);
    loop {
        let found = vectors.nearest(query, RowSet::Centroids, rescore, accept);
        if found.rows.len() >= limit || found.complete {
            return top_k(
                found
                    .rows
                    .iter()
                    .map(|(score, row)| (*score, (keys[*row].podcast_id, *row))),
                limit,
            );
        }
        rescore = rescore.saturating_mul(4);
    }
}

pub(crate) fn find_doc<D: DocumentDeserialize>(
    searcher: &Searcher,
    field: Field,
    id: &str,
) -> Result<Option<D>> {
    let query = TermQuery::new(Term::from_field_text(field, id), IndexRecordOption::Basic);
    let top = searcher.search(&query, &TopDocs::with_limit(1).order_by_score())?;
    match top.first() {
        Some((_, address)) => Ok(Some(searcher.doc(*address)?)),
        None => Ok(None),
    }
}

/// A scored row: (cosine, (shard, episode or podcast id, row)).
type ScoredRow = (f32, (usize, Uuid, usize));

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
    let started = Instant::now();
    let _running = crate::fanout::Running::start();
    if request.query.trim().is_empty() {
        return Err(IndexError::InvalidRequest("the query is blank".into()));
    }
    if request.limit == 0 || request.limit > MAX_SEMANTIC_LIMIT {
        return Err(IndexError::InvalidRequest(format!(
            "limit must be between 1 and {MAX_SEMANTIC_LIMIT}"
        )));
    }
    let query = embed_query(generation, &request.query)?.ok_or_else(|| {
        IndexError::InvalidRequest("the query has no word the embedding model knows".into())
    })?;
    let podcasts: HashSet<Uuid> = request.include_podcast_ids.iter().copied().collect();
    let limit = request.limit;
    let per_shard: Vec<Vec<ScoredRow>> = generation
        .shards
        .par_iter()
        .with_min_len(crate::fanout::min_len())
        .enumerate()
        .map(|(shard, open)| {
            let Some(vectors) = &open.vectors else {
                return Vec::new();
            };
            let found: Vec<(f32, (Uuid, usize))> = match request.mode {
                SearchMode::Episodes => {
                    best_episodes(vectors, &query, &podcasts, limit, options.rescore)
                }
                SearchMode::Podcasts => {
                    best_centroids(vectors, &query, limit, options.rescore, |key| {
                        podcasts.is_empty() || podcasts.contains(&key.podcast_id)
                    })
                }
            };
            found
                .into_iter()
                .map(|(score, (id, row))| (score, (shard, id, row)))
                .collect()
        })
        .collect();
    let best = top_k(per_shard.into_iter().flatten(), limit);
    let search_done = Instant::now();
    let hits = match request.mode {
        SearchMode::Podcasts => Hits::Podcasts(
            best.iter()
                .map(|(score, (shard, id, _))| {
                    let searcher = &generation.shards[*shard].podcasts;
                    let fields = &generation.schemas.podcasts;
                    Ok(find_doc(searcher, fields.ids.id, &id.to_string())?
                        .map(|doc| podcast_hit(generation, doc, *score)))
                })
                .filter_map(Result::transpose)
                .collect::<Result<Vec<_>>>()?,
        ),
        SearchMode::Episodes => Hits::Episodes(
            best.par_iter()
                .with_min_len(crate::fanout::min_len())
                .map(|(score, (shard, id, row))| {
                    episode_with_passage(generation, *shard, *id, *row, *score)
                })
                .filter_map(Result::transpose)
                .collect::<Result<Vec<_>>>()?,
        ),
    };
    let finished = Instant::now();
    let total = match &hits {
        Hits::Podcasts(hits) => hits.len(),
        Hits::Episodes(hits) => hits.len(),
    } as u64;
    Ok(SearchResponse {
        hits,
        total,
        next_cursor: None,
        generation: generation.manifest.generation,
        timings: Timings {
            search_ms: (search_done - started).as_secs_f64() * 1e3,
            post_processing_ms: (finished - search_done).as_secs_f64() * 1e3,
            total_ms: (finished - started).as_secs_f64() * 1e3,
        },
    })
}

/// An episode hit whose snippet is the passage that matched (when it was a chunk).
fn episode_with_passage(
    generation: &OpenGeneration,
    shard: usize,
    episode_id: Uuid,
    row: usize,
    score: f32,
) -> Result<Option<EpisodeHit>> {
    let open = &generation.shards[shard];
    let fields = &generation.schemas;
    let Some(doc) = find_doc(
        &open.episodes,
        fields.episodes.ids.id,
        &episode_id.to_string(),
    )?
    else {
        return Ok(None);
    };
    let mut hit = episode_hit(generation, doc, score, None);
    let key = open.vectors.as_ref().map(|vectors| vectors.keys()[row]);
    if let Some(chunk_id) = key.and_then(|key| key.chunk_id())
        && let Some(chunk) = find_doc(&open.chunks, fields.chunks.chunk_id, &chunk_id)?
    {
        let passage = text(&chunk, fields.chunks.text_stored).unwrap_or_default();
        hit.snippets = vec![TranscriptSnippet {
            chunk_id,
            html: escape_html(&passage),
            fragment: passage,
            highlights: Vec::new(),
            start_second: chunk
                .get_first(fields.chunks.start_second)
                .and_then(|v| v.as_f64()),
            end_second: chunk
                .get_first(fields.chunks.end_second)
                .and_then(|v| v.as_f64()),
        }];
    }
    Ok(Some(hit))
}

/// Podcasts whose centroid is closest to `podcast_id`'s, best first (itself excluded);
/// `None` when the generation has no vectors or the podcast has no centroid.
pub fn related_by_vectors(
    generation: &OpenGeneration,
    podcast_id: Uuid,
    limit: usize,
) -> Result<Option<Vec<PodcastHit>>> {
    related_by_vectors_with(
        generation,
        podcast_id,
        limit,
        VectorSearchOptions::default(),
    )
}

/// [`related_by_vectors`] with `options`.
pub fn related_by_vectors_with(
    generation: &OpenGeneration,
    podcast_id: Uuid,
    limit: usize,
    options: VectorSearchOptions,
) -> Result<Option<Vec<PodcastHit>>> {
    if generation.model.is_none() {
        return Ok(None);
    }
    let home = &generation.shards[shard_of(podcast_id, generation.manifest.shards) as usize];
    let Some(vectors) = &home.vectors else {
        return Ok(None);
    };
    let Some(row) = vectors.centroid_row(podcast_id) else {
        return Ok(None);
    };
    let query = QueryVector::new(&vectors.dequantized(row));
    if query.is_zero() {
        return Ok(None);
    }
    let per_shard: Vec<Vec<(f32, (usize, Uuid))>> = generation
        .shards
        .par_iter()
        .with_min_len(crate::fanout::min_len())
        .enumerate()
        .map(|(shard, open)| {
            let Some(vectors) = &open.vectors else {
                return Vec::new();
            };
            best_centroids(vectors, &query, limit, options.rescore, |key| {
                key.podcast_id != podcast_id
            })
            .into_iter()
            .map(|(score, (id, _))| (score, (shard, id)))
            .collect()
        })
        .collect();
    let best = top_k(per_shard.into_iter().flatten(), limit);
    let fields = &generation.schemas.podcasts;
    let hits = best
        .iter()
        .map(|(score, (shard, id))| {
            Ok(find_doc(
                &generation.shards[*shard].podcasts,
                fields.ids.id,
                &id.to_string(),
            )?
            .map(|doc| podcast_hit(generation, doc, *score)))
        })
        .filter_map(Result::transpose)
        .collect::<Result<Vec<_>>>()?;
    Ok(Some(hits))
}

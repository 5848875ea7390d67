//! What the vectors are used for: semantic search (a query embedded with the index's
//! static model against every episode description and transcript chunk, or every
//! podcast centroid), related podcasts by centroid similarity, and semantic re-ranking
//! of keyword hits. Search is exact over the int8 vectors of every shard, in parallel.
//!
//! A generation built without the static model has no vectors: these functions then
//! return [`IndexError::VectorsUnavailable`] rather than an imitation.

use std::collections::HashSet;
use std::time::Instant;

use rayon::prelude::*;
use tantivy::collector::TopDocs;
use tantivy::query::TermQuery;
use tantivy::schema::{Field, IndexRecordOption, Value};
use tantivy::{Searcher, TantivyDocument, Term};
use uuid::Uuid;

use crate::build::shard_of;
use crate::embedding::StaticModel;
use crate::error::{IndexError, Result};
use crate::reader::IndexReaderHandle;
use crate::request::SearchMode;
use crate::results::{EpisodeHit, Hits, PodcastHit, SearchResponse, Timings, TranscriptSnippet};
use crate::search::{episode_hit, podcast_hit, text};
use crate::shard::OpenGeneration;
use crate::vectors::{QueryVector, ShardVectors, VectorKind, top_k};

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

/// The best-scoring row of each episode of one shard, as (score, (episode, row)).
fn episode_scores<'a>(
    vectors: &'a ShardVectors,
    query: &'a QueryVector,
    podcasts: &'a HashSet<Uuid>,
) -> impl Iterator<Item = (f32, (Uuid, usize))> + 'a {
    let keys = vectors.keys();
    let mut row = 0;
    std::iter::from_fn(move || {
        while row < keys.len() {
            let key = keys[row];
            if !matches!(key.kind, VectorKind::Description | VectorKind::Chunk)
                || (!podcasts.is_empty() && !podcasts.contains(&key.podcast_id))
            {
                row += 1;
                continue;
            }
            let mut best = (f32::NEG_INFINITY, row);
            while row < keys.len()
                && keys[row].episode_id == key.episode_id
                && matches!(keys[row].kind, VectorKind::Description | VectorKind::Chunk)
            {
                let score = query.score(vectors, row);
                if score > best.0 {
                    best = (score, row);
                }
                row += 1;
            }
            return Some((best.0, (key.episode_id, best.1)));
        }
        None
    })
}

fn find_doc(searcher: &Searcher, field: Field, id: &str) -> Result<Option<TantivyDocument>> {
    let query = TermQuery::new(Term::from_field_text(field, id), IndexRecordOption::Basic);
    let top = searcher.search(&query, &TopDocs::with_limit(1).order_by_score())?;
    match top.first() {
        Some((_, address)) => Ok(Some(searcher.doc(*address)?)),
        None => Ok(None),
    }
}

fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            other => out.push(other),
        }
    }
    out
}

/// A scored row: (cosine, (shard, episode or podcast id, row)).
type ScoredRow = (f32, (usize, Uuid, usize));

/// Runs a semantic search on `generation`.
pub fn semantic_search(
    generation: &OpenGeneration,
    request: &SemanticRequest,
) -> Result<SearchResponse> {
    let started = Instant::now();
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
        .enumerate()
        .map(|(shard, open)| {
            let Some(vectors) = &open.vectors else {
                return Vec::new();
            };
            let found: Vec<(f32, (Uuid, usize))> = match request.mode {
                SearchMode::Episodes => top_k(episode_scores(vectors, &query, &podcasts), limit),
                SearchMode::Podcasts => top_k(
                    vectors
                        .keys()
                        .iter()
                        .enumerate()
                        .filter(|(_, key)| {
                            key.kind == VectorKind::Centroid
                                && (podcasts.is_empty() || podcasts.contains(&key.podcast_id))
                        })
                        .map(|(row, key)| (query.score(vectors, row), (key.podcast_id, row))),
                    limit,
                ),
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
    let mut hit = episode_hit(generation, doc, score);
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
        .enumerate()
        .map(|(shard, open)| {
            let Some(vectors) = &open.vectors else {
                return Vec::new();
            };
            top_k(
                vectors
                    .keys()
                    .iter()
                    .enumerate()
                    .filter(|(_, key)| {
                        key.kind == VectorKind::Centroid && key.podcast_id != podcast_id
                    })
                    .map(|(row, key)| (query.score(vectors, row), (shard, key.podcast_id))),
                limit,
            )
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

/// The cosine of each hit's best vector with `query` (centroids for podcasts, the best
/// description or chunk for episodes); `None` for a hit without vectors.
pub(crate) fn hit_similarities(
    generation: &OpenGeneration,
    query: &QueryVector,
    hits: &Hits,
) -> Vec<Option<f32>> {
    let find = |id: Uuid, podcast: Uuid, episode: bool| -> Option<f32> {
        let shard = &generation.shards[shard_of(podcast, generation.manifest.shards) as usize];
        let vectors = shard.vectors.as_ref()?;
        if episode {
            vectors
                .episode_rows(id)?
                .map(|row| query.score(vectors, row))
                .max_by(f32::total_cmp)
        } else {
            vectors
                .centroid_row(id)
                .map(|row| query.score(vectors, row))
        }
    };
    match hits {
        Hits::Podcasts(hits) => hits
            .iter()
            .map(|hit| find(hit.podcast_id, hit.podcast_id, false))
            .collect(),
        Hits::Episodes(hits) => hits
            .iter()
            .map(|hit| find(hit.episode_id, hit.podcast_id, true))
            .collect(),
    }
}

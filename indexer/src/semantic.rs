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

use rayon::prelude::*;
use tantivy::schema::Value;
use uuid::Uuid;

use crate::error::{IndexError, Result};
use crate::highlight::escape_html;
use crate::hits::{episode_hit, find_doc, podcast_hit};
use crate::request::SearchMode;
use crate::results::{EpisodeHit, Hits, TranscriptSnippet};
use crate::shard::{OpenGeneration, OpenShard};
use crate::stored::text;
use crate::vectors::{QueryVector, RowSet, ShardVectors, VectorKey, VectorKind, top_k};

/// Most hits a semantic search returns.
pub const MAX_SEMANTIC_LIMIT: usize = 100;

/// A vector row of a shard, scored: (similarity, shard, episode or podcast id, row).
pub type ScoredRow = (f32, u32, Uuid, u32);

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
    /// The query's vector from the multilingual encoder, set by the caller for a podcast
    /// search when the generation's show vectors come from the same model: the search
    /// then ranks the show vectors (`crate::vectors::shows`) instead of the static
    /// centroids.
    pub encoded_query: Option<Vec<f32>>,
}

impl SemanticRequest {
    /// What the encoder embeds for this search (its query), `None` when it would not use
    /// it (an episode search).
    pub fn encoder_text(&self) -> Option<&str> {
        (self.mode == SearchMode::Podcasts && !self.query.trim().is_empty())
            .then_some(self.query.as_str())
    }
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

/// The best rows for `query` of each of the open shards `selected` (indexes into
/// `generation.shards`): per shard, the best `limit` episodes (each by its best
/// description or chunk) or podcast centroids, as (score, shard, id, row).
pub(crate) fn nearest_rows(
    generation: &OpenGeneration,
    selected: &[usize],
    query: &QueryVector,
    mode: SearchMode,
    limit: usize,
    podcasts: &HashSet<Uuid>,
    rescore: usize,
) -> Vec<ScoredRow> {
    let per_shard: Vec<Vec<ScoredRow>> = selected
        .par_iter()
        .with_min_len(crate::fanout::min_len())
        .map(|at| {
            let shard = generation.shard_numbers[*at];
            let open = &generation.shards[*at];
            let store = match mode {
                SearchMode::Podcasts => crate::shard::podcast_store(open, query),
                SearchMode::Episodes => open.vectors.as_ref(),
            };
            let Some(vectors) = store else {
                return Vec::new();
            };
            let found: Vec<(f32, (Uuid, usize))> = match mode {
                SearchMode::Episodes => best_episodes(vectors, query, podcasts, limit, rescore),
                SearchMode::Podcasts => best_centroids(vectors, query, limit, rescore, |key| {
                    podcasts.is_empty() || podcasts.contains(&key.podcast_id)
                }),
            };
            found
                .into_iter()
                .map(|(score, (id, row))| (score, shard, id, row as u32))
                .collect()
        })
        .collect();
    per_shard.into_iter().flatten().collect()
}

/// The hits of `rows` (rows of shards open here), in their order: a podcast's stored
/// fields, an episode's with the passage that matched (when it was a chunk); a row
/// whose document is gone is left out.
pub(crate) fn rows_hits(
    generation: &OpenGeneration,
    mode: SearchMode,
    rows: &[ScoredRow],
) -> Result<Hits> {
    let shard_of = |number: u32| {
        generation
            .shard(number)
            .ok_or(IndexError::ShardNotServed(number))
    };
    Ok(match mode {
        SearchMode::Podcasts => Hits::Podcasts(
            rows.iter()
                .map(|(score, shard, id, _)| {
                    let searcher = &shard_of(*shard)?.podcasts;
                    let fields = &generation.schemas.podcasts;
                    Ok(find_doc(searcher, fields.ids.id, &id.to_string())?
                        .map(|doc| podcast_hit(generation, doc, *score)))
                })
                .filter_map(Result::transpose)
                .collect::<Result<Vec<_>>>()?,
        ),
        SearchMode::Episodes => Hits::Episodes(
            rows.par_iter()
                .with_min_len(crate::fanout::min_len())
                .map(|(score, shard, id, row)| {
                    episode_with_passage(generation, shard_of(*shard)?, *id, *row as usize, *score)
                })
                .filter_map(Result::transpose)
                .collect::<Result<Vec<_>>>()?,
        ),
    })
}

/// An episode hit whose snippet is the passage that matched (when it was a chunk).
fn episode_with_passage(
    generation: &OpenGeneration,
    open: &OpenShard,
    episode_id: Uuid,
    row: usize,
    score: f32,
) -> Result<Option<EpisodeHit>> {
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
    let key = open
        .vectors
        .as_ref()
        .and_then(|vectors| vectors.keys().get(row).copied());
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

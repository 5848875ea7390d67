//! Hybrid retrieval: a relevance-sorted search on a generation with vectors fuses the
//! keyword ranking with the ranking by meaning (cosine of the query's static embedding
//! with each hit's vector), by weighted reciprocal rank fusion:
//!
//! ```text
//! fused(d) = w_k / (k + keyword rank of d)  +  w_v / (k + vector rank of d)
//! ```
//!
//! - **Candidates.** The keyword window: the first [`FUSED_DEPTH`] keyword hits (more for
//!   pages larger than half of it). Podcast searches add the podcasts nearest to the
//!   query among all podcast centroids ([`VECTOR_CANDIDATES`], passing the request's
//!   filters and `not` terms) when every term is optional, so a query whose words the
//!   catalog lacks still finds shows about it. Episode searches re-rank the keyword
//!   window only (an episode's vector rank comes from its best description or transcript
//!   chunk): searching every chunk for vector-only candidates costs more than the
//!   keyword search itself.
//! - **Shows like X.** A podcast term that asks for shows like, similar to or alternatives
//!   to a show the keyword search finds by its title (every content word in the title)
//!   takes that show's centroid as the query's vector, weighs the vector ranking up and
//!   the other keyword hits down, and adds the share of genres each candidate has in
//!   common with the show: the show first, then shows like it.
//! - **Paging.** The fused order is recomputed, identically, for every page, and paged by
//!   position; after the window, pages continue in keyword order after the window's last
//!   keyword hit, without the vector-only candidates already served.

use std::collections::{HashMap, HashSet};

use rayon::prelude::*;
use serde_json::json;
use tantivy::Score;
use tantivy::query::{BooleanQuery, Occur, Query};
use uuid::Uuid;

use crate::collector::{Collected, PageCollector, ValueSource};
use crate::cursor::{self, Position};
use crate::error::{IndexError, Result};
use crate::request::{MatchMode, SearchMode, SortField, SortOrder};
use crate::schema::id_from_halves;
use crate::search::{
    self, FoundPage, Plan, id_set, index_searcher, page_collector, scatter, shard_query,
};
use crate::semantic::{best_centroids, embed_query};
use crate::shard::{GlobalStatistics, OpenGeneration};
use crate::sort_key::{SortKey, f64_key};
use crate::vectors::{QueryVector, VectorSearchOptions};
use crate::words::TermWords;

/// Keyword hits fused (at least).
pub const FUSED_DEPTH: usize = 200;
/// Podcasts nearest to the query added to the fusion.
pub const VECTOR_CANDIDATES: usize = 30;

/// The weights of the fusion.
#[derive(Debug, Clone, Copy)]
pub struct Fusion {
    pub keyword: Score,
    pub vector: Score,
}

/// Weights of an ordinary query.
pub const FUSION: Fusion = Fusion {
    keyword: 1.0,
    vector: 0.6,
};

/// Weights of a "shows like X" query (the named show keeps its keyword weight).
pub const LIKE_FUSION: Fusion = Fusion {
    keyword: 0.3,
    vector: 1.5,
};

/// In a "shows like X" query, a candidate gains this much times the Jaccard share of
/// genres it has in common with X (the whole weight for the same set of genres): shows
/// of one kind are alike even where their words and static vectors are not.
pub const LIKE_GENRE_WEIGHT: Score = 1.0;

/// Episodes weigh the vectors at this share of podcasts' weight: an episode's vector is
/// one description or passage, noisier than a podcast's centroid.
pub const EPISODE_VECTOR_SHARE: Score = 0.4;

/// Words that ask for shows like another.
const LIKE_WORDS: &[&str] = &[
    "like",
    "similar",
    "alternative",
    "alternatives",
    "comparable",
];

/// The query's vector, when the search fuses.
pub(crate) struct VectorQuery {
    vector: QueryVector,
    /// A podcast term asks for shows like another.
    like: bool,
}

/// The positive terms' words.
fn positive_words<'a>(plan: &'a Plan<'_>) -> Vec<&'a TermWords> {
    plan.terms
        .iter()
        .filter(|term| term.term.match_mode != MatchMode::Not)
        .map(|term| &term.words)
        .collect()
}

/// The query's vector, `None` when the search does not fuse: not by relevance, hybrid
/// off, no vectors, or no word the model knows.
pub(crate) fn vector_query(
    generation: &OpenGeneration,
    plan: &Plan<'_>,
) -> Result<Option<VectorQuery>> {
    let request = plan.request;
    if !request.hybrid || request.sort.field != SortField::Relevance || generation.model.is_none() {
        return Ok(None);
    }
    let words = positive_words(plan);
    let text: Vec<&str> = words
        .iter()
        .flat_map(|words| {
            let chosen = if words.content.is_empty() {
                &words.all
            } else {
                &words.content
            };
            chosen.iter().map(|word| word.text.as_str())
        })
        .collect();
    if text.is_empty() {
        return Ok(None);
    }
    let like = plan.mode == SearchMode::Podcasts
        && words.iter().any(|words| {
            words
                .all
                .iter()
                .any(|word| LIKE_WORDS.contains(&word.folded.as_str()))
        });
    Ok(embed_query(generation, &text.join(" "))?.map(|vector| VectorQuery { vector, like }))
}

fn id_of(hit: &Collected) -> Uuid {
    id_from_halves(hit.key.id.0, hit.key.id.1)
}

/// The cosine of a hit's vector with the query: a podcast's centroid, an episode's best
/// description or transcript chunk.
fn similarity(
    generation: &OpenGeneration,
    mode: SearchMode,
    query: &QueryVector,
    hit: &Collected,
) -> Option<f32> {
    let vectors = generation.shards[hit.shard].vectors.as_ref()?;
    let id = id_of(hit);
    match mode {
        SearchMode::Podcasts => vectors
            .centroid_row(id)
            .map(|row| query.score(vectors, row)),
        SearchMode::Episodes => vectors
            .episode_rows(id)?
            .map(|row| query.score(vectors, row))
            .max_by(f32::total_cmp),
    }
}

/// The podcast whose title holds every content word of the positive terms, among the
/// first keyword hits: the X of "shows like X".
fn named_show(
    generation: &OpenGeneration,
    plan: &Plan<'_>,
    keyword: &[Collected],
) -> Option<usize> {
    let words: Vec<String> = positive_words(plan)
        .iter()
        .flat_map(|words| words.content.iter().map(|word| word.folded.clone()))
        .filter(|word| !LIKE_WORDS.contains(&word.as_str()))
        .collect();
    if words.is_empty() {
        return None;
    }
    keyword.iter().take(3).position(|hit| {
        let searcher = &generation.shards[hit.shard].podcasts;
        let Ok(doc) = searcher.doc::<tantivy::TantivyDocument>(hit.address) else {
            return false;
        };
        let title =
            crate::search::text(&doc, generation.schemas.podcasts.title_stored).unwrap_or_default();
        let title = TermWords::of(&title);
        words
            .iter()
            .all(|word| title.all.iter().any(|held| held.folded == *word))
    })
}

/// A podcast hit's genres.
fn genres(generation: &OpenGeneration, hit: &Collected) -> HashSet<String> {
    generation.shards[hit.shard]
        .podcasts
        .doc::<tantivy::TantivyDocument>(hit.address)
        .map(|doc| {
            crate::search::texts(&doc, generation.schemas.podcasts.genres)
                .into_iter()
                .collect()
        })
        .unwrap_or_default()
}

/// The share of the two sets' union they hold in common (0 when both are empty).
fn jaccard(a: &HashSet<String>, b: &HashSet<String>) -> Score {
    let union = a.union(b).count();
    if union == 0 {
        return 0.0;
    }
    a.intersection(b).count() as Score / union as Score
}

/// Podcasts nearest to `query` that pass the request's filters and `not` terms, and are
/// not in `keyword`: (shard, hit), nearest first.
fn vector_candidates(
    generation: &OpenGeneration,
    plan: &Plan<'_>,
    query: &QueryVector,
    keyword: &HashSet<Uuid>,
    exclude: Option<Uuid>,
) -> Result<Vec<Collected>> {
    let options = VectorSearchOptions::default();
    let constraints = Plan {
        request: plan.request,
        mode: plan.mode,
        families: plan.families.clone(),
        terms: plan
            .terms
            .iter()
            .filter(|term| term.term.match_mode == MatchMode::Not)
            .cloned()
            .collect(),
    };
    let per_shard: Vec<Result<Vec<(f32, Collected)>>> = generation
        .shards
        .par_iter()
        .with_min_len(crate::fanout::min_len())
        .enumerate()
        .map(|(shard_index, shard)| {
            let Some(vectors) = &shard.vectors else {
                return Ok(Vec::new());
            };
            let nearest =
                best_centroids(vectors, query, VECTOR_CANDIDATES, options.rescore, |key| {
                    !keyword.contains(&key.podcast_id) && Some(key.podcast_id) != exclude
                });
            if nearest.is_empty() {
                return Ok(Vec::new());
            }
            let similarity: HashMap<Uuid, f32> = nearest
                .iter()
                .map(|(score, (id, _))| (*id, *score))
                .collect();
            let ids: Vec<Uuid> = similarity.keys().copied().collect();
            let allowed = BooleanQuery::new(vec![
                (
                    Occur::Must,
                    shard_query(generation, shard, &constraints, &[])?,
                ),
                (Occur::Must, id_set(generation, plan.mode, &ids)),
            ]);
            let collector = PageCollector {
                order: SortOrder::default(),
                source: ValueSource::Score,
                after: None,
                limit: ids.len(),
                scoring: false,
                prior: None,
                deadline: None,
            };
            let page = index_searcher(shard, plan.mode).search(&allowed, &collector)?;
            Ok(page
                .hits
                .into_iter()
                .map(|mut hit| {
                    hit.shard = shard_index;
                    (similarity.get(&id_of(&hit)).copied().unwrap_or(0.0), hit)
                })
                .collect())
        })
        .collect();
    let mut found: Vec<(f32, Collected)> = Vec::new();
    for shard in per_shard {
        found.extend(shard?);
    }
    found.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.key.id.cmp(&b.1.key.id)));
    found.truncate(VECTOR_CANDIDATES);
    Ok(found.into_iter().map(|(_, hit)| hit).collect())
}

/// One candidate of the fusion.
struct Candidate {
    hit: Collected,
    keyword_rank: Option<usize>,
    similarity: Option<f32>,
    vector_rank: Option<usize>,
    /// The Jaccard share of genres in common with the named show of a "like" query.
    genre_share: Option<Score>,
    fused: Score,
}

/// A page of a fused search.
pub(crate) fn page(
    generation: &OpenGeneration,
    plan: &Plan<'_>,
    statistics: &GlobalStatistics<'_>,
    vector: VectorQuery,
    position: Option<Position>,
) -> Result<FoundPage> {
    let request = plan.request;
    let depth = FUSED_DEPTH.max(request.page_size * 2);
    let collector = page_collector(generation, plan, None, depth + 1)?;
    let window = scatter(generation, plan, &collector, statistics, &[])?;
    let mut keyword = window.page.hits;
    let more_keywords = keyword.len() > depth;
    keyword.truncate(depth);

    let named = if vector.like {
        named_show(generation, plan, &keyword)
    } else {
        None
    };
    let named_id = named.map(|at| id_of(&keyword[at]));
    let mut query = vector.vector;
    let mut weights = FUSION;
    if let Some(at) = named {
        let hit = &keyword[at];
        if let Some(vectors) = &generation.shards[hit.shard].vectors
            && let Some(row) = vectors.centroid_row(id_of(hit))
        {
            query = QueryVector::new(&vectors.dequantized(row));
            weights = LIKE_FUSION;
        }
    }
    let only_optional = plan
        .terms
        .iter()
        .all(|term| term.term.match_mode != MatchMode::Must);
    let keyword_ids: HashSet<Uuid> = keyword.iter().map(id_of).collect();
    let vector_only = if plan.mode == SearchMode::Podcasts && only_optional {
        vector_candidates(generation, plan, &query, &keyword_ids, named_id)?
    } else {
        Vec::new()
    };
    let vector_only_ids: Vec<Uuid> = vector_only.iter().map(id_of).collect();

    let mut candidates: Vec<Candidate> = keyword
        .iter()
        .enumerate()
        .map(|(rank, hit)| (Some(rank), *hit))
        .chain(vector_only.iter().map(|hit| (None, *hit)))
        .map(|(keyword_rank, hit)| Candidate {
            similarity: similarity(generation, plan.mode, &query, &hit),
            hit,
            keyword_rank,
            vector_rank: None,
            genre_share: None,
            fused: 0.0,
        })
        .collect();
    let mut by_similarity: Vec<usize> = (0..candidates.len())
        .filter(|at| candidates[*at].similarity.is_some())
        .collect();
    by_similarity.sort_by(|a, b| {
        let (a, b) = (&candidates[*a], &candidates[*b]);
        b.similarity
            .unwrap_or(0.0)
            .total_cmp(&a.similarity.unwrap_or(0.0))
            .then(a.hit.key.id.cmp(&b.hit.key.id))
    });
    for (rank, at) in by_similarity.into_iter().enumerate() {
        candidates[at].vector_rank = Some(rank);
    }
    // Scores on one scale: a keyword score over the best keyword score, a similarity
    // over the range from the candidates' median similarity to the best.
    let best_keyword = keyword
        .first()
        .map_or(1.0, |hit| hit.score.max(f32::EPSILON));
    let mut similarities: Vec<f32> = candidates.iter().filter_map(|c| c.similarity).collect();
    similarities.sort_by(f32::total_cmp);
    let high = similarities.last().copied().unwrap_or(0.0);
    let low = similarities
        .get(similarities.len() / 2)
        .copied()
        .unwrap_or(0.0);
    // The keyword ranking's own confidence: a first hit far above the fifth (a name, a
    // title) leaves little to the vectors; a flat top (a broad topic) leaves more.
    let fifth = keyword
        .get(4)
        .or(keyword.last())
        .map_or(0.0, |hit| hit.score);
    let confidence = if named.is_some() {
        0.0
    } else {
        ((best_keyword - fifth) / best_keyword).clamp(0.0, 1.0)
    };
    let mode_weight = match plan.mode {
        SearchMode::Podcasts => 1.0,
        SearchMode::Episodes => EPISODE_VECTOR_SHARE,
    };
    let vector_weight = weights.vector * mode_weight * (1.0 - confidence);
    let named_genres = named
        .map(|at| genres(generation, &keyword[at]))
        .filter(|genres| !genres.is_empty());
    for candidate in &mut candidates {
        let named_show = named_id == Some(id_of(&candidate.hit));
        let keyword_weight = if named_show {
            FUSION.keyword
        } else {
            weights.keyword
        };
        let keyword_part = match candidate.keyword_rank {
            Some(_) => keyword_weight * candidate.hit.score / best_keyword,
            None => 0.0,
        };
        let vector_part = match candidate.similarity {
            Some(similarity) if high > low => {
                vector_weight * ((similarity - low) / (high - low)).clamp(0.0, 1.0)
            }
            _ => 0.0,
        };
        if let Some(named) = &named_genres
            && !named_show
        {
            candidate.genre_share = Some(jaccard(named, &genres(generation, &candidate.hit)));
        }
        let genre_part = LIKE_GENRE_WEIGHT * candidate.genre_share.unwrap_or(0.0);
        // The named show first, whatever its vector rank.
        candidate.fused =
            keyword_part + vector_part + genre_part + if named_show { 10.0 } else { 0.0 };
    }
    candidates.sort_by(|a, b| {
        b.fused
            .total_cmp(&a.fused)
            .then(
                a.keyword_rank
                    .unwrap_or(usize::MAX)
                    .cmp(&b.keyword_rank.unwrap_or(usize::MAX)),
            )
            .then(
                b.similarity
                    .unwrap_or(f32::MIN)
                    .total_cmp(&a.similarity.unwrap_or(f32::MIN)),
            )
            .then(a.hit.key.id.cmp(&b.hit.key.id))
    });

    // Vector-only candidates that the keyword query matches past the window are counted
    // once: only a window that holds every keyword match rules them out.
    let extra = if more_keywords {
        count_unmatched(generation, plan, &vector_only_ids)?
    } else {
        vector_only_ids.len() as u64
    };
    let total = window.page.total + extra;

    match position {
        None | Some(Position::Fused(_)) => {
            let offset = match position {
                Some(Position::Fused(offset)) => offset as usize,
                _ => 0,
            };
            if offset > candidates.len() {
                return Err(IndexError::InvalidCursor(
                    "the cursor is past the end of the results".into(),
                ));
            }
            let end = (offset + request.page_size).min(candidates.len());
            let next_cursor = if end < candidates.len() {
                Some(cursor::encode_fused(plan.mode, &request.sort, end as u32))
            } else if more_keywords {
                keyword
                    .last()
                    .map(|last| cursor::encode(plan.mode, &request.sort, &last.key))
            } else {
                None
            };
            let page: Vec<&Candidate> = candidates[offset..end].iter().collect();
            let fusion = page
                .iter()
                .map(|candidate| {
                    let named_show = named_id == Some(id_of(&candidate.hit));
                    Some(json!({
                        "fused": candidate.fused,
                        "keywordRank": candidate.keyword_rank.map(|rank| rank + 1),
                        "keywordScore": candidate.keyword_rank.map(|_| candidate.hit.score),
                        "bestKeywordScore": best_keyword,
                        "keywordWeight": if named_show { FUSION.keyword } else { weights.keyword },
                        "vectorRank": candidate.vector_rank.map(|rank| rank + 1),
                        "similarity": candidate.similarity,
                        "similarityLow": low,
                        "similarityHigh": high,
                        "vectorWeight": vector_weight,
                        "genreShare": candidate.genre_share,
                        "genreWeight": LIKE_GENRE_WEIGHT,
                        "namedShow": named_show,
                    }))
                })
                .collect();
            let hits = page
                .iter()
                .map(|candidate| Collected {
                    key: SortKey {
                        value: Some((f64_key(f64::from(candidate.fused)), 0)),
                        id: candidate.hit.key.id,
                    },
                    score: candidate.fused,
                    ..candidate.hit
                })
                .collect();
            Ok(FoundPage {
                hits,
                total,
                next_cursor,
                queries: window.queries,
                fusion,
            })
        }
        Some(Position::After(after)) => {
            // Past the window: keyword order, without the vector-only hits served.
            let page = search::keyword_page_after(
                generation,
                plan,
                statistics,
                Some(after),
                &vector_only_ids,
            )?;
            Ok(FoundPage { total, ..page })
        }
    }
}

/// How many of `ids` the keyword query does not match.
fn count_unmatched(generation: &OpenGeneration, plan: &Plan<'_>, ids: &[Uuid]) -> Result<u64> {
    if ids.is_empty() {
        return Ok(0);
    }
    let mut matched = 0u64;
    for shard in &generation.shards {
        let query: Box<dyn Query> = Box::new(BooleanQuery::new(vec![
            (Occur::Must, shard_query(generation, shard, plan, &[])?),
            (Occur::Must, id_set(generation, plan.mode, ids)),
        ]));
        let searcher = index_searcher(shard, plan.mode);
        matched += searcher.search(query.as_ref(), &tantivy::collector::Count)? as u64;
    }
    Ok(ids.len() as u64 - matched.min(ids.len() as u64))
}

//! Hybrid retrieval: a relevance-sorted search on a generation with vectors fuses the
//! keyword ranking with the ranking by meaning (cosine of the query's embedding with each
//! hit's vector), each score on one scale:
//!
//! ```text
//! fused(d) = w_k · keyword score / best keyword score
//!          + w_v · (1 − confidence) · clamp((similarity − median) / (best − median))
//! confidence = (best keyword score − 5th keyword score) / best keyword score
//! ```
//!
//! (the median and best similarity over the candidates; docs/search.md, "Hybrid
//! retrieval", says why).
//!
//! - **Candidates.** The keyword window: the first [`FUSED_DEPTH`] keyword hits (more for
//!   pages larger than half of it). Podcast searches add the podcasts nearest to the
//!   query among all podcast centroids ([`VECTOR_CANDIDATES`], passing the request's
//!   filters and `not` terms) when every term is optional, so a query whose words the
//!   catalog lacks still finds shows about it. Episode searches re-rank the keyword
//!   window only (an episode's vector rank comes from its best description or transcript
//!   chunk): searching every chunk for vector-only candidates costs more than the
//!   keyword search itself.
//! - **Show vectors.** A podcast search whose request carries the multilingual encoder's
//!   vector of its words (`SearchRequest::encoded_query`) ranks by the show vectors
//!   (`crate::vectors::shows`, weight [`SHOWS_FUSION`]) and adds the static model's
//!   similarity beside it ([`STATIC_BESIDE_SHOWS`]).
//! - **Shows like X.** A podcast term that asks for shows like, similar to or alternatives
//!   to a show the keyword search finds by its title (every content word in the title)
//!   takes that show's centroid as the query's vector, weighs the vector ranking up and
//!   the other keyword hits down, and adds the share of genres each candidate has in
//!   common with the show: the show first, then shows like it.
//! - **Paging.** The fused order is recomputed, identically, for every page, and paged by
//!   position; after the window, pages continue in keyword order after the window's last
//!   keyword hit, without the vector-only candidates already served.

use std::collections::HashSet;

use serde_json::json;
use tantivy::Score;
use uuid::Uuid;

use crate::collector::Collected;
use crate::cursor::{self, Position};
use crate::embedding::{ENCODER_DIM, StaticModel};
use crate::error::{IndexError, Result};
use crate::page::{self, FoundPage, RootPlan};
use crate::ranking::{
    EPISODE_VECTOR_SHARE, FUSED_DEPTH, FUSION, LIKE_FUSION, LIKE_GENRE_WEIGHT, SHOWS_FUSION,
    STATIC_BESIDE_SHOWS, VECTOR_CANDIDATES,
};
use crate::related::jaccard;
use crate::request::{MatchMode, SearchMode, SortField};
use crate::shards::{Shards, id_of};
use crate::sort_key::{SortKey, f64_key};
use crate::vectors::QueryVector;
use crate::words::{TermWords, Word};

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
    /// The vector is the multilingual encoder's, fused with the show vectors
    /// (`crate::vectors::shows`); otherwise the static model's.
    shows: bool,
    /// With the encoder's vector, the static model's too, fused beside it.
    second: Option<QueryVector>,
}

/// The positive terms' words.
fn positive_words<'a>(plan: &'a RootPlan<'_>) -> Vec<&'a TermWords> {
    plan.terms
        .iter()
        .filter(|(mode, _)| *mode != MatchMode::Not)
        .map(|(_, words)| *words)
        .collect()
}

/// The query's vector, `None` when the search does not fuse: not by relevance, hybrid
/// off, no model (a generation without vectors), or no word the model knows. A podcast
/// search whose request carries the encoder's vector of its words fuses with that.
pub(crate) fn vector_query(
    plan: &RootPlan<'_>,
    model: Option<&StaticModel>,
) -> Result<Option<VectorQuery>> {
    let request = plan.request;
    if !request.hybrid || request.sort.field != SortField::Relevance {
        return Ok(None);
    }
    let words = positive_words(plan);
    let like = plan.mode == SearchMode::Podcasts
        && (request.like_podcast.is_some()
            || words.iter().any(|words| {
                words
                    .all
                    .iter()
                    .any(|word| LIKE_WORDS.contains(&word.folded.as_str()))
            }));
    let static_vector = model.and_then(|model| static_query(plan, model));
    if plan.mode == SearchMode::Podcasts
        && let Some(encoded) = &request.encoded_query
    {
        if encoded.len() != ENCODER_DIM || encoded.iter().any(|v| !v.is_finite()) {
            return Err(IndexError::InvalidRequest(
                "the query's encoder vector has the wrong dimension or a value that is not a number"
                    .into(),
            ));
        }
        let vector = QueryVector::new(encoded);
        return Ok((!vector.is_zero()).then_some(VectorQuery {
            vector,
            like,
            shows: true,
            second: static_vector,
        }));
    }
    Ok(static_vector.map(|vector| VectorQuery {
        vector,
        like,
        shows: false,
        second: None,
    }))
}

/// The static model's vector of the positive terms' content words, `None` when it knows
/// none of them.
fn static_query(plan: &RootPlan<'_>, model: &StaticModel) -> Option<QueryVector> {
    let words = positive_words(plan);
    let text: Vec<&str> = words
        .iter()
        .flat_map(|words| {
            let chosen = if words.content.is_empty() {
                &words.all
            } else {
                &words.content
            };
            chosen
                .iter()
                .flat_map(Word::as_written)
                .map(|word| word.text.as_str())
        })
        .collect();
    if text.is_empty() {
        return None;
    }
    let vector = QueryVector::new(&model.embed(&text.join(" ")));
    (!vector.is_zero()).then_some(vector)
}

/// The podcast whose title holds every content word of the positive terms, among the
/// first keyword hits: the X of "shows like X".
async fn named_show<S: Shards>(
    shards: &S,
    plan: &RootPlan<'_>,
    keyword: &[Collected],
) -> Result<Option<usize>> {
    let words: Vec<String> = positive_words(plan)
        .iter()
        .flat_map(|words| words.content.iter().flat_map(Word::as_written))
        .map(|word| word.folded.clone())
        .filter(|word| !LIKE_WORDS.contains(&word.as_str()))
        .collect();
    if words.is_empty() {
        return Ok(None);
    }
    let first = &keyword[..keyword.len().min(3)];
    let titles = shards.titles(first).await?;
    Ok(titles.iter().position(|title| {
        let title = TermWords::of(title);
        words
            .iter()
            .all(|word| title.all.iter().any(|held| held.folded == *word))
    }))
}

/// Podcasts nearest to `query` that pass the request's filters and `not` terms, and are
/// not in `keyword`, nearest first.
async fn vector_candidates<S: Shards>(
    shards: &S,
    query: &QueryVector,
    keyword: &HashSet<Uuid>,
    exclude: Option<Uuid>,
) -> Result<Vec<Collected>> {
    let mut found = shards.nearest_podcasts(query, keyword, exclude).await?;
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
    /// Beside the show vectors: the static model's similarity.
    static_similarity: Option<f32>,
    fused: Score,
}

/// A page of a fused search.
pub(crate) async fn page<S: Shards>(
    shards: &S,
    plan: &RootPlan<'_>,
    vector: VectorQuery,
    position: Option<Position>,
) -> Result<FoundPage> {
    let request = plan.request;
    let depth = FUSED_DEPTH.max(request.page_size * 2);
    let window = shards.keyword_page(None, depth + 1, &[]).await?;
    let mut keyword = window.hits;
    let more_keywords = keyword.len() > depth;
    keyword.truncate(depth);

    let named = match request.like_podcast {
        Some(podcast) => keyword.iter().position(|hit| id_of(hit) == podcast),
        None if vector.like => named_show(shards, plan, &keyword).await?,
        None => None,
    };
    let named_id = named.map(|at| id_of(&keyword[at]));
    let mut query = vector.vector;
    let mut second = vector.second;
    let mut weights = if vector.shows { SHOWS_FUSION } else { FUSION };
    if let Some(at) = named {
        // X's static centroid (its own text and its episodes') first: it finds shows
        // like X better than X's show vector ("like" queries 0.616 against 0.563,
        // benches/relevance).
        let centroid = match shards.centroid(&keyword[at], false).await? {
            Some(centroid) => Some(centroid),
            None if vector.shows => shards.centroid(&keyword[at], true).await?,
            None => None,
        };
        if let Some(centroid) = centroid {
            query = QueryVector::new(&centroid);
            second = None;
            weights = LIKE_FUSION;
        }
    }
    let only_optional = plan.terms.iter().all(|(mode, _)| *mode != MatchMode::Must);
    let keyword_ids: HashSet<Uuid> = keyword.iter().map(id_of).collect();
    let vector_only = if plan.mode == SearchMode::Podcasts && only_optional {
        vector_candidates(shards, &query, &keyword_ids, named_id).await?
    } else {
        Vec::new()
    };
    let vector_only_ids: Vec<Uuid> = vector_only.iter().map(id_of).collect();

    let hits: Vec<(Option<usize>, Collected)> = keyword
        .iter()
        .enumerate()
        .map(|(rank, hit)| (Some(rank), *hit))
        .chain(vector_only.iter().map(|hit| (None, *hit)))
        .collect();
    let all: Vec<Collected> = hits.iter().map(|(_, hit)| *hit).collect();
    let similarities = shards.similarities(&query, &all).await?;
    // Beside the show vectors, the static model's similarities (a second opinion, on
    // the show's episodes too).
    let second = match &second {
        Some(second) => Some(shards.similarities(second, &all).await?),
        None => None,
    };
    let second_range = second.as_ref().map(|sims| {
        let mut sorted: Vec<f32> = sims.iter().filter_map(|s| *s).collect();
        sorted.sort_by(f32::total_cmp);
        (
            sorted.get(sorted.len() / 2).copied().unwrap_or(0.0),
            sorted.last().copied().unwrap_or(0.0),
        )
    });
    let mut candidates: Vec<Candidate> = hits
        .into_iter()
        .zip(similarities)
        .map(|((keyword_rank, hit), similarity)| Candidate {
            similarity,
            hit,
            keyword_rank,
            vector_rank: None,
            genre_share: None,
            static_similarity: None,
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
    let static_weight = STATIC_BESIDE_SHOWS * mode_weight * (1.0 - confidence);
    // In a "like" query, every candidate's genres, the named show's among them.
    let genres: Vec<HashSet<String>> = if named.is_some() {
        shards
            .genres(&all)
            .await?
            .into_iter()
            .map(|genres| genres.into_iter().collect())
            .collect()
    } else {
        Vec::new()
    };
    let named_genres = named
        .and_then(|at| genres.get(at))
        .filter(|genres| !genres.is_empty());
    for (at, candidate) in candidates.iter_mut().enumerate() {
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
            candidate.genre_share = genres.get(at).map(|genres| jaccard(named, genres));
        }
        candidate.static_similarity = second.as_ref().and_then(|sims| sims[at]);
        let second_part = match (candidate.static_similarity, second_range) {
            (Some(sim), Some((low2, high2))) if high2 > low2 => {
                static_weight * ((sim - low2) / (high2 - low2)).clamp(0.0, 1.0)
            }
            _ => 0.0,
        };
        let vector_part = vector_part + second_part;
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
        let matched = shards.count_matching(&vector_only_ids).await?;
        vector_only_ids.len() as u64 - matched.min(vector_only_ids.len() as u64)
    } else {
        vector_only_ids.len() as u64
    };
    let total = window.total + extra;

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
                        "staticSimilarity": candidate.static_similarity,
                        "staticSimilarityLow": second_range.map(|(low, _)| low),
                        "staticSimilarityHigh": second_range.map(|(_, high)| high),
                        "staticWeight": second.as_ref().map(|_| static_weight),
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
                fusion,
            })
        }
        Some(Position::After(after)) => {
            // Past the window: keyword order, without the vector-only hits served.
            let page =
                page::keyword_page_after(shards, plan, Some(after), &vector_only_ids).await?;
            Ok(FoundPage { total, ..page })
        }
    }
}

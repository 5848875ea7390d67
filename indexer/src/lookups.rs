//! The roots of the engine's lookups other than search: semantic search, related
//! podcasts, autocomplete, the directory and podcasts by id. Each asks the shards for
//! their part through a [`StepRunner`] and merges the parts; a single node runs them on
//! its own shards ([`crate::steps::LocalRunner`]) and a cluster's API node on its search
//! nodes, so both answer alike.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::Instant;

use uuid::Uuid;

use crate::autocomplete::{Autocomplete, sort_suggestions};
use crate::directory::{Directory, DirectoryEntry};
use crate::embedding::StaticModel;
use crate::error::{IndexError, Result};
use crate::ranking::{RRF_K, TEXT_AND_GENRES_DEPTH, TEXT_GENRE_WEIGHT};
use crate::related::{RelatedMethod, RelatedSource, best_first};
use crate::request::SearchMode;
use crate::results::{Hits, PodcastHit, SearchResponse, Timings};
use crate::schema::shard_of;
use crate::semantic::ScoredRow;
use crate::semantic::{MAX_SEMANTIC_LIMIT, SemanticRequest};
use crate::steps::{Step, StepAnswer, StepRunner, answered_hits, unexpected};
use crate::vectors::{QueryVector, VectorSearchOptions, top_k};

fn every_shard(runner: &impl StepRunner) -> Vec<u32> {
    (0..runner.shard_count()).collect()
}

fn rows_of(answers: Vec<(Vec<u32>, StepAnswer)>) -> Result<Vec<ScoredRow>> {
    let mut rows = Vec::new();
    for (_, answer) in answers {
        match answer {
            StepAnswer::Rows { rows: more } => rows.extend(more),
            other => return Err(unexpected("rows", &other)),
        }
    }
    Ok(rows)
}

fn podcasts_of(answers: Vec<(Vec<u32>, StepAnswer)>) -> Result<Vec<PodcastHit>> {
    let mut podcasts = Vec::new();
    for (_, answer) in answers {
        match answer {
            StepAnswer::Podcasts { podcasts: more } => podcasts.extend(more),
            other => return Err(unexpected("podcasts", &other)),
        }
    }
    Ok(podcasts)
}

/// The best `limit` rows, best first; ties by shard, id and row.
fn best_rows(rows: Vec<ScoredRow>, limit: usize) -> Vec<ScoredRow> {
    top_k(
        rows.into_iter()
            .map(|(score, shard, id, row)| (score, (shard, id, row))),
        limit,
    )
    .into_iter()
    .map(|(score, (shard, id, row))| (score, shard, id, row))
    .collect()
}

/// The shards of `rows` and, per shard, its rows.
fn rows_by_shard(rows: &[ScoredRow]) -> BTreeMap<u32, Vec<ScoredRow>> {
    let mut by_shard: BTreeMap<u32, Vec<ScoredRow>> = BTreeMap::new();
    for row in rows {
        by_shard.entry(row.1).or_default().push(*row);
    }
    by_shard
}

/// A semantic search: the query embedded by `model` (the generation's), the best rows
/// of every shard, the best `limit` of them fetched.
pub async fn semantic_over<R: StepRunner>(
    runner: &R,
    model: Option<&StaticModel>,
    request: &SemanticRequest,
    options: VectorSearchOptions,
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
    let query = match (&request.encoded_query, request.mode) {
        (Some(encoded), SearchMode::Podcasts) => {
            if encoded.len() != crate::embedding::ENCODER_DIM
                || encoded.iter().any(|v| !v.is_finite())
            {
                return Err(IndexError::InvalidRequest(
                    "the query's encoder vector has the wrong dimension or a value that is not a number"
                        .into(),
                ));
            }
            QueryVector::new(encoded)
        }
        _ => QueryVector::new(
            &model
                .ok_or(IndexError::VectorsUnavailable)?
                .embed(&request.query),
        ),
    };
    if query.is_zero() {
        return Err(IndexError::InvalidRequest(
            "the query has no word the embedding model knows".into(),
        ));
    }
    let answers = runner
        .run(&every_shard(runner), &|_| Step::SemanticRows {
            query: query.unit().to_vec(),
            mode: request.mode,
            limit: request.limit,
            podcasts: request.include_podcast_ids.clone(),
            rescore: options.rescore,
        })
        .await?;
    let best = best_rows(rows_of(answers)?, request.limit);
    let search_done = Instant::now();
    let by_shard = rows_by_shard(&best);
    let shards: Vec<u32> = by_shard.keys().copied().collect();
    let answers = runner
        .run(&shards, &|shards| Step::SemanticHits {
            mode: request.mode,
            rows: shards
                .iter()
                .flat_map(|shard| by_shard[shard].iter().copied())
                .collect(),
        })
        .await?;
    let hits = in_row_order(request.mode, &best, answers)?;
    let finished = Instant::now();
    let total = match &hits {
        Hits::Podcasts(hits) => hits.len(),
        Hits::Episodes(hits) => hits.len(),
    } as u64;
    Ok(SearchResponse {
        hits,
        total,
        next_cursor: None,
        generation: runner.generation(),
        timings: Timings {
            search_ms: (search_done - started).as_secs_f64() * 1e3,
            post_processing_ms: (finished - search_done).as_secs_f64() * 1e3,
            total_ms: (finished - started).as_secs_f64() * 1e3,
        },
    })
}

/// The hits of the answers, in the order of `rows` (an id is on one row).
fn in_row_order(
    mode: SearchMode,
    rows: &[ScoredRow],
    answers: Vec<(Vec<u32>, StepAnswer)>,
) -> Result<Hits> {
    let order: HashMap<Uuid, usize> = rows
        .iter()
        .enumerate()
        .map(|(at, row)| (row.2, at))
        .collect();
    let mut podcasts = Vec::new();
    let mut episodes = Vec::new();
    for (_, answer) in answers {
        match answered_hits(answer)? {
            Hits::Podcasts(hits) => podcasts.extend(hits),
            Hits::Episodes(hits) => episodes.extend(hits),
        }
    }
    Ok(match mode {
        SearchMode::Podcasts => {
            podcasts.sort_by_key(|hit| order.get(&hit.podcast_id).copied());
            Hits::Podcasts(podcasts)
        }
        SearchMode::Episodes => {
            episodes.sort_by_key(|hit| order.get(&hit.episode_id).copied());
            Hits::Episodes(episodes)
        }
    })
}

/// Podcasts related to `podcast` by `method`; `vectors`: whether the generation has
/// vectors (without them, by text). Empty when the podcast is not indexed.
pub async fn related_over<R: StepRunner>(
    runner: &R,
    vectors: bool,
    podcast: Uuid,
    limit: usize,
    method: RelatedMethod,
) -> Result<Vec<PodcastHit>> {
    let limit = limit.clamp(1, 100);
    // The "like" ranking is a search (`crate::related::like_request`); asked here (a
    // title without words), the nearest centroids come closest to it. Without vectors
    // it keeps the part it has without them: the genres in common with the show.
    let method = match method {
        RelatedMethod::Like if vectors => RelatedMethod::Vectors,
        RelatedMethod::Like => RelatedMethod::TextAndGenres,
        method => method,
    };
    let home = shard_of(podcast, runner.shard_count());
    let answers = runner
        .run(&[home], &|_| Step::RelatedSource {
            podcast,
            shows: method == RelatedMethod::Shows,
        })
        .await?;
    let source = match answers.into_iter().next() {
        Some((_, StepAnswer::Source { source })) => source,
        Some((_, other)) => return Err(unexpected("a related source", &other)),
        None => None,
    };
    let Some(source) = source else {
        return Ok(Vec::new());
    };
    // A show vector is there only when the generation has them; the static centroid
    // only counts with the static model.
    let static_centroid = source.centroid.clone().filter(|_| vectors);
    let centroid = match method {
        RelatedMethod::Shows => source.show.clone().or(static_centroid),
        _ => static_centroid,
    };
    let by_vectors = match centroid.map(|centroid| QueryVector::new(&centroid)) {
        Some(query)
            if !matches!(method, RelatedMethod::Text | RelatedMethod::TextAndGenres)
                && !query.is_zero() =>
        {
            Some(nearest_podcasts(runner, &query, podcast, limit).await?)
        }
        _ => None,
    };
    let Some(by_vectors) = by_vectors else {
        if method == RelatedMethod::TextAndGenres {
            return similar_by_text_and_genres(runner, podcast, source, limit).await;
        }
        return similar_by_text(runner, podcast, source, limit).await;
    };
    if matches!(method, RelatedMethod::Vectors | RelatedMethod::Shows) {
        return Ok(by_vectors);
    }
    let by_text = similar_by_text(runner, podcast, source, limit).await?;
    let mut fused: HashMap<Uuid, (f32, PodcastHit)> = HashMap::new();
    for list in [by_text, by_vectors] {
        for (rank, hit) in list.into_iter().enumerate() {
            let share = 1.0 / (RRF_K + rank as f32 + 1.0);
            fused
                .entry(hit.podcast_id)
                .and_modify(|(score, _)| *score += share)
                .or_insert((share, hit));
        }
    }
    let hits: Vec<PodcastHit> = fused
        .into_values()
        .map(|(score, mut hit)| {
            hit.score = score;
            hit
        })
        .collect();
    Ok(best_first(hits, limit))
}

/// Podcasts whose text resembles `source`'s, best first.
async fn similar_by_text<R: StepRunner>(
    runner: &R,
    podcast: Uuid,
    source: RelatedSource,
    limit: usize,
) -> Result<Vec<PodcastHit>> {
    let source = RelatedSource {
        centroid: None,
        show: None,
        genres: None,
        ..source
    };
    let answers = runner
        .run(&every_shard(runner), &|_| Step::SimilarByText {
            podcast,
            source: source.clone(),
            limit,
        })
        .await?;
    Ok(best_first(podcasts_of(answers)?, limit))
}

/// Podcasts whose text resembles `source`'s, re-ranked by the genres they share with
/// `podcast` ([`RelatedMethod::TextAndGenres`]): among the [`TEXT_AND_GENRES_DEPTH`]
/// most alike by text, each scores its text score over the best one's, plus
/// [`TEXT_GENRE_WEIGHT`] times the Jaccard share of genres in common.
async fn similar_by_text_and_genres<R: StepRunner>(
    runner: &R,
    podcast: Uuid,
    source: RelatedSource,
    limit: usize,
) -> Result<Vec<PodcastHit>> {
    let named: HashSet<String> = match source.genres.clone() {
        Some(genres) => genres.into_iter().collect(),
        // A search node that predates the source's genres: its home shard tells them.
        None => podcasts_by_ids(runner, &[podcast])
            .await?
            .into_iter()
            .next()
            .map(|hit| hit.genres.into_iter().collect())
            .unwrap_or_default(),
    };
    let candidates = similar_by_text(runner, podcast, source, TEXT_AND_GENRES_DEPTH).await?;
    let best = candidates
        .iter()
        .map(|hit| hit.score)
        .fold(0.0_f32, f32::max);
    let hits = candidates
        .into_iter()
        .map(|mut hit| {
            let text = if best > 0.0 { hit.score / best } else { 0.0 };
            let genres: HashSet<String> = hit.genres.iter().cloned().collect();
            hit.score = text + TEXT_GENRE_WEIGHT * crate::related::jaccard(&named, &genres);
            hit
        })
        .collect();
    Ok(best_first(hits, limit))
}

/// The podcasts whose centroids are nearest to `query`, but `podcast`, best first, with
/// their similarity as score.
async fn nearest_podcasts<R: StepRunner>(
    runner: &R,
    query: &QueryVector,
    podcast: Uuid,
    limit: usize,
) -> Result<Vec<PodcastHit>> {
    let answers = runner
        .run(&every_shard(runner), &|_| Step::NearestCentroids {
            query: query.unit().to_vec(),
            podcast,
            limit,
            rescore: VectorSearchOptions::default().rescore,
        })
        .await?;
    let best = best_rows(rows_of(answers)?, limit);
    let ids: Vec<Uuid> = best.iter().map(|row| row.2).collect();
    let mut hits = podcasts_by_ids(runner, &ids).await?;
    let scores: HashMap<Uuid, f32> = best.iter().map(|row| (row.2, row.0)).collect();
    for hit in &mut hits {
        hit.score = scores.get(&hit.podcast_id).copied().unwrap_or_default();
    }
    Ok(hits)
}

/// The title words completing `last`, most frequent first. CJK text is indexed in pairs
/// of characters, which are not words to suggest (a pair completes to nothing but
/// itself), so a CJK `last` asks no shard; its podcasts are still suggested.
async fn word_completions<R: StepRunner>(
    runner: &R,
    last: &str,
    limit: usize,
) -> Result<Vec<String>> {
    if last.chars().any(crate::analysis::is_cjk) {
        return Ok(Vec::new());
    }
    let answers = runner
        .run(&every_shard(runner), &|_| Step::PrefixWords {
            prefix: last.to_owned(),
        })
        .await?;
    let mut frequencies: HashMap<String, u64> = HashMap::new();
    for (_, answer) in answers {
        match answer {
            StepAnswer::Words { words } => {
                for (word, count) in words {
                    *frequencies.entry(word).or_default() += count;
                }
            }
            other => return Err(unexpected("words", &other)),
        }
    }
    let mut words: Vec<(String, u64)> = frequencies.into_iter().collect();
    words.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Ok(words
        .into_iter()
        .take(limit)
        .map(|(word, _)| word)
        .collect())
}

/// Suggestions for `prefix`: the title words completing its last word, most frequent
/// first, and the podcasts whose titles complete it (retried with one edit per word
/// when none does).
pub async fn autocomplete_over<R: StepRunner>(
    runner: &R,
    prefix: &str,
    limit: usize,
) -> Result<Autocomplete> {
    let tokens = crate::analysis::analyze(&mut crate::analysis::plain_analyzer(), prefix);
    let Some((last, earlier)) = tokens.split_last() else {
        return Ok(Autocomplete {
            podcasts: Vec::new(),
            words: Vec::new(),
        });
    };
    let limit = limit.clamp(1, 100);
    let words = word_completions(runner, last, limit).await?;
    let matches = |distance: u8| {
        let earlier = earlier.to_vec();
        let last = last.clone();
        async move {
            let answers = runner
                .run(&every_shard(runner), &|_| Step::TitleMatches {
                    earlier: earlier.clone(),
                    last: last.clone(),
                    distance,
                    limit,
                })
                .await?;
            Ok::<_, IndexError>(sort_suggestions(podcasts_of(answers)?, limit))
        }
    };
    let mut podcasts = matches(0).await?;
    // Retried with one edit per word, when no more words than a search may match
    // fuzzily are typed (each becomes an automaton over the title words).
    if podcasts.is_empty()
        && last.chars().count() >= 3
        && tokens.len() <= podlens_model::search::MAX_FUZZY_WORDS
    {
        podcasts = matches(1).await?;
    }
    Ok(Autocomplete { podcasts, words })
}

/// Every podcast of the generation by letter.
pub async fn directory_over<R: StepRunner>(runner: &R) -> Result<Directory> {
    let answers = runner
        .run(&every_shard(runner), &|_| Step::DirectoryEntries)
        .await?;
    let mut entries: Vec<DirectoryEntry> = Vec::new();
    for (_, answer) in answers {
        match answer {
            StepAnswer::Directory { entries: more } => entries.extend(more),
            other => return Err(unexpected("directory entries", &other)),
        }
    }
    Ok(Directory::from_entries(entries))
}

/// The podcast hits (stored fields, score 0) of the podcasts `ids`, in their order;
/// ids the generation lacks are left out.
pub async fn podcasts_by_ids<R: StepRunner>(runner: &R, ids: &[Uuid]) -> Result<Vec<PodcastHit>> {
    let count = runner.shard_count();
    let mut by_shard: BTreeMap<u32, Vec<Uuid>> = BTreeMap::new();
    for id in ids {
        by_shard.entry(shard_of(*id, count)).or_default().push(*id);
    }
    let shards: Vec<u32> = by_shard.keys().copied().collect();
    let answers = runner
        .run(&shards, &|shards| Step::PodcastsById {
            ids: shards
                .iter()
                .flat_map(|shard| by_shard[shard].iter().copied())
                .collect(),
        })
        .await?;
    let mut found: HashMap<Uuid, PodcastHit> = podcasts_of(answers)?
        .into_iter()
        .map(|hit| (hit.podcast_id, hit))
        .collect();
    let mut seen = HashSet::new();
    Ok(ids
        .iter()
        .filter(|id| seen.insert(**id))
        .filter_map(|id| found.remove(id))
        .collect())
}

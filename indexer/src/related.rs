//! Related podcasts: by text similarity (more-like-this over title and description:
//! the same query on every shard, its words chosen and scored with the generation's
//! statistics), by vector similarity (podcast centroids, see `crate::semantic`), both
//! fused by reciprocal rank, or (the API's) as a "shows like X" search ranks them, X
//! named by its id. A generation without vectors answers by text: the "like" ranking
//! then re-ranks the podcasts most alike by text by the genres they share with X.

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use tantivy::collector::TopDocs;
use tantivy::query::{Bm25StatisticsProvider, BooleanQuery, BoostQuery, Occur, Query, TermQuery};
use tantivy::schema::{IndexRecordOption, Value};
use tantivy::tokenizer::TokenStream;
use tantivy::{TantivyDocument, Term};
use uuid::Uuid;

use crate::analysis::LanguageFamily;
use crate::bm25f::idf;
use crate::error::Result;
use crate::hits::podcast_hit;
use crate::request::{MatchMode, SearchMode, SearchRequest, SearchTerm, Target};
use crate::results::{Hits, PodcastHit};
use crate::schema::IndexKind;
use crate::semantic::ScoredRow;
use crate::semantic::best_centroids;
use crate::shard::{OpenGeneration, podcast_store};
use crate::vectors::QueryVector;

/// How related podcasts are found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelatedMethod {
    /// More-like-this over title and description.
    Text,
    /// Cosine of podcast centroids (falls back to text without vectors).
    Vectors,
    /// Reciprocal-rank fusion of both lists (text alone without vectors).
    Fused,
    /// Cosine of the shows' vectors from the multilingual encoder (the static
    /// centroids' method without them).
    Shows,
    /// The ranking of a "shows like X" search with X named ([`like_request`]): X's
    /// static centroid as the query's vector, keyword matches of its title down-weighted,
    /// genres in common with X ([`RelatedMethod::TextAndGenres`] without vectors).
    Like,
    /// More-like-this over title and description, re-ranked by the genres each podcast
    /// shares with X: the "like" ranking's part that needs no vectors.
    TextAndGenres,
}

/// The share of the two sets' union they hold in common (0 when both are empty).
pub(crate) fn jaccard<T: Eq + std::hash::Hash>(
    a: &std::collections::HashSet<T>,
    b: &std::collections::HashSet<T>,
) -> f32 {
    let union = a.union(b).count();
    if union == 0 {
        return 0.0;
    }
    a.intersection(b).count() as f32 / union as f32
}

/// The method the API uses: the "shows like X" ranking with X named. Judged with the
/// "like" queries' named shows (`search_relevance -- related`, nDCG@10 without the
/// show, 15 queries): 0.667, against 0.537 for the fused text and centroid lists it
/// replaced (+0.129, 95% CI +0.057 to +0.203, better on 12), static centroids 0.594,
/// text 0.386, show vectors 0.434.
pub const DEFAULT_RELATED_METHOD: RelatedMethod = RelatedMethod::Like;

/// The search whose ranking is [`RelatedMethod::Like`]'s for `podcast`, titled `title`:
/// a hybrid podcast search for the title's words in title and description, X named by
/// its id, one hit more than `limit` (X is usually among them: [`others`] drops it).
/// `None` for a title without words.
pub fn like_request(podcast: Uuid, title: &str, limit: usize) -> Option<SearchRequest> {
    if title.trim().is_empty() {
        return None;
    }
    Some(SearchRequest {
        mode: Some(SearchMode::Podcasts),
        terms: vec![SearchTerm {
            text: title.chars().take(LIKE_TITLE_CHARS).collect(),
            targets: vec![Target::PodcastTitle, Target::PodcastDescription],
            match_mode: MatchMode::Optional,
            ..SearchTerm::default()
        }],
        page_size: limit.clamp(1, 100) + 1,
        snippets: false,
        hybrid: true,
        like_podcast: Some(podcast),
        ..SearchRequest::default()
    })
}

/// Characters of a title a [`like_request`] searches for, at most.
const LIKE_TITLE_CHARS: usize = 200;

/// `hits` but `podcast`, the first `limit`.
pub fn others(hits: Hits, podcast: Uuid, limit: usize) -> Vec<PodcastHit> {
    match hits {
        Hits::Podcasts(hits) => hits
            .into_iter()
            .filter(|hit| hit.podcast_id != podcast)
            .take(limit.clamp(1, 100))
            .collect(),
        Hits::Episodes(_) => Vec::new(),
    }
}

/// What related podcasts are found from: a podcast's centroid (when the generation has
/// vectors) and the text its more-like-this query is made of.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RelatedSource {
    pub centroid: Option<Vec<f32>>,
    /// Its show vector from the multilingual encoder, when the generation has them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub show: Option<Vec<f32>>,
    /// The language its text is searched in.
    pub language: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    /// Its genres, for related podcasts without vectors
    /// ([`RelatedMethod::TextAndGenres`]); absent from a node that predates them, and
    /// then looked up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub genres: Option<Vec<String>>,
}

/// The related source of `podcast_id` (with its show vector when `shows`), when one of
/// the open shards `selected` holds it.
pub(crate) fn source_of(
    generation: &OpenGeneration,
    selected: &[usize],
    podcast_id: Uuid,
    shows: bool,
) -> Result<Option<RelatedSource>> {
    let fields = &generation.schemas.podcasts;
    let id_term = Term::from_field_text(fields.ids.id, &podcast_id.to_string());
    for at in selected {
        let shard = &generation.shards[*at];
        let top = shard.podcasts.search(
            &TermQuery::new(id_term.clone(), IndexRecordOption::Basic),
            &TopDocs::with_limit(1).order_by_score(),
        )?;
        let Some((_, address)) = top.first() else {
            continue;
        };
        let source: TantivyDocument = shard.podcasts.doc(*address)?;
        let text = |field| {
            source
                .get_first(field)
                .and_then(|value| value.as_str())
                .map(str::to_owned)
        };
        let centroid = shard.vectors.as_ref().and_then(|vectors| {
            vectors
                .centroid_row(podcast_id)
                .map(|row| vectors.dequantized(row))
        });
        let show = shard.shows.as_ref().filter(|_| shows).and_then(|shows| {
            shows
                .centroid_row(podcast_id)
                .map(|row| shows.dequantized(row))
        });
        return Ok(Some(RelatedSource {
            centroid,
            show,
            language: text(fields.searched_language),
            title: text(fields.title_stored),
            description: text(fields.description_stored),
            genres: Some(
                source
                    .get_all(fields.genres)
                    .filter_map(|value| value.as_str().map(str::to_owned))
                    .collect(),
            ),
        }));
    }
    Ok(None)
}

/// The podcast centroids of the open shards `selected` nearest to `query`, but
/// `podcast_id`'s: the best `limit` of each shard, as (score, shard, id, row).
pub(crate) fn nearest_centroids(
    generation: &OpenGeneration,
    selected: &[usize],
    query: &QueryVector,
    podcast_id: Uuid,
    limit: usize,
    rescore: usize,
) -> Vec<ScoredRow> {
    let per_shard: Vec<Vec<ScoredRow>> = selected
        .par_iter()
        .with_min_len(crate::fanout::min_len())
        .map(|at| {
            let shard = generation.shard_numbers[*at];
            // The show vectors for a show vector's query, the static centroids else.
            let Some(vectors) = podcast_store(&generation.shards[*at], query) else {
                return Vec::new();
            };
            best_centroids(vectors, query, limit, rescore, |key| {
                key.podcast_id != podcast_id
            })
            .into_iter()
            .map(|(score, (id, row))| (score, shard, id, row as u32))
            .collect()
        })
        .collect();
    per_shard.into_iter().flatten().collect()
}

/// The podcasts of the open shards `selected` whose title and description resemble
/// `source` (more-like-this, with the generation's statistics), but `podcast_id`: the
/// best `limit` of each shard.
pub(crate) fn similar_by_text(
    generation: &OpenGeneration,
    selected: &[usize],
    podcast_id: Uuid,
    source: &RelatedSource,
    limit: usize,
) -> Result<Vec<PodcastHit>> {
    let fields = &generation.schemas.podcasts;
    let id_term = Term::from_field_text(fields.ids.id, &podcast_id.to_string());
    let Some(similar) = similar_query(generation, source)? else {
        return Ok(Vec::new());
    };
    let query = BooleanQuery::new(vec![
        (Occur::Must, similar),
        (
            Occur::MustNot,
            Box::new(TermQuery::new(id_term, IndexRecordOption::Basic)),
        ),
    ]);
    let statistics = generation.statistics(IndexKind::Podcasts);
    let per_shard: Vec<Result<Vec<PodcastHit>>> = selected
        .par_iter()
        .with_min_len(crate::fanout::min_len())
        .map(|at| {
            let shard = &generation.shards[*at];
            let top = shard.podcasts.search_with_statistics_provider(
                &query,
                &TopDocs::with_limit(limit).order_by_score(),
                &statistics,
            )?;
            top.into_iter()
                .map(|(score, address)| {
                    Ok(podcast_hit(generation, shard.podcasts.doc(address)?, score))
                })
                .collect()
        })
        .collect();
    let mut hits: Vec<PodcastHit> = Vec::new();
    for shard in per_shard {
        hits.extend(shard?);
    }
    Ok(hits)
}

/// Words shorter than this (in bytes) are left out of a more-like-this query.
const MIN_WORD_BYTES: usize = 3;
/// The most words a more-like-this query keeps.
const MAX_QUERY_WORDS: usize = 30;

/// The more-like-this query of `source`: its title and description words in their
/// language's fields, each weighed by its count times its rarity over the whole
/// generation (`tf · idf`, with the generation's statistics, so every shard runs the
/// same query), the best [`MAX_QUERY_WORDS`] of them, ties broken by field and word so
/// the query is the same in every run and on every node; `None` when no word is left.
fn similar_query(
    generation: &OpenGeneration,
    source: &RelatedSource,
) -> Result<Option<Box<dyn Query>>> {
    let Some(any_shard) = generation.shards.first() else {
        return Ok(None);
    };
    let fields = &generation.schemas.podcasts;
    let family = LanguageFamily::from_language_tag(source.language.as_deref());
    let index = any_shard.podcasts.index();
    let mut counts: BTreeMap<Term, usize> = BTreeMap::new();
    for (field, text) in [
        (fields.title.field(family), &source.title),
        (fields.description.field(family), &source.description),
    ] {
        let Some(text) = text else {
            continue;
        };
        let mut analyzer = index.tokenizer_for_field(field)?;
        let mut tokens = analyzer.token_stream(text);
        while tokens.advance() {
            let word = &tokens.token().text;
            if word.len() >= MIN_WORD_BYTES {
                *counts
                    .entry(Term::from_field_text(field, word))
                    .or_default() += 1;
            }
        }
    }
    let statistics = generation.statistics(IndexKind::Podcasts);
    let documents = statistics.total_num_docs()?;
    let mut weighed: Vec<(f32, Term)> = Vec::new();
    for (term, count) in counts {
        let doc_freq = statistics.doc_freq(&term)?;
        if doc_freq > 0 {
            weighed.push((count as f32 * idf(doc_freq, documents), term));
        }
    }
    weighed.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    weighed.truncate(MAX_QUERY_WORDS);
    let Some(best) = weighed.first().map(|(weight, _)| weight.max(f32::EPSILON)) else {
        return Ok(None);
    };
    let clauses: Vec<(Occur, Box<dyn Query>)> = weighed
        .into_iter()
        .map(|(weight, term)| {
            let query: Box<dyn Query> = Box::new(BoostQuery::new(
                Box::new(TermQuery::new(term, IndexRecordOption::Basic)),
                weight / best,
            ));
            (Occur::Should, query)
        })
        .collect();
    Ok(Some(Box::new(BooleanQuery::new(clauses))))
}

/// The `limit` best hits, highest score first, ties by podcast id (a stable order across
/// shards and runs).
pub(crate) fn best_first(mut hits: Vec<PodcastHit>, limit: usize) -> Vec<PodcastHit> {
    hits.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(a.podcast_id.cmp(&b.podcast_id))
    });
    hits.truncate(limit);
    hits
}

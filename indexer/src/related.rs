//! Related podcasts, three ways: by text similarity (more-like-this over title and
//! description, with global statistics), by vector similarity (podcast centroids, see
//! `crate::semantic`), or both fused by reciprocal rank. A generation without vectors
//! always answers by text.

use std::collections::HashMap;

use rayon::prelude::*;
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, MoreLikeThisQuery, Occur, Query, TermQuery};
use tantivy::schema::{IndexRecordOption, OwnedValue, Value};
use tantivy::{TantivyDocument, Term};
use uuid::Uuid;

use crate::analysis::LanguageFamily;
use crate::error::Result;
use crate::reader::IndexReaderHandle;
use crate::results::PodcastHit;
use crate::search::podcast_hit;
use crate::semantic::related_by_vectors;
use crate::shard::{IndexKind, OpenGeneration};

/// How related podcasts are found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelatedMethod {
    /// More-like-this over title and description.
    Text,
    /// Cosine of podcast centroids (falls back to text without vectors).
    Vectors,
    /// Reciprocal-rank fusion of both lists (text alone without vectors).
    Fused,
}

/// The method the API uses: fusion keeps the text method's lexical matches and adds the
/// vectors' topical neighbours. Not yet backed by a measurement: benches/vectors/relevance.rs
/// compares the three methods on the corpus feeds.
pub const DEFAULT_RELATED_METHOD: RelatedMethod = RelatedMethod::Fused;

/// Rank constant of reciprocal-rank fusion.
const RRF_K: f32 = 60.0;

impl IndexReaderHandle {
    /// Podcasts related to `podcast_id`, by [`DEFAULT_RELATED_METHOD`].
    pub fn related_podcasts(&self, podcast_id: Uuid, limit: usize) -> Result<Vec<PodcastHit>> {
        related_podcasts(&self.generation(), podcast_id, limit)
    }
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
    let _running = crate::fanout::Running::start();
    let limit = limit.clamp(1, 100);
    if method == RelatedMethod::Text {
        return related_by_text(generation, podcast_id, limit);
    }
    let Some(by_vectors) = related_by_vectors(generation, podcast_id, limit)? else {
        return related_by_text(generation, podcast_id, limit);
    };
    if method == RelatedMethod::Vectors {
        return Ok(by_vectors);
    }
    let by_text = related_by_text(generation, podcast_id, limit)?;
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

/// Podcasts whose title and description resemble `podcast_id`'s (more-like-this).
pub fn related_by_text(
    generation: &OpenGeneration,
    podcast_id: Uuid,
    limit: usize,
) -> Result<Vec<PodcastHit>> {
    let fields = &generation.schemas.podcasts;
    let id_term = Term::from_field_text(fields.ids.id, &podcast_id.to_string());
    let mut source: Option<TantivyDocument> = None;
    for shard in &generation.shards {
        let top = shard.podcasts.search(
            &TermQuery::new(id_term.clone(), IndexRecordOption::Basic),
            &TopDocs::with_limit(1).order_by_score(),
        )?;
        if let Some((_, address)) = top.first() {
            source = Some(shard.podcasts.doc(*address)?);
            break;
        }
    }
    let Some(source) = source else {
        return Ok(Vec::new());
    };
    let language = source
        .get_first(fields.searched_language)
        .and_then(|value| value.as_str())
        .map(str::to_owned);
    let family = LanguageFamily::from_language_tag(language.as_deref());
    let stored = |field| {
        source
            .get_first(field)
            .and_then(|value| value.as_str())
            .map(|text| vec![OwnedValue::Str(text.to_owned())])
            .unwrap_or_default()
    };
    let document_fields = vec![
        (fields.title.field(family), stored(fields.title_stored)),
        (
            fields.description.field(family),
            stored(fields.description_stored),
        ),
    ];
    let similar = MoreLikeThisQuery::builder()
        .with_min_doc_frequency(1)
        .with_max_doc_frequency(u64::MAX)
        .with_min_term_frequency(1)
        .with_max_query_terms(30)
        .with_min_word_length(3)
        .with_document_fields(document_fields);
    let query = BooleanQuery::new(vec![
        (Occur::Must, Box::new(similar) as Box<dyn Query>),
        (
            Occur::MustNot,
            Box::new(TermQuery::new(id_term, IndexRecordOption::Basic)),
        ),
    ]);
    let limit = limit.clamp(1, 100);
    let statistics = generation.statistics(IndexKind::Podcasts);
    let per_shard: Vec<Result<Vec<PodcastHit>>> = generation
        .shards
        .par_iter()
        .with_min_len(crate::fanout::min_len())
        .map(|shard| {
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
    Ok(best_first(hits, limit))
}

/// The `limit` best hits, highest score first, ties by podcast id (a stable order across
/// shards and runs).
fn best_first(mut hits: Vec<PodcastHit>, limit: usize) -> Vec<PodcastHit> {
    hits.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(a.podcast_id.cmp(&b.podcast_id))
    });
    hits.truncate(limit);
    hits
}

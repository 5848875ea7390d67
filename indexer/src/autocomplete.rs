//! Autocomplete over podcast titles: `words[]` from a prefix walk of the title-word term
//! dictionary of every shard, `podcasts[]` from a prefix query on title words (earlier
//! words exact, the last one a prefix), falling back to one typo per word when nothing
//! matches exactly.

use std::collections::HashMap;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use tantivy::Term;
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, FuzzyTermQuery, Occur, Query, TermQuery};
use tantivy::schema::IndexRecordOption;

use crate::error::{IndexError, Result};
use crate::hits::podcast_hit;
use crate::results::PodcastHit;
use crate::schema::IndexKind;
use crate::shard::OpenGeneration;
use crate::stored::StoredFields;

/// Suggestions for a prefix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Autocomplete {
    pub podcasts: Vec<PodcastHit>,
    /// Completions of the last word, most frequent first.
    pub words: Vec<String>,
}

/// The title words of the open shards `selected` that start with `prefix`, with the
/// number of podcasts holding each.
pub(crate) fn prefix_frequencies(
    generation: &OpenGeneration,
    selected: &[usize],
    prefix: &str,
) -> Result<Vec<(String, u64)>> {
    let field = generation.schemas.podcasts.title_words;
    let mut frequencies: HashMap<String, u64> = HashMap::new();
    for at in selected {
        for segment in generation.shards[*at].podcasts.segment_readers() {
            let inverted = segment.inverted_index(field)?;
            let mut stream = inverted
                .terms()
                .range()
                .ge(prefix.as_bytes())
                .into_stream()
                .map_err(|e| IndexError::io("term dictionary", e))?;
            while stream.advance() {
                let key = stream.key();
                if !key.starts_with(prefix.as_bytes()) {
                    break;
                }
                if let Ok(word) = std::str::from_utf8(key) {
                    *frequencies.entry(word.to_owned()).or_default() +=
                        u64::from(stream.value().doc_freq);
                }
            }
        }
    }
    Ok(frequencies.into_iter().collect())
}

/// The podcasts of the open shards `selected` whose title words hold `earlier` (each
/// within `distance` edits) and a word starting with `last`: the best `limit` of each
/// shard, scored with the generation's statistics.
pub(crate) fn title_matches(
    generation: &OpenGeneration,
    selected: &[usize],
    earlier: &[String],
    last: &str,
    distance: u8,
    limit: usize,
) -> Result<Vec<PodcastHit>> {
    let field = generation.schemas.podcasts.title_words;
    let mut clauses: Vec<(Occur, Box<dyn Query>)> = earlier
        .iter()
        .map(|word| {
            let term = Term::from_field_text(field, word);
            let query: Box<dyn Query> = if distance == 0 {
                Box::new(TermQuery::new(term, IndexRecordOption::WithFreqs))
            } else {
                Box::new(FuzzyTermQuery::new(term, distance, true))
            };
            (Occur::Must, query)
        })
        .collect();
    clauses.push((
        Occur::Must,
        Box::new(FuzzyTermQuery::new_prefix(
            Term::from_field_text(field, last),
            distance,
            true,
        )),
    ));
    let query = BooleanQuery::new(clauses);
    let statistics = generation.statistics(IndexKind::Podcasts);
    let per_shard: Vec<Result<Vec<(f32, StoredFields)>>> = selected
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
                .map(|(score, address)| Ok((score, shard.podcasts.doc(address)?)))
                .collect()
        })
        .collect();
    let mut hits = Vec::new();
    for shard in per_shard {
        for (score, doc) in shard? {
            hits.push(podcast_hit(generation, doc, score));
        }
    }
    Ok(hits)
}

/// The best `limit` suggested podcasts: by score, then most episodes, then id.
pub(crate) fn sort_suggestions(mut hits: Vec<PodcastHit>, limit: usize) -> Vec<PodcastHit> {
    hits.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(b.total_episodes.cmp(&a.total_episodes))
            .then(a.podcast_id.cmp(&b.podcast_id))
    });
    hits.truncate(limit);
    hits
}

//! Autocomplete over podcast titles: `words[]` from a prefix walk of the title-word term
//! dictionary of every shard, `podcasts[]` from a prefix query on title words (earlier
//! words exact, the last one a prefix), falling back to one typo per word when nothing
//! matches exactly.

use std::collections::HashMap;

use rayon::prelude::*;
use serde::Serialize;
use tantivy::Term;
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, FuzzyTermQuery, Occur, Query, TermQuery};
use tantivy::schema::IndexRecordOption;

use crate::analysis::{analyze, plain_analyzer};
use crate::error::{IndexError, Result};
use crate::reader::IndexReaderHandle;
use crate::results::PodcastHit;
use crate::search::podcast_hit;
use crate::shard::{IndexKind, OpenGeneration};
use crate::stored::StoredFields;

/// Suggestions for a prefix.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Autocomplete {
    pub podcasts: Vec<PodcastHit>,
    /// Completions of the last word, most frequent first.
    pub words: Vec<String>,
}

impl IndexReaderHandle {
    /// Suggestions for `prefix`.
    pub fn autocomplete(&self, prefix: &str, limit: usize) -> Result<Autocomplete> {
        autocomplete(&self.generation(), prefix, limit)
    }
}

/// Suggestions for `prefix` on `generation`.
pub fn autocomplete(
    generation: &OpenGeneration,
    prefix: &str,
    limit: usize,
) -> Result<Autocomplete> {
    let _running = crate::fanout::Running::start();
    let tokens = analyze(&mut plain_analyzer(), prefix);
    let Some((last, earlier)) = tokens.split_last() else {
        return Ok(Autocomplete {
            podcasts: Vec::new(),
            words: Vec::new(),
        });
    };
    let limit = limit.clamp(1, 100);
    let words = prefix_words(generation, last, limit)?;
    let mut podcasts = podcasts_for(generation, earlier, last, 0, limit)?;
    // Retried with one edit per word, when no more words than a search may match
    // fuzzily are typed (each becomes an automaton over the title words).
    if podcasts.is_empty()
        && last.chars().count() >= 3
        && tokens.len() <= podlens_model::search::MAX_FUZZY_WORDS
    {
        podcasts = podcasts_for(generation, earlier, last, 1, limit)?;
    }
    Ok(Autocomplete { podcasts, words })
}

fn prefix_words(generation: &OpenGeneration, prefix: &str, limit: usize) -> Result<Vec<String>> {
    let field = generation.schemas.podcasts.title_words;
    let mut frequencies: HashMap<String, u64> = HashMap::new();
    for shard in &generation.shards {
        for segment in shard.podcasts.segment_readers() {
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
    let mut words: Vec<(String, u64)> = frequencies.into_iter().collect();
    words.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Ok(words
        .into_iter()
        .take(limit)
        .map(|(word, _)| word)
        .collect())
}

fn podcasts_for(
    generation: &OpenGeneration,
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
    let per_shard: Vec<Result<Vec<(f32, StoredFields)>>> = generation
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
    hits.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(b.total_episodes.cmp(&a.total_episodes))
            .then(a.podcast_id.cmp(&b.podcast_id))
    });
    hits.truncate(limit);
    Ok(hits)
}

//! Turning a [`SearchRequest`] into tantivy queries for one shard.
//!
//! Terms become a boolean query of their own (must / must-not / should), so optional
//! terms keep their "at least one" meaning next to filters; filters are constant-score
//! clauses that never change a score. Podcast-level conditions in episode mode (podcast
//! title and description terms, language, genres, dates, counts, ratings) are resolved
//! against the shard's podcasts index into a set of podcast ids: a shard holds every
//! episode of its podcasts, so the join is local.

use std::collections::BTreeSet;
use std::ops::Bound;

use tantivy::collector::{Collector, SegmentCollector};
use tantivy::columnar::Column;
use tantivy::query::{AllQuery, BooleanQuery, Occur, PhraseQuery, Query, RangeQuery, TermQuery};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocId, Score, SegmentOrdinal, SegmentReader, Term};
use uuid::Uuid;

use crate::analysis::LanguageFamily;
use crate::const_score::ConstScore;
use crate::error::Result;
use crate::filter_cache::{ResolvedFilter, ResolvedFilterQuery};
use crate::guarded::Guarded;
use crate::ranking::WEIGHTS;
use crate::relevance::{TermBuilder, TermPlan, TermQueries, other_forms_in};
use crate::request::{MatchMode, SearchFilters, SearchMode, Target};
use crate::schema::id_from_halves;
use crate::schema::{IndexKind, Schemas};
use crate::shard::{OpenGeneration, OpenShard};
use crate::term_sets::{any_term, id_set, podcast_id_set};
use crate::words::{Word, language_codes, phrase_tokens};

/// The language families a request searches: those of its language filter, or all.
pub fn families_for(filters: &SearchFilters) -> Vec<LanguageFamily> {
    if filters.languages.is_empty() {
        return LanguageFamily::ALL.to_vec();
    }
    let set: BTreeSet<LanguageFamily> = filters
        .languages
        .iter()
        .map(|language| LanguageFamily::from_language_tag(Some(language)))
        .collect();
    set.into_iter().collect()
}

/// The query of one term in one field analyzed by `family`, for transcript snippets:
/// any of the term's content words (a phrase term's words in order).
pub fn snippet_field_query(
    field: Field,
    family: LanguageFamily,
    plan: &TermPlan,
) -> Option<Box<dyn Query>> {
    let words = &plan.words;
    if (plan.term.phrase && words.all.len() > 1) || words.only_stopwords() {
        let tokens = phrase_tokens(&words.all, family);
        return match tokens.len() {
            0 => None,
            1 => Some(Box::new(TermQuery::new(
                Term::from_field_text(field, &tokens[0]),
                IndexRecordOption::WithFreqs,
            ))),
            _ => Some(Box::new(PhraseQuery::new_with_offset_and_slop(
                tokens
                    .iter()
                    .enumerate()
                    .map(|(offset, token)| (offset, Term::from_field_text(field, token)))
                    .collect(),
                if plan.term.phrase { plan.term.slop } else { 0 },
            ))),
        };
    }
    // Each content word, and what else it matches there (its other spellings and
    // family, an abbreviation's other forms): a hit found by one shows it.
    let term_query = |token: &str| -> Box<dyn Query> {
        Box::new(TermQuery::new(
            Term::from_field_text(field, token),
            IndexRecordOption::WithFreqs,
        ))
    };
    let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
    for (word, abbreviated) in words.content.iter().zip(&plan.abbreviated) {
        if !word.is_content_in(family) {
            continue;
        }
        let Some(token) = word.token_in(family) else {
            continue;
        };
        let (mut tokens, mut phrases) = other_forms_in(word, abbreviated, Some(family));
        // A compound ("x-men") by its parts that are content words ("men") too: a
        // phrase's words are marked wherever they stand, and its one-letter part would
        // mark every "x" (every "t" of "don't" for "t-shirt"). A compound of one-letter
        // parts only ("m-1") by their phrase, as a term of them alone always was.
        let content_parts: Vec<String> = word
            .parts
            .iter()
            .filter(|part| part.is_content_in(family))
            .filter_map(|part| part.token_in(family))
            .collect();
        if content_parts.is_empty() {
            let parts = phrase_tokens(&word.parts, family);
            if parts.len() > 1 {
                phrases.push(parts);
            }
        }
        tokens.extend(content_parts);
        tokens.retain(|other| *other != token);
        tokens.sort();
        tokens.dedup();
        clauses.push((Occur::Should, term_query(&token)));
        clauses.extend(
            tokens
                .iter()
                .map(|other| (Occur::Should, term_query(other))),
        );
        for phrase in phrases {
            let query: Box<dyn Query> = Box::new(PhraseQuery::new(
                phrase
                    .iter()
                    .map(|token| Term::from_field_text(field, token))
                    .collect(),
            ));
            clauses.push((Occur::Should, query));
        }
    }
    match clauses.len() {
        0 => None,
        1 => clauses.into_iter().next().map(|(_, query)| query),
        _ => Some(Box::new(BooleanQuery::new(clauses))),
    }
}

/// The queries of one term in one shard, `None` when the term has no word to search.
pub fn term_queries(
    generation: &OpenGeneration,
    shard: &OpenShard,
    families: &[LanguageFamily],
    mode: SearchMode,
    plan: &TermPlan,
) -> Result<Option<TermQueries>> {
    let kind = IndexKind::from(mode);
    let builder = TermBuilder {
        generation,
        shard,
        families,
        kind,
        weights: &WEIGHTS,
    };
    let podcast_targets: Vec<Target> = plan
        .term
        .targets
        .iter()
        .copied()
        .filter(|target| !target.is_episode_target())
        .collect();
    let error = std::cell::RefCell::new(None);
    let remember = |failure| *error.borrow_mut() = Some(failure);
    let podcasts = TermBuilder {
        kind: IndexKind::Podcasts,
        ..builder
    };
    let extras = |word: &Word| -> Vec<Box<dyn Query>> {
        let mut extras: Vec<Box<dyn Query>> = Vec::new();
        let languages = language_codes(&word.folded);
        if !languages.is_empty() {
            match language_match(generation, shard, mode, languages) {
                Ok(query) => extras.push(query),
                Err(failure) => remember(failure),
            }
        }
        // Episode searches: an episode matches a word its podcast's title or
        // description holds (resolved on the shard's podcasts, which hold every podcast
        // of its episodes).
        if mode == SearchMode::Episodes && !podcast_targets.is_empty() {
            let query = podcasts.word_only(&podcast_targets, word, plan);
            match matching_podcast_ids(shard, &query) {
                Ok(ids) if ids.is_empty() => {}
                Ok(ids) => extras.push(Box::new(Guarded::new(Box::new(ConstScore::new(
                    podcast_id_set(generation.schemas.episodes.podcast_id, &ids),
                    WEIGHTS.podcast_join,
                ))))),
                Err(failure) => remember(failure),
            }
        }
        extras
    };
    let queries = builder.term(plan, &extras);
    match error.into_inner() {
        Some(failure) => Err(failure),
        None => Ok(queries),
    }
}

/// Podcasts (or episodes of podcasts) in one of `languages`.
fn language_match(
    generation: &OpenGeneration,
    shard: &OpenShard,
    mode: SearchMode,
    languages: &[&str],
) -> Result<Box<dyn Query>> {
    let schemas = &generation.schemas;
    let query: Box<dyn Query> = match mode {
        SearchMode::Podcasts => any_term(
            languages
                .iter()
                .map(|code| Term::from_field_text(schemas.podcasts.language, code)),
        ),
        SearchMode::Episodes => {
            let filters = SearchFilters {
                languages: languages.iter().map(|code| (*code).to_owned()).collect(),
                ..SearchFilters::default()
            };
            Box::new(ResolvedFilterQuery::new(resolved_podcast_filter(
                shard, schemas, &filters,
            )?))
        }
    };
    Ok(Box::new(ConstScore::new(query, WEIGHTS.language_match)))
}

/// The podcast-level filters of `filters` resolved to the shard's episodes (cached).
fn resolved_podcast_filter(
    shard: &OpenShard,
    schemas: &Schemas,
    filters: &SearchFilters,
) -> Result<std::sync::Arc<ResolvedFilter>> {
    shard
        .podcast_filters
        .get_or_resolve(&filters.podcast_level_key(), || {
            let mut podcast_clauses = podcast_filter_clauses(schemas, filters, false);
            podcast_clauses.push((Occur::Must, Box::new(AllQuery)));
            let ids = matching_podcast_ids(shard, &BooleanQuery::new(podcast_clauses))?;
            Ok(ResolvedFilter::resolve(
                &shard.episodes,
                schemas.episodes.podcast_id,
                ids,
            )?)
        })
}

/// One term's query: what it must match, with its bonus as an optional clause.
pub fn term_clause(queries: TermQueries) -> Box<dyn Query> {
    match queries.bonus {
        Some(bonus) => Box::new(BooleanQuery::new(vec![
            (Occur::Must, queries.matching),
            (Occur::Should, bonus),
        ])),
        None => queries.matching,
    }
}

/// The boolean query of all terms, `None` when there are no searchable terms.
pub fn combine_terms(clauses: Vec<(MatchMode, Box<dyn Query>)>) -> Option<Box<dyn Query>> {
    if clauses.is_empty() {
        return None;
    }
    let positive = clauses.iter().any(|(mode, _)| *mode != MatchMode::Not);
    let mut occurs: Vec<(Occur, Box<dyn Query>)> = clauses
        .into_iter()
        .map(|(mode, query)| {
            let occur = match mode {
                MatchMode::Must => Occur::Must,
                MatchMode::Not => Occur::MustNot,
                MatchMode::Optional => Occur::Should,
            };
            (occur, query)
        })
        .collect();
    if !positive {
        occurs.push((Occur::Must, Box::new(AllQuery)));
    }
    Some(Box::new(BooleanQuery::new(occurs)))
}

fn filter(query: Box<dyn Query>) -> (Occur, Box<dyn Query>) {
    (Occur::Must, Box::new(ConstScore::new(query, 0.0)))
}

fn text_terms(field: Field, values: &[String], lowercase: bool) -> Vec<Term> {
    values
        .iter()
        .map(|value| {
            let value = value.trim();
            let value = if lowercase {
                value.to_lowercase()
            } else {
                value.to_owned()
            };
            Term::from_field_text(field, &value)
        })
        .collect()
}

fn at_least_i64(field: Field, value: i64) -> Box<dyn Query> {
    Box::new(RangeQuery::new(
        Bound::Included(Term::from_field_i64(field, value)),
        Bound::Unbounded,
    ))
}

fn at_least_u64(field: Field, value: u64) -> Box<dyn Query> {
    Box::new(RangeQuery::new(
        Bound::Included(Term::from_field_u64(field, value)),
        Bound::Unbounded,
    ))
}

fn at_most_u64(field: Field, value: u64) -> Box<dyn Query> {
    Box::new(RangeQuery::new(
        Bound::Unbounded,
        Bound::Included(Term::from_field_u64(field, value)),
    ))
}

fn at_least_f64(field: Field, value: f64) -> Box<dyn Query> {
    Box::new(RangeQuery::new(
        Bound::Included(Term::from_field_f64(field, value)),
        Bound::Unbounded,
    ))
}

/// Filter clauses on the podcasts index: the podcast-level filters, plus (when
/// `podcast_mode`) the ones that apply to podcasts directly in podcast mode.
pub fn podcast_filter_clauses(
    schemas: &Schemas,
    filters: &SearchFilters,
    podcast_mode: bool,
) -> Vec<(Occur, Box<dyn Query>)> {
    let fields = &schemas.podcasts;
    let mut clauses = Vec::new();
    if !filters.languages.is_empty() {
        let languages: Vec<String> = filters
            .languages
            .iter()
            .map(|language| crate::documents::primary_language(language))
            .collect();
        clauses.push(filter(any_term(text_terms(
            fields.language,
            &languages,
            false,
        ))));
    }
    if !filters.include_genres.is_empty() {
        clauses.push(filter(any_term(text_terms(
            fields.genres,
            &filters.include_genres,
            true,
        ))));
    }
    if !filters.exclude_genres.is_empty() {
        clauses.push((
            Occur::MustNot,
            any_term(text_terms(fields.genres, &filters.exclude_genres, true)),
        ));
    }
    if !filters.countries.is_empty() {
        let countries: Vec<String> = filters
            .countries
            .iter()
            .map(|c| c.to_ascii_lowercase())
            .collect();
        clauses.push(filter(any_term(text_terms(
            fields.countries,
            &countries,
            false,
        ))));
    }
    if let Some(date) = filters.founded_since {
        clauses.push(filter(at_least_i64(fields.founded_date, date.timestamp())));
    }
    if let Some(date) = filters.last_episode_since {
        clauses.push(filter(at_least_i64(
            fields.last_episode_date,
            date.timestamp(),
        )));
    }
    if let Some(min) = filters.min_total_episodes {
        clauses.push(filter(at_least_u64(fields.total_episodes, min)));
    }
    if let Some(max) = filters.max_total_episodes {
        clauses.push(filter(at_most_u64(fields.total_episodes, max)));
    }
    if let Some(min) = filters.min_apple_rating {
        clauses.push(filter(at_least_f64(fields.apple_rating, min)));
    }
    if let Some(min) = filters.min_apple_ratings_count {
        clauses.push(filter(at_least_u64(fields.apple_ratings_count, min)));
    }
    if let Some(min) = filters.min_spotify_rating {
        clauses.push(filter(at_least_f64(fields.spotify_rating, min)));
    }
    if let Some(min) = filters.min_spotify_ratings_count {
        clauses.push(filter(at_least_u64(fields.spotify_ratings_count, min)));
    }
    if let Some(min) = filters.min_authority_score {
        clauses.push(filter(at_least_f64(fields.authority_score, min)));
    }
    if podcast_mode {
        if !filters.include_podcast_ids.is_empty() {
            clauses.push(filter(id_set(fields.ids.id, &filters.include_podcast_ids)));
        }
        if !filters.exclude_podcast_ids.is_empty() {
            clauses.push((
                Occur::MustNot,
                id_set(fields.ids.id, &filters.exclude_podcast_ids),
            ));
        }
        if let Some(explicit) = filters.explicit {
            clauses.push(filter(bool_query(fields.explicit, explicit)));
        }
        if let Some(has) = filters.has_transcript {
            clauses.push(filter(bool_query(fields.has_transcript, has)));
        }
    }
    clauses
}

fn bool_query(field: Field, value: bool) -> Box<dyn Query> {
    Box::new(TermQuery::new(
        Term::from_field_bool(field, value),
        IndexRecordOption::Basic,
    ))
}

/// Filter clauses on the episodes index of `shard` (podcast-level filters joined
/// through the shard's podcasts).
pub fn episode_filter_clauses(
    shard: &OpenShard,
    schemas: &Schemas,
    filters: &SearchFilters,
) -> Result<Vec<(Occur, Box<dyn Query>)>> {
    let fields = &schemas.episodes;
    let mut clauses = Vec::new();
    if filters.has_podcast_level() {
        let resolved = resolved_podcast_filter(shard, schemas, filters)?;
        clauses.push(filter(Box::new(ResolvedFilterQuery::new(resolved))));
    }
    if !filters.include_podcast_ids.is_empty() {
        clauses.push(filter(id_set(
            fields.podcast_id,
            &filters.include_podcast_ids,
        )));
    }
    if !filters.exclude_podcast_ids.is_empty() {
        clauses.push((
            Occur::MustNot,
            id_set(fields.podcast_id, &filters.exclude_podcast_ids),
        ));
    }
    if !filters.include_episode_ids.is_empty() {
        clauses.push(filter(id_set(fields.ids.id, &filters.include_episode_ids)));
    }
    if !filters.exclude_episode_ids.is_empty() {
        clauses.push((
            Occur::MustNot,
            id_set(fields.ids.id, &filters.exclude_episode_ids),
        ));
    }
    if let Some(explicit) = filters.explicit {
        clauses.push(filter(bool_query(fields.explicit, explicit)));
    }
    if let Some(has) = filters.has_transcript {
        clauses.push(filter(bool_query(fields.has_transcript, has)));
    }
    if let Some(date) = filters.published_since {
        clauses.push(filter(at_least_i64(fields.published_at, date.timestamp())));
    }
    Ok(clauses)
}

/// The final query: the terms (if any) and the filters.
pub fn final_query(
    text: Option<Box<dyn Query>>,
    mut filters: Vec<(Occur, Box<dyn Query>)>,
) -> Box<dyn Query> {
    let has_positive = text.is_some() || filters.iter().any(|(occur, _)| *occur == Occur::Must);
    if let Some(text) = text {
        filters.push((Occur::Must, text));
    }
    if !has_positive {
        filters.push((Occur::Must, Box::new(AllQuery)));
    }
    Box::new(BooleanQuery::new(filters))
}

/// Ids of the podcasts of `shard` matching `query`.
pub fn matching_podcast_ids(shard: &OpenShard, query: &dyn Query) -> Result<Vec<Uuid>> {
    Ok(shard.podcasts.search(query, &IdsCollector)?)
}

/// Collects the ids of every matching document.
struct IdsCollector;

struct IdsSegmentCollector {
    hi: Column<u64>,
    lo: Column<u64>,
    ids: Vec<Uuid>,
}

impl Collector for IdsCollector {
    type Fruit = Vec<Uuid>;
    type Child = IdsSegmentCollector;

    fn for_segment(
        &self,
        _segment: SegmentOrdinal,
        reader: &SegmentReader,
    ) -> tantivy::Result<IdsSegmentCollector> {
        Ok(IdsSegmentCollector {
            hi: reader.fast_fields().u64("id_hi")?,
            lo: reader.fast_fields().u64("id_lo")?,
            ids: Vec::new(),
        })
    }

    fn requires_scoring(&self) -> bool {
        false
    }

    fn merge_fruits(&self, fruits: Vec<Vec<Uuid>>) -> tantivy::Result<Vec<Uuid>> {
        Ok(fruits.into_iter().flatten().collect())
    }
}

impl SegmentCollector for IdsSegmentCollector {
    type Fruit = Vec<Uuid>;

    fn collect(&mut self, doc: DocId, _score: Score) {
        if let (Some(hi), Some(lo)) = (self.hi.first(doc), self.lo.first(doc)) {
            self.ids.push(id_from_halves(hi, lo));
        }
    }

    fn harvest(self) -> Vec<Uuid> {
        self.ids
    }
}

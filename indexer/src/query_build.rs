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
use tantivy::query::{
    AllQuery, BooleanQuery, ConstScoreQuery, EmptyQuery, FuzzyTermQuery, Occur, PhraseQuery, Query,
    RangeQuery, TermQuery, TermSetQuery,
};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocId, Score, SegmentOrdinal, SegmentReader, Term};
use uuid::Uuid;

use crate::analysis::{LanguageFamily, analyze_in};
use crate::any_field::AnyFieldQuery;
use crate::build::Schemas;
use crate::error::Result;
use crate::filter_cache::{ResolvedFilter, ResolvedFilterQuery};
use crate::request::{MatchMode, SearchFilters, SearchTerm, Target};
use crate::schema::{FamilyFields, id_from_halves};
use crate::shard::{NonEmptyFields, OpenShard};

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

fn fuzzy_distance(token: &str) -> u8 {
    match token.chars().count() {
        0..=3 => 0,
        4..=7 => 1,
        _ => 2,
    }
}

/// The query of one term in one field analyzed by `family`.
pub fn field_query(
    field: Field,
    family: LanguageFamily,
    term: &SearchTerm,
) -> Option<Box<dyn Query>> {
    let tokens = analyze_in(family, &term.text);
    if tokens.is_empty() {
        return None;
    }
    if term.phrase && tokens.len() > 1 {
        let terms = tokens
            .iter()
            .enumerate()
            .map(|(offset, token)| (offset, Term::from_field_text(field, token)))
            .collect();
        return Some(Box::new(PhraseQuery::new_with_offset_and_slop(
            terms, term.slop,
        )));
    }
    let mut clauses: Vec<(Occur, Box<dyn Query>)> = tokens
        .iter()
        .map(|token| {
            let term_value = Term::from_field_text(field, token);
            let distance = if term.fuzzy { fuzzy_distance(token) } else { 0 };
            let query: Box<dyn Query> = if distance > 0 {
                Box::new(FuzzyTermQuery::new(term_value, distance, true))
            } else {
                Box::new(TermQuery::new(term_value, IndexRecordOption::WithFreqs))
            };
            (Occur::Must, query)
        })
        .collect();
    if clauses.len() == 1 {
        return clauses.pop().map(|(_, query)| query);
    }
    Some(Box::new(BooleanQuery::new(clauses)))
}

/// Whether `text` has a word to search once analyzed by `family`.
fn has_tokens(family: LanguageFamily, text: &str) -> bool {
    !analyze_in(family, text).is_empty()
}

/// The per-field queries of one term, leaving out fields that are empty in the shard,
/// and how many there would be without leaving any out: the query keeps the shape it
/// has when every field holds text, so scores and explanations do not depend on which
/// languages a shard happens to hold.
#[derive(Default)]
struct FieldQueries {
    queries: Vec<Box<dyn Query>>,
    candidates: usize,
}

impl FieldQueries {
    fn add_families(
        &mut self,
        fields: &FamilyFields,
        families: &[LanguageFamily],
        term: &SearchTerm,
        non_empty: &NonEmptyFields,
    ) {
        for family in families {
            let field = fields.field(*family);
            if !non_empty.contains(field) {
                if has_tokens(*family, &term.text) {
                    self.candidates += 1;
                }
                continue;
            }
            if let Some(query) = field_query(field, *family, term) {
                self.candidates += 1;
                self.queries.push(query);
            }
        }
    }

    fn push(&mut self, query: Box<dyn Query>) {
        self.candidates += 1;
        self.queries.push(query);
    }

    /// Any of the queries, `None` when the term has no word to search.
    fn any_of(self) -> Option<Box<dyn Query>> {
        let FieldQueries {
            mut queries,
            candidates,
        } = self;
        match (candidates, queries.len()) {
            (0, _) => None,
            // Every field the term could match is empty in this shard.
            (_, 0) => Some(Box::new(EmptyQuery)),
            (1, _) => queries.pop(),
            _ => Some(Box::new(AnyFieldQuery::new(queries, 0.3))),
        }
    }
}

/// A term's query on the podcasts index of `shard` (podcast targets only).
pub fn podcast_term_query(
    shard: &OpenShard,
    schemas: &Schemas,
    families: &[LanguageFamily],
    term: &SearchTerm,
) -> Option<Box<dyn Query>> {
    let non_empty = &shard.podcast_fields;
    let mut queries = FieldQueries::default();
    for target in &term.targets {
        match target {
            Target::PodcastTitle => {
                queries.add_families(&schemas.podcasts.title, families, term, non_empty)
            }
            Target::PodcastDescription => {
                queries.add_families(&schemas.podcasts.description, families, term, non_empty)
            }
            _ => {}
        }
    }
    queries.any_of()
}

/// A term's query on the episodes index of `shard`.
pub fn episode_term_query(
    shard: &OpenShard,
    schemas: &Schemas,
    families: &[LanguageFamily],
    term: &SearchTerm,
) -> Result<Option<Box<dyn Query>>> {
    let non_empty = &shard.episode_fields;
    let mut queries = FieldQueries::default();
    for target in &term.targets {
        match target {
            Target::EpisodeTitle => {
                queries.add_families(&schemas.episodes.title, families, term, non_empty)
            }
            Target::EpisodeDescription => {
                queries.add_families(&schemas.episodes.description, families, term, non_empty)
            }
            Target::Transcript => {
                queries.add_families(&schemas.episodes.transcript, families, term, non_empty)
            }
            Target::PodcastTitle | Target::PodcastDescription => {}
        }
    }
    let podcast_term = SearchTerm {
        targets: term
            .targets
            .iter()
            .copied()
            .filter(|target| !target.is_episode_target())
            .collect(),
        ..term.clone()
    };
    if let Some(podcast_query) = podcast_term_query(shard, schemas, families, &podcast_term) {
        let ids = matching_podcast_ids(shard, podcast_query.as_ref())?;
        queries.push(Box::new(ConstScoreQuery::new(
            podcast_id_set(schemas.episodes.podcast_id, &ids),
            1.0,
        )));
    }
    Ok(queries.any_of())
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
    (Occur::Must, Box::new(ConstScoreQuery::new(query, 0.0)))
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

fn id_set(field: Field, ids: &[Uuid]) -> Box<dyn Query> {
    Box::new(TermSetQuery::new(
        ids.iter()
            .map(|id| Term::from_field_text(field, &id.to_string())),
    ))
}

/// A query matching episodes (or chunks) of the given podcasts.
pub fn podcast_id_set(field: Field, ids: &[Uuid]) -> Box<dyn Query> {
    id_set(field, ids)
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
        clauses.push(filter(Box::new(TermSetQuery::new(text_terms(
            fields.language,
            &languages,
            false,
        )))));
    }
    if !filters.include_genres.is_empty() {
        clauses.push(filter(Box::new(TermSetQuery::new(text_terms(
            fields.genres,
            &filters.include_genres,
            true,
        )))));
    }
    if !filters.exclude_genres.is_empty() {
        clauses.push((
            Occur::MustNot,
            Box::new(TermSetQuery::new(text_terms(
                fields.genres,
                &filters.exclude_genres,
                true,
            ))),
        ));
    }
    if !filters.countries.is_empty() {
        let countries: Vec<String> = filters
            .countries
            .iter()
            .map(|c| c.to_ascii_lowercase())
            .collect();
        clauses.push(filter(Box::new(TermSetQuery::new(text_terms(
            fields.countries,
            &countries,
            false,
        )))));
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
        let resolved =
            shard
                .podcast_filters
                .get_or_resolve(&filters.podcast_level_key(), || {
                    let mut podcast_clauses = podcast_filter_clauses(schemas, filters, false);
                    podcast_clauses.push((Occur::Must, Box::new(AllQuery)));
                    let ids = matching_podcast_ids(shard, &BooleanQuery::new(podcast_clauses))?;
                    Ok(ResolvedFilter::resolve(
                        &shard.episodes,
                        fields.podcast_id,
                        ids,
                    )?)
                })?;
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

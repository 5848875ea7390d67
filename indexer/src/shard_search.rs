//! A search's work on one shard: the request checked, the shard's query and filters
//! (with global BM25 statistics), the collector of a page, and the snippets of a page's
//! transcripts. The root (`crate::search`) gathers the shards' pages through
//! `crate::shards`.

use std::collections::HashMap;
use std::time::Instant;

use tantivy::collector::{Collector, SegmentCollector};
use tantivy::query::{BooleanQuery, Occur, Query, TermQuery};
use tantivy::schema::{Field, IndexRecordOption, Value};
use tantivy::{
    DocAddress, DocId, DocSet, Score, Searcher, SegmentOrdinal, SegmentReader, TERMINATED,
    TantivyDocument, Term,
};
use uuid::Uuid;

use crate::analysis::LanguageFamily;
use crate::any_field::AnyFieldQuery;
use crate::collector::{PageCollector, Prior, ValueSource};
use crate::const_score::ConstScore;
use crate::error::{IndexError, Result};
use crate::highlight::{Highlighter, highlighted_html};
use crate::query_build::{
    combine_terms, episode_filter_clauses, final_query, podcast_filter_clauses,
    snippet_field_query, term_clause, term_queries,
};
use crate::ranking::PRIOR_BETA;
use crate::relevance::TermPlan;
use crate::request::{MAX_SNIPPET_CHARS, MatchMode, SearchMode, SearchRequest, SortField, Target};
use crate::results::{EpisodeHit, TranscriptSnippet};
use crate::shard::{GlobalStatistics, OpenGeneration, OpenShard};
use crate::sort_key::SortKey;
use crate::stored::text;

/// Largest page.
pub const MAX_PAGE_SIZE: usize = 1000;
/// Most keyword hits one step of a search asks the shards for: a hybrid search's
/// fused window of twice the largest page, and one more to know whether more follow.
pub(crate) const MAX_WINDOW: usize = 2 * MAX_PAGE_SIZE + 1;
const SNIPPETS_PER_HIT: usize = 3;

fn value_source(mode: SearchMode, field: SortField) -> Result<ValueSource> {
    Ok(match (mode, field) {
        (_, SortField::Relevance) => ValueSource::Score,
        (_, SortField::Title) => ValueSource::Title,
        (SearchMode::Podcasts, SortField::RecentActivity) => ValueSource::I64("last_episode_date"),
        (SearchMode::Episodes, SortField::RecentActivity) => ValueSource::I64("published_at"),
        (SearchMode::Podcasts, SortField::AppleReviews) => ValueSource::U64("apple_ratings_count"),
        (SearchMode::Podcasts, SortField::SpotifyReviews) => {
            ValueSource::U64("spotify_ratings_count")
        }
        (SearchMode::Podcasts, SortField::AuthorityScore) => ValueSource::F64("authority_score"),
        (SearchMode::Episodes, other) => {
            return Err(IndexError::InvalidRequest(format!(
                "sort {other:?} is not available for episode searches"
            )));
        }
    })
}

pub(crate) fn validate(request: &SearchRequest, mode: SearchMode) -> Result<()> {
    if request.page_size == 0 || request.page_size > MAX_PAGE_SIZE {
        return Err(IndexError::InvalidRequest(format!(
            "page size must be between 1 and {MAX_PAGE_SIZE}"
        )));
    }
    let lengths = [Some(request.snippet_chars), request.transcript_start_chars];
    if lengths
        .iter()
        .flatten()
        .any(|chars| *chars == 0 || *chars > MAX_SNIPPET_CHARS)
    {
        return Err(IndexError::InvalidRequest(format!(
            "snippet lengths must be between 1 and {MAX_SNIPPET_CHARS} characters"
        )));
    }
    for term in &request.terms {
        if term.text.trim().is_empty() {
            return Err(IndexError::InvalidRequest("a search term is blank".into()));
        }
        if term.targets.is_empty() {
            return Err(IndexError::InvalidRequest(
                "a search term has no target".into(),
            ));
        }
        if mode == SearchMode::Podcasts && term.targets.iter().any(|t| t.is_episode_target()) {
            return Err(IndexError::InvalidRequest(
                "podcast searches accept only podcast-title and podcast-description targets".into(),
            ));
        }
    }
    Ok(())
}

/// What a search runs: its mode, families and planned terms.
pub(crate) struct Plan<'a> {
    pub request: &'a SearchRequest,
    pub mode: SearchMode,
    pub families: Vec<LanguageFamily>,
    pub terms: Vec<TermPlan>,
}

/// The query of one shard; documents whose id is in `exclude` are left out.
pub(crate) fn shard_query(
    generation: &OpenGeneration,
    shard: &OpenShard,
    plan: &Plan<'_>,
    exclude: &[Uuid],
) -> Result<Box<dyn Query>> {
    let mut clauses = Vec::new();
    for term in &plan.terms {
        // A term without a word (punctuation, symbols) is left out.
        if let Some(queries) = term_queries(generation, shard, &plan.families, plan.mode, term)? {
            clauses.push((term.term.match_mode, term_clause(queries)));
        }
    }
    // Terms were given but none has a word to search: nothing matches.
    let text = if clauses.is_empty() && !plan.terms.is_empty() {
        Some(Box::new(tantivy::query::EmptyQuery) as Box<dyn Query>)
    } else {
        combine_terms(clauses)
    };
    let mut filters = shard_filters(generation, shard, plan)?;
    if !exclude.is_empty() {
        filters.push((Occur::MustNot, id_set(generation, plan.mode, exclude)));
    }
    Ok(final_query(text, filters))
}

/// The request's filters as clauses on one shard.
pub(crate) fn shard_filters(
    generation: &OpenGeneration,
    shard: &OpenShard,
    plan: &Plan<'_>,
) -> Result<Vec<(Occur, Box<dyn Query>)>> {
    let schemas = &generation.schemas;
    Ok(match plan.mode {
        SearchMode::Podcasts => podcast_filter_clauses(schemas, &plan.request.filters, true),
        SearchMode::Episodes => episode_filter_clauses(shard, schemas, &plan.request.filters)?,
    })
}

/// Documents (podcasts or episodes) with one of `ids`.
pub(crate) fn id_set(
    generation: &OpenGeneration,
    mode: SearchMode,
    ids: &[Uuid],
) -> Box<dyn Query> {
    let field = match mode {
        SearchMode::Podcasts => generation.schemas.podcasts.ids.id,
        SearchMode::Episodes => generation.schemas.episodes.ids.id,
    };
    crate::term_sets::any_term(
        ids.iter()
            .map(|id| Term::from_field_text(field, &id.to_string())),
    )
}

pub(crate) fn index_searcher(shard: &OpenShard, mode: SearchMode) -> &Searcher {
    shard.searcher(mode.into())
}

/// The collector of a page of `limit` hits after `after`.
pub(crate) fn page_collector(
    generation: &OpenGeneration,
    plan: &Plan<'_>,
    after: Option<SortKey>,
    limit: usize,
) -> Result<PageCollector> {
    let request = plan.request;
    let source = value_source(plan.mode, request.sort.field)?;
    Ok(PageCollector {
        order: request.sort,
        source,
        after,
        limit,
        scoring: source == ValueSource::Score || request.explain,
        prior: (plan.mode == SearchMode::Podcasts && source == ValueSource::Score).then_some(
            Prior {
                beta: PRIOR_BETA,
                newest: generation.newest_episode,
            },
        ),
        deadline: request.time_limit.map(|limit| Instant::now() + limit),
    })
}

/// The transcript terms of a request (not `Not`) as a query over the chunk text fields
/// of `shard` that hold text: a chunk matches any of their content words.
fn transcript_text_query(
    generation: &OpenGeneration,
    shard: &OpenShard,
    plans: &[TermPlan],
    families: &[LanguageFamily],
) -> Option<Box<dyn Query>> {
    let chunk_text = &generation.schemas.chunks.text;
    let mut clauses: Vec<Box<dyn Query>> = Vec::new();
    for plan in plans {
        let term = &plan.term;
        if term.match_mode == MatchMode::Not || !term.targets.contains(&Target::Transcript) {
            continue;
        }
        for family in families {
            let field = chunk_text.field(*family);
            // A field without text has no chunk to match and no term to highlight.
            if !shard.chunk_fields.contains(field) {
                continue;
            }
            if let Some(query) = snippet_field_query(field, *family, plan) {
                clauses.push(query);
            }
        }
    }
    if clauses.is_empty() {
        None
    } else {
        // Scored as a boolean "should" query (the sum of the matching clauses).
        Some(Box::new(AnyFieldQuery::new(clauses, 1.0)))
    }
}

/// The language families of the transcripts of `hits` (hits of `shard` with their
/// addresses), among those the plan searches, and the hits that have one. An episode's
/// transcript is indexed in one family's field of the episode document and its chunks in
/// the same family's chunk field: the fields' lengths say which, without reading a chunk.
fn page_transcripts(
    generation: &OpenGeneration,
    shard: &OpenShard,
    plan: &Plan<'_>,
    hits: &[(usize, EpisodeHit, DocAddress)],
) -> (Vec<LanguageFamily>, Vec<Uuid>) {
    let fields = &generation.schemas.episodes.transcript;
    let mut families: Vec<LanguageFamily> = Vec::new();
    let mut episodes = Vec::new();
    for (_, hit, address) in hits {
        let reader = shard.episodes.segment_reader(address.segment_ord);
        let mut held = false;
        for family in &plan.families {
            let has_text = reader
                .get_fieldnorms_reader(fields.field(*family))
                .is_ok_and(|norms| norms.fieldnorm_id(address.doc_id) != 0);
            if has_text {
                held = true;
                if !families.contains(family) {
                    families.push(*family);
                }
            }
        }
        if held {
            episodes.push(hit.episode_id);
        }
    }
    (families, episodes)
}

/// Adds transcript snippets to `hits`, the page's hits in `shard`: one search for the
/// chunks of those with a transcript that match the transcript terms, in their
/// transcripts' language fields alone, then each hit's best chunks, highlighted.
pub(crate) fn add_snippets(
    generation: &OpenGeneration,
    shard: &OpenShard,
    plan: &Plan<'_>,
    hits: &mut [(usize, EpisodeHit, DocAddress)],
) -> Result<()> {
    let (families, episode_ids) = page_transcripts(generation, shard, plan, hits);
    if episode_ids.is_empty() {
        return Ok(());
    }
    let Some(text_query) = transcript_text_query(generation, shard, &plan.terms, &families) else {
        return Ok(());
    };
    let mut snippets = shard_snippets(
        generation,
        shard,
        &episode_ids,
        text_query,
        plan.request.snippet_chars,
    )?;
    for (_, hit, _) in hits.iter_mut() {
        if let Some(found) = snippets.remove(&hit.episode_id) {
            hit.snippets = found;
        }
    }
    Ok(())
}

/// The snippets of `episode_ids` (page hits of `shard`): for each, its chunks matching
/// `text_query`, best first by BM25 over the shard's chunks (ties in chunk order), at
/// most [`SNIPPETS_PER_HIT`].
fn shard_snippets(
    generation: &OpenGeneration,
    shard: &OpenShard,
    episode_ids: &[Uuid],
    text_query: Box<dyn Query>,
    snippet_chars: usize,
) -> Result<HashMap<Uuid, Vec<TranscriptSnippet>>> {
    let fields = &generation.schemas.chunks;
    let searcher = &shard.chunks;
    // One term query per episode: a page's few posting lists, where a term set query
    // would mark its matches in a bit set over the whole index.
    let episodes: Vec<Box<dyn Query>> = episode_ids
        .iter()
        .map(|id| {
            let term = Term::from_field_text(fields.episode_id, &id.to_string());
            Box::new(TermQuery::new(term, IndexRecordOption::Basic)) as Box<dyn Query>
        })
        .collect();
    let query = BooleanQuery::new(vec![
        (
            Occur::Must,
            Box::new(ConstScore::new(
                Box::new(AnyFieldQuery::new(episodes, 1.0)),
                0.0,
            )) as Box<dyn Query>,
        ),
        (Occur::Must, text_query.box_clone()),
    ]);
    let statistics = GlobalStatistics::new(vec![searcher]);
    let mut matches = searcher.search_with_statistics_provider(
        &query,
        &ChunkMatches {
            episode_field: fields.episode_id,
            episode_ids,
        },
        &statistics,
    )?;
    matches.sort_by(|a, b| {
        a.episode
            .cmp(&b.episode)
            .then(b.score.total_cmp(&a.score))
            .then(a.address.cmp(&b.address))
    });
    let mut highlighters: [Option<Highlighter>; LanguageFamily::ALL.len()] =
        std::array::from_fn(|_| None);
    let mut by_episode: HashMap<Uuid, Vec<TranscriptSnippet>> = HashMap::new();
    for found in matches {
        let snippets = by_episode.entry(episode_ids[found.episode]).or_default();
        if snippets.len() == SNIPPETS_PER_HIT {
            continue;
        }
        let doc: TantivyDocument = searcher.doc(found.address)?;
        let family_index = doc
            .get_first(fields.family)
            .and_then(|value| value.as_u64())
            .unwrap_or_default() as usize;
        let family = LanguageFamily::ALL
            .get(family_index)
            .copied()
            .unwrap_or(LanguageFamily::Other);
        let highlighter = match &mut highlighters[family.index()] {
            Some(highlighter) => highlighter,
            empty => {
                let field = fields.text.field(family);
                empty.insert(Highlighter::new(
                    &statistics,
                    text_query.as_ref(),
                    field,
                    family,
                    snippet_chars,
                )?)
            }
        };
        let chunk_text = text(&doc, fields.text_stored).unwrap_or_default();
        let snippet = highlighter.snippet(&chunk_text);
        let highlights: Vec<(usize, usize)> = snippet
            .highlighted
            .iter()
            .map(|range| (range.start, range.end))
            .collect();
        snippets.push(TranscriptSnippet {
            chunk_id: text(&doc, fields.chunk_id).unwrap_or_default(),
            html: highlighted_html(&snippet.fragment, &highlights),
            fragment: snippet.fragment,
            highlights,
            start_second: doc.get_first(fields.start_second).and_then(|v| v.as_f64()),
            end_second: doc.get_first(fields.end_second).and_then(|v| v.as_f64()),
        });
    }
    Ok(by_episode)
}

/// A chunk matching a snippet search.
struct ChunkMatch {
    /// Index of the episode in the snippet search's list.
    episode: usize,
    score: Score,
    address: DocAddress,
}

/// Collects every match of a snippet search with its score and its episode, one of
/// `episode_ids`: a segment's chunks of each are read from the postings of its id, a
/// few per page hit.
struct ChunkMatches<'a> {
    episode_field: Field,
    episode_ids: &'a [Uuid],
}

struct SegmentChunkMatches {
    segment_ord: SegmentOrdinal,
    /// The segment's chunks of the episodes: (document, index in `episode_ids`), by
    /// document.
    chunk_episodes: Vec<(DocId, usize)>,
    found: Vec<ChunkMatch>,
}

impl<'a> Collector for ChunkMatches<'a> {
    type Fruit = Vec<ChunkMatch>;
    type Child = SegmentChunkMatches;

    fn for_segment(
        &self,
        segment_ord: SegmentOrdinal,
        reader: &SegmentReader,
    ) -> tantivy::Result<SegmentChunkMatches> {
        let postings_of = reader.inverted_index(self.episode_field)?;
        let mut chunk_episodes = Vec::new();
        for (index, id) in self.episode_ids.iter().enumerate() {
            let term = Term::from_field_text(self.episode_field, &id.to_string());
            if let Some(mut postings) =
                postings_of.read_postings(&term, IndexRecordOption::Basic)?
            {
                let mut doc = postings.doc();
                while doc != TERMINATED {
                    chunk_episodes.push((doc, index));
                    doc = postings.advance();
                }
            }
        }
        chunk_episodes.sort_unstable();
        Ok(SegmentChunkMatches {
            segment_ord,
            chunk_episodes,
            found: Vec::new(),
        })
    }

    fn requires_scoring(&self) -> bool {
        true
    }

    fn merge_fruits(&self, fruits: Vec<Vec<ChunkMatch>>) -> tantivy::Result<Vec<ChunkMatch>> {
        Ok(fruits.into_iter().flatten().collect())
    }
}

impl SegmentCollector for SegmentChunkMatches {
    type Fruit = Vec<ChunkMatch>;

    fn collect(&mut self, doc: DocId, score: Score) {
        if let Ok(at) = self
            .chunk_episodes
            .binary_search_by_key(&doc, |(chunk, _)| *chunk)
        {
            self.found.push(ChunkMatch {
                episode: self.chunk_episodes[at].1,
                score,
                address: DocAddress::new(self.segment_ord, doc),
            });
        }
    }

    fn harvest(self) -> Vec<ChunkMatch> {
        self.found
    }
}

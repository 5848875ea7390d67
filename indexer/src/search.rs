//! Running a [`SearchRequest`]: scatter over shards (in parallel, with global BM25
//! statistics), gather the global top of the page by (sort key, id), load stored fields,
//! and add transcript snippets and explanations.

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
use crate::collector::{Collected, PageCollector, Prior, ValueSource};
use crate::const_score::ConstScore;
use crate::cursor::{self, Position};
use crate::embedding::StaticModel;
use crate::error::{IndexError, Result};
use crate::highlight::Highlighter;
use crate::hybrid;
use crate::query_build::{
    combine_terms, episode_filter_clauses, families_for, final_query, podcast_filter_clauses,
    snippet_field_query, term_clause, term_queries,
};
use crate::reader::IndexReaderHandle;
use crate::relevance::TermPlan;
use crate::request::{MAX_SNIPPET_CHARS, MatchMode, SearchMode, SearchRequest, SortField, Target};
use crate::results::{EpisodeHit, Hits, PodcastHit, SearchResponse, Timings, TranscriptSnippet};
use crate::shard::{GlobalStatistics, OpenGeneration, OpenShard};
use crate::shards::{LocalShards, Shards, done, id_of};
use crate::sort_key::SortKey;
use crate::stored::StoredFields;
use crate::words::TermWords;

/// Largest page.
pub const MAX_PAGE_SIZE: usize = 1000;
/// Most keyword hits one step of a search asks the shards for: a hybrid search's
/// fused window of twice the largest page, and one more to know whether more follow.
pub(crate) const MAX_WINDOW: usize = 2 * MAX_PAGE_SIZE + 1;
/// β of the podcast prior ([`Prior`]).
const PRIOR_BETA: f32 = 0.2;
const SNIPPETS_PER_HIT: usize = 3;

impl IndexReaderHandle {
    /// Runs `request` on the current generation.
    pub fn search(&self, request: &SearchRequest) -> Result<SearchResponse> {
        search(&self.generation(), request)
    }
}

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
    crate::query_build::any_term(
        ids.iter()
            .map(|id| Term::from_field_text(field, &id.to_string())),
    )
}

pub(crate) fn index_searcher(shard: &OpenShard, mode: SearchMode) -> &Searcher {
    shard.searcher(mode.into())
}

/// Runs `request` on `generation`.
///
/// The search runs on the rayon pool: called from outside it (a server or client
/// thread), the whole request is handed over once, and its parallel steps (the shards'
/// searches, loading the page, snippets) split work inside the pool instead of each
/// handing work over and waiting for it.
pub fn search(generation: &OpenGeneration, request: &SearchRequest) -> Result<SearchResponse> {
    if rayon::current_thread_index().is_some() {
        search_in_pool(generation, request)
    } else {
        rayon::scope(|_| search_in_pool(generation, request))
    }
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

/// A page of hits, before their stored fields are loaded.
pub(crate) struct FoundPage {
    pub hits: Vec<Collected>,
    pub total: u64,
    pub next_cursor: Option<String>,
    /// Per hit, how keyword and vector ranks were fused (hybrid searches).
    pub fusion: Vec<Option<serde_json::Value>>,
}

/// What the root of a search knows of it: the request and each term's words (the
/// shards plan the terms against their dictionaries themselves).
pub(crate) struct RootPlan<'a> {
    pub request: &'a SearchRequest,
    pub mode: SearchMode,
    pub terms: Vec<(MatchMode, &'a TermWords)>,
}

fn search_in_pool(generation: &OpenGeneration, request: &SearchRequest) -> Result<SearchResponse> {
    let _running = crate::fanout::Running::start();
    let started = Instant::now();
    let mode = request.effective_mode();
    validate(request, mode)?;
    let position = match &request.cursor {
        Some(text) => Some(cursor::decode_position(text, mode, &request.sort)?),
        None => None,
    };
    let families = families_for(&request.filters);
    let terms: Vec<TermPlan> = request
        .terms
        .iter()
        .map(|term| TermPlan::new(generation, &families, term))
        .collect();
    let plan = Plan {
        request,
        mode,
        families,
        terms,
    };
    let root = RootPlan {
        request,
        mode,
        terms: plan
            .terms
            .iter()
            .map(|term| (term.term.match_mode, &term.words))
            .collect(),
    };
    let shards = LocalShards::new(generation, &plan);
    done(run(
        &shards,
        &root,
        position,
        generation.model.as_deref(),
        generation.manifest.generation,
        started,
    ))
}

/// Runs a search (validated, its cursor decoded to `position`) as its root over
/// `shards`: the page in keyword or fused order, then the page's hits. `model` embeds
/// the query of a hybrid search (`None`: keyword order alone); `started` is when the
/// search began, for its timings.
pub(crate) async fn run<S: Shards>(
    shards: &S,
    root: &RootPlan<'_>,
    position: Option<Position>,
    model: Option<&StaticModel>,
    generation: u64,
    started: Instant,
) -> Result<SearchResponse> {
    let found = match hybrid::vector_query(root, model)? {
        Some(vector) => hybrid::page(shards, root, vector, position).await?,
        None => keyword_page(shards, root, position).await?,
    };
    let search_done = Instant::now();
    let mut hits = shards.fetch(&found.hits).await?;
    if root.request.explain {
        add_fusion(&mut hits, &found);
    }
    let finished = Instant::now();
    Ok(SearchResponse {
        hits,
        total: found.total,
        next_cursor: found.next_cursor,
        generation,
        timings: Timings {
            search_ms: (search_done - started).as_secs_f64() * 1e3,
            post_processing_ms: (finished - search_done).as_secs_f64() * 1e3,
            total_ms: (finished - started).as_secs_f64() * 1e3,
        },
    })
}

/// A fused page's explanations: how the ranks were fused, and the keyword score's own.
fn add_fusion(hits: &mut Hits, found: &FoundPage) {
    let fused = |explanation: &mut Option<serde_json::Value>, id: Uuid| {
        let position = found.hits.iter().position(|hit| id_of(hit) == id);
        if let Some(fusion) = position.and_then(|at| found.fusion.get(at).cloned().flatten()) {
            let keyword = explanation.take();
            *explanation = Some(serde_json::json!({ "fusion": fusion, "keyword": keyword }));
        }
    };
    match hits {
        Hits::Podcasts(hits) => {
            for hit in hits {
                fused(&mut hit.explanation, hit.podcast_id);
            }
        }
        Hits::Episodes(hits) => {
            for hit in hits {
                fused(&mut hit.explanation, hit.episode_id);
            }
        }
    }
}

/// A page in keyword order.
async fn keyword_page<S: Shards>(
    shards: &S,
    plan: &RootPlan<'_>,
    position: Option<Position>,
) -> Result<FoundPage> {
    let after = match position {
        None => None,
        Some(Position::After(key)) => Some(key),
        Some(Position::Fused(_)) => {
            return Err(IndexError::InvalidCursor(
                "the cursor belongs to a search that fused vector results".into(),
            ));
        }
    };
    keyword_page_after(shards, plan, after, &[]).await
}

/// The keyword-order page after `after`, leaving out `exclude` (the page's `total` is
/// the engine's count of matches).
pub(crate) async fn keyword_page_after<S: Shards>(
    shards: &S,
    plan: &RootPlan<'_>,
    after: Option<SortKey>,
    exclude: &[Uuid],
) -> Result<FoundPage> {
    let request = plan.request;
    let page = shards
        .keyword_page(after, request.page_size + 1, exclude)
        .await?;
    let mut hits = page.hits;
    let has_more = hits.len() > request.page_size;
    hits.truncate(request.page_size);
    let next_cursor = match hits.last() {
        Some(last) if has_more => Some(cursor::encode(plan.mode, &request.sort, &last.key)),
        _ => None,
    };
    let fusion = vec![None; hits.len()];
    Ok(FoundPage {
        hits,
        total: page.total,
        next_cursor,
        fusion,
    })
}

pub(crate) fn text(doc: &TantivyDocument, field: Field) -> Option<String> {
    doc.get_first(field)
        .and_then(|value| value.as_str())
        .map(str::to_owned)
}

pub(crate) fn texts(doc: &TantivyDocument, field: Field) -> Vec<String> {
    doc.get_all(field)
        .filter_map(|value| value.as_str())
        .map(str::to_owned)
        .collect()
}

pub(crate) fn podcast_hit(
    generation: &OpenGeneration,
    mut doc: StoredFields,
    score: f32,
) -> PodcastHit {
    let fields = &generation.schemas.podcasts;
    PodcastHit {
        podcast_id: doc.uuid(fields.ids.id).unwrap_or_default(),
        founded_date: doc.date(fields.founded_date),
        last_episode_date: doc.date(fields.last_episode_date),
        total_episodes: doc.u64(fields.total_episodes).unwrap_or_default(),
        slug: doc.take_text(fields.slug).unwrap_or_default(),
        title: doc.take_text(fields.title_stored).unwrap_or_default(),
        author: doc.take_text(fields.author),
        description: doc.take_text(fields.description_stored),
        image_url: doc.take_text(fields.image_url),
        language: doc.take_text(fields.language_tag),
        genres: doc.take_texts(fields.genres),
        host_names: doc.take_texts(fields.host_names),
        score,
        explanation: None,
        stored: true,
    }
}

impl OpenGeneration {
    /// The podcast hits (stored fields, score 0) of the podcasts `ids` this generation
    /// holds, in the order of `ids`; ids it lacks are left out.
    pub fn podcast_hits(&self, ids: &[Uuid]) -> Result<Vec<PodcastHit>> {
        let every: Vec<usize> = (0..self.shards.len()).collect();
        crate::lookups::podcasts_by_id(self, &every, ids)
    }
}

/// The episode hit stored as `doc`, with the first `transcript_start_chars` characters
/// of its transcript when asked for (cut after a word, from the start the document
/// keeps).
pub(crate) fn episode_hit(
    generation: &OpenGeneration,
    mut doc: StoredFields,
    score: f32,
    transcript_start_chars: Option<usize>,
) -> EpisodeHit {
    let fields = &generation.schemas.episodes;
    EpisodeHit {
        episode_id: doc.uuid(fields.ids.id).unwrap_or_default(),
        podcast_id: doc.uuid(fields.podcast_id).unwrap_or_default(),
        transcript_id: doc.uuid(fields.transcript_id),
        published_at: doc.date(fields.published_at),
        first_seen_at: doc.date(fields.first_seen_at),
        duration_seconds: doc.u64(fields.duration_seconds),
        has_transcript: doc.bool(fields.has_transcript).unwrap_or(false),
        transcript_start: transcript_start_chars.and_then(|chars| {
            doc.text(fields.transcript_start)
                .map(|start| cut_at_word(start, chars))
        }),
        podcast_title: doc.take_text(fields.podcast_title_stored),
        slug: doc.take_text(fields.slug).unwrap_or_default(),
        title: doc.take_text(fields.title_stored).unwrap_or_default(),
        description: doc.take_text(fields.description_stored),
        enclosure_url: doc.take_text(fields.enclosure_url),
        image_url: doc.take_text(fields.image_url),
        web_url: doc.take_text(fields.web_url),
        score,
        snippets: Vec::new(),
        explanation: None,
    }
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

/// `fragment`, HTML-escaped, with the byte ranges `highlights` in `<em>` tags.
pub(crate) fn highlighted_html(fragment: &str, highlights: &[(usize, usize)]) -> String {
    let mut html = String::with_capacity(fragment.len() + 9 * highlights.len());
    let mut at = 0;
    for &(start, end) in highlights {
        let (Some(before), Some(marked)) = (fragment.get(at..start), fragment.get(start..end))
        else {
            continue;
        };
        html.push_str(&escape_html(before));
        html.push_str("<em>");
        html.push_str(&escape_html(marked));
        html.push_str("</em>");
        at = end;
    }
    html.push_str(&escape_html(fragment.get(at..).unwrap_or_default()));
    html
}

/// `&`, `<`, `>` and quotes escaped.
pub(crate) fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            other => out.push(other),
        }
    }
    out
}

/// The first `chars` characters of `text`, cut after the last whole word (with "…"
/// when cut).
fn cut_at_word(text: &str, chars: usize) -> String {
    let text = text.trim();
    let Some((end, _)) = text.char_indices().nth(chars) else {
        return text.to_owned();
    };
    let head = &text[..end];
    let head = head
        .rsplit_once(char::is_whitespace)
        .map_or(head, |(words, _)| words);
    format!("{}…", head.trim_end())
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

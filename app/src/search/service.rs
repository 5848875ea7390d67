//! [`SearchService`]: a search from the options a client sent to the page of hydrated
//! hits it gets back. The service validates the options against the requester's plan,
//! enforces the plan's results per search across pages, reads and signs the page
//! cursors, leaves the team's blacklisted podcasts out, charges the search and
//! remembers it, and asks the [`SearchEngine`] for the page: this process's index or a
//! cluster's search nodes, told what to search and never who asks.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use chrono::Utc;
use podlens_indexer::{Hits, PodcastHit, SearchMode};
use podlens_model::search::{
    SearchEndpoint, SearchRequestContext, SearchResponse, SearchResult, SearchResultsStats,
    SearchStatsTime, SearchStatsTotals, SearchTotal, TotalRelation, ValidatedSearch,
};
use podlens_model::{Plan, parse_search_options, validate_search};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use uuid::Uuid;

use super::engine::{SearchEngine, on_search_pool};
use super::hits::{PodcastJsonCache, Snippets, WireHit, episode_hit, podcast_hit};
use crate::accounts::blacklists::{TeamBlacklists, blacklist_of};
use crate::accounts::history::SearchHistory;
use crate::accounts::metering::{Charge, Metering, Requester};
use crate::accounts::{AccountStore, SearchRecord, UsageCounter, UsageSubject};
use crate::catalog::CatalogReader;
use crate::cursors::{CursorKind, CursorSigner, Payload, Reader, fingerprint, invalid_cursor};
use crate::error::{AppError, AppResult};
use crate::search_plan::engine_request;

/// A semantic search (a Podlens extension; the public search request's `embeddings`
/// term type stays rejected).
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SemanticSearchBody {
    /// What to find, in plain words (at least 2 characters).
    pub query: String,
    /// `episodes` (default: the best episode description or transcript passage per
    /// episode) or `podcasts` (podcast centroids).
    pub mode: Option<String>,
    /// Hits to return, 1-100 (default 10), capped by the plan's results per search.
    pub limit: Option<u32>,
    /// Only these podcasts.
    pub podcast_ids: Option<Vec<Uuid>>,
}

/// What a semantic search returns.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SemanticSearchResponse {
    query: String,
    search_mode: &'static str,
    search_id: String,
    #[schema(value_type = Vec<serde_json::Value>)]
    hits: Vec<WireHit>,
    search_time_ms: f64,
}

/// A page of a search, and what it was charged.
#[derive(Debug)]
pub struct SearchPage {
    pub charge: Charge,
    pub response: SearchResponse<WireHit>,
}

impl SearchPage {
    /// About how many bytes the page's JSON takes: its hits', and 4 KiB for the rest
    /// (the options echoed, the stats).
    pub fn json_capacity(&self) -> usize {
        self.response
            .result
            .hits
            .iter()
            .map(|hit| hit.get().len() + 1)
            .sum::<usize>()
            + 4096
    }
}

/// Search as the application runs it, over an engine (see the module's documentation).
#[derive(Clone)]
pub struct SearchService {
    pub(crate) engine: Arc<dyn SearchEngine>,
    pub(crate) catalog: Arc<CatalogReader>,
    pub(crate) cursors: Arc<CursorSigner>,
    pub(crate) blacklists: Arc<TeamBlacklists>,
    pub(crate) accounts: Arc<dyn AccountStore>,
    pub(crate) history: Arc<SearchHistory>,
    pub(crate) metering: Metering,
    pub(crate) podcast_json: Arc<PodcastJsonCache>,
}

impl std::fmt::Debug for SearchService {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("SearchService")
            .field("engine", &self.engine)
            .finish_non_exhaustive()
    }
}

impl SearchService {
    /// A page of a podcast or episode search (`POST /api/v1/search/podcasts` and
    /// `/episodes`): `options` as the client sent them.
    pub async fn search(
        &self,
        requester: &Requester,
        endpoint: SearchEndpoint,
        options: Value,
    ) -> AppResult<SearchPage> {
        let started = Instant::now();
        let options = parse_search_options(options)?;
        let context = SearchRequestContext {
            endpoint,
            plan: requester.plan,
            now: Utc::now(),
        };
        let search = validate_search(&options, &context)?;
        let binding = CursorBinding::of(&search, &requester.usage_subject());
        let cursor = match search.cursor.as_deref() {
            None => None,
            Some(text) => Some(SearchCursor::read(&self.cursors, text, &binding)?),
        };
        let served = cursor.as_ref().map_or(0, |cursor| cursor.served);
        let remaining = u64::from(search.max_results).saturating_sub(served);
        if remaining == 0 {
            return Err(AppError::Forbidden(format!(
                "The {} plan returns at most {} results per search",
                requester.plan, search.max_results
            )));
        }
        let page_size = u64::from(search.page_size).min(remaining);
        let mut request = engine_request(
            &search,
            page_size as usize,
            cursor.as_ref().map(|cursor| cursor.engine.clone()),
        )?;
        if let Some(cursor) = &cursor {
            self.check_generation(cursor, &request).await?;
        }
        // The hits' podcast fields come from the snapshot's records (`hydrate`).
        request.podcast_fields = false;
        request
            .filters
            .exclude_podcast_ids
            .extend(self.blacklist(requester).await?);
        // An engine that cannot answer yet (the index not built, a cluster without its
        // nodes) and a full search pool refuse before the search is charged.
        self.engine.ready().await?;
        super::engine::admit()?;
        let charge = self
            .metering
            .charge(requester, UsageCounter::Search)
            .await?;
        let search_id = Uuid::new_v4().to_string();
        let snippets = Snippets {
            match_snippet: search.snippets.include_match_snippet,
            passage: false,
        };
        let engine_response = self.engine.search(request).await?;
        let post_started = Instant::now();
        let stored = self.unrecorded_podcasts(&engine_response.hits).await?;
        // The page's wire hits on the search pool.
        let service = self.clone();
        let plan = requester.plan;
        let (engine_response, hits) = on_search_pool(move || {
            let hits = service.hydrate(&engine_response.hits, plan, snippets, stored)?;
            Ok((engine_response, hits))
        })
        .await?;
        let post_processing = post_started.elapsed();
        let returned = hits.len() as u64;
        let next_served = served + returned;
        let cursor = engine_response
            .next_cursor
            .as_deref()
            .filter(|_| next_served < u64::from(search.max_results) && returned > 0)
            .map(|inner| {
                SearchCursor {
                    served: next_served,
                    generation: engine_response.generation,
                    engine: inner.to_owned(),
                }
                .write(&self.cursors, &binding)
            });
        let max_score = match &engine_response.hits {
            Hits::Podcasts(hits) => finite_max(hits.iter().map(|hit| hit.score)),
            Hits::Episodes(hits) => finite_max(hits.iter().map(|hit| hit.score)),
        };
        self.remember(requester, &search, &search_id, returned);
        let response = SearchResponse {
            search_mode: search.mode,
            search_id,
            search_options: search.echo.clone(),
            search_results_stats: SearchResultsStats {
                time: SearchStatsTime {
                    total_time_taken_ms: started.elapsed().as_secs_f64() * 1000.0,
                    total_search_time_ms: engine_response.timings.search_ms,
                    total_post_processing_time_ms: engine_response.timings.post_processing_ms
                        + post_processing.as_secs_f64() * 1000.0,
                },
                totals: SearchStatsTotals {
                    total_results_available: engine_response.total,
                    results_processed: returned,
                    results_returned: returned,
                    ..SearchStatsTotals::default()
                },
                filters: Default::default(),
            },
            result: SearchResult {
                total: SearchTotal {
                    value: engine_response.total,
                    relation: Some(TotalRelation::Eq),
                },
                max_score,
                hits_returned: returned,
                hits,
            },
            cursor,
        };
        Ok(SearchPage { charge, response })
    }

    /// A semantic search: episodes (the best transcript passage or description per
    /// episode, with the passage's timestamps) or podcasts, by meaning, with the index's
    /// vectors. `Unavailable` while the index has none.
    pub async fn semantic(
        &self,
        requester: &Requester,
        body: SemanticSearchBody,
    ) -> AppResult<(Charge, SemanticSearchResponse)> {
        let query = body.query.trim().to_owned();
        if query.chars().count() < 2 {
            return Err(AppError::Invalid(
                "query must be at least 2 characters".into(),
            ));
        }
        let (mode, mode_name) = match body.mode.as_deref().unwrap_or("episodes") {
            "episodes" => (SearchMode::Episodes, "episodes"),
            "podcasts" => (SearchMode::Podcasts, "podcasts"),
            other => {
                return Err(AppError::Invalid(format!(
                    "mode must be episodes or podcasts, got \"{other}\""
                )));
            }
        };
        let limit = body.limit.unwrap_or(10);
        if !(1..=podlens_indexer::MAX_SEMANTIC_LIMIT as u32).contains(&limit) {
            return Err(AppError::Invalid(format!(
                "limit must be between 1 and {}",
                podlens_indexer::MAX_SEMANTIC_LIMIT
            )));
        }
        let limit = limit.min(requester.plan.limits().max_results_per_search);
        let request = podlens_indexer::SemanticRequest {
            query: query.clone(),
            mode,
            limit: limit as usize,
            include_podcast_ids: body.podcast_ids.unwrap_or_default(),
            // The engine sets it (`crate::search::QueryEncoder`).
            encoded_query: None,
        };
        if !self.engine.generation().await?.vectors {
            return Err(podlens_indexer::IndexError::VectorsUnavailable.into());
        }
        // A full search pool refuses before the search is charged.
        super::engine::admit()?;
        let charge = self
            .metering
            .charge(requester, UsageCounter::Search)
            .await?;
        let blacklisted = self.blacklist(requester).await?;
        let snippets = Snippets {
            match_snippet: false,
            passage: true,
        };
        let mut response = self.engine.semantic_search(request).await?;
        // the team's blacklist, after the fact: the vector search takes no exclusions
        match &mut response.hits {
            Hits::Podcasts(hits) => hits.retain(|hit| !blacklisted.contains(&hit.podcast_id)),
            Hits::Episodes(hits) => hits.retain(|hit| !blacklisted.contains(&hit.podcast_id)),
        }
        // Semantic hits carry the index's podcast fields: nothing to read from it again.
        let service = self.clone();
        let plan = requester.plan;
        let (hits, response) = on_search_pool(move || {
            let hits = service.hydrate(&response.hits, plan, snippets, HashMap::new())?;
            Ok((hits, response))
        })
        .await?;
        Ok((
            charge,
            SemanticSearchResponse {
                query,
                search_mode: mode_name,
                search_id: Uuid::new_v4().to_string(),
                hits,
                search_time_ms: response.timings.total_ms,
            },
        ))
    }

    /// The podcasts the requester's team blacklisted (none for a signed-out client).
    async fn blacklist(&self, requester: &Requester) -> AppResult<Vec<Uuid>> {
        blacklist_of(
            &self.blacklists,
            self.accounts.as_ref(),
            requester.account.as_ref(),
        )
        .await
    }

    /// A cursor into the fused order of a hybrid search holds a position in that
    /// order, which a new index generation changes: such a cursor from a replaced
    /// generation is a conflict (restart without it). Keyword cursors hold the last
    /// hit's sort key and page on across generations.
    async fn check_generation(
        &self,
        cursor: &SearchCursor,
        request: &podlens_indexer::SearchRequest,
    ) -> AppResult<()> {
        let mode = request.mode.unwrap_or(SearchMode::Podcasts);
        let position =
            podlens_indexer::cursor::decode_position(&cursor.engine, mode, &request.sort)
                .map_err(|_| invalid_cursor())?;
        if !matches!(position, podlens_indexer::cursor::Position::Fused(_)) {
            return Ok(());
        }
        let current = self.engine.generation().await?.generation;
        if current != cursor.generation {
            return Err(AppError::Conflict(
                "The search results changed since this cursor was issued; restart the search without the cursor".into(),
            ));
        }
        Ok(())
    }

    fn remember(
        &self,
        requester: &Requester,
        search: &ValidatedSearch,
        search_id: &str,
        returned: u64,
    ) {
        self.history.remember(SearchRecord {
            search_id: search_id.to_owned(),
            subject: requester.usage_subject(),
            search_mode: search.mode.as_str().to_owned(),
            options_json: serde_json::to_string(&search.echo).unwrap_or_default(),
            result_count: returned,
            searched_at: Utc::now(),
        });
    }

    /// The index's fields of the podcast hits of a search that read no stored fields,
    /// for podcasts the snapshot has no record of (the two disagree for a moment while a
    /// generation is switched), by id.
    async fn unrecorded_podcasts(&self, hits: &Hits) -> AppResult<HashMap<Uuid, PodcastHit>> {
        let Hits::Podcasts(hits) = hits else {
            return Ok(HashMap::new());
        };
        let missing: Vec<Uuid> = {
            let catalog = self.catalog.snapshot()?.podcasts_view();
            hits.iter()
                .filter(|hit| !hit.stored && catalog.podcast(hit.podcast_id).is_none())
                .map(|hit| hit.podcast_id)
                .collect()
        };
        if missing.is_empty() {
            return Ok(HashMap::new());
        }
        Ok(self
            .engine
            .podcast_hits(missing)
            .await?
            .into_iter()
            .map(|hit| (hit.podcast_id, hit))
            .collect())
    }

    /// The wire hits, completed from the snapshot's records of their podcasts (their
    /// fields written once per podcast and kept: see `PodcastJsonCache`), or from
    /// `stored` (the index's fields of podcasts the snapshot lacks).
    fn hydrate(
        &self,
        hits: &Hits,
        plan: Plan,
        snippets: Snippets,
        mut stored: HashMap<Uuid, PodcastHit>,
    ) -> AppResult<Vec<WireHit>> {
        let snapshot = self.catalog.snapshot()?;
        let catalog = snapshot.podcasts_view();
        let written = |error: serde_json::Error| {
            AppError::Internal(format!("could not write a search hit: {error}"))
        };
        let ids: Vec<Uuid> = match hits {
            Hits::Podcasts(hits) => hits.iter().map(|hit| hit.podcast_id).collect(),
            Hits::Episodes(hits) => hits.iter().map(|hit| hit.podcast_id).collect(),
        };
        let podcasts = self
            .podcast_json
            .podcasts(&catalog, plan, &ids)
            .map_err(written)?;
        match hits {
            Hits::Podcasts(hits) => hits
                .iter()
                .zip(&podcasts)
                .map(|(hit, podcast)| {
                    let score = catalog.authority_score(hit.podcast_id);
                    let filled = stored.remove(&hit.podcast_id).map(|found| PodcastHit {
                        score: hit.score,
                        explanation: hit.explanation.clone(),
                        ..found
                    });
                    podcast_hit(
                        filled.as_ref().unwrap_or(hit),
                        podcast.as_deref(),
                        score,
                        plan,
                    )
                    .map_err(written)
                })
                .collect(),
            Hits::Episodes(hits) => hits
                .iter()
                .zip(&podcasts)
                .map(|(hit, podcast)| {
                    // An undated item shows when the catalog first saw it, as the
                    // episode pages do (every generation stores both dates).
                    let published_at = hit
                        .published_at
                        .or(hit.first_seen_at)
                        .unwrap_or_else(Utc::now);
                    let score = catalog.authority_score(hit.podcast_id);
                    episode_hit(hit, published_at, podcast.as_deref(), score, plan, snippets)
                        .map_err(written)
                })
                .collect(),
        }
    }
}

/// The best finite score of a page.
fn finite_max(scores: impl Iterator<Item = f32>) -> Option<f64> {
    scores
        .map(f64::from)
        .filter(|score| score.is_finite())
        .reduce(f64::max)
}

/// What a search cursor is bound to: the search's options (all but the cursor and
/// the page size) and the requester (their team, or their address when signed out).
struct CursorBinding {
    options: [u8; 8],
    requester: [u8; 8],
}

impl CursorBinding {
    fn of(search: &ValidatedSearch, subject: &UsageSubject) -> CursorBinding {
        let mut options = serde_json::to_value(&search.echo).unwrap_or_default();
        if let Some(fields) = options.as_object_mut() {
            fields.remove("cursor");
            fields.remove("pageSize");
        }
        let who = match subject {
            UsageSubject::User { team_id, .. } => format!("team:{team_id}"),
            UsageSubject::Client { address } => format!("client:{address}"),
        };
        CursorBinding {
            options: fingerprint(&options.to_string()),
            requester: fingerprint(&who),
        }
    }
}

/// A page cursor of a search: how many hits were served before the next page (the
/// plan's maximum results per search counts them), the index generation it was issued
/// on, and the engine's own cursor; signed, and bound to the search and the requester.
struct SearchCursor {
    served: u64,
    generation: u64,
    engine: String,
}

impl SearchCursor {
    fn write(&self, signer: &CursorSigner, binding: &CursorBinding) -> String {
        let payload = Payload::default()
            .u64(self.served)
            .u64(self.generation)
            .bytes8(binding.options)
            .bytes8(binding.requester)
            .text(&self.engine)
            .finish();
        signer.sign(CursorKind::Search, &payload)
    }

    /// The cursor of `text`: refused unless this service signed it for this search and
    /// this requester.
    fn read(signer: &CursorSigner, text: &str, binding: &CursorBinding) -> AppResult<SearchCursor> {
        let payload = signer.verify(CursorKind::Search, text)?;
        let mut reader = Reader::new(&payload);
        let served = reader.u64()?;
        let generation = reader.u64()?;
        let options = reader.bytes8()?;
        let requester = reader.bytes8()?;
        let engine = reader.text()?;
        reader.end()?;
        if options != binding.options || requester != binding.requester {
            return Err(invalid_cursor());
        }
        Ok(SearchCursor {
            served,
            generation,
            engine,
        })
    }
}

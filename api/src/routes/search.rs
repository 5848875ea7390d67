//! `POST /api/v1/search/podcasts` and `/episodes`: options parsed and validated by
//! `podlens_model::search` against the caller's plan, run by the indexer, hits
//! completed from the catalog snapshot, every search metered and remembered.

use std::collections::HashMap;

use axum::Router;
use axum::extract::State;
use axum::routing::post;
use chrono::Utc;
use podlens_indexer::{Hits, PodcastHit};
use podlens_model::search::{
    SearchEndpoint, SearchRequestContext, SearchResponse, SearchResult, SearchResultsStats,
    SearchStatsTime, SearchStatsTotals, SearchTotal, TotalRelation, ValidatedSearch,
};
use podlens_model::{Plan, parse_search_options, validate_search};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use uuid::Uuid;

use crate::auth::Caller;
use crate::envelope::{Envelope, SizedEnvelope};
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiJson, RawJson};
use crate::metering::{self, Metered};
use crate::state::{AppState, on_search_pool};
use podlens_app::accounts::{SearchRecord, UsageCounter};
use podlens_app::cursors::{CursorKind, Payload, Reader, fingerprint, invalid_cursor};
use podlens_app::search_plan::engine_request;

use crate::hits::{Snippets, WireHit, episode_hit, podcast_hit};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/search/podcasts", post(search_podcasts))
        .route("/api/v1/search/episodes", post(search_episodes))
        .route("/api/v1/search/semantic", post(semantic_search))
}

/// The body of a semantic search (a Podlens extension; the public search request's
/// `embeddings` term type stays rejected).
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SemanticSearchBody {
    /// What to find, in plain words (at least 2 characters).
    query: String,
    /// `episodes` (default: the best episode description or transcript passage per
    /// episode) or `podcasts` (podcast centroids).
    mode: Option<String>,
    /// Hits to return, 1-100 (default 10), capped by the plan's results per search.
    limit: Option<u32>,
    /// Only these podcasts.
    podcast_ids: Option<Vec<Uuid>>,
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

/// Semantic search: episodes (best transcript passage or description per episode, with
/// the passage's timestamps) or podcasts by meaning, with the index's 768-d static
/// embeddings. 503 when the index was built without the embedding model.
#[utoipa::path(post, path = "/api/v1/search/semantic", tag = "search",
    request_body = SemanticSearchBody,
    responses((status = 200, body = SemanticSearchResponse, description = "The hits, as in the search endpoints, with the cosine similarity as score"),
              (status = 400, description = "Invalid body"),
              (status = 429, description = "Search limit reached"),
              (status = 503, description = "The index has no vectors (built without the static embedding model)")))]
pub async fn semantic_search(
    State(state): State<AppState>,
    caller: Caller,
    ApiJson(body): ApiJson<SemanticSearchBody>,
) -> ApiResult<(Metered, Envelope<SemanticSearchResponse>)> {
    let query = body.query.trim().to_owned();
    if query.chars().count() < 2 {
        return Err(ApiError::BadRequest(
            "query must be at least 2 characters".into(),
        ));
    }
    let (mode, mode_name) = match body.mode.as_deref().unwrap_or("episodes") {
        "episodes" => (podlens_indexer::SearchMode::Episodes, "episodes"),
        "podcasts" => (podlens_indexer::SearchMode::Podcasts, "podcasts"),
        other => {
            return Err(ApiError::BadRequest(format!(
                "mode must be episodes or podcasts, got \"{other}\""
            )));
        }
    };
    let limit = body.limit.unwrap_or(10);
    if !(1..=podlens_indexer::MAX_SEMANTIC_LIMIT as u32).contains(&limit) {
        return Err(ApiError::BadRequest(format!(
            "limit must be between 1 and {}",
            podlens_indexer::MAX_SEMANTIC_LIMIT
        )));
    }
    let limit = limit.min(caller.plan.limits().max_results_per_search);
    let request = podlens_indexer::SemanticRequest {
        query: query.clone(),
        mode,
        limit: limit as usize,
        include_podcast_ids: body.podcast_ids.unwrap_or_default(),
    };
    if !state.engine.generation().await?.vectors {
        return Err(podlens_indexer::IndexError::VectorsUnavailable.into());
    }
    let metered = metering::charge(&state, &caller, UsageCounter::Search).await?;
    let blacklisted = podlens_app::accounts::blacklists::blacklist_of(
        &state.blacklists,
        &state.accounts,
        caller.account.as_ref(),
    )
    .await?;
    let plan = caller.plan;
    let snippets = Snippets {
        match_snippet: false,
        passage: true,
    };
    let mut response = state.engine.semantic_search(request).await?;
    // the team's blacklist, after the fact: the vector search takes no exclusions
    match &mut response.hits {
        Hits::Podcasts(hits) => hits.retain(|hit| !blacklisted.contains(&hit.podcast_id)),
        Hits::Episodes(hits) => hits.retain(|hit| !blacklisted.contains(&hit.podcast_id)),
    }
    let run_state = state.clone();
    // Semantic hits carry the index's podcast fields: nothing to read from it again.
    let (hits, response) = on_search_pool(move || {
        let hits = hydrate(&run_state, &response.hits, plan, snippets, HashMap::new())?;
        Ok((hits, response))
    })
    .await?;
    Ok((
        metered,
        Envelope(SemanticSearchResponse {
            query,
            search_mode: mode_name,
            search_id: Uuid::new_v4().to_string(),
            hits,
            search_time_ms: response.timings.total_ms,
        }),
    ))
}

/// Search podcasts.
#[utoipa::path(post, path = "/api/v1/search/podcasts", tag = "search",
    request_body(content = serde_json::Value, description = "Search options (searchTerms, filters, sortOrder, cursor, pageSize)"),
    responses((status = 200, description = "searchMode, searchId, searchOptions, searchResultsStats, result, cursor"),
              (status = 400, description = "Invalid options, with the specification's message"),
              (status = 429, description = "Search limit reached")))]
pub async fn search_podcasts(
    State(state): State<AppState>,
    caller: Caller,
    RawJson(body): RawJson,
) -> ApiResult<(Metered, SizedEnvelope<SearchResponse<WireHit>>)> {
    run(state, caller, body, SearchEndpoint::Podcasts).await
}

/// Search episodes (titles, descriptions, transcripts).
#[utoipa::path(post, path = "/api/v1/search/episodes", tag = "search",
    request_body(content = serde_json::Value, description = "Search options"),
    responses((status = 200, description = "searchMode, searchId, searchOptions, searchResultsStats, result, cursor"),
              (status = 400, description = "Invalid options, with the specification's message"),
              (status = 429, description = "Search limit reached")))]
pub async fn search_episodes(
    State(state): State<AppState>,
    caller: Caller,
    RawJson(body): RawJson,
) -> ApiResult<(Metered, SizedEnvelope<SearchResponse<WireHit>>)> {
    run(state, caller, body, SearchEndpoint::Episodes).await
}

async fn run(
    state: AppState,
    caller: Caller,
    body: Value,
    endpoint: SearchEndpoint,
) -> ApiResult<(Metered, SizedEnvelope<SearchResponse<WireHit>>)> {
    let started = std::time::Instant::now();
    let options = parse_search_options(body)?;
    let context = SearchRequestContext {
        endpoint,
        plan: caller.plan,
        now: Utc::now(),
    };
    let search = validate_search(&options, &context)?;
    let binding = CursorBinding::of(&search, &caller);
    let cursor = match search.cursor.as_deref() {
        None => None,
        Some(text) => Some(SearchCursor::read(&state, text, &binding)?),
    };
    let served = cursor.as_ref().map_or(0, |cursor| cursor.served);
    let remaining = u64::from(search.max_results).saturating_sub(served);
    if remaining == 0 {
        return Err(ApiError::Forbidden(format!(
            "The {} plan returns at most {} results per search",
            caller.plan, search.max_results
        )));
    }
    let page_size = u64::from(search.page_size).min(remaining);
    let mut request = engine_request(
        &search,
        page_size as usize,
        cursor.as_ref().map(|cursor| cursor.engine.clone()),
    )?;
    if let Some(cursor) = &cursor {
        cursor.check_generation(&state, &request).await?;
    }
    // The hits' podcast fields come from the snapshot's records (`hydrate`).
    request.podcast_fields = false;
    request.filters.exclude_podcast_ids.extend(
        podlens_app::accounts::blacklists::blacklist_of(
            &state.blacklists,
            &state.accounts,
            caller.account.as_ref(),
        )
        .await?,
    );
    let metered = metering::charge(&state, &caller, UsageCounter::Search).await?;
    let search_id = Uuid::new_v4().to_string();
    let plan = caller.plan;
    let run_state = state.clone();
    let snippets = Snippets {
        match_snippet: search.snippets.include_match_snippet,
        passage: false,
    };
    let engine_response = state.engine.search(request).await?;
    let post_started = std::time::Instant::now();
    let stored = unrecorded_podcasts(&state, &engine_response.hits).await?;
    // The page's wire hits on the search pool.
    let (engine_response, hits) = on_search_pool(move || {
        let hits = hydrate(&run_state, &engine_response.hits, plan, snippets, stored)?;
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
            .write(&state, &binding)
        });
    let finite_max = |scores: &mut dyn Iterator<Item = f32>| {
        scores
            .map(f64::from)
            .filter(|score| score.is_finite())
            .reduce(f64::max)
    };
    let max_score = match &engine_response.hits {
        Hits::Podcasts(hits) => finite_max(&mut hits.iter().map(|hit| hit.score)),
        Hits::Episodes(hits) => finite_max(&mut hits.iter().map(|hit| hit.score)),
    };
    remember(&state, &caller, &search, &search_id, returned);
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
    // The hits' JSON, and 4 KiB for the rest (the options echoed, the stats).
    let capacity = response
        .result
        .hits
        .iter()
        .map(|hit| hit.get().len() + 1)
        .sum::<usize>()
        + 4096;
    Ok((
        metered,
        SizedEnvelope {
            data: response,
            capacity,
        },
    ))
}

/// What a search cursor is bound to: the search's options (all but the cursor and
/// the page size) and the caller (their team, or their address when signed out).
struct CursorBinding {
    options: [u8; 8],
    caller: [u8; 8],
}

impl CursorBinding {
    fn of(search: &ValidatedSearch, caller: &Caller) -> CursorBinding {
        let mut options = serde_json::to_value(&search.echo).unwrap_or_default();
        if let Some(fields) = options.as_object_mut() {
            fields.remove("cursor");
            fields.remove("pageSize");
        }
        let who = match caller.usage_subject() {
            podlens_app::accounts::UsageSubject::User { team_id, .. } => format!("team:{team_id}"),
            podlens_app::accounts::UsageSubject::Client { address } => format!("client:{address}"),
        };
        CursorBinding {
            options: fingerprint(&options.to_string()),
            caller: fingerprint(&who),
        }
    }
}

/// A page cursor of a search: how many hits were served before the next page (the
/// plan's maximum results per search counts them), the index generation it was issued
/// on, and the engine's own cursor; signed, and bound to the search and the caller.
struct SearchCursor {
    served: u64,
    generation: u64,
    engine: String,
}

impl SearchCursor {
    fn write(&self, state: &AppState, binding: &CursorBinding) -> String {
        let payload = Payload::default()
            .u64(self.served)
            .u64(self.generation)
            .bytes8(binding.options)
            .bytes8(binding.caller)
            .text(&self.engine)
            .finish();
        state.cursors.sign(CursorKind::Search, &payload)
    }

    /// The cursor of `text`: refused (400) unless this server signed it for this search
    /// and this caller.
    fn read(state: &AppState, text: &str, binding: &CursorBinding) -> ApiResult<SearchCursor> {
        let payload = state.cursors.verify(CursorKind::Search, text)?;
        let mut reader = Reader::new(&payload);
        let served = reader.u64()?;
        let generation = reader.u64()?;
        let options = reader.bytes8()?;
        let caller = reader.bytes8()?;
        let engine = reader.text()?;
        reader.end()?;
        if options != binding.options || caller != binding.caller {
            return Err(ApiError::from(invalid_cursor()));
        }
        Ok(SearchCursor {
            served,
            generation,
            engine,
        })
    }

    /// A cursor into the fused order of a hybrid search holds a position in that
    /// order, which a new index generation changes: such a cursor from a replaced
    /// generation is a 409 (restart without it). Keyword cursors hold the last hit's
    /// sort key and page on across generations.
    async fn check_generation(
        &self,
        state: &AppState,
        request: &podlens_indexer::SearchRequest,
    ) -> ApiResult<()> {
        let mode = request
            .mode
            .unwrap_or(podlens_indexer::SearchMode::Podcasts);
        let position = podlens_indexer::cursor::decode_position(&self.engine, mode, &request.sort)
            .map_err(|_| invalid_cursor())?;
        if !matches!(position, podlens_indexer::cursor::Position::Fused(_)) {
            return Ok(());
        }
        let current = state.engine.generation().await?.generation;
        if current != self.generation {
            return Err(ApiError::Conflict(
                "The search results changed since this cursor was issued; restart the search without the cursor".into(),
            ));
        }
        Ok(())
    }
}

fn remember(
    state: &AppState,
    caller: &Caller,
    search: &ValidatedSearch,
    search_id: &str,
    returned: u64,
) {
    state.history.remember(SearchRecord {
        search_id: search_id.to_owned(),
        subject: caller.usage_subject(),
        search_mode: search.mode.as_str().to_owned(),
        options_json: serde_json::to_string(&search.echo).unwrap_or_default(),
        result_count: returned,
        searched_at: Utc::now(),
    });
}

/// The index's fields of the podcast hits of a search that read no stored fields, for
/// podcasts the snapshot has no record of (the two disagree for a moment while a
/// generation is switched), by id.
async fn unrecorded_podcasts(
    state: &AppState,
    hits: &Hits,
) -> ApiResult<HashMap<Uuid, PodcastHit>> {
    let Hits::Podcasts(hits) = hits else {
        return Ok(HashMap::new());
    };
    let missing: Vec<Uuid> = {
        let catalog = state.catalog.snapshot()?.podcasts_view();
        hits.iter()
            .filter(|hit| !hit.stored && catalog.podcast(hit.podcast_id).is_none())
            .map(|hit| hit.podcast_id)
            .collect()
    };
    if missing.is_empty() {
        return Ok(HashMap::new());
    }
    Ok(state
        .engine
        .podcast_hits(missing)
        .await?
        .into_iter()
        .map(|hit| (hit.podcast_id, hit))
        .collect())
}

/// The wire hits, completed from the snapshot's records of their podcasts (their
/// fields written once per podcast and kept: see `PodcastJsonCache`), or from `stored`
/// (the index's fields of podcasts the snapshot lacks).
fn hydrate(
    state: &AppState,
    hits: &Hits,
    plan: Plan,
    snippets: Snippets,
    mut stored: HashMap<Uuid, PodcastHit>,
) -> ApiResult<Vec<WireHit>> {
    let snapshot = state.catalog.snapshot()?;
    let catalog = snapshot.podcasts_view();
    let written = |error: serde_json::Error| {
        ApiError::Internal(format!("could not write a search hit: {error}"))
    };
    let ids: Vec<Uuid> = match hits {
        Hits::Podcasts(hits) => hits.iter().map(|hit| hit.podcast_id).collect(),
        Hits::Episodes(hits) => hits.iter().map(|hit| hit.podcast_id).collect(),
    };
    let podcasts = state
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
                // An undated item shows when the catalog first saw it, as the episode
                // pages do (every generation stores both dates).
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

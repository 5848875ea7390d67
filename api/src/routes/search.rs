//! `POST /api/v1/search/podcasts` and `/episodes`: options parsed and validated by
//! `podlens_model::search` against the caller's plan, run by the indexer, hits
//! completed from the catalog snapshot, every search metered and remembered.

use axum::Router;
use axum::extract::State;
use axum::routing::post;
use chrono::Utc;
use podlens_indexer::{EpisodeHit, Hits, PodcastHit};
use podlens_model::catalog::PodcastRecord;
use podlens_model::plans::PodcastExtraField;
use podlens_model::search::{
    SearchEndpoint, SearchRequestContext, SearchResponse, SearchResult, SearchResultsStats,
    SearchStatsTime, SearchStatsTotals, SearchTotal, TotalRelation, ValidatedSearch,
};
use podlens_model::{Plan, parse_search_options, validate_search};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use uuid::Uuid;

use crate::accounts::{SearchRecord, UsageCounter};
use crate::auth::Caller;
use crate::cursors::{CursorKind, Payload, Reader, fingerprint, invalid_cursor};
use crate::envelope::Envelope;
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiJson, RawJson};
use crate::metering::{self, Metered};
use crate::routes::teams;
use crate::search_plan::engine_request;
use crate::state::{AppState, blocking};

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
    hits: Vec<Value>,
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
    let index_state = state.clone();
    if !blocking(move || Ok(index_state.catalog.index()?.has_vectors())).await? {
        return Err(podlens_indexer::IndexError::VectorsUnavailable.into());
    }
    let metered = metering::charge(&state, &caller, UsageCounter::Search).await?;
    let run_state = state.clone();
    let account = caller.account.clone();
    let response = blocking(move || {
        let blacklisted = teams::blacklisted_podcast_ids(&run_state, account.as_ref())?;
        let mut response = run_state
            .catalog
            .index()?
            .semantic_search(&request)
            .map_err(|error| match error {
                podlens_indexer::IndexError::InvalidRequest(message) => {
                    ApiError::BadRequest(message)
                }
                other => other.into(),
            })?;
        // the team's blacklist, after the fact: the vector search takes no exclusions
        match &mut response.hits {
            Hits::Podcasts(hits) => hits.retain(|hit| !blacklisted.contains(&hit.podcast_id)),
            Hits::Episodes(hits) => hits.retain(|hit| !blacklisted.contains(&hit.podcast_id)),
        }
        Ok(response)
    })
    .await?;
    let plan = caller.plan;
    let hydrate_state = state.clone();
    let found = response.hits.clone();
    let mut hits =
        blocking(move || hydrate(&hydrate_state, &found, plan, Snippets::default())).await?;
    // the passage that matched, with its place in the audio
    if let Hits::Episodes(found) = &response.hits {
        for (value, hit) in hits.iter_mut().zip(found) {
            if let (Some(fields), Some(passage)) = (value.as_object_mut(), hit.snippets.first()) {
                fields.insert(
                    "passage".into(),
                    json!({
                        "chunkId": passage.chunk_id,
                        "text": passage.fragment,
                        "startSecond": passage.start_second,
                        "endSecond": passage.end_second,
                    }),
                );
            }
        }
    }
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
) -> ApiResult<(Metered, Envelope<SearchResponse<Value>>)> {
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
) -> ApiResult<(Metered, Envelope<SearchResponse<Value>>)> {
    run(state, caller, body, SearchEndpoint::Episodes).await
}

async fn run(
    state: AppState,
    caller: Caller,
    body: Value,
    endpoint: SearchEndpoint,
) -> ApiResult<(Metered, Envelope<SearchResponse<Value>>)> {
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
    let blacklist_state = state.clone();
    let account = caller.account.clone();
    let blacklisted =
        blocking(move || teams::blacklisted_podcast_ids(&blacklist_state, account.as_ref()))
            .await?;
    request.filters.exclude_podcast_ids.extend(blacklisted);
    let metered = metering::charge(&state, &caller, UsageCounter::Search).await?;
    let search_id = Uuid::new_v4().to_string();
    let plan = caller.plan;
    let run_state = state.clone();
    let engine_response =
        blocking(move || Ok(run_state.catalog.index()?.search(&request)?)).await?;
    let post_started = std::time::Instant::now();
    let hydrate_state = state.clone();
    let hits_response = engine_response.clone();
    let snippets = Snippets {
        match_snippet: search.snippets.include_match_snippet,
    };
    let hits =
        blocking(move || hydrate(&hydrate_state, &hits_response.hits, plan, snippets)).await?;
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
    let max_score = hits
        .iter()
        .filter_map(|hit| hit.get("score").and_then(Value::as_f64))
        .fold(None, |best: Option<f64>, score| {
            Some(best.map_or(score, |b| b.max(score)))
        });
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
                    + post_started.elapsed().as_secs_f64() * 1000.0,
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
    Ok((metered, Envelope(response)))
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
            crate::accounts::UsageSubject::User { team_id, .. } => format!("team:{team_id}"),
            crate::accounts::UsageSubject::Client { address } => format!("client:{address}"),
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
            return Err(invalid_cursor());
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
        let index_state = state.clone();
        let current = blocking(move || {
            Ok(index_state
                .catalog
                .index()?
                .generation()
                .manifest
                .generation)
        })
        .await?;
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

/// How an episode hit's transcript passages are returned.
#[derive(Debug, Clone, Copy, Default)]
struct Snippets {
    /// `includeMatchSnippet`: the best passage as `matchSnippet`, and as the one entry of
    /// `transcriptHighlights`.
    match_snippet: bool,
}

/// The wire hits, completed from the catalog records of their podcasts.
fn hydrate(state: &AppState, hits: &Hits, plan: Plan, snippets: Snippets) -> ApiResult<Vec<Value>> {
    let podcast_ids: Vec<Uuid> = match hits {
        Hits::Podcasts(hits) => hits.iter().map(|hit| hit.podcast_id).collect(),
        Hits::Episodes(hits) => hits.iter().map(|hit| hit.podcast_id).collect(),
    };
    // Read in place: a page of hits copies no catalog record.
    let catalog = state.catalog.snapshot()?.podcasts_view();
    let mut values: Vec<Value> = match hits {
        Hits::Podcasts(hits) => hits
            .iter()
            .map(|hit| podcast_hit(hit, catalog.podcast(hit.podcast_id), plan))
            .collect(),
        Hits::Episodes(hits) => hits
            .iter()
            .map(|hit| episode_hit(state, hit, catalog.podcast(hit.podcast_id), plan, snippets))
            .collect::<ApiResult<_>>()?,
    };
    for (value, id) in values.iter_mut().zip(&podcast_ids) {
        if let (Some(fields), Some(score)) = (value.as_object_mut(), catalog.authority_score(*id)) {
            for (name, number) in [
                ("podcastAuthorityScoreTotal", score.authority_score),
                ("podcastAuthorityScoreQuality", score.quality_score),
                ("podcastAuthorityScoreSocial", score.social_score),
                ("podcastAuthorityScoreYoutube", score.youtube_score),
                ("podcastAuthorityScoreEngagement", score.engagement_score),
            ] {
                fields.insert(name.into(), json!(number));
            }
        }
    }
    Ok(values)
}

/// The podcast fields every hit carries (both modes), as the SDK requires them.
fn podcast_fields(
    podcast_id: Uuid,
    record: Option<&PodcastRecord>,
    plan: Plan,
    fallback_title: &str,
) -> Map<String, Value> {
    let title = record
        .map(|record| record.podcast_rss_title.clone())
        .unwrap_or_else(|| fallback_title.to_owned());
    let value = json!({
        "podcastId": podcast_id.to_string(),
        "podcastSlug": record.map(|r| r.podcast_slug.clone()).unwrap_or_default(),
        "podcastRssTitle": title,
        "podcastRssTitleLatest": title,
        "podcastRssDescription": record.and_then(|r| r.podcast_rss_description.clone()),
        "podcastRssDescriptionNoHtml": record.and_then(|r| r.podcast_rss_description_no_html.clone()),
        "podcastRssAuthor": record.and_then(|r| r.podcast_rss_author.clone()),
        "podcastImageUrl": record.and_then(|r| r.podcast_image_url.clone()),
        "podcastWebsiteUrl": record.and_then(|r| r.podcast_website_url.clone()),
        "podcastRssFeedUrl": record.map(|r| r.podcast_rss_feed_url.clone()),
        "podcastHostNames": record.map(|r| r.podcast_host_names.clone()),
        "rssLanguage": record.and_then(|r| r.rss_language.clone()),
        "rssCategories": record.map(|r| r.rss_categories.clone()),
        "foundedDate": record.and_then(|r| r.founded_date),
        "lastEpisodeDate": record.and_then(|r| r.last_episode_date),
        "updateFrequency": record.and_then(|r| r.update_frequency.clone()),
        "totalEpisodes": record.map(|r| r.total_episodes),
        "totalTranscripts": record.map(|r| r.total_transcripts),
        "transcriptionMode": "none",
        "podcastAuthorityScoreTotal": null,
        "podcastAuthorityScoreQuality": null,
        "podcastAuthorityScoreSocial": null,
        "podcastAuthorityScoreYoutube": null,
        "podcastAuthorityScoreEngagement": null,
        "youtubeChannelCount": null,
        "youtubeTotalSubscribers": null,
        "youtubeTotalVideos": null,
        "youtubeTotalViews": null,
    });
    let Value::Object(mut fields) = value else {
        return Map::new();
    };
    let extras = plan.podcast_extra_fields();
    if let Some(record) = record {
        if extras.contains(&PodcastExtraField::AppleId) {
            fields.insert(
                "appleId".into(),
                json!(
                    record
                        .apple_id
                        .as_deref()
                        .and_then(|id| id.parse::<u64>().ok())
                ),
            );
            fields.insert("spotifyId".into(), json!(record.spotify_id));
        }
        if extras.contains(&PodcastExtraField::Guests) {
            fields.insert("podcastHasGuests".into(), json!(record.podcast_has_guests));
        }
        if extras.contains(&PodcastExtraField::PrimaryContact) {
            fields.insert(
                "podcastEmails".into(),
                json!(record.podcast_owner_email.iter().collect::<Vec<_>>()),
            );
        }
        if extras.contains(&PodcastExtraField::Genres) {
            fields.insert(
                "podcastPodlensGenres".into(),
                json!(record.podcast_podlens_genres),
            );
        }
    }
    fields
}

fn podcast_hit(hit: &PodcastHit, record: Option<&PodcastRecord>, plan: Plan) -> Value {
    let mut fields = podcast_fields(hit.podcast_id, record, plan, &hit.title);
    fields.insert("score".into(), json!(f64::from(hit.score)));
    if record.is_none() {
        fields.insert("podcastSlug".into(), json!(hit.slug));
        fields.insert("podcastImageUrl".into(), json!(hit.image_url));
        fields.insert("rssLanguage".into(), json!(hit.language));
        fields.insert("foundedDate".into(), json!(hit.founded_date));
        fields.insert("lastEpisodeDate".into(), json!(hit.last_episode_date));
    }
    Value::Object(fields)
}

fn episode_hit(
    state: &AppState,
    hit: &EpisodeHit,
    record: Option<&PodcastRecord>,
    plan: Plan,
    snippets: Snippets,
) -> ApiResult<Value> {
    let fallback_title = hit.podcast_title.clone().unwrap_or_default();
    let mut fields = podcast_fields(hit.podcast_id, record, plan, &fallback_title);
    let published_at = match hit.published_at {
        Some(at) => at,
        // The engine keeps no date for undated items; the catalog's first-seen time
        // is what the episode pages show for them too.
        None => state
            .catalog
            .snapshot()?
            .episode_by_id(hit.episode_id)?
            .map(|episode| episode.episode_created_at)
            .unwrap_or_else(Utc::now),
    };
    // The best matching passage, matches in <em>; absent for a search without a
    // transcript term or an episode without a matching passage.
    let best = hit.snippets.first().map(|snippet| snippet.html.clone());
    let highlights: Vec<String> = if snippets.match_snippet {
        best.iter().cloned().collect()
    } else {
        hit.snippets.iter().map(|s| s.html.clone()).collect()
    };
    let episode = json!({
        "episodeId": hit.episode_id.to_string(),
        "episodeSlug": hit.slug,
        "episodeRssTitle": hit.title,
        "episodeRssDescription": hit.description,
        "episodeEnclosureUrl": hit.enclosure_url.clone().unwrap_or_default(),
        "episodeImageUrl": hit.image_url,
        "episodeWebUrl": hit.web_url,
        "episodeRssPublishedAt": published_at,
        "episodeDurationSeconds": hit.duration_seconds,
        "episodeHasTranscript": hit.has_transcript,
        "episodePodcastTitleDenormalized": hit.podcast_title,
        "transcriptId": hit.transcript_id.map(|id| id.to_string()),
        "transcriptTextSnippet": hit.transcript_start,
        "transcriptHighlights": highlights,
        "score": f64::from(hit.score),
    });
    if let Value::Object(episode) = episode {
        fields.extend(episode);
    }
    if snippets.match_snippet
        && let Some(best) = best
    {
        fields.insert("matchSnippet".into(), json!(best));
    }
    Ok(Value::Object(fields))
}

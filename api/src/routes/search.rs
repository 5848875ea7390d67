//! `POST /api/v1/search/podcasts`, `/episodes` and `/semantic`: the caller and the body
//! extracted, the search run by `podlens_app::search::SearchService`, its page answered
//! with the charge's rate-limit headers.

use axum::Router;
use axum::extract::State;
use axum::routing::post;
use podlens_app::search::hits::WireHit;
use podlens_app::search::{SemanticSearchBody, SemanticSearchResponse};
use podlens_model::search::{SearchEndpoint, SearchResponse};

use crate::auth::Caller;
use crate::envelope::{Envelope, SizedEnvelope};
use crate::error::ApiResult;
use crate::extract::{ApiJson, RawJson};
use crate::metering::Metered;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/search/podcasts", post(search_podcasts))
        .route("/api/v1/search/episodes", post(search_episodes))
        .route("/api/v1/search/semantic", post(semantic_search))
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
    let (charge, response) = state.searches().semantic(&caller.requester(), body).await?;
    Ok((Metered(charge), Envelope(response)))
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
    search(state, caller, body, SearchEndpoint::Podcasts).await
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
    search(state, caller, body, SearchEndpoint::Episodes).await
}

async fn search(
    state: AppState,
    caller: Caller,
    body: serde_json::Value,
    endpoint: SearchEndpoint,
) -> ApiResult<(Metered, SizedEnvelope<SearchResponse<WireHit>>)> {
    let page = state
        .searches()
        .search(&caller.requester(), endpoint, body)
        .await?;
    let capacity = page.json_capacity();
    Ok((
        Metered(page.charge),
        SizedEnvelope {
            data: page.response,
            capacity,
        },
    ))
}

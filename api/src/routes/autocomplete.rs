//! What the search box and form offer as one types or picks: `GET
//! /api/v1/autocomplete/podcasts` (podcasts and words completing a prefix) and `GET
//! /api/v1/search/facets` (the catalog's languages and genres with their podcast counts,
//! for the filters' pick-lists).

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use podlens_data::snapshot::SearchFacets;
use podlens_model::entities::PodcastSummary;
use serde::{Deserialize, Serialize};

use crate::envelope::Envelope;
use crate::error::ApiResult;
use crate::extract::ApiQuery;
use crate::state::{AppState, blocking};
use podlens_app::convert;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/autocomplete/podcasts", get(autocomplete))
        .route("/api/v1/search/facets", get(facets))
}

/// `data` of the facets: each list most podcasts first.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct FacetsResponse {
    /// Primary language subtags (`en`), as the `languages` filter takes them.
    #[schema(value_type = Vec<Object>)]
    languages: Vec<podlens_data::snapshot::FacetCount>,
    /// Genres, lowercased, as the genre filters take them.
    #[schema(value_type = Vec<Object>)]
    genres: Vec<podlens_data::snapshot::FacetCount>,
    /// Whether the index has its vectors: searches are hybrid (keyword and vectors) and
    /// `POST /api/v1/search/semantic` answers. False while they are still being built
    /// (the demo builds them after the app is up): searches are keyword-only, and
    /// semantic search answers 503 until the index with vectors is published, when the
    /// server switches to it by itself.
    #[serde(rename = "semanticSearch")]
    semantic_search: bool,
}

/// The values the catalog holds for the search filters' pick-lists (languages and
/// genres), each with how many podcasts have it; read from the loaded snapshot.
#[utoipa::path(get, path = "/api/v1/search/facets", tag = "autocomplete",
    responses((status = 200, body = FacetsResponse,
               description = "languages[] and genres[], each {value, count}, most podcasts first; semanticSearch: whether searches are hybrid and semantic search answers")))]
pub async fn facets(State(state): State<AppState>) -> ApiResult<Envelope<FacetsResponse>> {
    let semantic_search = state
        .engine
        .generation()
        .await
        .is_ok_and(|generation| generation.vectors);
    let catalog = state.catalog.clone();
    let SearchFacets { languages, genres } =
        blocking(move || Ok(catalog.snapshot()?.search_facets())).await?;
    Ok(Envelope(FacetsResponse {
        languages,
        genres,
        semantic_search,
    }))
}

#[derive(Debug, Deserialize)]
pub struct AutocompleteQuery {
    query: Option<String>,
}

/// A podcast suggestion: the summary plus its episode count.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SuggestedPodcast {
    #[serde(flatten)]
    summary: PodcastSummary,
    episode_count: Option<u64>,
}

#[derive(Debug, Serialize)]
pub struct AutocompleteResponse {
    podcasts: Vec<SuggestedPodcast>,
    words: Vec<String>,
}

/// Suggestions per call.
const SUGGESTIONS: usize = 10;

/// Podcasts whose titles complete the query, and the words completing its last word.
#[utoipa::path(get, path = "/api/v1/autocomplete/podcasts", tag = "autocomplete",
    params(("query" = String, Query, description = "What was typed so far (at most 32 words and 500 characters)")),
    responses((status = 200, description = "podcasts[] and words[]"),
              (status = 400, description = "The query is longer than 32 words or 500 characters")))]
pub async fn autocomplete(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<AutocompleteQuery>,
) -> ApiResult<Envelope<AutocompleteResponse>> {
    let text = query.query.unwrap_or_default();
    podlens_model::search::check_autocomplete_query(&text)?;
    if text.trim().is_empty() {
        return Ok(Envelope(AutocompleteResponse {
            podcasts: Vec::new(),
            words: Vec::new(),
        }));
    }
    let suggestions = state.engine.autocomplete(text, SUGGESTIONS).await?;
    blocking(move || {
        let ids: Vec<_> = suggestions
            .podcasts
            .iter()
            .map(|hit| hit.podcast_id)
            .collect();
        let records = state.catalog.snapshot()?.podcasts_by_ids(&ids)?;
        let podcasts = ids
            .iter()
            .filter_map(|id| records.iter().find(|record| record.podcast_id == *id))
            .map(|record| SuggestedPodcast {
                summary: convert::podcast_summary(record),
                episode_count: u64::try_from(record.total_episodes).ok(),
            })
            .collect();
        Ok(Envelope(AutocompleteResponse {
            podcasts,
            words: suggestions.words,
        }))
    })
    .await
}

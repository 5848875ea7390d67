//! `GET /api/v1/autocomplete/podcasts`: podcasts and words completing a prefix.

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use podlens_model::entities::PodcastSummary;
use serde::{Deserialize, Serialize};

use crate::convert;
use crate::envelope::Envelope;
use crate::error::ApiResult;
use crate::extract::ApiQuery;
use crate::state::{AppState, blocking};

pub fn router() -> Router<AppState> {
    Router::new().route("/api/v1/autocomplete/podcasts", get(autocomplete))
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
    params(("query" = String, Query, description = "What was typed so far")),
    responses((status = 200, description = "podcasts[] and words[]")))]
pub async fn autocomplete(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<AutocompleteQuery>,
) -> ApiResult<Envelope<AutocompleteResponse>> {
    let text = query.query.unwrap_or_default();
    if text.trim().is_empty() {
        return Ok(Envelope(AutocompleteResponse {
            podcasts: Vec::new(),
            words: Vec::new(),
        }));
    }
    blocking(move || {
        let suggestions = state.catalog.index()?.autocomplete(&text, SUGGESTIONS)?;
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

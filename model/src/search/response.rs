//! The response of both search routes, as the SDK validates it
//! (`SearchPodcastsResponse`, `SearchEpisodesResponse`): `searchMode`, `searchId`,
//! `searchOptions` (the validated options echoed back), `searchResultsStats`, `result`
//! and `cursor`. Hits are generic: podcast and episode hit shapes belong to the
//! entities.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::mode::SearchMode;
use super::options::SearchOptions;
use crate::kinds::wire_enum;

wire_enum! {
    /// Whether `total.value` is exact (`eq`) or a lower bound (`gte`).
    TotalRelation { Eq => "eq", Gte => "gte" }
}

/// The `data` of a search response. `cursor` is always written, `null` on the last page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchResponse<H> {
    pub search_mode: SearchMode,
    pub search_id: String,
    pub search_options: SearchOptions,
    pub search_results_stats: SearchResultsStats,
    pub result: SearchResult<H>,
    pub cursor: Option<String>,
}

/// Hits and their totals. `maxScore` is always written, `null` without scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchResult<H> {
    pub total: SearchTotal,
    pub max_score: Option<f64>,
    pub hits_returned: u64,
    pub hits: Vec<H>,
}

/// How many documents match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchTotal {
    pub value: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relation: Option<TotalRelation>,
}

/// Timings, totals and filter statistics of one search.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchResultsStats {
    pub time: SearchStatsTime,
    pub totals: SearchStatsTotals,
    pub filters: SearchStatsFilters,
}

/// Milliseconds spent.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchStatsTime {
    pub total_time_taken_ms: f64,
    pub total_search_time_ms: f64,
    pub total_post_processing_time_ms: f64,
}

/// Counts along the way from matches to returned hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchStatsTotals {
    pub blacklisted_podcasts: u64,
    pub project_excluded_podcasts: u64,
    pub total_results_available: u64,
    pub results_processed: u64,
    pub results_filtered: u64,
    pub results_returned: u64,
}

/// Relevancy statistics of a project search.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchStatsFilters {
    /// Hits per relevancy rating, keyed by the rating.
    pub relevancy_scores_totals: BTreeMap<String, f64>,
    /// Relevancy per podcast id, when the project asked for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project_podcast_relevancy_scores: Option<BTreeMap<String, Option<ProjectPodcastRelevancy>>>,
}

/// One podcast's relevancy review for a project.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProjectPodcastRelevancy {
    pub answer: RelevancyAnswer,
}

/// A relevancy review: rating 1–5 with its reasoning.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RelevancyAnswer {
    pub rating: u8,
    pub justification: String,
    pub strengths: serde_json::Value,
    pub concerns: serde_json::Value,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelope_has_the_sdk_keys_and_nullable_fields() {
        let response: SearchResponse<serde_json::Value> = SearchResponse {
            search_mode: SearchMode::Episodes,
            search_id: "0b6f3c1e-5d2a-4e8b-9f7a-1c2d3e4f5a6b".into(),
            search_options: SearchOptions {
                has_transcript: Some(true),
                ..Default::default()
            },
            search_results_stats: SearchResultsStats::default(),
            result: SearchResult {
                total: SearchTotal {
                    value: 0,
                    relation: Some(TotalRelation::Eq),
                },
                max_score: None,
                hits_returned: 0,
                hits: Vec::new(),
            },
            cursor: None,
        };
        let value = serde_json::to_value(&response).unwrap();
        assert_eq!(
            value,
            serde_json::json!({
                "searchMode": "episodes",
                "searchId": "0b6f3c1e-5d2a-4e8b-9f7a-1c2d3e4f5a6b",
                "searchOptions": {"hasTranscript": true},
                "searchResultsStats": {
                    "time": {"totalTimeTakenMs": 0.0, "totalSearchTimeMs": 0.0,
                             "totalPostProcessingTimeMs": 0.0},
                    "totals": {"blacklistedPodcasts": 0, "projectExcludedPodcasts": 0,
                               "totalResultsAvailable": 0, "resultsProcessed": 0,
                               "resultsFiltered": 0, "resultsReturned": 0},
                    "filters": {"relevancyScoresTotals": {}}
                },
                "result": {"total": {"value": 0, "relation": "eq"}, "maxScore": null,
                           "hitsReturned": 0, "hits": []},
                "cursor": null
            })
        );
        let back: SearchResponse<serde_json::Value> = serde_json::from_value(value).unwrap();
        assert_eq!(back, response);
    }
}

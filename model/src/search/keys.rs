//! Every top-level key of the search options, what kind of option it is, and whether
//! only episode searches have it (the keys of the SDK's episode variant that its
//! podcast variant lacks). Plan gating of the filters lives in
//! [`crate::plans::SEARCH_FILTER_TIERS`].

use serde_json::Value;

use super::error::SearchError;
use super::options::SearchOptions;

/// What a top-level search option does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionKind {
    /// `cursor`, `pageSize`.
    Paging,
    /// `searchTerms`, `searchTermGroups`.
    Terms,
    /// `sortOrder`.
    Sort,
    /// Snippet and highlight options of episode results.
    Output,
    /// `project`, `projectId`: searching on behalf of a project.
    Project,
    /// Restricts the results.
    Filter,
}

/// One top-level key of the search options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchOptionKey {
    pub name: &'static str,
    pub kind: OptionKind,
    pub episodes_only: bool,
}

const fn key(name: &'static str, kind: OptionKind, episodes_only: bool) -> SearchOptionKey {
    SearchOptionKey {
        name,
        kind,
        episodes_only,
    }
}

use OptionKind::{Filter, Output, Paging, Project, Sort, Terms};

/// The keys in the SDK's order.
pub const SEARCH_OPTION_KEYS: &[SearchOptionKey] = &[
    key("cursor", Paging, false),
    key("pageSize", Paging, false),
    key("project", Project, false),
    key("projectId", Project, false),
    key("searchTerms", Terms, false),
    key("searchTermGroups", Terms, false),
    key("excludeItunesGenres", Filter, false),
    key("excludePodcastIds", Filter, false),
    key("excludeEpisodeIds", Filter, false),
    key("explicit", Filter, false),
    key("foundedSince", Filter, false),
    key("hasPrimaryContact", Filter, false),
    key("hasSocials", Filter, false),
    key("includeItunesGenres", Filter, false),
    key("includePodcastIds", Filter, false),
    key("languages", Filter, false),
    key("lastEpisodeDateSince", Filter, false),
    key("maxTotalEpisodes", Filter, false),
    key("minCastboxPlays", Filter, false),
    key("minCastboxSubscribers", Filter, false),
    key("minItunesRating", Filter, false),
    key("minItunesRatingCount", Filter, false),
    key("minSpotifyRating", Filter, false),
    key("minSpotifyRatingCount", Filter, false),
    key("minTotalEpisodes", Filter, false),
    key("podcastCountries", Filter, false),
    key("podcastHasGuests", Filter, false),
    key("podcastAuthorityScore", Filter, false),
    key("podcastAudienceEstimatedMonthlyListeners", Filter, false),
    key("sortOrder", Sort, false),
    key("includeMatchSnippet", Output, true),
    key("includeTranscriptSnippet", Output, true),
    key("transcriptSnippetLength", Output, true),
    key("transcriptHighlightLength", Output, true),
    key("includeEpisodeIds", Filter, true),
    key("publishedSince", Filter, true),
    key("publishedBefore", Filter, true),
    key("hasTranscript", Filter, true),
    key("episodeUpdatedSince", Filter, true),
    key("episodeCreatedSince", Filter, true),
    key("personFilters", Filter, true),
    key("sponsorFilters", Filter, true),
];

/// The description of top-level key `name`, if it is one.
pub fn option_key(name: &str) -> Option<&'static SearchOptionKey> {
    SEARCH_OPTION_KEYS.iter().find(|key| key.name == name)
}

/// Whether a wire value counts as set: not null and not an empty list.
fn is_set(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Array(items) => !items.is_empty(),
        _ => true,
    }
}

/// The keys `options` sets, in table order. An empty list counts as not set.
pub(crate) fn set_keys(
    options: &SearchOptions,
) -> Result<Vec<&'static SearchOptionKey>, SearchError> {
    let value = serde_json::to_value(options)
        .map_err(|error| SearchError::invalid(format!("options do not serialize: {error}")))?;
    let Value::Object(map) = value else {
        return Err(SearchError::invalid("options are not an object"));
    };
    Ok(SEARCH_OPTION_KEYS
        .iter()
        .filter(|key| map.get(key.name).is_some_and(is_set))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_round_trips_through_the_wire_type() {
        // A body setting every key must parse, and serialize back with the same keys.
        let body: serde_json::Value = serde_json::from_str(
            r#"{
            "cursor": "c", "pageSize": 10, "project": {"projectId": "p"}, "projectId": "p",
            "searchTerms": [{"searchTerm": "ai", "searchType": "text",
                             "searchTargets": ["transcript"]}],
            "searchTermGroups": [{"searchTerms": [{"searchTerm": "ml", "searchType": "text",
                                                   "searchTargets": ["episode-title"]}]}],
            "excludeItunesGenres": ["news"], "excludePodcastIds": ["x"],
            "excludeEpisodeIds": ["y"], "explicit": "clean", "foundedSince": "2020-01-01",
            "hasPrimaryContact": true, "hasSocials": ["youtube"], "includeItunesGenres": ["tech"],
            "includePodcastIds": ["z"], "languages": ["en"], "lastEpisodeDateSince": "2024-01-01",
            "maxTotalEpisodes": 9, "minCastboxPlays": 1, "minCastboxSubscribers": 1,
            "minItunesRating": 4.5, "minItunesRatingCount": 3, "minSpotifyRating": 4,
            "minSpotifyRatingCount": 2, "minTotalEpisodes": 0, "podcastCountries": ["us"],
            "podcastHasGuests": true,
            "podcastAuthorityScore": {"authorityScore": {"min": 1, "max": null}},
            "podcastAudienceEstimatedMonthlyListeners": {"min": 5},
            "sortOrder": [{"field": "relevance"}], "includeMatchSnippet": true,
            "includeTranscriptSnippet": true, "transcriptSnippetLength": 200,
            "transcriptHighlightLength": 100, "includeEpisodeIds": ["e"],
            "publishedSince": "2024-01-01", "publishedBefore": "2025-01-01",
            "hasTranscript": true, "episodeUpdatedSince": "2024-01-01",
            "episodeCreatedSince": "2024-01-01",
            "personFilters": [{"name": "Ada", "type": "guest"}],
            "sponsorFilters": [{"name": "Acme"}]
        }"#,
        )
        .unwrap();
        let object = body.as_object().unwrap();
        assert_eq!(object.len(), SEARCH_OPTION_KEYS.len());
        for key in SEARCH_OPTION_KEYS {
            assert!(object.contains_key(key.name), "{}", key.name);
        }
        let options: SearchOptions = serde_json::from_value(body.clone()).unwrap();
        let set: Vec<&str> = set_keys(&options)
            .unwrap()
            .iter()
            .map(|key| key.name)
            .collect();
        let expected: Vec<&str> = SEARCH_OPTION_KEYS.iter().map(|key| key.name).collect();
        assert_eq!(set, expected);
    }

    #[test]
    fn empty_lists_and_nulls_are_not_set() {
        let options: SearchOptions = serde_json::from_value(serde_json::json!({
            "languages": [], "hasTranscript": null, "explicit": "explicit"
        }))
        .unwrap();
        let set: Vec<&str> = set_keys(&options)
            .unwrap()
            .iter()
            .map(|key| key.name)
            .collect();
        assert_eq!(set, ["explicit"]);
    }

    #[test]
    fn every_filter_has_a_plan_tier_and_back() {
        for key in SEARCH_OPTION_KEYS {
            let gated = crate::plans::Plan::minimum_tier_for_filter(key.name).is_some();
            let should_be = matches!(key.kind, OptionKind::Filter | OptionKind::Project)
                || key.name == "pageSize";
            assert_eq!(gated, should_be, "{}", key.name);
        }
        for (name, _) in crate::plans::SEARCH_FILTER_TIERS {
            assert!(option_key(name).is_some(), "{name}");
        }
    }
}

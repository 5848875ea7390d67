//! The search-mode rule of SPEC.md §4: a search runs in episode mode when any term
//! targets an episode title, an episode description or a transcript, or when a filter
//! that only episodes have (has-transcript and the other episode keys) is set;
//! otherwise it runs in podcast mode.

use serde::{Deserialize, Serialize};

use super::keys::{OptionKind, set_keys};
use super::options::{SearchOptions, SearchTarget};
use crate::kinds::wire_enum;

wire_enum! {
    /// Whether a search returns podcasts or episodes (the response's `searchMode`).
    SearchMode { Podcasts => "podcasts", Episodes => "episodes" }
}

/// Every target of every term, top-level and grouped.
pub(crate) fn all_targets(options: &SearchOptions) -> impl Iterator<Item = SearchTarget> + '_ {
    let top = options
        .search_terms
        .iter()
        .flatten()
        .flat_map(|term| term.search_targets.iter());
    let grouped = options
        .search_term_groups
        .iter()
        .flatten()
        .flat_map(|group| group.search_terms.iter())
        .flat_map(|term| term.search_targets.iter());
    top.chain(grouped).copied()
}

/// The mode §4 gives `options` when no endpoint fixes it.
pub fn detect_search_mode(options: &SearchOptions) -> SearchMode {
    let targets_episodes = all_targets(options).any(|target| !target.is_podcast_target());
    let episode_filter = set_keys(options).is_ok_and(|keys| {
        keys.iter()
            .any(|key| key.episodes_only && key.kind == OptionKind::Filter)
    });
    if targets_episodes || episode_filter {
        SearchMode::Episodes
    } else {
        SearchMode::Podcasts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(body: serde_json::Value) -> SearchOptions {
        serde_json::from_value(body).unwrap()
    }

    fn term(targets: &[&str]) -> serde_json::Value {
        serde_json::json!({"searchTerm": "climate", "searchType": "text", "searchTargets": targets})
    }

    #[test]
    fn mode_detection_table() {
        use SearchMode::*;
        let table = [
            (
                serde_json::json!({"searchTerms": [term(&["podcast-title"])]}),
                Podcasts,
            ),
            (
                serde_json::json!({"searchTerms": [term(&["podcast-title", "podcast-description"])]}),
                Podcasts,
            ),
            (
                serde_json::json!({"searchTerms": [term(&["episode-title"])]}),
                Episodes,
            ),
            (
                serde_json::json!({"searchTerms": [term(&["episode-description"])]}),
                Episodes,
            ),
            (
                serde_json::json!({"searchTerms": [term(&["transcript"])]}),
                Episodes,
            ),
            (
                serde_json::json!({"searchTerms": [term(&["podcast-title"]), term(&["transcript"])]}),
                Episodes,
            ),
            (
                serde_json::json!({"searchTermGroups": [{"searchTerms": [term(&["transcript"])]}]}),
                Episodes,
            ),
            (serde_json::json!({"hasTranscript": true}), Episodes),
            (serde_json::json!({"hasTranscript": false}), Episodes),
            (serde_json::json!({"hasTranscript": null}), Podcasts),
            (
                serde_json::json!({"publishedSince": "2024-01-01"}),
                Episodes,
            ),
            (
                serde_json::json!({"personFilters": [{"name": "Ada Lovelace", "type": "guest"}]}),
                Episodes,
            ),
            (serde_json::json!({"includeEpisodeIds": []}), Podcasts),
            (
                serde_json::json!({"languages": ["en"], "explicit": "clean"}),
                Podcasts,
            ),
            // Output options alone do not switch the mode.
            (
                serde_json::json!({"languages": ["en"], "includeMatchSnippet": true}),
                Podcasts,
            ),
            (serde_json::json!({}), Podcasts),
        ];
        for (body, expected) in table {
            assert_eq!(
                detect_search_mode(&options(body.clone())),
                expected,
                "{body}"
            );
        }
    }

    #[test]
    fn wire_values_are_the_responses() {
        assert_eq!(
            serde_json::to_string(&SearchMode::Podcasts).unwrap(),
            "\"podcasts\""
        );
        assert_eq!(
            serde_json::to_string(&SearchMode::Episodes).unwrap(),
            "\"episodes\""
        );
    }
}

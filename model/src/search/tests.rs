//! End-to-end checks of the search options: request bodies as the SDK builds them,
//! every specification message through `validate_search`, plan gating, value rules,
//! modes, sorting, paging and the echoed options.

use chrono::{DateTime, Utc};
use serde_json::{Value, json};
use uuid::Uuid;

use super::*;
use crate::plans::Plan;

/// 2024-06-30T00:00:00Z: 19904 days after the epoch (checked in `now_is_what_it_says`).
const NOW_UNIX: i64 = 19_904 * 86_400;

fn now() -> DateTime<Utc> {
    DateTime::from_timestamp(NOW_UNIX, 0).unwrap()
}

fn context(endpoint: SearchEndpoint, plan: Plan) -> SearchRequestContext {
    SearchRequestContext {
        endpoint,
        plan,
        now: now(),
    }
}

fn run(body: Value, endpoint: SearchEndpoint, plan: Plan) -> Result<ValidatedSearch, SearchError> {
    let options = parse_search_options(body)?;
    validate_search(&options, &context(endpoint, plan))
}

fn error_of(body: Value, endpoint: SearchEndpoint, plan: Plan) -> SearchError {
    run(body, endpoint, plan).unwrap_err()
}

fn detail_of(body: Value, endpoint: SearchEndpoint, plan: Plan) -> String {
    let error = error_of(body, endpoint, plan);
    assert_eq!(error.to_string(), "Error parsing search options.");
    error.detail().unwrap().to_owned()
}

fn podcast_term(text: &str) -> Value {
    json!({"searchTerm": text, "searchType": "text", "searchTargets": ["podcast-title"],
           "searchTermOptions": {"matchMode": "optional"}})
}

#[test]
fn now_is_what_it_says() {
    assert_eq!(now().to_rfc3339(), "2024-06-30T00:00:00+00:00");
}

/// `pe.search.search_episodes(...)` with typed models and plain dicts, written out the
/// way `build_json_body` sends it: keys in the method's order, unset arguments dropped,
/// nested models' unset fields as `null`, a naive `datetime` as an ISO string.
const SDK_EPISODE_SEARCH_BODY: &str = r#"{
  "searchTerms": [
    {"searchTerm": "climate policy", "searchType": "text",
     "searchTargets": ["transcript", "episode-title"],
     "searchTermOptions": {"matchMode": "must", "phraseMatch": true, "slop": null, "fuzzy": null}},
    {"searchTerm": "carbon tax", "searchType": "text",
     "searchTargets": ["episode-description"],
     "searchTermOptions": {"matchMode": "optional"}}
  ],
  "includeItunesGenres": ["News", "Science"],
  "languages": ["en"],
  "lastEpisodeDateSince": {"type": "relative", "unit": "months", "value": 6},
  "minItunesRating": 4,
  "podcastCountries": ["US", "gb"],
  "podcastAuthorityScore": {
    "authorityScore": {"min": 40.0, "max": null},
    "qualityScore": null, "engagementScore": null, "socialScore": null, "youtubeScore": null
  },
  "sortOrder": [{"field": "recentActivity", "direction": "desc", "nullOrder": null}],
  "includeMatchSnippet": true,
  "publishedSince": "2024-01-01T00:00:00",
  "hasTranscript": true,
  "personFilters": [
    {"name": "Jane Goodall", "matchMode": null, "phraseMatch": null, "slop": null,
     "fuzzy": null, "type": "guest"}
  ]
}"#;

#[test]
fn sdk_episode_search_body_parses_and_validates() {
    let options = parse_search_options_str(SDK_EPISODE_SEARCH_BODY).unwrap();
    let search =
        validate_search(&options, &context(SearchEndpoint::Episodes, Plan::Business)).unwrap();
    assert_eq!(search.mode, SearchMode::Episodes);
    assert_eq!(search.terms.len(), 2);
    assert_eq!(search.terms[0].text, "climate policy");
    assert_eq!(
        search.terms[0].targets,
        [SearchTarget::Transcript, SearchTarget::EpisodeTitle]
    );
    assert_eq!(search.terms[0].match_mode, MatchMode::Must);
    assert!(search.terms[0].phrase_match);
    assert_eq!(search.terms[1].match_mode, MatchMode::Optional);
    assert_eq!(search.filters.include_genres, ["news", "science"]);
    assert_eq!(search.filters.countries, ["us", "gb"]);
    assert_eq!(search.filters.min_itunes_rating, Some(4.0));
    assert_eq!(search.filters.has_transcript, Some(true));
    // 6 months of 30 days before 2024-06-30T00:00Z.
    assert_eq!(
        search.filters.last_episode_since.unwrap().timestamp(),
        NOW_UNIX - 6 * 30 * 86_400
    );
    assert_eq!(
        search.filters.published_since.unwrap().timestamp(),
        1_704_067_200
    );
    let authority = search
        .filters
        .authority_score
        .unwrap()
        .authority_score
        .unwrap();
    assert_eq!((authority.min, authority.max), (Some(40.0), None));
    assert_eq!(search.filters.persons[0].name, "Jane Goodall");
    assert_eq!(
        search.filters.persons[0].person_type,
        Some(PersonFilterType::Guest)
    );
    assert_eq!(
        search.sort,
        [SortSpec {
            field: SortField::RecentActivity,
            direction: SortDirection::Desc,
            null_order: NullOrder::Last
        }]
    );
    assert!(search.snippets.include_transcript_snippet && search.snippets.include_match_snippet);
    assert_eq!((search.page_size, search.max_results), (100, 100));
}

/// The SDK README's `search_podcasts` call.
#[test]
fn sdk_readme_podcast_search_body() {
    let body = r#"{"searchTerms": [{"searchTerm": "startups", "searchType": "text",
        "searchTargets": ["podcast-title"], "searchTermOptions": {"matchMode": "optional"}}]}"#;
    let options = parse_search_options_str(body).unwrap();
    for plan in Plan::ALL.iter().copied() {
        let search = validate_search(&options, &context(SearchEndpoint::Podcasts, plan)).unwrap();
        assert_eq!(search.mode, SearchMode::Podcasts);
        assert_eq!(search.page_size, plan.limits().max_results_per_search);
        assert_eq!(search.sort[0].field, SortField::Relevance);
        assert!(!search.snippets.include_transcript_snippet);
    }
}

#[test]
fn message_filter_not_supported() {
    let error = error_of(
        json!({"minDownloads": 100}),
        SearchEndpoint::Episodes,
        Plan::Admin,
    );
    assert_eq!(
        error.to_string(),
        "Search filter \"minDownloads\" is not supported."
    );
    // Episode-only filters are not podcast search filters.
    let error = error_of(
        json!({"searchTerms": [podcast_term("history")], "hasTranscript": true}),
        SearchEndpoint::Podcasts,
        Plan::Admin,
    );
    assert_eq!(
        error.to_string(),
        "Search filter \"hasTranscript\" is not supported."
    );
}

#[test]
fn message_filter_not_available() {
    let error = error_of(
        json!({"searchTerms": [podcast_term("history")], "podcastCountries": ["us"]}),
        SearchEndpoint::Podcasts,
        Plan::Free,
    );
    assert_eq!(
        error.to_string(),
        "Search filter \"podcastCountries\" is not available for your plan."
    );
    let error = error_of(
        json!({"searchTerms": [podcast_term("history")], "pageSize": 50}),
        SearchEndpoint::Podcasts,
        Plan::Agency,
    );
    assert_eq!(
        error.to_string(),
        "Search filter \"pageSize\" is not available for your plan."
    );
    let error = error_of(
        json!({"hasTranscript": true}),
        SearchEndpoint::Episodes,
        Plan::Public,
    );
    assert_eq!(
        error.to_string(),
        "Search filter \"hasTranscript\" is not available for your plan."
    );
}

#[test]
fn message_sort_order_required() {
    let error = error_of(
        json!({"searchTerms": [podcast_term("history")], "sortOrder": []}),
        SearchEndpoint::Podcasts,
        Plan::Free,
    );
    assert_eq!(error.to_string(), "At least one sort order is required.");
}

#[test]
fn message_term_or_filter_required() {
    for body in [
        json!({}),
        json!({"searchTerms": []}),
        json!({"sortOrder": [{"field": "title"}], "languages": []}),
        json!({"cursor": "abc", "includeMatchSnippet": true}),
    ] {
        let error = error_of(body.clone(), SearchEndpoint::Episodes, Plan::Business);
        assert_eq!(
            error.to_string(),
            "At least one search term or filter is required.",
            "{body}"
        );
    }
    // A filter alone is enough.
    assert!(
        run(
            json!({"languages": ["en"]}),
            SearchEndpoint::Podcasts,
            Plan::Public
        )
        .is_ok()
    );
}

#[test]
fn message_error_parsing_search_options() {
    let error = parse_search_options_str("{\"searchTerms\": \"ai\"}").unwrap_err();
    assert_eq!(error.to_string(), "Error parsing search options.");
    let error = error_of(
        json!({"searchTerms": [podcast_term("a")]}),
        SearchEndpoint::Podcasts,
        Plan::Free,
    );
    assert_eq!(error.to_string(), "Error parsing search options.");
}

#[test]
fn term_rules_through_validation() {
    let reason = detail_of(
        json!({"searchTerms": [podcast_term(" ")]}),
        SearchEndpoint::Podcasts,
        Plan::Free,
    );
    assert_eq!(reason, "searchTerms[0].searchTerm must not be blank");
    let no_target = json!({"searchTerms": [{"searchTerm": "ai", "searchType": "text",
                                            "searchTargets": []}]});
    assert_eq!(
        detail_of(no_target, SearchEndpoint::Episodes, Plan::Free),
        "searchTerms[0] needs at least one search target"
    );
    let embeddings = json!({"searchTerms": [{"searchTerm": "ai", "searchType": "embeddings",
                                             "searchTargets": ["transcript"]}]});
    assert_eq!(
        detail_of(embeddings, SearchEndpoint::Episodes, Plan::Free),
        "searchTerms[0]: the embeddings search type is not supported"
    );
    let transcript_in_podcasts = json!({"searchTerms": [{"searchTerm": "ai", "searchType": "text",
                                                         "searchTargets": ["transcript"]}]});
    assert!(
        detail_of(transcript_in_podcasts, SearchEndpoint::Podcasts, Plan::Free)
            .contains("not allowed in podcast mode")
    );
    let empty_group = json!({"searchTermGroups": [{"searchTerms": []}]});
    assert_eq!(
        detail_of(empty_group, SearchEndpoint::Episodes, Plan::Free),
        "searchTermGroups[0] needs at least one search term"
    );
}

#[test]
fn unified_search_follows_the_mode_rule() {
    let podcasts = run(
        json!({"searchTerms": [podcast_term("chess")]}),
        SearchEndpoint::Unified,
        Plan::Free,
    )
    .unwrap();
    assert_eq!(podcasts.mode, SearchMode::Podcasts);
    let by_filter = run(
        json!({"searchTerms": [podcast_term("chess")], "hasTranscript": true}),
        SearchEndpoint::Unified,
        Plan::Free,
    )
    .unwrap();
    assert_eq!(by_filter.mode, SearchMode::Episodes);
    assert!(by_filter.snippets.include_transcript_snippet);
    // The episodes route is episode mode even with podcast targets only.
    let episodes = run(
        json!({"searchTerms": [podcast_term("chess")]}),
        SearchEndpoint::Episodes,
        Plan::Free,
    )
    .unwrap();
    assert_eq!(episodes.mode, SearchMode::Episodes);
    let no_snippet = run(
        json!({"searchTerms": [podcast_term("chess")], "includeTranscriptSnippet": false}),
        SearchEndpoint::Episodes,
        Plan::Free,
    )
    .unwrap();
    assert!(!no_snippet.snippets.include_transcript_snippet);
}

#[test]
fn page_size_is_admin_only_and_bounded() {
    let term = podcast_term("jazz");
    let admin = |size: Value| {
        run(
            json!({"searchTerms": [term.clone()], "pageSize": size}),
            SearchEndpoint::Podcasts,
            Plan::Admin,
        )
    };
    assert_eq!(admin(json!(1)).unwrap().page_size, 1);
    assert_eq!(admin(json!(40)).unwrap().page_size, 40);
    // Capped at the plan's maximum results.
    assert_eq!(admin(json!(1000)).unwrap().page_size, 100);
    for bad in [json!(0), json!(1001), json!(-5)] {
        let error = admin(bad.clone()).unwrap_err();
        assert_eq!(error.to_string(), "Error parsing search options.", "{bad}");
        assert!(
            error
                .detail()
                .unwrap()
                .starts_with("pageSize must be between 1 and 1000")
        );
    }
    assert_eq!(
        admin(json!(12.5)).unwrap_err().to_string(),
        "Error parsing search options."
    );
}

#[test]
fn rating_bounds_are_inclusive_0_to_5() {
    for (rating, ok) in [
        (0.0, true),
        (5.0, true),
        (3.7, true),
        (-0.1, false),
        (5.01, false),
    ] {
        for key in ["minItunesRating", "minSpotifyRating"] {
            let result = run(json!({key: rating}), SearchEndpoint::Podcasts, Plan::Free);
            assert_eq!(result.is_ok(), ok, "{key} {rating}");
            if !ok {
                assert_eq!(
                    result.unwrap_err().detail().unwrap(),
                    format!("{key} must be between 0 and 5, got {rating}")
                );
            }
        }
    }
}

#[test]
fn counts_are_integers_of_at_least_1() {
    for key in [
        "minCastboxPlays",
        "minCastboxSubscribers",
        "minItunesRatingCount",
        "minSpotifyRatingCount",
    ] {
        assert!(
            run(json!({key: 1}), SearchEndpoint::Podcasts, Plan::Free).is_ok(),
            "{key}"
        );
        assert_eq!(
            detail_of(json!({key: 0}), SearchEndpoint::Podcasts, Plan::Free),
            format!("{key} must be an integer of at least 1, got 0")
        );
        let fractional = error_of(json!({key: 2.5}), SearchEndpoint::Podcasts, Plan::Free);
        assert_eq!(fractional.to_string(), "Error parsing search options.");
    }
    // Total episodes: min may be 0, max must be positive, min not above max.
    let search = run(
        json!({"minTotalEpisodes": 0, "maxTotalEpisodes": 1}),
        SearchEndpoint::Podcasts,
        Plan::Free,
    )
    .unwrap();
    assert_eq!(
        (
            search.filters.min_total_episodes,
            search.filters.max_total_episodes
        ),
        (Some(0), Some(1))
    );
    assert_eq!(
        detail_of(
            json!({"maxTotalEpisodes": 0}),
            SearchEndpoint::Podcasts,
            Plan::Free
        ),
        "maxTotalEpisodes must be an integer of at least 1, got 0"
    );
    assert_eq!(
        detail_of(
            json!({"minTotalEpisodes": -1}),
            SearchEndpoint::Podcasts,
            Plan::Free
        ),
        "minTotalEpisodes must be an integer of at least 0, got -1"
    );
    assert_eq!(
        detail_of(
            json!({"minTotalEpisodes": 9, "maxTotalEpisodes": 3}),
            SearchEndpoint::Podcasts,
            Plan::Free
        ),
        "minTotalEpisodes is above maxTotalEpisodes"
    );
}

#[test]
fn genres_languages_and_countries_are_normalized() {
    let search = run(
        json!({"includeItunesGenres": [" True Crime ", "true crime", "NEWS"],
               "excludeItunesGenres": ["Kids & Family"], "languages": ["EN-us"],
               "podcastCountries": ["GB", " de ", "gb"]}),
        SearchEndpoint::Podcasts,
        Plan::Individual,
    )
    .unwrap();
    assert_eq!(search.filters.include_genres, ["true crime", "news"]);
    assert_eq!(search.filters.exclude_genres, ["kids & family"]);
    assert_eq!(search.filters.languages, ["en-us"]);
    assert_eq!(search.filters.countries, ["gb", "de"]);
    assert_eq!(
        search.echo.include_itunes_genres.as_deref(),
        Some(&["true crime".to_owned(), "news".to_owned()][..])
    );
    for bad in ["usa", "zz", "u", "1a"] {
        let reason = detail_of(
            json!({"podcastCountries": [bad]}),
            SearchEndpoint::Podcasts,
            Plan::Individual,
        );
        assert!(reason.contains("alpha-2"), "{bad}: {reason}");
    }
    assert_eq!(
        detail_of(
            json!({"includeItunesGenres": [" "]}),
            SearchEndpoint::Podcasts,
            Plan::Free
        ),
        "includeItunesGenres[0] must not be blank"
    );
}

#[test]
fn id_filters_take_uuids() {
    let id = Uuid::new_v4();
    let search = run(
        json!({"excludePodcastIds": [id.to_string().to_uppercase()]}),
        SearchEndpoint::Podcasts,
        Plan::Public,
    )
    .unwrap();
    assert_eq!(search.filters.exclude_podcast_ids, [id]);
    assert_eq!(
        detail_of(
            json!({"includeEpisodeIds": ["episode-1"]}),
            SearchEndpoint::Episodes,
            Plan::Free
        ),
        "includeEpisodeIds[0] is not a uuid: \"episode-1\""
    );
}

#[test]
fn date_filters_become_absolute_cutoffs() {
    let search = run(
        json!({
            "foundedSince": {"type": "relative", "unit": "years", "value": 2},
            "lastEpisodeDateSince": {"type": "relative", "unit": "days", "value": 14},
            "publishedSince": {"type": "relative", "unit": "hours", "value": 48},
            "publishedBefore": {"type": "custom", "date": "2024-06-29"}
        }),
        SearchEndpoint::Episodes,
        Plan::Business,
    )
    .unwrap();
    // Hand-computed: 2 × 365 days, 14 days and 48 hours before 2024-06-30T00:00Z.
    assert_eq!(
        search.filters.founded_since.unwrap().to_rfc3339(),
        "2022-07-01T00:00:00+00:00"
    );
    assert_eq!(
        search.filters.last_episode_since.unwrap().to_rfc3339(),
        "2024-06-16T00:00:00+00:00"
    );
    assert_eq!(
        search.filters.published_since.unwrap().to_rfc3339(),
        "2024-06-28T00:00:00+00:00"
    );
    assert_eq!(
        search.filters.published_before.unwrap().to_rfc3339(),
        "2024-06-29T00:00:00+00:00"
    );
    // The echo keeps the relative form so a reused search re-evaluates it.
    assert_eq!(
        serde_json::to_value(&search.echo.founded_since).unwrap(),
        json!({"type": "relative", "unit": "years", "value": 2})
    );
    let reason = detail_of(
        json!({"foundedSince": {"type": "relative", "unit": "days", "value": 0}}),
        SearchEndpoint::Podcasts,
        Plan::Public,
    );
    assert_eq!(
        reason,
        "foundedSince: a relative date needs a positive value, got 0"
    );
    let reason = detail_of(
        json!({"publishedSince": "2024-06-01", "publishedBefore": "2024-05-01"}),
        SearchEndpoint::Episodes,
        Plan::Business,
    );
    assert_eq!(reason, "publishedSince is after publishedBefore");
}

#[test]
fn sorting_rules() {
    let term = podcast_term("design");
    let sort = |mode, orders: Value| {
        run(
            json!({"searchTerms": [term.clone()], "sortOrder": orders}),
            mode,
            Plan::Business,
        )
    };
    let resolved = sort(
        SearchEndpoint::Podcasts,
        json!([{"field": "title"}, {"field": "appleReviews", "direction": "asc", "nullOrder": "first"}]),
    )
    .unwrap();
    assert_eq!(
        resolved.sort,
        [
            SortSpec {
                field: SortField::Title,
                direction: SortDirection::Asc,
                null_order: NullOrder::Last
            },
            SortSpec {
                field: SortField::AppleReviews,
                direction: SortDirection::Asc,
                null_order: NullOrder::First
            },
        ]
    );
    assert!(
        sort(
            SearchEndpoint::Podcasts,
            json!([{"field": "authorityScore"}])
        )
        .is_ok()
    );
    let error = sort(
        SearchEndpoint::Episodes,
        json!([{"field": "authorityScore"}]),
    )
    .unwrap_err();
    assert_eq!(
        error.detail(),
        Some("sortOrder[0]: episode searches cannot sort by \"authorityScore\"")
    );
    let error = sort(
        SearchEndpoint::Podcasts,
        json!([{"field": "title"}, {"field": "title"}]),
    )
    .unwrap_err();
    assert_eq!(
        error.detail(),
        Some("sortOrder[1]: \"title\" is already sorted on")
    );
    // Without terms, the default is the newest activity first.
    let filter_only = run(
        json!({"languages": ["en"]}),
        SearchEndpoint::Podcasts,
        Plan::Free,
    )
    .unwrap();
    assert_eq!(filter_only.sort[0].field, SortField::RecentActivity);
    assert_eq!(filter_only.sort[0].direction, SortDirection::Desc);
}

#[test]
fn echo_spells_out_defaults_in_the_sdk_shape() {
    let search = run(
        json!({"searchTerms": [{"searchTerm": "  wine  ", "searchType": "text",
                                "searchTargets": ["podcast-title", "podcast-title"]}],
               "cursor": "page-2"}),
        SearchEndpoint::Podcasts,
        Plan::Free,
    )
    .unwrap();
    assert_eq!(search.cursor.as_deref(), Some("page-2"));
    assert_eq!(
        serde_json::to_value(&search.echo).unwrap(),
        json!({
            "cursor": "page-2",
            "searchTerms": [{"searchTerm": "wine", "searchType": "text",
                             "searchTargets": ["podcast-title"],
                             "searchTermOptions": {"matchMode": "optional", "phraseMatch": false,
                                                   "slop": 0.0, "fuzzy": false}}],
            "sortOrder": [{"field": "relevance", "direction": "desc", "nullOrder": "last"}]
        })
    );
}

#[test]
fn project_context() {
    let body = json!({"searchTerms": [podcast_term("golf")], "projectId": "p-1",
                      "project": {"projectId": "p-1", "excludePodcastsOnList": true,
                                  "excludeRelvancyValues": [1, 2]}});
    let search = run(body.clone(), SearchEndpoint::Podcasts, Plan::Free).unwrap();
    assert_eq!(search.project_id.as_deref(), Some("p-1"));
    assert_eq!(
        search.project.unwrap().exclude_relvancy_values,
        Some(vec![1.0, 2.0])
    );
    assert_eq!(
        error_of(body, SearchEndpoint::Podcasts, Plan::Public).to_string(),
        "Search filter \"project\" is not available for your plan."
    );
    let differing = json!({"searchTerms": [podcast_term("golf")], "projectId": "p-1",
                           "project": {"projectId": "p-2"}});
    assert_eq!(
        detail_of(differing, SearchEndpoint::Podcasts, Plan::Free),
        "projectId and project.projectId name different projects"
    );
}

#[test]
fn every_failure_speaks_a_specification_message() {
    // Replace each key of the SDK body with values of every JSON type, and run every
    // endpoint and plan: nothing panics and each refusal is one of §5's messages.
    let base: Value = serde_json::from_str(SDK_EPISODE_SEARCH_BODY).unwrap();
    let replacements = [
        json!(null),
        json!(0),
        json!(-1),
        json!(1e308),
        json!(""),
        json!("x"),
        json!([]),
        json!([null]),
        json!([""]),
        json!({}),
        json!(true),
    ];
    let known = |message: &str| {
        message == "At least one sort order is required."
            || message == "At least one search term or filter is required."
            || message == "Error parsing search options."
            || (message.starts_with("Search filter \"")
                && (message.ends_with("\" is not supported.")
                    || message.ends_with("\" is not available for your plan.")))
    };
    let endpoints = [
        SearchEndpoint::Podcasts,
        SearchEndpoint::Episodes,
        SearchEndpoint::Unified,
    ];
    let mut refusals = 0;
    for key in base.as_object().unwrap().keys() {
        for replacement in &replacements {
            let mut body = base.clone();
            body[key] = replacement.clone();
            for endpoint in endpoints {
                for plan in Plan::ALL.iter().copied() {
                    if let Err(error) = run(body.clone(), endpoint, plan) {
                        refusals += 1;
                        assert!(known(&error.to_string()), "{key}={replacement}: {error}");
                    }
                }
            }
        }
    }
    assert!(refusals > 0);
}

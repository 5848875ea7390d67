//! Envelope, authentication, plan access and metering, through `oneshot`.

mod common;

use axum::http::StatusCode;
use common::*;
use serde_json::json;

fn title_search(term: &str) -> serde_json::Value {
    json!({"searchTerms": [{"searchTerm": term, "searchType": "text",
        "searchTargets": ["podcast-title", "podcast-description"],
        "searchTermOptions": {"matchMode": "optional"}}]})
}

#[tokio::test]
async fn health_answers_in_the_envelope() {
    let (state, _dir) = state();
    let app = podlens_api::app(state);
    let reply = get(&app, "/api/v1/public/health", None).await;
    assert_eq!(ok_data(&reply)["status"], "ok");
}

#[tokio::test]
async fn a_bad_key_gets_401_with_the_exact_message() {
    let (state, _dir) = state();
    let app = podlens_api::app(state);
    for header in ["pl_not_a_key", "Bearer pl_not_a_key"] {
        let reply = get(&app, "/api/v1/podcasts/latest", Some(header)).await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
        assert_eq!(
            reply.body,
            json!({"status": "UNAUTHORIZED", "data": {"message": "Invalid authorization token"}})
        );
    }
}

#[tokio::test]
async fn raw_and_bearer_keys_both_work() {
    let (state, _dir) = state();
    let key = key(&state, "biz@example.com", "business");
    let app = podlens_api::app(state);
    for header in [key.clone(), format!("Bearer {key}")] {
        let reply = get(&app, "/api/v1/teams/users", Some(&header)).await;
        let users = ok_data(&reply)["users"].as_array().unwrap().clone();
        assert_eq!(users.len(), 1);
        assert_eq!(users[0]["email"], "biz@example.com");
    }
}

#[tokio::test]
async fn plans_without_api_access_get_403() {
    let (state, _dir) = state();
    let free = key(&state, "free@example.com", "free");
    let individual = key(&state, "ind@example.com", "individual");
    let app = podlens_api::app(state);
    for key in [free, individual] {
        let reply = get(&app, "/api/v1/podcasts/latest", Some(&key)).await;
        assert_eq!(reply.status, StatusCode::FORBIDDEN, "{}", reply.text);
        assert_eq!(reply.body["status"], "FORBIDDEN");
        assert!(
            reply.body["data"]["message"]
                .as_str()
                .unwrap()
                .contains("business, agency and admin"),
            "{}",
            reply.text
        );
    }
}

#[tokio::test]
async fn user_only_routes_refuse_signed_out_callers() {
    let (state, _dir) = state();
    let app = podlens_api::app(state);
    for uri in [
        "/api/v1/teams/usage/current",
        "/api/v1/teams/users",
        "/api/v1/teams/podcasts",
    ] {
        let reply = get(&app, uri, None).await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{uri}");
        assert_eq!(reply.body["status"], "UNAUTHORIZED");
    }
}

#[tokio::test]
async fn unknown_api_routes_are_404_in_the_envelope() {
    let (state, _dir) = state();
    let app = podlens_api::app(state);
    // Endpoints whose data does not exist yet are absent, not faked.
    for uri in ["/api/v1/nope", "/api/v1/podcasts/x/youtube"] {
        let reply = get(&app, uri, None).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{uri}: {}", reply.text);
        assert_eq!(reply.body["status"], "NOT_FOUND");
    }
}

#[tokio::test]
async fn malformed_bodies_get_400_with_the_search_parse_message() {
    let (state, _dir) = state();
    let key = key(&state, "b@example.com", "business");
    let app = podlens_api::app(state);
    let reply = call(&app, "POST", "/api/v1/search/podcasts", Some(&key), None).await;
    // An empty body is an empty options object: neither terms nor filters.
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        reply.body["data"]["message"],
        "At least one search term or filter is required."
    );
    let bad_type = post(
        &app,
        "/api/v1/search/podcasts",
        Some(&key),
        json!({"languages": "en"}),
    )
    .await;
    assert_eq!(bad_type.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        bad_type.body["data"]["message"],
        "Error parsing search options."
    );
    let unknown = post(
        &app,
        "/api/v1/search/podcasts",
        Some(&key),
        json!({"colour": "red"}),
    )
    .await;
    assert_eq!(
        unknown.body["data"]["message"],
        "Search filter \"colour\" is not supported."
    );
    let no_sort = post(
        &app,
        "/api/v1/search/podcasts",
        Some(&key),
        json!({"languages": ["en"], "sortOrder": []}),
    )
    .await;
    assert_eq!(
        no_sort.body["data"]["message"],
        "At least one sort order is required."
    );
}

#[tokio::test]
async fn public_tier_filters_and_caps() {
    let (state, _dir) = state();
    let app = podlens_api::app(state);
    let reply = post(
        &app,
        "/api/v1/search/podcasts",
        None,
        json!({"podcastCountries": ["us"]}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.text);
    assert_eq!(
        reply.body["data"]["message"],
        "Search filter \"podcastCountries\" is not available for your plan."
    );
    // Every fixture podcast has a language; a filter-only search matches several,
    // and the public tier sees at most 3.
    let reply = post(
        &app,
        "/api/v1/search/podcasts",
        None,
        json!({"excludePodcastIds": [uuid::Uuid::nil().to_string()]}),
    )
    .await;
    let data = ok_data(&reply);
    let hits = data["result"]["hits"].as_array().unwrap();
    assert!(
        data["result"]["total"]["value"].as_u64().unwrap() > 3,
        "{}",
        reply.text
    );
    assert_eq!(hits.len(), 3);
    assert_eq!(data["cursor"], serde_json::Value::Null);
}

#[tokio::test]
async fn public_searches_are_metered_per_client_and_refused_past_the_daily_limit() {
    let (state, _dir) = state();
    let app = podlens_api::app(state);
    let limit = podlens_model::Plan::Public
        .limits()
        .searches
        .amount
        .unwrap();
    for index in 0..limit {
        let reply = post(
            &app,
            "/api/v1/search/podcasts",
            None,
            title_search("history"),
        )
        .await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "search {index}: {}",
            reply.text
        );
        assert_eq!(
            reply.headers["x-ratelimit-remaining"],
            (limit - index - 1).to_string()
        );
    }
    let refused = post(
        &app,
        "/api/v1/search/podcasts",
        None,
        title_search("history"),
    )
    .await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(refused.body["status"], "TOO_MANY_REQUESTS");
    let message = refused.body["data"]["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("{limit} searches per day")),
        "{message}"
    );
    assert_eq!(refused.headers["x-ratelimit-remaining"], "0");
}

#[tokio::test]
async fn business_search_usage_shows_in_the_usage_endpoints() {
    let (state, _dir) = state();
    let key = key(&state, "u@example.com", "business");
    let app = podlens_api::app(state);
    for _ in 0..3 {
        let reply = post(
            &app,
            "/api/v1/search/podcasts",
            Some(&key),
            title_search("news"),
        )
        .await;
        ok_data(&reply);
    }
    let current = get(&app, "/api/v1/teams/usage/current", Some(&key)).await;
    let data = ok_data(&current);
    assert_eq!(data["plan"], "business");
    let search = data["aliases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|alias| alias["alias"] == "searchCount")
        .unwrap();
    assert_eq!(search["used"], 3);
    assert_eq!(search["limit"], 1000);
    let daily = get(&app, "/api/v1/teams/usage/daily?window=7", Some(&key)).await;
    let days = ok_data(&daily)["days"].as_array().unwrap().clone();
    assert_eq!(days.len(), 7);
    assert_eq!(days[6]["usageByAlias"]["searchCount"], 3);
    let monthly = get(&app, "/api/v1/teams/usage/monthly?months=2", Some(&key)).await;
    let months = ok_data(&monthly)["months"].as_array().unwrap().clone();
    assert_eq!(months[1]["usageByAlias"]["searchCount"], 3);
    let members = get(&app, "/api/v1/teams/usage/members", Some(&key)).await;
    assert_eq!(ok_data(&members)["members"][0]["totalUsage"], 3);
}

#[tokio::test]
async fn openapi_and_docs_are_served() {
    let (state, _dir) = state();
    let app = podlens_api::app(state);
    let reply = get(&app, "/api/v1/openapi.json", None).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert!(reply.body["openapi"].as_str().unwrap().starts_with("3.1"));
    for path in [
        "/api/v1/search/podcasts",
        "/api/v1/podcasts/{podcastIdOrSlug}",
        "/api/v1/teams/usage/daily",
    ] {
        assert!(reply.body["paths"].get(path).is_some(), "{path} missing");
    }
    let docs = get(&app, "/api-docs", None).await;
    assert_eq!(docs.status, StatusCode::OK);
    assert!(docs.text.contains("/api/v1/openapi.json"));
    assert!(
        !docs.text.contains("https://"),
        "the docs page must not load remote assets"
    );
}

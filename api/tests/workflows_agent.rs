//! AI assist over HTTP on a real socket: alternative spellings and relevancy reviews
//! with the offline provider, usage charging, review reuse, and the OpenAI-compatible
//! provider against a local fake endpoint that speaks the chat-completions format.

mod common;
mod workflows_http;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use podlens_app::workflows::agent::{AssistTask, OpenAiConfig, OpenAiProvider};
use serde_json::{Value, json};
use workflows_http::{Http, start, start_with};

async fn project(http: &Http, key: &str, name: &str, keywords: &[&str]) -> Value {
    let answer = http
        .call(
            "PUT",
            "/api/v1/projects",
            key,
            Some(json!({"name": name, "projectTypes": ["guest-booking"], "projectKeywords": keywords,
                        "projectPurpose": format!("Appear on shows about {}", keywords.join(" and "))})),
        )
        .await;
    answer.data()["project"].clone()
}

fn podcast_id(title_part: &str) -> String {
    common::shared()
        .fixture
        .batches
        .iter()
        .find(|batch| batch.podcast.podcast_rss_title.contains(title_part))
        .map(|batch| batch.podcast.podcast_id.to_string())
        .unwrap()
}

#[tokio::test]
async fn spellings_are_charged_as_ai_assists_and_never_repeat_the_input() {
    let http = start().await;
    let key = http.key("agent-spell@example.com", "business");
    let first = http
        .post(
            "/api/v1/agent/alternative-spellings",
            &key,
            json!({"value": "Katherine Philips"}),
        )
        .await;
    let spellings: Vec<String> = first.data()["spellings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect();
    assert!(
        !spellings.is_empty() && spellings.len() <= 10,
        "{spellings:?}"
    );
    assert!(
        spellings
            .iter()
            .all(|s| !s.eq_ignore_ascii_case("Katherine Philips"))
    );
    assert!(
        spellings.iter().any(|s| s == "Katherine Filips"),
        "{spellings:?}"
    );
    assert_eq!(first.usage_count(), Some(1));
    let second = http
        .post(
            "/api/v1/agent/alternative-spellings",
            &key,
            json!({"value": "Ada"}),
        )
        .await;
    assert_eq!(second.usage_count(), Some(2));

    let missing = http
        .post("/api/v1/agent/alternative-spellings", &key, json!({}))
        .await;
    assert_eq!(missing.status, 400);
    assert_eq!(missing.message(), "value is required");
}

#[tokio::test]
async fn relevancy_rates_a_matching_show_above_an_unrelated_one_and_is_reused() {
    let http = start().await;
    let key = http.key("agent-relevancy@example.com", "agency");
    let linux = project(
        &http,
        &key,
        "Linux desktop launch",
        &["linux", "open source"],
    )
    .await;
    let project_id = linux["projectId"].as_str().unwrap().to_owned();
    let lup = podcast_id("LINUX Unplugged");
    let history = podcast_id("In Our Time");

    let review = |podcast: String, force: bool| {
        let project_id = project_id.clone();
        let http = &http;
        let key = &key;
        async move {
            http.post(
                "/api/v1/agent/project/relevancy",
                key,
                json!({"projectId": project_id, "podcastId": podcast, "forceRegenerate": force}),
            )
            .await
        }
    };
    let close = review(lup.clone(), false).await;
    let far = review(history.clone(), false).await;
    let close_answer = close.data()["result"]["answer"].clone();
    let far_answer = far.data()["result"]["answer"].clone();
    let rating = |answer: &Value| answer["rating"].as_u64().unwrap();
    assert!((1..=5).contains(&rating(&close_answer)));
    assert!(
        rating(&close_answer) > rating(&far_answer),
        "{close_answer} vs {far_answer}"
    );
    assert!(
        close_answer["justification"]
            .as_str()
            .unwrap()
            .contains("linux")
    );
    assert_eq!(close.usage_count(), Some(1));
    assert_eq!(far.usage_count(), Some(2));

    // Asking again reuses the stored review without a charge; forcing makes a new one.
    let again = review(lup.clone(), false).await;
    assert_eq!(again.data()["result"]["answer"], close_answer);
    assert_eq!(again.usage_count(), None);
    let forced = review(lup.clone(), true).await;
    assert_eq!(forced.usage_count(), Some(3));

    // The score lands on the listing once the podcast is listed and reviewed.
    let slug = linux["slug"].as_str().unwrap();
    http.post(
        &format!("/api/v1/projects/{slug}/podcasts"),
        &key,
        json!({"podcastId": lup}),
    )
    .await
    .data();
    review(lup.clone(), true).await.data();
    let details = http
        .get(&format!("/api/v1/projects/{slug}/details"), &key)
        .await;
    let listed = &details.data()["project"]["listedPodcasts"][0];
    assert_eq!(
        listed["analysis"]["relevancyScore"].as_f64().unwrap(),
        rating(&close_answer) as f64
    );

    // The listed podcast's review is the stored one (no new charge).
    let listed_id = listed["listedPodcastId"].as_str().unwrap();
    let by_listing = http
        .get(
            &format!("/api/v1/projects/{slug}/podcasts/{listed_id}/relevancy"),
            &key,
        )
        .await;
    assert_eq!(
        by_listing.data()["result"]["answer"]["rating"],
        close_answer["rating"]
    );
    assert_eq!(by_listing.usage_count(), None);
    let missing = http
        .get(
            &format!("/api/v1/projects/{slug}/podcasts/nope/relevancy"),
            &key,
        )
        .await;
    assert_eq!(missing.status, 404);
    assert_eq!(missing.message(), "Listed podcast not found: nope");

    let unknown = review("no-such-podcast".into(), false).await;
    assert_eq!(unknown.status, 404);
    assert_eq!(unknown.message(), "Podcast not found: no-such-podcast");
}

/// What the fake endpoint received: the Authorization header and the body.
type Received = Vec<(Option<String>, Value)>;

#[derive(Clone, Default)]
struct Fake {
    requests: Arc<Mutex<Received>>,
    failures_left: Arc<Mutex<u32>>,
}

async fn fake_completions(
    State(fake): State<Fake>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> (StatusCode, Json<Value>) {
    let auth = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    fake.requests.lock().unwrap().push((auth, body.clone()));
    {
        let mut failures = fake.failures_left.lock().unwrap();
        if *failures > 0 {
            *failures -= 1;
            return (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(json!({"error": {"message": "overloaded"}})),
            );
        }
    }
    let user: Value =
        serde_json::from_str(body["messages"][1]["content"].as_str().unwrap()).unwrap();
    let value = user["value"].as_str().unwrap_or_default();
    let content =
        json!({"spellings": [format!("{value}x"), value, format!("{value}y")]}).to_string();
    (
        StatusCode::OK,
        Json(json!({
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 20, "completion_tokens": 7, "total_tokens": 27}
        })),
    )
}

async fn fake_server(fake: Fake) -> String {
    let app = axum::Router::new()
        .route("/v1/chat/completions", post(fake_completions))
        .with_state(fake);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    format!("http://{address}/v1")
}

#[tokio::test]
async fn the_openai_compatible_provider_retries_and_its_answers_reach_the_api() {
    let fake = Fake::default();
    *fake.failures_left.lock().unwrap() = 1;
    let base_url = fake_server(fake.clone()).await;
    let provider = OpenAiProvider::new(OpenAiConfig {
        base_url,
        model: "test-model".into(),
        api_key: Some("sk-test".into()),
        timeout: Duration::from_secs(5),
        retries: 2,
        backoff: Duration::from_millis(10),
    })
    .unwrap();
    let http = start_with(|state| state.assist = Arc::new(provider)).await;
    let key = http.key("agent-openai@example.com", "business");
    let answer = http
        .post(
            "/api/v1/agent/alternative-spellings",
            &key,
            json!({"value": "Ada"}),
        )
        .await;
    // The provider's echo of the input is dropped; the others come through in order.
    assert_eq!(answer.data()["spellings"], json!(["Adax", "Aday"]));
    let requests = fake.requests.lock().unwrap().clone();
    assert_eq!(requests.len(), 2, "one failure, one retry");
    let (auth, body) = &requests[1];
    assert_eq!(auth.as_deref(), Some("Bearer sk-test"));
    assert_eq!(body["model"], "test-model");
    assert_eq!(body["messages"][0]["role"], "system");
    assert_eq!(
        body["messages"][0]["content"],
        AssistTask::AlternativeSpellings {
            value: "Ada".into()
        }
        .instructions()
    );
}

#[tokio::test]
async fn an_unreachable_provider_is_reported_not_hidden() {
    // A port nothing listens on: bind one, then drop it.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let provider = OpenAiProvider::new(OpenAiConfig {
        base_url: format!("http://127.0.0.1:{port}/v1"),
        model: "m".into(),
        retries: 1,
        backoff: Duration::from_millis(10),
        timeout: Duration::from_secs(2),
        ..OpenAiConfig::default()
    })
    .unwrap();
    let http = start_with(|state| state.assist = Arc::new(provider)).await;
    let key = http.key("agent-down@example.com", "business");
    let answer = http
        .post(
            "/api/v1/agent/alternative-spellings",
            &key,
            json!({"value": "Ada"}),
        )
        .await;
    assert_eq!(answer.status, 503, "{}", answer.body);
    assert!(answer.message().contains("unreachable"), "{}", answer.body);
}

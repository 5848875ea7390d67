//! The HTTP mapping of a search, with a double of the search engine behind the real
//! services: what the engine answers (a page, a cursor, each kind of failure) is set
//! by the test, so each status, message and header the API derives from it is checked
//! on its own, with the engine's own word for what it did.

mod common;

use std::sync::{Arc, Mutex};

use axum::http::StatusCode;
use common::{key, ok_data, post, search_hits, searches_used, shared, state};
use podlens_app::error::{AppError, AppResult};
use podlens_app::search::engine::{EngineFuture, GenerationInfo, SearchEngine};
use podlens_indexer::directory::Directory;
use podlens_indexer::{
    Autocomplete, Hits, PodcastHit, SearchMode, SearchRequest, SearchResponse, SemanticRequest,
    Timings,
};
use serde_json::json;
use uuid::Uuid;

/// What the double answers a search with.
type Answer = Box<dyn Fn(&SearchRequest) -> AppResult<SearchResponse> + Send + Sync>;

/// A search engine whose answers the test writes; it keeps the requests it was sent.
struct ScriptedEngine {
    answer: Answer,
    /// The generation it serves; `None`: it has none yet (not built, nodes down).
    generation: Mutex<Option<u64>>,
    asked: Mutex<Vec<SearchRequest>>,
}

impl std::fmt::Debug for ScriptedEngine {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("ScriptedEngine")
            .finish_non_exhaustive()
    }
}

impl ScriptedEngine {
    fn new(
        answer: impl Fn(&SearchRequest) -> AppResult<SearchResponse> + Send + Sync + 'static,
    ) -> Arc<ScriptedEngine> {
        Arc::new(ScriptedEngine {
            answer: Box::new(answer),
            generation: Mutex::new(Some(7)),
            asked: Mutex::new(Vec::new()),
        })
    }

    fn asked(&self) -> Vec<SearchRequest> {
        self.asked.lock().unwrap().clone()
    }
}

fn not_scripted<'a, T: Send + 'a>() -> EngineFuture<'a, T> {
    Box::pin(async { Err(AppError::Internal("not scripted".into())) })
}

impl SearchEngine for ScriptedEngine {
    fn search(&self, request: SearchRequest) -> EngineFuture<'_, SearchResponse> {
        let answer = (self.answer)(&request);
        self.asked.lock().unwrap().push(request);
        Box::pin(async move { answer })
    }

    fn semantic_search(&self, _request: SemanticRequest) -> EngineFuture<'_, SearchResponse> {
        not_scripted()
    }

    fn related_podcasts(&self, _podcast: Uuid, _limit: usize) -> EngineFuture<'_, Vec<PodcastHit>> {
        not_scripted()
    }

    fn autocomplete(&self, _prefix: String, _limit: usize) -> EngineFuture<'_, Autocomplete> {
        not_scripted()
    }

    fn directory(&self) -> EngineFuture<'_, Arc<Directory>> {
        not_scripted()
    }

    fn podcast_hits(&self, _ids: Vec<Uuid>) -> EngineFuture<'_, Vec<PodcastHit>> {
        Box::pin(async { Ok(Vec::new()) })
    }

    fn generation(&self) -> EngineFuture<'_, GenerationInfo> {
        let generation = *self.generation.lock().unwrap();
        Box::pin(async move {
            let generation = generation
                .ok_or_else(|| AppError::Unavailable("The search index is not built yet".into()))?;
            Ok(GenerationInfo {
                generation,
                vectors: false,
            })
        })
    }
}

fn page(hits: Vec<PodcastHit>, total: u64, next_cursor: Option<String>) -> SearchResponse {
    SearchResponse {
        hits: Hits::Podcasts(hits),
        total,
        next_cursor,
        generation: 7,
        timings: Timings::default(),
    }
}

/// The API over the fixture's catalog, with `engine` as its search index.
fn app_with(engine: Arc<ScriptedEngine>) -> (axum::Router, String, tempfile::TempDir) {
    let (mut state, dir) = state();
    state.app.engine = engine;
    let key = key(&state, "double@example.com", "admin");
    (podlens_api::app(state), key, dir)
}

/// A podcast search for `words` through the API.
async fn search(app: &axum::Router, key: &str, words: &str) -> common::Reply {
    post(
        app,
        "/api/v1/search/podcasts",
        Some(key),
        search_body(words),
    )
    .await
}

/// The API's answer when the engine fails every search with `error`, and the engine.
async fn refused_with(error: fn() -> AppError) -> (common::Reply, Arc<ScriptedEngine>) {
    let engine = ScriptedEngine::new(move |_| Err(error()));
    let (app, key, _dir) = app_with(engine.clone());
    (search(&app, &key, "garden").await, engine)
}

/// The ids of the fixture catalog's podcasts.
fn catalog_ids() -> Vec<Uuid> {
    shared()
        .fixture
        .batches
        .iter()
        .map(|batch| batch.podcast.podcast_id)
        .collect()
}

fn search_body(words: &str) -> serde_json::Value {
    json!({"searchTerms": [{"searchTerm": words, "searchType": "text",
        "searchTargets": ["podcast-title", "podcast-description"],
        "searchTermOptions": {"matchMode": "optional"}}], "pageSize": 2})
}

#[tokio::test]
async fn an_engine_that_cannot_answer_is_a_503_with_its_message_and_retry_after() {
    let (reply, _) =
        refused_with(|| AppError::Unavailable("Search node 2 of 3 is not answering".into())).await;
    assert_eq!(
        reply.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        reply.text
    );
    assert_eq!(reply.headers["retry-after"], "1");
    assert_eq!(reply.body["status"], "SERVICE_UNAVAILABLE");
    assert_eq!(
        reply.body["data"]["message"],
        "Search node 2 of 3 is not answering"
    );
}

#[tokio::test]
async fn an_engine_refusing_what_the_client_sent_is_a_400_with_its_message() {
    let (reply, _) =
        refused_with(|| AppError::Invalid("The cursor does not belong to this search".into()))
            .await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.text);
    assert_eq!(reply.body["status"], "BAD_REQUEST");
    assert_eq!(
        reply.body["data"]["message"],
        "The cursor does not belong to this search"
    );
    assert!(reply.headers.get("retry-after").is_none());
}

#[tokio::test]
async fn an_engine_failure_is_a_500_that_does_not_show_its_cause() {
    let (reply, engine) = refused_with(|| {
        AppError::Internal("mmap of /srv/podlens/index/gen-9/shard-0 failed".into())
    })
    .await;
    assert_eq!(engine.asked().len(), 1, "the failure is the engine's");
    assert_eq!(reply.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(reply.body["data"]["message"], "Internal server error");
    assert!(!reply.text.contains("/srv/podlens"), "{}", reply.text);
}

#[tokio::test]
async fn the_engine_gets_the_clients_words_and_page_size_and_its_order_is_kept() {
    let catalog = catalog_ids();
    // The engine ranks the catalog's third podcast above its first, and its order is
    // not the scores' (a fused ranking's need not be).
    let (first, second) = (catalog[2], catalog[0]);
    let engine = ScriptedEngine::new(move |_| {
        Ok(page(
            vec![
                PodcastHit::unread(first, 4.25),
                PodcastHit::unread(second, 9.5),
            ],
            41,
            None,
        ))
    });
    let (app, key, _dir) = app_with(engine.clone());
    let reply = search(&app, &key, "garden tools").await;
    let ids: Vec<&str> = search_hits(&reply)
        .iter()
        .map(|hit| hit["podcastId"].as_str().expect("podcastId"))
        .collect();
    assert_eq!(ids, [first.to_string(), second.to_string()]);
    let data = ok_data(&reply);
    assert_eq!(data["result"]["total"]["value"], 41, "{}", reply.text);
    assert_eq!(data["result"]["maxScore"], 9.5);
    assert_eq!(data["cursor"], serde_json::Value::Null);

    let asked = engine.asked();
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].page_size, 2);
    assert_eq!(asked[0].terms.len(), 1);
    assert_eq!(asked[0].terms[0].text, "garden tools");
    assert_eq!(asked[0].mode, Some(SearchMode::Podcasts));
}

#[tokio::test]
async fn the_engines_cursor_comes_back_to_it_as_it_was_and_a_new_generation_is_a_409() {
    let catalog = catalog_ids();
    let (one, two) = (catalog[0], catalog[1]);
    // A fused page's cursor: its offset, valid for the generation that made it.
    let engine = ScriptedEngine::new(move |request| {
        let cursor = podlens_indexer::cursor::encode_fused(SearchMode::Podcasts, &request.sort, 2);
        Ok(page(
            vec![PodcastHit::unread(one, 2.0), PodcastHit::unread(two, 1.0)],
            10,
            Some(cursor),
        ))
    });
    let (app, key, _dir) = app_with(engine.clone());
    let first = search(&app, &key, "garden").await;
    let wire_cursor = ok_data(&first)["cursor"]
        .as_str()
        .expect("a next page")
        .to_owned();
    let engine_cursor =
        podlens_indexer::cursor::encode_fused(SearchMode::Podcasts, &engine.asked()[0].sort, 2);
    // The client holds a signed cursor, not the engine's.
    assert_ne!(wire_cursor, engine_cursor);

    let mut next = search_body("garden");
    next["cursor"] = json!(wire_cursor);
    let second = post(&app, "/api/v1/search/podcasts", Some(&key), next.clone()).await;
    ok_data(&second);
    assert_eq!(
        engine.asked()[1].cursor.as_deref(),
        Some(engine_cursor.as_str())
    );

    // A new generation reorders a fused ranking: its old cursors are refused.
    *engine.generation.lock().unwrap() = Some(8);
    let stale = post(&app, "/api/v1/search/podcasts", Some(&key), next).await;
    assert_eq!(stale.status, StatusCode::CONFLICT, "{}", stale.text);
    assert_eq!(
        stale.body["data"]["message"],
        "The search results changed since this cursor was issued; restart the search without the cursor"
    );
    assert_eq!(
        engine.asked().len(),
        2,
        "a refused cursor never reaches the engine"
    );
}

#[tokio::test]
async fn a_search_the_engine_cannot_serve_yet_is_refused_before_it_is_charged() {
    let engine = ScriptedEngine::new(|_| Ok(page(Vec::new(), 0, None)));
    *engine.generation.lock().unwrap() = None;
    let (app, key, _dir) = app_with(engine.clone());
    let reply = search(&app, &key, "garden").await;
    assert_eq!(
        reply.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        reply.text
    );
    assert_eq!(
        reply.body["data"]["message"],
        "The search index is not built yet"
    );
    assert_eq!(reply.headers["retry-after"], "1");
    assert!(engine.asked().is_empty());
    assert_eq!(
        searches_used(&app, &key).await,
        0,
        "a refused search is not charged"
    );

    // Once it serves, the same search is answered and charged once.
    *engine.generation.lock().unwrap() = Some(7);
    let reply = search(&app, &key, "garden").await;
    ok_data(&reply);
    assert_eq!(searches_used(&app, &key).await, 1);
}

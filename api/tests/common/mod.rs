//! Shared test setup: a fixture data directory, the app over it, and request helpers.

#![allow(dead_code)]

pub mod fixture;
#[path = "../../../indexer/tests/common/fixture_dir.rs"]
pub mod fixture_dir;

use std::sync::OnceLock;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use podlens_api::AppState;
use serde_json::Value;
use tower::ServiceExt;

/// A folder for a fixture kept for the whole test run (see `fixture_dir`).
pub fn fixture_dir(name: &str) -> std::path::PathBuf {
    fixture_dir::fixture_dir_under(std::path::Path::new(env!("CARGO_TARGET_TMPDIR")), name)
}

/// One fixture data directory per test binary (building it takes a moment).
pub struct Shared {
    pub dir: std::path::PathBuf,
    pub fixture: fixture::Fixture,
}

pub fn shared() -> &'static Shared {
    static SHARED: OnceLock<Shared> = OnceLock::new();
    SHARED.get_or_init(|| {
        let dir = fixture_dir("api-fixture");
        let fixture = fixture::build_fixture(&dir);
        Shared { dir, fixture }
    })
}

/// A fresh app state over a copy-free view of the shared catalog, with its own
/// application store so tests do not share usage counters.
pub fn state() -> (AppState, tempfile::TempDir) {
    let shared = shared();
    let own = tempfile::tempdir().expect("tempdir");
    for entry in ["parquet", "index"] {
        let from = shared.dir.join(entry);
        #[cfg(unix)]
        std::os::unix::fs::symlink(&from, own.path().join(entry)).expect("symlink");
    }
    // The store: a fresh PostgreSQL database when PODLENS_TEST_DATABASE_URL names a
    // server (CI runs this suite a second time so), else a private SQLite one.
    let database = podlens_store::Database::for_tests().expect("test store");
    let state = podlens_api::server::open_state_with(
        own.path().to_path_buf(),
        None,
        std::sync::Arc::new(database),
    )
    .expect("state opens");
    (state, own)
}

pub fn key(state: &AppState, email: &str, plan: &str) -> String {
    podlens_app::runtime::block_on_own_thread(state.accounts.create_api_key(email, plan))
        .expect("key")
        .api_key
}

pub struct Reply {
    pub status: StatusCode,
    pub headers: axum::http::HeaderMap,
    pub body: Value,
    pub text: String,
    /// The body as sent (compressed when the request accepted it).
    pub bytes: Vec<u8>,
}

pub async fn call(
    app: &Router,
    method: &str,
    uri: &str,
    key: Option<&str>,
    body: Option<Value>,
) -> Reply {
    let mut builder = Request::builder().method(method).uri(uri);
    if let Some(key) = key {
        builder = builder.header("authorization", key);
    }
    let request = match body {
        Some(body) => builder
            .header("content-type", "application/json")
            .body(Body::from(body.to_string())),
        None => builder.body(Body::empty()),
    }
    .expect("request");
    send(app, request).await
}

/// Sends a request built by the caller (its own headers) and reads the whole answer.
pub async fn send(app: &Router, request: Request<Body>) -> Reply {
    let response = app.clone().oneshot(request).await.expect("response");
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .expect("body")
        .to_vec();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let body = serde_json::from_str(&text).unwrap_or(Value::Null);
    Reply {
        status,
        headers,
        body,
        text,
        bytes,
    }
}

pub async fn get(app: &Router, uri: &str, key: Option<&str>) -> Reply {
    call(app, "GET", uri, key, None).await
}

pub async fn post(app: &Router, uri: &str, key: Option<&str>, body: Value) -> Reply {
    call(app, "POST", uri, key, Some(body)).await
}

/// The `data` of an OK envelope, failing with the body otherwise.
/// The searches the caller has been charged this month, as their usage page shows them.
pub async fn searches_used(app: &Router, key: &str) -> u64 {
    let usage = get(app, "/api/v1/teams/usage/current", Some(key)).await;
    ok_data(&usage)["aliases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|alias| alias["alias"] == "searchCount")
        .and_then(|alias| alias["used"].as_u64())
        .unwrap_or(0)
}

pub fn ok_data(reply: &Reply) -> &Value {
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.body["status"], "OK", "{}", reply.text);
    &reply.body["data"]
}

/// The hits of a search's successful reply.
pub fn search_hits(reply: &Reply) -> &[Value] {
    ok_data(reply)["result"]["hits"].as_array().expect("hits")
}

/// Serves `dir` on loopback (a feed server); returns its base URL.
pub async fn serve_files(dir: std::path::PathBuf) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let app = Router::new().fallback_service(tower_http::services::ServeDir::new(dir));
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{address}")
}

/// The feed without its newest item (the first `<item>` of the file).
pub fn without_first_item(feed: &str) -> String {
    let start = feed.find("<item>").expect("an item");
    let end = feed[start..].find("</item>").expect("item end") + start + "</item>".len();
    format!("{}{}", &feed[..start], &feed[end..])
}

//! The web app's built bundle (`web/dist`), served for every path outside `/api`,
//! with unknown paths answered by `index.html` so the app's router can take them; and
//! the media of `podlens demo`'s generated corpus under `/demo-corpus/`.

use std::path::Path;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::HeaderValue;
use axum::http::header::{CONTENT_SECURITY_POLICY, LOCATION, X_CONTENT_TYPE_OPTIONS};
use axum::response::{IntoResponse, Response};
use tower::ServiceExt;
use tower_http::services::{ServeDir, ServeFile};

use crate::error::ApiError;
use crate::state::AppState;

/// The folder of the data directory `podlens demo` generates its corpus into, and the
/// first segment of the path the server serves it under (feeds, covers, audio, sites):
/// the corpus's URLs stay valid for as long as the data directory is served, on the
/// demo's port, by the demo or by a later `podlens serve`.
pub const DEMO_CORPUS: &str = "demo-corpus";

/// The fallback of the whole app.
pub async fn fallback(State(state): State<AppState>, request: Request) -> Response {
    let path = request.uri().path();
    if demo_corpus_path(path).is_some() {
        let corpus = state.data_dir.join(DEMO_CORPUS);
        if corpus.is_dir() {
            return serve_demo_corpus(&corpus, request).await;
        }
    }
    let is_api = path == "/api" || path.starts_with("/api/");
    match (&state.web_dir, is_api) {
        (Some(dir), false) if dir.join("index.html").is_file() => serve_bundle(dir, request).await,
        _ => ApiError::RouteNotFound.into_response(),
    }
}

/// The path inside the demo corpus of a request path under `/demo-corpus/`.
fn demo_corpus_path(path: &str) -> Option<&str> {
    path.strip_prefix('/')?
        .strip_prefix(DEMO_CORPUS)?
        .strip_prefix('/')
}

/// A file of the demo's corpus in `corpus` for a request under `/demo-corpus/` (a
/// folder's `index.html` for a path ending in `/`, 404 for anything missing). What is
/// served is generated content from the app's own origin, so it is served inert: no
/// MIME sniffing, and pages sandboxed (no scripts, no same-origin access).
pub async fn serve_demo_corpus(corpus: &Path, request: Request) -> Response {
    let Some(inner) =
        demo_corpus_path(request.uri().path()).map(|rest| match request.uri().query() {
            Some(query) => format!("/{rest}?{query}"),
            None => format!("/{rest}"),
        })
    else {
        return ApiError::RouteNotFound.into_response();
    };
    let (mut parts, body) = request.into_parts();
    let Ok(uri) = inner.parse() else {
        return ApiError::RouteNotFound.into_response();
    };
    parts.uri = uri;
    let request = Request::from_parts(parts, body);
    let mut response = match ServeDir::new(corpus).oneshot(request).await {
        Ok(response) if response.status().is_success() || response.status().is_redirection() => {
            response.map(Body::new)
        }
        Ok(_) => return ApiError::RouteNotFound.into_response(),
        Err(error) => return ApiError::internal(error).into_response(),
    };
    let headers = response.headers_mut();
    // A folder asked for without its slash is redirected inside the corpus's prefix.
    if let Some(location) = headers
        .get(LOCATION)
        .and_then(|value| value.to_str().ok())
        .filter(|location| location.starts_with('/'))
        .and_then(|location| HeaderValue::from_str(&format!("/{DEMO_CORPUS}{location}")).ok())
    {
        headers.insert(LOCATION, location);
    }
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(CONTENT_SECURITY_POLICY, HeaderValue::from_static("sandbox"));
    response
}

async fn serve_bundle(dir: &Path, request: Request) -> Response {
    let service = ServeDir::new(dir).fallback(ServeFile::new(dir.join("index.html")));
    match service.oneshot(request.map(Body::new)).await {
        Ok(response) => response.map(Body::new),
        Err(error) => ApiError::internal(error).into_response(),
    }
}

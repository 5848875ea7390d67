//! The web app's built bundle (`web/dist`), served for every path outside `/api`,
//! with unknown paths answered by `index.html` so the app's router can take them; and
//! the media of `podlens demo`'s generated corpus under `/demo-corpus/`.
//!
//! The bundle's scripts and styles under `/assets/` are named after a hash of their
//! content, so they are cached for a year and never revalidated; `index.html` and the
//! other files are revalidated on every use, so a new release is seen on the next visit.
//! A file is sent as the build's brotli or gzip copy beside it (`app.js.br`,
//! `app.js.gz`) when the client accepts that encoding; anything else compressible is
//! compressed on the way out (brotli or gzip, by what the client accepts).

use std::path::Path;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{
    ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_SECURITY_POLICY, LOCATION, VARY, X_CONTENT_TYPE_OPTIONS,
};
use axum::http::{HeaderValue, StatusCode};
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

/// The folder of the bundle's content-hashed files, and the first segment of their path.
const ASSETS: &str = "/assets/";

/// How long a content-hashed file may be kept: a year, without asking again.
const HASHED_FILE_CACHING: &str = "public, max-age=31536000, immutable";

/// `index.html` and the bundle's other files: kept, but checked on every use.
const REVALIDATED_FILE_CACHING: &str = "no-cache";

async fn serve_bundle(dir: &Path, request: Request) -> Response {
    let hashed = request.uri().path().starts_with(ASSETS);
    let files = ServeDir::new(dir).precompressed_br().precompressed_gzip();
    let answer = if hashed {
        // A hashed file that is not there is a 404, never `index.html` in its stead: a
        // page left open across a release then loads the app again instead of running
        // (or caching for a year) a page where it expected a script.
        files.oneshot(request.map(Body::new)).await
    } else {
        let index = ServeFile::new(dir.join("index.html"))
            .precompressed_br()
            .precompressed_gzip();
        files.fallback(index).oneshot(request.map(Body::new)).await
    };
    let mut response = match answer {
        Ok(response) if hashed && response.status() == StatusCode::NOT_FOUND => {
            return ApiError::RouteNotFound.into_response();
        }
        Ok(response) => response.map(Body::new),
        Err(error) => return ApiError::internal(error).into_response(),
    };
    let status = response.status();
    if status.is_success() || status == StatusCode::NOT_MODIFIED {
        let caching = if hashed {
            HASHED_FILE_CACHING
        } else {
            REVALIDATED_FILE_CACHING
        };
        let headers = response.headers_mut();
        headers.insert(CACHE_CONTROL, HeaderValue::from_static(caching));
        // The same path is sent as brotli, gzip or as is, by what the client accepts.
        headers.append(VARY, HeaderValue::from_name(ACCEPT_ENCODING));
    }
    response
}

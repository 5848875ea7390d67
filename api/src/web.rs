//! The web app's built bundle (`web/dist`), served for every path outside `/api`,
//! with unknown paths answered by `index.html` so the app's router can take them; and
//! the media of `podlens demo`'s generated corpus under `/demo-corpus/`.

use std::path::Path;

use axum::body::Body;
use axum::extract::{Request, State};
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
    if let Some(rest) = path
        .strip_prefix('/')
        .and_then(|path| path.strip_prefix(DEMO_CORPUS))
        .and_then(|path| path.strip_prefix('/'))
    {
        let corpus = state.data_dir.join(DEMO_CORPUS);
        if corpus.is_dir() {
            let rest = format!("/{rest}");
            return serve_demo_corpus(&corpus, &rest, request).await;
        }
    }
    let is_api = path == "/api" || path.starts_with("/api/");
    match (&state.web_dir, is_api) {
        (Some(dir), false) if dir.join("index.html").is_file() => serve_bundle(dir, request).await,
        _ => ApiError::RouteNotFound.into_response(),
    }
}

/// A file of the demo's corpus, `path` inside it (no index page, 404 when missing).
async fn serve_demo_corpus(dir: &Path, path: &str, request: Request) -> Response {
    let (mut parts, body) = request.into_parts();
    let Ok(uri) = path.parse() else {
        return ApiError::RouteNotFound.into_response();
    };
    parts.uri = uri;
    let request = Request::from_parts(parts, body);
    match ServeDir::new(dir).oneshot(request).await {
        Ok(response) if response.status().is_success() || response.status().is_redirection() => {
            response.map(Body::new)
        }
        Ok(_) => ApiError::RouteNotFound.into_response(),
        Err(error) => ApiError::internal(error).into_response(),
    }
}

async fn serve_bundle(dir: &Path, request: Request) -> Response {
    let service = ServeDir::new(dir).fallback(ServeFile::new(dir.join("index.html")));
    match service.oneshot(request.map(Body::new)).await {
        Ok(response) => response.map(Body::new),
        Err(error) => ApiError::internal(error).into_response(),
    }
}

//! The web app's built bundle (`web/dist`), served for every path outside `/api`,
//! with unknown paths answered by `index.html` so the app's router can take them.

use std::path::Path;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::response::{IntoResponse, Response};
use tower::ServiceExt;
use tower_http::services::{ServeDir, ServeFile};

use crate::error::ApiError;
use crate::state::AppState;

/// The fallback of the whole app.
pub async fn fallback(State(state): State<AppState>, request: Request) -> Response {
    let path = request.uri().path();
    let is_api = path == "/api" || path.starts_with("/api/");
    match (&state.web_dir, is_api) {
        (Some(dir), false) if dir.join("index.html").is_file() => serve_bundle(dir, request).await,
        _ => ApiError::RouteNotFound.into_response(),
    }
}

async fn serve_bundle(dir: &Path, request: Request) -> Response {
    let service = ServeDir::new(dir).fallback(ServeFile::new(dir.join("index.html")));
    match service.oneshot(request.map(Body::new)).await {
        Ok(response) => response.map(Body::new),
        Err(error) => ApiError::internal(error).into_response(),
    }
}

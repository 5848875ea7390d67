//! `GET /api/v1/public/health`: liveness, and what the server is serving.

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use serde::Serialize;
use utoipa::ToSchema;

use crate::envelope::Envelope;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/v1/public/health", get(health))
}

/// Health of the server.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Health {
    /// Always `ok` when the server answers.
    pub status: String,
    pub version: String,
}

/// Liveness check.
#[utoipa::path(get, path = "/api/v1/public/health", tag = "health",
    responses((status = 200, description = "The server is up", body = Health)))]
pub async fn health(State(_state): State<AppState>) -> Envelope<Health> {
    Envelope(Health {
        status: "ok".to_owned(),
        version: env!("CARGO_PKG_VERSION").to_owned(),
    })
}

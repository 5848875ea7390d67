//! `GET` and `POST /websub/{token}`: the WebSub subscriber's callback (see
//! [`podlens_app::workflows::websub`]). Hubs, not API clients, call it: the answers are
//! plain, as the WebSub specification has them, not the API's envelope.

use std::collections::HashMap;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::error::ApiError;
use crate::state::AppState;
use podlens_app::workflows::websub::{self, Verification};

/// The largest delivery taken: a hub may send the whole feed.
const DELIVERY_LIMIT: usize = 16 * 1024 * 1024;

pub fn router() -> Router<AppState> {
    Router::new().route(
        "/websub/{token}",
        get(verify)
            .post(deliver)
            .layer(DefaultBodyLimit::max(DELIVERY_LIMIT)),
    )
}

fn plain(status: StatusCode, text: String) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        text,
    )
        .into_response()
}

/// The hub's verification of intent: the challenge echoed, or 404.
async fn verify(
    State(state): State<AppState>,
    Path(token): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let verification = Verification {
        mode: query.get("hub.mode").cloned().unwrap_or_default(),
        topic: query.get("hub.topic").cloned().unwrap_or_default(),
        challenge: query.get("hub.challenge").cloned(),
        lease_seconds: query
            .get("hub.lease_seconds")
            .and_then(|value| value.trim().parse().ok()),
        reason: query.get("hub.reason").cloned(),
    };
    match websub::verify(&state.feeds, &token, &verification).await {
        Ok(challenge) => plain(StatusCode::OK, challenge),
        Err(error) => ApiError::from(error).into_response(),
    }
}

/// A content delivery: acknowledged (202) when the token names an active
/// subscription, whether or not its signature holds.
async fn deliver(
    State(state): State<AppState>,
    Path(token): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let signature = headers
        .get("x-hub-signature-256")
        .and_then(|value| value.to_str().ok())
        .map(|value| {
            if value.contains('=') {
                value.to_owned()
            } else {
                format!("sha256={value}")
            }
        })
        .or_else(|| {
            headers
                .get("x-hub-signature")
                .and_then(|value| value.to_str().ok())
                .map(str::to_owned)
        });
    match websub::deliver(&state.feeds, &token, body, signature).await {
        Ok(_) => plain(StatusCode::ACCEPTED, String::new()),
        Err(error) => ApiError::from(error).into_response(),
    }
}

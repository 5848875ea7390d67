//! The HTTP API (axum): Pod Engine-compatible routes under `/api/v1`, API-key auth,
//! plans and metering, the OpenAPI document, and the web app's static bundle.
//!
//! [`app`] builds the whole router over an [`AppState`] (the services of
//! `podlens-app` and the web bundle); [`server::serve`] runs it for `podlens serve`.
//! Handlers extract what a request says, call a service and map its answer or its
//! [`podlens_app::AppError`] to HTTP.

pub mod auth;
pub mod conditional;
pub mod envelope;
pub mod error;
pub mod extract;
pub mod metering;
pub mod openapi;
pub mod routes;
pub mod search_node;
pub mod server;
pub mod state;
pub mod telemetry;
pub mod web;

use axum::Router;

pub use error::{ApiError, ApiResult};
pub use state::AppState;
pub use web::DEMO_CORPUS;

/// The whole application: every route, with `state`.
pub fn app(state: AppState) -> Router {
    telemetry::install();
    Router::new()
        .merge(routes::health::router())
        .merge(telemetry::router())
        .merge(routes::auth::router())
        .merge(routes::search::router())
        .merge(routes::autocomplete::router())
        .merge(routes::podcasts::router())
        .merge(routes::podcast_details::router())
        .merge(routes::podcast_sponsors::router())
        .merge(routes::podcast_catalogue::router())
        .merge(routes::podcast_all_details::router())
        .merge(routes::podcast_refresh::router())
        .merge(routes::charts::router())
        .merge(routes::episodes::router())
        .merge(routes::stats::router())
        .merge(routes::usage::router())
        .merge(routes::teams::router())
        .merge(routes::members::router())
        .merge(routes::api_keys::router())
        .merge(routes::webhooks::router())
        .merge(routes::projects::router())
        .merge(routes::exports::router())
        .merge(routes::outreach::router())
        .merge(routes::outreach_templates::router())
        .merge(routes::alerts::router())
        .merge(routes::agent::router())
        .merge(routes::guest_prep::router())
        .merge(routes::custom_prompts::router())
        .merge(routes::deep_analysis::router())
        .merge(routes::preferences::router())
        .merge(routes::guest_profiles::router())
        .merge(routes::transcriptions::router())
        .merge(routes::polling::router())
        .merge(routes::strategies::router())
        .merge(routes::passages::router())
        .merge(routes::operator::router())
        .merge(routes::websub::router())
        .merge(openapi::router())
        .fallback(web::fallback)
        .layer(axum::extract::DefaultBodyLimit::max(extract::BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            auth::authenticate,
        ))
        .layer(axum::middleware::from_fn(extract::finish_reading_bodies))
        .layer(axum::middleware::from_fn(error::envelope_plain_failures))
        .layer(axum::middleware::from_fn(conditional::conditional_get))
        // The fastest level of each encoding, as web servers compress on the fly (nginx's
        // gzip level 1): a page of 100 episode hits (270 KB of JSON) still shrinks to a
        // sixth, and the level-6 default cost more CPU than answering the search itself.
        .layer(
            tower_http::compression::CompressionLayer::new()
                .quality(tower_http::compression::CompressionLevel::Fastest),
        )
        .layer(axum::middleware::from_fn(telemetry::track))
        .with_state(state)
}

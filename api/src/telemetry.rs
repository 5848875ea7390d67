//! What an operator watches: `GET /metrics` in the Prometheus text format.
//!
//! - `podlens_http_requests_total{route,method,status}`: answers by route template
//!   (`/api/v1/podcasts/{podcastIdOrSlug}`, not the id; `unmatched` for the web app
//!   and unknown paths) and status code; searches per second are
//!   `rate(podlens_http_requests_total{route=~"/api/v1/search/.*"}[1m])`, errors by code
//!   the same with `status=~"4..|5.."`.
//! - `podlens_http_request_duration_seconds{route,method}`: a histogram of latencies.
//! - `podlens_job_passes_total`, `podlens_job_failures_total{job}`,
//!   `podlens_job_pass_duration_seconds`: the background jobs.
//! - `podlens_index_generation`, `podlens_index_age_seconds`, `podlens_index_podcasts`,
//!   `podlens_index_episodes`, `podlens_catalog_snapshot_age_seconds`: read from the
//!   data directory when scraped.

use std::sync::OnceLock;
use std::time::Instant;

use axum::Router;
use axum::extract::{MatchedPath, Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use chrono::{DateTime, Utc};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use crate::state::AppState;

/// Latency buckets, in seconds: from a cached lookup to a slow export.
const LATENCY_BUCKETS: &[f64] = &[
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// The process's recorder, installed on first use; `None` when another recorder was
/// installed first (an embedding program's own).
fn handle() -> Option<&'static PrometheusHandle> {
    static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let builder = PrometheusBuilder::new()
                .set_buckets_for_metric(
                    Matcher::Suffix("duration_seconds".to_owned()),
                    LATENCY_BUCKETS,
                )
                .map_err(|error| tracing::warn!(%error, "metrics buckets refused"))
                .ok()?;
            builder
                .install_recorder()
                .map_err(|error| tracing::warn!(%error, "metrics recorder not installed"))
                .ok()
        })
        .as_ref()
}

/// Installs the recorder (idempotent), so counters count from the start.
pub fn install() {
    let _ = handle();
}

/// Middleware: counts every answer and times it, by route template.
pub async fn track(request: Request, next: Next) -> Response {
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_owned(), |path| path.as_str().to_owned());
    let method = request.method().as_str().to_owned();
    let started = Instant::now();
    let response = next.run(request).await;
    let status = response.status().as_u16().to_string();
    metrics::histogram!(
        "podlens_http_request_duration_seconds",
        "route" => route.clone(),
        "method" => method.clone()
    )
    .record(started.elapsed().as_secs_f64());
    metrics::counter!(
        "podlens_http_requests_total",
        "route" => route,
        "method" => method,
        "status" => status
    )
    .increment(1);
    response
}

fn age_seconds(now: DateTime<Utc>, at: DateTime<Utc>) -> f64 {
    (now - at).num_milliseconds().max(0) as f64 / 1000.0
}

/// Sets the gauges read from the data directory: the published index generation and
/// the catalog snapshot (files: on a blocking thread).
fn refresh_gauges(state: &AppState) {
    let now = Utc::now();
    match podlens_indexer::read_manifest(&state.data_dir.join("index")) {
        Ok(Some(manifest)) => {
            metrics::gauge!("podlens_index_generation").set(manifest.generation as f64);
            metrics::gauge!("podlens_index_podcasts").set(manifest.podcasts as f64);
            metrics::gauge!("podlens_index_episodes").set(manifest.episodes as f64);
            if let Ok(at) = DateTime::parse_from_rfc3339(&manifest.published_at) {
                metrics::gauge!("podlens_index_age_seconds")
                    .set(age_seconds(now, at.with_timezone(&Utc)));
            }
        }
        Ok(None) => {}
        Err(error) => tracing::debug!(%error, "cannot read the index manifest for metrics"),
    }
    let snapshot = state
        .data_dir
        .join(podlens_data::PARQUET_DIR)
        .join("podcasts.parquet");
    if let Ok(modified) = std::fs::metadata(snapshot).and_then(|meta| meta.modified()) {
        metrics::gauge!("podlens_catalog_snapshot_age_seconds")
            .set(age_seconds(now, DateTime::<Utc>::from(modified)));
    }
}

/// Sets the gauges read from the feed schedule.
async fn refresh_feed_gauges(state: &AppState) {
    let now = Utc::now();
    match state.feeds.database().schedule_summary(now).await {
        Ok(summary) => {
            metrics::gauge!("podlens_feeds_scheduled").set(summary.feeds as f64);
            metrics::gauge!("podlens_feeds_due").set(summary.due as f64);
            metrics::gauge!("podlens_feeds_failing").set(summary.failing as f64);
            metrics::gauge!("podlens_websub_subscriptions_active")
                .set(summary.active_subscriptions as f64);
            // How far behind its schedule the most overdue feed is.
            metrics::gauge!("podlens_ingest_lag_seconds").set(
                summary
                    .oldest_due_at
                    .map_or(0.0, |due| age_seconds(now, due)),
            );
        }
        Err(error) => tracing::debug!(%error, "cannot read the feed schedule for metrics"),
    }
}

/// Whether `request` may read the metrics: from loopback (or in-process, without a
/// peer address), or with the configured bearer token. The metrics name routes, job
/// failures and catalog sizes an outsider has no business seeing.
fn may_read_metrics(state: &AppState, request: &Request) -> bool {
    let peer = request
        .extensions()
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        .map(|axum::extract::ConnectInfo(address)| address.ip());
    if peer.is_none_or(|ip| ip.is_loopback()) {
        return true;
    }
    let Some(token) = &state.metrics_token else {
        return false;
    };
    let sent = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "))
        .unwrap_or_default();
    use sha2::Digest;
    // Compared by digest, so the time taken says nothing of the token.
    sha2::Sha256::digest(sent.trim().as_bytes()) == sha2::Sha256::digest(token.as_bytes())
}

/// `GET /metrics`: loopback clients, or others with `--metrics-token`.
async fn render(State(state): State<AppState>, request: Request) -> Response {
    if !may_read_metrics(&state, &request) {
        return (
            axum::http::StatusCode::FORBIDDEN,
            "metrics are served to loopback clients, or to others with the token of podlens serve --metrics-token (PODLENS_METRICS_TOKEN) as a Bearer token\n",
        )
            .into_response();
    }
    let Some(handle) = handle() else {
        return (
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            "metrics are recorded elsewhere in this process\n",
        )
            .into_response();
    };
    let gauges_state = state.clone();
    let _ = tokio::task::spawn_blocking(move || refresh_gauges(&gauges_state)).await;
    refresh_feed_gauges(&state).await;
    handle.run_upkeep();
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        handle.render(),
    )
        .into_response()
}

pub fn router() -> Router<AppState> {
    Router::new().route("/metrics", get(render))
}

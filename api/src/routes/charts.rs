//! The chart routes: each reads its query and calls the chart service
//! (`podlens_app::charts`), which answers from the imported chart snapshots.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::get;
use podlens_app::charts::{self, ChartQuery, PresenceQuery};
use podlens_app::runtime::blocking;
use podlens_model::entities::{
    ChartCategoriesResponse, ChartCountriesResponse, ChartResponse, PodcastChartsResponse,
};
use serde_json::Value;

use crate::envelope::Envelope;
use crate::error::ApiResult;
use crate::extract::ApiQuery;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/charts", get(chart))
        .route("/api/v1/charts/latest", get(latest))
        .route("/api/v1/charts/availability", get(availability))
        .route("/api/v1/charts/movement", get(movement))
        .route("/api/v1/charts/history", get(history))
        .route("/api/v1/charts/podcast-appearances", get(appearances))
        .route("/api/v1/charts/podcast-history", get(podcast_history))
        .route("/api/v1/charts/{chartType}/categories", get(categories))
        .route("/api/v1/charts/{chartType}/countries", get(countries))
        .route(
            "/api/v1/podcasts/{podcastIdOrSlug}/charts",
            get(podcast_charts),
        )
        .route(
            "/api/v1/podcasts/{podcastIdOrSlug}/charts/presence",
            get(podcast_presence),
        )
}

/// A chart on a day (default: its latest day) with movements.
#[utoipa::path(get, path = "/api/v1/charts", tag = "charts",
    params(("chartType" = Option<String>, Query, description = "apple (default) or spotify"),
           ("category" = Option<String>, Query, description = "Default: top podcasts"),
           ("country" = Option<String>, Query, description = "ISO code, default us"),
           ("positionsLimit" = Option<u32>, Query), ("compare" = Option<String>, Query, description = "1d (default) or 7d"),
           ("date" = Option<String>, Query, description = "YYYY-MM-DD")),
    responses((status = 200, description = "The chart, or null when it has no snapshot that day")))]
pub async fn chart(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<ChartQuery>,
) -> ApiResult<Envelope<ChartResponse>> {
    let chart = blocking(move || charts::chart(&state.catalog, &query, true)).await?;
    Ok(Envelope(chart))
}

/// A chart's latest day.
#[utoipa::path(get, path = "/api/v1/charts/latest", tag = "charts",
    params(("chartType" = Option<String>, Query), ("category" = Option<String>, Query),
           ("country" = Option<String>, Query), ("positionsLimit" = Option<u32>, Query),
           ("compare" = Option<String>, Query)),
    responses((status = 200, description = "The latest chart")))]
pub async fn latest(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<ChartQuery>,
) -> ApiResult<Envelope<ChartResponse>> {
    let chart = blocking(move || charts::chart(&state.catalog, &query, false)).await?;
    Ok(Envelope(chart))
}

/// Which days a chart has: earliest, latest, and the neighbours of a date.
#[utoipa::path(get, path = "/api/v1/charts/availability", tag = "charts",
    params(("chartType" = Option<String>, Query), ("category" = Option<String>, Query),
           ("country" = Option<String>, Query), ("date" = Option<String>, Query)),
    responses((status = 200, description = "The chart's available days")))]
pub async fn availability(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<ChartQuery>,
) -> ApiResult<Envelope<Value>> {
    let answer = blocking(move || charts::availability(&state.catalog, &query)).await?;
    Ok(Envelope(answer))
}

/// A chart's climbers, fallers, new entries and drop-offs against 1 or 7 days earlier.
#[utoipa::path(get, path = "/api/v1/charts/movement", tag = "charts",
    params(("chartType" = Option<String>, Query), ("category" = Option<String>, Query),
           ("country" = Option<String>, Query), ("date" = Option<String>, Query),
           ("compare" = Option<String>, Query), ("limit" = Option<usize>, Query)),
    responses((status = 200, description = "The chart's movers")))]
pub async fn movement(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<ChartQuery>,
) -> ApiResult<Envelope<Value>> {
    let answer = blocking(move || charts::movement(&state.catalog, &query)).await?;
    Ok(Envelope(answer))
}

/// Ranks of a chart's podcasts (those on its end day) over the days before.
#[utoipa::path(get, path = "/api/v1/charts/history", tag = "charts",
    params(("chartType" = Option<String>, Query), ("category" = Option<String>, Query),
           ("country" = Option<String>, Query), ("endDate" = Option<String>, Query),
           ("days" = Option<i64>, Query), ("rows" = Option<usize>, Query)),
    responses((status = 200, description = "The rank history")))]
pub async fn history(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<ChartQuery>,
) -> ApiResult<Envelope<Value>> {
    let answer = blocking(move || charts::history(&state.catalog, &query)).await?;
    Ok(Envelope(answer))
}

/// Every chart a podcast is on, on one day (default: the latest day it charted).
#[utoipa::path(get, path = "/api/v1/charts/podcast-appearances", tag = "charts",
    params(("identityType" = Option<String>, Query, description = "podcast or platform"),
           ("podcastIdOrSlug" = Option<String>, Query), ("platformId" = Option<String>, Query),
           ("chartType" = Option<String>, Query), ("date" = Option<String>, Query),
           ("limit" = Option<usize>, Query)),
    responses((status = 200, description = "The podcast's chart appearances"),
              (status = 404, description = "Unknown podcast")))]
pub async fn appearances(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<ChartQuery>,
) -> ApiResult<Envelope<Value>> {
    let answer = blocking(move || charts::appearances(&state.catalog, &query)).await?;
    Ok(Envelope(answer))
}

/// One podcast's positions on one chart over a range, with streak and stats.
#[utoipa::path(get, path = "/api/v1/charts/podcast-history", tag = "charts",
    params(("identityType" = Option<String>, Query), ("podcastIdOrSlug" = Option<String>, Query),
           ("platformId" = Option<String>, Query), ("chartType" = Option<String>, Query),
           ("category" = Option<String>, Query), ("country" = Option<String>, Query),
           ("range" = Option<String>, Query, description = "30d (default), 90d, 14w, 6m, 1y, all"),
           ("date" = Option<String>, Query)),
    responses((status = 200, description = "The podcast's chart history"),
              (status = 404, description = "Unknown podcast")))]
pub async fn podcast_history(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<ChartQuery>,
) -> ApiResult<Envelope<Value>> {
    let answer = blocking(move || charts::podcast_history(&state.catalog, &query)).await?;
    Ok(Envelope(answer))
}

/// The categories a chart type has snapshots for.
#[utoipa::path(get, path = "/api/v1/charts/{chartType}/categories", tag = "charts",
    params(("chartType" = String, Path, description = "apple or spotify")),
    responses((status = 200, description = "The categories"), (status = 400, description = "Unknown chart type")))]
pub async fn categories(
    State(state): State<AppState>,
    Path(chart_type): Path<String>,
) -> ApiResult<Envelope<ChartCategoriesResponse>> {
    let categories = blocking(move || charts::categories(&state.catalog, &chart_type)).await?;
    Ok(Envelope(ChartCategoriesResponse { categories }))
}

/// The countries a chart type has snapshots for.
#[utoipa::path(get, path = "/api/v1/charts/{chartType}/countries", tag = "charts",
    params(("chartType" = String, Path, description = "apple or spotify")),
    responses((status = 200, description = "The countries"), (status = 400, description = "Unknown chart type")))]
pub async fn countries(
    State(state): State<AppState>,
    Path(chart_type): Path<String>,
) -> ApiResult<Envelope<ChartCountriesResponse>> {
    let countries = blocking(move || charts::countries(&state.catalog, &chart_type)).await?;
    Ok(Envelope(ChartCountriesResponse { countries }))
}

/// A podcast's positions on every chart on one day (default: the latest day it
/// charted), optionally of one chart type, category or country.
#[utoipa::path(get, path = "/api/v1/podcasts/{podcastIdOrSlug}/charts", tag = "podcasts",
    params(("podcastIdOrSlug" = String, Path, description = "Podcast id or slug"),
           ("chartType" = Option<String>, Query), ("category" = Option<String>, Query),
           ("country" = Option<String>, Query), ("limit" = Option<usize>, Query),
           ("date" = Option<String>, Query)),
    responses((status = 200, description = "The podcast's chart positions"), (status = 404, description = "Unknown podcast")))]
pub async fn podcast_charts(
    State(state): State<AppState>,
    Path(id_or_slug): Path<String>,
    ApiQuery(query): ApiQuery<ChartQuery>,
) -> ApiResult<Envelope<PodcastChartsResponse>> {
    let answer =
        blocking(move || charts::podcast_charts(&state.catalog, &id_or_slug, &query)).await?;
    Ok(Envelope(answer))
}

/// Every chart a podcast is or was on: now, dropped in the last 30 days, or older,
/// with 14 weekly best-rank cells ending on `endDate` (default: the latest chart day).
#[utoipa::path(get, path = "/api/v1/podcasts/{podcastIdOrSlug}/charts/presence", tag = "podcasts",
    params(("podcastIdOrSlug" = String, Path, description = "Podcast id or slug"),
           ("endDate" = Option<String>, Query, description = "YYYY-MM-DD")),
    responses((status = 200, description = "The podcast's chart presence"), (status = 404, description = "Unknown podcast")))]
pub async fn podcast_presence(
    State(state): State<AppState>,
    Path(id_or_slug): Path<String>,
    ApiQuery(query): ApiQuery<PresenceQuery>,
) -> ApiResult<Envelope<Value>> {
    let answer =
        blocking(move || charts::podcast_presence(&state.catalog, &id_or_slug, &query)).await?;
    Ok(Envelope(answer))
}

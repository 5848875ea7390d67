//! `GET /api/v1/rss/stats/public/podcast2`: how many feeds use Podcasting 2.0 tags.

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use podlens_data::RssPublicStats;

use crate::envelope::Envelope;
use crate::error::ApiResult;
use crate::state::{AppState, blocking};

/// Entries in each top list.
const TOP: u64 = 20;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/v1/rss/stats/public/podcast2", get(podcast2))
}

/// Field frequencies at podcast and episode level, top hosts and top podcasts.
#[utoipa::path(get, path = "/api/v1/rss/stats/public/podcast2", tag = "stats",
    responses((status = 200, description = "podcast2Stats")))]
pub async fn podcast2(State(state): State<AppState>) -> ApiResult<Envelope<RssPublicStats>> {
    blocking(move || Ok(Envelope(state.catalog.snapshot()?.rss_public_stats(TOP)?))).await
}

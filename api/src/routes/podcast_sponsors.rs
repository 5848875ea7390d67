//! The sponsors heard on a podcast: the sponsor mentions that `podlens score` found
//! in its episodes' show notes, over its latest episodes or a window of days.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::get;
use podlens_model::entities::PodcastSponsorsResponse;
use serde::Deserialize;

use crate::envelope::Envelope;
use crate::error::ApiResult;
use crate::extract::ApiQuery;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/v1/podcasts/{podcastIdOrSlug}/sponsors", get(sponsors))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SponsorsParams {
    since_days: Option<i64>,
}

/// The sponsors and advertisers named in a podcast's show notes: over its last 10
/// episodes, or over the episodes of the last `sinceDays` days.
#[utoipa::path(get, path = "/api/v1/podcasts/{podcastIdOrSlug}/sponsors", tag = "podcasts",
    params(("podcastIdOrSlug" = String, Path, description = "Podcast id or slug"),
           ("sinceDays" = Option<i64>, Query, description = "Episodes of the last N days (1-3650) instead of the last 10 episodes")),
    responses((status = 200, description = "The sponsors"), (status = 400, description = "Bad sinceDays"),
              (status = 404, description = "Unknown podcast")))]
pub async fn sponsors(
    State(state): State<AppState>,
    Path(id_or_slug): Path<String>,
    ApiQuery(params): ApiQuery<SponsorsParams>,
) -> ApiResult<Envelope<PodcastSponsorsResponse>> {
    let sponsors = state
        .podcast_pages()
        .sponsors(id_or_slug, params.since_days);
    Ok(Envelope(sponsors.await?))
}

//! `GET /api/v1/podcasts/{id}/refresh`: re-reads a podcast's feed now (see
//! [`podlens_app::refresh`]). Signed-in callers only; once a minute per podcast.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::get;
use podlens_model::entities::RefreshPodcastResponse;
use serde::Deserialize;

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::ApiResult;
use crate::extract::ApiQuery;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/v1/podcasts/{podcastIdOrSlug}/refresh", get(refresh))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RefreshParams {
    update_podcast_thumbnail: Option<bool>,
}

/// Re-reads the podcast's RSS feed now and answers with the updated podcast, or with
/// `success: false` and why (`rss_not_found`, `rss_parse_error`, `rss_fetch_failed`,
/// `update_failed`). The stored image is kept unless `updatePodcastThumbnail=true`.
/// Needs an API key or a session; a podcast can be refreshed once a minute (429).
#[utoipa::path(get, path = "/api/v1/podcasts/{podcastIdOrSlug}/refresh", tag = "podcasts",
    params(("podcastIdOrSlug" = String, Path, description = "Podcast id or slug"),
           ("updatePodcastThumbnail" = Option<bool>, Query, description = "Also take the feed's image (default false)")),
    responses((status = 200, description = "The refreshed podcast, or success false with the reason"),
              (status = 401, description = "Not signed in"), (status = 404, description = "Unknown podcast"),
              (status = 429, description = "Refreshed less than a minute ago")))]
pub async fn refresh(
    State(state): State<AppState>,
    caller: Caller,
    Path(id_or_slug): Path<String>,
    ApiQuery(params): ApiQuery<RefreshParams>,
) -> ApiResult<Envelope<RefreshPodcastResponse>> {
    caller.require_account()?;
    caller.require_app_for_session()?;
    let update_thumbnail = params.update_podcast_thumbnail.unwrap_or(false);
    Ok(Envelope(
        state
            .catalog_writes()
            .refresh_podcast(id_or_slug, update_thumbnail, caller.plan)
            .await?,
    ))
}

//! `GET /api/v1/podcasts/{id}/refresh`: re-reads a podcast's feed now (see
//! [`podlens_app::refresh`]). Signed-in callers only; once a minute per podcast.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::get;
use podlens_model::entities::{RefreshErrorDetails, RefreshPodcastResponse};
use serde::Deserialize;

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::{ApiError, ApiResult, LimitExceeded};
use crate::extract::ApiQuery;
use crate::routes::lookup;
use crate::routes::podcast_details::podcast_details;
use crate::state::{AppState, blocking};

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
    let lookup_state = state.clone();
    let record =
        blocking(move || lookup::podcast_by_id_or_slug(&lookup_state, &id_or_slug)).await?;
    if let Err(wait) = state.refresher.claim(record.podcast_id) {
        let seconds = wait.as_secs().max(1);
        return Err(ApiError::TooManyRequests(LimitExceeded {
            message: format!(
                "This podcast was refreshed less than a minute ago; try again in {seconds} seconds"
            ),
            limit: 1,
            used: 1,
            reset_after_seconds: seconds,
        }));
    }
    let update_thumbnail = params.update_podcast_thumbnail.unwrap_or(false);
    let change = match state
        .refresher
        .refresh(&record, update_thumbnail, &state.catalog)
        .await
    {
        Ok(change) => change,
        Err(failure) => {
            return Ok(Envelope(RefreshPodcastResponse::Failed {
                success: false,
                error_code: failure.code,
                error_message: failure.message,
                error_details: Some(RefreshErrorDetails {
                    rss_url: Some(record.podcast_rss_feed_url.clone()),
                }),
            }));
        }
    };
    let plan = caller.plan;
    blocking(move || {
        // The other nodes sharing the store apply the refresh to their copies.
        if let Some(change) = &change
            && let Err(error) = state.cluster.record(change)
        {
            tracing::warn!(%error, "the refresh is not in the change log: other nodes keep the old feed until they re-read it");
        }
        let snapshot = state.catalog.snapshot()?;
        snapshot.refresh()?;
        let updated = snapshot
            .podcast_by_id(record.podcast_id)?
            .ok_or_else(|| lookup::podcast_not_found(&record.podcast_id.to_string()))?;
        let podcast = podcast_details(&state, &updated, plan)?;
        Ok(Envelope(RefreshPodcastResponse::Refreshed {
            success: true,
            podcast: Box::new(podcast),
        }))
    })
    .await
}

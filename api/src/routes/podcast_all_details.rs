//! Everything about a podcast in one answer (`podlens_app::workflows::podcast_pages`):
//! details with the authority score, recent episodes, contacts, guests, reviews,
//! socials, sponsors, related podcasts, chart positions, YouTube channels and, on
//! request, the publishing history.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::get;
use podlens_model::entities::PodcastAllDetailsResponse;
use serde::Deserialize;

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::ApiResult;
use crate::extract::ApiQuery;
use crate::metering::Metered;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route(
        "/api/v1/podcasts/{podcastIdOrSlug}/all-details",
        get(all_details),
    )
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AllDetailsParams {
    include_publishing_history: Option<bool>,
}

/// Everything about a podcast: the other podcast routes' answers in one. Contacts
/// follow the plan's contact rules and count as one advanced contacts request (null
/// once the month's are used up); related podcasts are null until the search index
/// is built. `includePublishingHistory=true` adds monthly episode counts of the last
/// 24 UTC months.
#[utoipa::path(get, path = "/api/v1/podcasts/{podcastIdOrSlug}/all-details", tag = "podcasts",
    params(("podcastIdOrSlug" = String, Path, description = "Podcast id or slug"),
           ("includePublishingHistory" = Option<bool>, Query, description = "Add monthly episode counts of the last 24 months")),
    responses((status = 200, description = "Everything about the podcast"), (status = 404, description = "Unknown podcast")))]
pub async fn all_details(
    State(state): State<AppState>,
    caller: Caller,
    Path(id_or_slug): Path<String>,
    ApiQuery(params): ApiQuery<AllDetailsParams>,
) -> ApiResult<(Option<Metered>, Envelope<PodcastAllDetailsResponse>)> {
    let details = state.podcast_pages().all_details(
        caller.requester(),
        id_or_slug,
        params.include_publishing_history.unwrap_or(false),
    );
    let (charge, details) = details.await?;
    Ok((charge.map(Metered), Envelope(details)))
}

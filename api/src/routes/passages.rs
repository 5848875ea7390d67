//! `POST /api/v1/search/episodes/{episodeId}/transcript`, by
//! `podlens_app::workflows::passages::Passages`.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::post;
use podlens_app::workflows::passages::{PassagesRequest, TranscriptPassages};

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::ApiResult;
use crate::extract::RawJson;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route(
        "/api/v1/search/episodes/{episodeId}/transcript",
        post(passages),
    )
}

/// An episode's transcript passages that match a search.
///
/// The best passage, then the others in transcript order, paged (at most 100 browsable).
#[utoipa::path(post, path = "/api/v1/search/episodes/{episodeId}/transcript", tag = "passages",
    params(("episodeId" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn passages(
    State(state): State<AppState>,
    caller: Caller,
    Path(episode_id): Path<String>,
    RawJson(body): RawJson,
) -> ApiResult<Envelope<TranscriptPassages>> {
    caller.require_account()?;
    let request = PassagesRequest::from_json(body)?;
    Ok(Envelope(state.passages().page(&episode_id, request).await?))
}

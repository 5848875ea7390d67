//! Guest prep (SPEC.md §3, §5, §7), by `podlens_app::workflows::guest_prep::GuestPreps`.

use axum::Router;
use axum::extract::State;
use axum::routing::post;
use podlens_app::workflows::guest_prep::{GuestPrepRequest, GuestPrepResult};

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::ApiResult;
use crate::extract::RawJson;
use crate::metering::Metered;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/v1/guest-prep/generate", post(generate))
}

/// `POST /api/v1/guest-prep/generate`: body `podcastSlug` and an optional `email` to
/// mail the prep to.
#[utoipa::path(post, path = "/api/v1/guest-prep/generate", tag = "agent", operation_id = "generateGuestPrep", request_body = GuestPrepRequest,
    responses((status = 200, body = GuestPrepResult, description = "The guest prep"),
              (status = 404, description = "No podcast has this slug"),
              (status = 429, description = "The plan's AI assists are used up")))]
pub async fn generate(
    State(state): State<AppState>,
    caller: Caller,
    RawJson(body): RawJson,
) -> ApiResult<(Metered, Envelope<GuestPrepResult>)> {
    caller.require_account()?;
    let request = GuestPrepRequest::from_json(body)?;
    let (charge, prep) = state
        .guest_preps()
        .generate(&caller.requester(), request)
        .await?;
    Ok((Metered(charge), Envelope(prep)))
}

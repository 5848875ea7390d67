//! `GET /api/v1/polling/updates`, by `podlens_app::workflows::polling::Updates`.

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use podlens_app::workflows::polling::{UpdatesPage, UpdatesQuery};

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::ApiResult;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/v1/polling/updates", get(updates))
}

/// `GET /api/v1/polling/updates?since&cursor&eventTypes&projectId&guestProfileId`
/// `&alertConfigId&limit`.
#[utoipa::path(get, path = "/api/v1/polling/updates", tag = "polling",
    params(("since" = Option<String>, Query, description = "Events on or after this time (YYYY-MM-DD or RFC 3339)"),
           ("cursor" = Option<String>, Query, description = "The cursor of the previous page: events after it"),
           ("eventTypes" = Option<String>, Query, description = "Comma-separated (or repeated) event types; default all"),
           ("projectId" = Option<String>, Query, description = "Only this project's events (id or slug)"),
           ("guestProfileId" = Option<String>, Query, description = "Only this guest profile's events"),
           ("alertConfigId" = Option<String>, Query, description = "Only this alert's matches"),
           ("limit" = Option<u32>, Query, description = "Events per page, 1 to 100 (default 50)")),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn updates(
    State(state): State<AppState>,
    caller: Caller,
    axum::extract::Query(query): axum::extract::Query<Vec<(String, String)>>,
) -> ApiResult<Envelope<UpdatesPage>> {
    let account = caller.require_account()?;
    let query = UpdatesQuery::from_query(&query)?;
    Ok(Envelope(state.updates().page(account, query).await?))
}

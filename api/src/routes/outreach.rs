//! Outreach emails: generate, history and details, by
//! `podlens_app::workflows::outreach::Outreach`.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::{get, post};
use podlens_app::workflows::outreach::{
    HistoryResponse, OutreachHistoryQuery, OutreachRequest, OutreachResponse,
};

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::ApiResult;
use crate::extract::{ApiQuery, RawJson};
use crate::metering::Metered;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/outreach/generate", post(generate))
        .route("/api/v1/outreach/history", get(history))
        .route("/api/v1/outreach/{id}/details", get(details))
}

/// `POST /api/v1/outreach/generate`: writes and stores an outreach email to a podcast.
#[utoipa::path(post, path = "/api/v1/outreach/generate", tag = "outreach", operation_id = "generateOutreach",
    responses((status = 200, body = OutreachResponse, description = "The generated email, stored in the history"),
              (status = 429, description = "The plan's AI assists are used up")))]
pub async fn generate(
    State(state): State<AppState>,
    caller: Caller,
    RawJson(body): RawJson,
) -> ApiResult<(Metered, Envelope<OutreachResponse>)> {
    let account = caller.require_account()?;
    let request = OutreachRequest::from_json(body, account.chosen_name())?;
    let (charge, outreach) = state
        .outreach()
        .generate(account, &caller.requester(), request)
        .await?;
    Ok((Metered(charge), Envelope(outreach)))
}

/// `GET /api/v1/outreach/history?podcastId=&guestProfileId=`.
#[utoipa::path(get, path = "/api/v1/outreach/history", tag = "outreach",
    params(("podcastId" = Option<String>, Query, description = "Only e-mails to this podcast"),
           ("guestProfileId" = Option<String>, Query, description = "Only e-mails pitching this guest")),
    responses((status = 200, body = HistoryResponse, description = "The team's outreach emails, newest first")))]
pub async fn history(
    State(state): State<AppState>,
    caller: Caller,
    ApiQuery(pairs): ApiQuery<Vec<(String, String)>>,
) -> ApiResult<Envelope<HistoryResponse>> {
    let account = caller.require_account()?;
    let query = OutreachHistoryQuery::from_query(&pairs);
    Ok(Envelope(state.outreach().history(account, query).await?))
}

/// `GET /api/v1/outreach/{id}/details`: the email with its body.
#[utoipa::path(get, path = "/api/v1/outreach/{id}/details", tag = "outreach",
    params(("id" = String, Path)),
    responses((status = 200, body = OutreachResponse, description = "The email with its body")))]
pub async fn details(
    State(state): State<AppState>,
    caller: Caller,
    Path(outreach_id): Path<String>,
) -> ApiResult<Envelope<OutreachResponse>> {
    let account = caller.require_account()?;
    Ok(Envelope(
        state.outreach().details(account, &outreach_id).await?,
    ))
}

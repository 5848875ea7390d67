//! Alerts: alert configurations, their episode matches and the per-mention match
//! history, run by `podlens_app::workflows::alert_configs::AlertConfigs`.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::{get, post};
use podlens_app::workflows::alert_configs::{
    AlertConfigChanges, AlertConfigList, AlertListQuery, HistoryPage, HistoryQuery, MatchesPage,
    MatchesQuery, NewAlertConfig,
};
use podlens_app::workflows::alerts::AlertConfig;
use serde::Serialize;

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::ApiResult;
use crate::extract::RawJson;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/alerts/alert-config", post(create))
        .route(
            "/api/v1/alerts/alert-config/{alertConfigId}",
            get(get_one).patch(update).delete(delete_one),
        )
        .route("/api/v1/alerts/alert-configs", get(list))
        .route("/api/v1/alerts/matches", get(matches))
        .route("/api/v1/alerts/history", get(history))
}

type Query = axum::extract::Query<Vec<(String, String)>>;

/// `data` of a create.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Created {
    pub created_alert_config: AlertConfig,
}

/// `data` of a read.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Found {
    pub alert_config: AlertConfig,
}

/// `data` of an update.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Updated {
    pub updated_alert_config: AlertConfig,
}

/// `data` of a delete.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Deleted {
    pub deleted_alert_config_id: String,
}

/// `POST /api/v1/alerts/alert-config`.
#[utoipa::path(post, path = "/api/v1/alerts/alert-config", tag = "alerts",
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    RawJson(body): RawJson,
) -> ApiResult<Envelope<Created>> {
    let account = caller.require_account()?;
    let new = NewAlertConfig::from_json(body)?;
    let created_alert_config = state
        .alert_configs()
        .create(account, caller.plan, new)
        .await?;
    Ok(Envelope(Created {
        created_alert_config,
    }))
}

/// `GET /api/v1/alerts/alert-config/{alertConfigId}`.
#[utoipa::path(get, path = "/api/v1/alerts/alert-config/{alertConfigId}", tag = "alerts",
    params(("alertConfigId" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn get_one(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Envelope<Found>> {
    let alert_config = state
        .alert_configs()
        .get(caller.require_account()?, &id)
        .await?;
    Ok(Envelope(Found { alert_config }))
}

/// `GET /api/v1/alerts/alert-configs`: the team's alerts, filtered and sorted.
#[utoipa::path(get, path = "/api/v1/alerts/alert-configs", tag = "alerts",
    params(("enabled" = Option<bool>, Query, description = "Only enabled (true) or disabled (false) alerts"),
           ("alertConfigId" = Option<String>, Query, description = "Only this alert"),
           ("sortBy" = Option<String>, Query, description = "lastRunDate or alertName (default: creation)"),
           ("sortDirection" = Option<String>, Query, description = "asc or desc")),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    axum::extract::Query(query): Query,
) -> ApiResult<Envelope<AlertConfigList>> {
    let account = caller.require_account()?;
    let query = AlertListQuery::from_query(&query)?;
    Ok(Envelope(state.alert_configs().list(account, query).await?))
}

/// `PATCH /api/v1/alerts/alert-config/{alertConfigId}`: body `{updates: {...}}` with
/// at least one of alertName, emailSettings, alertSettings, enabled.
#[utoipa::path(patch, path = "/api/v1/alerts/alert-config/{alertConfigId}", tag = "alerts",
    params(("alertConfigId" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    RawJson(body): RawJson,
) -> ApiResult<Envelope<Updated>> {
    let account = caller.require_account()?;
    let changes = AlertConfigChanges::from_json(body)?;
    let updated_alert_config = state.alert_configs().update(account, &id, changes).await?;
    Ok(Envelope(Updated {
        updated_alert_config,
    }))
}

/// `DELETE /api/v1/alerts/alert-config/{alertConfigId}`: a soft delete; the alert stops
/// running and is no longer listed.
#[utoipa::path(delete, path = "/api/v1/alerts/alert-config/{alertConfigId}", tag = "alerts",
    params(("alertConfigId" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn delete_one(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Envelope<Deleted>> {
    state
        .alert_configs()
        .delete(caller.require_account()?, &id)
        .await?;
    Ok(Envelope(Deleted {
        deleted_alert_config_id: id,
    }))
}

/// `GET /api/v1/alerts/matches`: one item per episode, newest first.
#[utoipa::path(get, path = "/api/v1/alerts/matches", tag = "alerts",
    params(("alertConfigId" = Option<String>, Query, description = "Only this alert's matches"),
           ("includeFiltered" = Option<bool>, Query, description = "Also matches and mentions the alert's filters left out"),
           ("page" = Option<u32>, Query, description = "From 1"),
           ("pageSize" = Option<u32>, Query, description = "1 to 100, default 20")),
    responses((status = 200, description = "OK: the answer in the envelope"),
              (status = 404, description = "No alert of the team has this alertConfigId")))]
pub async fn matches(
    State(state): State<AppState>,
    caller: Caller,
    axum::extract::Query(query): Query,
) -> ApiResult<Envelope<MatchesPage>> {
    let account = caller.require_account()?;
    let query = MatchesQuery::from_query(&query)?;
    Ok(Envelope(
        state.alert_configs().matches(account, query).await?,
    ))
}

/// `GET /api/v1/alerts/history`: one item per mention, 50 per page.
#[utoipa::path(get, path = "/api/v1/alerts/history", tag = "alerts",
    params(("alertConfigId" = Option<String>, Query, description = "Only this alert's mentions"),
           ("page" = Option<u32>, Query, description = "From 1, 50 mentions a page"),
           ("sinceDate" = Option<String>, Query, description = "Matches first seen on or after this date (YYYY-MM-DD or RFC 3339)")),
    responses((status = 200, description = "OK: the answer in the envelope"),
              (status = 404, description = "No alert of the team has this alertConfigId")))]
pub async fn history(
    State(state): State<AppState>,
    caller: Caller,
    axum::extract::Query(query): Query,
) -> ApiResult<Envelope<HistoryPage>> {
    let account = caller.require_account()?;
    let query = HistoryQuery::from_query(&query)?;
    Ok(Envelope(
        state.alert_configs().history(account, query).await?,
    ))
}

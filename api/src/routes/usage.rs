//! The team's usage reports, by `podlens_app::accounts::usage_reports::UsageReports`.

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use podlens_app::accounts::usage_reports::{CurrentUsage, MembersUsage, MonthsQuery, WindowQuery};
use podlens_model::entities::{DailyUsageResponse, MonthlyUsageResponse};

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::ApiResult;
use crate::extract::ApiQuery;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/teams/usage/current", get(current))
        .route("/api/v1/teams/usage/daily", get(daily))
        .route("/api/v1/teams/usage/monthly", get(monthly))
        .route("/api/v1/teams/usage/members", get(members))
}

/// This month's usage of the team against the plan's limits.
#[utoipa::path(get, path = "/api/v1/teams/usage/current", tag = "usage",
    responses((status = 200, description = "Current period usage"), (status = 401, description = "No API key")))]
pub async fn current(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Envelope<CurrentUsage>> {
    let account = caller.require_account()?;
    Ok(Envelope(
        state.usage_reports().current(account, caller.plan).await?,
    ))
}

/// The team's usage per day over the last `window` days (default 30), oldest first.
#[utoipa::path(get, path = "/api/v1/teams/usage/daily", tag = "usage",
    params(("window" = Option<String>, Query, description = "7d, 30d (default) or 90d")),
    responses((status = 200, description = "Usage by day")))]
pub async fn daily(
    State(state): State<AppState>,
    caller: Caller,
    ApiQuery(query): ApiQuery<WindowQuery>,
) -> ApiResult<Envelope<DailyUsageResponse>> {
    let account = caller.require_account()?;
    Ok(Envelope(
        state
            .usage_reports()
            .daily(account, caller.plan, query)
            .await?,
    ))
}

/// The team's usage per calendar month over the last `months` months (default 6).
#[utoipa::path(get, path = "/api/v1/teams/usage/monthly", tag = "usage",
    params(("months" = Option<u32>, Query, description = "Months, default 6, at most 24")),
    responses((status = 200, description = "Usage by month")))]
pub async fn monthly(
    State(state): State<AppState>,
    caller: Caller,
    ApiQuery(query): ApiQuery<MonthsQuery>,
) -> ApiResult<Envelope<MonthlyUsageResponse>> {
    let account = caller.require_account()?;
    Ok(Envelope(
        state
            .usage_reports()
            .monthly(account, caller.plan, query)
            .await?,
    ))
}

/// Each team member's usage over the last `window` days (default 30).
#[utoipa::path(get, path = "/api/v1/teams/usage/members", tag = "usage",
    params(("window" = Option<String>, Query, description = "7d, 30d (default) or 90d")),
    responses((status = 200, description = "Usage by member")))]
pub async fn members(
    State(state): State<AppState>,
    caller: Caller,
    ApiQuery(query): ApiQuery<WindowQuery>,
) -> ApiResult<Envelope<MembersUsage>> {
    let account = caller.require_account()?;
    Ok(Envelope(
        state.usage_reports().members(account, query).await?,
    ))
}

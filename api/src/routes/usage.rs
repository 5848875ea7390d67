//! Usage of the caller's team, read from the metered counters: the current period,
//! by day, by month and by member.

use std::collections::BTreeMap;

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use chrono::{Duration, NaiveDate, Utc};
use podlens_model::entities::{DailyUsageResponse, MonthlyUsageResponse, UsageDay, UsageMonth};
use serde::{Deserialize, Serialize};

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiQuery;
use crate::state::{AppState, blocking};
use podlens_app::accounts::metering::limit_for;
use podlens_app::accounts::usage::month_bounds;
use podlens_app::accounts::{UsageCounter, UsageRow, UsageWindow};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/teams/usage/current", get(current))
        .route("/api/v1/teams/usage/daily", get(daily))
        .route("/api/v1/teams/usage/monthly", get(monthly))
        .route("/api/v1/teams/usage/members", get(members))
}

/// The counters the usage endpoints report, by alias.
const REPORTED: [UsageCounter; 6] = [
    UsageCounter::Search,
    UsageCounter::TranscriptDownload,
    UsageCounter::Export,
    UsageCounter::PodcastLookup,
    UsageCounter::EpisodeLookup,
    UsageCounter::TranscriptionRequest,
];

/// Monthly limits by alias (`null` = unlimited). A daily limit is reported per day.
fn limits(caller: &Caller) -> BTreeMap<String, Option<u64>> {
    REPORTED
        .iter()
        .map(|counter| {
            (
                counter.alias().to_owned(),
                limit_for(caller.plan, *counter).1,
            )
        })
        .collect()
}

fn by_alias<'a>(rows: impl Iterator<Item = &'a UsageRow>) -> BTreeMap<String, u64> {
    let mut totals: BTreeMap<String, u64> = REPORTED
        .iter()
        .map(|counter| (counter.alias().to_owned(), 0))
        .collect();
    for row in rows {
        if let Some(total) = totals.get_mut(&row.counter) {
            *total += row.count;
        }
    }
    totals
}

async fn team_rows(
    state: &AppState,
    team_id: &str,
    from: NaiveDate,
    to: NaiveDate,
) -> ApiResult<Vec<UsageRow>> {
    let accounts = state.accounts.clone();
    let (meter, quotas) = (state.usage.clone(), state.quotas.clone());
    let team_id = team_id.to_owned();
    blocking(move || {
        // This node's counts not yet written are written first, so a caller sees
        // their own calls.
        for flushed in [meter.flush(), quotas.flush()] {
            if let Err(error) = flushed {
                tracing::warn!(%error, "usage counts not written before a usage report");
            }
        }
        Ok(accounts.team_usage(&team_id, from, to)?)
    })
    .await
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AliasUsage {
    alias: &'static str,
    label: &'static str,
    used: u64,
    limit: Option<u64>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CurrentUsage {
    period_start: chrono::DateTime<Utc>,
    period_end: chrono::DateTime<Utc>,
    plan: String,
    feature_flags: BTreeMap<String, bool>,
    aliases: Vec<AliasUsage>,
    total_used: u64,
}

fn start_of(day: NaiveDate) -> chrono::DateTime<Utc> {
    day.and_hms_opt(0, 0, 0).unwrap_or_default().and_utc()
}

fn end_of(day: NaiveDate) -> chrono::DateTime<Utc> {
    day.and_hms_milli_opt(23, 59, 59, 999)
        .unwrap_or_default()
        .and_utc()
}

/// This month's usage of the team against the plan's limits.
#[utoipa::path(get, path = "/api/v1/teams/usage/current", tag = "usage",
    responses((status = 200, description = "Current period usage"), (status = 401, description = "No API key")))]
pub async fn current(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Envelope<CurrentUsage>> {
    let account = caller.require_account()?;
    let today = Utc::now().date_naive();
    let (first, last) = month_bounds(today);
    let rows = team_rows(&state, &account.team_id, first, last).await?;
    let used = by_alias(rows.iter());
    let aliases: Vec<AliasUsage> = REPORTED
        .iter()
        .map(|counter| {
            let (window, limit) = limit_for(caller.plan, *counter);
            let used_in_window = match window {
                UsageWindow::Month => used.get(counter.alias()).copied().unwrap_or(0),
                UsageWindow::Day => rows
                    .iter()
                    .filter(|row| row.day == today && row.counter == counter.alias())
                    .map(|row| row.count)
                    .sum(),
            };
            AliasUsage {
                alias: counter.alias(),
                label: counter.label(),
                used: used_in_window,
                limit,
            }
        })
        .collect();
    Ok(Envelope(CurrentUsage {
        period_start: start_of(first),
        period_end: end_of(last),
        plan: account.plan.clone(),
        feature_flags: BTreeMap::new(),
        total_used: aliases.iter().map(|alias| alias.used).sum(),
        aliases,
    }))
}

#[derive(Debug, Deserialize)]
pub struct WindowQuery {
    /// Days, as `7d`, `30d`, `90d` (the SDK's values) or a plain number.
    window: Option<String>,
}

/// Longest window of days one call covers.
const MAX_WINDOW_DAYS: u32 = 366;

fn window_days(window: Option<String>) -> ApiResult<u32> {
    let days = match window.as_deref().map(str::trim) {
        None | Some("") => 30,
        Some(text) => text
            .strip_suffix('d')
            .unwrap_or(text)
            .parse::<u32>()
            .map_err(|_| {
                ApiError::BadRequest(format!(
                    "window must look like 7d, 30d or 90d, got \"{text}\""
                ))
            })?,
    };
    if days == 0 || days > MAX_WINDOW_DAYS {
        return Err(ApiError::BadRequest(format!(
            "window must be between 1 and {MAX_WINDOW_DAYS} days"
        )));
    }
    Ok(days)
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
    let days = window_days(query.window)?;
    let today = Utc::now().date_naive();
    let first = today - Duration::days(i64::from(days) - 1);
    let rows = team_rows(&state, &account.team_id, first, today).await?;
    let days = first
        .iter_days()
        .take_while(|day| *day <= today)
        .map(|day| {
            let usage_by_alias = by_alias(rows.iter().filter(|row| row.day == day));
            UsageDay {
                date: day,
                total_usage: usage_by_alias.values().sum(),
                usage_by_alias,
            }
        })
        .collect();
    Ok(Envelope(DailyUsageResponse {
        days,
        limits: limits(&caller),
    }))
}

#[derive(Debug, Deserialize)]
pub struct MonthsQuery {
    months: Option<f64>,
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
    let months_wanted = query.months.unwrap_or(6.0);
    if !(1.0..=24.0).contains(&months_wanted) || months_wanted.fract() != 0.0 {
        return Err(ApiError::BadRequest(
            "months must be a whole number between 1 and 24".into(),
        ));
    }
    let count = months_wanted as u32;
    let today = Utc::now().date_naive();
    let mut months = Vec::new();
    let mut cursor = month_bounds(today).0;
    for _ in 0..count {
        months.push(month_bounds(cursor));
        cursor = cursor
            .pred_opt()
            .map(|day| month_bounds(day).0)
            .unwrap_or(cursor);
    }
    months.reverse();
    let from = months.first().map(|(first, _)| *first).unwrap_or(today);
    let rows = team_rows(&state, &account.team_id, from, today).await?;
    let months = months
        .into_iter()
        .map(|(first, last)| {
            let usage_by_alias = by_alias(
                rows.iter()
                    .filter(|row| row.day >= first && row.day <= last),
            );
            UsageMonth {
                period_start: start_of(first),
                period_end: end_of(last),
                total_usage: usage_by_alias.values().sum(),
                usage_by_alias,
            }
        })
        .collect();
    Ok(Envelope(MonthlyUsageResponse {
        months,
        limits: limits(&caller),
    }))
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MemberUsage {
    user_id: String,
    email: Option<String>,
    display_name: Option<String>,
    total_usage: u64,
    usage_by_alias: BTreeMap<String, u64>,
}

#[derive(Debug, Serialize)]
pub struct MembersUsage {
    members: Vec<MemberUsage>,
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
    let days = window_days(query.window)?;
    let today = Utc::now().date_naive();
    let first = today - Duration::days(i64::from(days) - 1);
    let rows = team_rows(&state, &account.team_id, first, today).await?;
    let accounts = state.accounts.clone();
    let team_id = account.team_id.clone();
    let users = blocking(move || Ok(accounts.team_users(&team_id)?)).await?;
    let members = users
        .into_iter()
        .map(|user| {
            let usage_by_alias = by_alias(rows.iter().filter(|row| row.user_id == user.id));
            MemberUsage {
                total_usage: usage_by_alias.values().sum(),
                usage_by_alias,
                user_id: user.id,
                email: Some(user.email),
                display_name: user.display_name,
            }
        })
        .collect();
    Ok(Envelope(MembersUsage { members }))
}

//! A team's usage reports (`/api/v1/teams/usage/{current,daily,monthly,members}`): the
//! metered counters by alias, against the plan's limits.

use std::collections::BTreeMap;
use std::sync::Arc;

use chrono::{Duration, NaiveDate, Utc};
use podlens_model::Plan;
use podlens_model::entities::{DailyUsageResponse, MonthlyUsageResponse, UsageDay, UsageMonth};
use serde::{Deserialize, Serialize};

use crate::accounts::meter::UsageMeter;
use crate::accounts::metering::limit_for;
use crate::accounts::quota::Quotas;
use crate::accounts::usage::month_bounds;
use crate::accounts::{Account, AccountStore, UsageCounter, UsageRow, UsageWindow};
use crate::error::{AppError, AppResult};

/// The counters the usage endpoints report, by alias: all but the last two
/// (`UsageCounter::ALL` ends with AI assists and contacts requested, which they do not
/// report).
const REPORTED: &[UsageCounter] = UsageCounter::ALL.split_at(6).0;

/// Monthly limits by alias (`null` = unlimited). A daily limit is reported per day.
fn limits(plan: Plan) -> BTreeMap<String, Option<u64>> {
    REPORTED
        .iter()
        .map(|counter| (counter.alias().to_owned(), limit_for(plan, *counter).1))
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

#[derive(Debug, Deserialize)]
pub struct WindowQuery {
    /// Days, as `7d`, `30d`, `90d` (the SDK's values) or a plain number.
    window: Option<String>,
}

/// Longest window of days one call covers.
const MAX_WINDOW_DAYS: u32 = 366;

fn window_days(window: Option<String>) -> AppResult<u32> {
    let days = match window.as_deref().map(str::trim) {
        None | Some("") => 30,
        Some(text) => text
            .strip_suffix('d')
            .unwrap_or(text)
            .parse::<u32>()
            .map_err(|_| {
                AppError::Invalid(format!(
                    "window must look like 7d, 30d or 90d, got \"{text}\""
                ))
            })?,
    };
    if days == 0 || days > MAX_WINDOW_DAYS {
        return Err(AppError::Invalid(format!(
            "window must be between 1 and {MAX_WINDOW_DAYS} days"
        )));
    }
    Ok(days)
}

#[derive(Debug, Deserialize)]
pub struct MonthsQuery {
    months: Option<f64>,
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

/// The teams' usage reports.
pub struct UsageReports {
    pub accounts: Arc<dyn AccountStore>,
    pub meter: Arc<UsageMeter>,
    pub quotas: Arc<Quotas>,
}

impl UsageReports {
    /// The team's usage rows from `from` to `to`, this node's unwritten counts written
    /// first so a caller sees their own calls.
    async fn team_rows(
        &self,
        team_id: &str,
        from: NaiveDate,
        to: NaiveDate,
    ) -> AppResult<Vec<UsageRow>> {
        // The flushes run as tasks of their own: a client that leaves meanwhile does
        // not stop a batch half written.
        let (meter, quotas) = (self.meter.clone(), self.quotas.clone());
        let flushes = [
            tokio::spawn(async move { meter.flush().await }),
            tokio::spawn(async move { quotas.flush().await }),
        ];
        for flushed in flushes {
            if let Err(error) = flushed
                .await
                .map_err(AppError::internal)
                .and_then(|written| written)
            {
                tracing::warn!(%error, "usage counts not written before a usage report");
            }
        }
        self.accounts.team_usage(team_id, from, to).await
    }

    /// This month's usage of the team against the plan's limits.
    pub async fn current(&self, account: &Account, plan: Plan) -> AppResult<CurrentUsage> {
        let today = Utc::now().date_naive();
        let (first, last) = month_bounds(today);
        let rows = self.team_rows(&account.team_id, first, last).await?;
        let used = by_alias(rows.iter());
        let aliases: Vec<AliasUsage> = REPORTED
            .iter()
            .map(|counter| {
                let (window, limit) = limit_for(plan, *counter);
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
        Ok(CurrentUsage {
            period_start: start_of(first),
            period_end: end_of(last),
            plan: account.plan.clone(),
            feature_flags: BTreeMap::new(),
            total_used: aliases.iter().map(|alias| alias.used).sum(),
            aliases,
        })
    }

    /// The team's usage per day over the last `window` days (default 30), oldest first.
    pub async fn daily(
        &self,
        account: &Account,
        plan: Plan,
        query: WindowQuery,
    ) -> AppResult<DailyUsageResponse> {
        let days = window_days(query.window)?;
        let today = Utc::now().date_naive();
        let first = today - Duration::days(i64::from(days) - 1);
        let rows = self.team_rows(&account.team_id, first, today).await?;
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
        Ok(DailyUsageResponse {
            days,
            limits: limits(plan),
        })
    }

    /// The team's usage per calendar month over the last `months` months (default 6).
    pub async fn monthly(
        &self,
        account: &Account,
        plan: Plan,
        query: MonthsQuery,
    ) -> AppResult<MonthlyUsageResponse> {
        let months_wanted = query.months.unwrap_or(6.0);
        if !(1.0..=24.0).contains(&months_wanted) || months_wanted.fract() != 0.0 {
            return Err(AppError::Invalid(
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
        let rows = self.team_rows(&account.team_id, from, today).await?;
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
        Ok(MonthlyUsageResponse {
            months,
            limits: limits(plan),
        })
    }

    /// Each team member's usage over the last `window` days (default 30).
    pub async fn members(&self, account: &Account, query: WindowQuery) -> AppResult<MembersUsage> {
        let days = window_days(query.window)?;
        let today = Utc::now().date_naive();
        let first = today - Duration::days(i64::from(days) - 1);
        let rows = self.team_rows(&account.team_id, first, today).await?;
        let users = self.accounts.team_users(&account.team_id).await?;
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
        Ok(MembersUsage { members })
    }
}

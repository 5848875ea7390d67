//! Charging metered calls against the caller's plan (SPEC §9): a call of a limited
//! counter is charged against its node's reservation of the window, so a cap is exact
//! across calls and nodes (`quota`); an unlimited one is counted in memory (`meter`).
//! Both are written in batches. Over the limit is [`AppError::CapReached`], with the
//! limit and when it resets; a granted [`Charge`] carries the same figures (the API
//! answers them as `X-RateLimit-*` headers).

use std::sync::Arc;

use chrono::{Datelike, NaiveDate, Utc};
use podlens_model::Plan;
use podlens_model::plans::{Quota, QuotaPeriod};

use super::meter::UsageMeter;
use super::quota::{self, Quotas};
use super::{Account, CappedCall, Consumption, UsageCounter, UsageSubject, UsageWindow};
use crate::error::{AppError, AppResult, LimitExceeded};

/// Who a metered call, or a search, is for: a signed-in account (its team pays), or a
/// signed-out client identified by its address.
#[derive(Debug, Clone)]
pub struct Requester {
    pub account: Option<Account>,
    pub plan: Plan,
    pub client_address: String,
}

impl Requester {
    /// Whose counters this requester's metered calls charge.
    pub fn usage_subject(&self) -> UsageSubject {
        match &self.account {
            Some(account) => UsageSubject::User {
                user_id: account.user_id.clone(),
                team_id: account.team_id.clone(),
            },
            None => UsageSubject::Client {
                address: self.client_address.clone(),
            },
        }
    }
}

/// A granted charge: the window's limit (`None`: unlimited), the calls used in it with
/// this one, and the seconds until it resets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Charge {
    pub limit: Option<u64>,
    pub used: u64,
    pub reset_after_seconds: u64,
}

/// The limit that applies to a counter for `plan`: `(window, limit)`, with `None` for
/// unlimited. Counters without a plan limit are recorded, not limited.
pub fn limit_for(plan: Plan, counter: UsageCounter) -> (UsageWindow, Option<u64>) {
    let limits = plan.limits();
    let monthly = |amount: Option<u32>| (UsageWindow::Month, amount.map(u64::from));
    match counter {
        UsageCounter::Search => quota_of(limits.searches),
        UsageCounter::AiAssist => quota_of(limits.ai_assists),
        UsageCounter::TranscriptDownload => monthly(limits.transcript_downloads_per_month),
        UsageCounter::TranscriptionRequest => monthly(limits.transcription_requests_per_month),
        UsageCounter::Export => monthly(limits.exports_per_month),
        UsageCounter::ContactsRequested => monthly(limits.advanced_contacts_per_month),
        UsageCounter::PodcastLookup | UsageCounter::EpisodeLookup => (UsageWindow::Month, None),
    }
}

fn quota_of(quota: Quota) -> (UsageWindow, Option<u64>) {
    let window = match quota.period {
        QuotaPeriod::Day => UsageWindow::Day,
        QuotaPeriod::Month => UsageWindow::Month,
    };
    (window, quota.amount.map(u64::from))
}

/// Seconds from now until the window containing `today` ends (UTC).
fn seconds_until_reset(window: UsageWindow, today: NaiveDate) -> u64 {
    let (_, last) = window.bounds(today);
    let reset = last
        .succ_opt()
        .and_then(|next| next.and_hms_opt(0, 0, 0))
        .map(|at| at.and_utc());
    reset
        .map(|at| (at - Utc::now()).num_seconds().max(0))
        .and_then(|seconds| u64::try_from(seconds).ok())
        .unwrap_or(0)
}

/// The meters of this node: unlimited counters counted in memory, capped ones charged
/// against this node's reservations.
#[derive(Debug, Clone)]
pub struct Metering {
    pub(crate) usage: Arc<UsageMeter>,
    pub(crate) quotas: Arc<Quotas>,
}

impl Metering {
    /// Charges one `counter` use to `requester`, or refuses: `CapReached` over the
    /// limit, `Forbidden` when the plan does not include the item at all.
    pub async fn charge(&self, requester: &Requester, counter: UsageCounter) -> AppResult<Charge> {
        let (window, limit) = limit_for(requester.plan, counter);
        if limit == Some(0) {
            return Err(AppError::Forbidden(format!(
                "{} are not included in the {} plan",
                counter.label(),
                requester.plan
            )));
        }
        let today = Utc::now().date_naive();
        let subject = requester.usage_subject();
        let reset_after_seconds = seconds_until_reset(window, today);
        let Some(cap) = limit else {
            // Nothing to refuse: counted in memory, written with the next flush.
            let used = match self.usage.try_count(&subject, counter, window, today) {
                Some(used) => used,
                None => {
                    self.usage
                        .count_after_reading(&subject, counter, window, today)
                        .await?
                }
            };
            return Ok(Charge {
                limit,
                used,
                reset_after_seconds,
            });
        };
        let call = CappedCall {
            subject,
            counter,
            window,
            limit: cap,
            today,
        };
        let mut outcome = self.charge_capped(&call).await?;
        let asked = tokio::time::Instant::now();
        while let Consumption::Refused { elsewhere, .. } = outcome
            && elsewhere > 0
            && asked.elapsed() < quota::RETRY_REFUSED_FOR
        {
            // Other nodes hold part of the window and give back what they do not use.
            tokio::time::sleep(quota::RETRY_REFUSED_EVERY).await;
            outcome = self.charge_capped(&call).await?;
        }
        match outcome {
            Consumption::Granted { used } => Ok(Charge {
                limit,
                used,
                reset_after_seconds,
            }),
            Consumption::Refused { used, limit, .. } => Err(AppError::CapReached(LimitExceeded {
                message: limit_message(requester, counter, window, limit, today),
                limit,
                used,
                reset_after_seconds,
            })),
        }
    }

    /// One call of a capped counter charged from this node's reservation, reserving more
    /// from the store when it is used up.
    async fn charge_capped(&self, call: &CappedCall) -> AppResult<Consumption> {
        if let Some(used) = self.quotas.try_charge(call) {
            return Ok(Consumption::Granted { used });
        }
        // A task of its own: a client that leaves while the store grants a block does
        // not leave the block reserved in the store and unknown to this node.
        let (quotas, call) = (self.quotas.clone(), call.clone());
        tokio::spawn(async move { quotas.charge_reserving(&call).await })
            .await
            .map_err(AppError::internal)?
    }
}

fn limit_message(
    requester: &Requester,
    counter: UsageCounter,
    window: UsageWindow,
    limit: u64,
    today: NaiveDate,
) -> String {
    let period = match window {
        UsageWindow::Day => "day",
        UsageWindow::Month => "month",
    };
    let resets = match window {
        UsageWindow::Day => "tomorrow (00:00 UTC)".to_owned(),
        UsageWindow::Month => {
            let (_, last) = window.bounds(today);
            let next = last.succ_opt().unwrap_or(last);
            format!("on {}-{:02}-01", next.year(), next.month())
        }
    };
    let what = counter.label().to_lowercase();
    match &requester.account {
        None => format!(
            "Usage limit reached: signed-out clients may make {limit} {what} per {period}. It resets {resets}; sign in for a higher limit."
        ),
        Some(_) => format!(
            "Usage limit reached: the {} plan allows {limit} {what} per {period}. It resets {resets}.",
            requester.plan
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_limits_follow_the_plan_table() {
        assert_eq!(
            limit_for(Plan::Public, UsageCounter::Search),
            (UsageWindow::Day, Some(20))
        );
        assert_eq!(
            limit_for(Plan::Business, UsageCounter::Search),
            (UsageWindow::Month, Some(1000))
        );
        assert_eq!(
            limit_for(Plan::Admin, UsageCounter::Search),
            (UsageWindow::Month, None)
        );
        assert_eq!(
            limit_for(Plan::Agency, UsageCounter::TranscriptDownload),
            (UsageWindow::Month, Some(2000))
        );
    }

    #[test]
    fn reset_is_within_the_window() {
        let today = Utc::now().date_naive();
        assert!(seconds_until_reset(UsageWindow::Day, today) <= 86_400);
        assert!(seconds_until_reset(UsageWindow::Month, today) <= 31 * 86_400);
    }
}

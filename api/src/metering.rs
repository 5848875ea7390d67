//! Charging metered calls against the caller's plan (SPEC §9): a call of a limited
//! counter is charged against its node's reservation of the window, so a cap is exact
//! across calls and nodes (`accounts::quota`); an unlimited one is counted in memory
//! (`accounts::meter`). Both are written in batches. Over the limit answers 429 with
//! the limit in `X-RateLimit-*` headers, and a successful call carries the same
//! headers.

use axum::http::HeaderValue;
use axum::response::{IntoResponseParts, ResponseParts};
use chrono::{Datelike, NaiveDate, Utc};
use podlens_model::plans::{Quota, QuotaPeriod};

use crate::auth::Caller;
use crate::error::{ApiError, ApiResult, LimitExceeded};
use crate::state::{AppState, blocking};
use podlens_app::accounts::{CappedCall, Consumption, UsageCounter, UsageWindow, quota};

/// The limit that applies to a counter for the caller's plan: `(window, limit)`, with
/// `None` for unlimited. Counters without a plan limit are recorded, not limited.
pub fn limit_for(caller: &Caller, counter: UsageCounter) -> (UsageWindow, Option<u64>) {
    let limits = caller.plan.limits();
    let monthly = |amount: Option<u32>| (UsageWindow::Month, amount.map(u64::from));
    match counter {
        UsageCounter::Search => quota(limits.searches),
        UsageCounter::AiAssist => quota(limits.ai_assists),
        UsageCounter::TranscriptDownload => monthly(limits.transcript_downloads_per_month),
        UsageCounter::TranscriptionRequest => monthly(limits.transcription_requests_per_month),
        UsageCounter::Export => monthly(limits.exports_per_month),
        UsageCounter::ContactsRequested => monthly(limits.advanced_contacts_per_month),
        UsageCounter::PodcastLookup | UsageCounter::EpisodeLookup => (UsageWindow::Month, None),
    }
}

fn quota(quota: Quota) -> (UsageWindow, Option<u64>) {
    let window = match quota.period {
        QuotaPeriod::Day => UsageWindow::Day,
        QuotaPeriod::Month => UsageWindow::Month,
    };
    (window, quota.amount.map(u64::from))
}

/// A granted charge; as response parts it adds the rate-limit headers.
#[derive(Debug, Clone, Copy)]
pub struct Metered {
    pub limit: Option<u64>,
    pub used: u64,
    pub reset_after_seconds: u64,
}

impl IntoResponseParts for Metered {
    type Error = std::convert::Infallible;

    fn into_response_parts(self, mut parts: ResponseParts) -> Result<ResponseParts, Self::Error> {
        let headers = parts.headers_mut();
        if let Some(limit) = self.limit {
            let values = [
                ("x-ratelimit-limit", limit),
                ("x-ratelimit-remaining", limit.saturating_sub(self.used)),
                ("x-ratelimit-reset", self.reset_after_seconds),
            ];
            for (name, value) in values {
                if let Ok(value) = HeaderValue::from_str(&value.to_string()) {
                    headers.insert(name, value);
                }
            }
        }
        if let Ok(value) = HeaderValue::from_str(&self.used.to_string()) {
            headers.insert("x-usage-count", value);
        }
        Ok(parts)
    }
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

/// Charges one `counter` use to the caller, or refuses with 429 (403 when the plan
/// does not include the item at all).
pub async fn charge(
    state: &AppState,
    caller: &Caller,
    counter: UsageCounter,
) -> ApiResult<Metered> {
    let (window, limit) = limit_for(caller, counter);
    if limit == Some(0) {
        return Err(ApiError::Forbidden(format!(
            "{} are not included in the {} plan",
            counter.label(),
            caller.plan
        )));
    }
    let today = Utc::now().date_naive();
    let subject = caller.usage_subject();
    let reset_after_seconds = seconds_until_reset(window, today);
    let Some(cap) = limit else {
        // Nothing to refuse: counted in memory, written with the next flush.
        let used = match state.usage.try_count(&subject, counter, window, today) {
            Some(used) => used,
            None => {
                let meter = state.usage.clone();
                blocking(move || Ok(meter.count_after_reading(&subject, counter, window, today)?))
                    .await?
            }
        };
        return Ok(Metered {
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
    let mut outcome = charge_capped(state, &call).await?;
    let asked = tokio::time::Instant::now();
    while let Consumption::Refused { elsewhere, .. } = outcome
        && elsewhere > 0
        && asked.elapsed() < quota::RETRY_REFUSED_FOR
    {
        // Other nodes hold part of the window and give back what they do not use.
        tokio::time::sleep(quota::RETRY_REFUSED_EVERY).await;
        outcome = charge_capped(state, &call).await?;
    }
    match outcome {
        Consumption::Granted { used } => Ok(Metered {
            limit,
            used,
            reset_after_seconds,
        }),
        Consumption::Refused { used, limit, .. } => Err(ApiError::TooManyRequests(LimitExceeded {
            message: limit_message(caller, counter, window, limit, today),
            limit,
            used,
            reset_after_seconds,
        })),
    }
}

/// One call of a capped counter charged from this node's reservation, reserving more
/// from the store when it is used up.
async fn charge_capped(state: &AppState, call: &CappedCall) -> ApiResult<Consumption> {
    if let Some(used) = state.quotas.try_charge(call) {
        return Ok(Consumption::Granted { used });
    }
    let (quotas, call) = (state.quotas.clone(), call.clone());
    blocking(move || Ok(quotas.charge_reserving(&call)?)).await
}

fn limit_message(
    caller: &Caller,
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
    match &caller.account {
        None => format!(
            "Usage limit reached: signed-out clients may make {limit} {what} per {period}. It resets {resets}; sign in for a higher limit."
        ),
        Some(_) => format!(
            "Usage limit reached: the {} plan allows {limit} {what} per {period}. It resets {resets}.",
            caller.plan
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use podlens_model::Plan;

    fn caller(plan: Plan) -> Caller {
        Caller {
            account: None,
            plan,
            client_address: "127.0.0.1".into(),
            origin: crate::auth::Origin::Anonymous,
            from_app: false,
        }
    }

    #[test]
    fn search_limits_follow_the_plan_table() {
        assert_eq!(
            limit_for(&caller(Plan::Public), UsageCounter::Search),
            (UsageWindow::Day, Some(20))
        );
        assert_eq!(
            limit_for(&caller(Plan::Business), UsageCounter::Search),
            (UsageWindow::Month, Some(1000))
        );
        assert_eq!(
            limit_for(&caller(Plan::Admin), UsageCounter::Search),
            (UsageWindow::Month, None)
        );
        assert_eq!(
            limit_for(&caller(Plan::Agency), UsageCounter::TranscriptDownload),
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

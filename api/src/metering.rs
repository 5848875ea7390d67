//! Metered calls, the HTTP side: the services charge a call against the caller's plan
//! (`podlens_app::accounts::metering`); a granted charge answers its figures in
//! `X-RateLimit-*` and `X-Usage-Count` headers, and over the limit is a 429 with the
//! same headers (`crate::error`).

use axum::http::HeaderValue;
use axum::response::{IntoResponseParts, ResponseParts};
use podlens_app::accounts::UsageCounter;
use podlens_app::accounts::metering::Charge;

use crate::auth::Caller;
use crate::error::ApiResult;
use crate::state::AppState;

/// A granted charge; as response parts it adds the rate-limit headers.
#[derive(Debug, Clone, Copy)]
pub struct Metered(pub Charge);

impl IntoResponseParts for Metered {
    type Error = std::convert::Infallible;

    fn into_response_parts(self, mut parts: ResponseParts) -> Result<ResponseParts, Self::Error> {
        let Charge {
            limit,
            used,
            reset_after_seconds,
        } = self.0;
        let headers = parts.headers_mut();
        if let Some(limit) = limit {
            let values = [
                ("x-ratelimit-limit", limit),
                ("x-ratelimit-remaining", limit.saturating_sub(used)),
                ("x-ratelimit-reset", reset_after_seconds),
            ];
            for (name, value) in values {
                if let Ok(value) = HeaderValue::from_str(&value.to_string()) {
                    headers.insert(name, value);
                }
            }
        }
        if let Ok(value) = HeaderValue::from_str(&used.to_string()) {
            headers.insert("x-usage-count", value);
        }
        Ok(parts)
    }
}

/// Charges one `counter` use to the caller, or refuses with 429 (403 when the plan
/// does not include the item at all).
pub async fn charge(
    state: &AppState,
    caller: &Caller,
    counter: UsageCounter,
) -> ApiResult<Metered> {
    Ok(Metered(
        state
            .metering()
            .charge(&caller.requester(), counter)
            .await?,
    ))
}

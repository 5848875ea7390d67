//! Who is calling: the account behind the `Authorization` header (the raw key or
//! `Bearer <key>`), or a signed-out client identified by its address.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::header::{AUTHORIZATION, COOKIE};
use axum::http::request::Parts;

use crate::error::ApiError;
use crate::state::AppState;
use podlens_app::accounts::metering::Requester;
use podlens_app::accounts::{Account, UsageSubject};
use podlens_app::plan::{self, Plan};

/// The caller of a request. Extracting it rejects a bad key with 401 and a key whose
/// plan has no API access with 403; a request without a key is a public caller.
#[derive(Debug, Clone)]
pub struct Caller {
    pub account: Option<Account>,
    pub plan: Plan,
    pub client_address: String,
    /// How the caller was identified.
    pub origin: Origin,
    /// The request says it comes from the web app itself: it carries the
    /// `X-Podlens-Client` header, or the browser's `Sec-Fetch-Site: same-origin`.
    pub from_app: bool,
}

impl Caller {
    /// Who the services charge and search for.
    pub fn requester(&self) -> Requester {
        Requester {
            account: self.account.clone(),
            plan: self.plan,
            client_address: self.client_address.clone(),
        }
    }

    /// Whose counters this caller's metered calls charge.
    pub fn usage_subject(&self) -> UsageSubject {
        self.requester().usage_subject()
    }

    /// Refuses a request signed in by session cookie that does not come from the web app
    /// itself, on a GET that spends the plan's allowances or changes state (an AI
    /// regeneration, a transcription request, a feed refresh): SameSite=Lax cookies ride
    /// a top-level GET another site links to, which no CSRF header check of writes sees.
    pub fn require_app_for_session(&self) -> Result<(), ApiError> {
        if self.origin == Origin::Session && !self.from_app {
            return Err(ApiError::Forbidden(format!(
                "This request spends or changes what your team has: from a browser session it must come from the app (the {CSRF_HEADER} header)"
            )));
        }
        Ok(())
    }

    /// The account, or 401 for a signed-out caller on a user-only route.
    pub fn require_account(&self) -> Result<&Account, ApiError> {
        self.account
            .as_ref()
            .ok_or(ApiError::AuthenticationRequired)
    }
}

/// The key in an `Authorization` value: the raw value, or what follows `Bearer `.
pub fn key_from_header(value: &str) -> Option<&str> {
    let value = value.trim();
    if value.eq_ignore_ascii_case("bearer") {
        return None;
    }
    let key = match value.get(..7) {
        Some(scheme) if scheme.eq_ignore_ascii_case("bearer ") => value[7..].trim(),
        _ => value,
    };
    (!key.is_empty()).then_some(key)
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        if let Some(caller) = parts.extensions.get::<Caller>() {
            return Ok(caller.clone());
        }
        Caller::resolve(parts, state).await
    }
}

/// The header a browser session must send with every write: a cross-site form or
/// script cannot set it without a CORS preflight, which this server never grants.
pub const CSRF_HEADER: &str = "x-podlens-client";

/// Paths answered whatever the `Authorization` header holds.
pub(crate) fn is_open_path(path: &str) -> bool {
    path == "/api/v1/public/health" || path == "/api/v1/openapi.json" || !path.starts_with("/api/")
}

/// Middleware: every `/api` request with an `Authorization` header is authenticated
/// before routing, so a bad key gets 401 (and a plan without API access 403) on every
/// route, including public ones. The resolved caller is kept for the handlers.
pub async fn authenticate(
    axum::extract::State(state): axum::extract::State<AppState>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    if is_open_path(request.uri().path()) {
        return next.run(request).await;
    }
    let (mut parts, body) = request.into_parts();
    match Caller::resolve(&parts, &state).await {
        Ok(caller)
            if caller.origin == Origin::Session
                && !parts.method.is_safe()
                && !parts.headers.contains_key(CSRF_HEADER) =>
        {
            ApiError::Forbidden(format!(
                "Requests signed in by session cookie must send the {CSRF_HEADER} header"
            ))
            .into_response()
        }
        Ok(caller) => {
            parts.extensions.insert(caller);
            next.run(axum::extract::Request::from_parts(parts, body))
                .await
        }
        Err(error) => error.into_response(),
    }
}

/// How a caller was identified.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Signed out.
    Anonymous,
    /// An API key in `Authorization`.
    ApiKey,
    /// A browser session cookie.
    Session,
}

impl Caller {
    /// Identifies the caller of a request: an API key in `Authorization`, else a
    /// browser session cookie (any plan: the web app is not API access), else a
    /// signed-out client. A stale or unknown session cookie is a signed-out client.
    async fn resolve(parts: &Parts, state: &AppState) -> Result<Caller, ApiError> {
        let from_app = parts.headers.contains_key(CSRF_HEADER)
            || parts
                .headers
                .get("sec-fetch-site")
                .and_then(|value| value.to_str().ok())
                .is_some_and(|site| site.eq_ignore_ascii_case("same-origin"));
        let client_address = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(address)| address.ip().to_string())
            .unwrap_or_else(|| "unknown".to_owned());
        let header = match parts.headers.get(AUTHORIZATION) {
            None => None,
            Some(value) => Some(value.to_str().map_err(|_| ApiError::InvalidToken)?),
        };
        let Some(header) = header else {
            let session = parts
                .headers
                .get(COOKIE)
                .and_then(|value| value.to_str().ok())
                .and_then(podlens_app::accounts::sessions::session_from_cookies)
                .map(str::to_owned);
            if let Some(token) = session {
                let account = state
                    .sessions
                    .session_account(&token, chrono::Utc::now())
                    .await?;
                if let Some(account) = account {
                    let plan = plan::plan_of(&account.plan)?;
                    return Ok(Caller {
                        account: Some(account),
                        plan,
                        client_address,
                        origin: Origin::Session,
                        from_app,
                    });
                }
            }
            return Ok(Caller {
                account: None,
                plan: Plan::Public,
                client_address,
                origin: Origin::Anonymous,
                from_app,
            });
        };
        let Some(key) = key_from_header(header) else {
            return Err(ApiError::InvalidToken);
        };
        let account = podlens_app::accounts::known_keys::account_of_key(
            &state.known_keys,
            &state.accounts,
            key,
        )
        .await?
        .ok_or(ApiError::InvalidToken)?;
        let plan = plan::plan_of(&account.plan)?;
        if !plan.has_api_access() {
            return Err(ApiError::ApiAccessDenied {
                plan: account.plan.clone(),
            });
        }
        Ok(Caller {
            account: Some(account),
            plan,
            client_address,
            origin: Origin::ApiKey,
            from_app,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_and_bearer_keys_are_both_read() {
        assert_eq!(key_from_header("pl_abc"), Some("pl_abc"));
        assert_eq!(key_from_header("Bearer pl_abc"), Some("pl_abc"));
        assert_eq!(key_from_header("bearer   pl_abc "), Some("pl_abc"));
        assert_eq!(key_from_header("Bearer "), None);
        assert_eq!(key_from_header("  "), None);
    }
}

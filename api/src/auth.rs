//! Who is calling: the account behind the `Authorization` header (the raw key or
//! `Bearer <key>`), or a signed-out client identified by its address.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;

use crate::accounts::{Account, UsageSubject};
use crate::error::ApiError;
use crate::plan::{self, Plan};
use crate::state::{AppState, blocking};

/// The caller of a request. Extracting it rejects a bad key with 401 and a key whose
/// plan has no API access with 403; a request without a key is a public caller.
#[derive(Debug, Clone)]
pub struct Caller {
    pub account: Option<Account>,
    pub plan: Plan,
    pub client_address: String,
}

impl Caller {
    /// Whose counters this caller's metered calls charge.
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

/// Paths answered whatever the `Authorization` header holds.
fn is_open_path(path: &str) -> bool {
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
        Ok(caller) => {
            parts.extensions.insert(caller);
            next.run(axum::extract::Request::from_parts(parts, body))
                .await
        }
        Err(error) => error.into_response(),
    }
}

impl Caller {
    /// Identifies the caller of a request from its headers and connection.
    async fn resolve(parts: &Parts, state: &AppState) -> Result<Caller, ApiError> {
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
            return Ok(Caller {
                account: None,
                plan: Plan::Public,
                client_address,
            });
        };
        let Some(key) = key_from_header(header).map(str::to_owned) else {
            return Err(ApiError::InvalidToken);
        };
        let accounts = state.accounts.clone();
        let account = blocking(move || accounts.account_for_key(&key))
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

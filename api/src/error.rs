//! Every failure the API can answer with, and the one table that maps each to an HTTP
//! status, a stable status code and the message sent to the client. Internal errors are
//! logged with their cause and answered with a generic message.

use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// The exact message for a bad or unknown API key (SPEC §6, §8).
pub const INVALID_TOKEN_MESSAGE: &str = "Invalid authorization token";
/// The exact message for a search body that cannot be read (SPEC §5).
pub const SEARCH_PARSE_MESSAGE: &str = "Error parsing search options.";

pub use podlens_app::LimitExceeded;

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ApiError {
    /// A key was sent and is not a live key.
    #[error("invalid authorization token")]
    InvalidToken,
    /// The route needs a signed-in caller and none was identified.
    #[error("authentication required")]
    AuthenticationRequired,
    /// The caller's plan does not include API access.
    #[error("plan {plan} has no api access")]
    ApiAccessDenied { plan: String },
    /// The caller's plan does not allow this action (message is sent as is).
    #[error("{0}")]
    Forbidden(String),
    /// The request is malformed or fails validation (message is sent as is).
    #[error("{0}")]
    BadRequest(String),
    /// The addressed resource does not exist (message is sent as is).
    #[error("{0}")]
    NotFound(String),
    /// The request conflicts with the current state (message is sent as is).
    #[error("{0}")]
    Conflict(String),
    /// No route matches the path.
    #[error("route not found")]
    RouteNotFound,
    /// A usage limit of the caller's plan is exhausted.
    #[error("{}", .0.message)]
    TooManyRequests(LimitExceeded),
    /// The request body is larger than the route accepts.
    #[error("request body over {limit} bytes")]
    PayloadTooLarge { limit: usize },
    /// The catalog or the search index has not been built yet.
    #[error("{0}")]
    Unavailable(String),
    /// Anything else: logged, never sent.
    #[error("internal error: {0}")]
    Internal(String),
}

/// The HTTP side of the services' errors: each kind keeps its message.
impl From<podlens_app::AppError> for ApiError {
    fn from(error: podlens_app::AppError) -> ApiError {
        use podlens_app::AppError;
        match error {
            AppError::Invalid(message) => ApiError::BadRequest(message),
            AppError::Forbidden(message) => ApiError::Forbidden(message),
            AppError::NotFound(message) => ApiError::NotFound(message),
            AppError::Conflict(message) => ApiError::Conflict(message),
            AppError::CapReached(limit) => ApiError::TooManyRequests(limit),
            AppError::Unavailable(message) => ApiError::Unavailable(message),
            AppError::Internal(cause) => ApiError::Internal(cause),
            // A kind added later is an internal error until it is mapped.
            other => ApiError::Internal(other.to_string()),
        }
    }
}

/// Errors of the lower layers, mapped as the services map them.
macro_rules! through_app_error {
    ($($error:ty),* $(,)?) => {
        $(impl From<$error> for ApiError {
            fn from(error: $error) -> ApiError {
                ApiError::from(podlens_app::AppError::from(error))
            }
        })*
    };
}

through_app_error!(
    podlens_store::StoreError,
    sqlx::Error,
    podlens_model::ValidationError,
    podlens_data::DataError,
    podlens_indexer::IndexError,
    podlens_model::SearchError,
);

impl ApiError {
    pub fn internal(error: impl std::fmt::Display) -> ApiError {
        ApiError::Internal(error.to_string())
    }

    /// The table: HTTP status, stable status code, and the message the client sees.
    pub fn parts(&self) -> (StatusCode, &'static str, String) {
        match self {
            ApiError::InvalidToken => (
                StatusCode::UNAUTHORIZED,
                "UNAUTHORIZED",
                INVALID_TOKEN_MESSAGE.to_owned(),
            ),
            ApiError::AuthenticationRequired => (
                StatusCode::UNAUTHORIZED,
                "UNAUTHORIZED",
                "This endpoint requires an API key in the Authorization header".to_owned(),
            ),
            ApiError::ApiAccessDenied { plan } => (
                StatusCode::FORBIDDEN,
                "FORBIDDEN",
                format!(
                    "API access is available on the business, agency and admin plans; your plan is {plan}"
                ),
            ),
            ApiError::Forbidden(message) => (StatusCode::FORBIDDEN, "FORBIDDEN", message.clone()),
            ApiError::BadRequest(message) => {
                (StatusCode::BAD_REQUEST, "BAD_REQUEST", message.clone())
            }
            ApiError::NotFound(message) => (StatusCode::NOT_FOUND, "NOT_FOUND", message.clone()),
            ApiError::Conflict(message) => (StatusCode::CONFLICT, "CONFLICT", message.clone()),
            ApiError::RouteNotFound => (
                StatusCode::NOT_FOUND,
                "NOT_FOUND",
                "Route not found".to_owned(),
            ),
            ApiError::TooManyRequests(limit) => (
                StatusCode::TOO_MANY_REQUESTS,
                "TOO_MANY_REQUESTS",
                limit.message.clone(),
            ),
            ApiError::PayloadTooLarge { limit } => (
                StatusCode::PAYLOAD_TOO_LARGE,
                "PAYLOAD_TOO_LARGE",
                format!(
                    "Request body is too large; the limit is {} MiB ({limit} bytes)",
                    limit / (1024 * 1024)
                ),
            ),
            ApiError::Unavailable(message) => (
                StatusCode::SERVICE_UNAVAILABLE,
                "SERVICE_UNAVAILABLE",
                message.clone(),
            ),
            ApiError::Internal(_) => (
                StatusCode::INTERNAL_SERVER_ERROR,
                "INTERNAL_SERVER_ERROR",
                "Internal server error".to_owned(),
            ),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal(cause) = &self {
            tracing::error!(%cause, "request failed");
        }
        let (status, code, message) = self.parts();
        let body = json!({ "status": code, "data": { "message": message } });
        let mut response = (status, axum::Json(body)).into_response();
        if let ApiError::Unavailable(_) = &self {
            // What is not there yet or is busy may pass: a client's retry can wait a second.
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                HeaderValue::from_static("1"),
            );
        }
        if let ApiError::TooManyRequests(limit) = &self {
            let headers = response.headers_mut();
            for (name, value) in [
                ("x-ratelimit-limit", limit.limit),
                (
                    "x-ratelimit-remaining",
                    limit.limit.saturating_sub(limit.used),
                ),
                ("x-ratelimit-reset", limit.reset_after_seconds),
            ] {
                if let Ok(value) = HeaderValue::from_str(&value.to_string()) {
                    headers.insert(name, value);
                }
            }
        }
        response
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

/// Under `/api/`, every failure is the error envelope: the rejections axum answers
/// itself in plain text (a path parameter that is not UTF-8, a method the route does
/// not have, a malformed header) are rewrapped, keeping their status, their words and
/// their other headers (`Allow`). Answers that are already JSON pass untouched.
pub async fn envelope_plain_failures(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let under_api = request.uri().path().starts_with("/api/");
    let response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("application/json"));
    if !under_api || is_json || !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 64 * 1024)
        .await
        .map(|bytes| String::from_utf8_lossy(&bytes).trim().to_owned())
        .unwrap_or_default();
    let reason = status.canonical_reason().unwrap_or("Error");
    let message = if text.is_empty() || status.is_server_error() {
        reason.to_owned()
    } else {
        text
    };
    let code = reason.to_ascii_uppercase().replace([' ', '-'], "_");
    let body = json!({ "status": code, "data": { "message": message } }).to_string();
    parts.headers.insert(
        axum::http::header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    Response::from_parts(parts, axum::body::Body::from(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_token_is_401_unauthorized_with_the_spec_message() {
        let (status, code, message) = ApiError::InvalidToken.parts();
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert_eq!(code, "UNAUTHORIZED");
        assert_eq!(message, "Invalid authorization token");
    }

    #[test]
    fn internal_details_are_never_sent() {
        let (status, _, message) = ApiError::internal("duckdb: disk full at /secret").parts();
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
        assert!(!message.contains("secret"));
    }

    #[test]
    fn too_many_requests_carries_rate_limit_headers() {
        let response = ApiError::TooManyRequests(LimitExceeded {
            message: "limit reached".into(),
            limit: 10,
            used: 10,
            reset_after_seconds: 60,
        })
        .into_response();
        assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(response.headers()["x-ratelimit-limit"], "10");
        assert_eq!(response.headers()["x-ratelimit-remaining"], "0");
        // No Retry-After: a daily or monthly window is far longer than any client
        // deadline, so clients should surface the message instead of waiting.
        assert!(!response.headers().contains_key("retry-after"));
    }

    #[test]
    fn unavailable_asks_for_a_retry_a_second_later() {
        let response = ApiError::Unavailable("busy".into()).into_response();
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(response.headers()["retry-after"], "1");
    }
}

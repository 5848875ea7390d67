//! Extractors whose rejections become [`ApiError`]s, so a malformed body or query
//! string is answered in the envelope with a clear message instead of axum's plain text.

use axum::extract::rejection::{BytesRejection, JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use crate::error::ApiError;

/// The largest request body of every route but uploads: 2 MiB (axum's default, set
/// explicitly so the 413 message can name it).
pub const BODY_LIMIT: usize = 2 * 1024 * 1024;

/// 413 when a body went over the limit while it was read.
fn over_limit(status: axum::http::StatusCode, limit: usize) -> Option<ApiError> {
    (status == axum::http::StatusCode::PAYLOAD_TOO_LARGE)
        .then_some(ApiError::PayloadTooLarge { limit })
}

/// A JSON body. Rejections answer 400 with the parser's explanation, 413 over the limit.
#[derive(Debug, Clone)]
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(request, state).await {
            Ok(axum::Json(value)) => Ok(ApiJson(value)),
            Err(rejection) => Err(json_rejection_error(&rejection)),
        }
    }
}

fn json_rejection_error(rejection: &JsonRejection) -> ApiError {
    if let Some(error) = over_limit(rejection.status(), BODY_LIMIT) {
        return error;
    }
    match rejection {
        JsonRejection::MissingJsonContentType(_) => {
            ApiError::BadRequest("Expected a JSON body with Content-Type: application/json".into())
        }
        JsonRejection::JsonSyntaxError(_) => {
            ApiError::BadRequest(format!("Invalid JSON body: {}", rejection.body_text()))
        }
        JsonRejection::JsonDataError(_) => {
            ApiError::BadRequest(format!("Invalid request body: {}", rejection.body_text()))
        }
        _ => ApiError::BadRequest(format!("Invalid request body: {}", rejection.body_text())),
    }
}

/// The raw JSON value of a body, for handlers that validate it themselves (search).
#[derive(Debug, Clone)]
pub struct RawJson(pub serde_json::Value);

impl<S: Send + Sync> FromRequest<S> for RawJson {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = axum::body::Bytes::from_request(request, state)
            .await
            .map_err(|rejection: BytesRejection| {
                over_limit(rejection.status(), BODY_LIMIT)
                    .unwrap_or_else(|| ApiError::BadRequest(rejection.body_text()))
            })?;
        if bytes.is_empty() {
            return Ok(RawJson(serde_json::Value::Object(Default::default())));
        }
        serde_json::from_slice(&bytes)
            .map(RawJson)
            .map_err(|error| ApiError::BadRequest(format!("Invalid JSON body: {error}")))
    }
}

/// A query string. Rejections answer 400 with the field that failed.
#[derive(Debug, Clone)]
pub struct ApiQuery<T>(pub T);

impl<S, T> FromRequestParts<S> for ApiQuery<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(value)) => Ok(ApiQuery(value)),
            Err(rejection) => Err(query_rejection_error(&rejection)),
        }
    }
}

fn query_rejection_error(rejection: &QueryRejection) -> ApiError {
    ApiError::BadRequest(format!(
        "Invalid query parameters: {}",
        rejection.body_text()
    ))
}

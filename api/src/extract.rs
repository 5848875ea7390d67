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

/// The most of a request body read after its answer is ready (a refused upload, a
/// route that ignores its body), and the longest wait for it.
const DRAIN_BYTES: usize = 32 * 1024 * 1024;
const DRAIN_TIME: std::time::Duration = std::time::Duration::from_secs(10);

/// Reads the rest of a request body the handler left unread (a 413 over the limit, a
/// 401 before an upload) before the answer goes out, up to [`DRAIN_BYTES`] and
/// [`DRAIN_TIME`]. Over HTTP/1.1, a server that answers and closes while the client
/// still sends makes the kernel reset the connection, and the client loses the answer
/// it was about to read ("connection reset" instead of the 413 and its message).
/// Bodies that declare a length within [`BODY_LIMIT`] are passed through untouched:
/// every route reads those whole.
pub async fn finish_reading_bodies(
    request: Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use futures_util::StreamExt;
    let declared = request
        .headers()
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<usize>().ok());
    let chunked = request
        .headers()
        .get(axum::http::header::TRANSFER_ENCODING)
        .is_some();
    if !chunked && declared.is_none_or(|length| length <= BODY_LIMIT) {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let shared = std::sync::Arc::new(tokio::sync::Mutex::new(body.into_data_stream()));
    let reader = shared.clone();
    let stream = futures_util::stream::unfold(reader, |reader| async move {
        let next = reader.lock().await.next().await;
        next.map(|item| (item, reader))
    });
    let request = Request::from_parts(parts, axum::body::Body::from_stream(stream));
    let response = next.run(request).await;
    let drained = tokio::time::timeout(DRAIN_TIME, async {
        let mut body = shared.lock().await;
        let mut read = 0;
        while read <= DRAIN_BYTES {
            match body.next().await {
                Some(Ok(chunk)) => read += chunk.len(),
                _ => break,
            }
        }
    })
    .await;
    if drained.is_err() {
        tracing::debug!("an unread request body was still arriving after the drain time");
    }
    response
}

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

//! The success envelope of every JSON answer: `{"status": "OK", "data": …}`.

use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// A successful answer whose payload is wrapped in the envelope.
#[derive(Debug, Clone)]
pub struct Envelope<T>(pub T);

#[derive(Serialize)]
struct Wire<'a, T> {
    status: &'static str,
    data: &'a T,
}

/// What an answer of unknown size starts with (as axum's `Json`).
const SMALL_ANSWER_BYTES: usize = 128;

impl<T: Serialize> IntoResponse for Envelope<T> {
    fn into_response(self) -> Response {
        SizedEnvelope {
            data: self.0,
            capacity: SMALL_ANSWER_BYTES,
        }
        .into_response()
    }
}

/// A large answer whose size is known in advance, roughly (a page of search hits,
/// already written as JSON): written into a buffer of about that size from the start,
/// instead of one that grows from 128 bytes and is copied each time it does.
#[derive(Debug, Clone)]
pub struct SizedEnvelope<T> {
    pub data: T,
    /// Bytes to reserve for the answer; it still grows past them when needed.
    pub capacity: usize,
}

impl<T: Serialize> IntoResponse for SizedEnvelope<T> {
    fn into_response(self) -> Response {
        let mut body = Vec::with_capacity(self.capacity);
        let wire = Wire {
            status: "OK",
            data: &self.data,
        };
        match serde_json::to_writer(&mut body, &wire) {
            Ok(()) => (
                [(
                    axum::http::header::CONTENT_TYPE,
                    axum::http::HeaderValue::from_static("application/json"),
                )],
                body,
            )
                .into_response(),
            Err(error) => {
                crate::error::ApiError::Internal(format!("cannot write the answer: {error}"))
                    .into_response()
            }
        }
    }
}

//! The success envelope of every JSON answer: `{"status": "OK", "data": …}`.

use axum::Json;
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

impl<T: Serialize> IntoResponse for Envelope<T> {
    fn into_response(self) -> Response {
        Json(Wire {
            status: "OK",
            data: &self.0,
        })
        .into_response()
    }
}

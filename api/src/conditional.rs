//! Conditional GETs: every successful JSON answer to a GET carries a weak `ETag` (a hash
//! of its body) and `Cache-Control: private, no-cache`, so a client may keep it and
//! revalidate; a request whose `If-None-Match` names the current tag gets `304 Not
//! Modified` without the body. Answers depend on the caller's key and plan, hence
//! `private` and `Vary: Authorization, Cookie`.

use axum::body::{Body, to_bytes};
use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

/// Bodies above this size are passed through untagged rather than buffered.
const MAX_TAGGED_BODY: u64 = 4 * 1024 * 1024;

/// The weak entity tag of a body: `W/"` and 32 hex digits of its SHA-256 `"`.
pub fn entity_tag(body: &[u8]) -> String {
    let digest = Sha256::digest(body);
    let hex: String = digest[..16]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    format!("W/\"{hex}\"")
}

/// Whether an `If-None-Match` value names `tag` (weak comparison; `*` matches).
fn matches(if_none_match: &str, tag: &str) -> bool {
    let opaque = |value: &str| value.trim().trim_start_matches("W/").to_owned();
    let wanted = opaque(tag);
    if_none_match
        .split(',')
        .any(|candidate| candidate.trim() == "*" || opaque(candidate) == wanted)
}

/// The middleware: tags GET answers and answers revalidations.
pub async fn conditional_get(request: Request, next: Next) -> Response {
    if request.method() != Method::GET {
        return next.run(request).await;
    }
    let if_none_match = request
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    let response = next.run(request).await;
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("application/json"));
    let small = axum::body::HttpBody::size_hint(response.body())
        .exact()
        .is_some_and(|size| size <= MAX_TAGGED_BODY);
    if response.status() != StatusCode::OK || !is_json || !small {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let bytes = match to_bytes(body, MAX_TAGGED_BODY as usize).await {
        Ok(bytes) => bytes,
        Err(error) => {
            tracing::warn!(%error, "cannot read an answer's body to tag it");
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        }
    };
    let tag = entity_tag(&bytes);
    let headers = &mut parts.headers;
    if let Ok(value) = HeaderValue::from_str(&tag) {
        headers.insert(header::ETAG, value);
    }
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-cache"),
    );
    headers.append(
        header::VARY,
        HeaderValue::from_static("Authorization, Cookie"),
    );
    if if_none_match.is_some_and(|value| matches(&value, &tag)) {
        parts.status = StatusCode::NOT_MODIFIED;
        headers.remove(header::CONTENT_TYPE);
        headers.remove(header::CONTENT_LENGTH);
        return Response::from_parts(parts, Body::empty());
    }
    Response::from_parts(parts, Body::from(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_compare_weakly_and_in_lists() {
        let tag = entity_tag(b"{\"a\":1}");
        assert!(tag.starts_with("W/\"") && tag.len() == 2 + 1 + 32 + 1);
        assert_ne!(tag, entity_tag(b"{\"a\":2}"));
        assert!(matches(&tag, &tag));
        assert!(matches(tag.trim_start_matches("W/"), &tag));
        assert!(matches(&format!("\"other\", {tag}"), &tag));
        assert!(matches("*", &tag));
        assert!(!matches("\"other\"", &tag));
        assert!(!matches("", &tag));
    }
}

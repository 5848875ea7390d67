//! What clients get from HTTP itself: answers to GETs carry an entity tag and revalidate
//! to 304 without a body; answers are gzip-compressed when the client accepts it.

mod common;

use std::io::Read;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use common::{get, key, send, shared, state};
use serde_json::Value;

fn request(uri: &str, key: &str, extra: &[(&str, &str)]) -> Request<Body> {
    let mut builder = Request::builder().uri(uri).header("authorization", key);
    for (name, value) in extra {
        builder = builder.header(*name, *value);
    }
    builder.body(Body::empty()).expect("request")
}

#[tokio::test]
async fn podcast_details_carry_an_etag_and_revalidate_to_not_modified() {
    let (state, _dir) = state();
    let business = key(&state, "etag-business@example.com", "business");
    let app = podlens_api::app(state);
    let id = shared().fixture.batches[0].podcast.podcast_id;
    let uri = format!("/api/v1/podcasts/{id}");

    let first = get(&app, &uri, Some(&business)).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let tag = first.headers[header::ETAG].to_str().unwrap().to_owned();
    assert!(tag.starts_with("W/\""), "{tag}");
    assert_eq!(first.headers[header::CACHE_CONTROL], "private, no-cache");
    // The same answer, the same tag.
    let again = get(&app, &uri, Some(&business)).await;
    assert_eq!(again.text, first.text);
    assert_eq!(again.headers[header::ETAG].to_str().unwrap(), tag);

    let revalidated = send(&app, request(&uri, &business, &[("if-none-match", &tag)])).await;
    assert_eq!(revalidated.status, StatusCode::NOT_MODIFIED);
    assert!(revalidated.bytes.is_empty());
    assert_eq!(revalidated.headers[header::ETAG].to_str().unwrap(), tag);

    // A stale tag gets the whole answer.
    let stale = send(
        &app,
        request(&uri, &business, &[("if-none-match", "W/\"stale\"")]),
    )
    .await;
    assert_eq!(stale.status, StatusCode::OK);
    assert_eq!(stale.text, first.text);

    // Another podcast, another tag.
    let other_id = shared().fixture.batches[1].podcast.podcast_id;
    let other = get(
        &app,
        &format!("/api/v1/podcasts/{other_id}"),
        Some(&business),
    )
    .await;
    assert_eq!(other.status, StatusCode::OK, "{}", other.text);
    assert_ne!(other.headers[header::ETAG].to_str().unwrap(), tag);

    // Errors are never tagged.
    let missing = get(&app, "/api/v1/podcasts/no-such-podcast", Some(&business)).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert!(missing.headers.get(header::ETAG).is_none());
}

#[tokio::test]
async fn answers_are_gzipped_when_the_client_accepts_it() {
    let (state, _dir) = state();
    let business = key(&state, "gzip@example.com", "business");
    let app = podlens_api::app(state);
    let id = shared().fixture.batches[1].podcast.podcast_id;
    let uri = format!("/api/v1/podcasts/{id}/episodes");

    let plain = get(&app, &uri, Some(&business)).await;
    assert_eq!(plain.status, StatusCode::OK, "{}", plain.text);
    assert!(plain.headers.get(header::CONTENT_ENCODING).is_none());

    let zipped = send(
        &app,
        request(&uri, &business, &[("accept-encoding", "gzip")]),
    )
    .await;
    assert_eq!(zipped.status, StatusCode::OK);
    assert_eq!(zipped.headers[header::CONTENT_ENCODING], "gzip");
    let mut text = String::new();
    flate2::read::GzDecoder::new(zipped.bytes.as_slice())
        .read_to_string(&mut text)
        .expect("gzip");
    assert!(
        zipped.bytes.len() < text.len(),
        "{} vs {}",
        zipped.bytes.len(),
        text.len()
    );
    let unzipped: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(unzipped, plain.body);
}

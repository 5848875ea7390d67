//! The fetcher against a local HTTP server on 127.0.0.1: 200, 304 on a conditional
//! GET, permanent and temporary redirects, 404, 500 then success (retry), 429, gzip,
//! oversize bodies, not-xml and blocked feeds, and transcripts.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use podlens_ingest::fetch::{FeedSource, FeedState, HttpConfig, IngestConfig, ingest};
use uuid::Uuid;

mod common;
use common::{FetchFor, MemoryStore};

const ETAG: &str = "\"v1\"";

fn feed_xml(title: &str, items: usize, extra: &str) -> String {
    let items: String = (0..items)
        .map(|index| {
            format!(
                "<item><title>Episode {index}</title><guid>{title}-{index}</guid>\
                 <enclosure url=\"https://cdn.example/{index}.mp3\" type=\"audio/mpeg\" length=\"1\"/>\
                 <pubDate>Mon, 0{} Jan 2024 10:00:00 GMT</pubDate>{}</item>",
                index % 9 + 1,
                if index == 0 { "<podcast:transcript url=\"TRANSCRIPT\" type=\"text/vtt\"/>" } else { "" }
            )
        })
        .collect();
    format!(
        "<?xml version=\"1.0\"?><rss version=\"2.0\" xmlns:podcast=\"https://podcastindex.org/namespace/1.0\" \
         xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\"><channel><title>{title}</title>{extra}{items}</channel></rss>"
    )
}

#[derive(Clone)]
struct AppState {
    base: String,
    flaky_calls: Arc<AtomicUsize>,
}

fn xml(body: String) -> Response {
    (
        [(header::CONTENT_TYPE, "application/rss+xml; charset=utf-8")],
        body,
    )
        .into_response()
}

async fn plain(State(state): State<AppState>) -> Response {
    xml(feed_xml("Plain", 3, "").replace("TRANSCRIPT", &format!("{}/transcript.vtt", state.base)))
}

async fn conditional(headers: HeaderMap) -> Response {
    if headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        == Some(ETAG)
    {
        return StatusCode::NOT_MODIFIED.into_response();
    }
    let mut response = xml(feed_xml("Conditional", 2, ""));
    response
        .headers_mut()
        .insert(header::ETAG, ETAG.parse().unwrap());
    response
}

async fn flaky(State(state): State<AppState>) -> Response {
    if state.flaky_calls.fetch_add(1, Ordering::SeqCst) < 2 {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    }
    xml(feed_xml("Flaky", 1, ""))
}

async fn moved() -> Response {
    (
        StatusCode::MOVED_PERMANENTLY,
        [(header::LOCATION, "/new-home")],
    )
        .into_response()
}

async fn temporary() -> Response {
    (StatusCode::FOUND, [(header::LOCATION, "/new-home")]).into_response()
}

async fn new_home() -> Response {
    xml(feed_xml("Moved", 2, ""))
}

async fn gzipped(headers: HeaderMap) -> Response {
    let accepts_gzip = headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.contains("gzip"));
    if !accepts_gzip {
        return StatusCode::NOT_ACCEPTABLE.into_response();
    }
    // Large and repetitive: the compression layer sends it gzip-encoded.
    xml(feed_xml("Compressed", 200, ""))
}

async fn huge() -> Response {
    xml(feed_xml("Huge", 5000, ""))
}

async fn html_page() -> Response {
    (
        [(header::CONTENT_TYPE, "text/html")],
        "<html><body>Not here</body></html>",
    )
        .into_response()
}

async fn json_body() -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        "{\"not\": \"xml\"}",
    )
        .into_response()
}

async fn blocked() -> Response {
    xml(feed_xml("Blocked", 2, "<itunes:block>Yes</itunes:block>"))
}

async fn transcript() -> Response {
    (
        [(header::CONTENT_TYPE, "text/vtt")],
        "WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n<v Ann>Hello there\n\n00:00:02.000 --> 00:00:03.000\n<v Bob>Hi\n",
    )
        .into_response()
}

async fn start_server() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let state = AppState {
        base: base.clone(),
        flaky_calls: Arc::new(AtomicUsize::new(0)),
    };
    let app = Router::new()
        .route("/plain.xml", get(plain))
        .route("/conditional.xml", get(conditional))
        .route("/flaky.xml", get(flaky))
        .route("/moved.xml", get(moved))
        .route("/temporary.xml", get(temporary))
        .route("/new-home", get(new_home))
        .route("/gzip.xml", get(gzipped))
        .route("/huge.xml", get(huge))
        .route("/page.html", get(html_page))
        .route("/data.json", get(json_body))
        .route("/blocked.xml", get(blocked))
        .route("/transcript.vtt", get(transcript))
        .route(
            "/error.xml",
            get(|| async { StatusCode::SERVICE_UNAVAILABLE }),
        )
        .route("/busy.xml", get(|| async { StatusCode::TOO_MANY_REQUESTS }))
        .layer(tower_http::compression::CompressionLayer::new())
        .with_state(state);
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    base
}

fn config() -> IngestConfig {
    IngestConfig {
        http: HttpConfig {
            timeout: Duration::from_secs(10),
            retries: 2,
            retry_base_delay: Duration::from_millis(10),
            max_body_bytes: 200_000,
            // The test server is on loopback.
            allow_private: true,
            ..HttpConfig::default()
        },
        ..IngestConfig::default()
    }
}

fn url(base: &str, path: &str) -> FeedSource {
    FeedSource::Url(FeedState::new(format!("{base}{path}")))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fetch_outcomes_are_recorded_and_the_run_goes_on() {
    let base = start_server().await;
    let paths = [
        "/plain.xml",
        "/conditional.xml",
        "/flaky.xml",
        "/moved.xml",
        "/temporary.xml",
        "/gzip.xml",
        "/huge.xml",
        "/page.html",
        "/data.json",
        "/blocked.xml",
        "/missing.xml",
        "/error.xml",
        "/busy.xml",
    ];
    let mut sources: Vec<FeedSource> = paths.iter().map(|path| url(&base, path)).collect();
    sources.push(FeedSource::Url(FeedState::new(
        "http://127.0.0.1:1/closed.xml",
    )));
    let (summary, store) = ingest(sources, config(), MemoryStore::default(), None)
        .await
        .unwrap();

    assert_eq!(summary.feeds, 14, "{summary}");
    assert_eq!(summary.ok, 6, "{summary}");
    assert_eq!(summary.failures.get("http-status"), Some(&3), "{summary}");
    assert_eq!(summary.failures.get("too-large"), Some(&1), "{summary}");
    assert_eq!(summary.failures.get("not-a-feed"), Some(&1), "{summary}");
    assert_eq!(summary.failures.get("not-xml"), Some(&1), "{summary}");
    assert_eq!(summary.failures.get("blocked"), Some(&1), "{summary}");
    assert_eq!(summary.failures.get("network"), Some(&1), "{summary}");

    assert_eq!(store.fetch_for("/missing.xml").http_status, Some(404));
    assert_eq!(store.fetch_for("/error.xml").http_status, Some(503));
    assert_eq!(store.fetch_for("/busy.xml").http_status, Some(429));
    assert!(
        store
            .fetch_for("/closed.xml")
            .error
            .as_deref()
            .unwrap()
            .contains("network")
    );
    assert_eq!(
        store.fetch_for("/flaky.xml").outcome,
        "ok",
        "retried after two 500s"
    );
    assert_eq!(store.fetch_for("/gzip.xml").episodes, Some(200));
    assert!(store.fetch_for("/blocked.xml").outcome == "blocked");
    assert!(
        store
            .batches
            .iter()
            .all(|batch| batch.podcast.podcast_rss_title != "Blocked")
    );

    // A permanent redirect moves the stored URL; a temporary one does not.
    assert_eq!(store.moved.len(), 1, "{:?}", store.moved);
    assert_eq!(store.moved[0].1, format!("{base}/new-home"));
    let moved = store
        .batches
        .iter()
        .filter(|b| b.podcast.podcast_rss_title == "Moved")
        .count();
    assert_eq!(moved, 2);

    // The conditional feed's validators are recorded for the next poll.
    let conditional = store.fetch_for("/conditional.xml");
    assert_eq!(conditional.etag.as_deref(), Some(ETAG));

    // The transcript named by podcast:transcript was fetched and parsed.
    assert_eq!(store.transcripts.len(), 1, "{summary}");
    let transcript = &store.transcripts[0];
    assert_eq!(transcript.format, "vtt");
    assert_eq!(transcript.segments.len(), 2);
    assert_eq!(transcript.segments[1].speaker.as_deref(), Some("Bob"));
    let plain = store
        .batches
        .iter()
        .find(|b| b.podcast.podcast_rss_title == "Plain")
        .unwrap();
    assert_eq!(
        plain.episodes[0].transcript_id,
        Some(transcript.transcript_id)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_matching_etag_costs_nothing() {
    let base = start_server().await;
    let state = FeedState {
        etag: Some(ETAG.to_owned()),
        podcast_id: Some(Uuid::from_u128(7)),
        ..FeedState::new(format!("{base}/conditional.xml"))
    };
    let (summary, store) = ingest(
        vec![FeedSource::Url(state)],
        config(),
        MemoryStore::default(),
        None,
    )
    .await
    .unwrap();
    assert_eq!(summary.not_modified, 1, "{summary}");
    assert!(store.batches.is_empty());
    assert_eq!(store.fetches[0].outcome, "not-modified");
    assert_eq!(store.fetches[0].http_status, Some(304));
}

/// A server that ignores conditional GET and sends the same bytes again: the feed is
/// "not modified" by the hash of its bytes, with nothing parsed or stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_bytes_again_are_not_modified_whatever_the_server_says() {
    let base = start_server().await;
    let url = format!("{base}/plain.xml");
    let podcast_id = Some(Uuid::from_u128(8));
    let first = FeedState {
        podcast_id,
        ..FeedState::new(url.clone())
    };
    let (_, store) = ingest(
        vec![FeedSource::Url(first)],
        config(),
        MemoryStore::default(),
        None,
    )
    .await
    .unwrap();
    let read = store.fetch_for("/plain.xml");
    assert_eq!(read.outcome, "ok");
    // The hash is the SHA-256 of the bytes as served, computed here apart.
    let served = reqwest::get(&url).await.unwrap().bytes().await.unwrap();
    let expected = {
        use sha2::Digest;
        let digest = sha2::Sha256::digest(&served);
        digest
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect::<String>()
    };
    assert_eq!(read.content_hash.as_deref(), Some(expected.as_str()));

    let again = FeedState {
        podcast_id,
        content_hash: read.content_hash.clone(),
        ..FeedState::new(url.clone())
    };
    let (summary, store) = ingest(
        vec![FeedSource::Url(again)],
        config(),
        MemoryStore::default(),
        None,
    )
    .await
    .unwrap();
    assert_eq!(summary.not_modified, 1, "{summary}");
    assert!(store.batches.is_empty(), "nothing parsed into a batch");
    let fetch = store.fetch_for("/plain.xml");
    assert_eq!(fetch.outcome, "not-modified");
    assert_eq!(fetch.http_status, Some(200));
    assert_eq!(fetch.content_hash.as_deref(), Some(expected.as_str()));

    // Other bytes are read in full.
    let changed = FeedState {
        podcast_id,
        content_hash: Some("0".repeat(64)),
        ..FeedState::new(url)
    };
    let (summary, store) = ingest(
        vec![FeedSource::Url(changed)],
        config(),
        MemoryStore::default(),
        None,
    )
    .await
    .unwrap();
    assert_eq!(summary.ok, 1, "{summary}");
    assert_eq!(store.batches.len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_files_and_missing_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("feed.xml");
    std::fs::write(&path, feed_xml("Local", 4, "")).unwrap();
    let sources = vec![
        FeedSource::File(path),
        FeedSource::File(dir.path().join("gone.xml")),
    ];
    let (summary, store) = ingest(sources, config(), MemoryStore::default(), None)
        .await
        .unwrap();
    assert_eq!(summary.ok, 1, "{summary}");
    assert_eq!(summary.failures.get("io"), Some(&1), "{summary}");
    assert_eq!(store.batches[0].episodes.len(), 4);
    assert!(
        store.batches[0]
            .podcast
            .podcast_rss_feed_url
            .starts_with("file://")
    );
}

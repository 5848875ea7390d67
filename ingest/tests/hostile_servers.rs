//! The feed fetcher against hostile servers on loopback: compressed bombs (gzip and
//! deflate bodies that inflate to 256 MiB) fail as `too-large` with the process's
//! peak memory barely moving, and server-side request forgery is refused — private
//! and loopback targets by default, and on every redirect hop and transcript link
//! even when the first server is allowed (no request ever reaches the forbidden one).

use std::io::Write;
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use podlens_ingest::fetch::{
    FeedSource, FeedState, HttpConfig, IngestConfig, IngestSummary, ingest,
};

mod common;
use common::{FetchFor, MemoryStore};

const INFLATED: usize = 256 * 1024 * 1024;

/// `INFLATED` zero bytes, compressed by a real encoder.
fn bomb(deflate: bool) -> Vec<u8> {
    let block = vec![0u8; 1024 * 1024];
    let level = flate2::Compression::best();
    if deflate {
        let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), level);
        for _ in 0..INFLATED / block.len() {
            encoder.write_all(&block).unwrap();
        }
        encoder.finish().unwrap()
    } else {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), level);
        for _ in 0..INFLATED / block.len() {
            encoder.write_all(&block).unwrap();
        }
        encoder.finish().unwrap()
    }
}

fn encoded(encoding: &'static str, body: Vec<u8>) -> Response {
    (
        [
            (header::CONTENT_TYPE, "application/rss+xml"),
            (header::CONTENT_ENCODING, encoding),
        ],
        body,
    )
        .into_response()
}

/// Peak resident memory of this process so far, in bytes (Linux).
fn peak_rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    let kb: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kb * 1024
}

async fn serve(address: &str, app: Router) -> String {
    let listener = tokio::net::TcpListener::bind(address).await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    base
}

fn config(allowed: &[&str]) -> IngestConfig {
    IngestConfig {
        http: HttpConfig {
            timeout: Duration::from_secs(20),
            retries: 0,
            max_body_bytes: 5 * 1024 * 1024,
            allowed_addresses: allowed
                .iter()
                .map(|a| a.parse::<IpAddr>().unwrap())
                .collect(),
            ..HttpConfig::default()
        },
        ..IngestConfig::default()
    }
}

/// Ingests `sources` into memory, fetching only from the `allowed` private addresses.
async fn fetch_urls(sources: Vec<FeedSource>, allowed: &[&str]) -> (IngestSummary, MemoryStore) {
    ingest(sources, config(allowed), MemoryStore::default(), None)
        .await
        .unwrap()
}

fn source(url: String) -> FeedSource {
    FeedSource::Url(FeedState::new(url))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compressed_bombs_fail_as_too_large_in_bounded_memory() {
    let gzip = bomb(false);
    let deflate = bomb(true);
    assert!(gzip.len() < INFLATED / 500, "{} bytes", gzip.len());
    let app = Router::new()
        .route(
            "/gzip.xml",
            get(move || async move { encoded("gzip", gzip) }),
        )
        .route(
            "/deflate.xml",
            get(move || async move { encoded("deflate", deflate) }),
        );
    let base = serve("127.0.0.1:0", app).await;
    let before = peak_rss();
    let sources = vec![
        source(format!("{base}/gzip.xml")),
        source(format!("{base}/deflate.xml")),
    ];
    let (summary, store) = fetch_urls(sources, &["127.0.0.1"]).await;
    let grown = peak_rss().saturating_sub(before);
    assert_eq!(summary.failures.get("too-large"), Some(&2), "{summary}");
    for path in ["/gzip.xml", "/deflate.xml"] {
        let fetch = store.fetch_for(path);
        assert_eq!(fetch.outcome, "too-large");
        assert_eq!(
            fetch.error.as_deref(),
            Some("response larger than 5242880 bytes (decompressed)")
        );
    }
    assert!(store.batches.is_empty());
    // Both bombs inflate to 512 MiB together; reading stops at the 5 MiB cap.
    assert!(
        grown < 64 * 1024 * 1024,
        "peak memory grew by {} MiB",
        grown / (1024 * 1024)
    );
}

const FEED: &str = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Allowed</title>\
    <item><title>One</title><guid>one</guid></item></channel></rss>";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn private_targets_are_refused_by_default_and_on_every_hop() {
    // The forbidden server: another loopback address, counting every request.
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&hits);
    let forbidden_app = Router::new().fallback(move || {
        let counter = Arc::clone(&counter);
        async move {
            counter.fetch_add(1, Ordering::SeqCst);
            (
                [(header::CONTENT_TYPE, "application/rss+xml")],
                FEED.replace("Allowed", "Secret"),
            )
        }
    });
    let forbidden = serve("127.0.0.2:0", forbidden_app).await;
    let redirect = |target: String| {
        move || {
            let target = target.clone();
            async move { (StatusCode::FOUND, [(header::LOCATION, target)]).into_response() }
        }
    };
    let port = forbidden.rsplit(':').next().unwrap().to_owned();
    let with_transcript = FEED.replace(
        "<guid>one</guid>",
        &format!(
            "<guid>one</guid><podcast:transcript xmlns:podcast=\"https://podcastindex.org/namespace/1.0\" \
             url=\"{forbidden}/secret.vtt\" type=\"text/vtt\"/>"
        ),
    );
    let app = Router::new()
        .route(
            "/feed.xml",
            get(|| async { ([(header::CONTENT_TYPE, "application/rss+xml")], FEED) }),
        )
        .route(
            "/with-transcript.xml",
            get(move || {
                let body = with_transcript.clone();
                async move { ([(header::CONTENT_TYPE, "application/rss+xml")], body) }
            }),
        )
        .route(
            "/to-loopback.xml",
            get(redirect(format!("{forbidden}/feed.xml"))),
        )
        .route(
            "/to-metadata.xml",
            get(redirect("http://169.254.169.254/latest/meta-data/".into())),
        )
        .route(
            "/to-private.xml",
            get(redirect("http://10.0.0.1/feed.xml".into())),
        )
        .route(
            "/to-localhost.xml",
            get(redirect(format!("http://localhost:{port}/feed.xml"))),
        )
        .route(
            "/to-mapped.xml",
            get(redirect(format!(
                "http://[::ffff:127.0.0.2]:{port}/feed.xml"
            ))),
        )
        .route(
            "/to-decimal.xml",
            get(redirect(format!("http://2130706434:{port}/feed.xml"))),
        )
        .route("/to-file.xml", get(redirect("file:///etc/passwd".into())));
    let allowed = serve("127.0.0.1:0", app).await;

    // By default even the first server is refused, before any request.
    let (summary, store) = fetch_urls(vec![source(format!("{allowed}/feed.xml"))], &[]).await;
    assert_eq!(summary.failures.get("refused"), Some(&1), "{summary}");
    assert_eq!(
        store.fetch_for("/feed.xml").error.as_deref(),
        Some(format!("refusing to fetch {allowed}/feed.xml: loopback address").as_str())
    );

    // With 127.0.0.1 opted in, the first server is read, and every hop to anything
    // else is refused.
    let paths = [
        "/feed.xml",
        "/with-transcript.xml",
        "/to-loopback.xml",
        "/to-metadata.xml",
        "/to-private.xml",
        "/to-localhost.xml",
        "/to-mapped.xml",
        "/to-decimal.xml",
        "/to-file.xml",
    ];
    let sources = paths
        .iter()
        .map(|p| source(format!("{allowed}{p}")))
        .collect();
    let (summary, store) = fetch_urls(sources, &["127.0.0.1"]).await;
    assert_eq!(summary.ok, 2, "{summary}");
    assert_eq!(summary.failures.get("refused"), Some(&7), "{summary}");
    let reasons = [
        ("/to-loopback.xml", "loopback address"),
        ("/to-metadata.xml", "link-local address"),
        ("/to-private.xml", "private address"),
        ("/to-localhost.xml", "local host name"),
        ("/to-mapped.xml", "loopback address"),
        ("/to-decimal.xml", "loopback address"),
        ("/to-file.xml", "only http and https are fetched"),
    ];
    for (path, reason) in reasons {
        let fetch = store.fetch_for(path);
        assert_eq!(fetch.outcome, "refused", "{path}");
        let error = fetch.error.as_deref().unwrap_or_default();
        assert!(error.ends_with(reason), "{path}: {error}");
    }
    // The transcript link to the forbidden server was refused too.
    assert_eq!(summary.transcripts, 0, "{summary}");
    assert_eq!(summary.transcript_failures, 1, "{summary}");
    assert_eq!(
        hits.load(Ordering::SeqCst),
        0,
        "a forbidden server was reached"
    );
}

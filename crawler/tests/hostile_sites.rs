//! The crawler against hostile sites on loopback: server-side request forgery is
//! refused by default and on every redirect hop (no request reaches the forbidden
//! server), and a compressed bomb is read only up to the body cap, reported as an
//! error of the crawl, with the process's peak memory barely moving.

use std::io::Write;
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::Router;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;
use podlens_crawler::{CrawlError, CrawlOptions, Crawler};

const PAGE: &str = "<html><head><title>Show</title></head><body>\
    <a href=\"mailto:host@show.example\">Write to us</a></body></html>";

async fn serve(address: &str, app: Router) -> String {
    let listener = tokio::net::TcpListener::bind(address).await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    base
}

fn options(allowed: &[&str]) -> CrawlOptions {
    CrawlOptions {
        politeness_delay: std::time::Duration::ZERO,
        allowed_addresses: allowed
            .iter()
            .map(|a| a.parse::<IpAddr>().unwrap())
            .collect(),
        ..CrawlOptions::default()
    }
}

fn redirect(target: String) -> impl Fn() -> std::future::Ready<axum::response::Response> + Clone {
    move || {
        std::future::ready(
            (StatusCode::FOUND, [(header::LOCATION, target.clone())]).into_response(),
        )
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forbidden_targets_are_refused_on_every_hop() {
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&hits);
    let forbidden = serve(
        "127.0.0.2:0",
        Router::new().fallback(move || {
            counter.fetch_add(1, Ordering::SeqCst);
            std::future::ready(([(header::CONTENT_TYPE, "text/html")], PAGE))
        }),
    )
    .await;
    let port = forbidden.rsplit(':').next().unwrap().to_owned();
    let page = || std::future::ready(([(header::CONTENT_TYPE, "text/html")], PAGE));
    let app = Router::new()
        .route("/", get(page))
        .route(
            "/robots.txt",
            get(|| std::future::ready(StatusCode::NOT_FOUND)),
        )
        .route("/to-loopback", get(redirect(format!("{forbidden}/"))))
        .route(
            "/to-metadata",
            get(redirect("http://169.254.169.254/latest/meta-data/".into())),
        )
        .route("/to-private", get(redirect("http://192.168.0.1/".into())))
        .route(
            "/to-localhost",
            get(redirect(format!("http://localhost:{port}/"))),
        )
        .route(
            "/to-mapped",
            get(redirect(format!("http://[::ffff:7f00:2]:{port}/"))),
        );
    let allowed = serve("127.0.0.1:0", app).await;

    // Nothing private by default: the start page itself is refused.
    let error = Crawler::new(options(&[]))
        .unwrap()
        .crawl(&format!("{allowed}/"))
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        format!("refusing to fetch {allowed}/: loopback address")
    );

    // 127.0.0.1 opted in: its page is crawled, every redirect elsewhere is refused.
    let crawler = Crawler::new(options(&["127.0.0.1"])).unwrap();
    let result = crawler.crawl(&format!("{allowed}/")).await.unwrap();
    assert_eq!(result.emails, vec!["host@show.example"]);
    for (path, reason) in [
        ("/to-loopback", "loopback address"),
        ("/to-metadata", "link-local address"),
        ("/to-private", "private address"),
        ("/to-localhost", "local host name"),
        ("/to-mapped", "loopback address"),
    ] {
        match crawler.crawl(&format!("{allowed}{path}")).await {
            Err(CrawlError::Refused { reason: got, .. }) => assert_eq!(got, reason, "{path}"),
            other => panic!("{path}: {other:?}"),
        }
    }
    assert_eq!(
        hits.load(Ordering::SeqCst),
        0,
        "a forbidden server was reached"
    );
}

/// Peak resident memory of this process so far, in bytes (Linux).
fn peak_rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace()
        .nth(1)
        .unwrap()
        .parse::<u64>()
        .unwrap()
        * 1024
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_compressed_bomb_is_cut_at_the_cap_and_reported() {
    // A page whose tail inflates to 256 MiB of spaces.
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder
        .write_all(PAGE.replace("</body></html>", "").as_bytes())
        .unwrap();
    let block = vec![b' '; 1024 * 1024];
    for _ in 0..256 {
        encoder.write_all(&block).unwrap();
    }
    let bomb = encoder.finish().unwrap();
    assert!(bomb.len() < 1024 * 1024, "{} bytes", bomb.len());
    let app = Router::new()
        .route(
            "/robots.txt",
            get(|| std::future::ready(StatusCode::NOT_FOUND)),
        )
        .route(
            "/",
            get(move || {
                let body = bomb.clone();
                std::future::ready(
                    (
                        [
                            (header::CONTENT_TYPE, "text/html"),
                            (header::CONTENT_ENCODING, "gzip"),
                        ],
                        body,
                    )
                        .into_response(),
                )
            }),
        );
    let base = serve("127.0.0.1:0", app).await;
    let before = peak_rss();
    let crawler = Crawler::new(options(&["127.0.0.1"])).unwrap();
    let result = crawler.crawl(&format!("{base}/")).await.unwrap();
    let grown = peak_rss().saturating_sub(before);
    assert_eq!(result.stats.errors, 1, "the oversized page is reported");
    assert_eq!(
        result.emails,
        vec!["host@show.example"],
        "what fit under the cap is read"
    );
    assert!(
        grown < 64 * 1024 * 1024,
        "peak memory grew by {} MiB",
        grown >> 20
    );
}

//! A static file server on 127.0.0.1 for crawler tests, with request counting and
//! `Last-Modified` revalidation (tower-http's `ServeDir`).

#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::Router;
use axum::extract::Request;
use axum::middleware::{self, Next};
use axum::response::Response;
use tower_http::services::ServeDir;

/// Requests the server answered, and how many of them were `304 Not Modified`.
#[derive(Debug, Default)]
pub struct Hits {
    pub requests: AtomicU64,
    pub not_modified: AtomicU64,
}

pub struct TestServer {
    pub address: SocketAddr,
    pub hits: Arc<Hits>,
}

impl TestServer {
    pub fn url(&self, path: &str) -> String {
        format!("http://{}/{}", self.address, path.trim_start_matches('/'))
    }

    pub fn requests(&self) -> u64 {
        self.hits.requests.load(Ordering::SeqCst)
    }

    pub fn not_modified(&self) -> u64 {
        self.hits.not_modified.load(Ordering::SeqCst)
    }
}

/// Serves `dir` until the test's runtime ends.
pub async fn serve(dir: &Path) -> TestServer {
    let hits = Arc::new(Hits::default());
    let counted = Arc::clone(&hits);
    let app = Router::new()
        .fallback_service(ServeDir::new(dir))
        .layer(middleware::from_fn(move |request: Request, next: Next| {
            let hits = Arc::clone(&counted);
            async move {
                hits.requests.fetch_add(1, Ordering::SeqCst);
                let response: Response = next.run(request).await;
                if response.status() == axum::http::StatusCode::NOT_MODIFIED {
                    hits.not_modified.fetch_add(1, Ordering::SeqCst);
                }
                response
            }
        }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(listener, app).await.ok();
    });
    TestServer { address, hits }
}

pub fn corpus_websites() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/websites")
}

pub fn test_options() -> podlens_crawler::CrawlOptions {
    podlens_crawler::CrawlOptions {
        allow_private: true,
        politeness_delay: std::time::Duration::ZERO,
        ..podlens_crawler::CrawlOptions::default()
    }
}

/// Percent-decodes `%XX` sequences (a second, independent decoder for expectations).
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%'
            && index + 2 < bytes.len()
            && let Ok(byte) = u8::from_str_radix(&text[index + 1..index + 3], 16)
        {
            out.push(byte);
            index += 3;
            continue;
        }
        out.push(bytes[index]);
        index += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

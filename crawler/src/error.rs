//! The crawler's one error type.

/// Why a crawl, or one fetch of it, failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CrawlError {
    /// The start URL is not an absolute http or https link.
    #[error("not an http or https url: {0}")]
    InvalidUrl(String),
    /// The host resolves to (or is) a private, loopback, link-local or otherwise
    /// non-public address and private addresses are not allowed.
    #[error("refusing to fetch {url}: {reason}")]
    Refused { url: String, reason: String },
    /// robots.txt forbids the start page.
    #[error("robots.txt disallows {0}")]
    DisallowedByRobots(String),
    /// The HTTP layer failed (connect, timeout, TLS, redirect limit).
    #[error("fetching {url} failed: {source}")]
    Http {
        url: String,
        #[source]
        source: reqwest::Error,
    },
    /// The server answered with an error status.
    #[error("fetching {url} returned status {status}")]
    Status { url: String, status: u16 },
    /// The on-disk cache could not be read or written.
    #[error("http cache at {path}: {source}")]
    Cache {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The HTTP client could not be configured.
    #[error("cannot build the http client: {0}")]
    Client(#[source] reqwest::Error),
}

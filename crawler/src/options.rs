//! How a crawl behaves: bounds, politeness, safety and caching.

use std::path::PathBuf;
use std::time::Duration;

/// Settings of a [`crate::Crawler`]. [`CrawlOptions::default`] suits crawling real
/// podcast websites; tests shorten the delay and allow loopback addresses.
#[derive(Debug, Clone)]
pub struct CrawlOptions {
    /// Most pages fetched per site (robots.txt not counted).
    pub max_pages: usize,
    /// Most link hops from the start page.
    pub max_depth: usize,
    /// Least time between two requests to one host (raised to the site's
    /// robots.txt `Crawl-delay`, capped by [`CrawlOptions::max_crawl_delay`]).
    pub politeness_delay: Duration,
    /// Largest `Crawl-delay` honoured.
    pub max_crawl_delay: Duration,
    /// Requests in flight to one host at a time.
    pub per_host_concurrency: usize,
    /// Whole-request timeout.
    pub request_timeout: Duration,
    /// Connect timeout.
    pub connect_timeout: Duration,
    /// Bytes read from a response body at most; the rest is dropped.
    pub max_body_bytes: usize,
    /// Redirects followed per request.
    pub max_redirects: usize,
    /// Directory of the on-disk HTTP cache; `None` disables it.
    pub cache_dir: Option<PathBuf>,
    /// Allows private, loopback and link-local addresses (tests and intranets).
    pub allow_private: bool,
    /// Non-public addresses allowed one by one (a test server on 127.0.0.1) while the
    /// rest stay refused.
    pub allowed_addresses: Vec<std::net::IpAddr>,
    /// The `User-Agent` sent and matched against robots.txt groups.
    pub user_agent: String,
    /// ISO 3166-1 alpha-2 country used to read national phone numbers
    /// (`(212) 555-0123`) as E.164; without it only international numbers are kept.
    pub default_country: Option<String>,
    /// Most external links kept in a result.
    pub max_external_links: usize,
}

impl CrawlOptions {
    /// The address guard's policy of these options.
    pub fn address_policy(&self) -> podlens_netguard::AddressPolicy {
        podlens_netguard::AddressPolicy {
            allow_private: self.allow_private,
            allowed_addresses: self.allowed_addresses.clone(),
        }
    }
}

/// The product's crawler name, matched against robots.txt `User-agent` lines.
pub const CRAWLER_NAME: &str = "podlens";

impl Default for CrawlOptions {
    fn default() -> Self {
        CrawlOptions {
            max_pages: 12,
            max_depth: 2,
            politeness_delay: Duration::from_millis(1_000),
            max_crawl_delay: Duration::from_secs(10),
            per_host_concurrency: 1,
            request_timeout: Duration::from_secs(20),
            connect_timeout: Duration::from_secs(10),
            max_body_bytes: 2 * 1024 * 1024,
            max_redirects: 5,
            cache_dir: None,
            allow_private: false,
            allowed_addresses: Vec::new(),
            user_agent: format!(
                "{CRAWLER_NAME}/{} (+https://github.com/podlens/podlens)",
                env!("CARGO_PKG_VERSION")
            ),
            default_country: None,
            max_external_links: 500,
        }
    }
}

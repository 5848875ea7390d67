//! Podcast websites: a robots-aware, bounded breadth-first crawl that extracts emails,
//! phones, contact pages, socials, podcast directory links and Apple/Spotify ids, as
//! the specification's website crawl result ([`WebsiteCrawlResult`]).
//!
//! A [`Crawler`] holds one HTTP client whose resolver refuses private, loopback and
//! link-local addresses (unless [`CrawlOptions::allow_private`]), an on-disk cache
//! revalidated with `ETag`/`Last-Modified`, the robots.txt of every origin it met,
//! and per-host politeness gates shared by all the sites it crawls. The page
//! extraction in [`extract`] is pure and usable on its own.

mod cache;
mod crawl;
mod error;
pub mod extract;
mod fetch;
mod frontier;
mod hosts;
mod options;
mod result;
mod robots;
mod safety;

pub use crawl::Crawler;
pub use error::CrawlError;
pub use options::{CRAWLER_NAME, CrawlOptions};
pub use podlens_model::entities::WebsiteCrawlResult;
pub use safety::non_public_reason;

/// Crawls one site with `options`: a convenience over [`Crawler`].
pub async fn crawl_site(
    start: &str,
    options: CrawlOptions,
) -> Result<WebsiteCrawlResult, CrawlError> {
    Crawler::new(options)?.crawl(start).await
}

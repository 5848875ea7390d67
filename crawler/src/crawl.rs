//! The crawl of one site: robots.txt first, then pages breadth-first from the
//! start URL, likely contact pages first, within the page and depth bounds.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use podlens_model::entities::{CrawlStats, WebsiteCrawlResult};
use url::Url;

use crate::extract::{PhoneReader, extract_page};
use crate::fetch::{Fetched, Fetcher};
use crate::frontier::{Frontier, link_priority, looks_like_page, site_key};
use crate::hosts::HostGates;
use crate::result::Findings;
use crate::robots::{RobotsRules, fetch_rules};
use crate::safety::check_url;
use crate::{CrawlError, CrawlOptions};

/// A crawler: one HTTP client, cache, robots.txt memory and per-host gates shared
/// by every site it crawls. Cheap to clone; clones share all of it.
#[derive(Debug, Clone)]
pub struct Crawler {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    options: CrawlOptions,
    fetcher: Fetcher,
    gates: HostGates,
    robots: Mutex<HashMap<String, Arc<RobotsRules>>>,
}

/// Counters kept while crawling.
#[derive(Debug, Default)]
struct Counters {
    pages: u64,
    errors: u64,
    cache_hits: u64,
    cache_misses: u64,
}

impl Counters {
    fn count_fetch(&mut self, fetched: &Fetched) {
        if fetched.from_cache {
            self.cache_hits += 1;
        } else {
            self.cache_misses += 1;
        }
    }
}

impl Crawler {
    pub fn new(options: CrawlOptions) -> Result<Crawler, CrawlError> {
        let fetcher = Fetcher::new(&options)?;
        let gates = HostGates::new(options.per_host_concurrency);
        Ok(Crawler {
            inner: Arc::new(Inner {
                options,
                fetcher,
                gates,
                robots: Mutex::new(HashMap::new()),
            }),
        })
    }

    pub fn options(&self) -> &CrawlOptions {
        &self.inner.options
    }

    /// Crawls the site at `start`, reading national phone numbers with the
    /// options' default country.
    pub async fn crawl(&self, start: &str) -> Result<WebsiteCrawlResult, CrawlError> {
        let country = self.inner.options.default_country.clone();
        self.crawl_with_country(start, country.as_deref()).await
    }

    /// Crawls the site at `start`; `country` (ISO alpha-2) reads national phone numbers.
    ///
    /// Fails when the start URL is not http(s), is refused by the address guard, or
    /// is disallowed by robots.txt. Failures of later pages (and of the start page's
    /// fetch itself) are counted in `stats.errors`, and so are pages whose (decompressed)
    /// body is over [`CrawlOptions::max_body_bytes`]: only what fits under it is read.
    pub async fn crawl_with_country(
        &self,
        start: &str,
        country: Option<&str>,
    ) -> Result<WebsiteCrawlResult, CrawlError> {
        let started = Instant::now();
        let options = &self.inner.options;
        let mut start_url =
            Url::parse(start.trim()).map_err(|_| CrawlError::InvalidUrl(start.to_owned()))?;
        start_url.set_fragment(None);
        if !matches!(start_url.scheme(), "http" | "https") || start_url.host_str().is_none() {
            return Err(CrawlError::InvalidUrl(start.to_owned()));
        }
        check_url(&start_url, &options.address_policy())?;
        let phones = PhoneReader::new(country);
        let mut counters = Counters::default();
        let robots = self.robots_for(&start_url, &mut counters).await;
        if !robots.allows(&start_url) {
            return Err(CrawlError::DisallowedByRobots(start_url.to_string()));
        }
        let mut findings = Findings::new(&start_url, options.max_external_links);
        let mut frontier = Frontier::default();
        frontier.push(&start_url, 0, u8::MAX);
        let mut robots = robots;
        let mut first = true;
        while let Some((url, depth)) = frontier.pop() {
            if counters.pages >= options.max_pages as u64 {
                break;
            }
            if !robots.allows(&url) {
                tracing::debug!(%url, "skipped: robots.txt");
                continue;
            }
            let fetched = match self.fetch_politely(&url, &robots).await {
                Ok(fetched) => fetched,
                Err(error @ CrawlError::Refused { .. }) if first => return Err(error),
                Err(error) => {
                    tracing::debug!(%url, %error, "page failed");
                    counters.errors += 1;
                    first = false;
                    continue;
                }
            };
            counters.count_fetch(&fetched);
            if fetched.truncated {
                // A page (or a compressed page's decompressed body: a zip bomb) over
                // the cap is an error of the crawl; what fit under the cap is read.
                tracing::warn!(%url, limit = options.max_body_bytes,
                    "page body over the size cap after decompression: the rest was dropped");
                counters.errors += 1;
            }
            if !(200..300).contains(&fetched.status) {
                counters.errors += 1;
                first = false;
                continue;
            }
            if first && !findings.is_internal(&fetched.final_url) {
                // The start page moved to another host: that host is the site now.
                findings.set_site(&fetched.final_url);
                robots = self.robots_for(&fetched.final_url, &mut counters).await;
            }
            first = false;
            frontier.mark_seen(&fetched.final_url);
            if !is_html(&fetched) {
                continue;
            }
            counters.pages += 1;
            let page = fetched.final_url.clone();
            let body = String::from_utf8_lossy(&fetched.body).into_owned();
            let base = page.clone();
            let facts = tokio::task::spawn_blocking(move || extract_page(&body, &base, &phones))
                .await
                .unwrap_or_default();
            if depth < options.max_depth {
                for link in &facts.links {
                    if findings.is_internal(&link.url) && looks_like_page(&link.url) {
                        frontier.push(&link.url, depth + 1, link_priority(&link.url, &link.text));
                    }
                }
            }
            findings.add_page(&page, &facts);
        }
        let stats = CrawlStats {
            base_url: start_url.to_string(),
            pages_crawled: counters.pages,
            errors: counters.errors,
            cache_hits: counters.cache_hits,
            cache_misses: counters.cache_misses,
            duration_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        };
        Ok(findings.finish(stats))
    }

    async fn fetch_politely(&self, url: &Url, robots: &RobotsRules) -> Result<Fetched, CrawlError> {
        let options = &self.inner.options;
        let delay = robots
            .crawl_delay()
            .map(|delay| delay.min(options.max_crawl_delay))
            .unwrap_or(Duration::ZERO)
            .max(options.politeness_delay);
        let _slot = self.inner.gates.enter(&site_key(url), delay).await;
        self.inner.fetcher.get(url).await
    }

    /// The robots.txt rules of `url`'s origin, fetched once per crawler.
    async fn robots_for(&self, url: &Url, counters: &mut Counters) -> Arc<RobotsRules> {
        let origin = url.origin().ascii_serialization();
        if let Some(rules) = self.cached_rules(&origin) {
            return rules;
        }
        let options = &self.inner.options;
        let fetched = {
            let _slot = self
                .inner
                .gates
                .enter(&site_key(url), options.politeness_delay)
                .await;
            fetch_rules(&self.inner.fetcher, url).await
        };
        match fetched.1 {
            Some(true) => counters.cache_hits += 1,
            Some(false) => counters.cache_misses += 1,
            None => counters.errors += 1,
        }
        let rules = Arc::new(fetched.0);
        let mut memory = self
            .inner
            .robots
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        Arc::clone(memory.entry(origin).or_insert(rules))
    }

    fn cached_rules(&self, origin: &str) -> Option<Arc<RobotsRules>> {
        let memory = self
            .inner
            .robots
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        memory.get(origin).cloned()
    }
}

fn is_html(fetched: &Fetched) -> bool {
    match fetched.content_type.as_deref() {
        None => true,
        Some(kind) => {
            let kind = kind.to_ascii_lowercase();
            kind.contains("html") || kind.starts_with("text/plain")
        }
    }
}

//! One HTTP GET under the crawl's rules: guarded resolver and redirects, timeouts,
//! a body size cap, and conditional requests against the on-disk cache.

use std::sync::Arc;

use podlens_netguard::{GuardedClient, Redirects};
use reqwest::StatusCode;
use reqwest::header::{
    CONTENT_TYPE, ETAG, HeaderMap, HeaderValue, IF_MODIFIED_SINCE, IF_NONE_MATCH, LAST_MODIFIED,
};
use url::Url;

use crate::cache::{CachedMeta, HttpCache};
use crate::{CrawlError, CrawlOptions};

/// A response as the crawl uses it.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// The URL after redirects.
    pub final_url: Url,
    pub status: u16,
    pub content_type: Option<String>,
    pub body: Vec<u8>,
    /// Served from the cache after a `304 Not Modified`.
    pub from_cache: bool,
    /// The body was longer than the cap and was cut.
    pub truncated: bool,
}

/// The HTTP side of a crawler.
#[derive(Debug, Clone)]
pub struct Fetcher {
    client: GuardedClient,
    cache: Option<Arc<HttpCache>>,
    max_body_bytes: usize,
}

impl Fetcher {
    pub fn new(options: &CrawlOptions) -> Result<Fetcher, CrawlError> {
        let client = GuardedClient::build(
            options.address_policy(),
            Redirects::Checked(options.max_redirects),
            |builder| {
                builder
                    .user_agent(options.user_agent.clone())
                    .timeout(options.request_timeout)
                    .connect_timeout(options.connect_timeout)
            },
        )
        .map_err(CrawlError::Client)?;
        let cache = match &options.cache_dir {
            Some(dir) => Some(Arc::new(HttpCache::open(dir)?)),
            None => None,
        };
        Ok(Fetcher {
            client,
            cache,
            max_body_bytes: options.max_body_bytes,
        })
    }

    /// GETs `url`. Any HTTP status is a successful fetch; the caller judges it.
    pub async fn get(&self, url: &Url) -> Result<Fetched, CrawlError> {
        let mut request = self
            .client
            .get(url)
            .map_err(|refused| CrawlError::Refused {
                url: url.to_string(),
                reason: refused.reason,
            })?;
        let cached = self
            .cache
            .as_ref()
            .and_then(|cache| cache.load(url.as_str()));
        if let Some(entry) = &cached {
            request = request.headers(conditional_headers(&entry.meta));
        }
        let http = |source: reqwest::Error| match podlens_netguard::Refused::find(&source) {
            // A redirect hop or a resolved address the guard refused.
            Some(refused) => CrawlError::Refused {
                url: refused.target.clone(),
                reason: refused.reason.clone(),
            },
            None => CrawlError::Http {
                url: url.to_string(),
                source,
            },
        };
        let mut response = request.send().await.map_err(http)?;
        let status = response.status();
        if status == StatusCode::NOT_MODIFIED
            && let Some(entry) = cached
        {
            tracing::debug!(url = %url, "cache hit");
            let final_url = Url::parse(&entry.meta.final_url).unwrap_or_else(|_| url.clone());
            return Ok(Fetched {
                final_url,
                status: 200,
                content_type: entry.meta.content_type,
                body: entry.body,
                from_cache: true,
                truncated: false,
            });
        }
        let final_url = response.url().clone();
        let headers = response.headers().clone();
        let mut body = Vec::new();
        let mut truncated = false;
        while let Some(chunk) = response.chunk().await.map_err(http)? {
            let room = self.max_body_bytes.saturating_sub(body.len());
            if chunk.len() > room {
                body.extend_from_slice(&chunk[..room]);
                truncated = true;
                break;
            }
            body.extend_from_slice(&chunk);
        }
        let content_type = header_text(&headers, CONTENT_TYPE);
        if status.is_success()
            && !truncated
            && let Some(cache) = &self.cache
        {
            let meta = CachedMeta {
                url: url.to_string(),
                final_url: final_url.to_string(),
                etag: header_text(&headers, ETAG),
                last_modified: header_text(&headers, LAST_MODIFIED),
                content_type: content_type.clone(),
            };
            if let Err(error) = cache.store(&meta, &body) {
                tracing::warn!(%error, "http cache write failed");
            }
        }
        Ok(Fetched {
            final_url,
            status: status.as_u16(),
            content_type,
            body,
            from_cache: false,
            truncated,
        })
    }
}

fn conditional_headers(meta: &CachedMeta) -> HeaderMap {
    let mut headers = HeaderMap::new();
    let pairs = [
        (IF_NONE_MATCH, &meta.etag),
        (IF_MODIFIED_SINCE, &meta.last_modified),
    ];
    for (name, value) in pairs {
        if let Some(value) = value.as_deref().and_then(|v| HeaderValue::from_str(v).ok()) {
            headers.insert(name, value);
        }
    }
    headers
}

fn header_text(headers: &HeaderMap, name: reqwest::header::HeaderName) -> Option<String> {
    headers
        .get(name)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned)
}

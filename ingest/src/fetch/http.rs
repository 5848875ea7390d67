//! One HTTP GET of a feed or transcript: conditional headers, redirects followed by
//! hand (so a permanent move is noticed), a body-size cap on the decompressed body,
//! retries with exponential backoff on 429, 5xx and network errors, and the
//! [`podlens_netguard`] address guard: unless [`HttpConfig::allow_private`], private,
//! loopback and link-local targets are refused, after resolution and on every hop.

use std::time::Duration;

use reqwest::StatusCode;
use reqwest::header::{self, HeaderMap};

use crate::error::IngestError;

/// Limits of the HTTP client.
#[derive(Debug, Clone)]
pub struct HttpConfig {
    pub timeout: Duration,
    pub connect_timeout: Duration,
    /// Bytes of a body at most, counted after decompression (a gzip bomb fails with
    /// [`IngestError::TooLarge`] once it has inflated this far).
    pub max_body_bytes: u64,
    pub max_redirects: usize,
    /// Retries after the first attempt.
    pub retries: u32,
    pub retry_base_delay: Duration,
    pub user_agent: String,
    /// Allows private, loopback and link-local addresses (local test servers, the
    /// demo, intranets). Off by default.
    pub allow_private: bool,
    /// Non-public addresses allowed one by one (a test server on 127.0.0.1) while the
    /// rest stay refused.
    pub allowed_addresses: Vec<std::net::IpAddr>,
}

impl HttpConfig {
    /// The address guard's policy of this configuration.
    pub fn address_policy(&self) -> podlens_netguard::AddressPolicy {
        podlens_netguard::AddressPolicy {
            allow_private: self.allow_private,
            allowed_addresses: self.allowed_addresses.clone(),
        }
    }
}

impl Default for HttpConfig {
    fn default() -> Self {
        HttpConfig {
            timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(10),
            max_body_bytes: 50 * 1024 * 1024,
            max_redirects: 5,
            retries: 2,
            retry_base_delay: Duration::from_millis(500),
            user_agent: concat!(
                "podlens/",
                env!("CARGO_PKG_VERSION"),
                " (+https://github.com/podlens/podlens)"
            )
            .to_owned(),
            allow_private: false,
            allowed_addresses: Vec::new(),
        }
    }
}

/// The result of a GET.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HttpOutcome {
    Body(HttpBody),
    /// 304: the validators matched.
    NotModified {
        final_url: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpBody {
    pub bytes: Vec<u8>,
    pub status: u16,
    pub final_url: String,
    /// The new URL when every redirect on the way was permanent (301/308).
    pub moved_permanently_to: Option<String>,
    pub charset: Option<String>,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
}

/// Builds the shared client: rustls, gzip/brotli/deflate, no automatic redirects, and
/// the address guard ([`podlens_netguard::GuardedClient`]: every URL checked, names
/// checked after resolution, no proxy from the environment).
pub fn build_client(config: &HttpConfig) -> Result<podlens_netguard::GuardedClient, IngestError> {
    podlens_netguard::GuardedClient::build(
        config.address_policy(),
        podlens_netguard::Redirects::Never,
        |builder| {
            builder
                .user_agent(config.user_agent.clone())
                .timeout(config.timeout)
                .connect_timeout(config.connect_timeout)
                .gzip(true)
                .brotli(true)
                .deflate(true)
        },
    )
    .map_err(|error| IngestError::Network(format!("cannot build http client: {error}")))
}

/// GETs `url` with retries; `etag`/`last_modified` make the request conditional.
pub async fn get(
    client: &podlens_netguard::GuardedClient,
    config: &HttpConfig,
    url: &str,
    etag: Option<&str>,
    last_modified: Option<&str>,
) -> Result<HttpOutcome, IngestError> {
    let mut attempt = 0;
    loop {
        match get_once(client, config, url, etag, last_modified).await {
            Ok(outcome) => return Ok(outcome),
            Err(Failure { error, retry_after }) => {
                let retryable = matches!(
                    error,
                    IngestError::Network(_)
                        | IngestError::HttpStatus {
                            status: 429 | 500..=599
                        }
                );
                if !retryable || attempt >= config.retries {
                    return Err(error);
                }
                let backoff = config.retry_base_delay * 2u32.saturating_pow(attempt);
                let delay = retry_after.map_or(backoff, |wait| {
                    wait.min(Duration::from_secs(30)).max(backoff)
                });
                tracing::debug!(url, attempt, ?delay, %error, "retrying");
                tokio::time::sleep(delay).await;
                attempt += 1;
            }
        }
    }
}

struct Failure {
    error: IngestError,
    retry_after: Option<Duration>,
}

impl From<IngestError> for Failure {
    fn from(error: IngestError) -> Self {
        Failure {
            error,
            retry_after: None,
        }
    }
}

fn network(error: reqwest::Error) -> Failure {
    if let Some(refused) = podlens_netguard::Refused::find(&error) {
        return IngestError::Refused(refused.to_string()).into();
    }
    let detail = if error.is_timeout() {
        "timed out".to_owned()
    } else if error.is_connect() {
        format!("cannot connect: {}", root_cause(&error))
    } else {
        root_cause(&error)
    };
    IngestError::Network(detail.to_lowercase()).into()
}

fn root_cause(error: &(dyn std::error::Error + 'static)) -> String {
    let mut source = error;
    while let Some(next) = source.source() {
        source = next;
    }
    source.to_string()
}

async fn get_once(
    client: &podlens_netguard::GuardedClient,
    config: &HttpConfig,
    url: &str,
    etag: Option<&str>,
    last_modified: Option<&str>,
) -> Result<HttpOutcome, Failure> {
    let mut current = url::Url::parse(&crate::fetch::http_url(url))
        .map_err(|error| IngestError::Network(format!("invalid url {url:?}: {error}")))?;
    let mut all_permanent = true;
    let mut redirected = false;
    for _ in 0..=config.max_redirects {
        // The guard checks the first URL and every hop (an IP literal never reaches
        // its resolver).
        let mut request = client
            .get(&current)
            .map_err(|refused| IngestError::Refused(refused.to_string()))?;
        if let Some(etag) = etag {
            request = request.header(header::IF_NONE_MATCH, etag);
        }
        if let Some(last_modified) = last_modified {
            request = request.header(header::IF_MODIFIED_SINCE, last_modified);
        }
        let mut response = request.send().await.map_err(network)?;
        let status = response.status();
        if status.is_redirection() && status != StatusCode::NOT_MODIFIED {
            let location = response
                .headers()
                .get(header::LOCATION)
                .and_then(|value| value.to_str().ok())
                .ok_or(IngestError::HttpStatus {
                    status: status.as_u16(),
                })?;
            current = current.join(location).map_err(|error| {
                IngestError::Network(format!("bad redirect location {location:?}: {error}"))
            })?;
            all_permanent &= matches!(
                status,
                StatusCode::MOVED_PERMANENTLY | StatusCode::PERMANENT_REDIRECT
            );
            redirected = true;
            continue;
        }
        if status == StatusCode::NOT_MODIFIED {
            return Ok(HttpOutcome::NotModified {
                final_url: current.to_string(),
            });
        }
        if !status.is_success() {
            return Err(Failure {
                error: IngestError::HttpStatus {
                    status: status.as_u16(),
                },
                retry_after: retry_after(response.headers()),
            });
        }
        if response
            .content_length()
            .is_some_and(|length| length > config.max_body_bytes)
        {
            return Err(IngestError::TooLarge {
                limit: config.max_body_bytes,
            }
            .into());
        }
        let headers = response.headers().clone();
        let mut bytes = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(network)? {
            if bytes.len() as u64 + chunk.len() as u64 > config.max_body_bytes {
                return Err(IngestError::TooLarge {
                    limit: config.max_body_bytes,
                }
                .into());
            }
            bytes.extend_from_slice(&chunk);
        }
        let final_url = current.to_string();
        return Ok(HttpOutcome::Body(HttpBody {
            bytes,
            status: status.as_u16(),
            moved_permanently_to: (redirected && all_permanent).then(|| final_url.clone()),
            final_url,
            charset: charset(&headers),
            etag: header_text(&headers, header::ETAG),
            last_modified: header_text(&headers, header::LAST_MODIFIED),
        }));
    }
    Err(IngestError::Network(format!("more than {} redirects", config.max_redirects)).into())
}

fn header_text(headers: &HeaderMap, name: header::HeaderName) -> Option<String> {
    headers
        .get(name)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned)
}

fn charset(headers: &HeaderMap) -> Option<String> {
    let content_type = header_text(headers, header::CONTENT_TYPE)?;
    content_type.split(';').skip(1).find_map(|parameter| {
        let (key, value) = parameter.split_once('=')?;
        key.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| value.trim().trim_matches('"').to_owned())
    })
}

fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let seconds: u64 = header_text(headers, header::RETRY_AFTER)?
        .trim()
        .parse()
        .ok()?;
    Some(Duration::from_secs(seconds))
}

//! Server-side request forgery guard shared by everything that fetches a URL it was
//! given by a feed, a website or a user (the feed fetcher, the crawler): only http and
//! https, and — unless private addresses are allowed — never an address that is
//! private, loopback, link-local, multicast or otherwise not on the public internet.
//!
//! The check is resolve-then-check inside the HTTP client's resolver
//! ([`GuardedResolver`]): the addresses a name resolves to are filtered before the
//! client connects to one of them, so a name cannot resolve to a public address for
//! a check and to a private one for the connection. URLs with an IP literal never
//! reach the resolver and are checked by [`check_url`], on the first URL and on every
//! redirect hop. [`GuardedClient`] puts the two together, without environment proxies;
//! every outbound request of the server and the batch jobs is made through one.

use std::error::Error;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use url::Url;

/// A URL the guard will not fetch, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// The URL, or the host name when the refusal comes from the resolver.
    pub target: String,
    pub reason: String,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "refusing to fetch {}: {}", self.target, self.reason)
    }
}

impl Error for Refused {}

impl Refused {
    /// The guard's refusal somewhere in `error`'s source chain (a reqwest error
    /// wraps the resolver's), if any.
    pub fn find<'a>(error: &'a (dyn Error + 'static)) -> Option<&'a Refused> {
        let mut current = Some(error);
        while let Some(error) = current {
            if let Some(refused) = error.downcast_ref::<Refused>() {
                return Some(refused);
            }
            current = error.source();
        }
        None
    }
}

/// Which addresses may be fetched: public ones always; private, loopback and
/// link-local ones only with [`AddressPolicy::allow_private`] (every such address) or
/// when listed in [`AddressPolicy::allowed_addresses`] (just those: a test server on
/// 127.0.0.1 without opening the rest of loopback or the cloud metadata address).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AddressPolicy {
    pub allow_private: bool,
    pub allowed_addresses: Vec<IpAddr>,
}

impl AddressPolicy {
    /// Public addresses only (the default).
    pub fn public_only() -> AddressPolicy {
        AddressPolicy::default()
    }

    /// Every address (`--allow-private`).
    pub fn allow_private() -> AddressPolicy {
        AddressPolicy {
            allow_private: true,
            allowed_addresses: Vec::new(),
        }
    }

    /// Why `ip` may not be fetched under this policy, or `None` when it may.
    pub fn refusal(&self, ip: IpAddr) -> Option<&'static str> {
        if self.allow_private || self.allowed_addresses.contains(&canonical(ip)) {
            return None;
        }
        non_public_reason(ip)
    }
}

fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// Why `ip` may not be fetched, or `None` when it is a public address.
pub fn non_public_reason(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => v4_reason(v4),
        IpAddr::V6(v6) => {
            if let Some(mapped) = v6.to_ipv4_mapped() {
                return v4_reason(mapped);
            }
            v6_reason(v6)
        }
    }
}

fn v4_reason(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, ..] = ip.octets();
    if ip.is_loopback() {
        Some("loopback address")
    } else if ip.is_private() {
        Some("private address")
    } else if ip.is_link_local() {
        Some("link-local address")
    } else if ip.is_unspecified() || a == 0 {
        Some("unspecified address")
    } else if ip.is_broadcast() || ip.is_multicast() || a >= 240 {
        Some("broadcast, multicast or reserved address")
    } else if a == 100 && (64..128).contains(&b) {
        Some("shared address space (carrier-grade nat)")
    } else if ip.is_documentation() || (a == 198 && (b == 18 || b == 19)) {
        Some("documentation or benchmarking address")
    } else {
        None
    }
}

fn v6_reason(ip: Ipv6Addr) -> Option<&'static str> {
    let segments = ip.segments();
    let first = segments[0];
    if ip.is_loopback() {
        Some("loopback address")
    } else if ip.is_unspecified() {
        Some("unspecified address")
    } else if first & 0xfe00 == 0xfc00 {
        Some("unique local (private) address")
    } else if first & 0xffc0 == 0xfe80 {
        Some("link-local address")
    } else if ip.is_multicast() {
        Some("multicast address")
    } else if first == 0x2001 && segments[1] == 0x0db8 {
        Some("documentation address")
    } else if first == 0x0064 && segments[1] == 0xff9b {
        // NAT64 (64:ff9b::/96) embeds an IPv4 address in its last 32 bits.
        let [.., c, d] = segments;
        let v4 = Ipv4Addr::new((c >> 8) as u8, c as u8, (d >> 8) as u8, d as u8);
        v4_reason(v4)
    } else if first == 0x2002 {
        // 6to4 (2002::/16) embeds an IPv4 address in bits 16..48.
        let v4 = Ipv4Addr::new(
            (segments[1] >> 8) as u8,
            segments[1] as u8,
            (segments[2] >> 8) as u8,
            segments[2] as u8,
        );
        v4_reason(v4)
    } else if segments[..6] == [0, 0, 0, 0, 0, 0] {
        // IPv4-compatible (::a.b.c.d, deprecated) addresses.
        v4_reason(Ipv4Addr::from(
            (u32::from(segments[6]) << 16) | u32::from(segments[7]),
        ))
        .or(Some("ipv4-compatible address"))
    } else {
        None
    }
}

/// Checks a URL before a request (the first URL and every redirect hop): scheme, host,
/// and the address when the host is an IP literal. Names are checked after resolution
/// by [`GuardedResolver`]; obviously local names are refused here already.
pub fn check_url(url: &Url, policy: &AddressPolicy) -> Result<(), Refused> {
    let refuse = |reason: &str| Refused {
        target: url.to_string(),
        reason: reason.to_owned(),
    };
    if !matches!(url.scheme(), "http" | "https") {
        return Err(refuse("only http and https are fetched"));
    }
    let ip = match url.host() {
        None => return Err(refuse("no host")),
        Some(url::Host::Ipv4(v4)) => IpAddr::V4(v4),
        Some(url::Host::Ipv6(v6)) => IpAddr::V6(v6),
        Some(url::Host::Domain(name)) => {
            if !policy.allow_private && is_local_name(name) {
                return Err(refuse("local host name"));
            }
            return Ok(());
        }
    };
    match policy.refusal(ip) {
        Some(reason) => Err(refuse(reason)),
        None => Ok(()),
    }
}

fn is_local_name(name: &str) -> bool {
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    name == "localhost"
        || name.ends_with(".localhost")
        || name.ends_with(".local")
        || name.ends_with(".internal")
}

/// The HTTP client's resolver: resolves with the system resolver and drops every
/// address the policy refuses; a name left with no address fails with a [`Refused`]
/// error.
#[derive(Debug, Clone)]
pub struct GuardedResolver {
    pub policy: Arc<AddressPolicy>,
}

impl GuardedResolver {
    pub fn new(policy: AddressPolicy) -> GuardedResolver {
        GuardedResolver {
            policy: Arc::new(policy),
        }
    }
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let policy = Arc::clone(&self.policy);
        Box::pin(async move {
            let host = name.as_str().to_owned();
            let resolved: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let allowed: Vec<SocketAddr> = resolved
                .iter()
                .copied()
                .filter(|address| policy.refusal(address.ip()).is_none())
                .collect();
            if allowed.is_empty() {
                let reason = match resolved.first() {
                    None => "no address".to_owned(),
                    Some(first) => format!(
                        "resolves only to non-public addresses ({}: {})",
                        first.ip(),
                        policy.refusal(first.ip()).unwrap_or("non-public")
                    ),
                };
                let error: Box<dyn Error + Send + Sync> = Box::new(Refused {
                    target: host,
                    reason,
                });
                return Err(error);
            }
            let addresses: Addrs = Box::new(allowed.into_iter());
            Ok(addresses)
        })
    }
}

/// What a [`GuardedClient`] does with a redirect answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Redirects {
    /// Hand the 3xx answer to the caller (who may follow it through the guard again).
    Never,
    /// Follow at most this many hops, each checked by [`check_url`].
    Checked(usize),
}

/// An HTTP client that reaches only what its [`AddressPolicy`] allows: every URL is
/// checked before the request ([`check_url`]: the scheme, and the address of an IP
/// literal, which never reaches a resolver), names are checked after resolution
/// ([`GuardedResolver`]), redirect hops are checked or not followed, and proxies named
/// by the environment (`HTTP_PROXY`, `HTTPS_PROXY`, `ALL_PROXY`) are ignored, since a
/// proxy resolves the target itself, out of the guard's sight. The only way to a
/// request is [`GuardedClient::request`] and its shorthands, so no caller can skip the
/// check.
#[derive(Debug, Clone)]
pub struct GuardedClient {
    client: reqwest::Client,
    policy: Arc<AddressPolicy>,
}

impl GuardedClient {
    /// A client for `policy`; `configure` sets everything else (timeouts, user agent,
    /// compression). The guard's settings are applied after it, so it cannot undo them.
    pub fn build(
        policy: AddressPolicy,
        redirects: Redirects,
        configure: impl FnOnce(reqwest::ClientBuilder) -> reqwest::ClientBuilder,
    ) -> reqwest::Result<GuardedClient> {
        let redirect = match redirects {
            Redirects::Never => reqwest::redirect::Policy::none(),
            Redirects::Checked(hops) => redirect_policy(hops, policy.clone()),
        };
        let client = configure(reqwest::Client::builder())
            .no_proxy()
            .redirect(redirect)
            .dns_resolver(Arc::new(GuardedResolver::new(policy.clone())))
            .build()?;
        Ok(GuardedClient {
            client,
            policy: Arc::new(policy),
        })
    }

    pub fn policy(&self) -> &AddressPolicy {
        &self.policy
    }

    /// A request to `url`, or the guard's refusal of it.
    pub fn request(
        &self,
        method: reqwest::Method,
        url: &Url,
    ) -> Result<reqwest::RequestBuilder, Refused> {
        check_url(url, &self.policy)?;
        Ok(self.client.request(method, url.clone()))
    }

    pub fn get(&self, url: &Url) -> Result<reqwest::RequestBuilder, Refused> {
        self.request(reqwest::Method::GET, url)
    }

    pub fn post(&self, url: &Url) -> Result<reqwest::RequestBuilder, Refused> {
        self.request(reqwest::Method::POST, url)
    }
}

/// A redirect policy for clients that follow redirects themselves: at most
/// `max_redirects` hops, each one checked by [`check_url`].
pub fn redirect_policy(max_redirects: usize, policy: AddressPolicy) -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(move |attempt| {
        if attempt.previous().len() > max_redirects {
            return attempt.error(format!("more than {max_redirects} redirects"));
        }
        match check_url(attempt.url(), &policy) {
            Ok(()) => attempt.follow(),
            Err(refused) => attempt.error(refused),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_and_special_addresses_are_refused() {
        for text in [
            "127.0.0.1",
            "127.255.0.9",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "100.64.0.1",
            "224.0.0.1",
            "255.255.255.255",
            "::1",
            "::",
            "fe80::1",
            "fd00::1",
            "fc00::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "::127.0.0.1",
            "64:ff9b::a9fe:a9fe",
            "2002:7f00:1::",
            "ff02::1",
        ] {
            let ip: IpAddr = text.parse().unwrap();
            assert!(non_public_reason(ip).is_some(), "{text} should be refused");
        }
        for text in [
            "93.184.216.34",
            "1.1.1.1",
            "172.32.0.1",
            "2606:4700:4700::1111",
            "64:ff9b::101:101",
        ] {
            let ip: IpAddr = text.parse().unwrap();
            assert_eq!(non_public_reason(ip), None, "{text} is public");
        }
    }

    #[test]
    fn only_http_and_https_with_public_literals() {
        let check = |text: &str, allow: bool| {
            let policy = AddressPolicy {
                allow_private: allow,
                allowed_addresses: Vec::new(),
            };
            check_url(&Url::parse(text).unwrap(), &policy)
        };
        assert!(check("ftp://example.com/", false).is_err());
        assert!(check("file:///etc/passwd", true).is_err());
        assert!(check("gopher://example.com/", true).is_err());
        assert!(check("http://127.0.0.1:8080/", false).is_err());
        // Other spellings of loopback and the metadata address, normalised by the URL parser.
        assert!(check("http://2130706433/", false).is_err());
        assert!(check("http://0x7f.1/", false).is_err());
        assert!(check("http://0251.0376.0251.0376/", false).is_err());
        assert!(check("http://[::ffff:7f00:1]/", false).is_err());
        assert!(check("http://[::1]/", false).is_err());
        assert!(check("http://localhost/", false).is_err());
        assert!(check("http://LOCALHOST./", false).is_err());
        assert!(check("http://metadata.google.internal/", false).is_err());
        assert!(check("http://127.0.0.1:8080/", true).is_ok());
        assert!(check("https://example.com/", false).is_ok());
        let refused = check("http://169.254.169.254/latest", false).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "refusing to fetch http://169.254.169.254/latest: link-local address"
        );
    }

    #[test]
    fn listed_addresses_are_the_only_exceptions() {
        let policy = AddressPolicy {
            allow_private: false,
            allowed_addresses: vec!["127.0.0.1".parse().unwrap()],
        };
        let check = |text: &str| check_url(&Url::parse(text).unwrap(), &policy);
        assert!(check("http://127.0.0.1:9/feed.xml").is_ok());
        assert!(check("http://[::ffff:127.0.0.1]:9/").is_ok());
        assert!(check("http://127.0.0.2:9/").is_err());
        assert!(check("http://169.254.169.254/").is_err());
        assert!(check("http://localhost:9/").is_err());
        assert!(check("https://example.com/").is_ok());
    }

    #[tokio::test]
    async fn the_resolver_drops_non_public_addresses() {
        let resolve = |allow_private| {
            let policy = AddressPolicy {
                allow_private,
                allowed_addresses: Vec::new(),
            };
            GuardedResolver::new(policy).resolve("localhost".parse::<Name>().unwrap())
        };
        let error = match resolve(false).await {
            Ok(_) => panic!("localhost resolved"),
            Err(error) => error,
        };
        let refused = Refused::find(error.as_ref()).expect("a refusal");
        assert_eq!(refused.target, "localhost");
        assert!(refused.reason.contains("loopback"), "{refused}");
        let addresses: Vec<SocketAddr> = resolve(true).await.ok().unwrap().collect();
        assert!(
            addresses.iter().all(|a| a.ip().is_loopback()),
            "{addresses:?}"
        );
    }
}

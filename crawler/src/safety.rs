//! Server-side request forgery guard: only http and https, and — unless private
//! addresses are allowed — never an address that is private, loopback, link-local,
//! multicast or otherwise not on the public internet. Host names are checked after
//! resolution, inside the HTTP client's resolver, so a name cannot resolve to a
//! public address for the check and to a private one for the connection.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use url::Url;

use crate::CrawlError;

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
    let first = ip.segments()[0];
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
    } else if first == 0x2001 && ip.segments()[1] == 0x0db8 {
        Some("documentation address")
    } else {
        None
    }
}

/// Checks a URL before any request: scheme, host, and the address when the host
/// is an IP literal (names are checked by [`GuardedResolver`]).
pub fn check_url(url: &Url, allow_private: bool) -> Result<(), CrawlError> {
    let refuse = |reason: &str| CrawlError::Refused {
        url: url.to_string(),
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
            if !allow_private && is_local_name(name) {
                return Err(refuse("local host name"));
            }
            return Ok(());
        }
    };
    match non_public_reason(ip) {
        Some(reason) if !allow_private => Err(refuse(reason)),
        _ => Ok(()),
    }
}

fn is_local_name(name: &str) -> bool {
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    name == "localhost" || name.ends_with(".localhost") || name.ends_with(".local")
}

/// The HTTP client's resolver: resolves with the system resolver and, unless
/// private addresses are allowed, drops every non-public address; a name left
/// with no address fails to resolve.
#[derive(Debug, Clone, Copy)]
pub struct GuardedResolver {
    pub allow_private: bool,
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let allow_private = self.allow_private;
        Box::pin(async move {
            let host = name.as_str().to_owned();
            let resolved: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let allowed: Vec<SocketAddr> = resolved
                .iter()
                .copied()
                .filter(|address| allow_private || non_public_reason(address.ip()).is_none())
                .collect();
            if allowed.is_empty() {
                let error: Box<dyn std::error::Error + Send + Sync> = if resolved.is_empty() {
                    format!("{host} has no address").into()
                } else {
                    format!("{host} resolves only to non-public addresses").into()
                };
                return Err(error);
            }
            let addresses: Addrs = Box::new(allowed.into_iter());
            Ok(addresses)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_and_special_addresses_are_refused() {
        for text in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "100.64.0.1",
            "224.0.0.1",
            "::1",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
        ] {
            let ip: IpAddr = text.parse().unwrap();
            assert!(non_public_reason(ip).is_some(), "{text} should be refused");
        }
        for text in ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111"] {
            let ip: IpAddr = text.parse().unwrap();
            assert_eq!(non_public_reason(ip), None, "{text} is public");
        }
    }

    #[test]
    fn only_http_and_https_with_public_literals() {
        let check = |text: &str, allow| check_url(&Url::parse(text).unwrap(), allow);
        assert!(check("ftp://example.com/", false).is_err());
        assert!(check("file:///etc/passwd", true).is_err());
        assert!(check("http://127.0.0.1:8080/", false).is_err());
        assert!(check("http://[::1]/", false).is_err());
        assert!(check("http://localhost/", false).is_err());
        assert!(check("http://127.0.0.1:8080/", true).is_ok());
        assert!(check("https://example.com/", false).is_ok());
    }
}

//! Where the links the server mails point (sign-in, sign-up and team invitations).
//!
//! The origin comes from the server's configuration alone: `--public-url`, else the
//! address `podlens serve` is bound to. A request's `Host` header plays no part: whoever
//! controls the host a client names would otherwise receive the single-use key and sign
//! in as the address's owner. A server bound to an unspecified address (`0.0.0.0`, `::`)
//! without `--public-url` has no address to name, and refuses to mail links until one is
//! set.

use std::net::SocketAddr;

use crate::error::{AppError, AppResult};

/// The origin links point to, or why there is none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkOrigin {
    /// `scheme://host[:port]`, without a trailing slash.
    Known(String),
    /// Bound to an unspecified address without `--public-url`.
    Unknown { bound: SocketAddr },
}

impl Default for LinkOrigin {
    /// `podlens serve`'s default address.
    fn default() -> LinkOrigin {
        LinkOrigin::Known("http://127.0.0.1:8080".to_owned())
    }
}

impl LinkOrigin {
    /// The origin of a node configured with `public_url` and bound to `bound`.
    pub fn for_node(public_url: Option<&str>, bound: Option<SocketAddr>) -> LinkOrigin {
        if let Some(url) = public_url.map(str::trim).filter(|url| !url.is_empty()) {
            return LinkOrigin::Known(url.trim_end_matches('/').to_owned());
        }
        match bound {
            Some(bound) => LinkOrigin::listening_on(bound),
            None => LinkOrigin::default(),
        }
    }

    /// The origin of a server bound to `bound` (and no `--public-url`).
    pub fn listening_on(bound: SocketAddr) -> LinkOrigin {
        if bound.ip().is_unspecified() {
            LinkOrigin::Unknown { bound }
        } else {
            LinkOrigin::Known(format!("http://{bound}"))
        }
    }

    /// The origin, or the refusal that says what to configure.
    pub fn origin(&self) -> AppResult<&str> {
        match self {
            LinkOrigin::Known(origin) => Ok(origin),
            LinkOrigin::Unknown { bound } => Err(AppError::Unavailable(format!(
                "Links cannot be mailed: the server listens on {bound}, which names no address; start it with --public-url (PODLENS_PUBLIC_URL) set to the address users open."
            ))),
        }
    }

    /// Whether links (and so the web app) are served over https: the session cookie is
    /// then `Secure`.
    pub fn is_https(&self) -> bool {
        matches!(self, LinkOrigin::Known(origin) if origin.get(..8).is_some_and(|scheme| scheme.eq_ignore_ascii_case("https://")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_public_url_wins_over_the_bound_address() {
        let bound: SocketAddr = "10.0.0.5:8080".parse().unwrap();
        let origin = LinkOrigin::for_node(Some("https://podlens.example.com/"), Some(bound));
        assert_eq!(origin.origin().unwrap(), "https://podlens.example.com");
        assert!(origin.is_https());
        let origin = LinkOrigin::for_node(None, Some(bound));
        assert_eq!(origin.origin().unwrap(), "http://10.0.0.5:8080");
        assert!(!origin.is_https());
        let v6: SocketAddr = "[::1]:9000".parse().unwrap();
        assert_eq!(
            LinkOrigin::for_node(Some("  "), Some(v6)).origin().unwrap(),
            "http://[::1]:9000"
        );
    }

    #[test]
    fn an_unspecified_bind_address_without_a_public_url_refuses_links() {
        for bound in ["0.0.0.0:8080", "[::]:8080"] {
            let bound: SocketAddr = bound.parse().unwrap();
            let origin = LinkOrigin::for_node(None, Some(bound));
            let Err(AppError::Unavailable(message)) = origin.origin() else {
                panic!("{origin:?} gave an origin");
            };
            assert!(message.contains("--public-url"), "{message}");
            assert!(message.contains(&bound.to_string()), "{message}");
            assert!(!origin.is_https());
            let configured = LinkOrigin::for_node(Some("http://podlens.lan:8080"), Some(bound));
            assert_eq!(configured.origin().unwrap(), "http://podlens.lan:8080");
        }
    }
}

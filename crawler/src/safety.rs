//! Server-side request forgery guard: the crawl fetches through
//! [`podlens_netguard`] (resolve-then-check in the client's resolver, every redirect
//! hop checked), and its refusals are [`CrawlError::Refused`].

use url::Url;

use crate::CrawlError;

pub use podlens_netguard::{AddressPolicy, non_public_reason};

/// Checks a URL before any request: scheme, host, and the address when the host is
/// an IP literal.
pub fn check_url(url: &Url, policy: &AddressPolicy) -> Result<(), CrawlError> {
    podlens_netguard::check_url(url, policy).map_err(|refused| CrawlError::Refused {
        url: url.to_string(),
        reason: refused.reason,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_are_crawl_errors() {
        let check = |text: &str, policy| check_url(&Url::parse(text).unwrap(), &policy);
        let error = check("http://10.0.0.7/admin", AddressPolicy::public_only()).unwrap_err();
        assert_eq!(
            error.to_string(),
            "refusing to fetch http://10.0.0.7/admin: private address"
        );
        assert!(check("http://10.0.0.7/admin", AddressPolicy::allow_private()).is_ok());
    }
}

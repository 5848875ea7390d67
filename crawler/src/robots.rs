//! robots.txt per origin, read with `texting_robots` (the Google/RFC 9309 rules:
//! longest match wins, `Allow` beats `Disallow` on ties, `*` and `$` patterns,
//! the most specific `User-agent` group).
//!
//! A missing robots.txt (4xx) allows everything; a server error or an unreachable
//! robots.txt disallows the whole origin, as RFC 9309 §2.3.1 asks.

use std::time::Duration;

use texting_robots::Robot;
use url::Url;

use crate::fetch::Fetcher;
use crate::options::CRAWLER_NAME;

/// The rules of one origin.
#[derive(Debug)]
pub enum RobotsRules {
    AllowAll,
    DisallowAll,
    Parsed(Box<Robot>),
}

impl RobotsRules {
    /// Whether `url` may be fetched.
    pub fn allows(&self, url: &Url) -> bool {
        match self {
            RobotsRules::AllowAll => true,
            RobotsRules::DisallowAll => url.path() == "/robots.txt",
            RobotsRules::Parsed(robot) => robot.allowed(url.as_str()),
        }
    }

    /// The `Crawl-delay` of our group, if any.
    pub fn crawl_delay(&self) -> Option<Duration> {
        match self {
            RobotsRules::Parsed(robot) => robot
                .delay
                .filter(|seconds| seconds.is_finite() && *seconds >= 0.0)
                .map(|seconds| Duration::from_secs_f32(seconds.min(3_600.0))),
            _ => None,
        }
    }

    /// Parses a robots.txt body; an unparseable one allows everything.
    pub fn parse(body: &[u8]) -> RobotsRules {
        match Robot::new(CRAWLER_NAME, body) {
            Ok(robot) => RobotsRules::Parsed(Box::new(robot)),
            Err(error) => {
                tracing::debug!(%error, "robots.txt unparseable, allowing all");
                RobotsRules::AllowAll
            }
        }
    }
}

/// Fetches and reads the robots.txt of `origin` (a URL whose path is ignored).
/// Returns the rules and whether the fetch was served from the cache.
pub async fn fetch_rules(fetcher: &Fetcher, origin: &Url) -> (RobotsRules, Option<bool>) {
    let mut robots_url = origin.clone();
    robots_url.set_path("/robots.txt");
    robots_url.set_query(None);
    robots_url.set_fragment(None);
    match fetcher.get(&robots_url).await {
        Ok(fetched) if (200..300).contains(&fetched.status) => {
            (RobotsRules::parse(&fetched.body), Some(fetched.from_cache))
        }
        Ok(fetched) if (400..500).contains(&fetched.status) => {
            (RobotsRules::AllowAll, Some(fetched.from_cache))
        }
        Ok(fetched) => {
            tracing::debug!(status = fetched.status, url = %robots_url, "robots.txt server error");
            (RobotsRules::DisallowAll, Some(false))
        }
        Err(error) => {
            tracing::debug!(%error, url = %robots_url, "robots.txt unreachable");
            (RobotsRules::DisallowAll, None)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(text: &str) -> Url {
        Url::parse(text).unwrap()
    }

    #[test]
    fn most_specific_group_and_longest_match() {
        let rules = RobotsRules::parse(
            b"User-agent: *\nDisallow: /\n\nUser-agent: podlens\nDisallow: /private/\nAllow: /private/contact.html\nCrawl-delay: 2\n",
        );
        assert!(rules.allows(&url("https://example.com/about")));
        assert!(!rules.allows(&url("https://example.com/private/x")));
        assert!(rules.allows(&url("https://example.com/private/contact.html")));
        assert_eq!(rules.crawl_delay(), Some(Duration::from_secs(2)));
    }

    #[test]
    fn other_agents_groups_do_not_apply() {
        let rules = RobotsRules::parse(
            b"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /wp-admin/\n",
        );
        assert!(rules.allows(&url("https://example.com/contact.html")));
        assert!(!rules.allows(&url("https://example.com/wp-admin/x")));
    }

    #[test]
    fn disallow_all_still_allows_robots_itself() {
        assert!(!RobotsRules::DisallowAll.allows(&url("https://example.com/")));
        assert!(RobotsRules::AllowAll.allows(&url("https://example.com/")));
    }
}

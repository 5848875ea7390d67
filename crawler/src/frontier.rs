//! The crawl frontier: breadth-first by depth, and within a depth the pages most
//! likely to hold contacts first (contact, booking, about, team, links, …), then
//! discovery order.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

use url::Url;

/// Path or anchor words of likely pages, with their priority.
const LIKELY_PAGES: &[(&str, u8)] = &[
    ("contact", 10),
    ("kontakt", 10),
    ("contacto", 10),
    ("get-in-touch", 10),
    ("booking", 9),
    ("book-", 8),
    ("advertis", 8),
    ("sponsor", 8),
    ("press", 7),
    ("media-kit", 7),
    ("mediakit", 7),
    ("team", 6),
    ("about", 6),
    ("ueber-uns", 6),
    ("links", 5),
    ("guest", 5),
    ("impressum", 5),
    ("imprint", 5),
    ("support", 3),
];

/// File types that are never HTML pages.
const NOT_PAGES: &[&str] = &[
    ".mp3", ".m4a", ".mp4", ".mov", ".wav", ".ogg", ".jpg", ".jpeg", ".png", ".gif", ".svg",
    ".webp", ".pdf", ".zip", ".gz", ".xml", ".rss", ".json", ".css", ".js", ".ico", ".woff",
    ".woff2", ".txt", ".vtt", ".srt", ".epub",
];

/// How likely a link leads to contact details (0 = no sign).
pub fn link_priority(url: &Url, text: &str) -> u8 {
    let path = url.path().to_ascii_lowercase();
    let text = text.to_ascii_lowercase();
    LIKELY_PAGES
        .iter()
        .filter(|(word, _)| path.contains(word) || text.contains(word.trim_end_matches('-')))
        .map(|(_, priority)| *priority)
        .max()
        .unwrap_or(0)
}

/// Whether `url` may be an HTML page.
pub fn looks_like_page(url: &Url) -> bool {
    let path = url.path().to_ascii_lowercase();
    !NOT_PAGES.iter().any(|extension| path.ends_with(extension))
}

/// The host without a leading `www.`, with the port: two URLs with the same key
/// belong to one site.
pub fn site_key(url: &Url) -> String {
    let host = url.host_str().unwrap_or("").to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host).to_owned();
    match url.port_or_known_default() {
        Some(port) => format!("{host}:{port}"),
        None => host,
    }
}

/// The pages waiting to be fetched.
#[derive(Debug, Default)]
pub struct Frontier {
    /// (depth, inverted priority, discovery number) ordered smallest first.
    queue: BinaryHeap<Reverse<(usize, u8, u64, String)>>,
    seen: HashSet<String>,
    discovered: u64,
}

impl Frontier {
    /// Adds `url` unless it was seen before; returns whether it was added.
    pub fn push(&mut self, url: &Url, depth: usize, priority: u8) -> bool {
        let key = normalised(url);
        if !self.seen.insert(key) {
            return false;
        }
        self.discovered += 1;
        self.queue.push(Reverse((
            depth,
            u8::MAX - priority,
            self.discovered,
            url.to_string(),
        )));
        true
    }

    /// Marks `url` as seen (e.g. the target of a redirect).
    pub fn mark_seen(&mut self, url: &Url) {
        self.seen.insert(normalised(url));
    }

    /// The next page and its depth.
    pub fn pop(&mut self) -> Option<(Url, usize)> {
        while let Some(Reverse((depth, _, _, text))) = self.queue.pop() {
            if let Ok(url) = Url::parse(&text) {
                return Some((url, depth));
            }
        }
        None
    }
}

/// A URL without fragment and without a trailing `index.html`, for de-duplication.
fn normalised(url: &Url) -> String {
    let mut url = url.clone();
    url.set_fragment(None);
    let text = url.to_string();
    for suffix in ["index.html", "index.htm"] {
        if let Some(stripped) = text.strip_suffix(suffix) {
            return stripped.to_owned();
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(text: &str) -> Url {
        Url::parse(text).unwrap()
    }

    #[test]
    fn likely_pages_come_first_within_a_depth() {
        let mut frontier = Frontier::default();
        frontier.push(&url("https://a.com/"), 0, 0);
        for (page, text) in [
            ("blog", "Blog"),
            ("episodes", "Episodes"),
            ("x", "Contact us"),
            ("about", ""),
        ] {
            let link = url(&format!("https://a.com/{page}"));
            frontier.push(&link, 1, link_priority(&link, text));
        }
        frontier.push(&url("https://a.com/deep/contact"), 2, 10);
        let order: Vec<String> = std::iter::from_fn(|| frontier.pop())
            .map(|(u, _)| u.path().to_owned())
            .collect();
        assert_eq!(
            order,
            ["/", "/x", "/about", "/blog", "/episodes", "/deep/contact"]
        );
    }

    #[test]
    fn duplicates_and_index_pages_are_seen_once() {
        let mut frontier = Frontier::default();
        assert!(frontier.push(&url("https://a.com/"), 0, 0));
        assert!(!frontier.push(&url("https://a.com/index.html"), 1, 0));
        assert!(!frontier.push(&url("https://a.com/#top"), 1, 0));
    }

    #[test]
    fn sites_ignore_www_and_media_is_not_a_page() {
        assert_eq!(
            site_key(&url("https://www.a.com/x")),
            site_key(&url("https://a.com/"))
        );
        assert_ne!(
            site_key(&url("http://a.com:8080/")),
            site_key(&url("http://a.com/"))
        );
        assert!(!looks_like_page(&url("https://a.com/ep1.mp3")));
        assert!(looks_like_page(&url("https://a.com/contact")));
    }
}

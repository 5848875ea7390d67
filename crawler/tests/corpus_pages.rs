//! The crawler against the real pages of `shared/corpus/websites/`, served on
//! 127.0.0.1. Expectations come from reading the files with plain regexes.

mod common;

use std::collections::BTreeSet;

use podlens_crawler::{CrawlOptions, Crawler};
use podlens_model::SocialKind;
use regex::Regex;

use common::{corpus_websites, percent_decode, serve, test_options};

fn corpus_files() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(corpus_websites())
        .unwrap()
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".html"))
        .collect();
    names.sort();
    names
}

/// Profile links written plainly as `href="https://[www.]host/handle[/]"`.
fn plain_profiles(html: &str, host: &str, handle: &str) -> BTreeSet<String> {
    let pattern = format!(r#"href="https?://(?:www\.)?{host}/({handle})/?""#);
    Regex::new(&pattern)
        .unwrap()
        .captures_iter(html)
        .map(|capture| capture[1].to_ascii_lowercase())
        .collect()
}

#[tokio::test]
async fn every_corpus_page_yields_its_mailto_addresses_and_plain_profiles() {
    let server = serve(&corpus_websites()).await;
    let crawler = Crawler::new(CrawlOptions {
        max_pages: 1,
        ..test_options()
    })
    .unwrap();
    let mailto = Regex::new(r#"href="mailto:([^"?]+)"#).unwrap();
    let mut checked_emails = 0;
    let mut checked_profiles = 0;
    for name in corpus_files() {
        let html = std::fs::read_to_string(corpus_websites().join(&name)).unwrap();
        let result = crawler.crawl(&server.url(&name)).await.unwrap();
        assert_eq!(result.stats.pages_crawled, 1, "{name}");
        assert_eq!(result.visited_urls, vec![server.url(&name)], "{name}");
        for capture in mailto.captures_iter(&html) {
            let address = percent_decode(&capture[1]).to_lowercase();
            assert!(
                result.emails.contains(&address),
                "{name}: {address} not in {:?}",
                result.emails
            );
            checked_emails += 1;
        }
        for (kind, host, handle) in [
            (SocialKind::Twitter, r"twitter\.com", "[A-Za-z0-9_]{1,15}"),
            (
                SocialKind::Instagram,
                r"instagram\.com",
                "[A-Za-z0-9_.]{1,30}",
            ),
            (SocialKind::Patreon, r"patreon\.com", "[A-Za-z0-9_]{1,64}"),
        ] {
            for handle in plain_profiles(&html, host, handle) {
                let found = result.socials.iter().any(|social| {
                    social.kind == kind
                        && social
                            .url
                            .to_ascii_lowercase()
                            .trim_end_matches('/')
                            .ends_with(&format!("/{handle}"))
                });
                assert!(
                    found,
                    "{name}: {kind} {handle} missing from {:?}",
                    result.socials
                );
                checked_profiles += 1;
            }
        }
        // Share dialogs, posts and tracking pixels are links, not profiles (regression:
        // NPR's page has a `facebook.com/tr?…&noscript=1` pixel).
        for social in &result.socials {
            let path = social.url.split_once("://").map_or("", |(_, rest)| rest);
            let path = path.split_once('/').map_or("", |(_, path)| path);
            assert!(
                !social.url.contains("/intent/")
                    && !social.url.contains("/status/")
                    && !["tr", "tr/", "home.php", "sharer.php", "share"].contains(&path),
                "{name}: {}",
                social.url
            );
        }
        if name == "metascraper_npr.html" {
            assert!(
                html.contains("facebook.com/tr?id="),
                "the page has its pixel"
            );
            assert!(
                !result
                    .socials
                    .iter()
                    .any(|s| s.url.contains("facebook.com/tr")),
                "{:?}",
                result.socials
            );
        }
    }
    assert!(
        checked_emails >= 1,
        "the corpus has a percent-encoded mailto"
    );
    assert!(
        checked_profiles >= 10,
        "only {checked_profiles} profiles checked"
    );
}

#[tokio::test]
async fn transistor_page_details() {
    let server = serve(&corpus_websites()).await;
    let crawler = Crawler::new(CrawlOptions {
        max_pages: 1,
        ..test_options()
    })
    .unwrap();
    let result = crawler
        .crawl(&server.url("metascraper_transistor.fm.html"))
        .await
        .unwrap();
    // `mailto:%73%68%6f%77%73@%74%72%61%6e%73%69%73%74%6f%72.%66%6d` in the page.
    assert!(
        result.emails.contains(&"shows@transistor.fm".to_owned()),
        "{:?}",
        result.emails
    );
    let kinds: BTreeSet<SocialKind> = result.socials.iter().map(|social| social.kind).collect();
    for kind in [
        SocialKind::Instagram,
        SocialKind::Patreon,
        SocialKind::Twitter,
        SocialKind::Youtube,
        SocialKind::Linkedin,
    ] {
        assert!(kinds.contains(&kind), "{kind} missing: {kinds:?}");
    }
    let patreon = result
        .socials
        .iter()
        .find(|s| s.kind == SocialKind::Patreon)
        .unwrap();
    let html =
        std::fs::read_to_string(corpus_websites().join("metascraper_transistor.fm.html")).unwrap();
    assert_eq!(
        patreon.occurrences as usize,
        html.matches("href=\"https://www.patreon.com/jonjustin\"")
            .count()
    );
    assert!(
        result
            .external_links
            .iter()
            .all(|link| !link.starts_with(&server.url("")))
    );
}

#[tokio::test]
async fn directory_pages_give_apple_and_spotify_ids() {
    let server = serve(&corpus_websites()).await;
    let crawler = Crawler::new(CrawlOptions {
        max_pages: 1,
        ..test_options()
    })
    .unwrap();
    let apple_links =
        Regex::new(r#"href="https://podcasts\.apple\.com/[a-z]{2}/podcast/[^/"]+/id(\d+)[^"]*""#)
            .unwrap();
    let spotify_links =
        Regex::new(r#"href="https://open\.spotify\.com/show/([A-Za-z0-9]{22})[^"]*""#).unwrap();
    for name in corpus_files() {
        let html = std::fs::read_to_string(corpus_websites().join(&name)).unwrap();
        let apple: BTreeSet<String> = apple_links
            .captures_iter(&html)
            .map(|capture| capture[1].to_owned())
            .collect();
        let spotify: BTreeSet<String> = spotify_links
            .captures_iter(&html)
            .map(|capture| capture[1].to_owned())
            .collect();
        if apple.is_empty() && spotify.is_empty() {
            continue;
        }
        let result = crawler.crawl(&server.url(&name)).await.unwrap();
        for id in &apple {
            assert!(
                result
                    .apple_podcast_links
                    .iter()
                    .any(|link| link.ends_with(&format!("/id{id}"))),
                "{name}: apple {id}"
            );
        }
        for id in &spotify {
            assert!(
                result
                    .spotify_podcast_links
                    .iter()
                    .any(|link| link.ends_with(id)),
                "{name}: spotify {id}"
            );
        }
    }
}

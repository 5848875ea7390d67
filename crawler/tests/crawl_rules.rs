//! Crawl behaviour on small sites written into a temporary directory and served on
//! 127.0.0.1: address guard, robots.txt, bounds, priorities, cache, size cap.

mod common;

use std::path::Path;
use std::time::Duration;

use podlens_crawler::{CrawlError, CrawlOptions, Crawler};

use common::{serve, test_options};

fn write(dir: &Path, name: &str, body: &str) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, body).unwrap();
}

fn page(title: &str, body: &str) -> String {
    format!("<!DOCTYPE html><html><head><title>{title}</title></head><body>{body}</body></html>")
}

#[tokio::test]
async fn private_addresses_are_refused_unless_allowed() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "index.html", &page("Home", "hello"));
    let server = serve(dir.path()).await;
    let strict = Crawler::new(CrawlOptions {
        politeness_delay: Duration::ZERO,
        ..CrawlOptions::default()
    })
    .unwrap();
    let error = strict.crawl(&server.url("index.html")).await.unwrap_err();
    assert!(matches!(error, CrawlError::Refused { .. }), "{error}");
    let by_name = format!("http://localhost:{}/index.html", server.address.port());
    assert!(matches!(
        strict.crawl(&by_name).await.unwrap_err(),
        CrawlError::Refused { .. }
    ));
    assert!(matches!(
        strict.crawl("file:///etc/passwd").await.unwrap_err(),
        CrawlError::InvalidUrl(_)
    ));
    assert_eq!(server.requests(), 0, "nothing may reach the server");
    let open = Crawler::new(test_options()).unwrap();
    assert_eq!(
        open.crawl(&server.url("index.html"))
            .await
            .unwrap()
            .stats
            .pages_crawled,
        1
    );
}

#[tokio::test]
async fn redirects_to_private_addresses_are_refused() {
    // A public-looking start cannot be tested offline; a redirect from an allowed
    // loopback page to a link-local address must still be refused by the policy.
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "index.html",
        &page(
            "Home",
            r#"<a href="http://169.254.169.254/latest/meta-data/">metadata</a>"#,
        ),
    );
    let server = serve(dir.path()).await;
    let crawler = Crawler::new(CrawlOptions {
        max_depth: 3,
        ..test_options()
    })
    .unwrap();
    let result = crawler.crawl(&server.url("index.html")).await.unwrap();
    // The link is external, so it is recorded but never fetched.
    assert_eq!(result.visited_urls.len(), 1);
    assert!(
        result
            .external_links
            .iter()
            .any(|link| link.contains("169.254.169.254"))
    );
}

#[tokio::test]
async fn robots_txt_is_obeyed() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "robots.txt",
        "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n",
    );
    write(
        dir.path(),
        "index.html",
        &page(
            "Home",
            r#"<a href="/private/contact.html">Private contact</a> <a href="/about.html">About</a>"#,
        ),
    );
    write(
        dir.path(),
        "private/contact.html",
        &page("Contact", "secret@example.com"),
    );
    write(
        dir.path(),
        "about.html",
        &page("About", "Write to hello@example.com"),
    );
    let server = serve(dir.path()).await;
    let crawler = Crawler::new(test_options()).unwrap();
    let result = crawler.crawl(&server.url("index.html")).await.unwrap();
    assert!(
        result
            .visited_urls
            .iter()
            .all(|url| !url.contains("/private/")),
        "{:?}",
        result.visited_urls
    );
    assert!(
        result
            .visited_urls
            .iter()
            .any(|url| url.ends_with("/about.html"))
    );
    assert_eq!(result.emails, vec!["hello@example.com"]);

    let closed = tempfile::tempdir().unwrap();
    write(closed.path(), "robots.txt", "User-agent: *\nDisallow: /\n");
    write(closed.path(), "index.html", &page("Home", "x"));
    let server = serve(closed.path()).await;
    let error = crawler.crawl(&server.url("index.html")).await.unwrap_err();
    assert!(
        matches!(error, CrawlError::DisallowedByRobots(_)),
        "{error}"
    );
    assert_eq!(server.requests(), 1, "only robots.txt was fetched");
}

#[tokio::test]
async fn likely_pages_first_within_page_and_depth_bounds() {
    let dir = tempfile::tempdir().unwrap();
    let mut links = String::new();
    for number in 0..10 {
        links.push_str(&format!(
            r#"<a href="/episodes/{number}.html">Episode {number}</a> "#
        ));
        write(
            dir.path(),
            &format!("episodes/{number}.html"),
            &page("Episode", "notes"),
        );
    }
    links.push_str(r#"<a href="/reach-us.html">Contact</a> <a href="/level1.html">More</a>"#);
    write(dir.path(), "index.html", &page("Home", &links));
    write(
        dir.path(),
        "reach-us.html",
        &page(
            "Contact the show",
            r#"<form><textarea name="m"></textarea></form> booking@show.example"#,
        ),
    );
    write(
        dir.path(),
        "level1.html",
        &page("L1", r#"<a href="/level2.html">deeper</a>"#),
    );
    write(
        dir.path(),
        "level2.html",
        &page("L2", r#"<a href="/level3.html">deeper</a>"#),
    );
    write(dir.path(), "level3.html", &page("L3", "deep@show.example"));
    let server = serve(dir.path()).await;

    let two_pages = Crawler::new(CrawlOptions {
        max_pages: 2,
        ..test_options()
    })
    .unwrap();
    let result = two_pages.crawl(&server.url("index.html")).await.unwrap();
    assert_eq!(
        result.visited_urls,
        vec![server.url("index.html"), server.url("reach-us.html")]
    );
    assert_eq!(result.contact_pages.len(), 1);
    let contact = &result.contact_pages[0];
    assert!(contact.has_form);
    assert_eq!(contact.emails, vec!["booking@show.example"]);
    assert_eq!(contact.title.as_deref(), Some("Contact the show"));

    let deep = Crawler::new(CrawlOptions {
        max_pages: 100,
        max_depth: 2,
        ..test_options()
    })
    .unwrap();
    let result = deep.crawl(&server.url("index.html")).await.unwrap();
    assert!(
        result
            .visited_urls
            .iter()
            .any(|url| url.ends_with("level2.html"))
    );
    assert!(
        !result
            .visited_urls
            .iter()
            .any(|url| url.ends_with("level3.html"))
    );
    assert_eq!(result.stats.pages_crawled, 14);
}

#[tokio::test]
async fn recrawl_is_served_from_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "index.html",
        &page("Home", r#"<a href="contact.html">Contact</a>"#),
    );
    write(
        dir.path(),
        "contact.html",
        &page("Contact", "a [at] show [dot] example"),
    );
    let cache = tempfile::tempdir().unwrap();
    let server = serve(dir.path()).await;
    let options = CrawlOptions {
        cache_dir: Some(cache.path().to_path_buf()),
        ..test_options()
    };
    let first = Crawler::new(options.clone())
        .unwrap()
        .crawl(&server.url("index.html"))
        .await
        .unwrap();
    assert_eq!(first.stats.cache_hits, 0);
    assert_eq!(first.stats.pages_crawled, 2);
    let second = Crawler::new(options)
        .unwrap()
        .crawl(&server.url("index.html"))
        .await
        .unwrap();
    assert_eq!(second.stats.cache_hits, 2, "{:?}", second.stats);
    assert_eq!(server.not_modified(), 2);
    assert_eq!(second.emails, vec!["a@show.example"]);
    assert_eq!(second.emails, first.emails);
}

#[tokio::test]
async fn bodies_are_cut_at_the_size_cap() {
    let dir = tempfile::tempdir().unwrap();
    let filler = "<p>filler text</p>".repeat(10_000);
    write(
        dir.path(),
        "index.html",
        &page(
            "Home",
            &format!("early@show.example {filler} late@show.example"),
        ),
    );
    let server = serve(dir.path()).await;
    let crawler = Crawler::new(CrawlOptions {
        max_body_bytes: 50_000,
        ..test_options()
    })
    .unwrap();
    let result = crawler.crawl(&server.url("index.html")).await.unwrap();
    assert_eq!(result.emails, vec!["early@show.example"]);
    assert_eq!(result.stats.errors, 1, "the oversized page is reported");
}

#[tokio::test]
async fn directory_redirects_are_followed_and_missing_pages_counted() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "show/index.html",
        &page("Show", r#"<a href="missing.html">Contact</a>"#),
    );
    let server = serve(dir.path()).await;
    let crawler = Crawler::new(test_options()).unwrap();
    let result = crawler.crawl(&server.url("show")).await.unwrap();
    assert_eq!(result.visited_urls, vec![server.url("show/")]);
    assert_eq!(result.stats.errors, 1);
    assert_eq!(result.stats.base_url, server.url("show"));
}

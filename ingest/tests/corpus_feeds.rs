//! Every feed of the shared corpus: real feeds parse with the item count that Python's
//! expat found (feeds/INDEX.tsv), malformed ones recover or fail with a clear error,
//! and normalisation yields sane records.

use std::path::{Path, PathBuf};

use chrono::{TimeZone, Utc};
use podlens_ingest::{normalize, parse_feed};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus")
}

struct IndexRow {
    path: String,
    wellformed: bool,
    root: String,
    items: usize,
    title: String,
    language: String,
}

fn index_rows() -> Vec<IndexRow> {
    let text = std::fs::read_to_string(corpus().join("feeds/INDEX.tsv")).expect("INDEX.tsv");
    text.lines()
        .skip(1)
        .map(|line| {
            let columns: Vec<&str> = line.split('\t').collect();
            IndexRow {
                path: columns[0].to_owned(),
                wellformed: columns[2] == "yes",
                root: columns[3].to_owned(),
                items: columns[4].parse().expect("item count"),
                title: columns[6].to_owned(),
                language: columns[7].to_owned(),
            }
        })
        .collect()
}

/// Counts `<item` / `<entry` start tags with a plain scan, outside comments and CDATA.
fn count_item_tags(text: &str) -> usize {
    let mut count = 0;
    let mut rest = text;
    while let Some(open) = rest.find('<') {
        rest = &rest[open..];
        if rest.starts_with("<!--") {
            rest = rest.find("-->").map_or("", |end| &rest[end + 3..]);
            continue;
        }
        if rest.starts_with("<![CDATA[") {
            rest = rest.find("]]>").map_or("", |end| &rest[end + 3..]);
            continue;
        }
        let tag = &rest[1..];
        for name in ["item", "entry"] {
            if tag.starts_with(name)
                && tag[name.len()..].starts_with(['>', ' ', '\n', '\r', '\t', '/'])
            {
                count += 1;
            }
        }
        rest = tag;
    }
    count
}

/// Counts namespaced `<prefix:item` / `<prefix:entry` start tags (e.g. Acast's
/// `<podaccess:item>`): INDEX.tsv counts elements by local name, so these are in its
/// count although they are not episodes.
fn count_prefixed_item_tags(text: &str) -> usize {
    let mut count = 0;
    for (position, _) in text
        .match_indices(":item")
        .chain(text.match_indices(":entry"))
    {
        let name_start = text[..position]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .unwrap_or(0);
        let after = &text[position..];
        let local_len = if after.starts_with(":item") { 5 } else { 6 };
        let is_start_tag = text[name_start..].starts_with('<') && name_start + 1 < position;
        let delimited = after[local_len..].starts_with(['>', ' ', '\n', '\r', '\t', '/']);
        if is_start_tag && delimited {
            count += 1;
        }
    }
    count
}

#[test]
fn every_real_feed_parses_with_the_expected_item_count() {
    let rows: Vec<IndexRow> = index_rows()
        .into_iter()
        .filter(|row| !row.path.contains("/malformed/") && !row.path.contains("/edge-cases/"))
        .collect();
    assert!(rows.len() >= 150, "only {} real feeds listed", rows.len());
    let now = Utc.with_ymd_and_hms(2025, 6, 1, 0, 0, 0).unwrap();
    let mut failures = Vec::new();
    for row in &rows {
        let bytes = std::fs::read(corpus().join(&row.path)).expect("feed file");
        let feed = match parse_feed(&bytes, None) {
            Ok(feed) => feed,
            Err(error) => {
                failures.push(format!("{}: {error}", row.path));
                continue;
            }
        };
        let foreign = count_prefixed_item_tags(&String::from_utf8_lossy(&bytes));
        if feed.items.len() + foreign != row.items {
            failures.push(format!(
                "{}: {} items (+{foreign} namespaced non-episode items), INDEX.tsv says {}",
                row.path,
                feed.items.len(),
                row.items
            ));
        }
        if row.wellformed && (feed.truncated || !feed.recovered_errors.is_empty()) {
            failures.push(format!(
                "{}: errors in a well-formed feed: {:?}",
                row.path, feed.recovered_errors
            ));
        }
        let title = feed.channel.title.clone().unwrap_or_default();
        if !row.title.is_empty()
            && title.split_whitespace().collect::<Vec<_>>()
                != row.title.split_whitespace().collect::<Vec<_>>()
        {
            failures.push(format!(
                "{}: title {title:?}, INDEX.tsv says {:?}",
                row.path, row.title
            ));
        }
        let batch = normalize(&feed, &format!("https://feeds.example/{}", row.path), now);
        if !row.language.is_empty()
            && batch.podcast.rss_language.as_deref()
                != Some(row.language.trim().to_lowercase().as_str())
        {
            failures.push(format!(
                "{}: language {:?}, INDEX.tsv says {:?}",
                row.path, batch.podcast.rss_language, row.language
            ));
        }
        assert!(
            batch
                .podcast
                .podcast_slug
                .ends_with(&batch.podcast.podcast_id.simple().to_string()[..6])
        );
        for episode in &batch.episodes {
            assert_eq!(episode.podcast_id, batch.podcast.podcast_id);
            if let Some(html) = &episode.episode_rss_description {
                assert!(
                    !html.to_ascii_lowercase().contains("<script"),
                    "{}",
                    row.path
                );
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} feeds differ:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}

#[test]
fn item_counts_agree_with_a_plain_tag_scan() {
    for row in index_rows().iter().filter(|row| row.wellformed) {
        let bytes = std::fs::read(corpus().join(&row.path)).expect("feed file");
        let Ok(feed) = parse_feed(&bytes, None) else {
            continue;
        };
        let scanned = count_item_tags(&String::from_utf8_lossy(&bytes));
        assert!(
            scanned >= feed.items.len(),
            "{}: parser found {} items, a tag scan only {scanned}",
            row.path,
            feed.items.len()
        );
    }
}

#[test]
fn malformed_feeds_recover_or_fail_clearly() {
    let dir = corpus().join("feeds/malformed");
    let mut outcomes = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("malformed dir") {
        let path = entry.expect("entry").path();
        let bytes = std::fs::read(&path).expect("file");
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        match parse_feed(&bytes, None) {
            Ok(feed) => {
                let scanned = count_item_tags(&String::from_utf8_lossy(&bytes));
                assert!(feed.items.len() <= scanned, "{name}: more items than tags");
                outcomes.push(format!(
                    "{name}: recovered {} of {scanned} items",
                    feed.items.len()
                ));
            }
            Err(error) => {
                let message = error.to_string();
                assert!(
                    !message.is_empty() && message == message.to_lowercase()
                        || message.contains('<'),
                    "{name}: {message}"
                );
                outcomes.push(format!("{name}: {} ({message})", error.kind()));
            }
        }
    }
    assert_eq!(outcomes.len(), 16, "{outcomes:#?}");
    println!("{}", outcomes.join("\n"));
}

#[test]
fn edge_case_feeds_never_panic_and_keep_their_items() {
    for row in index_rows()
        .iter()
        .filter(|row| row.path.contains("/edge-cases/"))
    {
        let bytes = std::fs::read(corpus().join(&row.path)).expect("feed file");
        let result = parse_feed(&bytes, None);
        if row.wellformed && !matches!(row.root.as_str(), "rss" | "feed" | "rdf:RDF" | "RDF") {
            // Namespace examples wrapped in a test element are not feeds.
            let error = result.expect_err(&row.path);
            assert_eq!(error.kind(), "not-a-feed", "{}: {error}", row.path);
            continue;
        }
        let feed = result.unwrap_or_else(|error| panic!("{}: {error}", row.path));
        let foreign = count_prefixed_item_tags(&String::from_utf8_lossy(&bytes));
        assert_eq!(feed.items.len() + foreign, row.items, "{}", row.path);
    }
}

/// The `href` of the first `<link>` (any prefix: `atom:`, `atom10:`) with `rel="hub"`, found by a plain
/// scan of the text (attributes in either order).
fn declared_hub(text: &str) -> Option<String> {
    let tag =
        regex::Regex::new(r#"<(?:[A-Za-z0-9_]+:)?link\b[^>]*\brel=["']hub["'][^>]*>"#).unwrap();
    let href = regex::Regex::new(r#"\bhref=["']([^"']+)["']"#).unwrap();
    let found = tag.find(text)?;
    href.captures(found.as_str())
        .map(|c| c[1].trim().to_owned())
}

#[test]
fn declared_websub_hubs_and_publishing_periods_are_read() {
    let now = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
    let mut hubs = 0;
    for row in index_rows()
        .iter()
        .filter(|row| row.wellformed && row.items > 0)
    {
        let bytes = std::fs::read(corpus().join(&row.path)).expect("feed file");
        let text = String::from_utf8_lossy(&bytes);
        let Ok(feed) = parse_feed(&bytes, None) else {
            continue;
        };
        let batch = normalize(&feed, "https://feeds.example.test/feed.xml", now);
        let expected = declared_hub(&text);
        assert_eq!(batch.polling.hub, expected, "{}", row.path);
        if expected.is_some() {
            hubs += 1;
            let topic = batch
                .polling
                .topic
                .as_deref()
                .expect("a hub comes with its topic");
            assert!(topic.starts_with("http"), "{}: {topic}", row.path);
        }
    }
    assert!(hubs >= 10, "only {hubs} corpus feeds declare a hub");

    let read = |path: &str| {
        let bytes = std::fs::read(corpus().join(path)).expect("feed file");
        normalize(
            &parse_feed(&bytes, None).unwrap(),
            "https://feeds.example.test/f.xml",
            now,
        )
    };
    // <sy:updatePeriod>hourly</sy:updatePeriod><sy:updateFrequency>1</…>
    assert_eq!(
        read("feeds/podcast-feed-parser_80000HoursPodcast.xml")
            .polling
            .declared_period_seconds,
        Some(3_600)
    );
    // rrule="FREQ=WEEKLY;INTERVAL=2;BYDAY=SA": one Saturday every two weeks.
    assert_eq!(
        read("feeds/partytime_themnshow.xml")
            .polling
            .declared_period_seconds,
        Some(14 * 86_400)
    );
    let anchor = read("feeds/feed-rs_rss_2.0_anchorfm.xml").polling;
    assert_eq!(
        anchor.hub.as_deref(),
        Some("https://pubsubhubbub.appspot.com/")
    );
    assert_eq!(
        anchor.topic.as_deref(),
        Some("https://anchor.fm/s/8d364524/podcast/rss")
    );
}

//! The RSS public stats on hand-built feeds, checked against counts made here.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use podlens_data::{Catalog, RssPublicStats, Snapshot};
use podlens_model::catalog::{EpisodeRecord, FeedBatch};

use common::feed;

/// (feed URL, generator, expected hosting provider)
const FEEDS: &[(&str, Option<&str>, &str)] = &[
    (
        "https://feeds.buzzsprout.com/101.rss",
        None,
        "buzzsprout.com",
    ),
    (
        "https://feeds.buzzsprout.com/102.rss",
        None,
        "buzzsprout.com",
    ),
    (
        "https://www.buzzsprout.com/103/podcast.rss",
        None,
        "buzzsprout.com",
    ),
    ("https://anchor.fm/s/abc/podcast/rss", None, "anchor.fm"),
    (
        "https://podcasts.files.bbci.co.uk/p02nq0gn.rss",
        None,
        "bbci.co.uk",
    ),
    ("http://127.0.0.1:8080/feed.xml", None, "127.0.0.1"),
    ("feeds/local-file.xml", Some("Libsyn"), "libsyn"),
];

fn feeds() -> Vec<FeedBatch> {
    FEEDS
        .iter()
        .enumerate()
        .map(|(i, (url, generator, _))| {
            let mut batch = feed(i, 2 + i % 3);
            batch.podcast.podcast_rss_feed_url = (*url).to_owned();
            batch.podcast.rss_generator = generator.map(str::to_owned);
            batch.podcast.rss_tags = match i % 3 {
                0 => vec![
                    "podcast:guid",
                    "podcast:funding",
                    "itunes:author",
                    "podcast:locked",
                ],
                1 => vec!["itunes:author", "itunes:image"],
                _ => vec!["podcast:guid", "itunes:image"],
            }
            .into_iter()
            .map(str::to_owned)
            .collect();
            if i == 4 {
                batch.episodes[0].episode_chapters_url =
                    Some("https://example.com/ch.json".to_owned());
                batch.episodes[1]
                    .episode_rss_tags
                    .push("podcast:person".to_owned());
            }
            batch
        })
        .collect()
}

fn episode_tags(episode: &EpisodeRecord) -> BTreeSet<String> {
    let mut tags: BTreeSet<String> = episode.episode_rss_tags.iter().cloned().collect();
    if !episode.episode_transcript_urls.is_empty() {
        tags.insert("podcast:transcript".to_owned());
    }
    if episode.episode_chapters_url.is_some() {
        tags.insert("podcast:chapters".to_owned());
    }
    tags
}

fn frequencies<'a>(sets: impl Iterator<Item = &'a BTreeSet<String>>) -> BTreeMap<String, u64> {
    let mut counts = BTreeMap::new();
    for set in sets {
        for tag in set {
            *counts.entry(tag.clone()).or_insert(0) += 1;
        }
    }
    counts
}

fn check(stats: &RssPublicStats, feeds: &[FeedBatch]) {
    let stats = &stats.podcast2_stats;
    let podcast_sets: Vec<BTreeSet<String>> = feeds
        .iter()
        .map(|f| f.podcast.rss_tags.iter().cloned().collect())
        .collect();
    let expected = frequencies(podcast_sets.iter());
    assert_eq!(
        stats.podcast_level_stats.total_rss_feeds,
        feeds.len() as u64
    );
    let actual: BTreeMap<String, u64> = stats
        .podcast_level_stats
        .field_frequency
        .iter()
        .map(|f| (f.field.clone(), f.frequency))
        .collect();
    assert_eq!(actual, expected);
    let first = &stats.podcast_level_stats.field_frequency[0];
    let percentage = (10_000.0 * first.frequency as f64 / feeds.len() as f64).round() / 100.0;
    assert_eq!(first.percentage, percentage);
    assert!(
        stats
            .podcast_level_stats
            .field_frequency
            .windows(2)
            .all(|w| w[0].frequency >= w[1].frequency)
    );

    let episode_sets: Vec<BTreeSet<String>> = feeds
        .iter()
        .flat_map(|f| f.episodes.iter().map(episode_tags))
        .collect();
    assert_eq!(
        stats.episode_level_stats.total_rss_feeds,
        episode_sets.len() as u64
    );
    let actual: BTreeMap<String, u64> = stats
        .episode_level_stats
        .field_frequency
        .iter()
        .map(|f| (f.field.clone(), f.frequency))
        .collect();
    assert_eq!(actual, frequencies(episode_sets.iter()));

    // Hosts.
    let mut hosts: BTreeMap<&str, u64> = BTreeMap::new();
    for (_, _, host) in FEEDS {
        *hosts.entry(host).or_insert(0) += 1;
    }
    let actual: BTreeMap<&str, u64> = stats
        .top_hosts
        .iter()
        .map(|h| (h.host.as_str(), h.total_podcasts))
        .collect();
    assert_eq!(actual, hosts);
    assert_eq!(stats.top_hosts[0].host, "buzzsprout.com");
    assert_eq!(
        stats.top_hosts[0].percentage,
        (10_000.0 * 3.0 / 7.0_f64).round() / 100.0
    );

    // Podcasting 2.0 fields per podcast: channel tags plus every item's tags.
    let implemented: Vec<(String, BTreeSet<String>)> = feeds
        .iter()
        .map(|f| {
            let mut fields: BTreeSet<String> = f.podcast.rss_tags.iter().cloned().collect();
            for episode in &f.episodes {
                fields.extend(episode_tags(episode));
            }
            fields.retain(|tag| tag.starts_with("podcast:"));
            (f.podcast.podcast_slug.clone(), fields)
        })
        .collect();
    let best = implemented
        .iter()
        .map(|(_, fields)| fields.len())
        .max()
        .unwrap();
    let top = &stats.top_podcast2_podcasts[0];
    assert_eq!(top.num_podcast20_fields as usize, best);
    let (_, fields) = implemented
        .iter()
        .find(|(slug, _)| *slug == top.podcast_slug)
        .unwrap();
    assert_eq!(
        top.implemented_fields,
        fields.iter().cloned().collect::<Vec<_>>()
    );
    assert_eq!(
        stats.top_podcast2_podcasts.len(),
        implemented
            .iter()
            .filter(|(_, fields)| !fields.is_empty())
            .count()
    );

    // Hosts with transcripts: podcasts with any item declaring a transcript.
    let mut with_transcripts: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    for ((_, _, host), (_, fields)) in FEEDS.iter().zip(&implemented) {
        let entry = with_transcripts.entry(host).or_insert((0, 0));
        entry.0 += 1;
        entry.1 += u64::from(fields.contains("podcast:transcript"));
    }
    with_transcripts.retain(|_, (_, with)| *with > 0);
    let actual: BTreeMap<&str, (u64, u64)> = stats
        .top_hosts_with_podcast2_transcripts
        .iter()
        .map(|h| {
            (
                h.host.as_str(),
                (h.total_podcasts, h.num_podcasts_with_transcripts),
            )
        })
        .collect();
    assert_eq!(actual, with_transcripts);

    let buzzsprout = stats
        .top_hosts_with_podcast2_stats
        .iter()
        .find(|h| h.host == "buzzsprout.com")
        .unwrap();
    let average = implemented[..3]
        .iter()
        .map(|(_, f)| f.len() as f64)
        .sum::<f64>()
        / 3.0;
    assert_eq!(
        buzzsprout.average_num_podcast2_fields,
        (average * 100.0).round() / 100.0
    );
}

#[test]
fn stats_over_the_catalog_and_over_the_snapshot_agree_with_a_recount() {
    let dir = tempfile::tempdir().unwrap();
    let mut catalog = Catalog::open(dir.path()).unwrap();
    let feeds = feeds();
    catalog.upsert_feeds(&feeds).unwrap();
    let from_catalog = catalog.rss_public_stats(100).unwrap();
    check(&from_catalog, &feeds);
    catalog.export_parquet().unwrap();
    let snapshot = Snapshot::open(&catalog.parquet_dir()).unwrap();
    let from_snapshot = snapshot.rss_public_stats(100).unwrap();
    assert_eq!(from_snapshot, from_catalog);
    assert_eq!(
        snapshot
            .rss_public_stats(1)
            .unwrap()
            .podcast2_stats
            .top_hosts
            .len(),
        1
    );
}

#[test]
fn the_response_uses_the_wire_names() {
    let dir = tempfile::tempdir().unwrap();
    let mut catalog = Catalog::open(dir.path()).unwrap();
    catalog.upsert_feeds(&feeds()).unwrap();
    let json = serde_json::to_value(catalog.rss_public_stats(5).unwrap()).unwrap();
    let stats = &json["podcast2Stats"];
    for key in [
        "podcastLevelStats",
        "episodeLevelStats",
        "topPodcast2Podcasts",
        "topHosts",
        "topHostsWithPodcast2Transcripts",
        "topHostsWithPodcast2Stats",
    ] {
        assert!(stats.get(key).is_some(), "{key}");
    }
    assert!(stats["podcastLevelStats"]["totalRssFeeds"].is_number());
    assert!(stats["podcastLevelStats"]["fieldFrequency"][0]["percentage"].is_number());
    let top = &stats["topPodcast2Podcasts"][0];
    for key in [
        "podcastId",
        "host",
        "podcastSlug",
        "podcastImageUrl",
        "rssFeedUrl",
        "numPodcast20Fields",
        "implementedFields",
    ] {
        assert!(top.get(key).is_some(), "{key}");
    }
    assert!(
        stats["topHostsWithPodcast2Transcripts"][0]
            .get("numPodcastsWithTranscripts")
            .is_some()
    );
    assert!(
        stats["topHostsWithPodcast2Stats"][0]
            .get("averageNumPodcast2Fields")
            .is_some()
    );
}

#[test]
fn an_empty_catalog_has_empty_stats() {
    let dir = tempfile::tempdir().unwrap();
    let catalog = Catalog::open(dir.path()).unwrap();
    let stats = catalog.rss_public_stats(10).unwrap().podcast2_stats;
    assert_eq!(stats.podcast_level_stats.total_rss_feeds, 0);
    assert!(stats.top_hosts.is_empty() && stats.top_podcast2_podcasts.is_empty());
}

//! Catalog write and snapshot read timings on generated records: one 3,000-item
//! feed, 200 feeds of 50 items in one transaction, 100 feeds one by one, a Parquet
//! export, and the server's most frequent lookups. Run with
//! `cargo bench -p podlens-data --bench catalog_bench`.

use chrono::{Duration, TimeZone, Utc};
use std::time::{Duration as Elapsed, Instant};

use podlens_data::snapshot::EpisodesQuery;
use podlens_data::{Catalog, Snapshot};
use podlens_model::catalog::{EpisodeRecord, FeedBatch, PodcastRecord, episode_id, podcast_id};

fn feed(index: usize, items: usize) -> FeedBatch {
    let now = Utc
        .with_ymd_and_hms(2024, 3, 1, 12, 0, 0)
        .single()
        .unwrap_or_default();
    let url = format!("https://feeds.example.com/{index}.xml");
    let podcast = PodcastRecord {
        podcast_id: podcast_id(None, &url),
        podcast_slug: format!("show-{index}"),
        podcast_rss_feed_url: url,
        podcast_rss_title: format!("Show {index}"),
        rss_language: Some("en".to_owned()),
        rss_categories: vec!["Technology".to_owned()],
        rss_tags: vec!["podcast:guid".to_owned()],
        total_episodes: items as i64,
        updated_at: now,
        ..PodcastRecord::default()
    };
    let episodes = (0..items)
        .map(|n| EpisodeRecord {
            episode_id: episode_id(podcast.podcast_id, &format!("guid-{n}")),
            podcast_id: podcast.podcast_id,
            episode_slug: format!("episode-{n}"),
            episode_rss_title: format!("Episode {n} of show {index}"),
            episode_rss_description: Some("A description of a typical length. ".repeat(12)),
            episode_enclosure_url: Some(format!("https://cdn.example.com/{index}/{n}.mp3")),
            episode_rss_published_at: Some(now - Duration::days(n as i64)),
            episode_duration_seconds: Some(1800),
            episode_keywords: vec!["tech".to_owned()],
            episode_podcast_title_denormalized: podcast.podcast_rss_title.clone(),
            episode_created_at: now,
            episode_updated_at: now,
            ..EpisodeRecord::default()
        })
        .collect();
    FeedBatch {
        podcast,
        episodes,
        persons: Vec::new(),
        ..FeedBatch::default()
    }
}

/// Runs `work` `runs` times and prints the median duration.
fn measure(name: &str, runs: usize, mut work: impl FnMut()) {
    let mut times: Vec<Elapsed> = (0..runs)
        .map(|_| {
            let started = Instant::now();
            work();
            started.elapsed()
        })
        .collect();
    times.sort();
    println!(
        "{name:<40} median {:>10.2?} over {runs} runs",
        times[runs / 2]
    );
}

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut catalog = Catalog::open(dir.path()).expect("catalog");
    let big = feed(0, 3_000);
    measure("upsert_feed 3000 items", 5, || {
        catalog.upsert_feed(&big).expect("upsert")
    });
    let many: Vec<FeedBatch> = (1..=200).map(|i| feed(i, 50)).collect();
    measure("upsert_feeds 200 feeds x 50 items", 5, || {
        catalog.upsert_feeds(&many).map(|_| ()).expect("upsert")
    });
    let single: Vec<FeedBatch> = (201..=300).map(|i| feed(i, 50)).collect();
    measure("upsert_feed x100, one transaction each", 3, || {
        for batch in &single {
            catalog.upsert_feed(batch).expect("upsert");
        }
    });
    measure("export_parquet 18000 episodes", 5, || {
        catalog.export_parquet().map(|_| ()).expect("export")
    });
    let snapshot = Snapshot::open(&catalog.parquet_dir()).expect("snapshot");
    let id = many[57].podcast.podcast_id;
    measure("snapshot podcast_by_id", 50, || {
        snapshot.podcast_by_id(id).map(|_| ()).expect("query")
    });
    measure("snapshot podcast_episodes page", 50, || {
        snapshot
            .podcast_episodes(id, &EpisodesQuery::default())
            .map(|_| ())
            .expect("query")
    });
    measure("snapshot rss_public_stats", 5, || {
        snapshot.rss_public_stats(100).map(|_| ()).expect("stats")
    });
}

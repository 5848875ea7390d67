//! Writes a synthetic catalog of `PODCASTS` podcasts with `EPISODES` episodes in all
//! (spread unevenly, as real shows are) into `DATA_DIR/catalog.duckdb`, for the scoring
//! benchmark. The values vary the way the authority score's feed inputs do: guests,
//! posting rhythm, episode length, artwork, show-notes length, funding and website links.
//!
//! `cargo run --release -p podlens-data --example synthetic_catalog -- DATA_DIR PODCASTS EPISODES`

use std::path::PathBuf;
use std::time::Instant;

use chrono::{Duration, TimeZone, Utc};
use podlens_data::Catalog;
use podlens_model::catalog::{EpisodeRecord, FeedBatch, PodcastRecord, episode_id, podcast_id};

/// splitmix64: deterministic, seedable, good enough for test data.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

const WORDS: &[&str] = &[
    "interview",
    "founder",
    "story",
    "market",
    "science",
    "history",
    "design",
    "health",
    "startup",
    "music",
    "culture",
    "money",
    "careers",
    "climate",
    "football",
    "comedy",
];

fn text(rng: &mut Rng, words: usize) -> String {
    let mut out = String::with_capacity(words * 8);
    for n in 0..words {
        if n > 0 {
            out.push(' ');
        }
        out.push_str(WORDS[rng.below(WORDS.len() as u64) as usize]);
    }
    out
}

/// Episode counts per podcast summing to `total`: a skewed spread (a few long-running
/// shows, many short ones) normalised to the requested total.
fn episode_counts(rng: &mut Rng, podcasts: usize, total: usize) -> Vec<usize> {
    let weights: Vec<f64> = (0..podcasts)
        .map(|_| {
            let u = (rng.below(10_000) as f64 + 1.0) / 10_001.0;
            1.0 / u.sqrt()
        })
        .collect();
    let sum: f64 = weights.iter().sum();
    let mut counts: Vec<usize> = weights
        .iter()
        .map(|w| ((w / sum) * total as f64).floor().max(1.0) as usize)
        .collect();
    let mut assigned: usize = counts.iter().sum();
    let mut index = 0;
    while assigned < total {
        counts[index % podcasts] += 1;
        assigned += 1;
        index += 1;
    }
    while assigned > total {
        let slot = index % podcasts;
        if counts[slot] > 1 {
            counts[slot] -= 1;
            assigned -= 1;
        }
        index += 1;
    }
    counts
}

fn feed(rng: &mut Rng, index: usize, items: usize) -> FeedBatch {
    let now = Utc
        .with_ymd_and_hms(2026, 11, 1, 12, 0, 0)
        .single()
        .unwrap_or_default();
    let url = format!("https://feeds.example.com/{index}.xml");
    let gap_days = [1, 3, 7, 7, 7, 14, 30][rng.below(7) as usize];
    let first = now - Duration::days((items as i64) * gap_days + rng.below(400) as i64);
    let mut funding = Vec::new();
    if rng.chance(30) {
        funding.push(format!("https://www.patreon.com/show{index}"));
    }
    let podcast = PodcastRecord {
        podcast_id: podcast_id(None, &url),
        podcast_slug: format!("show-{index}"),
        podcast_rss_feed_url: url,
        podcast_rss_title: format!("Show {index} {}", text(rng, 2)),
        podcast_rss_description_no_html: Some(text(rng, 40)),
        podcast_website_url: rng
            .chance(70)
            .then(|| format!("https://show{index}.example.com/")),
        podcast_image_url: rng
            .chance(90)
            .then(|| format!("https://cdn.example.com/{index}.jpg")),
        rss_language: Some("en".to_owned()),
        rss_categories: vec!["Technology".to_owned()],
        podcast_has_guests: rng.chance(40),
        podcast_funding_urls: funding,
        founded_date: rng.chance(50).then_some(first),
        total_episodes: items as i64,
        updated_at: now,
        ..PodcastRecord::default()
    };
    let minutes = 10 + rng.below(80) as i64;
    let notes = rng.below(150) as usize;
    let episodes = (0..items)
        .map(|n| {
            let words = notes + rng.below(20) as usize;
            let description = text(rng, words);
            EpisodeRecord {
                episode_id: episode_id(podcast.podcast_id, &format!("guid-{n}")),
                podcast_id: podcast.podcast_id,
                episode_slug: format!("episode-{n}"),
                episode_rss_title: format!("Episode {n}: {}", text(rng, 4)),
                episode_rss_description: Some(description.clone()),
                episode_rss_description_no_html: Some(description),
                episode_enclosure_url: Some(format!("https://cdn.example.com/{index}/{n}.mp3")),
                episode_rss_published_at: Some(
                    first
                        + Duration::days(n as i64 * gap_days)
                        + Duration::hours(rng.below(48) as i64),
                ),
                episode_duration_seconds: Some(60 * (minutes + rng.below(20) as i64)),
                episode_podcast_title_denormalized: podcast.podcast_rss_title.clone(),
                episode_created_at: now,
                episode_updated_at: now,
                ..EpisodeRecord::default()
            }
        })
        .collect();
    FeedBatch {
        podcast,
        episodes,
        persons: Vec::new(),
        ..FeedBatch::default()
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: synthetic_catalog DATA_DIR PODCASTS EPISODES";
    let dir = PathBuf::from(args.next().ok_or(usage)?);
    let podcasts: usize = args.next().ok_or(usage)?.parse()?;
    let episodes: usize = args.next().ok_or(usage)?.parse()?;
    let started = Instant::now();
    let mut rng = Rng(7);
    let counts = episode_counts(&mut rng, podcasts, episodes);
    let mut catalog = Catalog::open(&dir)?;
    for (chunk_start, chunk) in counts.chunks(500).enumerate() {
        let batches: Vec<FeedBatch> = chunk
            .iter()
            .enumerate()
            .map(|(offset, &items)| feed(&mut rng, chunk_start * 500 + offset, items))
            .collect();
        catalog.upsert_feeds(&batches)?;
    }
    println!(
        "wrote {podcasts} podcasts, {episodes} episodes (largest show {}) in {:.1} s",
        counts.iter().max().copied().unwrap_or(0),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

//! The fixture's enrichment, made by the real jobs: corpus web pages crawled over a
//! loopback HTTP server (one page per fixture podcast), chart snapshot files written
//! in the import format and read back by the scoring importer, one Apple rating
//! lookup, and every podcast's authority score.

use std::collections::HashMap;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};

use chrono::{Duration, NaiveDate, Utc};
use podlens_crawler::{CrawlOptions, Crawler};
use podlens_data::{Catalog, ChartPositionRow, PlatformLookupRow};
use podlens_model::catalog::FeedBatch;
use podlens_scoring::authority::{authority_score, feed_inputs};
use podlens_scoring::charts::{compute_movements, read_snapshot_dir};
use serde_json::json;
use uuid::Uuid;

/// The corpus page crawled as the website of the fixture podcast at the same index.
pub const FIXTURE_SITES: &[&str] = &[
    "metascraper_transistor.fm.html",
    "metascraper_reactpodcast.html",
    "metascraper_acast.html",
    "metascraper_npr.html",
    "metascraper_spotify_show.html",
    "metascraper_podcasts.apple.com.html",
];

/// The main chart: apple, us, top podcasts, from `CHART_START` for `CHART_DAYS`
/// days, with no snapshot on `CHART_GAP`.
pub const CHART_DAYS: i64 = 10;
pub const CHART_GAP_OFFSET: i64 = 4;
pub const RATED_APPLE_ID: &str = "1200000001";
pub const RATED_RATING: f64 = 4.6;
pub const RATED_COUNT: u64 = 120;

pub fn chart_start() -> NaiveDate {
    NaiveDate::from_ymd_opt(2025, 3, 1).expect("date")
}

/// What the enrichment holds, for tests to derive expectations from.
#[derive(Debug, Clone)]
pub struct EnrichmentFixture {
    /// The chart snapshot files, `<type>/<country>/<category>/<date>.json`.
    pub charts_dir: PathBuf,
    /// Podcast id → the corpus page crawled as its website.
    pub sites: HashMap<Uuid, PathBuf>,
    /// The podcast with an Apple rating lookup.
    pub rated_podcast: Uuid,
}

fn corpus_websites() -> PathBuf {
    super::corpus_dir().join("websites")
}

/// Crawls each site page as its podcast's home page, from a loopback server over the
/// corpus's websites folder.
fn crawl_sites(catalog: &mut Catalog, batches: &[FeedBatch]) -> HashMap<Uuid, PathBuf> {
    let pairs: Vec<(Uuid, &str)> = batches
        .iter()
        .zip(FIXTURE_SITES)
        .map(|(batch, site)| (batch.podcast.podcast_id, *site))
        .collect();
    let owned: Vec<(Uuid, String)> = pairs.iter().map(|(id, s)| (*id, s.to_string())).collect();
    // A runtime of its own on a thread of its own: callers may already be async.
    let results = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        runtime.block_on(async move {
            let listener =
                tokio::net::TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
                    .await
                    .expect("bind");
            let address = listener.local_addr().expect("address");
            let app = axum::Router::new()
                .fallback_service(tower_http::services::ServeDir::new(corpus_websites()));
            tokio::spawn(async move { axum::serve(listener, app).await });
            let crawler = Crawler::new(CrawlOptions {
                max_pages: 1,
                max_depth: 0,
                politeness_delay: std::time::Duration::ZERO,
                allow_private: true,
                ..CrawlOptions::default()
            })
            .expect("crawler");
            let mut results = Vec::new();
            for (id, site) in owned {
                let url = format!("http://{address}/{site}");
                let result = crawler.crawl(&url).await.expect("site crawls");
                results.push((id, site, result));
            }
            results
        })
    })
    .join()
    .expect("crawl thread");
    let now = Utc::now();
    let mut sites = HashMap::new();
    for (id, site, result) in results {
        catalog
            .store_crawl_result(id, &result, now)
            .expect("crawl stored");
        sites.insert(id, corpus_websites().join(site));
    }
    sites
}

/// Writes the chart snapshots: the main chart's order rotates by one place a day,
/// the fourth fixture podcast is off the chart on even days, two shows are not in
/// the catalog; a Spotify chart has three days.
fn write_charts(dir: &Path, batches: &[FeedBatch]) {
    let start = chart_start();
    let shows: Vec<(String, String, Option<String>)> = batches
        .iter()
        .enumerate()
        .map(|(index, batch)| {
            (
                format!("{}", 1_100_000_000 + index),
                batch.podcast.podcast_rss_title.clone(),
                Some(batch.podcast.podcast_rss_feed_url.clone()),
            )
        })
        .chain([
            ("1900000001".to_owned(), "Uncatalogued One".to_owned(), None),
            ("1900000002".to_owned(), "Uncatalogued Two".to_owned(), None),
        ])
        .collect();
    for offset in 0..CHART_DAYS {
        if offset == CHART_GAP_OFFSET {
            continue;
        }
        let day = start + Duration::days(offset);
        let count = shows.len();
        let order: Vec<&(String, String, Option<String>)> = (0..count)
            .map(|i| &shows[(i + offset as usize) % count])
            .filter(|show| !(offset % 2 == 0 && show.0 == shows[3].0))
            .collect();
        write_snapshot(dir, "apple", "us", "top podcasts", day, &order);
    }
    for offset in (CHART_DAYS - 3)..CHART_DAYS {
        let day = start + Duration::days(offset);
        let order: Vec<&(String, String, Option<String>)> = if offset % 2 == 0 {
            vec![&shows[0], &shows[1], &shows[2]]
        } else {
            vec![&shows[2], &shows[0], &shows[1]]
        };
        write_snapshot(dir, "spotify", "gb", "comedy", day, &order);
    }
}

fn write_snapshot(
    dir: &Path,
    chart_type: &str,
    country: &str,
    category: &str,
    day: NaiveDate,
    order: &[&(String, String, Option<String>)],
) {
    let id_field = if chart_type == "apple" {
        "appleId"
    } else {
        "spotifyId"
    };
    let positions: Vec<serde_json::Value> = order
        .iter()
        .enumerate()
        .map(|(index, (id, title, feed))| {
            let mut entry = json!({"position": index + 1, "title": title, "feedUrl": feed});
            entry[id_field] = if chart_type == "apple" {
                json!(id.parse::<u64>().expect("numeric id"))
            } else {
                json!(id)
            };
            entry
        })
        .collect();
    let folder = dir
        .join(chart_type)
        .join(country)
        .join(category.replace(' ', "-"));
    std::fs::create_dir_all(&folder).expect("chart folder");
    let snapshot = json!({"chartType": chart_type, "country": country, "category": category,
        "chartDate": day, "positions": positions});
    std::fs::write(folder.join(format!("{day}.json")), snapshot.to_string())
        .expect("chart written");
}

/// Imports the chart files as `podlens score` does: movements, then the catalog
/// podcast of each entry by its feed URL.
fn import_charts(catalog: &mut Catalog, dir: &Path, batches: &[FeedBatch]) {
    let feeds: HashMap<&str, Uuid> = batches
        .iter()
        .map(|batch| {
            (
                batch.podcast.podcast_rss_feed_url.as_str(),
                batch.podcast.podcast_id,
            )
        })
        .collect();
    let rows: Vec<ChartPositionRow> =
        compute_movements(&read_snapshot_dir(dir).expect("charts read"))
            .into_iter()
            .map(|row| ChartPositionRow {
                chart_type: row.key.chart_type.as_str().to_owned(),
                frequency: row.key.frequency.as_str().to_owned(),
                country: row.key.country.clone(),
                category: row.key.category.clone(),
                chart_date: row.chart_date,
                captured_at: row.captured_at,
                position: row.position,
                podcast_id: row
                    .feed_url
                    .as_deref()
                    .and_then(|url| feeds.get(url).copied()),
                podcast_on_chart_id: row.podcast_on_chart_id,
                title: row.title,
                creator: row.creator,
                image_url: row.image_url,
                feed_url: row.feed_url,
                previous_position: row.previous_position,
                position_change: row.position_change,
                movement: row.movement.as_str().to_owned(),
                days_in_chart: row.days_in_chart,
                streak: row.streak,
            })
            .collect();
    catalog.import_charts(&rows).expect("charts imported");
}

/// Adds the enrichment to a catalog holding `batches`.
pub fn add_enrichment(
    catalog: &mut Catalog,
    data_dir: &Path,
    batches: &[FeedBatch],
) -> EnrichmentFixture {
    let sites = crawl_sites(catalog, batches);
    let charts_dir = data_dir.join("charts");
    write_charts(&charts_dir, batches);
    import_charts(catalog, &charts_dir, batches);

    let rated_podcast = batches[1].podcast.podcast_id;
    let lookup = PlatformLookupRow {
        platform: "apple".into(),
        lookup_key: RATED_APPLE_ID.into(),
        podcast_id: Some(rated_podcast),
        rating: Some(RATED_RATING),
        ratings_count: Some(RATED_COUNT),
        wilson_score: podlens_scoring::rating_wilson_score(Some(RATED_RATING), Some(RATED_COUNT)),
        ..PlatformLookupRow::default()
    };
    catalog
        .store_lookups(std::slice::from_ref(&lookup))
        .expect("lookup stored");

    let now = Utc::now();
    let mut scores = Vec::new();
    for batch in batches {
        let id = batch.podcast.podcast_id;
        let podcast = catalog
            .podcast(id)
            .expect("podcast read")
            .expect("podcast stored");
        let episodes = catalog.episodes_of_podcast(id).expect("episodes read");
        let mut inputs = feed_inputs(&podcast, &episodes, now);
        inputs.website_links = catalog
            .crawl_result(id)
            .expect("crawl read")
            .map(|crawl| crawl.socials.len() as u64);
        if id == rated_podcast {
            inputs.rating = lookup.rating;
            inputs.review_count = lookup.ratings_count;
        }
        if let Some(score) = authority_score(&inputs) {
            scores.push((score.details(&id.to_string(), &inputs, now), score.coverage));
        }
    }
    catalog.store_scores(&scores).expect("scores stored");
    EnrichmentFixture {
        charts_dir,
        sites,
        rated_podcast,
    }
}
